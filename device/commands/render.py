"""`belote render`: fetch card artwork, render table scenes as a YOLO dataset, preview them."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Fetch card artwork (--fetch-artwork) and render training scenes as a YOLO dataset"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--fetch-artwork",
        action="store_true",
        help="download and cut the card designs and table textures into "
        "--artwork (npm pack / apt-get download; needs rsvg-convert), then stop "
        "unless --out is given",
    )
    parser.add_argument(
        "--list",
        action="store_true",
        help="list the designs in the cache (training / held out) and stop",
    )
    parser.add_argument(
        "--out",
        type=Path,
        help="dataset folder to write (images/, labels/, "
        "meta/, data.yaml); images already there are kept",
    )
    parser.add_argument("--count", type=int, default=3000, help="training images (default 3000)")
    parser.add_argument(
        "--val-count",
        type=int,
        default=300,
        help="validation images, rendered with the held-out designs (default 300)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument(
        "--size", type=int, default=320, help="long side of each image in pixels (default 320)"
    )
    parser.add_argument(
        "--designs",
        nargs="+",
        metavar="DESIGN",
        help="training designs (default: every cached design not held out)",
    )
    parser.add_argument(
        "--val-designs",
        nargs="+",
        metavar="DESIGN",
        help="validation designs (default: the held-out designs)",
    )
    parser.add_argument(
        "--closeup",
        type=float,
        default=0.4,
        help="share of phone-style close-ups among the scenes (default 0.4)",
    )
    parser.add_argument(
        "--far",
        type=float,
        default=0.0,
        help="share of whole-table views from the device's height, cards about a tenth of the "
        "picture (default 0; the rest split by --closeup)",
    )
    parser.add_argument(
        "--piles",
        type=float,
        default=0.0,
        help="share of the close-ups that are two to four cards dropped on one another at any "
        "angle (default 0)",
    )
    parser.add_argument(
        "--boxes",
        choices=("card", "seen"),
        default="card",
        help="what a label's box covers: the whole card (default), or the part not under "
        "another card, as people label photos of fanned hands",
    )
    parser.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--preview",
        type=Path,
        metavar="PNG",
        help="write a sheet of 16 scenes with their boxes to PNG and stop",
    )
    parser.add_argument(
        "--artwork", type=Path, default=None, help="artwork cache (default cache/artwork)"
    )


def _fail(message: str) -> int:
    print(f"belote render: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from vision import artwork

    root = args.artwork or artwork.CACHE
    textures = root.parent / "textures"
    if args.fetch_artwork:
        ready = artwork.fetch(root)
        print(
            f"{len(ready)} designs in {root}: {len(artwork.training_designs(root))} for "
            f"training, held out: {' '.join(artwork.held_out_designs(root))}",
            file=sys.stderr,
        )
        if args.out is None and args.preview is None:
            return 0 if ready else 1
    available = artwork.available_designs(root)
    if args.list:
        for name in available:
            held = " (held out)" if artwork.base_design(name) in artwork.HELD_OUT else ""
            print(f"{name}{held}")
        return 0
    if not available:
        return _fail(f"no card artwork in {root}: run `belote render --fetch-artwork` first")
    train = args.designs or artwork.training_designs(root)
    val = args.val_designs or artwork.held_out_designs(root)
    unknown = [d for d in [*train, *val] if d not in available]
    if unknown:
        return _fail(f"unknown design(s) {' '.join(unknown)}: see `belote render --list`")
    if args.count < 0 or args.val_count < 0 or args.size < 64 or args.workers < 1:
        return _fail("--count/--val-count must be >= 0, --size >= 64, --workers >= 1")
    for flag in ("closeup", "far", "piles"):
        if not 0.0 <= getattr(args, flag) <= 1.0:
            return _fail(f"--{flag} must be between 0 and 1, got {getattr(args, flag)}")
    if args.preview is not None:
        from vision.preview import preview_sheet

        preview_sheet(args.preview, train, args.seed, args.size, root, textures, args.closeup,
                      far=args.far, piles=args.piles)
        print(f"wrote {args.preview}", file=sys.stderr)
        return 0
    if args.out is None:
        return _fail("nothing to do: give --out DIR (or --fetch-artwork, --list, --preview)")
    from vision.dataset import write_dataset

    try:
        yaml_path = write_dataset(
            args.out,
            train,
            val,
            args.count,
            args.val_count,
            args.seed,
            args.size,
            args.workers,
            root,
            textures,
            args.closeup,
            far=args.far,
            boxes=args.boxes,
            piles=args.piles,
        )
    except OSError as exc:
        return _fail(f"{args.out}: {exc.strerror or exc}")
    print(f"wrote {yaml_path}", file=sys.stderr)
    return 0
