"""Table geometry: where the felt is in the picture, which side each seat is on, where tricks go.

The felt's four corners (in seat order SW, SE, NE, NW) define a homography to the unit square
(u from West to East, v from North to South). A point maps to a zone: a seat's play zone (the part
of the felt in front of that player), the trick square in the middle, or outside the felt.

Calibration: four ArUco markers (DICT_4X4_50, id 0 at SW, 1 at SE, 2 at NE, 3 at NW) give corners
and seats at once; else the felt's outline (largest green or dark quadrilateral) with the seat at
the bottom of the picture given; else four corners typed in by hand.

>>> g = TableGeometry.full((640, 480))
>>> g.zone((320, 470)), g.zone((320, 240)), g.zone((5, 240))
('S', 'trick', 'W')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

SEATS = ("N", "E", "S", "W")  # the zones in front of the players
SEATS_FROM_BOTTOM = ("S", "E", "N", "W")  # bottom, right, top, left when S sits at the bottom
TRICK = "trick"
OUTSIDE = "outside"
ARUCO_IDS = {0: 0, 1: 1, 2: 2, 3: 3}  # marker id → corner index in SW, SE, NE, NW order
CARD_LENGTH_CM = 8.8  # a belote card's long side
TABLE_CM = 80.0  # a card table's side

Point = tuple[float, float]


class CalibrationError(ValueError):
    """The picture did not show what the calibration method looks for."""


@dataclass(frozen=True)
class TableGeometry:
    """Felt corners (SW, SE, NE, NW) in pixels of a picture of `image_size` (w, h)."""

    corners: tuple[Point, Point, Point, Point]
    image_size: tuple[int, int]
    trick_size: float = 0.08
    edge: float = 0.0
    method: str = "manual"
    side_cm: float = TABLE_CM  # the calibrated square's side on the table (the felt's, or markers')

    def __post_init__(self) -> None:
        if len(self.corners) != 4:
            raise CalibrationError(f"needs 4 corners (SW, SE, NE, NW), got {len(self.corners)}")
        src = np.array(self.corners, dtype=np.float64)
        dst = np.array([(0, 1), (1, 1), (1, 0), (0, 0)], dtype=np.float64)
        h = _homography(src, dst)
        object.__setattr__(self, "_h", tuple(float(x) for x in h.ravel()))

    @classmethod
    def full(cls, image_size: tuple[int, int], bottom: str = "S") -> TableGeometry:
        """The whole picture is the felt (simulated tables, or a camera framed on the felt)."""
        w, h = image_size
        return cls.from_picture_corners([(0, h), (w, h), (w, 0), (0, 0)], image_size, bottom)

    @classmethod
    def from_picture_corners(
        cls,
        corners: Sequence[Point],
        image_size: tuple[int, int],
        bottom: str = "S",
        method: str = "manual",
        **kw: float,
    ) -> TableGeometry:
        """Corners as seen in the picture (bottom-left, bottom-right, top-right, top-left) and
        the seat whose side is at the bottom of the picture."""
        if bottom not in SEATS_FROM_BOTTOM:
            raise CalibrationError(f"bottom seat must be one of N E S W, got {bottom!r}")
        shift = SEATS_FROM_BOTTOM.index(bottom)
        # Rotating the seats by one side rotates the corner list by one.
        pts = [tuple(map(float, p)) for p in corners]
        ordered = pts[-shift:] + pts[:-shift] if shift else pts
        return cls(tuple(ordered), tuple(image_size), method=method, **kw)  # type: ignore[arg-type]

    def to_felt(self, point: Point) -> Point:
        """Picture pixels → felt coordinates (0..1 from W to E, 0..1 from N to S)."""
        a, b, c, d, e, f, g, h, i = self._h  # type: ignore[attr-defined]
        x, y = point
        w = g * x + h * y + i
        if abs(w) < 1e-12:
            return (-1.0, -1.0)
        return ((a * x + b * y + c) / w, (d * x + e * y + f) / w)

    def zone(self, point: Point) -> str:
        """'N', 'E', 'S', 'W' (in front of that seat), 'trick' (the middle) or 'outside'."""
        u, v = self.to_felt(point)
        lo, hi = self.edge, 1.0 - self.edge
        if not (lo <= u <= hi and lo <= v <= hi):
            return OUTSIDE
        du, dv = u - 0.5, v - 0.5
        half = self.trick_size / 2
        if abs(du) <= half and abs(dv) <= half:
            return TRICK
        if abs(dv) >= abs(du):
            return "S" if dv > 0 else "N"
        return "E" if du > 0 else "W"

    def nearest_seat(self, point: Point) -> str:
        """The seat whose side of the felt the point is closest to (for centre fallbacks)."""
        u, v = self.to_felt(point)
        du, dv = u - 0.5, v - 0.5
        if abs(dv) >= abs(du):
            return "S" if dv > 0 else "N"
        return "E" if du > 0 else "W"

    @property
    def card_length(self) -> float | None:
        """About how long a card lies on this table, in pixels (`CARD_LENGTH_CM` in `side_cm` of the
        calibrated square's mean side), before any card is read; None when the felt was not
        calibrated (`full`: the whole picture)."""
        if self.method == "full":
            return None
        c = np.array(self.corners, dtype=np.float64)
        side = float(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1).mean())
        return CARD_LENGTH_CM / self.side_cm * side

    def scaled(self, image_size: tuple[int, int]) -> TableGeometry:
        """The same table in a picture of another size (e.g. the detector's lores stream)."""
        if tuple(image_size) == tuple(self.image_size):
            return self
        sx = image_size[0] / self.image_size[0]
        sy = image_size[1] / self.image_size[1]
        corners = tuple((x * sx, y * sy) for x, y in self.corners)
        return replace(self, corners=corners, image_size=tuple(image_size))  # type: ignore[arg-type]

    def to_config(self) -> dict[str, object]:
        """The `geometry:` section of the config file."""
        return {
            "image_size": list(self.image_size),
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "trick_size": self.trick_size,
            "edge": self.edge,
            "method": self.method,
            "side_cm": self.side_cm,
        }

    @classmethod
    def from_config(cls, cfg: object, image_size: tuple[int, int]) -> TableGeometry:
        """From a `GeometryConfig` (or anything with its fields); no corners → the full picture."""
        corners = getattr(cfg, "corners", None)
        trick = float(getattr(cfg, "trick_size", 0.08))
        edge = float(getattr(cfg, "edge", 0.0))
        if not corners:
            g = cls.full(image_size)
            return TableGeometry(g.corners, g.image_size, trick, edge, "full")
        size = tuple(getattr(cfg, "image_size", None) or image_size)
        pts = tuple(tuple(map(float, p)) for p in corners)
        side_cm = float(getattr(cfg, "side_cm", TABLE_CM))
        g = cls(pts, size, trick, edge, str(getattr(cfg, "method", "manual")),  # type: ignore[arg-type]
                side_cm)
        return g.scaled(image_size)

    def draw(self, image: np.ndarray) -> np.ndarray:
        """A copy of the picture with the felt, the trick square and the seat names drawn on."""
        import cv2

        out = image.copy()
        hom: tuple[float, ...] = self._h  # type: ignore[attr-defined]
        inv = np.linalg.inv(np.array(hom, dtype=np.float64).reshape(3, 3))

        def px(u: float, v: float) -> tuple[int, int]:
            x, y, w = inv @ np.array([u, v, 1.0])
            return (round(x / w), round(y / w))

        a, b = 0.5 - self.trick_size / 2, 0.5 + self.trick_size / 2
        for (lo, hi), colour in (((0.0, 1.0), (0, 255, 255)), ((a, b), (255, 0, 255))):
            square = np.array([px(lo, lo), px(hi, lo), px(hi, hi), px(lo, hi)])
            cv2.polylines(out, [square], True, colour, 2)
        labels = {"N": (0.5, 0.1), "S": (0.5, 0.9), "W": (0.1, 0.5), "E": (0.9, 0.5)}
        for seat, (u, v) in labels.items():
            cv2.putText(out, seat, px(u, v), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 255, 255), 3)
        return out


def _homography(src: np.ndarray, dst: np.ndarray) -> np.ndarray:
    """The 3x3 perspective transform taking 4 src points to 4 dst points (DLT, h33 = 1)."""
    rows, rhs = [], []
    for (x, y), (u, v) in zip(src, dst, strict=True):
        rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y])
        rows.append([0, 0, 0, x, y, 1, -v * x, -v * y])
        rhs += [u, v]
    try:
        sol = np.linalg.solve(np.array(rows), np.array(rhs))
    except np.linalg.LinAlgError:
        raise CalibrationError("the 4 corners are degenerate (three on one line?)") from None
    return np.append(sol, 1.0).reshape(3, 3)


