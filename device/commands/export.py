"""`belote export`: trained weights to ONNX/NCNN, optionally installed as the shipped model."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Export trained weights to ONNX (and NCNN); --install makes them the shipped model."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("weights", type=Path, help="trained checkpoint (runs/.../weights/best.pt)")
    parser.add_argument("--imgsz", type=int, default=320, help="input size in pixels (default 320)")
    parser.add_argument(
        "--formats", default="onnx", help="comma-separated: onnx, ncnn (default onnx)"
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


def run(args: argparse.Namespace) -> int:
    from vision.backends import ModelError
    from vision.export import export

    formats = tuple(f.strip() for f in args.formats.split(",") if f.strip())
    try:
        paths = export(args.weights, args.imgsz, formats, install=args.install, name=args.name)
    except ModelError as exc:
        print(f"belote export: {exc}", file=sys.stderr)
        return 2
    for path in paths:
        print(path)
    return 0
