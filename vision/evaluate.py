"""Card-set evaluation of a detector on an image set: what a player would call 'read right'.

Per image, the true set of cards is compared with the predicted set: precision = right / predicted,
recall = right / true (1.0 when the denominator is empty), averaged over images; an image is
'perfect' when both sets are equal. Boxes only serve to name confusions (true card -> predicted
card at the same place, IoU >= 0.5) and to count false reports on face-down and non-belote cards.

Two set formats are read:
- a YOLO dataset (its `data.yaml`, or a folder holding one, `images/<split>` and `labels/<split>`);
  the renderer's `meta/<split>.jsonl`, when present, adds backs and distractors (not labelled) and
  belote cards too hidden to be labelled, whose detection is then neither right nor wrong;
- a `labels.json` of photos: {"images": {file: [{"card": "TD", "box": [x0, y0, x1, y1]}]}} with the
  images beside it or in `images/`.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from vision.detections import CLASS_NAMES, Detection, iou

MATCH_IOU = 0.5
MISSED = "missed"  # confusion target: a true card with no prediction at its place
NOTHING = "nothing"  # confusion source: a prediction where no labelled card is


class SetError(ValueError):
    """An evaluation set that cannot be read; the message names the file."""


@dataclass(frozen=True)
class Truth:
    """What is really in one image."""

    image: Path
    cards: tuple[tuple[str, tuple[float, float, float, float]], ...]  # labelled belote cards
    dont_care: frozenset[str] = frozenset()  # present but too hidden to be labelled
    decoys: tuple[tuple[str, tuple[float, float, float, float]], ...] = ()  # backs, 2-6, jokers
    design: str = ""  # the card design of a rendered scene (its meta), for the per-design lines


@dataclass
class ImageResult:
    """One image's verdict."""

    image: str
    truth: list[str]
    predicted: list[str]
    precision: float
    recall: float
    perfect: bool
    design: str = ""
    decoys: int = 0
    decoy_reports: int = 0


@dataclass
class SetReport:
    """Everything `belote eval` prints for one set."""

    name: str
    images: list[ImageResult] = field(default_factory=list)
    confusions: Counter[tuple[str, str]] = field(default_factory=Counter)

    @property
    def precision(self) -> float:
        return _mean(r.precision for r in self.images)

    @property
    def recall(self) -> float:
        return _mean(r.recall for r in self.images)

    @property
    def perfect(self) -> float:
        return _mean(1.0 if r.perfect else 0.0 for r in self.images)

    @property
    def decoys(self) -> int:
        """Backs and distractors shown."""
        return sum(r.decoys for r in self.images)

    @property
    def decoy_reports(self) -> int:
        """Of them, those reported as a belote card."""
        return sum(r.decoy_reports for r in self.images)

    @property
    def decoy_rate(self) -> float | None:
        return self.decoy_reports / self.decoys if self.decoys else None

    def summary(self) -> dict[str, object]:
        cards_true = sum(len(r.truth) for r in self.images)
        # Precision and recall above are per-image averages; these are the plain counts.
        read = sum(len(set(r.truth) & set(r.predicted)) for r in self.images)
        reported = sum(len(r.predicted) for r in self.images)
        return {
            "set": self.name,
            "images": len(self.images),
            "cards": cards_true,
            "cards_read": read,
            "cards_false": reported - read,
            "precision": round(self.precision, 4),
            "recall": round(self.recall, 4),
            "perfect": round(self.perfect, 4),
            "decoys": self.decoys,
            "decoy_reports": self.decoy_reports,
            "decoy_rate": None if self.decoy_rate is None else round(self.decoy_rate, 4),
            "designs": self.by_design(),
            "confusions": [
                {"true": t, "predicted": p, "count": n}
                for (t, p), n in self.confusions.most_common()
            ],
        }

    def by_design(self) -> dict[str, dict[str, object]]:
        """Precision, recall, perfect share and decoys per card design, when the set names more
        than one (rendered scenes: the held-out decks read one by one); else empty."""
        designs = sorted({r.design for r in self.images})
        if len(designs) < 2:
            return {}
        out: dict[str, dict[str, object]] = {}
        for design in designs:
            part = SetReport(design, [r for r in self.images if r.design == design])
            out[design] = {"images": len(part.images), "precision": round(part.precision, 4),
                           "recall": round(part.recall, 4), "perfect": round(part.perfect, 4),
                           "decoys": part.decoys, "decoy_reports": part.decoy_reports}
        return out


def _mean(values: Iterator[float] | Sequence[float]) -> float:
    vals = list(values)
    return sum(vals) / len(vals) if vals else 0.0


def score_image(
    truth: Truth, found: Sequence[Detection]
) -> tuple[ImageResult, list[tuple[str, str]], int]:
    """Compare one image's detections with its truth: verdict, confusions, decoys reported."""
    true_set = {c for c, _ in truth.cards}
    predicted = [d for d in found if d.card in true_set or d.card not in truth.dont_care]
    pred_set = {d.card for d in predicted}
    right = len(true_set & pred_set)
    result = ImageResult(
        image=str(truth.image),
        truth=sorted(true_set),
        predicted=sorted(pred_set),
        precision=right / len(pred_set) if pred_set else 1.0,
        recall=right / len(true_set) if true_set else 1.0,
        perfect=pred_set == true_set,
        design=truth.design,
        decoys=len(truth.decoys),
    )
    confusions: list[tuple[str, str]] = []
    unmatched = list(predicted)
    for card, box in truth.cards:  # greedy: each true card takes the best-overlapping prediction
        best = max(unmatched, key=lambda d: iou(box, d.box), default=None)
        if best is not None and iou(box, best.box) >= MATCH_IOU:
            unmatched.remove(best)
            if best.card != card:
                confusions.append((card, best.card))
        elif card not in pred_set:
            confusions.append((card, MISSED))
    decoy_hits = 0
    for _, box in truth.decoys:
        hit = next((d for d in unmatched if iou(box, d.box) >= MATCH_IOU), None)
        if hit is not None:
            unmatched.remove(hit)
            decoy_hits += 1
    confusions += [(NOTHING, d.card) for d in unmatched if d.card not in true_set]
    result.decoy_reports = decoy_hits
    return result, confusions, decoy_hits