def calibrate_aruco(image: np.ndarray, **kw: float) -> TableGeometry:
    """Corners and seats from ArUco markers 0-3 (DICT_4X4_50) at the felt's SW, SE, NE, NW."""
    import cv2

    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    marker_corners, ids, _rejected = detector.detectMarkers(gray)
    found: dict[int, Point] = {}
    for quad, marker_id in zip(marker_corners, [] if ids is None else ids.ravel(), strict=False):
        if int(marker_id) in ARUCO_IDS:
            cx, cy = quad.reshape(4, 2).mean(axis=0)
            found[ARUCO_IDS[int(marker_id)]] = (float(cx), float(cy))
    if len(found) != 4:
        missing = sorted(set(ARUCO_IDS) - {k for k, v in ARUCO_IDS.items() if v in found})
        raise CalibrationError(f"ArUco markers {missing} not seen (need ids 0-3 at SW SE NE NW)")
    h, w = image.shape[:2]
    corners = tuple(found[i] for i in range(4))
    return TableGeometry(corners, (w, h), method="aruco", **kw)  # type: ignore[arg-type]


def calibrate_felt(image: np.ndarray, bottom: str = "S", **kw: float) -> TableGeometry:
    """Corners from the largest green (or dark) quadrilateral; `bottom` is the seat nearest the
    bottom edge of the picture."""
    import cv2

    h, w = image.shape[:2]
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    green = cv2.inRange(hsv, (35, 50, 30), (90, 255, 255))
    dark = cv2.inRange(hsv, (0, 0, 0), (180, 255, 60))
    kernel = np.ones((7, 7), np.uint8)
    for mask in (green, dark):
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel)
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if not contours:
            continue
        biggest = max(contours, key=cv2.contourArea)
        if cv2.contourArea(biggest) < 0.1 * w * h:
            continue
        hull = cv2.convexHull(biggest)
        quad = cv2.approxPolyDP(hull, 0.02 * cv2.arcLength(hull, True), True).reshape(-1, 2)
        if len(quad) != 4:
            quad = cv2.boxPoints(cv2.minAreaRect(biggest))
        return TableGeometry.from_picture_corners(
            _picture_order(quad), (w, h), bottom, method="felt", **kw
        )
    raise CalibrationError("no felt found (no green or dark area covering a tenth of the picture)")


