"""Marks on the felt: places the classifier reads weakly as a card where no card lies.

Some felts (seed 2062's gnome-ancient_french deal) give boxes read too weakly to name in front of
every seat all deal long. Taken for a card glimpsed there (`TableTracker._glimpsed`), such a mark
makes every seat look as if something lay in its place right after each sweep, and the order in
which the next trick's cards came is lost. A mark is learnt while a whole trick lies on the table
(nobody puts the next lead down then): a weak box seen again and again in front of a seat, clear
of the trick's cards: MARK_SEEN times beside the last trick, or as often beside two tricks or more
of the deal (seed 2084 deal 3: a mark in E's place was read weakly 118 times in the deal, but only
once or twice beside some tricks; a hand hovering over one trick is no mark for the next ones:
seed 2062 deal 4). After the sweep, a weak box on such a mark is not a glimpse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from vision.detections import iou

Box = tuple[float, float, float, float]
# A weak box this often in one place while the trick lay whole is a mark of the felt; or this
# often beside MARK_TRICKS tricks of the deal or more.
MARK_SEEN = 3
MARK_TRICKS = 2
# One place: boxes overlapping this much.
SAME_PLACE = 0.5
# Clear of the trick's cards: overlapping none of them this much.
ON_CARD = 0.3


@dataclass
class _Place:
    """A place where weak boxes were seen beside whole tricks, and how often."""

    box: Box
    now: int = 0  # sightings beside the trick on the table
    deal: int = 0  # in the deal
    tricks: int = 0  # tricks gathered beside which it was seen

    def is_mark(self) -> bool:
        return self.now >= MARK_SEEN or (self.tricks >= MARK_TRICKS and self.deal >= MARK_SEEN)


class FeltMarks:
    """Weak boxes counted while a whole trick lies there; the marks of the felt after the sweep."""

    def __init__(self) -> None:
        self._counted: list[_Place] = []
        self._marks: list[Box] = []

    def note(self, box: Box, cards: Sequence[Box]) -> None:
        """A weak box seen while the whole trick lies on the felt (`cards`: its cards' boxes)."""
        if any(iou(box, c) >= ON_CARD for c in cards):
            return  # a card of the trick read weakly, not the felt
        place = next((p for p in self._counted if iou(box, p.box) >= SAME_PLACE), None)
        if place is None:
            place = _Place(box)
            self._counted.append(place)
        place.now += 1
        place.deal += 1

    def swept(self) -> None:
        """The trick is gathered: the places seen often enough are the felt's marks."""
        for place in self._counted:
            if place.now:
                place.tricks += 1
        self._marks = [place.box for place in self._counted if place.is_mark()]
        for place in self._counted:
            place.now = 0

    def forget(self) -> None:
        """A new deal: what lies on the felt may have moved (a glass, a score pad)."""
        self._counted, self._marks = [], []

    def covers(self, box: Box) -> bool:
        """Whether `box` lies on a mark of the felt."""
        return any(iou(box, mark) >= SAME_PLACE for mark in self._marks)
