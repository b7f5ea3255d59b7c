"""The card detector: a model file plus a backend, giving `Detection`s for a BGR image.

>>> detector = load_detector()            # shipped models/card_detector.onnx, fastest backend
>>> detector.detect(cv2.imread("table.jpg"))
[Detection(card='JH', confidence=0.97, box=(...), alternatives=(('JD', 0.02),))]
"""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from vision.backends import BACKENDS, Backend, ModelError, installed, model_format, open_backend
from vision.backends.decode import decode, letterbox
from vision.detections import UNNAMED, Detection

MODELS_DIR = Path(__file__).resolve().parent.parent / "models"
DEFAULT_MODEL = MODELS_DIR / "card_detector.onnx"
# One class, "a card": where cards are, for the card classifier to name (models/card_boxes.md).
DEFAULT_BOX_MODEL = MODELS_DIR / "card_boxes.onnx"
# Its second look at still pictures: the same weights at a 416 px input (models/card_boxes.md).
DEFAULT_STILL_BOX_MODEL = MODELS_DIR / "card_boxes_416.onnx"
DEFAULT_CONF = 0.35
DEFAULT_IOU = 0.6
ALIASES = {
    "onnx": "onnxruntime",
    "ort": "onnxruntime",
    "torch": "ultralytics",
    "pytorch": "ultralytics",
}

__all__ = ["DEFAULT_BOX_MODEL", "DEFAULT_MODEL", "Detector", "ModelError", "load_detector"]


class Detector:
    """A loaded model: `detect(bgr)` returns each card seen at most once, best first."""

    def __init__(self, backend: Backend, model: Path, conf: float = DEFAULT_CONF) -> None:
        self.backend = backend
        self.model = model
        self.conf = conf
        self.last_ms = 0.0  # inference time of the last call, for health pages

    @property
    def backend_name(self) -> str:
        return self.backend.name

    @property
    def input_size(self) -> tuple[int, int]:
        return self.backend.input_size

    @property
    def names_cards(self) -> bool:
        """False for a box model: it finds cards and leaves their names to the classifier."""
        return len(self.backend.names) > 1

    @property
    def names(self) -> tuple[str, ...]:
        """What each class reads as: its card, or for a box model `UNNAMED` (some card)."""
        return self.backend.names if self.names_cards else (UNNAMED,)

    def detect(self, bgr: np.ndarray, conf: float | None = None) -> list[Detection]:
        """Cards in one BGR image (H, W, 3 uint8), each at most once, most confident first."""
        if not self.names_cards:
            raise ModelError(
                f"{self.model.name} finds cards but does not name them: read its boxes with "
                "the card classifier (the default; not --one-stage)"
            )
        return self._read(bgr, self.conf if conf is None else conf, unique=True)

    def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
        """Every card-like box above `conf` after class-agnostic NMS, duplicates of a card kept.

        For a second stage that names the cards itself: at a low `conf` this finds far more of
        the cards of an unseen deck than `detect` (whose names must be right to count).
        """
        return self._read(bgr, conf, unique=False)

    def _read(self, bgr: np.ndarray, conf: float, unique: bool) -> list[Detection]:
        start = time.perf_counter()
        turned = _crosswise(bgr.shape[:2], self.backend.input_size)
        if turned:  # a portrait photo into a landscape input: fill it, not a third of it
            bgr = np.ascontiguousarray(np.rot90(bgr, -1))  # a quarter turn clockwise
        tensor, box = letterbox(bgr, self.backend.input_size)
        raw = self.backend.run(tensor)
        found = decode(raw, box, conf, DEFAULT_IOU, self.names, unique=unique)
        if turned:
            found = [replace(d, box=_turn_back(d.box, bgr.shape[1])) for d in found]
        self.last_ms = (time.perf_counter() - start) * 1000  # inference time, for health pages
        return found

    def __repr__(self) -> str:
        h, w = self.input_size
        return f"Detector({self.model.name!r}, backend={self.backend_name!r}, input={w}x{h})"


def _crosswise(image_hw: tuple[int, ...], input_hw: tuple[int, int]) -> bool:
    """Does the image lie across a non-square input (portrait into landscape or the reverse)?"""
    (h, w), (in_h, in_w) = image_hw[:2], input_hw
    return in_h != in_w and h != w and (h > w) != (in_h > in_w)


def _turn_back(
    box: tuple[float, float, float, float], turned_w: int
) -> tuple[float, float, float, float]:
    """A box found in the image turned a quarter clockwise, in the unturned image's pixels.

    Turning clockwise sends (x, y) of an H-tall image to (H - y, x); the turned image is H wide.
    """
    x0, y0, x1, y1 = box
    return (y0, turned_w - x1, y1, turned_w - x0)


def default_model(boxes: bool) -> Path:
    """The shipped model: the box model for two-stage reading when it is there."""
    return DEFAULT_BOX_MODEL if boxes and DEFAULT_BOX_MODEL.exists() else DEFAULT_MODEL


def fastest_form(path: Path) -> Path:
    """The fastest installed form of a model: its NCNN export beside it, else the file itself."""
    ncnn_dir = path.with_name(f"{path.stem}_ncnn_model")
    if path.suffix in (".onnx", ".pt") and ncnn_dir.is_dir() and installed("ncnn"):
        return ncnn_dir
    if path.suffix == ".onnx" and not installed("onnxruntime"):
        pt = path.with_suffix(".pt")
        if pt.exists() and installed("ultralytics"):
            return pt
    return path


def load_detector(
    model: str | Path | None = None,
    backend: str = "auto",
    imgsz: int | None = None,
    conf: float = DEFAULT_CONF,
    boxes: bool = False,
) -> Detector:
    """Load a detector; `backend="auto"` picks the fastest installed one that reads the model.

    `boxes`: the detector will be a box source for the card classifier, so without a `model`
    the shipped box model is loaded when it is there (else the 32-card detector).
    Raises `ModelError` (a ValueError) naming the file when it is missing or unusable.
    """
    path = Path(model) if model is not None else default_model(boxes)
    if not path.exists():
        hint = " (the shipped model is models/card_detector.onnx)" if model is None else ""
        raise ModelError(f"{path}: model not found{hint}")
    backend = ALIASES.get(backend, backend)
    if backend == "auto":
        path = fastest_form(path)
    fmt = model_format(path)
    if backend == "auto":
        backend = fmt
    elif backend not in BACKENDS:
        raise ModelError(
            f"unknown backend {backend!r}; choose auto or one of {', '.join(BACKENDS)}"
        )
    elif backend != fmt:
        raise ModelError(f"{path}: the {backend} backend cannot read this file (it is {fmt})")
    return Detector(open_backend(path, backend, imgsz), path, conf)
