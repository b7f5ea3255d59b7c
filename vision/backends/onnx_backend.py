"""ONNX Runtime backend: the default on a Pi without NCNN; our own letterbox, decode and NMS."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import numpy as np

from vision.backends import ModelError, check_names
from vision.detections import CLASS_NAMES


def session_options(threads: int | None = None) -> Any:
    """ONNX Runtime options for every model of the process (box model, classifier, bench).

    Spinning is off: by default each session's worker threads spin for a while after a run,
    and the companion runs two sessions back to back on every frame, so each one's threads ate
    the cores the other needed. Measured on 2 cores, box model then stock YOLO11n@640 in turn:
    24.9 / 80.5 ms spinning, 10.9 / 48.3 ms not (the box model alone: 8.8 / 10.7 ms).
    """
    import onnxruntime as ort

    options = ort.SessionOptions()
    if threads:
        options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.log_severity_level = 3
    options.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return options


def class_names(metadata: dict[str, str], nc: int) -> tuple[str, ...]:
    """Class names from an ultralytics export's metadata ("{0: '7S', ...}"), else the deck order."""
    text = metadata.get("names")
    if text is None:
        names = CLASS_NAMES
    else:
        try:
            table = ast.literal_eval(text)
            names = tuple(str(table[i]) for i in range(len(table)))
        except (ValueError, SyntaxError, KeyError, TypeError) as exc:
            raise ModelError(f"model metadata 'names' is unreadable: {text[:80]!r}") from exc
    if len(names) != nc:
        raise ModelError(f"model has {nc} classes but its metadata names {len(names)}")
    return check_names(names, "model")


class OnnxBackend:
    """A YOLO detection model exported to ONNX, run on the CPU."""

    name = "onnxruntime"

    def __init__(self, path: Path, threads: int | None = None) -> None:
        import onnxruntime as ort

        try:
            self.session = ort.InferenceSession(
                str(path), session_options(threads), providers=["CPUExecutionProvider"]
            )
        except Exception as exc:  # ORT raises its own types for corrupt files
            raise ModelError(f"{path}: not a readable ONNX model ({exc})") from exc
        inp = self.session.get_inputs()[0]
        self.input_name = inp.name
        h, w = inp.shape[2], inp.shape[3]
        if not (isinstance(h, int) and isinstance(w, int)):
            raise ModelError(f"{path}: model input must have a fixed size, got {inp.shape}")
        self.input_size = (h, w)
        out_shape = self.session.get_outputs()[0].shape
        meta = self.session.get_modelmeta().custom_metadata_map
        self.names = class_names(meta, int(out_shape[1]) - 4)

    def run(self, tensor: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.session.run(None, {self.input_name: tensor})[0]
        return out
