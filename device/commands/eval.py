"""`belote eval`: card-set precision/recall, perfect images and confusions of a detector."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from device.commands.reading import add_reading_arguments, add_still_arguments, load_reader

HELP = "Measure the card detector on image sets: card-set precision/recall, perfect images."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="model file (default: the shipped models/card_detector.onnx)",
    )
    parser.add_argument("--backend", default="auto", help="auto, ncnn, onnxruntime, ultralytics")
    parser.add_argument(
        "--set",
        dest="sets",
        type=Path,
        action="append",
        required=True,
        metavar="PATH",
        help="labels.json, data.yaml or dataset folder (repeatable)",
    )
    parser.add_argument("--split", default="val", help="split of a YOLO dataset (default val)")
    parser.add_argument("--conf", type=float, default=None, help="confidence threshold")
    parser.add_argument("--limit", type=int, default=None, help="evaluate the first N images")
    parser.add_argument("--json", action="store_true", help="one JSON object per set")
    add_reading_arguments(parser)
    add_still_arguments(parser)
    parser.add_argument("--top", type=int, default=15, help="confusions shown (default 15)")
    parser.add_argument(
        "--per-image",
        type=Path,
        default=None,
        help="write every image's verdict to this JSON-lines file",
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.detections import Detection
    from vision.detector import DEFAULT_CONF, ModelError
    from vision.evaluate import SetError, evaluate, load_set

    try:
        detector, reader = load_reader(args, "eval", args.model, still=True, backend=args.backend,
                                       conf=args.conf or DEFAULT_CONF)
        sets = [(path, load_set(path, args.split)[: args.limit]) for path in args.sets]
    except (ModelError, SetError, FileNotFoundError) as exc:
        print(f"belote eval: {exc}", file=sys.stderr)
        return 2

    def detect(image: Path) -> list[Detection]:
        bgr = cv2.imread(str(image))
        if bgr is None:
            raise SetError(f"{image}: unreadable image")
        found: list[Detection] = reader.detect(bgr)
        return found

    print(
        f"model {detector.model} ({detector.backend_name}, input "
        f"{detector.input_size[1]}x{detector.input_size[0]}, conf {detector.conf})"
        + (f" + {reader!r}" if reader is not detector else ""),
        file=sys.stderr,
    )
    per_image = args.per_image.open("w") if args.per_image else None
    try:
        for path, truths in sets:
            report = evaluate(str(path), truths, detect)
            if per_image:
                for r in report.images:
                    per_image.write(json.dumps({"set": str(path), **r.__dict__}) + "\n")
            summary = report.summary()
            if args.json:
                print(json.dumps(summary))
            else:
                _print_summary(summary, args.top)
    except SetError as exc:
        print(f"belote eval: {exc}", file=sys.stderr)
        return 2
    finally:
        if per_image:
            per_image.close()
    return 0


def _print_summary(s: dict[str, Any], top: int) -> None:
    print(f"{s['set']}: {s['images']} images, {s['cards']} cards")
    print(
        f"  card-set precision {s['precision']:.4f}  recall {s['recall']:.4f}  "
        f"perfect images {s['perfect']:.2%}"
    )
    print(
        f"  (averaged per image; in all: {s['cards_read']} of {s['cards']} cards read, "
        f"{s['cards_false']} reported that are not there)"
    )
    if s["decoys"]:
        print(
            f"  face-down / non-belote cards reported as a belote card: "
            f"{s['decoy_reports']} of {s['decoys']} ({s['decoy_rate']:.2%})"
        )
    for design, d in s["designs"].items():
        decoys = f", decoys {d['decoy_reports']} of {d['decoys']}" if d["decoys"] else ""
        print(f"    {design}: {d['images']} images, P {d['precision']:.4f}  R {d['recall']:.4f}  "
              f"perfect {d['perfect']:.2%}{decoys}")
    confusions = s["confusions"][:top]
    if confusions:
        print("  confusions (true -> predicted: count):")
        for c in confusions:
            print(f"    {c['true']:>7} -> {c['predicted']:<7} {c['count']}")
