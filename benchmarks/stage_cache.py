"""A cache of the two stages' costly work, frame by frame, for `simulated_deals.py --deck-memory
--cache`: every box the box model found and every box the classifier read (its 33
probabilities and its pooled features), saved beside each video (`deal_NNN.stages.npz`).

A deck memory changes what is read (so the detections cannot be cached whole, as
`CachedDetector` does), but not what the two models say of a given box in a given frame. Replayed
from this cache, only the rest runs (the video's decoding, the felt learnt, the memory, the
tracker): a change to any of those is measured on a set of 20 deals in minutes, not a quarter of
an hour. A box the cache lacks (the felt, or a memory that reads differently, found another) is
read by the real classifier and added; `misses` counts those. Exact: the same run from its cache
gives the same record.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from vision.crops import LABELS
from vision.detections import Detection

_DIGITS = 3  # box corners are keyed to this many decimals


class StageCache:
    """The box model's and the classifier's answers for one video at a time (`open`)."""

    def __init__(self, box_model: Any, classifier: Any) -> None:
        self.box_model, self.classifier = box_model, classifier
        self.signature = f"{box_model!r} {classifier.path.name} x{classifier.turns}"
        self.path: Path | None = None
        self.frame = -1
        self.boxes: list[list[Detection]] = []
        self.reads: dict[tuple, tuple[np.ndarray, np.ndarray | None]] = {}
        self.hits = self.misses = 0
        self._loaded_frames = 0
        self._changed = False

    # --- the two stand-ins the two-stage detector is built with ----------------------------

    def boxes_stage(self) -> _CachedBoxes:
        return _CachedBoxes(self)

    def classifier_stage(self) -> _CachedClassifier:
        return _CachedClassifier(self)

    # --- one video --------------------------------------------------------------------------

    def open(self, path: Path) -> None:
        """Start a video; read its cache if there is one made by the same two models."""
        self.path, self.frame, self.boxes, self.reads = path, -1, [], {}
        self._changed = False
        self._loaded_frames = 0
        if not path.exists():
            return
        with np.load(path, allow_pickle=False) as data:
            head = json.loads(str(data["head"]))
            if head["signature"] != self.signature:
                return
            self.boxes = [[Detection(c, f, tuple(b)) for c, f, b in row] for row in head["boxes"]]
            probs, feats = data["probs"], data["features"]
            for i, key in enumerate(head["keys"]):
                self.reads[_key(key[0], key[1], key[2:])] = (
                    probs[i], feats[i] if feats.size else None)
        self._loaded_frames = len(self.boxes)

    def save(self) -> None:
        """Write the video's cache (only when something new was read)."""
        if self.path is None or not self._changed:
            return
        keys = list(self.reads)
        probs = np.stack([self.reads[k][0] for k in keys]) if keys else np.zeros((0, len(LABELS)))
        with_features = keys and self.reads[keys[0]][1] is not None
        feats = (np.stack([self.reads[k][1] for k in keys]) if with_features
                 else np.zeros((0, 0), np.float32))
        head = {"signature": self.signature,
                "boxes": [[[d.card, d.confidence, list(d.box)] for d in row]
                          for row in self.boxes],
                "keys": [[frame, shape, *box] for frame, shape, box in keys]}
        tmp = self.path.with_name(self.path.name + ".tmp.npz")
        np.savez(tmp, head=np.array(json.dumps(head)), probs=probs, features=feats)
        tmp.replace(self.path)

    # --- the stages -------------------------------------------------------------------------

    def _boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
        self.frame += 1  # (the box model is asked once per frame: it counts them)
        if self.frame < self._loaded_frames:
            return list(self.boxes[self.frame])
        found = self.box_model.boxes(bgr, conf)
        self.boxes.append([Detection(d.card, d.confidence, d.box) for d in found])
        self._changed = True
        return found

    def _read(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]], features: bool
              ) -> tuple[np.ndarray, np.ndarray | None]:
        if not len(boxes):
            return self.classifier.read(bgr, boxes, features)
        shape = int(bgr.shape[1])
        keys = [_key(self.frame, shape, box) for box in boxes]
        todo = [i for i, k in enumerate(keys) if k not in self.reads]
        if todo:
            probs, feats = self.classifier.read(bgr, [boxes[i] for i in todo], features=True)
            for j, i in enumerate(todo):
                self.reads[keys[i]] = (probs[j], None if feats is None else feats[j])
            self._changed = True
        self.misses += len(todo)
        self.hits += len(keys) - len(todo)
        probs = np.stack([self.reads[k][0] for k in keys])
        got = [self.reads[k][1] for k in keys]
        feats = np.stack(got) if features and all(f is not None for f in got) else None
        return probs, feats


def _key(frame: int, shape: int, box: Sequence[float]) -> tuple:
    return int(frame), int(shape), tuple(round(float(v), _DIGITS) for v in box)


class _CachedBoxes:
    """The box model, through the cache (everything else is the model's own)."""

    def __init__(self, cache: StageCache) -> None:
        self._cache = cache

    def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
        return self._cache._boxes(bgr, conf)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cache.box_model, name)

    def __repr__(self) -> str:
        return repr(self._cache.box_model)


class _CachedClassifier:
    """The classifier, through the cache."""

    def __init__(self, cache: StageCache) -> None:
        self._cache = cache

    def read(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]], features: bool = True
             ) -> tuple[np.ndarray, np.ndarray | None]:
        return self._cache._read(bgr, boxes, features)

    def probabilities(self, bgr: np.ndarray, boxes: Sequence[Sequence[float]]) -> np.ndarray:
        return self._cache._read(bgr, boxes, False)[0]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._cache.classifier, name)
