"""Two-stage reading: the detector finds boxes, the card classifier reads each one again.

The classifier sees each box large and alone, so it reads unseen decks better than a small
32-class detector, and its "none" class vetoes boxes on backs, 2-6, jokers and clutter.

    refined = refine(bgr, detector.boxes(bgr, conf=0.02), classifier)   # detector's boxes
    refined = refine_boxes(bgr, [(x0, y0, x1, y1), ...], classifier)     # any box source
    reader = TwoStage(detector, classifier); reader.detect(bgr)         # both in one verb

With `detector_weight` w > 0 a card's score is p_classifier^(1-w) * p_detector^w, where the
detector's scores come from the detection's card and alternatives; w = 0 ignores the detector's
class entirely (a class-agnostic box source).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Protocol

import numpy as np

from vision.background import TableBackground
from vision.classifier import DEFAULT_CLASSIFIER, LABELS, NONE, CardClassifier
from vision.deck_memory import DeckMemory
from vision.detections import CLASS_NAMES, UNNAMED, Detection, one_per_card
from vision.still_rules import STILL_BOX_CONF, clear, non_card, second_readings, split_second_look

DEFAULT_MIN_PROB = 0.5
# On video, a box whose best card reads at least this (under min_prob, above "none") is passed
# on unnamed, its readings as alternatives: never a play, but the tracker's hint for a card it
# never read (a small 9S read 9S 0.37 / TS 0.24 frame after frame).
WEAK_PROB = 0.2
# A box the box model is this sure of, read too weakly to name, is passed on as a card would
# read: its readings are the cards' shares among themselves, "none" left out, even where "none"
# outweighs its best card. The classifier reads some plain cards of an unseen deck half "none"
# (svgcards' and bellot's 8C: none 0.45, 8C 0.30, 9C 0.15 frame after frame for 1.5 s); dropped,
# they were first seen late, and now the weak streaks (`vision.weak_streaks`) see them. (A score
# pad may score so too, seed 2193 deal 0: read none 0.45 / 7C 0.22 at 0.70-0.73; so the boxes
# dropped reach the tracker too, `TwoStage.detect`, and show where something lay.) 0.6 since
# session 70 (0.7 before): seed 2203 deal 6, svgcards' 8C boxed at 0.67-0.70, read none 0.65 /
# 8C 0.20 for 1.5 s, was first seen 1.66 s after it settled, now 0.35 s; no other play of five
# sets changed.
SURE_BOX = 0.6
# Such a box is passed on when its best card reads this much (so one read none 0.9 or more stays
# out): bellot's 8S read none 0.53-0.68, 8S 0.14-0.22 for 0.6 s (seed 2200 deal 1), mostly
# under WEAK_PROB.
SURE_WEAK_PROB = 0.1
DEFAULT_TURNS = 4  # averaged over 4 quarter turns: real photos P 0.967 -> 0.984, R 0.878 -> 0.895
BOX_CONF = 0.02  # class-agnostic box threshold: 0.1 boxed 51% of real cards, 0.02 boxed 88%
BOX_MODEL_CONF = 0.1  # a one-class box model's own scores (chosen on data/synth_v2): card_boxes.md
_FLOOR = 1e-3  # a detector score for cards it did not list, so one reading cannot zero another
MAX_ALTERNATIVES = 4


class _Detector(Protocol):
    def detect(self, bgr: np.ndarray, conf: float | None = None) -> list[Detection]: ...


class _BoxModel(Protocol):
    model: Path

    def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]: ...


def _detector_scores(d: Detection) -> np.ndarray:
    """The detector's belief over the 32 cards, from its card and alternatives."""
    scores = np.full(len(CLASS_NAMES), _FLOOR, np.float32)
    if d.card in CLASS_NAMES:  # a box model's boxes name no card
        scores[CLASS_NAMES.index(d.card)] = max(d.confidence, _FLOOR)
    for card, p in d.alternatives:
        if card in CLASS_NAMES:
            scores[CLASS_NAMES.index(card)] = max(float(p), _FLOOR)
    return scores


def _read(
    box: tuple[float, float, float, float], row: np.ndarray, min_prob: float,
    still: bool = False, box_conf: float | None = None,
) -> Detection | None:
    """A detection from one box's card scores (33 columns, last = none), or None if vetoed.
    `still` (a single picture): a clear reading under `min_prob` (`clear`) is named too, and
    a reading with "none" at STILL_NONE of it or more is not."""
    cards = row[:NONE]
    best = int(np.argmax(cards))
    none = float(row[NONE])
    if none >= cards[best] or (still and non_card(row)):
        return None
    if cards[best] < min_prob and not (still and clear(cards, none)):
        return None
    order = np.argsort(-cards)
    alternatives = tuple(
        (LABELS[int(i)], round(float(cards[i]), 4))
        for i in order[1 : 1 + MAX_ALTERNATIVES]
        if cards[i] >= 0.01
    )
    return Detection(LABELS[best], float(np.clip(cards[best], 0.0, 1.0)), box, alternatives,
                     box_conf)


