"""`belote detect` / `belote eval` from the command line: JSON shape, readable list, bad input."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from fake_onnx import raw_output, write_fake_classifier, write_fake_model

from device.cli import main

pytest.importorskip("onnx")


@pytest.fixture
def model(tmp_path: Path) -> Path:
    raw = raw_output([(16, 16, 8, 12, {"JH": 0.97, "JD": 0.3}), (40, 40, 8, 12, {"7S": 0.8})])
    return write_fake_model(tmp_path / "fake.onnx", raw, size=64)


@pytest.fixture
def image(tmp_path: Path) -> Path:
    path = tmp_path / "table.jpg"
    cv2.imwrite(str(path), np.full((64, 64, 3), 90, np.uint8))
    return path


def test_json_line_per_image_with_the_path_as_given(model, image, capsys, monkeypatch):
    monkeypatch.chdir(image.parent)
    args = ["detect", "table.jpg", "table.jpg", "--json", "--model", str(model), "--one-stage"]
    assert main(args) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    record = json.loads(lines[0])
    assert record["image"] == "table.jpg"
    assert [c["card"] for c in record["cards"]] == ["JH", "7S"]
    first = record["cards"][0]
    assert set(first) == {"card", "confidence", "box"}
    assert first["confidence"] == pytest.approx(0.97)
    assert first["box"] == pytest.approx([12, 10, 20, 22])


def test_readable_list_and_annotated_copy(model, image, capsys, tmp_path):
    out = tmp_path / "annotated"
    args = ["detect", str(image), "--model", str(model), "--annotate", str(out), "--one-stage"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "2 cards" in text and "JH  0.97" in text and "else JD 0.30" in text and "7S" in text
    drawn = cv2.imread(str(out / "table.jpg"))
    assert drawn is not None and drawn.shape == (64, 64, 3)
    assert not np.array_equal(drawn, cv2.imread(str(image)))  # boxes were drawn


def test_unreadable_image_is_one_line_exit_2_and_others_still_read(model, image, capsys, tmp_path):
    junk = tmp_path / "junk.jpg"
    junk.write_text("not an image")
    code = main(
        [
            "detect",
            str(junk),
            str(tmp_path / "gone.jpg"),
            str(image),
            "--json",
            "--model",
            str(model),
        ]
    )
    captured = capsys.readouterr()
    assert code == 2
    assert "Traceback" not in captured.err
    assert f"{junk}: not a readable image" in captured.err
    assert "gone.jpg: no such file" in captured.err
    assert len(captured.out.splitlines()) == 1  # the good image still gets its line


def test_missing_model_is_one_line_exit_2(image, capsys, tmp_path):
    assert main(["detect", str(image), "--model", str(tmp_path / "none.onnx")]) == 2
    err = capsys.readouterr().err
    assert "none.onnx: model not found" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_eval_prints_card_set_scores(model, image, capsys, tmp_path):
    labels = {"images": {image.name: [{"card": "JH", "box": [12, 10, 20, 22]}]}}
    (tmp_path / "labels.json").write_text(json.dumps(labels))
    labels_json = str(tmp_path / "labels.json")
    code = main(["eval", "--model", str(model), "--set", labels_json, "--json", "--one-stage"])
    assert code == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["recall"] == 1.0
    assert summary["precision"] == 0.5  # 7S is not in the photo
    assert summary["perfect"] == 0.0
    assert {"true": "nothing", "predicted": "7S", "count": 1} in summary["confusions"]


def test_by_default_the_classifier_names_each_box(model, image, capsys, tmp_path):
    classifier = write_fake_classifier(tmp_path / "cls.onnx", {"QC": 0.9})
    args = ["detect", str(image), "--json", "--model", str(model), "--classifier", str(classifier)]
    assert main(args) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    # Both boxes read as QC; a deck holds one QC, so it is reported once.
    assert [c["card"] for c in cards] == ["QC"]
    assert cards[0]["confidence"] == pytest.approx(0.9, abs=1e-3)
    veto = write_fake_classifier(tmp_path / "veto.onnx", {"none": 0.9})
    assert main([*args[:-1], str(veto)]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == []


def test_a_still_picture_reads_by_its_own_rules_unless_a_bar_is_given(
        model, image, capsys, tmp_path):
    def cards(probs: dict[str, float], *extra: str) -> list[str]:
        classifier = write_fake_classifier(tmp_path / "cls.onnx", probs)
        assert main(["detect", str(image), "--json", "--model", str(model),
                     "--classifier", str(classifier), *extra]) == 0
        return [c["card"] for c in json.loads(capsys.readouterr().out)["cards"]]

    clear = {"QC": 0.45, "QS": 0.2, "none": 0.001}
    assert cards(clear) == ["QC"]
    assert cards(clear, "--min-prob", "0.5") == []  # the bar given is the only one
    assert cards({"QC": 0.45, "QS": 0.3, "none": 0.001}) == []  # QS too close behind
    hint_of_a_six = {"QC": 0.55, "none": 0.2}  # "none" at over a fifth of the reading
    assert cards(hint_of_a_six) == []
    assert cards(hint_of_a_six, "--min-prob", "0.5") == ["QC"]


def test_a_missing_classifier_given_by_name_is_one_line_exit_2(model, image, capsys, tmp_path):
    args = ["detect", str(image), "--model", str(model), "--classifier", str(tmp_path / "no.onnx")]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "no.onnx" in err and "Traceback" not in err


def test_a_missing_still_picture_box_model_is_one_line_exit_2(model, image, capsys, tmp_path):
    classifier = write_fake_classifier(tmp_path / "cls.onnx", {"QC": 0.9})
    args = ["detect", str(image), "--json", "--model", str(model), "--classifier", str(classifier)]
    assert main([*args, "--still-boxes", str(tmp_path / "gone.onnx")]) == 2
    err = capsys.readouterr().err
    assert "gone.onnx" in err and "Traceback" not in err
    assert main([*args, "--still-boxes", "none"]) == 0
    assert [c["card"] for c in json.loads(capsys.readouterr().out)["cards"]] == ["QC"]


def test_the_second_look_at_a_still_picture_comes_with_the_shipped_box_model_only(tmp_path):
    import argparse

    from device.commands.reading import still_box_model
    from vision.detector import DEFAULT_STILL_BOX_MODEL

    def chosen(model: object, still_boxes: str | None = None, one_stage: bool = False) -> object:
        args = argparse.Namespace(still_boxes=still_boxes, one_stage=one_stage)
        return still_box_model(args, model)  # type: ignore[arg-type]

    assert DEFAULT_STILL_BOX_MODEL.is_file()  # shipped beside the box model
    assert chosen(None) == DEFAULT_STILL_BOX_MODEL
    assert chosen(tmp_path / "other_boxes.onnx") is None  # a box model under test is read alone
    assert chosen(None, "none") is None and chosen(None, one_stage=True) is None
    given = tmp_path / "b.onnx"
    given.write_bytes(b"x")
    assert chosen(tmp_path / "other_boxes.onnx", str(given)) == given


def test_eval_names_a_missing_set(model, capsys, tmp_path):
    assert main(["eval", "--model", str(model), "--set", str(tmp_path / "nope")]) == 2
    assert "nope: evaluation set not found" in capsys.readouterr().err


def test_bench_reports_both_models_the_ratio_and_memory(model, image, capsys, tmp_path):
    stock = write_fake_model(
        tmp_path / "stock.onnx",
        np.zeros((1, 84, 8), np.float32),
        size=128,
        names=tuple(f"c{i}" for i in range(80)),
    )
    classifier = write_fake_classifier(tmp_path / "cls.onnx", {"QC": 0.9})
    args = ["bench", "--model", str(model), "--baseline", str(stock), "--image", str(image)]
    args += ["--classifier", str(classifier)]
    assert main([*args, "--frames", "5", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["input"] == "64x64"
    assert result["ms_per_frame_inference"] > 0 and result["stock_yolo11n_640_ms"] > 0
    assert result["speedup"] > 0  # (times of a fake model are too small to check the division)
    assert result["detect_peak_rss_mb"] > 10
    assert result["two_stage_ms_per_frame"] > 0  # the classifier timed as the second stage
    assert result["two_stage_boxes"] == 2 and result["two_stage_classifier_turns"] == 4
