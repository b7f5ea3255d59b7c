"""One card lying on the felt, followed from frame to frame by the table tracker: where it rests,
when it was seen, and the votes of every reading of its name.

>>> from vision.detections import Detection
>>> tr = CardTrack(None, "N", 0.0, 0.0)
>>> tr.see(0.0, Detection("JH", 0.9, (0, 0, 57, 88), (("JD", 0.1),)), "N", 0.15)
>>> tr.readings()
[('JH', 0.9), ('JD', 0.1)]
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from vision.detections import UNNAMED, Detection, area, inside, iou
from vision.geometry import SEATS
from vision.votes import by_share

# A candidate whose box covers this much of a played card's (IoU), both seen, is that card; so is
# one lying mostly inside it (ECHO_INSIDE of its box) that reads that card too (a box on the part
# of a card not under the next one, read as a neighbouring name).
ECHO_IOU = 0.5
ECHO_INSIDE = 0.5
ECHO_SHARE = 0.05
PART_GROWTH = 1.25  # how much larger than a part of a card the box of the whole card is
# A card whose last LATELY sightings since it came to rest all read one name reads that name at
# least as clearly as the least of them (`CardTrack.best`). 3 and 4 gave the same figures on the
# simulated sets; 4 is the safer.
LATELY = 4
# A card named by a reading under this share of its votes is named in doubt (`name_doubted`).
DOUBTED_SHARE = 0.6
# The classifier names a box from this reading up (`vision.two_stage.DEFAULT_MIN_PROB`); a box
# read more weakly is passed on unnamed, with its readings (`weak_sightings`).
PLAIN = 0.5
# An unnamed box on a card followed (ON_FOLLOWED, IoU) whose best reading is at least WEAK_SEEN
# and WEAK_LEAD times its next is a sighting of that card (`weak_sightings`): a card lying
# still, read 9S 0.45 / TS 0.15 in most frames, is seen in those frames too. (0.35, not 0.4:
# seed 2198 deal 2, S's 9D read 9D 0.36-0.41 / TD 0.13-0.17 frame after frame was recorded
# 0.73 s after it settled, 0.43 s now; on 14 sets at 640x480, plays named over 0.5 s 49 -> 46,
# 12 plays sooner, 2 a frame or two later, none late, every card recorded as before.)
WEAK_SEEN = 0.35
WEAK_LEAD = 2.5
ON_FOLLOWED = 0.3
# A box back within `settle` of where the card lay before its last move, within FLIP_S of leaving
# it, is the detector's box flipping between two fits of a card lying still: it has lain there
# since it first came to rest (seed 2142 deal 4: S's 7D, read 0.96 from the frame it settled,
# its box alternating between two fits 13 px apart on a 53 px card, was recorded 1.07 s late).
FLIP_S = 1.0
# A box the box model scores under this is a faint one: a card under a hand, or the felt's own
# pattern read as a card (seed 2207 deal 11: a dark mark of a marble felt in E's place, boxed at
# 0.10-0.25 and read AC 0.54-0.65 in two frames; real cards lying bare score 0.7-0.85).
FAINT_BOX = 0.3
# A box read under PLAIN is no measure of where a card lies (`CardTrack.see`), except one the box
# model scores at least GROWN_BOX that holds the card's box: the card shown more whole, a hand
# lifted off it (seed 2207 deal 2: S's 9D first boxed 31 px tall under a hand, then 47 px and
# boxed at 0.77, read 9D 0.41 / 8D 0.16, kept the first box and counted far too small to be a
# card put down for 1.4 s).
GROWN_BOX = 0.6
GROWN_INSIDE = 0.9


@dataclass(eq=False)
class CardTrack:
    """One card lying on the felt, followed from frame to frame."""

    box: tuple[float, float, float, float] | None
    zone: str
    first_seen: float
    last_seen: float
    anchor: tuple[float, float] = (0.0, 0.0)  # where it came to rest
    settled_since: float = 0.0
    times: deque[float] = field(default_factory=lambda: deque(maxlen=256))
    votes: dict[str, float] = field(default_factory=dict)
    conf: dict[str, list[float]] = field(default_factory=dict)
    # candidate | played | gathered | turned | ignored | stale (an unread card of a trick
    # gathered, still lying there: its readings are never a play)
    state: str = "candidate"
    card: str | None = None  # the name it was recorded under
    recorded_box: tuple[float, float, float, float] | None = None  # its box then
    held: bool = False  # steady but out of turn: kept (even once gone) until its turn comes
    recent: deque[tuple[float, str, float]] = field(default_factory=lambda: deque(maxlen=LATELY))
    # Last time something lay where it lies: a sighting, or a box on it read too weakly to name
    # (`lies_under`); a played card boxed but unnamed is still on the felt.
    present: float = float("-inf")
    # Named only from boxes read too weakly to name (`UnreadNaming._name_early`): never seen
    # plainly, it cannot have moved; reading it plainly where it lies confirms it.
    hinted: bool = False
    # Recorded in doubt without waiting max_wait: when it had come to rest then. Its name is
    # chosen again from its votes when it would have been recorded after waiting
    # (`ReadingFixes._recheck`).
    doubt_settled: float | None = None
    rechecked: bool = False
    renamed_early: bool = False  # by its last sightings, before RECHECK_S (`_rename_early`)
    renamed_whole: bool = False  # by an echo on the whole card (`_rename_by_whole_card`)
    # Recorded with its name in doubt (read under sure_conf, or under DOUBTED_SHARE of its votes,
    # or renamed since to such a reading; so is every card recorded in doubt without waiting):
    # a card of that name read plainly before another seat is that seat's, not this one moved
    # (`misnamed_if_at`); at the deal's end, it may give its name up (`swaps.given_up`).
    name_doubted: bool = False
    # Its box is the box model's, read plainly: a patch of the learnt felt on it (`see`) is no
    # measure of where it lies.
    modelled: bool = False
    # Second boxes on this card, in front of its seat, set aside as its echoes
    # (`TableTracker._drop_echoes`): their votes are votes for its name too (`with_echoes`).
    echoes: list[CardTrack] = field(default_factory=list)
    # Frames where, unseen by name, a box read too weakly to name lay on it with its best name
    # as that box's best reading (`read_weakly`): it lies there still, for `_steady`.
    weak_times: deque[float] = field(default_factory=lambda: deque(maxlen=256))
    # Where it lay before its last move: (anchor, since when, left when) (`see`).
    rest_before: tuple[tuple[float, float], float, float] | None = None
    # Its last boxes' centres, read plainly: (t, x, y), to tell since when it lies where it
    # lies now when it has slid past its anchor (`see`).
    spots: deque[tuple[float, float, float]] = field(default_factory=lambda: deque(maxlen=8))
    # First seen where an object read as no card lay still a while (`vision.still_objects`), or
    # where a box lay in front of a seat at the deal's first frame
    # (`vision.still_objects.before_deal`): a card only once read surely.
    on_object: bool = False
    # Every box of it scored under FAINT_BOX by the box model (`faint`); False once one was not,
    # or came from elsewhere.
    faint: bool = True

    @property
    def size(self) -> float:
        if self.box is None:
            return 0.0
        x0, y0, x1, y1 = self.box
        return max(x1 - x0, y1 - y0, 1.0)

    @property
    def center(self) -> tuple[float, float]:
        assert self.box is not None
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def readings(self) -> list[tuple[str, float]]:
        """Card names by vote share, best first (a restored play, never seen yet: its name)."""
        if not self.votes:
            return [(self.card or "", 1.0)]
        return by_share(self.votes)

    def best(self) -> tuple[str, float]:
        """Its best reading and how clearly it reads: its share of the votes, or, when its last
        LATELY sightings, all since it settled, read that card, the least of their confidences
        if more (the frames under the hand that put it down count no more then)."""
        top, share = self.readings()[0]
        lately = self.read_lately()
        if lately is not None and lately[0] == top:
            share = max(share, lately[1])
        return top, share

    def read_lately(self) -> tuple[str, float] | None:
        """The one name its last LATELY sightings, all since it came to rest, read, with the
        least of their confidences; None if they are fewer, older or read more names."""
        last = self.recent
        if len(last) < LATELY or any(t < self.settled_since for t, _card, _c in last):
            return None
        names = {card for _t, card, _c in last}
        return (names.pop(), min(c for _t, _card, c in last)) if len(names) == 1 else None

    def read_surely(self, sure_conf: float) -> bool:
        """Whether its best reading is clear (0.6 of its votes, `best`) and sure (its sightings
        under that name average `sure_conf` at least)."""
        top, share = self.best()
        return share >= 0.6 and statistics.fmean(self.conf.get(top, [0.0])) >= sure_conf

    @property
    def glimpsed(self) -> float:
        """When it was last seen, or last covered by a box read too weakly to name that reads
        its best name best (`read_weakly`). On a card seen weakly of late such a box stands for
        it this frame, so that it may be found steady (seed 2153 deal 3: E's QS, named once,
        then read QS 0.47 / JS 0.19 and QS 0.3-0.47 / JS 0.2-0.29 for a second, was never
        steady, was forgotten after 0.6 s and recorded 1.35 s after it settled, from a new
        streak). Such boxes do not keep a card from being forgotten: that kept a KH misread
        recorded (seed 2140 deal 10, S's QH, shown KH for 86 s instead of unread)."""
        return max(self.last_seen, self.weak_times[-1]) if self.weak_times else self.last_seen

    def seen_weakly(self) -> bool:
        """Whether one of its last LATELY sightings was a box read under PLAIN
        (`weak_sightings`)."""
        return any(c < PLAIN for _t, _card, c in self.recent)

    def in_other_seat(self, zone: str) -> bool:
        """Whether `zone` is another seat's place than the one where it lies."""
        return self.zone != zone and self.zone in SEATS and zone in SEATS

    def misnamed_if_at(self, zone: str) -> bool:
        """Whether its name read plainly before another seat's place means this card was
        misnamed rather than moved there: recorded with its name in doubt (`name_doubted`)."""
        return self.name_doubted and self.in_other_seat(zone)

    def misread_as(self, card: str, share_now: float, played: set[str]) -> str | None:
        """This track was recorded as `card`, and `card` is now seen landing elsewhere with
        `share_now` of its votes: the card this one really was, if its own votes tell. Its best
        reading has become another card not played yet (half the votes), or it read `card`
        less surely and its next reading (a fifth of the votes or more; a tenth when `card` is
        now seen far more surely than this track ever read it, by a quarter of the votes: seeds
        2049 and 2051 each had a TS or KH misread at 0.66 and 0.6, the real one seen at 0.93
        and 0.87) is not played yet."""
        readings = self.readings()
        floor = 0.1 if share_now - dict(readings).get(card, 0.0) >= 0.25 else 0.2
        if self.hinted:  # (only ever read weakly: any other reading yields to a plain one)
            floor = 1e-9
        others = [(c, v) for c, v in readings if c != card and c not in played and v >= floor]
        if not others:
            return None
        best, share = others[0]
        if share < 0.5 and dict(readings).get(card, 0.0) >= share_now and not self.hinted:
            return None
        return best

    def odds(self, card: str, over: str) -> float:
        """How many times its votes favour `card` over `over` (the odds its picture gives)."""
        return self.votes.get(card, 0.0) / max(self.votes.get(over, 0.0), 1e-9)

    def echo_of(self, played: CardTrack, strict: bool = False) -> bool:
        """Whether this candidate is a second box on the `played` card (`strict`: only when it
        reads that card too)."""
        if self.box is None or played.box is None:
            return False
        reads_it = dict(self.readings()).get(played.card or "", 0.0) >= ECHO_SHARE
        if iou(self.box, played.box) >= ECHO_IOU and (reads_it or not strict):
            return True
        if inside(self.box, played.box) >= ECHO_INSIDE and reads_it:
            return True
        # The played card's box lay on a part of it (a hand over the rest), this one on the whole
        # card: while its trick is incomplete, the seat that played it puts no other card down.
        return not strict and self.zone == played.zone and reads_it and self.holds_part_of(played)

    def shows_whole_of(self, played: CardTrack) -> bool:
        """Whether this box holds the `played` card's box as the whole card holds a part of it
        (`holds_part_of`), and the box it was recorded from by PART_GROWTH: a box as large as
        that, beside it, is the card boxed again, its reading no better (seed 2215 at
        2304x1296 deal 1: E's 9H, recorded from a box 38x30 px, was renamed 8H 5.8 s later by
        a box 36x32 px 6 px aside, read 8H 0.65, as its own box shrank to 28x27 a frame; back
        at the sweep)."""
        recorded = played.recorded_box or played.box
        return self.holds_part_of(played) and recorded is not None and self.box is not None \
            and area(self.box) >= PART_GROWTH * area(recorded)

    def holds_part_of(self, played: CardTrack) -> bool:
        """Whether this box holds most of the `played` card's box without being a second box on
        the same stretch of felt (IoU under ECHO_IOU): the whole card, the played box a part."""
        return self.box is not None and played.box is not None \
            and inside(played.box, self.box) >= ECHO_INSIDE and iou(played.box, self.box) < ECHO_IOU

    def lies_under(self, t: float, boxes: Sequence[Detection], forget_s: float) -> None:
        """Mark it present at `t` if one of this frame's `boxes` (named or not) covers it and it
        has been present all along. After a gap over `forget_s` (it may have been swept), only
        an unnamed box that reads it best (a box named is matched to a card as any other, and
        may be a new card put where a swept one lay): S's lead QS of seed 2124 deal 15 (filmed
        at 1280x960, read on the small picture) lay 0.7 s under a hand, then was boxed unnamed
        for 2.5 s, QS 0.3-0.45 ahead; taken for swept, its trick got three unread plays."""
        if self.box is None:
            return
        lost = t - self.present > forget_s  # (`see` sets `present` too)
        if any(iou(self.box, d.box) >= ECHO_IOU and (not lost or _reads_best(d, self.card))
               for d in boxes):
            self.present = t

    def read_weakly(self, t: float, weak: Sequence[Detection], played: set[str]) -> None:
        """Note `t` in `weak_times` if, unseen by name this frame, one of the `weak` boxes
        (read too weakly to name) covers it and reads its best name best. Not for a card that
        reads as one `played`: its weak boxes may yet name an unread play."""
        if self.box is None or self.last_seen == t or not self.votes:
            return
        top = self.readings()[0][0]
        if top not in played and any(_reads_best(d, top) and iou(self.box, d.box) >= ECHO_IOU
                                     for d in weak):
            self.weak_times.append(t)

    def see(self, t: float, det: Detection, zone: str, settle: float) -> None:
        """A sighting at `t`: its readings, and its box, which moved more than `settle` card
        sizes moves where the card rests (it comes to rest again). A box read under PLAIN
        (`weak_sightings`) is a sighting but no measure of where the card lies: it often holds
        only the part of the card a hand leaves uncovered (seed 2115 deal 2). One that holds
        the card's box and that the box model is sure of shows more of it (`_grown`): the box
        grows, where the card lay. Nor is a patch of the learnt felt (no box model's score) on a
        box of the box model's read plainly (`ECHO_IOU`): it holds what differs from the felt,
        the card with a hand's shadow or less of it (seed 2204 deal 8 at 640x480: W's AH boxed
        at 0.14-0.21 every other frame, patches 10-15 px aside and of changing heights between,
        each taken for a move; recorded 0.6 s after it settled). On a box read under PLAIN, a
        patch is a measure, grown or not (seed 2208 deal 2 at 2304x1296: N's 9S, first boxed
        under the hand, read weakly, then grown; the patch read 9S 0.55 where it came to rest,
        0.2 s before the box model's box)."""
        self.last_seen = self.present = t
        self.times.append(t)
        if det.box_conf is None or det.box_conf >= FAINT_BOX:
            self.faint = False
        patch = det.box_conf is None and self.modelled and self.box is not None \
            and iou(self.box, det.box) >= ECHO_IOU
        if self.box is not None and det.confidence < PLAIN and self._grown(det):
            self.box = det.box  # (more of it shows where it lay: no move; read under PLAIN)
        elif (det.confidence >= PLAIN and not patch) or self.box is None:
            self.box = det.box  # (a first box read under PLAIN, too, but no measure then)
            self.modelled = det.box_conf is not None and det.confidence >= PLAIN
            cx, cy = self.center
            if abs(cx - self.anchor[0]) + abs(cy - self.anchor[1]) > settle * self.size:
                since, back = self._still_since(t, cx, cy, settle), self.rest_before
                if back is not None and t - back[2] <= FLIP_S and abs(cx - back[0][0]) \
                        + abs(cy - back[0][1]) <= settle * self.size:
                    since = min(back[1], self.settled_since)  # (flipping between two fits)
                self.rest_before = (self.anchor, self.settled_since, t)
                self.anchor, self.settled_since, self.zone = (cx, cy), since, zone
            self.spots.append((t, cx, cy))
        self.votes[det.card] = self.votes.get(det.card, 0.0) + det.confidence
        self.conf.setdefault(det.card, []).append(det.confidence)
        self.recent.append((t, det.card, det.confidence))
        for card, c in det.alternatives:
            self.votes[card] = self.votes.get(card, 0.0) + c

    def _grown(self, det: Detection) -> bool:
        """Whether `det`, read under PLAIN, shows more of the card (`GROWN_BOX`)."""
        assert self.box is not None
        x0, y0, x1, y1 = det.box
        return det.box_conf is not None and det.box_conf >= GROWN_BOX \
            and max(x1 - x0, y1 - y0) > self.size and inside(self.box, det.box) >= GROWN_INSIDE

    def _still_since(self, t: float, cx: float, cy: float, settle: float) -> float:
        """Since when its boxes have lain within a quarter of `settle` card sizes of (cx, cy),
        a box's jitter: a card sliding to rest crosses its anchor's bound after it has stopped
        (seed 2177 at 2304x1296, deal 6: N's 9H, still from 16.5 s, passed its anchor of 16.3 s
        at 16.8 s and was recorded 0.5 s after it settled). (A quarter: a card drifting in a
        hand too fast ever to stay steady_s within the bound, a third of it a frame or more, has
        no sighting before this one so near, and comes to rest no sooner.)"""
        since = t
        for when, x, y in reversed(self.spots):
            if abs(x - cx) + abs(y - cy) > settle * self.size / 4:
                break
            since = when
        return since


def _reads_best(d: Detection, card: str | None) -> bool:
    """Whether `d` is a box left unnamed whose best reading is `card`."""
    return d.card == UNNAMED and bool(d.alternatives) and d.alternatives[0][0] == card


def weak_sightings(detections: Sequence[Detection], played: set[str],
                   followed: Sequence[tuple[float, float, float, float]]) -> list[Detection]:
    """`detections` with each unnamed box that lies on a card `followed` (its box) and reads
    one card clearly ahead (WEAK_SEEN, WEAK_LEAD) named that card, at its reading (under
    PLAIN: `CardTrack.seen_weakly`). Only on a card followed: a mark of the felt read weakly
    as a card all deal long is no card (`vision.felt_marks`). Not a card already played, nor
    one a box names plainly this frame: a weak reading of a card played is the hint of a
    misread (seed 2110 deal 1: S's 9C, its name taken by the 8C misread 9C, read 9C 0.45 /
    8C 0.16; named, it took its next reading, 8C, and both plays stayed wrong), left to
    `vision.swaps`. A reading of a card played is no rival either (seeds 2140-2145, session 41:
    4 plays of 3,200 sooner, one of 192 at 2304x1296 later)."""
    named = {d.card for d in detections if d.card != UNNAMED}
    out = []
    for d in detections:
        if d.alternatives and d.alternatives[0][0] in played:
            out.append(d)  # (the hint of a misread: not named by its next reading)
            continue
        sighting = named_by_lead(d, WEAK_SEEN, WEAK_LEAD, played)
        if sighting is not None and sighting.card not in named \
                and any(iou(d.box, b) >= ON_FOLLOWED for b in followed):
            named.add(sighting.card)
            d = sighting
        out.append(d)
    return out


def named_by_lead(d: Detection, seen: float, lead: float,
                  played: Collection[str] = ()) -> Detection | None:
    """An unnamed box named the card it reads best, at that reading (under PLAIN), when that
    reading is at least `seen` and `lead` times the next; else None. Readings of cards `played`
    are passed over (a deck holds one of each): the best of the others names it."""
    if d.card != UNNAMED:
        return None
    readings = [(c, p) for c, p in d.alternatives if c not in played]
    if not readings:
        return None
    card, p = readings[0]
    rival = readings[1][1] if len(readings) > 1 else 0.0
    if p < seen or p < lead * rival:
        return None
    return Detection(card, float(p), d.box, tuple(readings[1:]), d.box_conf)


def dist(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Distance between two points in pixels."""
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)  # (mypy: float ** float is Any)


def count_since(times: deque[float], since: float) -> int:
    """How many of the (sorted) times are at or after `since`, counting from the newest."""
    n = 0
    for x in reversed(times):
        if x < since:
            break
        n += 1
    return n


def with_echoes(played: CardTrack) -> list[tuple[str, float]]:
    """`played`'s readings with the votes of its echoes, the second boxes on it in front of its
    seat: one card read in two boxes, the second often the one the detector reads it in (seed
    2053: a 9C read 8C in 4 frames under the hand, then 9C in 66 frames of a second box)."""
    return by_share(played.votes, *(echo.votes for echo in played.echoes))


def track_of(tracks: Sequence[CardTrack], card: str) -> CardTrack | None:
    """The track recorded (or gathered) as `card`, if any."""
    return next((o for o in tracks if o.state in ("played", "gathered") and o.card == card),
                None)
