"""`belote detect IMAGE...`: the cards in photos, as a readable list or one JSON line per image."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from device.commands.reading import add_reading_arguments, add_still_arguments, load_reader

HELP = "Read the cards in images (one JSON line per image with --json)."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", nargs="+", metavar="IMAGE", help="image files (JPEG, PNG...)")
    parser.add_argument("--json", action="store_true", help="one JSON object per image")
    parser.add_argument(
        "--model",
        type=Path,
        default=None,
        help="model file (default: the shipped models/card_detector.onnx)",
    )
    parser.add_argument(
        "--backend",
        default="auto",
        help="auto (fastest installed), ncnn, onnxruntime or ultralytics",
    )
    parser.add_argument(
        "--conf",
        type=float,
        default=None,
        help="least confidence reported (default: 0.35 with --one-stage, every card the "
        "classifier names otherwise)",
    )
    add_reading_arguments(parser)
    add_still_arguments(parser)
    parser.add_argument(
        "--annotate",
        type=Path,
        metavar="OUT_DIR",
        default=None,
        help="write a copy of each image with boxes and names into OUT_DIR",
    )


def run(args: argparse.Namespace) -> int:
    import cv2

    from vision.detector import DEFAULT_CONF, ModelError

    try:
        _, detector = load_reader(args, "detect", args.model, still=True, backend=args.backend,
                                  conf=args.conf or DEFAULT_CONF)
    except (ModelError, FileNotFoundError) as exc:
        print(f"belote detect: {exc}", file=sys.stderr)
        return 2
    if args.annotate:
        args.annotate.mkdir(parents=True, exist_ok=True)
    status = 0
    for name in args.images:
        bgr = cv2.imread(name) if Path(name).is_file() else None
        if bgr is None:
            reason = "no such file" if not Path(name).exists() else "not a readable image"
            print(f"belote detect: {name}: {reason}", file=sys.stderr)
            status = 2
            continue
        cards = detector.detect(bgr, args.conf)
        if args.json:
            print(json.dumps({"image": name, "cards": [d.to_json() for d in cards]}), flush=True)
        else:
            print(
                f"{name}: {len(cards)} card{'s' if len(cards) != 1 else ''}"
                f" ({detector.last_ms:.0f} ms)"
            )
            for d in cards:
                x0, y0, x1, y1 = (round(v) for v in d.box)
                alt = ", ".join(f"{c} {p:.2f}" for c, p in d.alternatives[:2])
                print(
                    f"  {d.card:<3} {d.confidence:.2f}  [{x0}, {y0}, {x1}, {y1}]"
                    + (f"  (else {alt})" if alt else "")
                )
        if args.annotate:
            from vision.backends.annotate import draw

            out = args.annotate / Path(name).name
            cv2.imwrite(str(out), draw(bgr, cards))
    return status
