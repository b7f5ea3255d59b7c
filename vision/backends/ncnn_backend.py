"""NCNN backend (optional, fastest on ARM): a `*_ncnn_model` folder exported by ultralytics."""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import yaml

from vision.backends import ModelError, check_names
from vision.detections import CLASS_NAMES


class NcnnBackend:
    """Runs `model.ncnn.param/.bin`; sizes and class names come from the export's metadata.yaml."""

    name = "ncnn"

    def __init__(self, folder: Path, imgsz: int | None = None, threads: int | None = None) -> None:
        import ncnn

        meta_path = folder / "metadata.yaml"
        meta = yaml.safe_load(meta_path.read_text()) if meta_path.exists() else {}
        names = meta.get("names") or dict(enumerate(CLASS_NAMES))
        if isinstance(names, str):
            names = ast.literal_eval(names)
        self.names = check_names(tuple(str(names[i]) for i in range(len(names))), folder)
        size = meta.get("imgsz") or [imgsz or 320] * 2
        self.input_size = (int(size[0]), int(size[1]))
        self.net = ncnn.Net()
        if threads:
            self.net.opt.num_threads = threads
        if self.net.load_param(str(folder / "model.ncnn.param")) != 0:
            raise ModelError(f"{folder}: cannot read model.ncnn.param")
        if self.net.load_model(str(folder / "model.ncnn.bin")) != 0:
            raise ModelError(f"{folder}: cannot read model.ncnn.bin")
        self._ncnn = ncnn

    def run(self, tensor: np.ndarray) -> np.ndarray:
        ex = self.net.create_extractor()
        ex.input(self.net.input_names()[0], self._ncnn.Mat(np.ascontiguousarray(tensor[0])))
        _, out = ex.extract(self.net.output_names()[0])
        return np.array(out)[None]
