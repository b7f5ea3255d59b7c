"""Rebuild a trainable `CardNet` from an exported classifier ONNX file.

The export folds each batch norm into the convolution before it (conv weight and a bias), so the
file holds no BN parameters to load back. To fine-tune the shipped model anyway, each BN is
refactored from a sample of real inputs: with the folded convolution's output `y` having
per-channel mean `m` and variance `v` on the sample, running stats (m, v), scale sqrt(v + eps)
and shift m + b make the eval-mode layer exactly `y + b` (the exported layer), and the train-mode
layer, which normalises by the batch's own statistics, nearly so. Fine-tuning then starts from
the shipped function, not from a network that has to relearn its normalisation.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

import numpy as np
import torch
from torch import nn

from vision.classifier_train import CardNet, prepare

Folded = tuple[np.ndarray, np.ndarray]  # a convolution's weight and bias, its BN folded in


def _folded_weights(path: Path) -> tuple[list[Folded], np.ndarray, np.ndarray]:
    """(conv weight, bias) per Conv node in graph order, and the head's weight and bias."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    # Copies: torch cannot take the read-only arrays onnx hands out.
    init = {t.name: numpy_helper.to_array(t).copy() for t in model.graph.initializer}
    convs, head = [], None
    for node in model.graph.node:
        if node.op_type == "Conv":
            convs.append((init[node.input[1]], init[node.input[2]]))
        elif node.op_type == "Gemm":
            trans_b = any(a.name == "transB" and a.i == 1 for a in node.attribute)
            weight = init[node.input[1]]
            head = (weight if trans_b else weight.T, init[node.input[2]])
    if head is None or not convs:
        raise ValueError(f"{path}: not a CardNet export (no Conv or no Gemm node)")
    return convs, head[0], head[1]


def cardnet_from_onnx(path: Path, sample: np.ndarray) -> CardNet:
    """A CardNet computing what `path` computes, its BNs calibrated on `sample` (uint8 crops).

    `sample`: (N, S, S, 3) BGR crops as `vision.crops` writes them, a few hundred is plenty.
    """
    convs, head_w, head_b = _folded_weights(Path(path))
    net = CardNet(classes=head_w.shape[0], crop=int(sample.shape[1]))
    blocks = cast(list[nn.Sequential], list(net.features))  # (each a `_conv`)
    if len(blocks) != len(convs):
        raise ValueError(
            f"{path}: {len(convs)} convolutions, CardNet({sample.shape[1]}) has {len(blocks)}"
        )
    net.eval()
    x = prepare(sample)
    with torch.no_grad():
        for block, (weight, bias) in zip(blocks, convs, strict=True):
            conv, bn = block[0], block[1]
            assert isinstance(conv, nn.Conv2d) and isinstance(bn, nn.BatchNorm2d)
            assert bn.running_mean is not None and bn.running_var is not None  # tracked stats
            if tuple(conv.weight.shape) != weight.shape:
                want = tuple(conv.weight.shape)
                raise ValueError(f"{path}: conv shape {weight.shape}, expected {want}")
            conv.weight.copy_(torch.from_numpy(weight))
            y = conv(x)
            mean = y.mean(dim=(0, 2, 3))
            var = y.var(dim=(0, 2, 3), unbiased=False)
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_(torch.sqrt(var + bn.eps))
            bn.bias.copy_(mean + torch.from_numpy(bias))
            x = block(x)
        linear = net.head[1]
        assert isinstance(linear, nn.Linear)
        linear.weight.copy_(torch.from_numpy(head_w))
        linear.bias.copy_(torch.from_numpy(head_b))
    return net
