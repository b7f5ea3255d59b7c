"""A fake detector for tests: an ONNX graph that returns a fixed raw YOLO output for any image."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.detections import CLASS_NAMES


def raw_output(boxes: list[tuple[float, float, float, float, dict[str, float]]], anchors: int = 8):
    """Raw head output (1, 36, anchors): each box is (cx, cy, w, h, {card: score}) in input px."""
    raw = np.zeros((1, 4 + len(CLASS_NAMES), anchors), dtype=np.float32)
    for i, (cx, cy, w, h, scores) in enumerate(boxes):
        raw[0, :4, i] = (cx, cy, w, h)
        for card, score in scores.items():
            raw[0, 4 + CLASS_NAMES.index(card), i] = score
    return raw


def write_fake_model(
    path: Path, raw: np.ndarray, size: int | tuple[int, int] = 64, names=CLASS_NAMES
) -> Path:
    """Write an ONNX model with input 'images' (1, 3, h, w) whose output is always `raw`.

    `size` is the side of a square input, or (h, w)."""
    h, w = (size, size) if isinstance(size, int) else size
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    nodes = [
        helper.make_node("ReduceMean", ["images"], ["mean"], keepdims=0),
        helper.make_node("Mul", ["mean", "zero"], ["nothing"]),
        helper.make_node("Add", ["raw", "nothing"], ["output0"]),
    ]
    graph = helper.make_graph(
        nodes,
        "fake_yolo",
        [helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, h, w])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, list(raw.shape))],
        initializer=[
            numpy_helper.from_array(raw.astype(np.float32), "raw"),
            numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 9
    meta = model.metadata_props.add()
    meta.key, meta.value = "names", str(dict(enumerate(names)))
    onnx.save(model, str(path))
    return path


def write_fake_classifier(path: Path, probs: dict[str, float], size: int = 64) -> Path:
    """A card classifier ONNX (input 'crops' (N, 3, size, size)) giving every box the same row."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    from vision.crops import LABELS

    rest = (1.0 - sum(probs.values())) / (len(LABELS) - len(probs))  # rows sum to 1
    row = np.full((1, len(LABELS)), rest, np.float32)
    for name, p in probs.items():
        row[0, LABELS.index(name)] = p
    nodes = [
        helper.make_node("ReduceMean", ["crops"], ["mean"], axes=[2, 3], keepdims=0),  # (N, 3)
        helper.make_node("ReduceMean", ["mean"], ["one"], axes=[1], keepdims=1),  # (N, 1)
        helper.make_node("Mul", ["one", "zero"], ["nothing"]),
        helper.make_node("Add", ["nothing", "row"], ["probs"]),  # broadcast to (N, 33)
    ]
    graph = helper.make_graph(
        nodes,
        "fake_classifier",
        [helper.make_tensor_value_info("crops", TensorProto.FLOAT, ["n", 3, size, size])],
        [helper.make_tensor_value_info("probs", TensorProto.FLOAT, ["n", len(LABELS)])],
        initializer=[
            numpy_helper.from_array(row, "row"),
            numpy_helper.from_array(np.array(0.0, dtype=np.float32), "zero"),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return path
