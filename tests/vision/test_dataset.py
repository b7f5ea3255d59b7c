"""The YOLO dataset writer and `belote render`: files, label lines, resumability, bad input."""

from __future__ import annotations

import argparse
import json

import cv2
import numpy as np
import pytest
import yaml
from tiny_deck import save_design, tiny_design

from device.commands import render as render_cmd
from vision.dataset import Job, render_one, write_dataset, yolo_lines
from vision.detections import CLASS_NAMES
from vision.render import CardLabel


@pytest.fixture()
def cache(tmp_path):
    root = tmp_path / "artwork"
    save_design(tiny_design("gnome-paris"), root)
    save_design(tiny_design("heruka"), root, held_out=True)
    textures = tmp_path / "textures"
    textures.mkdir()
    cv2.imwrite(str(textures / "felt.png"), np.full((64, 64, 3), (30, 110, 40), np.uint8))
    return root


def test_yolo_lines_are_normalised_and_only_for_labelled_cards():
    labels = [
        CardLabel("JH", (10, 20, 50, 80), (), 1.0, (), True),
        CardLabel("back", (0, 0, 10, 10), (), 1.0, (), False),
        CardLabel("7S", (0, 0, 10, 10), (), 0.1, (), False),
    ]
    (line,) = yolo_lines(labels, 100, 200)
    cls, cx, cy, w, h = line.split()
    assert int(cls) == CLASS_NAMES.index("JH")
    assert [float(v) for v in (cx, cy, w, h)] == pytest.approx([0.3, 0.25, 0.4, 0.3])


def test_yolo_lines_use_the_seen_box_when_asked():
    label = CardLabel("JH", (10, 20, 50, 80), (), 0.4, (), True, (10, 20, 30, 80))
    (whole,) = yolo_lines([label], 100, 200)
    (seen,) = yolo_lines([label], 100, 200, boxes="seen")
    assert [float(v) for v in whole.split()[1:]] == pytest.approx([0.3, 0.25, 0.4, 0.3])
    assert [float(v) for v in seen.split()[1:]] == pytest.approx([0.2, 0.25, 0.2, 0.3])


def test_seen_boxes_dataset_labels_them_and_keeps_both_in_meta(cache):
    out = cache.parent / "seen"
    write_dataset(out, ["gnome-paris"], ["heruka"], count=4, val_count=0, seed=5, size=160,
                  artwork=cache, textures=cache.parent / "textures", closeup=1.0, boxes="seen")
    for meta in (json.loads(x) for x in (out / "meta/train.jsonl").read_text().splitlines()):
        stem = meta["image"].split("/")[-1].removesuffix(".jpg")
        lines = [x for x in (out / "labels/train" / f"{stem}.txt").read_text().split("\n") if x]
        w, h = meta["size"]
        seen = [c["seen_box"] for c in meta["cards"] if c["labelled"]]
        for line, box in zip(lines, seen, strict=True):
            cx, cy = (float(v) for v in line.split()[1:3])
            assert cx * w == pytest.approx((box[0] + box[2]) / 2, abs=0.2)
            assert cy * h == pytest.approx((box[1] + box[3]) / 2, abs=0.2)
        for c in meta["cards"]:  # inside the whole card's box
            assert c["box"][0] - 0.1 <= c["seen_box"][0] and c["seen_box"][2] <= c["box"][2] + 0.1
    with pytest.raises(ValueError, match="boxes"):
        write_dataset(out, ["gnome-paris"], [], 1, 0, artwork=cache, boxes="visible")


def test_write_dataset_layout_and_labels(cache):
    out = cache.parent / "ds"
    data_yaml = write_dataset(
        out,
        ["gnome-paris"],
        ["heruka"],
        count=6,
        val_count=3,
        seed=3,
        size=160,
        artwork=cache,
        textures=cache.parent / "textures",
    )
    config = yaml.safe_load(data_yaml.read_text())
    assert [config["names"][i] for i in range(32)] == list(CLASS_NAMES)
    assert (out / config["train"]).is_dir() and (out / config["val"]).is_dir()
    assert len(list((out / "images/train").glob("*.jpg"))) == 6
    assert len(list((out / "labels/val").glob("*.txt"))) == 3
    metas = [json.loads(x) for x in (out / "meta/train.jsonl").read_text().splitlines()]
    assert len(metas) == 6 and {m["design"] for m in metas} == {"gnome-paris"}
    val = [json.loads(x) for x in (out / "meta/val.jsonl").read_text().splitlines()]
    assert {m["design"] for m in val} == {"heruka"}
    for meta in metas:
        stem = meta["image"].split("/")[-1].removesuffix(".jpg")
        lines = (out / "labels/train" / f"{stem}.txt").read_text().split("\n")
        lines = [x for x in lines if x]
        assert len(lines) == sum(c["labelled"] for c in meta["cards"])
        labelled = [c for c in meta["cards"] if c["labelled"]]
        assert all(c["card"] in CLASS_NAMES for c in labelled)
        assert len({c["card"] for c in labelled}) == len(labelled)  # one of each card
        w, h = meta["size"]
        image = cv2.imread(str(out / meta["image"]))
        assert image.shape[:2] == (h, w) and max(w, h) == 160
        for line in lines:
            values = [float(v) for v in line.split()[1:]]
            assert all(0 <= v <= 1 for v in values)


