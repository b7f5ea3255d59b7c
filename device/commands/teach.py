"""`belote teach`: show the companion the table's deck before the game, all 32 cards at once."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HELP = ("Teach the companion the table's deck from one picture of its 32 cards laid out "
        "(before the first deal; it reads an unfamiliar deck better).")

EPILOG = """Lay the 32 cards face up on the felt in 4 rows of 8, one suit to a row (any order
of suits), ranks in order 7 8 9 10 J Q K A along each row (either way), a finger's width
apart, then run this with the camera above. The deck memory (storage.deck_memory) starts
afresh with this deck and keeps learning it from each deal; a new game keeps it. Run it before
`belote run` starts (or restart the service after it): a running companion keeps its own memory."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = EPILOG
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("--config", type=Path, metavar="YAML",
                        help="configuration file: the camera, the models, the memory's file")
    parser.add_argument("--source", help="overrides camera.source: picamera2, 0, usb:0, a URL, "
                        "a picture, a video or a folder")
    parser.add_argument("--memory", type=Path, metavar="NPZ",
                        help="overrides storage.deck_memory: the deck memory's file")
    parser.add_argument("--preview", type=Path, metavar="JPG",
                        help="write the picture with each card's box and the name it was taught")


def _fail(message: str, code: int = 2) -> int:
    print(f"teach: {message}", file=sys.stderr)
    return code


def _picture(spec: str, config: Any) -> Any:
    """The largest picture a source gives: a still file as it is, else the 5th frame of a
    camera or video (the exposure settles), its main stream where it has one."""
    from device.sources import one_picture

    cam = config.camera
    return one_picture(spec, (cam.lores_width, cam.lores_height)).full


def run(args: argparse.Namespace) -> int:
    from device.config import ConfigError, load_config

    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return _fail(str(exc))
    memory_path = args.memory or config.storage.deck_memory
    if not config.detector.deck_memory:
        print("teach: note: detector.deck_memory is off in this configuration, so the companion "
              "will not read with what it is taught", file=sys.stderr)
    try:
        image = _picture(args.source or config.camera.source, config)
        box_model, classifier = _models(config)
    except (ValueError, OSError) as exc:  # SourceError and ModelError are ValueErrors
        return _fail(str(exc))

    from vision.deck_memory import DeckMemory
    from vision.deck_teaching import LayoutError, find_layout

    try:
        layout = find_layout(box_model, classifier, image)
    except LayoutError as exc:
        return _fail(f"{exc}\n(see `belote teach --help` for the layout)", 1)
    print(layout.table())
    if args.preview:
        _draw(image, layout, args.preview)
    try:
        memory = DeckMemory(memory_path)
    except ValueError as exc:  # an unreadable file: teaching starts afresh anyway
        print(f"teach: note: {exc}; it is replaced", file=sys.stderr)
        Path(memory_path).unlink()
        memory = DeckMemory(memory_path)
    taught = memory.teach(layout.cards, layout.features)
    print(f"teach: {taught} cards taught ({layout.agree} of them read so by the classifier "
          f"alone); the deck memory {memory_path} starts afresh with this deck", file=sys.stderr)
    return 0


def _models(config: Any) -> tuple[Any, Any]:
    """The configured box model (class-agnostic boxes) and the card classifier."""
    from vision.classifier import DEFAULT_CLASSIFIER, CardClassifier
    from vision.detector import load_detector

    d = config.detector
    box_model = load_detector(d.model, d.backend, imgsz=d.imgsz, conf=d.conf, boxes=True)
    classifier = CardClassifier(DEFAULT_CLASSIFIER, turns=d.classifier_turns)
    if classifier.features is None:
        raise ValueError(f"{classifier.path}: this classifier gives no features to learn from")
    return box_model, classifier


def _draw(image: Any, layout: Any, path: Path) -> None:
    import cv2

    out = image.copy()
    scale = max(1, round(image.shape[1] / 800))
    for card, read, (x0, y0, x1, y1) in zip(layout.cards, layout.read, layout.boxes,
                                             strict=True):
        colour = (0, 200, 0) if card == read else (0, 160, 255)  # (orange: read otherwise)
        cv2.rectangle(out, (int(x0), int(y0)), (int(x1), int(y1)), colour, scale)
        cv2.putText(out, card, (int(x0), int(y0) - 4), cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale,
                    colour, scale, cv2.LINE_AA)
    if not cv2.imwrite(str(path), out):
        print(f"teach: could not write {path}", file=sys.stderr)
    else:
        print(f"teach: preview written to {path}", file=sys.stderr)
