"""Recording a card that has settled: a play (its seat, its name chosen with the engine's view),
the turned card of a belote prise, or a card recorded before, moved while nobody saw it. Part of
the table tracker (`vision.tracker.TableTracker` mixes it in).

The size of each card recorded is kept too: the camera is fixed, so a box far smaller than the
cards played so far is no card put down (`_too_small`); nor, unless read surely, is a box on an
object that lay there read as no card, or one that lay in front of a seat when the deal's
first frame was seen (`vision.still_objects`): they wait (`_unproven`,
asked by `vision.turn_order`). Read weakly, a box that lay through a trick in front of a seat
that played in it, or in a seat's place before the lead came, is nobody's play
(`_lay_through`, `_drop_before_lead`).
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from vision.card_track import DOUBTED_SHARE, CardTrack, dist
from vision.deal_view import DealView
from vision.detections import CLASS_NAMES
from vision.geometry import SEATS, TableGeometry
from vision.leads import leader_in_doubt
from vision.seen_twice import beside_itself
from vision.still_objects import StillObjects
from vision.votes import alternatives

Event = dict[str, Any]
# A box before a seat under this share of the median size of the cards played is not a card.
# (0.7 until session 40: seed 2144 deal 16, a card in a hand over S's place, boxed at 0.69 of
# the cards and read 7D 0.55-0.67 for 0.4 s before S put the QD down, was S's play; 0.75 read
# seeds 2140-2145 all right, with 3 plays of 3,200 later.)
SMALL = 0.75
# ... unless it lies still, read surely (its votes' share 0.6, its sightings SMALL_SURE_CONF on
# average) SMALL_SURE_WAIT beyond steady_s, and is SMALL_LEAST of them at least: a card that stays
# partly hidden, boxed by its part in view (seed 2168 deal 5: E's AD, boxed 36 px of 51 and read
# AD 0.83-0.94 in every frame, waited 2.7 s until N played, was recorded unread and named only
# at the deal's end). (The fingers of seed 2089 deal 19, below, were 0.6 of a card.)
SMALL_SURE_WAIT = 1.0
SMALL_SURE_CONF = 0.8
SMALL_LEAST = 0.65


class Recording:
    """The tracker's recording of settled cards (mixed into `TableTracker`)."""

    view: DealView
    tracks: list[CardTrack]
    settings: Any
    geometry: TableGeometry | None
    _sizes: deque[float]  # long sides of the last cards played
    _card_size: float | None  # their median
    _objects: StillObjects

    if TYPE_CHECKING:  # provided by TableTracker, Gathering, ReadingFixes and UnreadNaming
        def _emit(self, out: list[Event], kind: str, data: Mapping[str, Any], **extra: Any) -> None:
            ...

        def _start_deal(self, out: list[Event]) -> None:
            ...

        def _provisional(self) -> dict[int, str]:
            ...

        def _fill_unread(self, tr: CardTrack, t: float, out: list[Event]) -> bool:
            ...

        def _recall(self, tr: CardTrack, out: list[Event]) -> bool:
            ...

        def _gather(self, out: list[Event], committing: CardTrack | None = None) -> None:
            ...

        def _trick_read(self) -> tuple[set[str], float]:
            ...

    def _commit(self, tr: CardTrack, t: float, out: list[Event]) -> None:
        """A candidate has settled: record it as a play (or a turned card, or a moved play)."""
        view, s = self.view, self.settings
        readings = tr.readings()
        top = readings[0][0]
        if not view.open:
            self._start_deal(out)
        # Belote prise: the first card shown before the contract is the turned card, wherever
        # it lies (the auction is not over, so nobody has played yet).
        if view.turned_due:
            tr.state, tr.card = "turned", top
            self._emit(out, "turned_card", {"card": top})
            return
        on_table = {o.card: o for o in self.tracks if o.state == "played"}
        if top in on_table:
            old = on_table[top]
            # (not while a box, even unnamed, lay in its place as this one came; one named from
            # weak readings cannot have moved: read elsewhere, it was misnamed; one recorded
            # with its name in doubt, read before another seat, likewise)
            if old.present < tr.first_seen and old.readings()[0][0] == top \
                    and not (old.hinted and old.zone != tr.zone) \
                    and not old.misnamed_if_at(tr.zone):
                named = [i for i, c in self._provisional().items() if c == top]
                self._merge(tr, old)  # the same card, moved while nobody saw it
                for i in named:  # (or named from weak readings, now read plainly)
                    self._emit(out, "correction", {"play": i, "card": top, "before": top,
                                                   "uncertain": False})
                return
            if old.box is not None and dist(tr.center, old.center) <= s.match * old.size:
                tr.state = "ignored"  # an echo of a card already recorded, lying there
                return
        if self._fill_unread(tr, t, out):
            return
        if view.complete:
            tr.state = "ignored"
            return
        clear = tr.best()[1]
        if clear >= 0.6 and top in view.played:
            self._recall(tr, out)
        may_be = beside_itself(view, self.tracks, tr)  # (not a card lying elsewhere now)
        last = last_card(view)  # (then only in the place of the seat whose turn it is)
        if last is not None and tr.zone != view.turn:
            last = None
        if last is None and not view.news(may_be):
            # Every reading a card already played: no new trick began. Named, the track keeps
            # the frames that read it alike (`match_tracks`): one object lying there, not a
            # new track each time it settles.
            tr.state, tr.card = "ignored", top
            return
        if len(view.plays) >= 4 * (view.gathered + 1):
            if self._lay_through(tr):
                self._set_aside(tr, t)
                return
            self._gather(out, tr)  # the next trick has begun, so the last one was gathered
        leads = not view.trick_plays
        seat, seat_sure = self._seat(tr)
        card, resolved = (last, last != top) if last is not None else view.choose(may_be, seat)
        if card is None:
            tr.state = "ignored"  # every reading is a card already on the table
            return
        confs = tr.conf.get(card) or [dict(readings).get(card, 0.0)]
        confidence = sum(confs) / len(confs)
        card_share = clear if card == top else dict(readings).get(card, 0.0)
        tr.name_doubted = confidence < s.sure_conf or card_share < DOUBTED_SHARE
        uncertain = resolved or not seat_sure or tr.name_doubted
        others = alternatives(readings, card)
        tr.state, tr.card, tr.recorded_box = "played", card, tr.box
        if clear < 0.6 and t - tr.settled_since - s.steady_s < s.max_wait:
            tr.doubt_settled = tr.settled_since  # recorded in doubt without waiting
        data = {
            "seat": seat,
            "card": card,
            "t": round(t, 3),
            "seen": round(tr.settled_since, 3),
            "confidence": round(confidence, 3),
            "uncertain": bool(uncertain),
            "alternatives": others,
            "evidence": None,
        }
        self._emit(out, "card_played", data, box=list(tr.box) if tr.box else None)
        if leads:
            self._drop_before_lead(tr, seat, t)
        if tr.box is not None:
            self._sizes.append(tr.size)
            if len(self._sizes) >= 2:  # (of two, the smaller: a box on two cards must not
                self._card_size = statistics.median(self._sizes) \
                    if len(self._sizes) >= 3 else min(self._sizes)  # make the rest small)

    def _lay_through(self, tr: CardTrack) -> bool:
        """Whether `tr`, about to lead the next trick, lay in front of a seat that played in the
        trick on the table since before that trick's last card came, never read surely: nobody's
        play, as at a sweep (`_gather`). Seed 2189 deal 12 at 640x480: a score pad in W's
        corner, boxed from 6.2 s and read AC 0.5-0.55, was held for W's turn while S and E
        played, and recorded as W's lead as the trick went; W's KS then closed that trick with
        three unread plays (4/32 and two false flags)."""
        read, last_came = self._trick_read()
        return tr.zone in read and tr.first_seen < last_came \
            and not tr.read_surely(self.settings.sure_conf)

    def _drop_before_lead(self, lead: CardTrack, seat: str, t: float) -> None:
        """Candidates held in another seat's place since before the lead `lead` of `seat` came,
        never read surely, when only `seat` could lead: nobody's play (the seats between the
        leader and theirs had yet to play), so objects from now on, as at `_lay_through`. Seed
        2192 deal 1 at 640x480: a score pad in E's far corner, boxed during the first trick's
        sweep and read AC 0.41-0.5 only, held for E's turn, was recorded as E's card as W led
        (with S's play unread before it, `_close_gap`); E's real 7H was never recorded."""
        view = self.view
        before = [o for o in self.tracks
                  if o.state == "candidate" and o.held and o.zone in SEATS and o.zone != seat
                  and o.first_seen < lead.first_seen
                  and not o.read_surely(self.settings.sure_conf)]
        if not before or view.leaders() != {seat} or leader_in_doubt(view, self.tracks):
            return  # (another seat may have led: the cards held may say so, `_mend_leader`)
        for o in before:
            self._set_aside(o, t)

    def _set_aside(self, tr: CardTrack, t: float) -> None:
        """`tr` is nobody's play: ignored, and its place an object from now on, whatever it is
        read as (`StillObjects.lay_before`)."""
        tr.state, tr.held = "ignored", False
        if tr.box is not None:
            self._objects.lay_before(t, tr.box)

    def _too_small(self, tr: CardTrack) -> bool:
        """Whether `tr` is far smaller than the cards played so far (the camera is fixed): a box
        on a patch of the table's pattern, on a card's uncovered corner, on the fingers of a hand
        paused over the middle (seed 2089 deal 19, 0.6 of a card), not a card put down. (Cards
        played measured 0.83-1.2 of their median on 80 simulated deals.) Not when read surely a
        good while (`SMALL_SURE_WAIT`)."""
        size = self._card_size
        if size is None or tr.size >= SMALL * size:
            return False
        lay = tr.last_seen - tr.settled_since - self.settings.steady_s
        return not (tr.size >= SMALL_LEAST * size and lay >= SMALL_SURE_WAIT
                    and tr.read_surely(SMALL_SURE_CONF))

    def _unproven(self, tr: CardTrack) -> bool:
        """Whether `tr` may be no card put down: far too small (`_too_small`), or an object that
        lay there read as no card before, or there before the deal's first play in front of a
        seat, not read surely yet (`_on_object`)."""
        return self._too_small(tr) or self._on_object(tr)

    def _on_object(self, tr: CardTrack) -> bool:
        """Whether `tr` was first seen on an object (read as no card before, or lying in front
        of a seat at the deal's first frame), and is not read surely."""
        return tr.on_object and not tr.read_surely(SMALL_SURE_CONF)

    def _merge(self, new: CardTrack, old: CardTrack) -> None:
        old.box, old.last_seen, old.zone = new.box, new.last_seen, new.zone
        old.modelled = new.modelled
        old.hinted = False
        old.faint = old.faint and new.faint
        old.anchor, old.settled_since = new.anchor, new.settled_since
        new.state = "ignored"
        self.tracks.remove(new)

    def _seat(self, tr: CardTrack) -> tuple[str, bool]:
        """Where the card landed says who played it; in the middle, the engine's turn does."""
        if tr.zone in SEATS:
            return tr.zone, True
        turn = self.view.turn
        if turn is not None:
            return turn, True
        if self.geometry is not None and tr.box is not None:
            return self.geometry.nearest_seat(tr.center), False
        return "S", False


def last_card(view: DealView) -> str | None:
    """The deal's last card, once the other 31 plays are recorded with their cards: a deck holds
    one of each, so the card put down in the place of the seat whose turn it is can only be the
    one left, whatever its picture reads (None before). Seed 2218 deal 3: heruka's QC, read QS
    0.55-0.65 (QS played in the 3rd trick) with QC 0.09-0.19, was E's last card; it waited
    unrecorded until the video's end, and was deduced then, 4.5 s after it settled."""
    if len(view.plays) != 31 or any(card is None for _seat, card in view.plays):
        return None
    left = set(CLASS_NAMES) - view.played
    return left.pop() if len(left) == 1 else None
