"""Would a memory of this table's deck read its cards better? The idea of `vision.deck_memory`,
measured on crops (session 51, before it was built; the device reads with it since session 52).

A table plays one deck all evening, and every finished deal names each of its 32 cards (the
record, verified by the rules). So after one deal the companion could hold, for each card of
*this* deck, the classifier's features of its crops (a prototype), and read a later crop by the
nearest prototype. This script measures that on simulated deals (`simulated_deals.py` output
folders, their videos and true records): crops of cards at least `--min-visible` uncovered,
sampled from every `--every`-th frame and cut as the pipeline cuts them, read by the shipped
classifier (the mean of its quarter turns) and by the prototypes of the same design's earlier
deals in the folder (labels from the true record: what a finished deal gives). It prints top-1
of both, overall, per design, and on the crops the classifier reads under 0.6.

    .venv/bin/python benchmarks/deck_memory.py runs/sim2161 [more folders]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np

from vision.crops import LABELS
from vision.deck_memory import unit

CARDS = LABELS[:32]
TURNS = 4


def feature_reader(model: Path) -> Any:
    """The classifier, averaging four quarter turns, with its pooled features."""
    from vision.classifier import CardClassifier

    classifier = CardClassifier(model, threads=1, turns=TURNS)
    if classifier.features is None:
        raise SystemExit(f"deck_memory: {model} gives no features (python -m vision.classifier "
                         "features adds them)")
    return classifier


def sample_crops(record: Path, size: int, every: int, per_card: int, min_visible: float,
                 rng: random.Random) -> tuple[str, list[tuple[str, np.ndarray]]]:
    """(design, [(card, crop)]): up to `per_card` crops of each card seen in the deal's video."""
    import cv2

    from vision.crops import square_crop
    from vision.simulate import replay_script

    truth = json.loads(record.read_text())
    sim = truth["meta"]["simulated"]
    _deal, timeline, filming = replay_script(truth)
    video = cv2.VideoCapture(str(record.with_name(sim["video"])))
    seen: dict[str, list[np.ndarray]] = defaultdict(list)
    k = 0
    while True:
        ok, frame = video.read()
        if not ok:
            break
        if k % every == 0:
            placements, occluders = filming.layout(timeline.scene_at(k / sim["fps"]))
            _drawn, labels = filming.scene.render(placements, occluders, effects=False)
            for label in labels:
                if label.labelled and label.visible >= min_visible:
                    seen[label.card].append(square_crop(frame, label.box, size))
        k += 1
    crops = [(card, crop) for card, all_crops in seen.items()
             for crop in rng.sample(all_crops, min(per_card, len(all_crops)))]
    return sim["design"], crops