def test_rendering_is_deterministic_and_resumes(cache):
    job = Job(
        "train", ("gnome-paris",), 5, 160, cache.parent / "x", cache, cache.parent / "textures"
    )
    a = render_one(job, 4, {}, [])
    b = render_one(job, 4, {}, [])
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    out = cache.parent / "ds"
    write_dataset(out, ["gnome-paris"], [], 4, 0, artwork=cache, textures=cache.parent / "textures")
    first = (out / "images/train/train_000002.jpg").read_bytes()
    (out / "labels/train/train_000002.txt").unlink()
    write_dataset(out, ["gnome-paris"], [], 4, 0, artwork=cache, textures=cache.parent / "textures")
    assert (out / "images/train/train_000002.jpg").read_bytes() == first
    images = [json.loads(x)["image"] for x in (out / "meta/train.jsonl").read_text().splitlines()]
    assert images == [f"images/train/train_{i:06d}.jpg" for i in range(4)]  # once each, in order
    # A run killed after writing an image's files but before its meta line: the image is redone.
    meta = out / "meta/train.jsonl"
    meta.write_text("".join(x + "\n" for x in meta.read_text().splitlines() if "000001" not in x))
    write_dataset(out, ["gnome-paris"], [], 4, 0, artwork=cache, textures=cache.parent / "textures")
    assert len(meta.read_text().splitlines()) == 4 and "train_000001" in meta.read_text()


def test_far_views_show_the_whole_table_with_small_cards(cache):
    """`--far`: the device's view from above the table, cards about a tenth of the picture."""
    far = Job("train", ("gnome-paris",), 3, 320, cache.parent / "x", cache,
              cache.parent / "textures", closeup=0.0, far=1.0)
    near = Job("train", ("gnome-paris",), 3, 320, cache.parent / "x", cache,
               cache.parent / "textures", closeup=0.0, far=0.0)

    def card_sizes(job):
        sizes = []
        for i in range(12):
            image, labels, _ = render_one(job, i, {}, [])
            side = min(image.shape[:2])
            sizes += [max(lb.box[2] - lb.box[0], lb.box[3] - lb.box[1]) / side
                      for lb in labels if lb.labelled and lb.visible > 0.9]
        return sorted(sizes)

    far_sizes, near_sizes = card_sizes(far), card_sizes(near)
    assert far_sizes and near_sizes
    # Cards 0.07-0.14 of the picture tall; a turned card's box is wider, the camera zooms 1.1x.
    assert 0.06 <= far_sizes[0] and far_sizes[-1] <= 0.14 * 1.6
    assert far_sizes[len(far_sizes) // 2] < 0.6 * near_sizes[len(near_sizes) // 2]


def _overlap(a, b) -> float:
    """Share of the smaller box that the other covers."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    small = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return max(w, 0) * max(h, 0) / small


def test_pile_scenes_label_the_overlapping_cards(cache):
    """`--piles`: close-ups of two to four cards lying partly on one another at any angle."""
    job = Job("train", ("gnome-paris",), 5, 320, cache.parent / "x", cache,
              cache.parent / "textures", closeup=1.0, piles=1.0)
    named, overlapping = [], 0
    for i in range(12):
        _, labels, _ = render_one(job, i, {}, [])
        cards = [lb for lb in labels if lb.labelled]
        assert 1 <= len(labels) <= 4
        overlapping += any(_overlap(a.box, b.box) > 0.2
                           for k, a in enumerate(cards) for b in cards[k + 1:])
        named.append(len(cards))
    # Most piles keep two cards or more named and overlapping (a card wholly under another, or
    # with its corners out of the picture, is not labelled).
    assert overlapping >= 8 and max(named) >= 3


def test_piles_change_only_the_close_ups(cache):
    """A share of piles draws nothing for other scenes: datasets rendered before stay the same."""
    def images(piles):
        job = Job("train", ("gnome-paris",), 3, 160, cache.parent / "x", cache,
                  cache.parent / "textures", closeup=0.0, far=0.5, piles=piles)
        return [render_one(job, i, {}, [])[0] for i in range(4)]

    assert all(np.array_equal(a, b) for a, b in zip(images(0.0), images(1.0), strict=True))


def _args(**kw):
    parser = argparse.ArgumentParser()
    render_cmd.add_arguments(parser)
    argv = []
    for key, value in kw.items():
        flag = "--" + key.replace("_", "-")
        argv += (
            [flag]
            if value is True
            else [flag, *map(str, value if isinstance(value, list) else [value])]
        )
    return parser.parse_args(argv)


def test_cli_renders_a_dataset(cache, capsys):
    out = cache.parent / "cli"
    code = render_cmd.run(_args(out=out, count=2, val_count=1, size=128, artwork=cache))
    assert code == 0
    assert len(list((out / "images/train").iterdir())) == 2
    assert len(list((out / "images/val").iterdir())) == 1
    assert "data.yaml" in capsys.readouterr().err


def test_cli_lists_designs(cache, capsys):
    assert render_cmd.run(_args(list=True, artwork=cache)) == 0
    assert capsys.readouterr().out.split("\n")[:2] == ["gnome-paris", "heruka (held out)"]


@pytest.mark.parametrize(
    ("kw", "message"),
    [
        ({"designs": ["nope"]}, "unknown design(s) nope"),
        ({"count": -1}, "--count"),
        ({"closeup": 2}, "--closeup"),
        ({"far": -0.1}, "--far"),
        ({"piles": 1.5}, "--piles"),
        ({}, "nothing to do"),
    ],
)
def test_cli_bad_input_is_one_clear_line(cache, capsys, kw, message):
    code = render_cmd.run(_args(artwork=cache, **({"out": cache.parent / "o"} if kw else {}), **kw))
    err = capsys.readouterr().err
    assert code == 2 and message in err and "Traceback" not in err
    assert err.count("\n") == 1


def test_cli_without_artwork_says_how_to_fetch(tmp_path, capsys):
    code = render_cmd.run(_args(out=tmp_path / "o", artwork=tmp_path / "empty"))
    assert code == 2 and "--fetch-artwork" in capsys.readouterr().err
