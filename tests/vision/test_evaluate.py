"""Card-set scoring of detections against truth, and reading evaluation sets."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.detections import CLASS_NAMES, Detection
from vision.evaluate import MISSED, NOTHING, SetError, Truth, evaluate, load_set, score_image

BOX_A = (0.0, 0.0, 10.0, 15.0)
BOX_B = (50.0, 50.0, 60.0, 65.0)
BOX_C = (100.0, 0.0, 110.0, 15.0)


def det(card: str, box=BOX_A, conf: float = 0.9) -> Detection:
    return Detection(card, conf, box)


def test_perfect_reading():
    truth = Truth(Path("a.jpg"), (("JH", BOX_A), ("9S", BOX_B)))
    result, confusions, _ = score_image(truth, [det("JH"), det("9S", BOX_B)])
    assert (result.precision, result.recall, result.perfect) == (1.0, 1.0, True)
    assert confusions == []


def test_a_misread_card_costs_precision_and_recall_and_is_a_confusion():
    truth = Truth(Path("a.jpg"), (("JH", BOX_A), ("9S", BOX_B)))
    result, confusions, _ = score_image(truth, [det("JD"), det("9S", BOX_B)])
    assert result.precision == 0.5 and result.recall == 0.5 and not result.perfect
    assert confusions == [("JH", "JD")]


def test_missed_and_invented_cards():
    truth = Truth(Path("a.jpg"), (("JH", BOX_A), ("9S", BOX_B)))
    result, confusions, _ = score_image(truth, [det("JH"), det("7C", BOX_C)])
    assert result.recall == 0.5 and result.precision == 0.5
    assert sorted(confusions) == sorted([(NOTHING, "7C"), ("9S", MISSED)])


def test_a_card_the_set_cannot_contain_is_a_false_positive():
    # Photos with ranks 9..A only: a 7 reported is wrong even where a card is.
    truth = Truth(Path("a.jpg"), (("9H", BOX_A),))
    result, _, _ = score_image(truth, [det("9H"), det("7H", BOX_B)])
    assert result.precision == 0.5 and result.recall == 1.0


def test_empty_image_read_as_empty_is_perfect():
    result, _, _ = score_image(Truth(Path("a.jpg"), ()), [])
    assert (result.precision, result.recall, result.perfect) == (1.0, 1.0, True)


def test_hidden_cards_are_neither_right_nor_wrong():
    truth = Truth(Path("a.jpg"), (("JH", BOX_A),), dont_care=frozenset({"KS"}))
    result, _, _ = score_image(truth, [det("JH"), det("KS", BOX_B)])
    assert result.perfect and result.predicted == ["JH"]


def test_decoys_reported_as_belote_cards_are_counted():
    truth = Truth(Path("a.jpg"), (("JH", BOX_A),), decoys=(("back", BOX_B), ("2S", BOX_C)))
    result, _, hits = score_image(truth, [det("JH"), det("AS", BOX_B)])
    assert hits == 1
    assert result.precision == 0.5


def test_evaluate_averages_over_images_and_counts_confusions():
    truths = [
        Truth(Path("1.jpg"), (("JH", BOX_A),)),
        Truth(Path("2.jpg"), (("QS", BOX_A), ("KS", BOX_B))),
    ]
    answers = {"1.jpg": [det("JH")], "2.jpg": [det("QC")]}
    report = evaluate("t", truths, lambda p: answers[p.name], progress=False)
    assert report.recall == pytest.approx((1.0 + 0.0) / 2)
    assert report.precision == pytest.approx((1.0 + 0.0) / 2)
    assert report.perfect == pytest.approx(0.5)
    summary = report.summary()
    assert {"true": "QS", "predicted": "QC", "count": 1} in summary["confusions"]
    assert summary["images"] == 2 and summary["cards"] == 3


def test_summary_counts_cards_read_and_false_over_the_whole_set():
    """The per-image averages weigh a one-card photo like a four-card one; the counts do not."""
    truths = [
        Truth(Path("1.jpg"), (("JH", BOX_A),)),
        Truth(Path("2.jpg"), (("QS", BOX_A), ("KS", BOX_B), ("9D", BOX_C))),
    ]
    answers = {"1.jpg": [], "2.jpg": [det("QS"), det("KS", BOX_B), det("9D", BOX_C),
                                      det("7C", (0, 30, 10, 45))]}
    summary = evaluate("t", truths, lambda p: answers[p.name], progress=False).summary()
    assert (summary["cards_read"], summary["cards_false"]) == (3, 1)
    assert summary["recall"] == pytest.approx(0.5)  # (0 + 1) / 2 images, but 3 of 4 cards


def test_a_set_of_several_designs_is_also_scored_design_by_design():
    truths = [
        Truth(Path("1.jpg"), (("JH", BOX_A),), decoys=(("back", BOX_B),), design="heruka"),
        Truth(Path("2.jpg"), (("QS", BOX_A),), decoys=(("6C", BOX_B),), design="svgcards"),
        Truth(Path("3.jpg"), (("KS", BOX_A),), design="svgcards"),
    ]
    answers = {"1.jpg": [det("JH"), det("7C", BOX_B)], "2.jpg": [det("QS")], "3.jpg": []}
    summary = evaluate("t", truths, lambda p: answers[p.name], progress=False).summary()
    assert summary["designs"] == {
        "heruka": {"images": 1, "precision": 0.5, "recall": 1.0, "perfect": 0.0, "decoys": 1,
                   "decoy_reports": 1},
        "svgcards": {"images": 2, "precision": 1.0, "recall": 0.5, "perfect": 0.5, "decoys": 1,
                     "decoy_reports": 0},
    }
    one = evaluate("t", truths[1:2], lambda p: answers[p.name], progress=False).summary()
    assert one["designs"] == {}  # one design: the set's own lines say it all


def test_load_labels_json(tmp_path: Path):
    (tmp_path / "images").mkdir()
    labels = {"images": {"p.jpg": [{"card": "TD", "box": [1, 2, 30, 40]}]}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    (truth,) = load_set(tmp_path)
    assert truth.image == tmp_path / "images" / "p.jpg"
    assert truth.cards == (("TD", (1.0, 2.0, 30.0, 40.0)),)


def test_load_labels_json_names_a_bad_card(tmp_path: Path):
    (tmp_path / "labels.json").write_text(json.dumps({"images": {"p.jpg": [{"card": "2H"}]}}))
    with pytest.raises(SetError, match=r"p\.jpg"):
        load_set(tmp_path / "labels.json")


def _yolo_set(root: Path, meta: bool) -> None:
    for sub in ("images/val", "labels/val", "meta"):
        (root / sub).mkdir(parents=True)
    cv2.imwrite(str(root / "images/val/val_000000.jpg"), np.zeros((100, 200, 3), np.uint8))
    jh = CLASS_NAMES.index("JH")
    (root / "labels/val/val_000000.txt").write_text(f"{jh} 0.25 0.5 0.1 0.3\n")
    (root / "data.yaml").write_text(f"path: {root}\ntrain: images/train\nval: images/val\n")
    if meta:
        row = {
            "image": "images/val/val_000000.jpg",
            "design": "gnome-ancient_french",
            "cards": [
                {"card": "JH", "box": [40, 35, 60, 65], "visible": 1.0, "labelled": True},
                {"card": "QH", "box": [0, 0, 20, 30], "visible": 0.1, "labelled": False},
                {"card": "back", "box": [100, 0, 130, 40], "visible": 0.9, "labelled": False},
                {"card": "JOKER_RED", "box": [150, 0, 180, 40], "visible": 0.2, "labelled": False},
            ],
        }
        (root / "meta/val.jsonl").write_text(json.dumps(row) + "\n")


def test_load_yolo_set_from_labels(tmp_path: Path):
    _yolo_set(tmp_path, meta=False)
    (truth,) = load_set(tmp_path / "data.yaml")
    ((card, box),) = truth.cards
    assert card == "JH"
    assert box == pytest.approx((40, 35, 60, 65))


def test_load_yolo_set_with_render_meta_adds_decoys_and_hidden_cards(tmp_path: Path):
    _yolo_set(tmp_path, meta=True)
    (truth,) = load_set(tmp_path)
    assert [c for c, _ in truth.cards] == ["JH"]
    assert truth.dont_care == {"QH"}
    assert [c for c, _ in truth.decoys] == ["back"]  # the barely visible joker is not counted
    assert truth.design == "gnome-ancient_french"


def test_missing_set_is_named(tmp_path: Path):
    with pytest.raises(SetError, match="nowhere: evaluation set not found"):
        load_set(tmp_path / "nowhere")
