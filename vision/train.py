"""Training recipe runner: reads `models/card_detector_recipe.yaml`, trains, logs, resumes.

The trainer itself is ultralytics (behind `vision.backends.ultralytics_backend`); this module
decides the options, keeps everything offline and writes one log line per epoch to `train.log`
in the run folder so that progress can be followed with `tail -f`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

RECIPE = Path(__file__).resolve().parent.parent / "models" / "card_detector_recipe.yaml"


class RecipeError(ValueError):
    """The recipe file or a training option is wrong; the message names it."""


@dataclass
class Recipe:
    """Everything one training run needs; `train_args` go to ultralytics untouched."""

    model: str
    data: str
    imgsz: int = 320
    epochs: int = 30
    hours: float | None = None
    batch: int = 32
    workers: int = 2
    cache: str | bool = "ram"
    seed: int = 0
    device: str = "cpu"  # "0": the first GPU (a lent machine; models/gpu/train.sh)
    train_args: dict[str, Any] = field(default_factory=dict)


def load_recipe(path: Path = RECIPE, **overrides: Any) -> Recipe:
    """Read a recipe file, then apply the non-None overrides (the command-line flags)."""
    try:
        raw = yaml.safe_load(path.read_text())
    except OSError as exc:
        raise RecipeError(f"{path}: cannot read recipe ({exc.strerror})") from exc
    except yaml.YAMLError as exc:
        raise RecipeError(f"{path}: not valid YAML ({exc})") from exc
    if not isinstance(raw, dict):
        raise RecipeError(f"{path}: a recipe is a mapping of options")
    raw.update({k: v for k, v in overrides.items() if v is not None})
    known = set(Recipe.__dataclass_fields__)
    unknown = sorted(set(raw) - known)
    if unknown:
        raise RecipeError(f"{path}: unknown option(s) {', '.join(unknown)}")
    for key in ("model", "data"):
        if not raw.get(key):
            raise RecipeError(f"{path}: option {key!r} is required")
    return Recipe(**raw)


def ultralytics_options(recipe: Recipe, out: Path) -> dict[str, Any]:
    """The trainer's arguments: the recipe plus what keeps it offline (on the CPU by default)."""
    opts: dict[str, Any] = {
        "data": recipe.data,
        "imgsz": recipe.imgsz,
        "epochs": recipe.epochs,
        "batch": recipe.batch,
        "workers": recipe.workers,
        "cache": recipe.cache,
        "seed": recipe.seed,
        "project": str(out.parent.resolve()),
        "name": out.name,
        "exist_ok": True,
        "device": str(recipe.device),
        "amp": False,  # the AMP check downloads weights
        "plots": False,  # plots download a font
        "pretrained": False,
        "deterministic": False,
        "verbose": True,
        **recipe.train_args,
    }
    if recipe.hours:
        opts["time"] = recipe.hours
    return opts


def check_data(data: str) -> None:
    """Fail early, naming the file, when the dataset description is missing."""
    path = Path(data)
    if not path.exists():
        raise RecipeError(f"{data}: dataset not found (make one with `belote render`)")


class EpochLog:
    """Callback that appends one readable line per epoch to `train.log` (and prints it)."""

    def __init__(self, path: Path, echo: Any = None) -> None:
        self.path = path
        self.echo = echo
        self.start = time.monotonic()

    def __call__(self, trainer: Any) -> None:
        epoch = int(trainer.epoch) + 1
        metrics = {k.split("/")[-1]: float(v) for k, v in (trainer.metrics or {}).items()}
        losses = trainer.label_loss_items(trainer.tloss, prefix="train")
        loss = [float(v) for v in losses.values()] if isinstance(losses, dict) else []
        elapsed = time.monotonic() - self.start
        # ultralytics calls this once more after the last epoch, for the best.pt validation
        stage = f"epoch {epoch}/{trainer.epochs}" if epoch <= trainer.epochs else "final (best.pt)"
        line = (
            f"{time.strftime('%Y-%m-%d %H:%M:%S')} {stage} "
            f"loss {' '.join(f'{x:.3f}' for x in loss)} "
            f"P {metrics.get('precision(B)', 0):.3f} R {metrics.get('recall(B)', 0):.3f} "
            f"mAP50 {metrics.get('mAP50(B)', 0):.3f} mAP50-95 {metrics.get('mAP50-95(B)', 0):.3f} "
            f"elapsed {elapsed / 60:.1f} min"
        )
        with self.path.open("a") as f:
            f.write(line + "\n")
        if self.echo:
            self.echo(line)


def train(recipe: Recipe, out: Path, resume: bool = False, echo: Any = None) -> Path:
    """Train per the recipe into `out` (or resume its `weights/last.pt`); returns the run folder."""
    from vision.backends import ultralytics_backend

    out.mkdir(parents=True, exist_ok=True)
    log = EpochLog(out / "train.log", echo)
    last = out / "weights" / "last.pt"
    if resume:
        if not last.exists():
            raise RecipeError(f"{last}: nothing to resume (no last.pt in {out})")
        return ultralytics_backend.train(recipe.model, resume_from=last, on_epoch=log)
    check_data(recipe.data)
    with (out / "recipe.yaml").open("w") as f:
        yaml.safe_dump(recipe.__dict__, f, sort_keys=False)
    return ultralytics_backend.train(recipe.model, on_epoch=log, **ultralytics_options(recipe, out))
