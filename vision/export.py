"""Export trained weights to ONNX (and NCNN) and install them as the shipped model in models/."""

from __future__ import annotations

import shutil
from pathlib import Path

from vision.backends import ModelError
from vision.detector import MODELS_DIR

FORMATS = ("onnx", "ncnn")


def strip_checkpoint(weights: Path, out: Path) -> Path:
    """Copy a checkpoint without optimizer state and training history (a few MB, for git)."""
    import torch

    ckpt = torch.load(weights, map_location="cpu", weights_only=False)
    keep = {k: ckpt[k] for k in ("model", "ema", "train_args", "date", "version") if k in ckpt}
    if keep.get("ema") is not None:  # the EMA weights are the ones to ship
        keep["model"], keep["ema"] = keep["ema"], None
    keep["model"] = keep["model"].half()
    keep.update(epoch=-1, optimizer=None, best_fitness=None, updates=None)
    torch.save(keep, out)
    return out


def shipped_name(weights: Path) -> str:
    """What a checkpoint ships as: `card_boxes` for a one-class box model, else `card_detector`."""
    import torch

    ckpt = torch.load(weights, map_location="cpu", weights_only=False)
    model = ckpt.get("ema") or ckpt.get("model")
    return "card_boxes" if len(getattr(model, "names", {}) or {}) == 1 else "card_detector"


def export(
    weights: Path,
    imgsz: int | tuple[int, int],
    formats: tuple[str, ...] = ("onnx",),
    install: bool = False,
    name: str | None = None,
    int8: Path | None = None,
) -> list[Path]:
    """Export `weights` (.pt) to each format at `imgsz` (N, or (h, w)); with `int8`, a folder of
    rendered scenes, the ONNX file is quantized to 8 bits calibrated on them (`vision.quantize`);
    with `install`, copy the results to models/<name>.* (`name` by default from the model: see
    `shipped_name`)."""
    from vision.backends import ultralytics_backend

    if not weights.exists():
        raise ModelError(f"{weights}: weights not found")
    bad = [f for f in formats if f not in FORMATS]
    if bad:
        raise ModelError(f"unknown export format(s) {', '.join(bad)}; choose from {FORMATS}")
    if int8 is not None and "onnx" not in formats:
        raise ModelError("--int8 quantizes the ONNX export: add onnx to the formats")
    made = []
    for fmt in formats:
        options = {"simplify": True} if fmt == "onnx" else {}
        path = ultralytics_backend.export(weights, fmt, imgsz, **options)
        if fmt == "onnx" and int8 is not None:
            from vision.quantize import quantize

            path = quantize(path, path.with_name(f"{path.stem}_int8.onnx"), int8)
        made.append(path)
    if not install:
        return made
    name = name or shipped_name(weights)
    installed = [strip_checkpoint(weights, MODELS_DIR / f"{name}.pt")]
    for path in made:
        target = MODELS_DIR / (f"{name}.onnx" if path.suffix == ".onnx" else f"{name}_ncnn_model")
        if target.is_dir():
            shutil.rmtree(target)
        if path.is_dir():
            shutil.copytree(path, target, ignore=shutil.ignore_patterns("*.py", "model.pt"))
        else:
            shutil.copy(path, target)
        installed.append(target)
    return installed
