"""`belote export`: trained weights to ONNX/NCNN, optionally installed as the shipped model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Export trained weights to ONNX (and NCNN); --install makes them the shipped model."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("weights", type=Path, help="trained checkpoint (runs/.../weights/best.pt)")
    parser.add_argument(
        "--imgsz",
        type=input_size,
        default=320,
        help="input size: N for NxN (default 320), or WxH, e.g. 352x288 for landscape frames",
    )
    parser.add_argument(
        "--formats", default="onnx", help="comma-separated: onnx, ncnn (default onnx)"
    )
    parser.add_argument(
        "--int8",
        type=Path,
        default=None,
        metavar="SCENES",
        help="quantize the ONNX file to 8-bit integers, calibrated on the images under SCENES "
        "(rendered scenes, e.g. a `belote render --out` folder)",
    )
    parser.add_argument(
        "--install",
        action="store_true",
        help="copy the results to models/NAME.{pt,onnx,_ncnn_model}",
    )
    parser.add_argument(
        "--name",
        default=None,
        help="installed name (default: card_boxes for a one-class box model, else card_detector)",
    )


def input_size(text: str) -> int | tuple[int, int]:
    """'352x288' (width x height, as video sizes are written) -> (288, 352); '320' -> 320."""
    try:
        parts = [int(p) for p in text.lower().split("x")]
    except ValueError:
        parts = []
    if len(parts) not in (1, 2) or any(p < 32 or p % 32 for p in parts):
        raise argparse.ArgumentTypeError(
            f"{text!r}: give N or WxH in pixels, each a multiple of 32 (e.g. 352x288)"
        )
    return parts[0] if len(parts) == 1 else (parts[1], parts[0])


def run(args: argparse.Namespace) -> int:
    from vision.backends import ModelError
    from vision.export import export

    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    try:
        paths = export(
            args.weights, args.imgsz, formats, install=args.install, name=args.name, int8=args.int8
        )
    except ModelError as exc:
        print(f"belote export: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0
