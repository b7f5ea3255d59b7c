"""The card classifier: a second stage that reads which card is in each detector box.

Inference runs on ONNX Runtime only (no torch at run time); training lives in
`vision.classifier_train`. Each box is cut with `vision.crops.square_crop` (the same geometry the
model was trained on) and all boxes of an image go through the model in one batch.

    classifier = CardClassifier()                     # models/card_classifier.onnx
    classifier.classify(bgr, [(x0, y0, x1, y1), ...]) # [[('JH', 0.97), ('JD', 0.02), ...], ...]

Command line (a mode per verb):
    python -m vision.classifier train --data data/crops_v1 --out runs/cls_v1 --epochs 9
    python -m vision.classifier export --ckpt runs/cls_v1/last.pt --out models/card_classifier.onnx
    python -m vision.classifier measure --real ../shared/realdev/edje_train \
        --crops data/crops_v1/val.npz
    python -m vision.classifier ensemble --out runs/ens.onnx A.onnx B.onnx  # their mean, one file
    python -m vision.classifier features --out runs/f.onnx A.onnx  # + its pooled features output
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from vision.classifier_ensemble import FEATURES
from vision.crops import CROP, LABELS, NONE, square_crop

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_CLASSIFIER = MODELS_DIR / "card_classifier.onnx"

__all__ = ["DEFAULT_CLASSIFIER", "LABELS", "NONE", "CardClassifier"]


class CardClassifier:
    """A loaded ONNX classifier: 33 readings per box (the 32 cards and "none")."""

    def __init__(
        self, path: Path | str = DEFAULT_CLASSIFIER, threads: int = 2, turns: int = 1
    ) -> None:
        import onnxruntime as ort

        path = Path(path)
        if not path.exists():
            raise FileNotFoundError(f"classifier model not found: {path}")
        from vision.backends.onnx_backend import session_options

        self.session = ort.InferenceSession(str(path), session_options(threads),
                                            providers=["CPUExecutionProvider"])
        spec = self.session.get_inputs()[0]
        self.input = spec.name
        self.size = spec.shape[-1] if isinstance(spec.shape[-1], int) else CROP
        self.path = path
        self.turns = turns  # average over this many quarter turns of each crop (1: none)
        self.last_ms = 0.0
        outputs = [o.name for o in self.session.get_outputs()]
        self.output = outputs[0]
        # An ensemble's pooled features (`vision.classifier_ensemble.FEATURES`), if it has them.
        self.features = FEATURES if FEATURES in outputs[1:] else None

    def crops(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
        """The model's input for these boxes: (N, 3, size, size) float32 BGR 0-255."""
        size = self.size
        batch = (
            np.stack([square_crop(bgr, box, size) for box in boxes])
            if len(boxes)
            else (np.zeros((0, size, size, 3), np.uint8))
        )
        return np.ascontiguousarray(batch.transpose(0, 3, 1, 2), dtype=np.float32)

    def probabilities(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
        """(N, 33) probabilities, columns in `LABELS` order (last = "none")."""
        return self.read(bgr, boxes, features=False)[0]

    def read(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]], features: bool = True
             ) -> tuple[np.ndarray, np.ndarray | None]:
        """(N, 33) probabilities and, if asked and the model has them, (N, F) features."""
        start = time.perf_counter()
        if len(boxes) == 0:
            return np.zeros((0, len(LABELS)), np.float32), None
        probs, feats = self.run(self.crops(bgr, boxes), features)
        self.last_ms = 1000 * (time.perf_counter() - start)
        return probs, feats

    def run(self, batch: np.ndarray, features: bool = True
            ) -> tuple[np.ndarray, np.ndarray | None]:
        """Probabilities and (if asked and there) features for a prepared batch (`crops`),
        each the mean over `turns` quarter turns."""
        n = len(batch)
        if self.turns > 1:
            turned = [np.rot90(batch, k, axes=(2, 3)) for k in range(self.turns)]
            batch = np.ascontiguousarray(np.concatenate(turned))
        names = [self.output] + ([self.features] if features and self.features else [])
        outs = self.session.run(names, {self.input: batch})
        mean = [np.asarray(o, np.float32).reshape(self.turns, n, -1).mean(0) for o in outs]
        return mean[0], (mean[1] if len(mean) > 1 else None)

    def classify(
        self, bgr: np.ndarray, boxes: Sequence[Sequence[float]], top: int = 5
    ) -> list[list[tuple[str, float]]]:
        """For each box, its `top` readings [(card or 'none', probability), ...], best first."""
        probs = self.probabilities(bgr, boxes)
        out = []
        for row in probs:
            best = np.argsort(-row)[:top]
            out.append([(LABELS[i], float(row[i])) for i in best])
        return out


