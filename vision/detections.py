"""Plain detection values: what every detector backend returns, whatever model produced it.

A foreign model's output is converted to these at one boundary (the backend modules); the rest of
the product (tracker, evaluation, CLI) only ever sees `Detection` and `Frame`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from engine.cards import CARD_NAMES

# Class index → card name. The detector's 32 classes follow the engine's deck order.
CLASS_NAMES: tuple[str, ...] = CARD_NAMES
# The name of a box a one-class box model found: some card, for the card classifier to name.
UNNAMED = "?"


@dataclass(frozen=True, slots=True)
class Detection:
    """One card seen in one image: its name ('JH'), the model's confidence, its box in pixels."""

    card: str
    confidence: float
    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    # Other readings of the same object, best first: [(card, confidence), ...] — lets the tracker
    # take the second-best reading when the best one is already on the table.
    alternatives: tuple[tuple[str, float], ...] = field(default=())
    # The box model's score for the box, where a box model found it and a second stage named
    # it (None: the detector's own name, or a patch of the learnt felt; 0: a card held, read
    # again where the box model found nothing).
    box_conf: float | None = None

    def __post_init__(self) -> None:
        if self.card not in CLASS_NAMES and self.card != UNNAMED:
            raise ValueError(f"card must be one of the 32 belote cards, got {self.card!r}")
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be in [0, 1], got {self.confidence!r}")
        if len(self.box) != 4:
            raise ValueError(f"box must have 4 numbers (x0, y0, x1, y1), got {self.box!r}")
        x0, y0, x1, y1 = self.box
        if not (x1 >= x0 and y1 >= y0):
            raise ValueError(f"box must satisfy x0 <= x1 and y0 <= y1, got {self.box!r}")

    @property
    def center(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.box
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "confidence": round(self.confidence, 4),
            "box": [round(v, 1) for v in self.box],
        }


def iou(a: Sequence[float], b: Sequence[float]) -> float:
    """Intersection over union of two xyxy boxes."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    inter = w * h
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def area(box: Sequence[float]) -> float:
    """The area of an xyxy box."""
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def inside(a: Sequence[float], b: Sequence[float]) -> float:
    """The share of xyxy box `a` that lies inside box `b`."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    own = (a[2] - a[0]) * (a[3] - a[1])  # (inline, not `area`: called for every box pair)
    return w * h / own if w > 0 and h > 0 and own > 0 else 0.0


def one_per_card(detections: Iterable[Detection]) -> list[Detection]:
    """Keep the most confident detection of each card: a deck holds one of each."""
    best: dict[str, Detection] = {}
    for d in detections:
        if d.card not in best or d.confidence > best[d.card].confidence:
            best[d.card] = d
    return sorted(best.values(), key=lambda d: -d.confidence)
