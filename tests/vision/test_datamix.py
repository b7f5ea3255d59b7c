"""A training mix lists a seeded sample of several datasets' images, without copying any."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from vision.datamix import MixError, Part, main, make_mix


def _dataset(root: Path, name: str, train: int, val: int) -> Path:
    d = root / name
    for split, n in (("train", train), ("val", val)):
        (d / "images" / split).mkdir(parents=True)
        for i in range(n):
            (d / "images" / split / f"{split}_{i:03d}.jpg").write_bytes(b"")
    (d / "data.yaml").write_text(yaml.safe_dump({"nc": 2, "names": {0: "7S", 1: "8S"}}))
    return d


def test_the_mix_samples_each_part_and_keeps_the_class_names(tmp_path) -> None:
    a = _dataset(tmp_path, "a", 10, 4)
    b = _dataset(tmp_path, "b", 6, 3)
    data = make_mix([Part(a, 5, 2), Part(b, 6, 1)], tmp_path / "mix", seed=1)
    train = (tmp_path / "mix" / "train.txt").read_text().splitlines()
    val = (tmp_path / "mix" / "val.txt").read_text().splitlines()
    assert len(train) == 11 and len(set(train)) == 11 and len(val) == 3
    assert sum(Path(p).parent == (a / "images" / "train").resolve() for p in train) == 5
    assert all(Path(p).exists() and "/val/" in p for p in val)
    described = yaml.safe_load(data.read_text())
    assert described["names"] == {0: "7S", 1: "8S"} and described["train"] == "train.txt"
    again = make_mix([Part(a, 5, 2), Part(b, 6, 1)], tmp_path / "mix2", seed=1)
    assert (again.parent / "train.txt").read_text() == "\n".join(train) + "\n"  # seeded


def test_bad_parts_are_named(tmp_path, capsys) -> None:
    a = _dataset(tmp_path, "a", 3, 1)
    with pytest.raises(MixError, match="asked for 4 images, it has 3"):
        make_mix([Part(a, 4, 1)], tmp_path / "mix")
    assert main(["--out", str(tmp_path / "m"), "--part", f"{a}:2"]) == 2
    assert "DATASET:TRAIN:VAL" in capsys.readouterr().err
    assert main(["--out", str(tmp_path / "m"), "--part", f"{tmp_path / 'none'}:1:1"]) == 2
    assert "no such folder" in capsys.readouterr().err
