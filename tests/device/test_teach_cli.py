"""`belote teach`: the deck memory taught from a picture of the 32 cards laid out; clear errors."""

from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from test_deck_teaching import MODELS, ReadsTheTruth
from tiny_deck import tiny_design

from device.cli import main
from vision.deck_memory import DeckMemory


@pytest.fixture
def layout_picture(tmp_path: Path) -> tuple[Path, list]:
    from vision.simulate import deck_layout

    image, truth = deck_layout(tiny_design(), (640, 480), 3, [])
    path = tmp_path / "layout.png"
    cv2.imwrite(str(path), image)
    return path, [(card, tuple(box)) for card, box in truth]


def test_it_teaches_the_memory_prints_the_layout_and_draws_it(layout_picture, tmp_path, capsys,
                                                              monkeypatch):
    pytest.importorskip("onnxruntime")
    from vision.detector import load_detector

    picture, truth = layout_picture
    box_model = load_detector(MODELS / "card_boxes.onnx", boxes=True)
    monkeypatch.setattr("device.commands.teach._models",
                        lambda config: (box_model, ReadsTheTruth(truth)))
    memory, preview = tmp_path / "deck.npz", tmp_path / "preview.jpg"
    memory.write_bytes(b"not a deck memory")  # (an unreadable file is replaced, with a note)
    assert main(["teach", "--source", str(picture), "--memory", str(memory),
                 "--preview", str(preview)]) == 0
    out = capsys.readouterr()
    assert "unreadable deck memory" in out.err
    rows = out.out.splitlines()
    assert len(rows) == 4 and all(len(row.split()) == 8 for row in rows)
    assert "32 cards taught" in out.err
    taught = DeckMemory(memory)
    assert taught.taught is not None and int((taught.counts > 0).sum()) == 32
    assert cv2.imread(str(preview)) is not None


def test_a_picture_without_the_layout_says_what_is_wrong(tmp_path, capsys):
    pytest.importorskip("onnxruntime")
    felt = tmp_path / "felt.png"
    cv2.imwrite(str(felt), np.full((480, 640, 3), (40, 110, 30), np.uint8))
    memory = tmp_path / "deck.npz"
    assert main(["teach", "--source", str(felt), "--memory", str(memory)]) == 1
    err = capsys.readouterr().err
    assert "found 0 cards" in err and "belote teach --help" in err and "Traceback" not in err
    assert not memory.exists()


def test_a_missing_picture_is_a_clear_error(tmp_path, capsys):
    assert main(["teach", "--source", str(tmp_path / "nowhere.png"),
                 "--memory", str(tmp_path / "deck.npz")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("teach:") and "nowhere.png" in err


def test_its_help_says_how_to_lay_the_cards(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["teach", "--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    assert "usage: belote teach" in out and "4 rows" in out and "7 8 9 10 J Q K A" in out
