"""Table geometry: zones, perspective, calibration from ArUco markers, the felt, or by hand."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.cli import main as belote
from device.config import GeometryConfig, load_config
from vision.geometry import (
    CalibrationError,
    TableGeometry,
    calibrate,
    calibrate_aruco,
    calibrate_felt,
)


@pytest.mark.parametrize("point, zone", [
    ((400, 760), "S"), ((400, 40), "N"), ((760, 400), "E"), ((40, 400), "W"),
    ((400, 400), "trick"), ((420, 380), "trick"), ((-5, 400), "outside"), ((400, 801), "outside"),
    ((480, 330), "E"), ((470, 320), "N"),
])
def test_zones_of_a_table_filling_the_picture(point, zone) -> None:
    assert TableGeometry.full((800, 800)).zone(point) == zone


@pytest.mark.parametrize("bottom, at_bottom, at_right", [
    ("S", "S", "E"), ("N", "N", "W"), ("E", "E", "N"), ("W", "W", "S"),
])
def test_the_seat_at_the_bottom_turns_the_others_with_it(bottom, at_bottom, at_right) -> None:
    g = TableGeometry.full((800, 600), bottom)
    assert g.zone((400, 590)) == at_bottom and g.zone((790, 300)) == at_right
    # Around the table counterclockwise on screen: bottom, right, top, left = S, E, N, W rotated.
    order = [g.zone(p) for p in ((400, 590), (790, 300), (400, 10), (10, 300))]
    assert order in (["S", "E", "N", "W"], ["E", "N", "W", "S"], ["N", "W", "S", "E"],
                     ["W", "S", "E", "N"])


def test_perspective_maps_the_felt_corners_to_the_unit_square() -> None:
    # A felt seen at an angle: the far side (N, top) looks shorter.
    corners = ((100, 700), (700, 700), (560, 200), (240, 200))
    g = TableGeometry(corners, (800, 800))
    for (x, y), uv in zip(corners, [(0, 1), (1, 1), (1, 0), (0, 0)], strict=True):
        assert g.to_felt((x, y)) == pytest.approx(uv, abs=1e-9)
    # The felt's middle is where the diagonals cross, above the picture's halfway line.
    s = 300 / 460
    middle = (100 + 460 * s, 700 - 500 * s)
    assert g.to_felt(middle) == pytest.approx((0.5, 0.5))
    assert g.zone(middle) == "trick" and g.zone((400, 450)) == "S"
    assert g.zone((400, 690)) == "S" and g.zone((400, 210)) == "N"
    assert g.zone((80, 650)) == "outside"


def test_scaling_to_the_detector_picture_keeps_the_zones() -> None:
    g = TableGeometry.from_picture_corners([(100, 1000), (1800, 1000), (1800, 80), (100, 80)],
                                           (1920, 1080))
    small = g.scaled((640, 360))
    for x, y in ((950, 990), (1790, 540), (950, 540), (50, 540)):
        assert small.zone((x / 3, y / 3)) == g.zone((x, y))


def test_a_calibrated_felt_guesses_how_long_a_card_lies_on_it() -> None:
    # An 80 cm felt 800 px across: a card of 8.8 cm is about 88 px long; half the picture's
    # size, half as long. Not calibrated (the whole picture), no guess.
    g = TableGeometry((((0, 800), (800, 800), (800, 0), (0, 0))), (800, 800))
    assert g.card_length == pytest.approx(88)
    assert g.scaled((400, 400)).card_length == pytest.approx(44)
    seen_at_an_angle = TableGeometry(((100, 700), (700, 700), (560, 200), (240, 200)), (800, 800))
    assert 0.11 * 320 < seen_at_an_angle.card_length < 0.11 * 600
    assert TableGeometry.from_config(GeometryConfig(), (800, 800)).card_length is None
    # Markers on a 50 cm square in the middle of the table, 500 px apart: a card is 88 px too.
    markers = GeometryConfig(corners=[[150, 650], [650, 650], [650, 150], [150, 150]],
                             method="aruco", side_cm=50)
    assert TableGeometry.from_config(markers, (800, 800)).card_length == pytest.approx(88)


def test_config_round_trip() -> None:
    g = TableGeometry.from_picture_corners([(10, 350), (630, 350), (630, 10), (10, 10)],
                                           (640, 360), "E", trick_size=0.1)
    section = GeometryConfig.model_validate(g.to_config())
    back = TableGeometry.from_config(section, (640, 360))
    assert np.array(back.corners) == pytest.approx(np.array(g.corners))
    assert back.trick_size == 0.1 and back.side_cm == 80
    assert back.zone((320, 345)) == "E"
    default = TableGeometry.from_config(GeometryConfig(), (320, 180))
    assert default.zone((160, 179)) == "S"


def _table_with_markers(rotate: bool) -> tuple[np.ndarray, dict[int, tuple[float, float]]]:
    """A grey room, a green felt, ArUco markers 0-3 at its SW, SE, NE, NW corners."""
    image = np.full((600, 800, 3), 90, np.uint8)
    cv2.rectangle(image, (150, 100), (650, 500), (40, 120, 30), -1)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    # Picture corners BL, BR, TR, TL for ids 0-3 (S at the bottom); rotated, SW is bottom-right
    # and SE top-right: S sits on the right of the picture and N on the left.
    spots = [(150, 500), (650, 500), (650, 100), (150, 100)]
    if rotate:
        spots = spots[1:] + spots[:1]
    centres = {}
    for marker_id, (x, y) in enumerate(spots):
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, 60)
        white = np.full((80, 80), 255, np.uint8)
        white[10:70, 10:70] = marker
        image[y - 40 : y + 40, x - 40 : x + 40] = cv2.cvtColor(white, cv2.COLOR_GRAY2BGR)
        centres[marker_id] = (x - 0.5, y - 0.5)
    return image, centres


@pytest.mark.parametrize("rotate", [False, True])
def test_aruco_markers_give_corners_and_seats(rotate: bool) -> None:
    image, centres = _table_with_markers(rotate)
    g = calibrate_aruco(image)
    assert g.method == "aruco"
    for i in range(4):
        assert g.corners[i] == pytest.approx(centres[i], abs=1.5)
    if rotate:  # S on the right of the picture, N on the left
        assert g.zone((640, 300)) == "S" and g.zone((160, 300)) == "N"
    else:
        assert g.zone((400, 490)) == "S" and g.zone((640, 300)) == "E"


def test_missing_markers_are_named() -> None:
    image, _ = _table_with_markers(False)
    image[440:560, 590:710] = 90  # hide marker 1 (SE)
    with pytest.raises(CalibrationError, match=r"\[1\]"):
        calibrate_aruco(image)


def test_felt_outline_and_auto_fallback() -> None:
    image = np.full((480, 640, 3), 200, np.uint8)
    quad = np.array([[80, 440], [580, 420], [520, 60], [120, 80]], np.int32)
    cv2.fillPoly(image, [quad], (30, 110, 20))
    g = calibrate_felt(image, bottom="S")
    assert g.method == "felt"
    assert np.array(g.corners) == pytest.approx(quad.astype(float), abs=4)
    assert calibrate(image).method == "felt"  # no markers: the felt
    assert calibrate(image, bottom="W").zone((330, 430)) == "W"


def test_no_felt_and_bad_manual_corners_are_errors() -> None:
    blank = np.full((240, 320, 3), 200, np.uint8)
    with pytest.raises(CalibrationError, match="no felt"):
        calibrate(blank)
    with pytest.raises(CalibrationError, match="4 corners"):
        calibrate(blank, "manual")
    with pytest.raises(CalibrationError, match="degenerate"):
        calibrate(blank, "manual", corners=[(0, 0), (1, 1), (2, 2), (3, 3)])


def test_calibrate_command_saves_into_the_config(tmp_path, capsys) -> None:
    image, _ = _table_with_markers(False)
    picture = tmp_path / "table.png"
    cv2.imwrite(str(picture), image)
    config = tmp_path / "config.yaml"
    config.write_text("server:\n  port: 8123\n")
    preview = tmp_path / "preview.jpg"
    code = belote(["calibrate", "--source", str(picture), "--width", "800", "--save", str(config),
                   "--preview", str(preview), "--side-cm", "60"])
    assert code == 0
    assert "method: aruco" in capsys.readouterr().out
    loaded = load_config(config)
    assert loaded.server.port == 8123 and loaded.geometry.method == "aruco"
    assert loaded.geometry.side_cm == 60
    assert cv2.imread(str(preview)).shape == image.shape


@pytest.mark.parametrize("argv, words", [
    (["calibrate", "--source", "nowhere.mp4"], "not a camera"),
    (["calibrate", "--source", "x.png", "--method", "manual"], "needs --corners"),
    (["calibrate", "--source", "x.png", "--side-cm", "0"], "--side-cm must be above 0"),
])
def test_calibrate_command_errors(argv, words, capsys) -> None:
    assert belote(argv) == 2
    assert words in capsys.readouterr().err


def test_calibrate_rejects_malformed_corners(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        belote(["calibrate", "--source", "0", "--corners", "1,2 3"])
    assert exit_.value.code == 2
    assert "corners must be 4 points" in capsys.readouterr().err
