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


class FeltMarks:
    """Weak boxes counted while a whole trick lies there; the marks of the felt after the sweep."""

    def __init__(self) -> None:
        # place: [sightings beside this trick, in the deal, tricks beside which it was seen]
        self._counted: list[tuple[Box, list[int]]] = []
        self._marks: list[Box] = []

    def note(self, box: Box, cards: Sequence[Box]) -> None:
        """A weak box seen while the whole trick lies on the felt (`cards`: its cards' boxes)."""
        if any(iou(box, c) >= ON_CARD for c in cards):
            return  # a card of the trick read weakly, not the felt
        for place, seen in self._counted:
            if iou(box, place) >= SAME_PLACE:
                seen[0] += 1
                seen[1] += 1
                return
        self._counted.append((box, [1, 1, 0]))

    def swept(self) -> None:
        """The trick is gathered: the places seen often enough are the felt's marks."""
        for _place, seen in self._counted:
            if seen[0]:
                seen[2] += 1  # (one more trick beside which it was seen)
        self._marks = [place for place, (now, deal, tricks) in self._counted
                       if now >= MARK_SEEN or (tricks >= MARK_TRICKS and deal >= MARK_SEEN)]
        for _place, seen in self._counted:
            seen[0] = 0

    def forget(self) -> None:
        """A new deal: what lies on the felt may have moved (a glass, a score pad)."""
        self._counted, self._marks = [], []

    def covers(self, box: Box) -> bool:
        """Whether `box` lies on a mark of the felt."""
        return any(iou(box, mark) >= SAME_PLACE for mark in self._marks)
