"""Marks on the felt: places the classifier reads weakly as a card where no card lies.

Some felts (seed 2062's gnome-ancient_french deal) give boxes read too weakly to name in front of
every seat all deal long. Taken for a card glimpsed there (`TableTracker._glimpsed`), such a mark
makes every seat look as if something lay in its place right after each sweep, and the order in
which the next trick's cards came is lost. A mark is learnt while a whole trick lies on the table
(nobody puts the next lead down then): a weak box seen again and again in front of a seat, clear
of the trick's cards. After the sweep, a weak box on such a mark is not a glimpse.
"""

from __future__ import annotations

from collections.abc import Sequence

from vision.detections import iou

Box = tuple[float, float, float, float]
# A weak box this often in one place while the trick lay whole is a mark of the felt.
MARK_SEEN = 3
# One place: boxes overlapping this much.
SAME_PLACE = 0.5
# Clear of the trick's cards: overlapping none of them this much.
ON_CARD = 0.3


class FeltMarks:
    """Weak boxes counted while a whole trick lies there; the marks of the felt after the sweep."""

    def __init__(self) -> None:
        self._counted: list[tuple[Box, int]] = []
        self._marks: list[Box] = []

    def note(self, box: Box, cards: Sequence[Box]) -> None:
        """A weak box seen while the whole trick lies on the felt (`cards`: its cards' boxes)."""
        if any(iou(box, c) >= ON_CARD for c in cards):
            return  # a card of the trick read weakly, not the felt
        for i, (place, seen) in enumerate(self._counted):
            if iou(box, place) >= SAME_PLACE:
                self._counted[i] = (place, seen + 1)
                return
        self._counted.append((box, 1))

    def swept(self) -> None:
        """The trick is gathered: the places seen often enough are the felt's marks until the
        next trick is gathered."""
        self._marks = [place for place, seen in self._counted if seen >= MARK_SEEN]
        self._counted = []

    def covers(self, box: Box) -> bool:
        """Whether `box` lies on a mark of the felt."""
        return any(iou(box, mark) >= SAME_PLACE for mark in self._marks)
