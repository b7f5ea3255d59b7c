"""How a still picture is read: nothing else decides for it (no tracker, no rules of the game).

Two rules for a box's reading (models/card_classifier.md, session 44): a reading under the
naming bar is still a card when it is `clear`, and no reading is a card when it shows a sign of
a `non_card`.

And a second look (models/card_boxes.md, session 45): a photo is looked at by the box model at
320 px and by the same weights at 416 px, which see more of a phone photo's pixels. A second box
that no first box overlaps is a card the first look missed: it is read like the others. One that
overlaps a first box is the same card framed a little differently (its twin), and since session
77 it is read too: the classifier reads a hard card differently in the two crops (a photo's KH
read QH 0.48 / KH 0.33 in one, KH 0.61 / QH 0.29 in the other), and a twin that names its card
surely and more strongly than the box's own crop gives the box its reading.

    new, twins = split_second_look(first_boxes, second_boxes)
    rows = second_readings(classifier_rows, twins)  # one row per first box
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from vision.classifier import NONE
from vision.detections import Detection, iou

# A reading under min_prob is still a card when it is clear: at least CLEAR_PROB, CLEAR_LEAD
# times the next name, and "none" under CLEAR_NONE (the mean of two classifiers softens a
# reading they share; chosen on the held-out renders: no more backs or 2-6 reported, perfect
# images 37.0 -> 39.3% and 25.5 -> 28.3%). And a reading is no card when "none" reaches
# STILL_NONE of it (a 6C read 7C 0.53 / none 0.20; chosen on held-out crops: non-cards named
# 4 -> 2 of 269 and 2 -> 1 of 370, cards named right -0.7% and -1.1%).
CLEAR_PROB = 0.3
CLEAR_LEAD = 2.0
CLEAR_NONE = 0.02
STILL_NONE = 0.2
# The second model's boxes from STILL_BOX_CONF (the lowest threshold adding no decoy on held-out
# renders drawn at 640-720 px, session 45); one this close to a first box is its twin.
STILL_BOX_CONF = 0.5
STILL_SAME_BOX = 0.8
# A twin's reading replaces the box's own when its best card reads more than this and than the
# box's own best, and the box's own reading shows no sign of a non-card (`non_card`).
# Chosen on the held-out renders (session 77: the most perfect images with no more backs, 2-6
# or jokers reported on any of four sets): 0.5 reported one more 6S (read 9S 0.51) on synth_v3,
# 0.52 none, 0.55 and 0.6 fewer perfect images on all four. Without the non-card rule a 5S
# read 7S 0.54 / none 0.18 in its own crop was named by its twin (7S 0.63 / none 0.12).
TWIN_PROB = 0.52


def clear(cards: np.ndarray, none: float) -> bool:
    """Is a reading under the naming bar still clear (`CLEAR_PROB`, `CLEAR_LEAD`, `CLEAR_NONE`)?"""
    runner_up, best = np.partition(cards, -2)[-2:]
    return bool(best >= CLEAR_PROB and best >= CLEAR_LEAD * runner_up and none < CLEAR_NONE)


def non_card(row: np.ndarray) -> bool:
    """Does a still picture's reading show a sign of a non-card ("none" at STILL_NONE of its
    best card or more)?"""
    return bool(row[NONE] >= STILL_NONE * row[:NONE].max())


def split_second_look(
    first: Sequence[Detection], second: Sequence[Detection], same: float = STILL_SAME_BOX
) -> tuple[list[Detection], list[list[Detection]]]:
    """The second look's boxes no first box overlaps at `same` (read as new boxes), and for
    each first box the second boxes that do (its twins, in `first`'s order)."""
    new: list[Detection] = []
    twins: list[list[Detection]] = [[] for _ in first]
    for d in second:
        hits = [i for i, b in enumerate(first) if iou(d.box, b.box) >= same]
        if not hits:
            new.append(d)
        for i in hits:
            twins[i].append(d)
    return new, twins


def second_readings(rows: np.ndarray, twins: Sequence[Sequence[object]]) -> np.ndarray:
    """One row per box from classifier `rows` whose first len(twins) are the boxes' own and the
    rest their twins' in order (as `[box for ts in twins for box in ts]`): a box's row becomes
    its surest twin's when that names a card over TWIN_PROB and over the box's own best, and
    the box's own row is no `non_card`."""
    n = len(twins)
    out = rows[:n].copy()
    at = n
    for i, ts in enumerate(twins):
        if not ts:
            continue
        theirs = rows[at : at + len(ts)]
        at += len(ts)
        best = theirs[int(np.argmax(theirs[:, :NONE].max(axis=1)))]
        own = out[i]
        if best[:NONE].max() > max(TWIN_PROB, own[:NONE].max()) and not non_card(own):
            out[i] = best
    return out
