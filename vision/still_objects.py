"""Objects lying still on the felt that the classifier reads as no card: a score pad, a glass.

A card comes to the felt in a hand, for the trick being played. A box that lay in one place from
before that trick began, read as no card or too weakly to name (`UNNAMED`) for STILL_S or more,
and then, without moving, as a card, is an object misread: a score pad near S's corner, boxed 71 px
against 46 for the cards, read AC 0.46 too weakly to name from the deal's first frame for 1.3 s,
then AC 0.51 in three frames of six, was recorded as S's card before W's lead and lost a whole
deal (seed 2169 deal 12). Such a box counts as a card only once read surely
(`Recording._unproven`); a face-down card turned over in place reads surely. So does a box in
front of a seat at the deal's first frame, the leader's too (`before_deal`): it lay there
before anyone played.

    objects = StillObjects()
    objects.note(t, [(d.box, d.card == UNNAMED) for d in detections])  # each frame
    objects.lay_before(t, box)  # there before the deal's first play: an object
    objects.swept(last_came, rested)  # a trick gathered: its cards came to rest at `rested`,
                                      # the last at `last_came`
    objects.under(box, since, began)  # lay there, read as no card, before `since` and `began`?
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vision.detections import Detection, iou
from vision.geometry import SEATS

if TYPE_CHECKING:
    from vision.deal_view import DealView

Box = tuple[float, float, float, float]
# One object, not moved: boxes overlapping this much (the score pad's boxes: 0.95 or more).
SAME_PLACE = 0.85
# Read as no card this long before its first reading as a card: an object lying there.
STILL_S = 1.0
# A place out of sight this long is forgotten (a hand may have moved what lay there; the box model
# found seed 2171 deal 2's score pad in 8 frames of 26, 1.1 s apart at most); an object
# (read as no card STILL_S or more before any reading as a card) only after OBJECT_KEEP_S: hands
# pass over it (seed 2169 deal 12: the score pad, covered a while, was seen again at a sweep,
# read AC, and taken for S's lead).
GAP_S = 1.5
OBJECT_KEEP_S = 120.0


@dataclass
class _Place:
    box: Box
    since: float  # first seen
    last: float  # last seen, read as anything
    named: float | None = None  # first read as a card
    # An object whatever it is read as (`lay_before`): there when the deal's first frame was
    # seen, or it lay through a trick as nobody's play, read weakly.
    marked: bool = False

    def is_object(self) -> bool:
        """Whether it lay there read as no card STILL_S before any reading as a card, or was
        marked an object (`lay_before`)."""
        return self.marked \
            or (self.last if self.named is None else self.named) - self.since >= STILL_S


class StillObjects:
    """The places where boxes lay still, and when each was first read as a card."""

    def __init__(self) -> None:
        self._places: list[_Place] = []
        self._last_came = float("inf")  # when the last trick gathered got its last card

    def note(self, t: float, boxes: Sequence[tuple[Box, bool]]) -> None:
        """This frame's boxes, each with whether it was read as no card."""
        self._places = [p for p in self._places
                        if t - p.last <= (OBJECT_KEEP_S if p.is_object() else GAP_S)]
        for box, unnamed in boxes:
            place = self._place(t, box)
            place.last = t
            if not unnamed and place.named is None:
                place.named = t

    def lay_before(self, t: float, box: Box) -> None:
        """`box`, seen at `t`, lay on the felt before the deal's first play, where no card of
        it can lie, or lay through a trick as nobody's play, or in a seat's place before the
        lead came, read weakly (`Recording._lay_through`, `_drop_before_lead`): an object,
        whatever it is read as. (Seed 2174 deal 16: the
        score pad read AC from the first frame, boxed afresh after the first trick's sweep, was
        recorded as N's card of the second trick.)"""
        self._place(t, box).marked = True

    def _place(self, t: float, box: Box) -> _Place:
        """The place where `box` lies, a new one (first seen at `t`) if none."""
        place = next((p for p in self._places if iou(p.box, box) >= SAME_PLACE), None)
        if place is None:
            place = _Place(tuple(box), t, t)  # type: ignore[arg-type]
            self._places.append(place)
        return place

    def swept(self, last_came: float, rested: Sequence[tuple[float, float]] = ()) -> None:
        """A trick was gathered; its last card was first seen at `last_came`, and its cards came
        to rest at the points `rested`: a place holding one of them was that card's (boxed
        unnamed a while under the hand, or now and then as it lay) and went with it, unless it
        was marked an object (`lay_before`). Seed 2188 deal 7 at 640x480: S's JC of the first trick,
        boxed unnamed now and then before it was named, left its place an object; S's 7D, put
        down there in the next trick and read 0.8 from the frame it settled, waited 2.2 s to be
        read surely."""
        self._last_came = last_came
        self._places = [p for p in self._places if p.marked or not any(
            p.box[0] <= x <= p.box[2] and p.box[1] <= y <= p.box[3] for x, y in rested)]

    def under(self, box: Box, since: float, began: float | None) -> bool:
        """Whether `box` lies where an object read as no card lay still from STILL_S before
        `since` (a track's first sighting) on, and from before the trick on the table began
        (`began`: its first card's first sighting; None for no card yet: the last trick's last
        card's, or, before any trick, always), or where a place was marked an object
        (`lay_before`). A card put down for that trick and read weakly a while under the hand
        is none (seed 2166 deal 11: E's KC, boxed 1.2 s before it was first named, would have
        been recorded unread and named JC)."""
        bound = min(since - STILL_S, self._last_came if began is None else began)
        return any(iou(p.box, box) >= SAME_PLACE
                   and (p.marked or (p.since <= bound and p.is_object()))
                   for p in self._places)


def before_deal(view: DealView, zoned: Sequence[tuple[Detection, str]]) -> list[Box]:
    """The boxes of a deal's first frame (`zoned`: each with its zone), read as a card or not,
    that lie in front of a seat, nothing played yet, the dealer given: there before anyone
    played, they are objects (`StillObjects.lay_before`), cards only once read surely.
    Seed 2174 deal 16: a white score pad in N's place, read AC 0.52-0.62 from the first frame,
    was recorded as N's card 0.5 s in, E's lead unread, and the deal lost 29 of its 32 plays;
    seed 2175 deal 8: a box in E's place read as no card, then KS 0.55-0.66 in one frame of
    four from 0.9 s on, was recorded as E's card 3 s before E played. In the leader's place
    too (seed 2201 deal 7 at 2304x1296: a pad in N's place, N to lead, read AC 0.73-0.78 from
    the first frame, was recorded as N's lead, 29 plays lost); a lead already lying there when
    the deal is started waits to be read surely. (Not in the middle, nor while a belote
    prise's turned card may come: it lies anywhere.)"""
    if view.plays or not view.open or view.turned_due:
        return []
    if view.leaders() is None:  # (no dealer given: the first card seen tells who leads)
        return []
    return [d.box for d, zone in zoned if zone in SEATS]
