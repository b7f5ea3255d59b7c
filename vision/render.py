"""The table-scene renderer: a camera over a belote table, for training data and simulated deals.

Coordinates: a placement's centre is in *table* pixels, a top-down view of the felt the size of the
output image (x right, y down; N at the top, S at the bottom, W left, E right). The `Camera` then
maps the table to the image with a homography (tilt, rotation, zoom), and `augment.finish` adds the
photographic defects (light gradient, glare, blur, noise, JPEG).

    from vision.artwork import load_design, load_textures
    from vision.render import Camera, Occluder, Placement, TableScene

    scene = TableScene(load_design("gnome-paris"), texture=load_textures()[0], size=(416, 416),
                       seed=7, camera=Camera.random(random.Random(7), (416, 416)))
    x, y = scene.seat_spot("S")                   # where S plays its card (also N, E, W)
    image, labels = scene.render([
        Placement("JH", (x, y), angle=8),        # a belote card: labelled when seen enough
        Placement("back", (60, 380), angle=-30), # face down: drawn, never labelled
        Placement("2S", (300, 100), z=2),        # not a belote card: drawn, never labelled
    ], occluders=[Occluder("hand", (x + 30, y + 60), angle=-90)])  # fingers point along angle
    labels[0].card, labels[0].labelled, labels[0].box   # 'JH', True, (x0, y0, x1, y1)

`scene.card_height` (table px, default 0.2 * min(size)) times `Placement.scale` is a card's height.
`render` returns the BGR image (uint8, shape (h, w, 3) for size (w, h)) and one `CardLabel` per
placement, in the same order: `box` is the axis-aligned box of the card's 4 corners in the image
(clipped to it), `seen_box` the box of the part not under another card (how a person labels a
fanned card: its visible strip; hands and clutter do not shrink it), `quad` the 4 corners
(top-left, top-right, bottom-right, bottom-left of the artwork), `visible` the fraction of the
card's area seen (not covered by a card or an occluder above it, and inside the frame), `corners`
the boxes of its corner indices that are visible, and `labelled` the labelling rule: a belote card
(one of the 32) with visible >= MIN_VISIBLE (0.30) and at least one corner index at least
MIN_CORNER (60%) visible -- or, as in a fanned hand where a person still reads the card, visible >=
MIN_VISIBLE_FANNED (0.10) with one corner index FULL_CORNER (85%) visible -- and a box at least
MIN_SIDE pixels on both sides. Backs ('back'),
cards 2-6 ('2S') and jokers ('JOKER_RED') are drawn, never labelled.
Placements with higher `z` are drawn on top; occluders default to above every card (give one a
finite z to slide it under later cards). The same `rng` (or seed) gives the same image.
`render(..., effects=False)` skips the photographic defects (tests, or a simulator adding its own
per frame with `augment.finish(image, rng)`). Random layouts for training live in `vision.scene`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision import augment, occlusion
from vision.artwork import CORNER_BOXES, Design
from vision.detections import CLASS_NAMES

MIN_VISIBLE = 0.30
MIN_CORNER = 0.60
MIN_VISIBLE_FANNED = 0.10
FULL_CORNER = 0.85
MIN_SIDE = 6.0
_BELOTE = frozenset(CLASS_NAMES)


@dataclass(frozen=True, slots=True)
class Placement:
    """A card on the table: name ('JH', 'back', '2S'), centre (table px), angle (deg), size, z."""

    card: str
    center: tuple[float, float]
    angle: float = 0.0
    scale: float = 1.0  # card height = scale * scene.card_height
    z: float = 0.0


@dataclass(frozen=True, slots=True)
class Occluder:
    """Something over the table: 'hand', 'finger', 'phone', 'glass', 'pad' or 'pen'."""

    kind: str
    center: tuple[float, float]
    angle: float = 0.0
    scale: float = 1.0  # relative to scene.card_height
    z: float = math.inf
    seed: int = 0  # its shape and colour


@dataclass(frozen=True, slots=True)
class CardLabel:
    """What the renderer knows about one placement in the final image."""

    card: str
    box: tuple[float, float, float, float]
    quad: tuple[tuple[float, float], ...]
    visible: float
    corners: tuple[tuple[float, float, float, float], ...]
    labelled: bool
    seen_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass(frozen=True, slots=True)
class Camera:
    """A homography from table pixels to image pixels."""

    matrix: np.ndarray = field(default_factory=lambda: np.eye(3))

    @classmethod
    def overhead(cls) -> Camera:
        return cls()

    @classmethod
    def random(
        cls,
        rng: random.Random,
        size: tuple[int, int],
        tilt: float = 0.18,
        rotate: float = 180.0,
        zoom: tuple[float, float] = (1.0, 1.35),
    ) -> Camera:
        """A camera looking down with some tilt: the table's corners pushed outward unevenly."""
        w, h = size
        z = rng.uniform(*zoom)
        cx, cy = w / 2, h / 2
        a = math.radians(rng.uniform(-rotate, rotate))
        # Zoom about the centre, rotate, then push the corners outward (a perspective tilt).
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        dst = []
        for x, y in src:
            dx, dy = (x - cx) * z, (y - cy) * z
            rx, ry = dx * math.cos(a) - dy * math.sin(a), dx * math.sin(a) + dy * math.cos(a)
            k = 1 + rng.uniform(0, tilt)
            dst.append([cx + rx * k, cy + ry * k])
        side = rng.randrange(4)  # one side of the table farther away: that edge shrinks
        for i in (side, (side + 1) % 4):
            dst[i] = [
                cx + (dst[i][0] - cx) * (1 - tilt / 2),
                cy + (dst[i][1] - cy) * (1 - tilt / 2),
            ]
        return cls(cv2.getPerspectiveTransform(src, np.array(dst, np.float32)))

    def project(self, points: np.ndarray) -> np.ndarray:
        """Table points (N, 2) to image points (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.matrix).reshape(-1, 2)


class TableScene:
    """A design, a table texture, an image size and a camera; `render` draws placements on it."""

    def __init__(
        self,
        design: Design,
        texture: np.ndarray | None = None,
        size: tuple[int, int] = (416, 416),
        seed: int = 0,
        camera: Camera | None = None,
        card_height: float | None = None,
    ) -> None:
        self.design = design
        self.size = size
        self.seed = seed
        self.camera = camera or Camera.overhead()
        self.card_height = card_height or 0.2 * min(size)
        rng = random.Random(seed)
        self.table = augment.table_surface(texture, size, rng)
        self._cache: dict[tuple[str, int], np.ndarray] = {}
        self._view: tuple[bytes, np.ndarray] | None = None  # the bare table through the camera

    def seat_spot(self, seat: str) -> tuple[float, float]:
        """Where a seat ('N', 'E', 'S', 'W') puts the card it plays, in table pixels."""
        w, h = self.size
        offset = 0.62 * self.card_height
        spots = {
            "N": (w / 2, h / 2 - offset),
            "S": (w / 2, h / 2 + offset),
            "W": (w / 2 - offset, h / 2),
            "E": (w / 2 + offset, h / 2),
        }
        return spots[seat]

    def image_of(self, card: str) -> np.ndarray:
        """The BGRA artwork of a placement's card ('back' or a distractor included)."""
        if card == "back" and self.design.back is not None:
            return self.design.back
        if card in self.design.cards:
            return self.design.cards[card]
        if card in self.design.distractors:
            return self.design.distractors[card]
        raise KeyError(f"design {self.design.name!r} has no card {card!r}")

    def _sized(self, card: str, height: int) -> np.ndarray:
        key = (card, height)
        if key not in self._cache:
            art = self.image_of(card)
            h, w = art.shape[:2]
            self._cache[key] = cv2.resize(
                art, (max(2, round(w * height / h)), height), interpolation=cv2.INTER_AREA
            )
        return self._cache[key]

    def render(
        self,
        placements: Sequence[Placement],
        occluders: Sequence[Occluder] = (),
        effects: bool = True,
        rng: random.Random | None = None,
    ) -> tuple[np.ndarray, list[CardLabel]]:
        """Draw placements and occluders, photograph them; return (BGR image, labels)."""
        rng = rng or random.Random(self.seed)
        w, h = self.size
        canvas = self.table.copy()
        ids = np.zeros((h, w), np.int16)  # 0 table, i+1 placement i, -1 occluder
        quads: list[np.ndarray] = []
        corner_quads: list[list[np.ndarray]] = []
        layers: list[tuple[float, int, object]] = [(p.z, i, p) for i, p in enumerate(placements)]
        layers += [(o.z, len(placements) + j, o) for j, o in enumerate(occluders)]
        for p in placements:
            quad, corner = self._geometry(p)
            quads.append(quad)
            corner_quads.append(corner)
        for _, index, item in sorted(layers, key=lambda t: (t[0], t[1])):
            if isinstance(item, Placement):
                self._draw_card(canvas, ids, item, index, rng)
            else:
                assert isinstance(item, Occluder)
                occlusion.draw(canvas, ids, item, self.card_height)
        # Where the camera sees past the table canvas, show more bare table (reflected), never
        # mirrored copies of cards: those would be unlabelled cards.
        image = self._table_view().copy()
        cv2.warpPerspective(
            canvas,
            self.camera.matrix,
            (w, h),
            dst=image,
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_TRANSPARENT,
        )
        seen = cv2.warpPerspective(
            ids,
            self.camera.matrix,
            (w, h),
            flags=cv2.INTER_NEAREST,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=0,
        )
        # Pixels seen of each placement, all at once (ids shifted so occluders count at 0).
        counts = np.bincount((seen.astype(np.int32) + 1).ravel(), minlength=len(placements) + 2)
        labels = [
            self._label(p, i, quads[i], corner_quads[i], seen, int(counts[i + 2]))
            for i, p in enumerate(placements)
        ]
        if effects:
            image = augment.finish(image, rng)
        return image, labels

    def _table_view(self) -> np.ndarray:
        """The bare table as the camera sees it, computed once per camera."""
        key = self.camera.matrix.tobytes()
        if self._view is None or self._view[0] != key:
            view = cv2.warpPerspective(
                self.table, self.camera.matrix, self.size, borderMode=cv2.BORDER_REFLECT_101
            )
            self._view = (key, view)
        return self._view[1]

    def _geometry(self, p: Placement) -> tuple[np.ndarray, list[np.ndarray]]:
        """The card's 4 corners and its corner-index quads, in table pixels."""
        art = self.image_of(p.card)
        ch = p.scale * self.card_height
        cw = ch * art.shape[1] / art.shape[0]
        a = math.radians(p.angle)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])

        def to_table(fx: float, fy: float) -> np.ndarray:
            local = np.array([(fx - 0.5) * cw, (fy - 0.5) * ch])
            return np.asarray(rot @ local + np.asarray(p.center))  # (numpy types this @ as Any)

        quad = np.array([to_table(0, 0), to_table(1, 0), to_table(1, 1), to_table(0, 1)])
        corners = [
            np.array([to_table(x0, y0), to_table(x1, y0), to_table(x1, y1), to_table(x0, y1)])
            for x0, y0, x1, y1 in CORNER_BOXES
        ]
        return quad, corners

    def _draw_card(
        self, canvas: np.ndarray, ids: np.ndarray, p: Placement, index: int, rng: random.Random
    ) -> None:
        height = max(4, round(p.scale * self.card_height))
        art = self._sized(p.card, height)
        ah, aw = art.shape[:2]
        m = cv2.getRotationMatrix2D((aw / 2, ah / 2), -p.angle, 1.0)
        m[:, 2] += np.asarray(p.center) - (aw / 2, ah / 2)
        corners = np.array([[0, 0, 1], [aw, 0, 1], [aw, ah, 1], [0, ah, 1]], float) @ m.T
        pad = 6
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + pad
        H, W = canvas.shape[:2]
        cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        m[:, 2] -= (cx0, cy0)
        patch = cv2.warpAffine(
            art,
            m,
            (cx1 - cx0, cy1 - cy0),
            flags=cv2.INTER_LINEAR,
            borderMode=cv2.BORDER_CONSTANT,
            borderValue=(0, 0, 0, 0),
        )
        alpha = patch[:, :, 3:4].astype(np.float32) / 255.0
        roi = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
        # A soft shadow a little offset from the card, then the card, slightly shaded.
        shadow = cv2.GaussianBlur(alpha[:, :, 0], (0, 0), max(1.0, height / 40))
        shift = np.array([[1, 0, height / 60], [0, 1, height / 45]], np.float32)
        shadow = cv2.warpAffine(shadow, shift, (shadow.shape[1], shadow.shape[0]))[:, :, None]
        roi *= 1 - 0.45 * shadow
        # Each card its own light and age: a little darker, warmer or greyer than its artwork.
        shade = rng.uniform(0.86, 1.04) * np.array(
            [rng.uniform(0.88, 1.0), rng.uniform(0.94, 1.02), rng.uniform(0.97, 1.04)], np.float32
        )
        roi = roi * (1 - alpha) + patch[:, :, :3].astype(np.float32) * shade * alpha
        canvas[cy0:cy1, cx0:cx1] = np.clip(roi, 0, 255).astype(np.uint8)
        ids[cy0:cy1, cx0:cx1][alpha[:, :, 0] > 0.5] = index + 1

    def _label(
        self,
        p: Placement,
        index: int,
        quad: np.ndarray,
        corners: list[np.ndarray],
        seen: np.ndarray,
        seen_pixels: int,
    ) -> CardLabel:
        h, w = seen.shape
        img_quad = self.camera.project(quad)
        area = abs(cv2.contourArea(img_quad.astype(np.float32)))
        visible = seen_pixels / max(area, 1.0)
        box = _clip_box(img_quad, w, h)
        seen_corners = []
        best = 0.0  # the most visible corner index, as a share of its area
        for corner in corners:
            cq = self.camera.project(corner)
            c_area = abs(cv2.contourArea(cq.astype(np.float32)))
            # Count inside the corner's own box only: a full-image mask per corner is slow.
            x0, y0 = np.floor(cq.min(axis=0)).astype(int).clip(0, (w, h))
            x1, y1 = (np.ceil(cq.max(axis=0)).astype(int) + 1).clip(0, (w, h))
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            pts = np.round(cq - (x0, y0)).astype(np.int32)
            if mask.size:
                cv2.fillConvexPoly(mask, pts, 1)
            c_seen = float(((seen[y0:y1, x0:x1] == index + 1) & (mask > 0)).sum())
            share = c_seen / c_area if c_area > 0 else 0.0
            best = max(best, share)
            if share >= MIN_CORNER:
                seen_corners.append(_clip_box(cq, w, h))
        enough = (visible >= MIN_VISIBLE and best >= MIN_CORNER) or (
            visible >= MIN_VISIBLE_FANNED and best >= FULL_CORNER
        )
        labelled = (
            p.card in _BELOTE
            and enough
            and box[2] - box[0] >= MIN_SIDE
            and box[3] - box[1] >= MIN_SIDE
        )
        return CardLabel(
            p.card,
            box,
            tuple((float(x), float(y)) for x, y in img_quad),
            min(1.0, visible),
            tuple(seen_corners),
            labelled,
            _seen_box(img_quad, index, seen, box),
        )


