"""One classifier file from several: an ONNX graph that averages its members' probabilities.

Two classifiers trained apart (one shipped, a fine-tune of it on other crops) misread different
cards; the mean of such a pair read the real photos, the renders and the simulated deals better
than the shipped one alone (models/card_classifier.md, session 43). Merged into one file, the
ensemble loads wherever a classifier does (`CardClassifier`, `belote eval --classifier`, the
device's config).

    python -m vision.classifier ensemble --out models/card_classifier.onnx A.onnx B.onnx

The merged file has a second output, `features`: each member's pooled features (the input of its
last layer), side by side. Nothing reads them to name a card; a deck memory
(`vision.deck_memory`) compares them with the features of this table's own cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

FEATURES = "features"


def merge(members: Sequence[Path | str], out: Path | str) -> Path:
    """Write one ONNX model whose output is the mean of `members`' outputs, and return its path.

    Every member must take the same input (name and shape) and give one output of the same shape;
    the merged model keeps the first member's input, output names and opset.
    """
    import onnx
    from onnx import compose, helper

    if len(members) < 2:
        raise ValueError("an ensemble needs at least two classifiers")
    models = [onnx.load(str(p)) for p in members]
    first = models[0].graph
    want = (_signature(first.input[0]), _signature(first.output[0]))
    nodes, weights, outputs = [], [], []
    for i, (path, model) in enumerate(zip(members, models, strict=True)):
        graph = model.graph
        if len(graph.input) != 1 or len(graph.output) != 1:
            raise ValueError(f"{path}: a classifier has one input and one output")
        got = (_signature(graph.input[0]), _signature(graph.output[0]))
        if got != want:
            raise ValueError(f"{path}: input/output {got} differ from {members[0]}'s {want}")
        # Prefixes keep the members' tensor names apart; all of them read the shared input.
        graph = compose.add_prefix(model, prefix=f"m{i}_").graph
        own_input = graph.input[0].name
        for node in graph.node:
            node.input[:] = [first.input[0].name if x == own_input else x for x in node.input]
        nodes.extend(graph.node)
        weights.extend(graph.initializer)
        outputs.append(graph.output[0].name)
    share = helper.make_tensor("ensemble_share", onnx.TensorProto.FLOAT, [], [1 / len(members)])
    nodes.append(helper.make_node("Sum", outputs, ["ensemble_sum"]))
    nodes.append(helper.make_node("Mul", ["ensemble_sum", share.name], [first.output[0].name]))
    graph = helper.make_graph(
        nodes, "ensemble", [first.input[0]], [first.output[0]], [*weights, share]
    )
    merged = helper.make_model(graph, opset_imports=models[0].opset_import)
    merged.ir_version = models[0].ir_version
    merged.doc_string = "mean of: " + ", ".join(Path(p).name for p in members)
    return _save(with_features(merged), out)


def with_features(model: Any) -> Any:
    """`model` (an onnx ModelProto, changed in place) with a second output, `FEATURES`: the
    input of each last layer (Gemm), side by side, as (n, sum of their widths). A model that has
    it already is returned as it is."""
    from onnx import TensorProto, helper

    graph = model.graph
    if any(o.name == FEATURES for o in graph.output):
        return model
    pooled = [n.input[0] for n in graph.node if n.op_type == "Gemm"]
    if not pooled:
        raise ValueError("no last layer (Gemm) found: cannot tell where the features are")
    graph.node.append(helper.make_node("Concat", pooled, [FEATURES], axis=1))
    graph.output.append(helper.make_tensor_value_info(FEATURES, TensorProto.FLOAT, ["n", None]))
    return model


def add_features(model: Path | str, out: Path | str) -> Path:
    """Write `model` with the `FEATURES` output (`with_features`); its readings are unchanged."""
    import onnx

    return _save(with_features(onnx.load(str(model))), out)


def _save(model: Any, out: Path | str) -> Path:
    import onnx

    onnx.checker.check_model(model)
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out


def _signature(value: object) -> tuple[str, tuple[int | str, ...]]:
    """A graph input's or output's name and shape (symbolic dimensions by name)."""
    shape = value.type.tensor_type.shape.dim  # type: ignore[attr-defined]
    dims = tuple(d.dim_param if d.dim_param else d.dim_value for d in shape)
    return value.name, dims  # type: ignore[attr-defined]
