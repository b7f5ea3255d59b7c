"""The one boundary where a YOLO model's raw output becomes plain `Detection` values.

Every backend (ONNX Runtime, NCNN, ultralytics/PyTorch) feeds the same letterboxed tensor to its
model and hands the raw head output, shape (4 + classes, anchors) with boxes as centre/size in
input pixels and per-class scores already in [0, 1], to `decode`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.detections import CLASS_NAMES, Detection, one_per_card

PAD_VALUE = 114  # grey padding, as ultralytics trains with
MAX_ALTERNATIVES = 4
MIN_ALTERNATIVE_SCORE = 0.01


@dataclass(frozen=True, slots=True)
class Letterbox:
    """How an image was scaled and padded into the model's square input."""

    scale: float
    pad_x: float
    pad_y: float
    width: int  # original image size, to clip boxes
    height: int


def letterbox(bgr: np.ndarray, size: int | tuple[int, int]) -> tuple[np.ndarray, Letterbox]:
    """Resize keeping aspect and pad to `size` (h, w); returns a 1x3xHxW float32 RGB tensor."""
    import cv2

    if bgr.ndim != 3 or bgr.shape[2] != 3:
        raise ValueError(f"image must have shape (H, W, 3) in BGR order, got {bgr.shape}")
    out_h, out_w = (size, size) if isinstance(size, int) else size
    h, w = bgr.shape[:2]
    scale = min(out_h / h, out_w / w)
    new_w, new_h = round(w * scale), round(h * scale)
    resized = cv2.resize(bgr, (new_w, new_h), interpolation=cv2.INTER_LINEAR)
    pad_x, pad_y = (out_w - new_w) / 2, (out_h - new_h) / 2
    top, left = round(pad_y - 0.1), round(pad_x - 0.1)  # same rounding as ultralytics
    canvas = np.full((out_h, out_w, 3), PAD_VALUE, dtype=np.uint8)
    canvas[top : top + new_h, left : left + new_w] = resized
    tensor = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
    return np.ascontiguousarray(tensor), Letterbox(scale, left, top, w, h)


def nms(boxes: np.ndarray, scores: np.ndarray, iou: float) -> list[int]:
    """Greedy non-maximum suppression over xyxy boxes; returns kept indices, best first."""
    order = np.argsort(-scores)
    areas = (boxes[:, 2] - boxes[:, 0]) * (boxes[:, 3] - boxes[:, 1])
    keep: list[int] = []
    while order.size:
        i = int(order[0])
        keep.append(i)
        rest = order[1:]
        xx0 = np.maximum(boxes[i, 0], boxes[rest, 0])
        yy0 = np.maximum(boxes[i, 1], boxes[rest, 1])
        xx1 = np.minimum(boxes[i, 2], boxes[rest, 2])
        yy1 = np.minimum(boxes[i, 3], boxes[rest, 3])
        inter = np.clip(xx1 - xx0, 0, None) * np.clip(yy1 - yy0, 0, None)
        union = areas[i] + areas[rest] - inter
        overlap = np.where(union > 0, inter / np.maximum(union, 1e-9), 0.0)
        order = rest[overlap <= iou]
    return keep


def decode(
    raw: np.ndarray,
    box: Letterbox,
    conf: float = 0.35,
    iou: float = 0.6,
    names: tuple[str, ...] = CLASS_NAMES,
    max_det: int = 64,
    unique: bool = True,
) -> list[Detection]:
    """Turn raw head output (4 + classes, anchors) into detections, each card at most once.

    NMS ignores the class: one physical card gives one box, whatever cards its scores hesitate
    between; those hesitations become the detection's `alternatives`. When two boxes want the
    same card, the less confident one takes its best other reading if that clears `conf`.
    `unique=False` keeps every box after NMS with its best reading, duplicates included: the
    class-agnostic boxes a second stage reads again.
    """
    out = np.asarray(raw, dtype=np.float32)
    if out.ndim == 3:
        if out.shape[0] != 1:
            raise ValueError(f"raw output must hold one image, got batch of {out.shape[0]}")
        out = out[0]
    if out.ndim != 2 or out.shape[0] != 4 + len(names):
        raise ValueError(
            f"raw output must have shape (4 + {len(names)}, anchors), got {tuple(out.shape)}"
        )
    scores = out[4:].T  # anchors x classes
    best = scores.max(axis=1)
    candidates = np.flatnonzero(best >= conf)
    if candidates.size == 0:
        return []
    cx, cy, w, h = out[:4, candidates]
    boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], axis=1)
    keep = nms(boxes, best[candidates], iou)[:max_det]

    taken: set[str] = set()
    detections: list[Detection] = []
    for k in keep:  # best first
        row = scores[candidates[k]]
        ranked = np.argsort(-row)
        choice = next((int(c) for c in ranked if not unique or names[c] not in taken), None)
        if choice is None or row[choice] < conf:
            continue
        card = names[choice]
        taken.add(card)
        alternatives = tuple(
            (names[int(c)], round(float(row[c]), 4))
            for c in ranked
            if int(c) != choice and row[c] >= MIN_ALTERNATIVE_SCORE
        )[:MAX_ALTERNATIVES]
        detections.append(
            Detection(
                card=card,
                confidence=float(min(max(row[choice], 0.0), 1.0)),
                box=_unletterbox(boxes[k], box),
                alternatives=alternatives,
            )
        )
    return one_per_card(detections) if unique else detections


def _unletterbox(xyxy: np.ndarray, box: Letterbox) -> tuple[float, float, float, float]:
    """Map a box from model-input pixels back to the original image, clipped to it."""
    x0, y0, x1, y1 = (float(v) for v in xyxy)
    x0 = min(max((x0 - box.pad_x) / box.scale, 0.0), box.width)
    x1 = min(max((x1 - box.pad_x) / box.scale, 0.0), box.width)
    y0 = min(max((y0 - box.pad_y) / box.scale, 0.0), box.height)
    y1 = min(max((y1 - box.pad_y) / box.scale, 0.0), box.height)
    return (x0, y0, max(x1, x0), max(y1, y0))
