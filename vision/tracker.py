"""The table tracker: noisy per-frame detections in, the events of the game out.

One verb, `update(frame_time, detections) -> [event, ...]`. A physical card on the felt is a track
(matched frame to frame by position); it becomes a play once it has stayed still for `steady_s` and
was seen in at least `hit_ratio` of those frames, so flicker, a hand passing over or a card sliding
into place create nothing (a box read too weakly to name on such a card, yet clearly one card
not played, is a sighting too: `weak_sightings`; so are boxes read so, alike, three frames in a
row where the felt lay bare: `vision.weak_streaks`). Its name is the vote of every reading of the
track; the engine's view (`DealView`: whose turn, cards already played, cards still possible)
settles what the picture cannot (`vision.recording`), and any such settlement, or a weak
reading, marks the play `uncertain` for the referee.
Plays keep the order of the seats: a card out of turn waits for the seat whose turn it is (at a
trick's start, for the seats that may have won the trick before), and a seat never read by the
time its trick is gathered, or when the seat after it has played, gets an unread play (card None)
in its place (`vision.gathering`), filled when its card shows, named in doubt from the weak
readings where it lies when they clearly favour one card, or named at the deal's end when the rest
of the deal proves it (`vision.unread_naming`). A card lost under a hand and seen again keeps its
first sighting, which says in what order the cards came. Later frames that prove an earlier
reading wrong correct it (`vision.reading_fixes`); a play in doubt whose box vanished while its
trick lay there gives way to the card its seat has lain beside it since (`vision.vanished_plays`).

Events are dicts `{"type": ..., "data": {...}}` as in docs/events.md; a `card_played` event also
carries `"box"` (the card in image pixels) so the loop can cut an evidence picture.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from vision.card_track import ECHO_IOU, CardTrack, count_since, weak_sightings
from vision.deal_view import DealView
from vision.detections import UNNAMED, Detection, iou
from vision.felt_marks import FeltMarks
from vision.gathering import Gathering
from vision.geometry import OUTSIDE, SEATS, TRICK, TableGeometry
from vision.reading_fixes import ReadingFixes
from vision.recording import Recording
from vision.still_objects import StillObjects, before_deal
from vision.track_match import found_again, match_tracks
from vision.turn_order import TurnOrder
from vision.unread_naming import UnreadNaming
from vision.vanished_plays import VanishedPlays
from vision.weak_streaks import WeakStreaks

Event = dict[str, Any]
# Boxes read too weakly to name count towards a card's steadiness once it has been named this
# many times (`_steady`). From its first naming, cards were recorded under the name of a frame
# or two read under the hand: seed 2105 deal 5, N's 9H recorded 8H and renamed 76 s later;
# seed 2104 deal 5 lost two plays. (While it is seen this very frame: seed 2109 deal 10, a card
# passing in a hand over N's place, read AC for 0.5 s, was recorded as N's play.)
WEAK_AFTER = 2
# A card lost from sight (under a hand) and seen again within this many seconds at its place,
# under the same name, is the same card.
LOST_KEEP = 5.0
# A card held for its turn is kept out of sight (under a hand) once seen this many times; one
# glimpsed fewer times (a hand's shadow read as a card for a few frames) is forgotten like any.
HELD_SEEN = 8


@dataclass
class TrackerSettings:
    """Timings in seconds of frame time; see `device.config.TrackerConfig` for the meanings."""

    steady_s: float = 0.3
    hit_ratio: float = 0.6
    forget_s: float = 0.6
    gather_s: float = 0.8
    empty_s: float = 1.0
    min_conf: float = 0.25
    sure_conf: float = 0.6
    dealer: str = "S"
    # A doubtful name or an older card still unconfirmed: wait this long. (0.2 recorded every
    # play of seven simulated sets as 0.6 did, faster; on a fresh one it recorded a card held in
    # a hand that lay still half a second, 6 plays shifted: a hand-held card must not become a
    # play, so 0.6 stays.)
    max_wait: float = 0.6
    # A card out of turn waits this long for the one whose turn it is (which may be hidden, late
    # or never read): plays keep the order of the seats, and a card never read becomes an
    # unread play in its place when the trick is gathered.
    turn_wait: float = 20.0
    match: float = 0.6  # a detection belongs to a track within this many card sizes
    settle: float = 0.15  # a card moving less than this many card sizes is still

    @classmethod
    def from_config(cls, cfg: Any) -> TrackerSettings:
        names = cls.__dataclass_fields__
        return cls(**{k: v for k, v in dict(cfg).items() if k in names})


class TableTracker(Recording, Gathering, ReadingFixes, UnreadNaming, TurnOrder, VanishedPlays):
    """Detections → events. Feed every frame, in time order; `observe` the referee's events."""

    def __init__(
        self,
        geometry: TableGeometry | None = None,
        settings: TrackerSettings | None = None,
        rules: Any = "ffb-coinche",
    ) -> None:
        self.geometry = geometry
        self.settings = settings or TrackerSettings()
        self.view = DealView(rules)
        self.tracks: list[CardTrack] = []
        self._frames: deque[float] = deque(maxlen=512)
        self._empty_since: float | None = None
        self._now = 0.0
        # (first card's landing, last trick's plays, share needed)
        self._mend_tried: set[tuple[float, tuple[tuple[str, str | None], ...], float]] = set()
        self._lost: list[CardTrack] = []  # candidates gone from sight lately (`found_again`)
        self._glimpsed: dict[str, float] = {}  # zone: first candidate there since the last sweep
        self._felt_marks = FeltMarks()  # weak boxes of the felt itself, not glimpses
        self._streaks = WeakStreaks()  # boxes read weakly but alike frame after frame
        self._objects = StillObjects()  # boxes lying still, read as no card (a score pad)
        self._deal_seen: float | None = None  # the deal's first frame (`before_deal`)
        self._sizes: deque[float] = deque(maxlen=32)  # long sides of the last cards played
        self._card_size: float | None = None  # their median (`_too_small`)
        # (trick, seat): {card: summed probability} of boxes read too weakly to name there
        # (`vision.two_stage.WEAK_PROB`): which card an unread play held, when the rules hesitate
        self._hints: dict[tuple[int, str], dict[str, float]] = {}
        self._early: dict[int, str] = {}  # play: card named from those readings, in doubt
        # (play, plays recorded, plays unread): the cards the rules allow there as well as any
        self._early_fit: dict[tuple[int, int, int], set[str] | None] = {}
        self._boxed: dict[CardTrack, float] = {}  # (`vision.vanished_plays`)

    # --- the event log -------------------------------------------------------------------------

    def restore(self, events: Iterable[Any]) -> None:
        """Resume from stored events: the plays of the trick on the table are expected back."""
        self.view = DealView(self.view.default_rules)
        self._early, self._early_fit = {}, {}
        self._deal_seen = None
        for e in events:
            e = e.to_json() if hasattr(e, "to_json") else e
            self.view.apply(e)
            data = e.get("data", {})
            if e["type"] == "deal_started":
                self._early = {}
            elif e["type"] == "correction" and data.get("before") is None \
                    and "alternatives" in data and not data.get("deduced"):
                self._early[int(data["play"])] = str(data["card"])  # named from weak readings
        start = 4 * self.view.gathered
        self.tracks = [
            CardTrack(None, TRICK, -1.0, float("nan"), state="played", card=card,
                      hinted=self._early.get(i) == card)
            for i, (_seat, card) in enumerate(self.view.trick_plays, start)
            if card is not None
        ]

    def observe(self, event: Any) -> None:
        """An event someone else wrote (the referee's contract, a correction, an undo)."""
        e = event.to_json() if hasattr(event, "to_json") else event
        self.view.apply(e)
        if e["type"] in ("deal_started", "game_started"):
            self._forget_deal()
            return
        if e["type"] == "deal_over":
            for t in self.tracks:
                t.state = "gathered" if t.state == "played" else t.state
            return
        played = set(self.view.played)
        for t in self.tracks:
            if t.state == "played" and t.card not in played:
                if t.card in self.view.corrected:
                    t.card = self.view.corrected[t.card]
                else:  # the referee cancelled it: never record that object again
                    t.state = "ignored"

    def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
        event: Event = {"type": kind, "data": dict(data), **extra}
        if kind == "correction":  # when the camera's frames proved it (frame time)
            event["data"].setdefault("t", round(self._now, 3))
        self.view.apply(event)
        out.append(event)

    # --- per frame -----------------------------------------------------------------------------

    def _zone(self, det: Detection) -> str:
        if self.geometry is None:
            return TRICK
        return self.geometry.zone(det.center)

    def update(self, frame_time: float, detections: Sequence[Detection]) -> list[Event]:
        """Take one frame's detections; return the events it completes (usually none)."""
        t, s = frame_time, self.settings
        if self._deal_seen is None:
            self._deal_seen = t
        played = self.view.played  # (a set built on each call: once a frame)
        followed = [tr.box for tr in self.tracks if tr.state == "candidate" and tr.box is not None]
        detections = weak_sightings(detections, played, followed)
        detections, streaks = self._streaks.promote(t, detections, played, self._may_streak)
        self._now = t
        self._frames.append(t)
        for tr in self.tracks:  # restored plays count as just seen
            if tr.last_seen != tr.last_seen:
                tr.last_seen = tr.present = t
        zoned = [(d, self._zone(d)) for d in detections]
        seen = [(d, z) for d, z in zoned if d.confidence >= s.min_conf and z != OUTSIDE]
        self._note_hints(zoned)
        full = len(self.view.trick_plays) >= 4
        new = match_tracks(self.tracks, seen, t, s, full)
        if streaks:
            new = [self._since_streak(tr, streaks) for tr in new]
        # (when the trick on the table began: its first card's first sighting; asked for new
        # tracks only)
        began = min((o.first_seen for o in self.tracks if o.state == "played"),
                    default=None) if new else None
        if t == self._deal_seen:
            for box in before_deal(self.view, zoned):
                self._objects.lay_before(t, box)
        for tr in new:
            found_again(tr, self._lost, self.settings.match)
            if tr.box is not None:  # (by the frames before this one)
                tr.on_object = self._objects.under(tr.box, tr.first_seen, began)
        self._objects.note(t, [(d.box, d.card == UNNAMED) for d, z in zoned if z != OUTSIDE])
        self.tracks += new
        kept = []
        for tr in self.tracks:
            if tr.state in ("played", "gathered") or t - tr.last_seen <= s.forget_s \
                    or (tr.held and len(tr.times) >= HELD_SEEN):
                kept.append(tr)
            elif tr.state == "candidate" and len(tr.times) >= 2:
                self._lost.append(tr)
        self.tracks = kept
        self._lost = [tr for tr in self._lost if t - tr.last_seen <= LOST_KEEP]
        if not full:  # nobody lifts a card of an incomplete trick: a box on one, even unnamed,
            for tr in self.tracks:  # says it lies there still
                if tr.state == "played":
                    tr.lies_under(t, detections, s.forget_s)
        weak = [d for d, z in zoned if d.card == UNNAMED and z in SEATS]
        if weak:
            for tr in self.tracks:
                if tr.state == "candidate":
                    tr.read_weakly(t, weak, played)
        self._drop_echoes(t)
        for tr in self.tracks:
            if tr.state == "candidate" and tr.last_seen == t and len(tr.times) >= 2 \
                    and not self._on_object(tr):
                self._glimpsed.setdefault(tr.zone, tr.first_seen)
        out: list[Event] = []
        self._maybe_start(t, bool(seen), out)
        # First: a trick swept away before its last card was read is closed before the next
        # trick's lead, which may come from the seat that was never read, is recorded.
        self._maybe_gather(t, out, early=True)
        self._mend_leader(t, out)
        self._replace_vanished(t, detections, out)  # (before a card it makes a play is held)
        # A card held for its turn was steady when held; under a hand when its turn comes (the
        # last trick's winner corrected), it is still that seat's card. Not one unseen since
        # well before the whole trick went: it went with it (`_gather`; seed 2124 deal 10, read
        # on the small picture: a box on E's 9D read 8D, held for E's next lead, gone 3 s when
        # the trick was swept, was recorded as E's lead of the next trick).
        went = self._trick_went()
        ready = [tr for tr in self.tracks if tr.state == "candidate" and (
            self._steady(tr, t) or (tr.held and len(tr.times) >= HELD_SEEN
                                    and tr.last_seen > went - s.gather_s))]
        for tr in sorted(ready, key=lambda tr: tr.settled_since):
            self._recall_early(tr, out)
            if not self._should_wait(tr, t):
                self._commit(tr, t, out)
        self._close_gap(t, out)
        self._recheck(t, out)
        self._rename_by_whole_card(out)
        self._name_early(out)
        self._maybe_gather(t, out)
        return out

    def _may_streak(self, d: Detection) -> bool:
        """Whether a box read too weakly to name may show a card put down (`WeakStreaks`): in
        front of a seat, on no mark of the felt, on no card recorded."""
        return self._zone(d) in SEATS and not self._felt_marks.covers(d.box) and not any(
            tr.state == "played" and tr.box is not None and iou(tr.box, d.box) >= ECHO_IOU
            for tr in self.tracks)

    def _since_streak(self, tr: CardTrack,
                      streaks: Sequence[Sequence[tuple[float, Detection]]]) -> CardTrack:
        """A new track started by a streak of weak readings starts with the streak's first
        frame: the card lay there from then on."""
        frames = next((f for f in streaks if f[-1][1].box is tr.box), None)
        if frames is None:
            return tr
        first, det = frames[0]
        fresh = CardTrack(None, tr.zone, first, first, anchor=det.center, settled_since=first)
        for when, sighting in frames:
            fresh.see(when, sighting, tr.zone, self.settings.settle)
        return fresh

    def _drop_echoes(self, t: float) -> None:
        """A candidate lying where a card of the trick on the table lies is that card read twice
        (two boxes on one card, or one card hidden a while and read as another name): never a
        play. A trick is swept whole, so it lies there while another of its cards is seen
        (lately; once it has its four cards, this very frame, for the next lead may come right
        after the sweep). Once complete, a candidate on a card seen this frame must also read
        that card: a card there may be the next lead put where an old one was swept."""
        s = self.settings
        full = len(self.view.trick_plays) >= 4
        trick = [o for o in self.tracks if o.state == "played" and o.box is not None]
        seen = [o for o in trick if (o.last_seen == t if full else t - o.present <= s.forget_s)]
        # (only while enough of the trick is seen to say it still lies there)
        unseen = [o for o in trick if o not in seen] if len(seen) >= (2 if full else 1) else []
        # A trick of one card is not swept while its three others go unseen: a candidate in
        # that card's place, on it, is that card seen again once the detector lost it a while,
        # and it lies there still (seed 2116 deal 1: N's 8C, read 7C under the hand, then
        # unseen for a second, then read 8C where it lay, was taken for N's next lead).
        lone = trick[0] if len(trick) == 1 and len(self.view.trick_plays) == 1 \
            and not seen else None
        for tr in self.tracks:
            if tr.state != "candidate" or tr.box is None or t - tr.last_seen > s.forget_s:
                continue
            host = next((o for o in seen if tr.echo_of(o, strict=full)), None) \
                or next((o for o in unseen if tr.echo_of(o)), None)
            if host is None and lone is not None and tr.zone == lone.zone and tr.echo_of(lone):
                host = lone
                lone.present = max(lone.present, tr.last_seen)
            if host is not None:
                # Named, it keeps the frames that read it alike (`match_tracks`): one object.
                tr.state, tr.held, tr.card = "ignored", False, tr.readings()[0][0]
                if host.zone == tr.zone:
                    host.echoes.append(tr)

    def _trick_went(self) -> float:
        """When the last card of the whole trick on the table was last seen (even under a box
        unnamed); minus infinity while the trick is incomplete."""
        if len(self.view.trick_plays) < 4:
            return float("-inf")
        return max((max(tr.last_seen, tr.present) for tr in self.tracks if tr.state == "played"),
                   default=float("-inf"))

    def _steady(self, tr: CardTrack, t: float) -> bool:
        s = self.settings
        if t - tr.settled_since < s.steady_s - 1e-6:
            return False
        if tr.seen_weakly() and tr.glimpsed != t:
            # (seed 2109 deal 10: N's AC, in a hand over N's place, read AC 0.45-0.52 for four
            # frames, 0.2 s before N put the QD down, was steady and recorded, as it was gone)
            return False
        # Judge the whole time it has lain still (up to 1 s), so two unlucky misses right after
        # it landed delay it by a frame, not by a whole window.
        since = max(tr.settled_since, t - max(1.0, s.steady_s)) - 1e-6
        frames = count_since(self._frames, since)
        hits = count_since(tr.times, since)
        # Frames that read it only weakly, its best name best, show it lying there too, once
        # it has been named WEAK_AFTER times and while it is seen (named or weakly) this frame.
        if len(tr.times) >= WEAK_AFTER and tr.glimpsed == t:
            hits += count_since(tr.weak_times, since)
        # A card that stays put is real even if the detector only sees it every other frame:
        # the share asked for falls to half of hit_ratio over the next second, with more hits.
        age = t - tr.settled_since - s.steady_s
        ratio = s.hit_ratio * max(0.5, 1.0 - 0.5 * age)
        return frames > 0 and hits >= max(2 if age < 0.1 else 4, ratio * frames)

    # --- the deal's life -----------------------------------------------------------------------

    def _maybe_start(self, t: float, anything: bool, out: list[Event]) -> None:
        if self.view.open:
            self._empty_since = None
            return
        if anything:
            self._empty_since = None
        elif self._empty_since is None:
            self._empty_since = t
        elif t - self._empty_since >= self.settings.empty_s:
            self._start_deal(out)

    def _start_deal(self, out: list[Event]) -> None:
        self._emit(out, "deal_started", {"dealer": self.view.next_dealer(self.settings.dealer)})
        self._mend_tried.clear()
        self._forget_deal()
        self._empty_since = None

    def _forget_deal(self) -> None:
        """A new deal: only cards not recorded yet are followed on; what was learnt of the last
        deal's tricks (weak readings, early names, the felt's marks) goes."""
        self.tracks = [tr for tr in self.tracks if tr.state == "candidate"]
        self._hints, self._early, self._early_fit, self._boxed = {}, {}, {}, {}
        self._felt_marks.forget()
        self._deal_seen = None

    # --- for tests and the health page ---------------------------------------------------------

    @property
    def on_table(self) -> list[str]:
        """Cards recorded and still seen lying on the felt."""
        return [tr.card for tr in self.tracks if tr.state == "played" and tr.card]


def replay_detections(
    tracker: TableTracker, frames: Iterable[tuple[float, Sequence[Detection]]]
) -> list[Event]:
    """Run a scripted list of (time, detections) through the tracker; all events in order."""
    out: list[Event] = []
    for t, dets in frames:
        out.extend(tracker.update(t, dets))
    return out
