"""The card-reading options `belote detect`, `eval` and `replay` share: one stage or two.

By default a command reads cards the way the companion does: the detector's class-agnostic boxes,
each re-read by the card classifier (`vision.two_stage`). `--one-stage` measures the detector
alone. Not a command itself (it is not in `device.cli.COMMANDS`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any


def add_reading_arguments(parser: argparse.ArgumentParser) -> None:
    """--one-stage, --classifier, --turns, --box-conf, --min-prob."""
    parser.add_argument(
        "--one-stage",
        action="store_true",
        help="the detector's own card names, without the card classifier",
    )
    parser.add_argument(
        "--two-stage", action="store_true", help=argparse.SUPPRESS
    )  # the default; kept so older command lines still run
    parser.add_argument(
        "--classifier",
        type=Path,
        default=None,
        metavar="ONNX",
        help="card classifier (default: the shipped models/card_classifier.onnx)",
    )
    parser.add_argument(
        "--turns",
        type=int,
        default=None,
        choices=(1, 2, 4),
        help="average the classifier over this many quarter turns of each box (default 4)",
    )
    parser.add_argument(
        "--box-conf",
        type=float,
        default=None,
        help="detector threshold for the boxes the classifier re-reads "
        "(default 0.1 for a box model, 0.02 for the 32-card detector)",
    )
    parser.add_argument(
        "--min-prob",
        type=float,
        default=None,
        help="least classifier probability to report a card (default 0.5; on still pictures "
        "also a clear reading from 0.3: twice the next name, no sign of a non-card; and none "
        "whose 'none' share reaches a fifth of it; a value given here is the only rule)",
    )


def add_still_arguments(parser: argparse.ArgumentParser) -> None:
    """--still-boxes, for the commands that read single pictures (detect, eval)."""
    parser.add_argument(
        "--still-boxes",
        default=None,
        metavar="ONNX|none",
        help="a second box model whose boxes are read too (default: with the shipped box "
        "model, the same weights at 416 px, models/card_boxes_416.onnx; with --model, none; "
        "'none': only the first model's boxes)",
    )


def still_box_model(args: argparse.Namespace, model: str | Path | None) -> Path | None:
    """The second box model a still picture is read with (`add_still_arguments`), or None.
    Raises FileNotFoundError naming an explicit --still-boxes that is missing."""
    from vision.detector import DEFAULT_STILL_BOX_MODEL

    given = getattr(args, "still_boxes", None)
    if given == "none" or args.one_stage:
        return None
    if given is not None:
        if not Path(given).is_file():
            raise FileNotFoundError(f"still-picture box model not found: {given}")
        return Path(given)
    shipped = model is None and DEFAULT_STILL_BOX_MODEL.is_file()
    return DEFAULT_STILL_BOX_MODEL if shipped else None


def load_reader(
    args: argparse.Namespace,
    command: str,
    model: str | Path | None,
    second_stage: bool = True,
    turns: int | None = None,
    felt: bool = False,
    still: bool = False,
    deck_memory: bool = False,
    **load: Any,
) -> tuple[Any, Any]:
    """(detector, reader): the detector loaded for one stage or two (`load_detector(boxes=...)`,
    `load` its other options), and what reads the cards (`build_reader`)."""
    from vision.detector import load_detector

    two = second_stage and not args.one_stage
    detector = load_detector(model, boxes=two, **load)
    second = still_box_model(args, model) if still else None
    return detector, build_reader(detector, args, command, two, turns, felt, still, second,
                                  deck_memory)


def build_reader(
    detector: Any,
    args: argparse.Namespace,
    command: str,
    second_stage: bool = True,
    turns: int | None = None,
    felt: bool = False,
    still: bool = False,
    still_boxes: Path | None = None,
    deck_memory: bool = False,
) -> Any:
    """The detector, or the detector and classifier together (`vision.two_stage.with_classifier`).

    `second_stage` and `turns` are the defaults the arguments override (a config's, for replay);
    `felt` (videos of a fixed camera) also reads what differs from the learnt felt; `still`
    (single pictures) reads by the rules for them (`vision.two_stage._read`), unless --min-prob
    sets the bar, and with `still_boxes` (a box model file) reads that model's boxes too;
    `deck_memory` (the videos of one table, in order) learns their deck (`vision.deck_memory`).
    Raises FileNotFoundError naming an explicit --classifier that is missing; without one, a
    missing shipped classifier falls back to the detector alone, with a note on stderr.
    """
    from vision.classifier import DEFAULT_CLASSIFIER
    from vision.two_stage import DEFAULT_MIN_PROB, DEFAULT_TURNS, with_classifier

    if args.one_stage or not second_stage:
        if not getattr(detector, "names_cards", True):
            from vision.backends import ModelError

            raise ModelError(f"{detector.model.name} finds cards without naming them: "
                             "read it with the card classifier (no --one-stage)")
        return detector
    path = args.classifier or DEFAULT_CLASSIFIER
    if not path.is_file():
        if args.classifier is not None or not getattr(detector, "names_cards", True):
            raise FileNotFoundError(f"classifier model not found: {path}")
        print(f"belote {command}: no {path}: the detector's own names are used", file=sys.stderr)
        return detector
    return with_classifier(
        detector,
        path,
        turns=args.turns or turns or DEFAULT_TURNS,
        box_conf=args.box_conf,
        min_prob=args.min_prob if args.min_prob is not None else DEFAULT_MIN_PROB,
        felt=felt,
        still=still and args.min_prob is None,
        still_boxes=still_boxes if still else None,
        deck_memory=deck_memory,
    )
