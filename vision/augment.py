"""Table surfaces and a cheap camera's defects: light, glare, blur, noise, JPEG."""

from __future__ import annotations

import random

import cv2
import numpy as np

# Felt and cloth colours (BGR) for procedural surfaces when no texture is given.
_SURFACE_COLOURS = (
    (40, 110, 30),
    (30, 90, 20),
    (90, 60, 20),
    (40, 40, 120),
    (60, 60, 60),
    (30, 80, 140),
    (120, 110, 100),
    (20, 50, 90),
    (150, 150, 150),
    (80, 30, 30),
)


def table_surface(
    texture: np.ndarray | None, size: tuple[int, int], rng: random.Random
) -> np.ndarray:
    """A BGR table of `size` (w, h): the texture tiled at a random scale, or procedural felt."""
    w, h = size
    if texture is None:
        return procedural_surface(size, rng)
    if min(texture.shape[:2]) >= 300:  # a photo of a whole surface: cover the frame with it
        scale = max(w, h) / min(texture.shape[:2]) * rng.uniform(1.0, 1.5)
    else:  # a small seamless pattern: tile it, never blown up into visible blocks
        scale = rng.uniform(0.7, 2.2) * max(w, h) / 320
    interpolation = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    tex = cv2.resize(texture, None, fx=scale, fy=scale, interpolation=interpolation)
    if rng.random() < 0.5:
        tex = cv2.rotate(tex, cv2.ROTATE_90_CLOCKWISE)
    th, tw = tex.shape[:2]
    tiled = np.tile(tex, (h // th + 2, w // tw + 2, 1))
    oy, ox = rng.randrange(th), rng.randrange(tw)
    out = tiled[oy : oy + h, ox : ox + w].astype(np.float32)
    # Recolour a little: the same cloth under different light or dye.
    out *= np.array([rng.uniform(0.75, 1.2) for _ in range(3)], np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def _noise_field(shape: tuple[int, int], cell: float, np_rng: np.random.Generator) -> np.ndarray:
    """Smooth noise in [-1, 1] with features about `cell` pixels wide."""
    h, w = shape
    small = np_rng.normal(0, 1, (max(2, round(h / cell)) + 1, max(2, round(w / cell)) + 1))
    field = cv2.resize(small.astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    return field / max(1e-6, float(np.abs(field).max()))


def procedural_surface(size: tuple[int, int], rng: random.Random) -> np.ndarray:
    """Felt, carpet, a striped rug or folded cloth, made from noise: backgrounds no pattern has."""
    w, h = size
    np_rng = np.random.default_rng(rng.randrange(2**32))
    base = np.array(rng.choice(_SURFACE_COLOURS), np.float32) * rng.uniform(0.7, 1.3)
    kind = rng.choice(("felt", "carpet", "rug", "cloth"))
    if kind == "carpet":  # two-colour speckle, like the carpets of phone photos
        other = np.array([rng.uniform(20, 230) for _ in range(3)], np.float32)
        speck = _noise_field((h, w), rng.uniform(1.0, 2.5), np_rng) > rng.uniform(-0.2, 0.3)
        out = np.where(speck[:, :, None], base, other)
        out += 20 * _noise_field((h, w), rng.uniform(20, 80), np_rng)[:, :, None]
    elif kind == "rug":  # bands of colour, a little wavy
        ys = np.arange(h, dtype=np.float32)[:, None] + 6 * _noise_field((h, w), 60, np_rng)
        period = rng.uniform(8, 40)
        colours = np.array([[rng.uniform(10, 240) for _ in range(3)] for _ in range(3)], np.float32)
        band = (ys // period).astype(int) % 3
        out = colours[band] + np_rng.normal(0, 8, (h, w, 1)).astype(np.float32)
        if rng.random() < 0.5:
            out = np.ascontiguousarray(np.transpose(out, (1, 0, 2)))
            out = cv2.resize(out, (w, h))
    elif kind == "cloth":  # folds: slow light and dark ridges
        folds = _noise_field((h, w), rng.uniform(40, 120), np_rng)
        out = base * (1 + 0.35 * folds)[:, :, None]
        out += np_rng.normal(0, 4, (h, w, 1)).astype(np.float32)
    else:
        grain = _noise_field((h, w), 2, np_rng)[:, :, None] * rng.uniform(6, 25)
        out = base + grain + np_rng.normal(0, rng.uniform(2, 6), (h, w, 1)).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def cast_shadow(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """The soft shadow of a head, an arm or the phone taking the picture over part of the frame."""
    h, w = image.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.float32)
    centre = (rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h)
    radius = rng.uniform(0.3, 0.8) * max(w, h)
    points = [
        (
            centre[0] + radius * rng.uniform(0.5, 1.0) * np.cos(a),
            centre[1] + radius * rng.uniform(0.5, 1.0) * np.sin(a),
        )
        for a in sorted(rng.uniform(0, 2 * np.pi) for _ in range(7))
    ]
    cv2.fillPoly(mask, [np.round(points).astype(np.int32)], 1.0)
    mask = cv2.GaussianBlur(mask, (0, 0), rng.uniform(0.02, 0.08) * max(w, h))
    out: np.ndarray = image.astype(np.float32) * (1 - rng.uniform(0.25, 0.6) * mask[:, :, None])
    return out.astype(np.uint8)


def light_gradient(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """A lamp to one side: brightness falls off linearly or radially, with a colour cast."""
    h, w = image.shape[:2]
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    if rng.random() < 0.5:
        a = rng.uniform(0, 2 * np.pi)
        ramp = (xs / w - 0.5) * np.cos(a) + (ys / h - 0.5) * np.sin(a)
        gain = 1 + ramp * rng.uniform(0.2, 0.8)
    else:
        cx, cy = rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h
        d = np.sqrt((xs - cx) ** 2 + (ys - cy) ** 2) / max(w, h)
        gain = rng.uniform(1.0, 1.3) - d * rng.uniform(0.2, 0.8)
    cast = np.array([rng.uniform(0.85, 1.1), rng.uniform(0.92, 1.05), rng.uniform(0.9, 1.15)])
    out = image.astype(np.float32) * gain[:, :, None] * cast * rng.uniform(0.65, 1.25)
    lit: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return lit


def glare(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """A specular blob: light reflected by a glossy card or the table varnish."""
    h, w = image.shape[:2]
    mask: np.ndarray = np.zeros((h, w), np.float32)
    center = (rng.randrange(w), rng.randrange(h))
    axes = (rng.randint(w // 20, w // 5), rng.randint(h // 20, h // 5))
    cv2.ellipse(mask, center, axes, rng.uniform(0, 180), 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), max(axes) / 2.5) * rng.uniform(0.3, 0.8)
    out: np.ndarray = image.astype(np.float32) * (1 - mask[:, :, None]) + 255 * mask[:, :, None]
    return out.astype(np.uint8)


def blur(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Out of focus (Gaussian) or moving (a short line kernel)."""
    if rng.random() < 0.6:
        return cv2.GaussianBlur(image, (0, 0), rng.uniform(0.4, 1.4))
    n = rng.randint(3, 7)
    kernel: np.ndarray = np.zeros((n, n), np.float32)
    kernel[n // 2, :] = 1 / n
    rot = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1)
    kernel = cv2.warpAffine(kernel, rot, (n, n))
    return cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))


def noise(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Sensor noise: Gaussian, stronger in dark images."""
    np_rng = np.random.default_rng(rng.randrange(2**32))
    sigma = rng.uniform(2, 10)
    out = image.astype(np.float32) + np_rng.normal(0, sigma, image.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def jpeg(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Compress and decompress: block artefacts and chroma smear."""
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, rng.randint(30, 90)])
    if not ok:
        return image
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    if decoded is None:
        raise ValueError("cv2.imdecode could not read the JPEG cv2.imencode just wrote")
    return decoded


def colour(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """White balance, saturation and contrast of a phone or a Pi camera."""
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[:, :, 0] = (hsv[:, :, 0] + rng.uniform(-4, 4)) % 180
    hsv[:, :, 1] *= rng.uniform(0.6, 1.3)
    out = cv2.cvtColor(np.clip(hsv, 0, 255).astype(np.uint8), cv2.COLOR_HSV2BGR).astype(np.float32)
    mean = out.mean()
    out = (out - mean) * rng.uniform(0.75, 1.25) + mean
    coloured: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
    return coloured


def finish(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Every defect, each applied with some probability, in the order a camera makes them."""
    if rng.random() < 0.8:
        image = light_gradient(image, rng)
    if rng.random() < 0.25:
        image = cast_shadow(image, rng)
    if rng.random() < 0.25:
        image = glare(image, rng)
    if rng.random() < 0.7:
        image = colour(image, rng)
    if rng.random() < 0.5:
        image = blur(image, rng)
    if rng.random() < 0.7:
        image = noise(image, rng)
    if rng.random() < 0.7:
        image = jpeg(image, rng)
    return image
