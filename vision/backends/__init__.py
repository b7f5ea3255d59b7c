"""Inference backends behind one small interface: image in, raw YOLO head output out.

Each backend letterboxes with `decode.letterbox`, runs its model and returns the raw
(4 + classes, anchors) array; `decode.decode` turns it into detections. Backends import their
runtime lazily so that a Pi with only ONNX Runtime never touches PyTorch.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Protocol

import numpy as np


class ModelError(ValueError):
    """The model file is missing, unreadable or not a card detector."""


def check_names(names: tuple[str, ...], where: object) -> tuple[str, ...]:
    """A model's classes must be the 32 belote cards (in any order) or a single class: a box
    model that finds cards without naming them, for the card classifier to read."""
    from vision.detections import CLASS_NAMES

    if len(names) == 1 or (len(names) == len(CLASS_NAMES) and set(names) == set(CLASS_NAMES)):
        return names
    raise ModelError(
        f"{where}: {len(names)} classes {names[:5]}... are neither the 32 belote cards "
        "nor one class of boxes"
    )


class Backend(Protocol):
    """A loaded model: `run` takes the letterboxed 1x3xHxW tensor and returns raw head output."""

    name: str
    input_size: tuple[int, int]  # h, w the model expects
    names: tuple[str, ...]  # class names, index order

    def run(self, tensor: np.ndarray) -> np.ndarray: ...


# Fastest first: what "auto" tries, for the formats each one reads.
BACKENDS = ("ncnn", "onnxruntime", "ultralytics")
_MODULES = {"ncnn": "ncnn", "onnxruntime": "onnxruntime", "ultralytics": "ultralytics"}


def installed(backend: str) -> bool:
    """Is the runtime this backend needs importable here?"""
    return importlib.util.find_spec(_MODULES[backend]) is not None


def model_format(path: Path) -> str:
    """Which backend reads this model file: 'onnxruntime', 'ncnn' or 'ultralytics'."""
    if path.is_dir() and (path / "model.ncnn.param").exists():
        return "ncnn"
    if path.suffix == ".onnx":
        return "onnxruntime"
    if path.suffix == ".pt":
        return "ultralytics"
    raise ModelError(f"{path}: unknown model format (expected .onnx, .pt or an NCNN model folder)")


def open_backend(path: Path, backend: str, imgsz: int | None = None) -> Backend:
    """Load `path` with the named backend ('ncnn', 'onnxruntime' or 'ultralytics')."""
    if backend not in BACKENDS:
        raise ModelError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if not path.exists():
        raise ModelError(f"{path}: model not found")
    if not installed(backend):
        raise ModelError(f"backend {backend!r} is not installed (pip install {_MODULES[backend]})")
    if backend == "onnxruntime":
        from vision.backends.onnx_backend import OnnxBackend

        return OnnxBackend(path)
    if backend == "ncnn":
        from vision.backends.ncnn_backend import NcnnBackend

        return NcnnBackend(path, imgsz)
    from vision.backends.ultralytics_backend import UltralyticsBackend

    return UltralyticsBackend(path, imgsz)