def read(classifier: Any, crops: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities (N, 33) and features (N, F), each the mean over four quarter turns."""
    batch = np.ascontiguousarray(np.stack(crops).transpose(0, 3, 1, 2), np.float32)
    outs = [classifier.run(batch[s : s + 64]) for s in range(0, len(batch), 64)]
    return np.concatenate([p for p, _ in outs]), np.concatenate([f for _, f in outs])


def compare(groups: list[tuple[str, np.ndarray, np.ndarray, np.ndarray]]
            ) -> dict[str, list[int]]:
    """Per deck, overall and on the crops read under 0.6: [right by the classifier, by the
    classifier among the cards the memory knows, by the memory, crops]. `groups`: (deck, true
    card indices, probabilities, features) in order; each read by the prototypes of the same
    deck's groups before it."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    memory: dict[str, list[tuple[np.ndarray, np.ndarray]]] = defaultdict(list)
    for deck, truth, probs, feats in groups:
        if memory[deck]:
            known = np.concatenate([t for t, _ in memory[deck]])
            pooled = np.concatenate([unit(f) for _, f in memory[deck]])
            have = np.array([(known == i).any() for i in range(len(CARDS))])
            protos = np.stack([unit(pooled[known == i].mean(0)) if have[i]
                               else np.zeros(pooled.shape[1]) for i in range(len(CARDS))])
            cards = probs[:, : len(CARDS)]
            right = (cards.argmax(1) == truth, np.where(have, cards, -1).argmax(1) == truth,
                     (unit(feats) @ protos.T).argmax(1) == truth)
            weak = cards.max(1) < 0.6
            for key, rows in ((deck, slice(None)), ("all", slice(None)),
                              ("read under 0.6", weak)):
                counts = tally[key]
                for j, hits in enumerate(right):
                    counts[j] += int(hits[rows].sum())
                counts[3] += len(truth[rows])
        memory[deck].append((truth, feats))
    return tally


def photo_halves(root: Path, classifier: Any, size: int) -> list[tuple[str, np.ndarray, np.ndarray,
                                                                  np.ndarray]]:
    """A folder of real photos of one deck (`labels.json` as in ../shared/realdev): its labelled
    boxes in two halves by photo, as two groups of one deck (the second read by the first's
    prototypes)."""
    import cv2

    from vision.classifier import real_boxes
    from vision.crops import square_crop

    halves: list[list[tuple[str, np.ndarray]]] = [[], []]
    for k, (path, cards) in enumerate(real_boxes(root)):
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"deck_memory: {path}: unreadable image")
        halves[k % 2] += [(card, square_crop(image, box, size)) for card, box in cards]
    groups = []
    for half in halves:
        probs, feats = read(classifier, [crop for _, crop in half])
        groups.append((root.name, np.array([CARDS.index(c) for c, _ in half]), probs, feats))
    return groups


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="*", type=Path, help="simulated_deals.py output folders")
    parser.add_argument("--photos", type=Path, metavar="DIR",
                        help="also real photos of one deck (e.g. ../shared/realdev/edje_train): "
                        "each half read by the other half's prototypes")
    parser.add_argument("--model", type=Path, default=Path("models/card_classifier.onnx"))
    parser.add_argument("--every", type=int, default=4, help="sample every N-th frame (4)")
    parser.add_argument("--per-card", type=int, default=12, help="crops per card per deal (12)")
    parser.add_argument("--min-visible", type=float, default=0.6,
                        help="share of the card uncovered (0.6)")
    args = parser.parse_args(argv)
    from tqdm import tqdm

    records = [r for folder in args.folders
               for r in sorted(folder.glob("deal_[0-9][0-9][0-9].json"))]
    if not records and args.photos is None:
        print(f"deck_memory: no deal_NNN.json in {', '.join(map(str, args.folders))}",
              file=sys.stderr)
        return 2
    classifier = feature_reader(args.model)
    size = classifier.size  # the crop side the classifier reads
    rng = random.Random(0)
    total: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    if args.photos is not None:
        first, second = photo_halves(args.photos, classifier, size)
        for order in ((first, second), (second, first)):
            for key, counts in compare(list(order)).items():
                total[key] = [a + b for a, b in zip(total[key], counts, strict=True)]
    for folder in args.folders:
        deals = []
        for record in tqdm(sorted(folder.glob("deal_[0-9][0-9][0-9].json")), desc=folder.name,
                           unit="deal", file=sys.stderr):
            design, crops = sample_crops(record, size, args.every, args.per_card,
                                         args.min_visible, rng)
            probs, feats = read(classifier, [c for _, c in crops])
            truth = np.array([CARDS.index(card) for card, _ in crops])
            deals.append((design, truth, probs, feats))
        for key, counts in compare(deals).items():
            total[key] = [a + b for a, b in zip(total[key], counts, strict=True)]
    print("crops read after a deal (a half of the photos) of the same deck: top-1 by the "
          "classifier / by the classifier among the cards the memory knows / by the memory "
          "(errors of the first and the last)")
    for key in sorted(total, key=lambda k: (k in ("all", "read under 0.6"), k)):
        by_class, by_known, by_memory, n = total[key]
        fewer = (f"{(n - by_class) / (n - by_memory):.1f}x fewer" if n > by_memory
                 else "none by the memory")
        print(f"  {key:22s} {by_class / n:.4f} / {by_known / n:.4f} / {by_memory / n:.4f}  "
              f"({n - by_class} / {n - by_memory} of {n}: {fewer})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
