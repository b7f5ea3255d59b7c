"""`belote score FILE...`: judge game records and print their score, one JSON object per line."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

HELP = "Judge JSON game records: tricks, card points, result, score, violations"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE",
                        help="deal or game records (docs/record-format.md); '-' reads stdin")
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: one object per line per record (default); text: a score "
                        "sheet a person can read")


def _read(path: str) -> Any:
    if path == "-":
        return json.load(sys.stdin)
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def run(args: argparse.Namespace) -> int:
    from engine.record import RecordError, load_record
    from engine.sheet import score_sheet

    failed = False
    for path in args.files:
        try:
            record = load_record(_read(path))
        except OSError as exc:
            print(f"belote score: {path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            failed = True
            continue
        except json.JSONDecodeError as exc:
            print(f"belote score: {path}: not JSON: line {exc.lineno} column {exc.colno}: "
                  f"{exc.msg}", file=sys.stderr)
            failed = True
            continue
        except RecordError as exc:
            for message in exc.errors:
                print(f"belote score: {path}: {message}", file=sys.stderr)
            failed = True
            continue
        if args.format == "json":
            from engine.record import judge

            print(json.dumps(judge(record), ensure_ascii=False), flush=True)
        else:
            print(score_sheet(record, title=path), flush=True)
    return 2 if failed else 0  # bad input: the others were still judged
