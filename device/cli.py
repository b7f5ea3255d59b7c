"""`belote`: one command with subcommands. Each subcommand lives in `device/commands/<name>.py`.

A command module defines `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`, and
imports anything heavy (torch, OpenCV, FastAPI) inside `run`, so `belote --help` stays instant.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType

# Order shown in --help: the game first, then vision, then the companion.
COMMANDS = (
    "demo",
    "score",
    "run",
    "room",
    "replay",
    "simulate",
    "detect",
    "eval",
    "render",
    "train",
    "export",
    "bench",
    "calibrate",
    "teach",
)


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"device.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"device.commands.{name}":
            return None  # not built yet
        raise


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="belote",
        description="Belote/Coinche table companion: reads cards from a camera, judges the rules, "
        "keeps the score and serves live pages.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        module = _load(name)
        if module is None:
            continue
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    # Ultralytics must never reach the network from this product (no hub, no font, no weights).
    os.environ.setdefault("YOLO_OFFLINE", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
