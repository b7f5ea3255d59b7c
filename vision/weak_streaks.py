"""Cards read only weakly, but alike, frame after frame: sightings all the same.

The classifier names a box from 0.5 up (`vision.card_track.PLAIN`); a box read more weakly is
passed on unnamed, with its readings. On a card already followed, such a box is a sighting
(`weak_sightings`). A card whose every box reads under 0.5 starts no track at all, and waits for
the one frame that crosses the bar: seed 2140 (gnome-bellot and svgcards pips, 640x480), a 9D
read 9D 0.35-0.48 ahead of TD 0.14-0.24 in every frame for 1.8 s, then 9D 0.56 once, was recorded
2.1 s after it came to rest; 12 of the set's 17 plays first seen late were such cards.

A box read too weakly to name, at the place of a box of the frame before with the same best
reading, clearly ahead of the next (STREAK_SEEN, STREAK_LEAD), STREAK_FRAMES frames in a row, is a
sighting of that card (on a box the box model is sure of, LONG_FRAMES frames read first alike at a
smaller lead are one too); the frames of the streak before it are handed back so that its track
starts with the first (`WeakStreaks.promote`): the card lay there from then on. Only where the felt
showed bare (no box at all) within CLEAR_S before the streak began: some felts read weakly as a
card in one place all deal long (`vision.felt_marks`, seed 2062), and a card is put down where
nothing lay. Readings of cards already played are passed over (a deck holds one of each): seed
2142, a 9D read 9D 0.37 / TD 0.29 with the TD played, is ahead; a QH read KH 0.43 / QH 0.33 with
the KH played reads QH (session 41: 17 of 3,200 plays no longer late, none wrong). On a card
already followed a reading of a card played is rather the hint of a misread elsewhere
(`weak_sightings`); here the next reading must itself clear STREAK_SEEN and STREAK_LEAD, in a place
bare before, three frames in a row.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from vision.card_track import named_by_lead
from vision.detections import UNNAMED, Detection, iou

# The best reading of each box of a streak: at least this, and this many times the next.
STREAK_SEEN = 0.33
STREAK_LEAD = 1.6
# Frames in a row (at 10 frames/s: 0.2 s, less than the tracker's steadiness) before the streak
# counts; a hand passing over the felt is rarely boxed in one place, read alike, this long.
STREAK_FRAMES = 3
SAME_PLACE = 0.5  # IoU of one box of the streak with the next
# A streak counts only if its place showed no box in one frame at least of the CLEAR_S before it
# began (ON_PLACE: a box overlapping the streak's first this much lies there).
CLEAR_S = 2.0
ON_PLACE = 0.3
# A longer streak counts with a smaller lead, on a box the box model is sure of: a card lying
# bare whose name the classifier keeps first, never clearly (seed 2209 deal 2: W's QH, boxed at
# 0.81, read QH 0.35-0.43 / KH 0.22-0.30 frame after frame for 1.6 s, was first seen 1.88 s
# after it settled).
LONG_FRAMES = 6
LONG_LEAD = 1.25
LONG_BOX = 0.6

Box = tuple[float, float, float, float]


@dataclass
class _Streak:
    card: str
    box: Box
    frames: list[tuple[float, Detection]] = field(default_factory=list)  # (time, sighting)
    bare_before: bool = False  # its place showed bare within CLEAR_S before it began


class WeakStreaks:
    """Unnamed boxes followed from frame to frame while they read one card alike."""

    def __init__(self) -> None:
        self._streaks: list[_Streak] = []
        self._boxes: deque[tuple[float, list[Box]]] = deque()  # every box of the last CLEAR_S

    def _was_bare(self, box: Box) -> bool:
        return any(all(iou(box, b) < ON_PLACE for b in boxes) for _t, boxes in self._boxes)

    def promote(
        self,
        t: float,
        detections: Sequence[Detection],
        played: set[str],
        eligible: Callable[[Detection], bool],
    ) -> tuple[list[Detection], list[list[tuple[float, Detection]]]]:
        """This frame's `detections`, each unnamed box ending a streak of STREAK_FRAMES named
        its card (at its reading, under 0.5); and each such streak's frames, (time, sighting),
        this one last. Readings of cards `played` are passed over; not a card a box names this
        frame (if that box lies on the streak's, the streak's frames are handed back, that box
        last); only boxes `eligible` (in front of a seat, on no mark of the felt, on no card
        recorded) count."""
        named = {d.card for d in detections if d.card != UNNAMED}
        streaks: list[_Streak] = []
        out: list[Detection] = []
        promoted: list[list[tuple[float, Detection]]] = []
        for d in detections:
            sure = d.box_conf is not None and d.box_conf >= LONG_BOX
            sighting = named_by_lead(d, STREAK_SEEN, LONG_LEAD if sure else STREAK_LEAD, played)
            if sighting is None or not eligible(d):
                out.append(d)
                continue
            card = sighting.card
            before = next((s for s in self._streaks if s.card == card
                           and iou(s.box, d.box) >= SAME_PLACE), None)
            frames = (before.frames if before else [])[-(LONG_FRAMES - 1):]
            bare = before.bare_before if before else self._was_bare(d.box)
            streak = _Streak(card, d.box, [*frames, (t, sighting)], bare)
            streaks.append(streak)
            short = len(streak.frames) >= STREAK_FRAMES and all(
                _clear(seen) for _when, seen in streak.frames[-STREAK_FRAMES:])
            kept = streak.frames[-STREAK_FRAMES:] if short else streak.frames
            counts = (short or len(streak.frames) >= LONG_FRAMES) and bare
            if counts and card not in named:
                named.add(card)
                out.append(sighting)
                promoted.append(kept)
                continue
            out.append(d)
            # A second box on it that names it this frame (one the felt's picture found, seed
            # 2204 deal 3): that card, seen since the streak's first frame.
            twin = next((o for o in detections if o.card == card
                         and iou(o.box, d.box) >= SAME_PLACE), None) if counts else None
            if twin is not None:
                promoted.append([*kept[:-1], (t, twin)])
        self._streaks = streaks  # (a streak not read alike this frame ends)
        self._boxes.append((t, [d.box for d in detections]))
        while self._boxes and self._boxes[0][0] < t - CLEAR_S:
            self._boxes.popleft()
        return out, promoted


def _clear(sighting: Detection) -> bool:
    """Whether a streak's sighting reads its card STREAK_LEAD times its next reading."""
    rival = sighting.alternatives[0][1] if sighting.alternatives else 0.0
    return sighting.confidence >= STREAK_LEAD * rival
