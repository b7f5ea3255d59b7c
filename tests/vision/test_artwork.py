"""Artwork: normalising cards, reading GIMP patterns, the R/D/V redraw, held-out designs, fetch."""

from __future__ import annotations

import random
import shutil
import subprocess

import cv2
import numpy as np
import pytest
from tiny_deck import card_image, save_design, tiny_design

from vision import artwork
from vision import artwork_sources as src
from vision.corners import find_index_letter, redraw_french


def test_normalise_keeps_aspect_and_rounds_opaque_corners():
    card = card_image("KH")
    out = artwork.normalise(card, height=280)
    assert out.shape == (280, 200, 4)
    assert out[0, 0, 3] == 0 and out[140, 100, 3] == 255  # corner cut, middle opaque


def test_crop_to_alpha_removes_transparent_margin():
    image = np.zeros((50, 60, 4), np.uint8)
    image[10:30, 5:25] = 255
    assert src.crop_to_alpha(image).shape == (20, 20, 4)


def test_read_gimp_pattern(tmp_path):
    pixels = np.arange(4 * 3 * 3, dtype=np.uint8).reshape(4, 3, 3)  # RGB, 3 wide, 4 high
    name = b"test\x00"
    header = 24 + len(name)
    data = b"".join(v.to_bytes(4, "big") for v in (header, 1, 3, 4, 3)) + b"GPAT" + name
    (tmp_path / "p.pat").write_bytes(data + pixels.tobytes())
    image = src.read_gimp_pattern(tmp_path / "p.pat")
    assert image is not None and image.shape == (4, 3, 3)
    np.testing.assert_array_equal(image[:, :, ::-1], pixels)  # BGR out
    (tmp_path / "bad.pat").write_bytes(b"not a pattern at all....")
    assert src.read_gimp_pattern(tmp_path / "bad.pat") is None


def test_redraw_french_changes_only_the_corner_letters():
    card = artwork.normalise(card_image("K"), height=280)
    box = find_index_letter(card)
    assert box is not None
    _, _, x1, y1 = box
    assert x1 < 0.2 * card.shape[1] and y1 < 0.16 * card.shape[0]
    out = redraw_french(card, "K", random.Random(0))
    changed = np.nonzero(np.abs(out.astype(int) - card.astype(int)).sum(axis=2))
    h, w = card.shape[:2]
    in_corner = ((changed[0] < 0.25 * h) & (changed[1] < 0.25 * w)) | (
        (changed[0] > 0.75 * h) & (changed[1] > 0.75 * w)
    )
    assert len(changed[0]) > 50 and in_corner.all()


def test_redraw_leaves_a_card_without_an_index_alone():
    blank = artwork.normalise(card_image(""), height=280)
    assert find_index_letter(blank) is None
    np.testing.assert_array_equal(redraw_french(blank, "Q", random.Random(0)), blank)


def test_held_out_designs_and_their_twins_stay_out_of_training(tmp_path):
    for name in ("gnome-paris", "heruka", "gnome-ancient_french", "gnome-anglo-rdv"):
        save_design(tiny_design(name), tmp_path)
    assert artwork.training_designs(tmp_path) == ["gnome-anglo-rdv", "gnome-paris"]
    assert artwork.held_out_designs(tmp_path) == ["gnome-ancient_french", "heruka"]
    design = artwork.load_design("heruka", tmp_path)
    assert design.held_out and len(design.cards) == 32 and design.back is not None
    assert set(design.distractors) == {"2S", "JOKER_RED"}
    with pytest.raises(FileNotFoundError, match="nope"):
        artwork.load_design("nope", tmp_path)


def test_fetch_skips_a_design_whose_package_is_missing(tmp_path, monkeypatch, capsys):
    def missing(package, downloads):
        raise src.SourceError(f"{package.name} not found")

    monkeypatch.setattr(src, "unpack", missing)
    ready = artwork.fetch(tmp_path / "artwork", designs=["cardsjs", "gnome-paris"])
    assert ready == []
    err = capsys.readouterr().err
    assert "design cardsjs skipped" in err and "design gnome-paris skipped" in err


def test_fetch_is_idempotent_for_designs_already_cached(tmp_path, monkeypatch):
    save_design(tiny_design("cardsjs"), tmp_path / "artwork")
    (tmp_path / "textures").mkdir()
    cv2.imwrite(str(tmp_path / "textures" / "felt.png"), np.zeros((8, 8, 3), np.uint8))
    monkeypatch.setattr(artwork, "RDV_TWINS", ())

    def no_network(package, downloads):
        raise AssertionError("fetch must not download what is cached")

    monkeypatch.setattr(src, "unpack", no_network)
    assert artwork.fetch(tmp_path / "artwork", designs=["cardsjs"]) == ["cardsjs"]


@pytest.mark.skipif(shutil.which("rsvg-convert") is None, reason="needs rsvg-convert")
def test_gnome_grid_cuts_thirteen_by_five(tmp_path):
    cells = []
    for row in range(5):
        for col in range(13):
            cells.append(
                f'<rect x="{col * 10 + 1}" y="{row * 14 + 1}" width="8" height="12" '
                f'fill="rgb({col * 15},{row * 50},7)"/>'
            )
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="130" height="70" '
        f'viewBox="0 0 130 70">{"".join(cells)}</svg>'
    )
    folder = tmp_path / "usr/share/aisleriot/cards"
    folder.mkdir(parents=True)
    (folder / "grid.svg").write_text(svg)
    subprocess.run(["gzip", "-S", "z", str(folder / "grid.svg")], check=True)  # grid.svgz
    cards = dict(src.gnome_grid(tmp_path, "grid", card_width=30))
    assert len(cards) == 4 * (8 + 5) + 3  # 7..A and 2..6 of 4 suits, 2 jokers, 1 back
    # King of hearts: column 12 (K), row 2 (hearts); colour encodes the cell.
    _, g, r = cards["KH"][cards["KH"].shape[0] // 2, cards["KH"].shape[1] // 2, :3]
    assert abs(int(r) - 180) <= 2 and abs(int(g) - 100) <= 2
    _, g, r = cards["TS"][5, 5, :3]
    assert abs(int(r) - 135) <= 2 and abs(int(g) - 150) <= 2
    assert cards["back"][5, 5, 1] == 200 and cards["back"][5, 5, 2] == 30
