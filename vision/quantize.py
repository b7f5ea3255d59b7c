"""An exported box model in 8-bit integers: the same boxes at about three quarters of the time.

ONNX Runtime's static quantization (QDQ format, weights per channel, activations calibrated on
rendered scenes, never on the real photos; weights in 7 bits so that x86 CPUs without VNNI
read it as the others do). The convolutions, activations and joins of the
network run in int8; what turns the head's outputs into boxes and scores stays float (the last
1x1 convolution of each branch, the distribution-to-box step, the score sigmoid), because an
8-bit score or box corner moves the 0.1 box threshold and the corners themselves. The shipped
box model is the session-2 weights so quantized at 320 px since session 39: 1.38x faster, the
same simulated deals read, a card more on the photos (`models/card_boxes.md`).

    >>> quantize(Path("card_boxes.onnx"), Path("card_boxes_int8.onnx"), Path("data/calib"))
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from vision.backends import ModelError

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png")
CALIBRATION_IMAGES = 120
QUANTIZED_KEY = "quantized"  # metadata of an int8 file


def calibration_images(source: Path, count: int = CALIBRATION_IMAGES) -> list[Path]:
    """The first `count` images (sorted) of a folder, searched recursively: a rendered dataset
    (`belote render --out DIR`) or any folder of scenes."""
    if not source.is_dir():
        raise ModelError(f"{source}: calibration folder not found (render one with belote render)")
    images = sorted(p for p in source.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES)
    if not images:
        raise ModelError(f"{source}: no .jpg or .png images to calibrate on")
    return images[:count]


def float_nodes(names: Sequence[str]) -> list[str]:
    """Nodes kept float: the last module's (ultralytics' Detect head) decoding and the last
    convolution of each of its branches; the branches' inner layers are quantized."""
    modules = [int(m.group(1)) for n in names if (m := re.match(r"/model\.(\d+)/", n))]
    if not modules:
        raise ModelError("not an ultralytics export: no '/model.N/' node names")
    head = f"/model.{max(modules)}/"
    return [
        n for n in names
        if n.startswith(head) and (not ("/cv2." in n or "/cv3." in n) or n.endswith(".2/Conv"))
    ]


def quantize(src: Path, out: Path, calibration: Path, count: int = CALIBRATION_IMAGES) -> Path:
    """Write `src` (a float ONNX export) as an int8 QDQ model at `out`, calibrated on up to
    `count` images of the folder `calibration`, letterboxed as the detector letterboxes."""
    import tempfile

    import cv2
    import onnx
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    from vision.backends.decode import letterbox

    if not src.exists():
        raise ModelError(f"{src}: model not found")
    images = calibration_images(calibration, count)
    with tempfile.TemporaryDirectory() as tmp:
        prepared = Path(tmp) / "prepared.onnx"
        quant_pre_process(str(src), str(prepared))  # shapes inferred, graph folded
        graph = onnx.load(str(prepared)).graph
        feed = graph.input[0]
        dims = feed.type.tensor_type.shape.dim
        size = (int(dims[2].dim_value), int(dims[3].dim_value))

        def read(path: Path) -> np.ndarray:
            bgr = cv2.imread(str(path))
            if bgr is None:
                raise ModelError(f"{path}: not a readable image")
            return bgr

        class Scenes(CalibrationDataReader):  # type: ignore[misc]
            def __init__(self) -> None:
                self.tensors: Iterator[np.ndarray] = (
                    letterbox(read(path), size)[0] for path in images
                )

            def get_next(self) -> dict[str, np.ndarray] | None:
                tensor = next(self.tensors, None)
                return None if tensor is None else {feed.name: tensor}

        out.parent.mkdir(parents=True, exist_ok=True)
        quantize_static(
            str(prepared),
            str(out),
            Scenes(),
            quant_format=QuantFormat.QDQ,
            per_channel=True,
            activation_type=QuantType.QUInt8,
            weight_type=QuantType.QInt8,
            # Weights in 7 bits: x86 CPUs without VNNI (AVX2 only, as on CI's machines) sum
            # uint8 x int8 products in 16 bits, which an 8-bit weight overflows: the box model
            # then boxed 25 of 40 photo cards there, the float one 40 (ONNX Runtime's remedy).
            reduce_range=True,
            op_types_to_quantize=["Conv", "Mul", "Add", "Concat", "MaxPool", "Resize", "Sigmoid"],
            nodes_to_exclude=float_nodes([node.name for node in graph.node]),
            calibrate_method=CalibrationMethod.MinMax,
        )
    _copy_metadata(src, out)
    return out


def _copy_metadata(src: Path, out: Path) -> None:
    """The export's ultralytics metadata (class names, input size) kept on the int8 file, with
    `quantized: int8`, which tells deploy/convert_ncnn.py to leave it to ONNX Runtime."""
    import onnx

    source, target = onnx.load(str(src)), onnx.load(str(out))
    del target.metadata_props[:]
    for prop in source.metadata_props:
        target.metadata_props.add(key=prop.key, value=prop.value)
    target.metadata_props.add(key=QUANTIZED_KEY, value="int8")
    onnx.save(target, str(out))
