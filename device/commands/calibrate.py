"""`belote calibrate`: find the felt and the seats in a picture of the table, once per install."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Calibrate the table (ArUco markers, the felt's outline, or 4 corners) and save it."


def _corners(text: str) -> list[tuple[float, float]]:
    try:
        points = [tuple(float(v) for v in p.split(",")) for p in text.split()]
    except ValueError:
        points = []
    if len(points) != 4 or any(len(p) != 2 for p in points):
        raise argparse.ArgumentTypeError(
            f"corners must be 4 points 'x,y x,y x,y x,y' (bottom-left, bottom-right, top-right, "
            f"top-left of the picture), got {text!r}")
    return [(p[0], p[1]) for p in points]


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True,
                        help="picamera2, 0, usb:0, a URL, a picture, a video or a folder")
    parser.add_argument("--method", choices=("auto", "aruco", "felt", "manual", "full"),
                        default="auto", help="auto: ArUco markers 0-3, else the felt (default)")
    parser.add_argument("--corners", type=_corners, metavar="'x,y x,y x,y x,y'",
                        help="manual corners: bottom-left, bottom-right, top-right, top-left")
    parser.add_argument("--bottom", choices=("N", "E", "S", "W"), default="S",
                        help="the seat at the bottom of the picture (felt/manual; default S)")
    parser.add_argument("--trick-size", type=float, default=0.08,
                        help="side of the central trick square, as a share of the felt (0.08)")
    parser.add_argument("--side-cm", type=float, default=80.0,
                        help="side of the calibrated square on the table, in cm: the felt's, or "
                             "the markers' square (80); tells how large a card looks")
    parser.add_argument("--width", type=int, default=640,
                        help="detector picture width the corners are measured in (default 640)")
    parser.add_argument("--save", type=Path, metavar="YAML",
                        help="write the geometry section into this config file")
    parser.add_argument("--preview", type=Path, metavar="JPG",
                        help="write the picture with the felt, trick square and seats drawn")


def _grab(spec: str, width: int):  # type: ignore[no-untyped-def]
    """One picture at the detector's `width`: a still image file, or the 5th frame of a
    camera/video (exposure settles)."""
    from device.sources import one_picture

    return one_picture(spec, (width, round(width * 9 / 16))).image


def run(args: argparse.Namespace) -> int:
    if args.method == "manual" and not args.corners:
        print("calibrate: --method manual needs --corners 'x,y x,y x,y x,y'", file=sys.stderr)
        return 2
    if not 0 < args.trick_size < 1:
        print("calibrate: --trick-size must be between 0 and 1", file=sys.stderr)
        return 2
    if not args.side_cm > 0:
        print("calibrate: --side-cm must be above 0", file=sys.stderr)
        return 2
    import yaml

    from device.config import ConfigError, GeometryConfig, save_geometry
    from vision.geometry import CalibrationError, calibrate

    try:
        image = _grab(args.source, args.width)
        method = "manual" if args.corners and args.method == "auto" else args.method
        geometry = calibrate(image, method, bottom=args.bottom, corners=args.corners,
                             trick_size=args.trick_size, side_cm=args.side_cm)
    except (CalibrationError, ValueError) as exc:  # SourceError is a ValueError too
        print(f"calibrate: {exc}", file=sys.stderr)
        return 2
    section = GeometryConfig.model_validate(geometry.to_config())
    sys.stdout.write(yaml.safe_dump({"geometry": section.model_dump(mode="json")},
                                    sort_keys=False, default_flow_style=None))
    if args.preview:
        import cv2

        cv2.imwrite(str(args.preview), geometry.draw(image))
        print(f"calibrate: preview written to {args.preview}", file=sys.stderr)
    if args.save:
        try:
            save_geometry(args.save, section)
        except (ConfigError, OSError) as exc:
            print(f"calibrate: {exc}", file=sys.stderr)
            return 2
        print(f"calibrate: geometry saved in {args.save}", file=sys.stderr)
    return 0