def _seen_box(
    img_quad: np.ndarray, index: int, seen: np.ndarray, box: tuple[float, float, float, float]
) -> tuple[float, float, float, float]:
    """The box of a card's pixels not under another card; an occluder's pixels inside the card
    count as the card's (a thumb on a card does not change where a person draws its box)."""
    x0, y0, x1, y1 = (int(v) for v in (math.floor(box[0]), math.floor(box[1]),
                                        math.ceil(box[2]), math.ceil(box[3])))
    region = seen[y0:y1, x0:x1]
    if region.size == 0:
        return box
    inside = np.zeros(region.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.round(img_quad - (x0, y0)).astype(np.int32), 1)
    mine = (region == index + 1) | ((region == -1) & (inside > 0))
    ys, xs = np.nonzero(mine)
    if len(xs) == 0:
        return box
    return (
        float(max(box[0], x0 + xs.min())),
        float(max(box[1], y0 + ys.min())),
        float(min(box[2], x0 + xs.max() + 1)),
        float(min(box[3], y0 + ys.max() + 1)),
    )


def _clip_box(points: np.ndarray, w: int, h: int) -> tuple[float, float, float, float]:
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    return (
        float(np.clip(x0, 0, w)),
        float(np.clip(y0, 0, h)),
        float(np.clip(x1, 0, w)),
        float(np.clip(y1, 0, h)),
    )
