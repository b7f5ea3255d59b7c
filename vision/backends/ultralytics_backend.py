"""The only module of the product that imports ultralytics: PyTorch inference, training, export.

Inference runs the bare network on our own letterboxed tensor, so its raw output goes through the
same `decode` as the ONNX and NCNN backends. Nothing here may reach the network: YOLO_OFFLINE is
set before the import, plots (which fetch a font) and the AMP check (which fetches weights) are off.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from vision.backends import ModelError, check_names


def _yolo() -> Any:
    os.environ.setdefault("YOLO_OFFLINE", "1")
    from ultralytics import YOLO  # type: ignore[attr-defined]  # __all__ is built dynamically

    return YOLO


class UltralyticsBackend:
    """A `.pt` checkpoint run with PyTorch on the CPU (slowest; for checks and training)."""

    name = "ultralytics"

    def __init__(self, path: Path, imgsz: int | None = None) -> None:
        import torch

        try:
            yolo = _yolo()(str(path), task="detect")
        except Exception as exc:  # torch/ultralytics raise many types for bad files
            raise ModelError(f"{path}: not a readable ultralytics checkpoint ({exc})") from exc
        self.net = yolo.model.float().eval()
        names = yolo.names
        self.names = check_names(tuple(str(names[i]) for i in range(len(names))), path)
        size = imgsz or int(_train_arg(yolo, "imgsz", 320))
        self.input_size = (size, size)
        self._torch = torch

    def run(self, tensor: np.ndarray) -> np.ndarray:
        with self._torch.inference_mode():
            out = self.net(self._torch.from_numpy(tensor))
        if isinstance(out, (list, tuple)):
            out = out[0]
        result: np.ndarray = out.numpy()
        return result


def _train_arg(yolo: Any, key: str, default: Any) -> Any:
    args = getattr(yolo.model, "args", None) or {}
    value = args.get(key, default) if isinstance(args, dict) else getattr(args, key, default)
    return value[0] if isinstance(value, (list, tuple)) else value


def train(
    model: str,
    resume_from: Path | None = None,
    on_epoch: Callable[[Any], None] | None = None,
    **options: Any,
) -> Path:
    """Train (or resume from `last.pt`) and return the run folder; options are ultralytics args."""
    yolo_cls = _yolo()
    if resume_from is not None and not resumable(resume_from):
        # ultralytics would silently start a fresh run on its default (downloaded) dataset
        raise ModelError(f"{resume_from}: training already finished; nothing to resume")
    yolo = yolo_cls(str(resume_from) if resume_from is not None else model, task="detect")
    if on_epoch is not None:
        yolo.add_callback("on_fit_epoch_end", on_epoch)
    if resume_from is not None:
        yolo.train(resume=True)
    else:
        yolo.train(**options)
    return Path(yolo.trainer.save_dir)


def resumable(checkpoint: Path) -> bool:
    """Is this `last.pt` from an interrupted run (it still holds the epoch and optimizer)?"""
    import torch

    ckpt = torch.load(checkpoint, map_location="cpu", weights_only=False)
    return int(ckpt.get("epoch", -1)) >= 0 and ckpt.get("optimizer") is not None


def export(weights: Path, fmt: str, imgsz: int | tuple[int, int], **options: Any) -> Path:
    """Export a checkpoint to 'onnx' or 'ncnn' next to it; returns the exported path."""
    yolo = _yolo()(str(weights), task="detect")
    out = yolo.export(format=fmt, imgsz=imgsz, device="cpu", verbose=False, **options)
    return Path(out)


def stock_nano_onnx(out: Path, imgsz: int = 640) -> Path:
    """A stock YOLO11n (random weights: speed only) exported to ONNX, for the speed baseline."""
    import shutil
    import tempfile

    if out.exists():
        return out
    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        yaml = Path(tmp) / "yolo11n.yaml"  # built from ultralytics' packaged yaml: no download
        from ultralytics.utils import ROOT

        shutil.copy(ROOT / "cfg" / "models" / "11" / "yolo11.yaml", yaml)
        yolo = _yolo()(str(yaml), task="detect")
        exported = yolo.export(format="onnx", imgsz=imgsz, device="cpu", simplify=True)
        shutil.move(str(exported), out)
    return out