def evaluate(
    name: str,
    truths: Sequence[Truth],
    detect: Callable[[Path], Sequence[Detection]],
    progress: bool = True,
) -> SetReport:
    """Run `detect` on every image of a set and gather the report."""
    import sys

    from tqdm import tqdm

    report = SetReport(name)
    for truth in tqdm(truths, desc=name, unit="img", file=sys.stderr, disable=not progress):
        result, confusions, _ = score_image(truth, detect(truth.image))
        report.images.append(result)
        report.confusions.update(confusions)
    return report


# --- reading sets -------------------------------------------------------------------------

DECOY_MIN_VISIBLE = 0.5  # a back or distractor counts as shown when at least half of it is seen


def load_set(path: Path, split: str = "val") -> list[Truth]:
    """Read an evaluation set: a labels.json, a data.yaml, or a folder holding either."""
    if not path.exists():
        raise SetError(f"{path}: evaluation set not found")
    if path.is_dir():
        for candidate in (path / "labels.json", path / "data.yaml"):
            if candidate.exists():
                return load_set(candidate, split)
        if (path / "images" / split).is_dir():
            return load_yolo(path, split)
        raise SetError(f"{path}: no labels.json, data.yaml or images/{split} inside")
    if path.suffix == ".json":
        return load_labels_json(path)
    if path.suffix in (".yaml", ".yml"):
        try:
            data = yaml.safe_load(path.read_text()) or {}
        except yaml.YAMLError as exc:
            raise SetError(f"{path}: not valid YAML ({exc})") from exc
        root = Path(data.get("path") or path.parent)
        if not root.is_absolute():
            root = path.parent / root
        return load_yolo(root, split)
    raise SetError(f"{path}: expected a labels.json, a data.yaml or a dataset folder")


def load_labels_json(path: Path) -> list[Truth]:
    """Photos labelled as {"images": {file: [{"card", "box"}]}} (or the mapping itself)."""
    try:
        raw = json.loads(path.read_text())
    except (OSError, json.JSONDecodeError) as exc:
        raise SetError(f"{path}: cannot read labels ({exc})") from exc
    table = raw.get("images", raw) if isinstance(raw, dict) else None
    if not isinstance(table, dict):
        raise SetError(f"{path}: expected {{'images': {{file: [cards]}}}}")
    folder = path.parent / "images" if (path.parent / "images").is_dir() else path.parent
    truths = []
    for file, cards in sorted(table.items()):
        try:
            entries = tuple((str(c["card"]), _box(c["box"])) for c in cards)
        except (KeyError, TypeError, ValueError) as exc:
            raise SetError(f"{path}: image {file}: each card needs 'card' and 'box'") from exc
        for card, _ in entries:
            if card not in CLASS_NAMES:
                raise SetError(f"{path}: image {file}: unknown card {card!r}")
        truths.append(Truth(folder / file, entries))
    return truths


def load_yolo(root: Path, split: str) -> list[Truth]:
    """A YOLO split: labels/<split>/*.txt, plus the renderer's meta/<split>.jsonl if present."""
    import cv2

    images = root / "images" / split
    if not images.is_dir():
        raise SetError(f"{images}: no such image folder")
    meta = read_meta(root / "meta" / f"{split}.jsonl")
    truths = []
    for image in sorted(
        p for p in images.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png")
    ):
        key = f"images/{split}/{image.name}"
        if key in meta:
            truths.append(_truth_from_meta(image, meta[key]))
            continue
        label = root / "labels" / split / f"{image.stem}.txt"
        lines = label.read_text().split() if label.exists() else []
        picture = cv2.imread(str(image))
        if picture is None:
            raise SetError(f"{image}: unreadable image")
        size = picture.shape[:2]
        h, w = size
        cards = []
        for i in range(0, len(lines), 5):
            cls, cx, cy, bw, bh = int(lines[i]), *map(float, lines[i + 1 : i + 5])
            box = ((cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h)
            cards.append((CLASS_NAMES[cls], box))
        truths.append(Truth(image, tuple(cards)))
    if not truths:
        raise SetError(f"{images}: no images")
    return truths


def read_meta(path: Path) -> dict[str, dict[str, object]]:
    """A rendered set's `meta/<split>.jsonl` by image ('images/<split>/<file>'); {} if absent."""
    if not path.exists():
        return {}
    rows = (json.loads(line) for line in path.read_text().splitlines() if line.strip())
    return {str(row["image"]): row for row in rows}


def _truth_from_meta(image: Path, row: dict[str, object]) -> Truth:
    cards, dont_care, decoys = [], set(), []
    placements = row.get("cards", [])
    assert isinstance(placements, list)
    for p in placements:
        card, box = str(p["card"]), _box(p["box"])
        if card in CLASS_NAMES:
            if p.get("labelled"):
                cards.append((card, box))
            else:
                dont_care.add(card)
        elif float(p.get("visible", 1.0)) >= DECOY_MIN_VISIBLE:
            decoys.append((card, box))
    return Truth(image, tuple(cards), frozenset(dont_care - {c for c, _ in cards}), tuple(decoys),
                 str(row.get("design", "")))


def _box(values: object) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (float(v) for v in values)  # type: ignore[attr-defined]
    return (x0, y0, x1, y1)
