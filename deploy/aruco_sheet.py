"""Print the four ArUco markers that calibrate the table (DICT_4X4_50, ids 0-3).

    python deploy/aruco_sheet.py --out deploy/markers      # markers.png (+ markers.pdf with Pillow)

One A4 page at 300 dpi with four markers, each labelled with the felt corner it goes on: id 0 at
South-West, 1 South-East, 2 North-East, 3 North-West (South is the player at the bottom of the
picture). Cut them out and tape each with its centre on that corner of the felt: the calibration
(`vision.geometry.calibrate_aruco`) takes the centre of each marker as the corner.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

DPI = 300
A4_MM = (210, 297)
CORNERS = {0: "SW", 1: "SE", 2: "NE", 3: "NW"}


def mm(value: float) -> int:
    return round(value / 25.4 * DPI)


def sheet(marker_mm: float = 60.0):  # -> np.ndarray
    """The page as a white grayscale image with the four markers and their labels."""
    import cv2
    import numpy as np

    w, h = mm(A4_MM[0]), mm(A4_MM[1])
    page = np.full((h, w), 255, np.uint8)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = mm(marker_mm)
    # Two columns, two rows, with room for the label and a cutting frame.
    cells = [(0, 1), (1, 1), (1, 0), (0, 0)]  # SW bottom-left, SE, NE, NW top-left
    for marker_id, (col, row) in zip(sorted(CORNERS), cells, strict=True):
        cx = w // 4 + col * (w // 2)
        cy = h // 4 + row * (h // 2)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
        x0, y0 = cx - side // 2, cy - side // 2
        page[y0 : y0 + side, x0 : x0 + side] = marker
        quiet = mm(8)  # the white border the detector needs, and where to cut
        cv2.rectangle(page, (x0 - quiet, y0 - quiet), (x0 + side + quiet, y0 + side + quiet),
                      200, 2)
        label = f"id {marker_id}: {CORNERS[marker_id]} corner"
        cv2.putText(page, label, (x0 - quiet, y0 + side + quiet + mm(9)),
                    cv2.FONT_HERSHEY_SIMPLEX, 2.2, 0, 5, cv2.LINE_AA)
        cv2.drawMarker(page, (cx, cy), 255, cv2.MARKER_CROSS, mm(4), 2)  # centre = the corner
    cv2.putText(page, f"Belote companion - ArUco DICT_4X4_50, {marker_mm:.0f} mm - print at 100%",
                (mm(10), mm(12)), cv2.FONT_HERSHEY_SIMPLEX, 1.6, 0, 3, cv2.LINE_AA)
    return page


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="markers", help="output path without suffix")
    parser.add_argument("--size-mm", type=float, default=60.0, help="marker side in millimetres")
    args = parser.parse_args(argv)
    if not 20 <= args.size_mm <= 90:
        print("aruco_sheet: --size-mm must be between 20 and 90", file=sys.stderr)
        return 2
    import cv2

    page = sheet(args.size_mm)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out.with_suffix(".png")), page)
    written = [out.with_suffix(".png")]
    try:
        from PIL import Image

        Image.fromarray(page).save(out.with_suffix(".pdf"), resolution=DPI)
        written.append(out.with_suffix(".pdf"))
    except ImportError:
        pass  # PNG only: print it at 300 dpi
    print("wrote " + ", ".join(map(str, written)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