def _weak(
    box: tuple[float, float, float, float], row: np.ndarray, weak_prob: float,
    sure_box: bool = False, box_conf: float | None = None,
) -> Detection | None:
    """An unnamed detection whose alternatives are the box's readings of 0.05 or more, when its
    best one reads at least weak_prob and above "none", or None. A box the box model is sure of
    (`sure_box`, `SURE_BOX`) counts from SURE_WEAK_PROB whatever "none" reads, its readings then
    the cards' shares among themselves. (Called for boxes read under min_prob.)"""
    cards = row[:NONE]
    order = np.argsort(-cards)
    best = cards[order[0]]
    if sure_box:
        if best < min(weak_prob, SURE_WEAK_PROB):
            return None
        cards = cards / cards.sum()
    elif row[NONE] >= best or best < weak_prob:
        return None
    readings = tuple((LABELS[int(i)], round(float(cards[i]), 4))
                     for i in order[:MAX_ALTERNATIVES] if cards[i] >= 0.05)
    return Detection(UNNAMED, 0.0, box, readings, box_conf)


def refine(
    bgr: np.ndarray,
    detections: Sequence[Detection],
    classifier: CardClassifier,
    min_prob: float = DEFAULT_MIN_PROB,
    detector_weight: float = 0.0,
    weak_prob: float | None = None,
    still: bool = False,
    memory: DeckMemory | None = None,
    crops: list[tuple[tuple[float, float, float, float], np.ndarray]] | None = None,
    vetoed: list[tuple[float, float, float, float]] | None = None,
    twins: Sequence[Sequence[Detection]] | None = None,
) -> list[Detection]:
    """Re-read each detection's box; drop the ones read as "none", keep one per card. With
    `weak_prob`, the boxes read too weakly to name follow, unnamed (`_weak`), and the boxes of
    the box model dropped are added to `vetoed` if given; `still`: the
    rules of a single picture (`_read`). With a deck `memory`, its readings are mixed in, and
    the boxes read as some card rather than "none" are added to `crops` with their features
    (for it to learn from). `twins` (one list per detection): other boxes on the same card,
    read too, whose surer reading a box may take (`vision.still_rules`)."""
    if not detections:
        return []
    boxes = [d.box for d in detections]
    extra = [t.box for ts in twins for t in ts] if twins is not None else []
    if memory is None:
        probs = classifier.probabilities(bgr, boxes + extra)
    else:
        probs, features = classifier.read(bgr, boxes + extra)
        probs = memory.reread(probs, features)
        if crops is not None and features is not None:  # (the detections' own crops)
            n = len(boxes)
            crops += [(d.box, f) for d, row, f in zip(detections, probs[:n], features[:n],
                                                      strict=True)
                      if row[:NONE].max() > row[NONE]]
    if extra and twins is not None:
        probs = second_readings(probs, twins)
    out, weak = [], []
    for d, row in zip(detections, probs, strict=True):
        row = row.astype(np.float32)
        if detector_weight > 0:
            cards = row[:NONE] ** (1 - detector_weight) * _detector_scores(d) ** detector_weight
            row = np.append(cards, row[NONE])
        # (a box of the learnt felt's comes with no score; a card held, re-read where the box
        # model found nothing, with 0)
        box_conf = d.box_conf if d.box_conf is not None else (
            d.confidence if d.confidence > 0 else None)
        found = _read(d.box, row, min_prob, still, box_conf)
        if found is not None:
            out.append(found)
        elif weak_prob is not None and (hint := _weak(
                d.box, row, weak_prob, d.confidence >= SURE_BOX, box_conf)) is not None:
            weak.append(hint)
        elif vetoed is not None and d.confidence > 0:
            vetoed.append(d.box)
    return one_per_card(out) + weak


def refine_boxes(
    bgr: np.ndarray,
    boxes: Sequence[Sequence[float]],
    classifier: CardClassifier,
    min_prob: float = DEFAULT_MIN_PROB,
) -> list[Detection]:
    """Read boxes from any class-agnostic source; drop "none", keep one per card."""
    if len(boxes) == 0:
        return []
    probs = classifier.probabilities(bgr, boxes)
    out = []
    for box, row in zip(boxes, probs, strict=True):
        x0, y0, x1, y1 = (float(v) for v in box)
        found = _read((x0, y0, x1, y1), row, min_prob)
        if found is not None:
            out.append(found)
    return one_per_card(out)