def _picture_order(quad: np.ndarray) -> list[Point]:
    """Sort 4 points as bottom-left, bottom-right, top-right, top-left in the picture."""
    pts = [(float(x), float(y)) for x, y in quad]
    cx = sum(p[0] for p in pts) / 4
    cy = sum(p[1] for p in pts) / 4
    # Angle with y flipped upwards: BL (-135°) < BR (-45°) < TR (45°) < TL (135°).
    pts.sort(key=lambda p: float(np.arctan2(-(p[1] - cy), p[0] - cx)))
    bl = max(pts, key=lambda p: (p[1] - cy) - (p[0] - cx))
    i = pts.index(bl)
    return pts[i:] + pts[:i]


def calibrate(
    image: np.ndarray,
    method: str = "auto",
    *,
    bottom: str = "S",
    corners: Sequence[Point] | None = None,
    **kw: float,
) -> TableGeometry:
    """One entry point: `auto` tries ArUco markers, then the felt; `manual` needs `corners`
    (picture order: bottom-left, bottom-right, top-right, top-left)."""
    h, w = image.shape[:2]
    if method == "manual":
        if not corners or len(corners) != 4:
            raise CalibrationError("manual calibration needs 4 corners: BL BR TR TL as x,y")
        return TableGeometry.from_picture_corners(corners, (w, h), bottom, method="manual", **kw)
    if method == "full":
        g = TableGeometry.full((w, h), bottom)
        return TableGeometry(g.corners, g.image_size, method="full", **kw)
    if method == "aruco":
        return calibrate_aruco(image, **kw)
    if method == "felt":
        return calibrate_felt(image, bottom, **kw)
    if method != "auto":
        raise CalibrationError(f"unknown method {method!r}: auto, aruco, felt, manual or full")
    try:
        return calibrate_aruco(image, **kw)
    except CalibrationError as aruco_error:
        try:
            return calibrate_felt(image, bottom, **kw)
        except CalibrationError as felt_error:
            raise CalibrationError(f"{aruco_error}; {felt_error}") from None
