"""`belote room`: one screen for a tournament room, following every table's companion."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = "Serve the tournament room's board: every table's score, deal and flags on one screen."

EXAMPLE = """\
examples:
  belote room --table "Table 1=http://pi-1.local:8000" --table "Table 2=http://pi-2.local:8000"
  belote room --tables tables.yaml --port 8080      # tables.yaml: tables: [{name: ..., url: ...}]
then open http://THIS-MACHINE:8080/ on the room's screen (?lang=en, ?cols=3).
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = EXAMPLE
    parser.add_argument("--table", action="append", default=[], metavar="NAME=URL",
                        help="a table's companion (`belote run` on its Pi), e.g. "
                             "'Table 1=http://pi-1.local:8000'; repeatable, shown in this order")
    parser.add_argument("--tables", type=Path, metavar="YAML",
                        help="the tables from a file: `tables:` then a list of {name, url}")
    parser.add_argument("--title", help="the board's heading, e.g. 'Club de Lyon · 5 décembre' "
                        "(default: 'Salle du tournoi' / 'Tournament room')")
    parser.add_argument("--host", default="0.0.0.0",
                        help="address to serve on (default 0.0.0.0: the room's network)")
    parser.add_argument("--port", type=int, default=8080, help="port to serve on (default 8080)")
    parser.add_argument("--interval", type=float, default=2.0,
                        help="seconds between two polls of each table (default 2)")


def run(args: argparse.Namespace) -> int:
    from device.room import Room, RoomError, load_tables, parse_table

    if not 0.2 <= args.interval <= 60:
        return _fail(f"--interval: expected 0.2 to 60 seconds, got {args.interval:g}")
    try:
        tables = load_tables(args.tables) if args.tables else []
        tables += [parse_table(text, len(tables) + i) for i, text in enumerate(args.table, 1)]
        room = Room(tables, interval=args.interval)  # checks the list (`device.room.checked`)
    except RoomError as exc:
        return _fail(str(exc))

    import uvicorn

    from device.web.room_app import create_room_app

    for t in tables:
        print(f"room: {t.name}: {t.url}", file=sys.stderr)
    print(f"room: board on http://{args.host}:{args.port}/", file=sys.stderr)
    try:
        uvicorn.run(create_room_app(room, title=args.title), host=args.host, port=args.port,
                    log_level="warning")
    except SystemExit as exc:  # uvicorn exits when it cannot bind (it logged why)
        if exc.code not in (0, None):
            return _fail(f"cannot serve on {args.host}:{args.port}")
    return 0


def _fail(message: str) -> int:
    print(f"room: {message}", file=sys.stderr)
    return 2