def real_boxes(root: Path) -> list[tuple[Path, list[tuple[str, list[float]]]]]:
    """Each photo of a labelled folder (`labels.json`, as ../shared/realdev) with its boxes."""
    labels = json.loads((root / "labels.json").read_text())["images"]
    return [
        (root / "images" / name, [(c["card"], c["box"]) for c in cards])
        for name, cards in sorted(labels.items())
    ]


def measure(
    model: Path, real: Path | None, crops: Path | None, turns: int = 1
) -> dict[str, object]:
    """Top-1 accuracy on real photos' ground-truth boxes and on held-out rendered crops."""
    import cv2

    classifier = CardClassifier(model, turns=turns)
    report: dict[str, object] = {"model": str(model), "turns": turns}
    if real is not None:
        right = total = as_none = 0
        confusions: Counter[tuple[str, str]] = Counter()
        times: list[float] = []
        for path, cards in real_boxes(real):
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            start = time.perf_counter()
            readings = classifier.classify(image, [box for _, box in cards], top=1)
            times.append((time.perf_counter() - start) * 1000 / len(cards))
            for (truth, _), reading in zip(cards, readings, strict=True):
                total += 1
                right += reading[0][0] == truth
                as_none += reading[0][0] == "none"
                if reading[0][0] != truth:
                    confusions[(truth, reading[0][0])] += 1
        report["real_boxes"] = total
        report["real_top1"] = round(right / max(total, 1), 4)
        report["real_as_none"] = round(as_none / max(total, 1), 4)
        report["real_confusions"] = [f"{t}->{p} x{n}" for (t, p), n in confusions.most_common(12)]
        report["real_ms_per_box"] = round(float(np.median(times)), 3) if times else None
    if crops is not None:
        data = np.load(crops)
        x, y = data["x"], data["y"].astype(np.int64)
        preds = []
        for i in range(0, len(x), 256):
            batch = np.ascontiguousarray(x[i : i + 256].transpose(0, 3, 1, 2), dtype=np.float32)
            preds.append(classifier.run(batch, features=False)[0].argmax(1))
        pred = np.concatenate(preds)
        card = y != NONE
        report["render_crops"] = len(y)
        report["render_top1"] = round(float((pred == y).mean()), 4)
        report["render_card_top1"] = round(float((pred[card] == y[card]).mean()), 4)
        report["render_none_as_card"] = round(float((pred[~card] != NONE).mean()), 4)
        report["render_card_as_none"] = round(float((pred[card] == NONE).mean()), 4)
        wrong = Counter((LABELS[t], LABELS[p]) for t, p in zip(y, pred, strict=True) if t != p)
        report["render_confusions"] = [f"{t}->{p} x{n}" for (t, p), n in wrong.most_common(12)]
    # Speed: one batch of 8 boxes, as a busy table frame gives.
    image = np.full((480, 640, 3), 90, np.uint8)
    boxes = [(40.0 * i, 50.0, 40.0 * i + 90, 180.0) for i in range(8)]
    classifier.classify(image, boxes)
    runs = []
    for _ in range(30):
        start = time.perf_counter()
        classifier.classify(image, boxes)
        runs.append((time.perf_counter() - start) * 1000)
    report["ms_for_8_boxes"] = round(float(np.median(runs)), 2)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.classifier", description=__doc__)
    sub = parser.add_subparsers(dest="mode", required=True)
    p = sub.add_parser("train", help="train on crops (resumes <out>/last.pt)")
    p.add_argument(
        "--data",
        type=Path,
        action="append",
        help="a crop folder with train.npz and val.npz (repeatable; default data/crops_v1)",
    )
    p.add_argument("--out", type=Path, default=Path("runs/cls_v1"))
    p.add_argument("--epochs", type=int, default=9)
    p.add_argument("--epoch-size", type=int, default=0, help="crops per epoch (0: all)")
    p.add_argument("--batch", type=int, default=256)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--device", default="cpu", help="where to train: cpu (default), cuda, cuda:1")
    p.add_argument(
        "--hours",
        type=float,
        default=None,
        help="time budget: as many of --epochs as fit, timed on the first (fresh runs)",
    )
    p.add_argument(
        "--init",
        type=Path,
        default=None,
        help="start from these weights: a checkpoint (.pt) or an exported model (.onnx)",
    )
    p.add_argument(
        "--hide-face",
        type=float,
        default=0.0,
        metavar="SHARE",
        help="paint over the middle of this share of the crops (the corner indices then tell "
        "the card; default 0)",
    )
    p = sub.add_parser("export", help="write a checkpoint as ONNX")
    p.add_argument("--ckpt", type=Path, default=Path("runs/cls_v1/last.pt"))
    p.add_argument("--out", type=Path, default=DEFAULT_CLASSIFIER)
    p = sub.add_parser("ensemble", help="merge classifiers into one averaging their readings")
    p.add_argument("members", type=Path, nargs="+", help="two or more classifier ONNX files")
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("features", help="add the pooled features output (for a deck memory)")
    p.add_argument("model", type=Path, help="a classifier ONNX file")
    p.add_argument("--out", type=Path, required=True)
    p = sub.add_parser("measure", help="accuracy on real GT boxes / rendered crops, and speed")
    p.add_argument("--model", type=Path, default=DEFAULT_CLASSIFIER)
    p.add_argument("--real", type=Path, default=None, help="folder with labels.json + images/")
    p.add_argument("--crops", type=Path, default=None, help="an .npz of crops (x, y)")
    p.add_argument("--turns", type=int, default=1, help="average over 1-4 quarter turns")
    args = parser.parse_args(argv)
    if args.mode == "train":
        from vision.classifier_train import train

        folders = args.data or [Path("data/crops_v1")]
        for folder in folders:
            for name in ("train.npz", "val.npz"):
                if not (folder / name).exists():
                    print(
                        f"error: {folder / name} not found (run python -m vision.crops)",
                        file=sys.stderr,
                    )
                    return 2
        train(
            folders,
            args.out,
            args.epochs,
            args.batch,
            args.lr,
            args.threads,
            epoch_size=args.epoch_size,
            init=args.init,
            device=args.device,
            hours=args.hours,
            hide_face=args.hide_face,
        )
    elif args.mode == "export":
        from vision.classifier_train import export

        if not args.ckpt.exists():
            print(f"error: checkpoint {args.ckpt} not found", file=sys.stderr)
            return 2
        print(export(args.ckpt, args.out))
    elif args.mode in ("ensemble", "features"):
        from vision.classifier_ensemble import add_features, merge

        members = args.members if args.mode == "ensemble" else [args.model]
        missing = [str(m) for m in members if not m.exists()]
        if missing:
            print(f"error: classifier model not found: {', '.join(missing)}", file=sys.stderr)
            return 2
        try:
            print(merge(members, args.out) if args.mode == "ensemble"
                  else add_features(args.model, args.out))
        except ImportError:
            print("error: merging needs the onnx package (pip install -e '.[train]')",
                  file=sys.stderr)
            return 2
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
    else:
        if not args.model.exists():
            print(f"error: classifier model {args.model} not found", file=sys.stderr)
            return 2
        print(json.dumps(measure(args.model, args.real, args.crops, args.turns), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