def box_threshold(detector: object) -> float:
    """The box threshold that suits the detector: a box model scores "a card" with confidence,
    a 32-card detector spreads its belief over names, so its boxes need a far lower bar."""
    return BOX_CONF if getattr(detector, "names_cards", True) else BOX_MODEL_CONF


class TwoStage:
    """A detector for boxes and a classifier for names, behind the detector's `detect` verb."""

    def __init__(
        self,
        detector: _Detector,
        classifier: CardClassifier,
        box_conf: float | None = None,
        min_prob: float = DEFAULT_MIN_PROB,
        detector_weight: float = 0.0,
        background: TableBackground | None = None,
        reads_main: bool = False,
        weak_prob: float | None = None,
        still: bool = False,
        still_boxes: _BoxModel | None = None,
        memory: DeckMemory | None = None,
    ) -> None:
        self.detector = detector
        # Video of one table: a memory of its deck, taught by the loop at each deal's end.
        self.memory = memory
        self.last_crops: list[tuple[tuple[float, float, float, float], np.ndarray]] = []
        self.still_boxes = still_boxes  # single pictures: a second box model's boxes too
        # `reads_main`: the loop passes the camera's full-resolution picture too (`main`), where
        # the cards are read (boxes are found on the small one). The device's default
        # (`detector.read_main`, session 34: models/card_classifier.md).
        self.reads_main = reads_main
        # Video from a fixed camera: patches that differ from the learnt felt are read too.
        self.background = background
        self.classifier = classifier
        self.box_conf = box_threshold(detector) if box_conf is None else box_conf
        self.min_prob = min_prob
        self.weak_prob = weak_prob  # video: weak readings passed on unnamed (`WEAK_PROB`)
        self.still = still  # single pictures: `_read`'s two rules for them
        self.detector_weight = detector_weight
        # Class-agnostic boxes when the detector offers them: its names need not be right.
        self._boxes = getattr(detector, "boxes", None)
        self.last_ms = 0.0  # both stages, last call: for `belote detect` and the health page

    def _read(self, bgr: np.ndarray, main: np.ndarray | None, boxes: Sequence[Detection],
              weight: float, vetoed: list[tuple[float, float, float, float]] | None = None,
              twins: Sequence[Sequence[Detection]] | None = None) -> list[Detection]:
        if main is None or main.shape[:2] == bgr.shape[:2]:
            return refine(bgr, boxes, self.classifier, self.min_prob, weight, self.weak_prob,
                          self.still, self.memory, self.last_crops, vetoed, twins)
        sx, sy = main.shape[1] / bgr.shape[1], main.shape[0] / bgr.shape[0]
        crops: list[tuple[tuple[float, float, float, float], np.ndarray]] = []
        big: list[tuple[float, float, float, float]] = []
        found = refine(main, [_scaled(d, sx, sy) for d in boxes], self.classifier,
                       self.min_prob, weight, self.weak_prob, self.still, self.memory, crops,
                       big if vetoed is not None else None,
                       None if twins is None else [[_scaled(t, sx, sy) for t in ts]
                                                   for ts in twins])
        # (the memory matches crops with the tracker's boxes: in the small picture's pixels)
        self.last_crops += [(_scaled_box(box, 1 / sx, 1 / sy), f) for box, f in crops]
        if vetoed is not None:
            vetoed += [_scaled_box(box, 1 / sx, 1 / sy) for box in big]
        return [_scaled(d, 1 / sx, 1 / sy) for d in found]

    def __repr__(self) -> str:
        return (
            f"TwoStage({getattr(self.detector, 'model', self.detector)} boxes at "
            f"{self.box_conf}, {self.classifier.path.name} x{self.classifier.turns} turns"
            f"{'' if self.min_prob == DEFAULT_MIN_PROB else f', names at {self.min_prob}'}"
            f"{', still-picture rules' if self.still else ''}"
            f"{'' if self.still_boxes is None else self._second_look()}"
            f"{', felt learnt' if self.background is not None else ''}"
            f"{', deck memory' if self.memory is not None else ''}"
            f"{'' if self.weak_prob is None else f', weak readings from {self.weak_prob}'})"
        )

    def _second_look(self) -> str:
        name = getattr(self.still_boxes, "model", Path("?")).name
        return f" + {name} boxes from {STILL_BOX_CONF}"

    @property
    def backend_name(self) -> str:
        return str(getattr(self.detector, "backend_name", "?")) + " + onnxruntime classifier"

    @property
    def input_size(self) -> tuple[int, int]:
        return tuple(getattr(self.detector, "input_size", (0, 0)))

    def detect(self, bgr: np.ndarray, conf: float | None = None,
               main: np.ndarray | None = None) -> list[Detection]:
        """Cards in one BGR image, each at most once, most confident first. `main`: the same
        picture at a higher resolution, where the classifier reads each box (boxes are returned
        in `bgr`'s pixels)."""
        start = time.perf_counter()
        self.last_crops = []
        if self._boxes is not None:
            boxes = self._boxes(bgr, self.box_conf)
        else:
            boxes = self.detector.detect(bgr, conf=self.box_conf)
        twins = None
        if self.still_boxes is not None:  # new boxes are read, and the first's twins beside them
            new, twins = split_second_look(boxes, self.still_boxes.boxes(bgr, STILL_BOX_CONF))
            boxes = list(boxes) + new
            twins += [[] for _ in new]
        vetoed: list[tuple[float, float, float, float]] | None = (
            [] if self.weak_prob is not None else None)
        found = self._read(bgr, main, boxes, self.detector_weight, vetoed, twins)
        if self.background is not None:  # then what differs from the felt where no card was read
            named = [d.box for d in found if d.card != UNNAMED]
            # Cards lying still lately, where the box model found nothing: a box found there,
            # even one read too weakly to name, is what lies there now (seed 2140 deal 5).
            held = self.background.held([d.box for d in found])
            extra = self.background.boxes(bgr, named + held)
            more: list[Detection] = []
            if held:  # a held card counts when named again: its weak readings would be stale
                more = [d for d in self._read(bgr, main, _unnamed(held, 0.0), 0.0)
                        if d.card != UNNAMED]
            if extra:
                more += self._read(bgr, main, _unnamed(extra), 0.0)
            if more:
                both = found + more
                found = one_per_card([d for d in both if d.card != UNNAMED]) + [
                    d for d in both if d.card == UNNAMED]
            cards = [d for d in found if d.card != UNNAMED]
            self.background.learn([d.box for d in cards], [d.card for d in cards])
        if vetoed:  # video: the box model's boxes read as no card (or too weakly for a hint),
            found += _unnamed(vetoed)  # unnamed with no readings: something lies there (a pad)
        self.last_ms = (time.perf_counter() - start) * 1000
        return [d for d in found if conf is None or d.confidence >= conf]


