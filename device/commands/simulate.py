"""`belote simulate`: whole deals as overhead videos of the table, with their true records."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Render simulated deals as overhead videos (deal_XXX.mp4) with their true records (.json)."


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 640x480, got {text!r}") from None
    if not (64 <= w <= 4096 and 64 <= h <= 4096):
        raise argparse.ArgumentTypeError(f"size {text!r}: each side must be 64 to 4096 pixels")
    return w, h


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--deals", type=int, default=1, help="how many deals (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="same seed, same videos")
    parser.add_argument("--out", type=Path, required=True, help="folder for the videos and records")
    parser.add_argument("--illegal", type=int, default=0, metavar="K",
                        help="revokes injected across all the deals (default 0)")
    parser.add_argument("--designs", nargs="+", metavar="DESIGN",
                        help="card designs, one per deal in turn (default: the held-out designs "
                        "the detector never trained on)")
    parser.add_argument("--rules", default="ffb-coinche", help="preset (default ffb-coinche)")
    parser.add_argument("--fps", type=float, default=10.0, help="frames per second (default 10)")
    parser.add_argument("--size", type=_size, default=(640, 480), help="WxH (default 640x480)")
    parser.add_argument("--pace", type=float, default=1.0,
                        help="scales every gesture's duration (0.5: twice as fast)")
    parser.add_argument("--passes", type=float, default=0.2,
                        help="chance that a hand passes over the trick after a play (default 0.2)")
    parser.add_argument("--felt-share", type=float, default=0.86, metavar="SHARE",
                        help="the felt's side as a share of the picture's height: 0.86 (default) "
                        "shows the whole 80 cm table; 1.6 frames the middle ~50 cm (a camera "
                        "zoomed on where cards are played)")
    parser.add_argument("--clutter", action="store_true",
                        help="the tricks won stay face down in piles in front of their winners, "
                        "and a phone, a glass, a score pad or a pen lies near the corners")
    parser.add_argument("--no-noise", action="store_true",
                        help="no sensor noise: a video several times smaller")
    parser.add_argument("--no-textures", action="store_true",
                        help="plain rendered felt instead of the fetched table textures")


def run(args: argparse.Namespace) -> int:
    if args.deals < 1:
        print("simulate: --deals must be at least 1", file=sys.stderr)
        return 2
    if args.illegal < 0 or args.illegal > 24 * args.deals:
        print(f"simulate: --illegal must be 0 to {24 * args.deals} for {args.deals} deal(s)",
              file=sys.stderr)
        return 2
    if not 0.3 <= args.felt_share <= 3:
        print("simulate: --felt-share must be between 0.3 and 3", file=sys.stderr)
        return 2
    if not (0.5 <= args.fps <= 60) or not (0.1 <= args.pace <= 5) or not 0 <= args.passes <= 1:
        print("simulate: need 0.5 <= --fps <= 60, 0.1 <= --pace <= 5, 0 <= --passes <= 1",
              file=sys.stderr)
        return 2
    from engine.rules import RulesError, find_rules

    try:
        find_rules(args.rules)
    except RulesError as exc:
        print(f"simulate: --rules: {exc}", file=sys.stderr)
        return 2
    from vision.simulate import simulate_deals

    try:
        written = simulate_deals(args.out, args.deals, seed=args.seed, illegal=args.illegal,
                                 rules=args.rules, designs=args.designs, fps=args.fps,
                                 size=args.size, pace=args.pace, passes=args.passes,
                                 noise=not args.no_noise, use_textures=not args.no_textures,
                                 felt_share=args.felt_share, clutter=args.clutter)
    except (FileNotFoundError, OSError) as exc:
        print(f"simulate: {exc}", file=sys.stderr)
        return 2
    for files in written:
        n = len(files.deal.illegal)
        print(f"{files.video}  {files.record.name}  {files.frames} frames  {files.deal.contract}"
              f"  {n} illegal play{'s' if n != 1 else ''}")
    return 0
