"""`belote train`: train the card detector from the recipe in models/, resumable, with a log."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HELP = ("Train a YOLO card model from a recipe in models/ (default: the 32-card detector's; "
        "--recipe models/card_boxes_recipe.yaml: the box model); resumable.")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--recipe", type=Path, default=None,
                        help="recipe YAML (default: models/card_detector_recipe.yaml)")
    parser.add_argument("--data", help="dataset data.yaml (overrides the recipe)")
    parser.add_argument("--model", help="architecture YAML or .pt to start from")
    parser.add_argument("--imgsz", type=int, help="training resolution in pixels")
    parser.add_argument("--epochs", type=int, help="number of epochs")
    parser.add_argument("--hours", type=float, help="time budget in hours (instead of epochs)")
    parser.add_argument("--batch", type=int, help="batch size")
    parser.add_argument("--workers", type=int, help="dataloader worker processes")
    parser.add_argument("--device", help="cpu (the recipe's default) or a GPU index such as 0")
    parser.add_argument(
        "--out",
        type=Path,
        default=Path("runs/card_detector"),
        help="run folder: weights/, train.log (default runs/card_detector)",
    )
    parser.add_argument("--resume", action="store_true", help="continue from OUT/weights/last.pt")


def run(args: argparse.Namespace) -> int:
    from vision.backends import ModelError
    from vision.train import RECIPE, RecipeError, load_recipe, train

    try:
        recipe = load_recipe(
            args.recipe or RECIPE,
            data=args.data,
            model=args.model,
            imgsz=args.imgsz,
            epochs=args.epochs,
            hours=args.hours,
            batch=args.batch,
            workers=args.workers,
            device=args.device,
        )
        what = "resuming" if args.resume else f"training {recipe.model} on {recipe.data} ->"
        print(f"{what} {args.out} (log: {args.out / 'train.log'})", file=sys.stderr)
        run_dir = train(
            recipe, args.out, resume=args.resume, echo=lambda line: print(line, file=sys.stderr)
        )
    except (RecipeError, ModelError) as exc:
        print(f"belote train: {exc}", file=sys.stderr)
        return 2
    print(f"done: weights in {run_dir / 'weights'} (best.pt, last.pt)")
    return 0