def _unnamed(boxes: Sequence[tuple[float, float, float, float]],
             box_conf: float | None = None) -> list[Detection]:
    return [Detection(UNNAMED, 0.0, box, (), box_conf) for box in boxes]


def _scaled(d: Detection, sx: float, sy: float) -> Detection:
    return replace(d, box=_scaled_box(d.box, sx, sy))


def _scaled_box(box: tuple[float, float, float, float], sx: float, sy: float
                ) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (x0 * sx, y0 * sy, x1 * sx, y1 * sy)


def with_classifier(
    detector: _Detector,
    path: Path | str | None = None,
    turns: int = DEFAULT_TURNS,
    box_conf: float | None = None,
    min_prob: float = DEFAULT_MIN_PROB,
    felt: bool = False,
    read_main: bool = False,
    still: bool = False,
    still_boxes: Path | None = None,
    deck_memory: bool = False,
    memory_path: Path | None = None,
) -> _Detector | TwoStage:
    """The detector with its boxes re-read by the card classifier when that model is there;
    `felt`: video from a fixed camera, so what differs from the learnt felt is read too;
    `still`: single pictures, read by `_read`'s two rules for them (a clear reading under
    `min_prob` named, one with a real share of "none" not; on video such boxes reach the
    tracker as weak ones, with their readings), and with `still_boxes` (a box model file) its
    boxes are read too. `deck_memory` (video of one table): a `DeckMemory`, when the classifier
    file gives its features, kept at `memory_path` if given.

    Measured on the real photos (`belote eval`): recall 0.014 (detector alone) → 0.895 at
    precision 0.978 → 0.984 with the 128 px classifier, so the second stage is on by default.
    """
    from vision.backends import ModelError
    from vision.detector import Detector

    model = Path(path) if path is not None else DEFAULT_CLASSIFIER
    # Only our YOLO model's boxes are re-read: a scripted or oracle detector is taken as it is.
    if not isinstance(detector, Detector):
        return detector
    if not model.is_file():
        if not detector.names_cards:
            raise ModelError(f"{model}: card classifier not found, and {detector.model.name} "
                             "finds cards without naming them")
        return detector
    background = TableBackground() if felt else None
    second = None
    if still_boxes is not None:
        from vision.detector import load_detector

        second = load_detector(still_boxes, boxes=True)
    classifier = CardClassifier(model, turns=turns)
    memory = DeckMemory(memory_path) if deck_memory and classifier.features else None
    return TwoStage(detector, classifier, box_conf, min_prob,
                    background=background, reads_main=read_main,
                    weak_prob=WEAK_PROB if felt else None, still=still, still_boxes=second,
                    memory=memory)
