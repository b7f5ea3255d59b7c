"""The second stage: crop geometry, crop labels, the ONNX classifier's output, and `refine`."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from vision.crops import CROP, LABELS, NONE, PAD, crops_of, jitter_box, square_crop
from vision.detections import CLASS_NAMES, Detection
from vision.two_stage import refine, refine_boxes

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "models" / "card_classifier.onnx"
HELD_OUT_DECK = ROOT / "cache" / "artwork" / "heruka"


def _table(box: tuple[int, int, int, int]) -> np.ndarray:
    """Green felt with one red 'card' filling `box`."""
    image = np.zeros((200, 300, 3), np.uint8)
    image[:] = (40, 140, 40)
    x0, y0, x1, y1 = box
    image[y0:y1, x0:x1] = (30, 30, 220)
    return image


def test_square_crop_keeps_the_card_centred_and_pads_the_short_side() -> None:
    crop = square_crop(_table((100, 40, 150, 120)), (100, 40, 150, 120))
    assert crop.shape == (CROP, CROP, 3)
    assert tuple(crop[CROP // 2, CROP // 2]) == (30, 30, 220)  # the card in the middle
    assert tuple(crop[CROP // 2, 0]) == (PAD, PAD, PAD)  # a tall box: grey left and right
    assert tuple(crop[0, CROP // 2]) == (30, 30, 220)  # ... and the card fills the height


def test_square_crop_of_a_box_past_the_edge_is_padded() -> None:
    image = _table((250, 150, 300, 200))
    crop = square_crop(image, (250, 150, 350, 250))  # half of it outside the image
    assert tuple(crop[5, 5]) == (30, 30, 220)
    assert tuple(crop[-5, -5]) == (PAD, PAD, PAD)
    assert square_crop(image, (400, 400, 500, 500)).std() == 0  # wholly outside: all grey


def test_jittered_boxes_stay_close_to_the_card() -> None:
    rng = random.Random(1)
    for _ in range(200):
        x0, y0, x1, y1 = jitter_box((100, 40, 150, 120), rng, amount=0.13)
        assert abs(x0 - 100) <= 0.13 * 50 + 1e-6 and abs(y1 - 120) <= 0.13 * 80 + 1e-6
        assert x1 > x0 and y1 > y0


def test_crops_label_cards_veto_backs_and_skip_unreadable_cards() -> None:
    image = _table((100, 40, 150, 120))
    cards = [
        {"card": "JH", "box": [100, 40, 150, 120], "visible": 1.0, "labelled": True},
        {"card": "back", "box": [10, 10, 60, 90], "visible": 0.9, "labelled": False},
        {"card": "2S", "box": [200, 10, 250, 90], "visible": 0.2, "labelled": False},
        {"card": "KS", "box": [160, 100, 210, 180], "visible": 0.1, "labelled": False},
    ]
    labels = [label for _, label in crops_of(image, cards, random.Random(0), per_card=3, felt=0)]
    assert labels == [CLASS_NAMES.index("JH")] * 3 + [NONE]
    assert LABELS[NONE] == "none" and len(LABELS) == 33


def test_crops_skip_cards_seen_less_than_min_visible() -> None:
    image = _table((100, 40, 150, 120))
    cards = [
        {"card": "JH", "box": [100, 40, 150, 120], "visible": 0.9, "labelled": True},
        {"card": "QS", "box": [10, 10, 60, 90], "visible": 0.2, "labelled": True},  # a fanned card
    ]
    rng = random.Random(0)
    kept = [label for _, label in crops_of(image, cards, rng, per_card=1, felt=0, min_visible=0.4)]
    assert kept == [CLASS_NAMES.index("JH")]
    every = [label for _, label in crops_of(image, cards, rng, per_card=1, felt=0)]
    assert every == [CLASS_NAMES.index("JH"), CLASS_NAMES.index("QS")]


def test_crops_of_seen_boxes_show_the_visible_strip() -> None:
    image = np.zeros((200, 300, 3), np.uint8)
    image[40:120, 100:120] = 255  # the strip of a fanned card left uncovered: white
    cards = [{"card": "QS", "box": [100, 40, 150, 120], "seen_box": [100, 40, 120, 120],
              "visible": 0.3, "labelled": True}]
    rng = random.Random(0)
    (whole, _), = crops_of(image, cards, rng, per_card=1, felt=0, size=64)
    (seen, label), = crops_of(image, cards, rng, per_card=1, felt=0, size=64, boxes="seen")
    assert label == CLASS_NAMES.index("QS")
    # The strip fills the middle of the seen crop; in the whole card's crop it is a part.
    assert seen[20:44, 28:36].mean() > 200 and seen.mean() > 1.5 * whole.mean()


class _Fixed:
    """A stand-in classifier returning given probability rows."""

    def __init__(self, rows: list[dict[str, float]]) -> None:
        self.rows = rows

    def probabilities(self, bgr: np.ndarray, boxes: object) -> np.ndarray:
        out = np.full((len(self.rows), len(LABELS)), 1e-4, np.float32)
        for i, row in enumerate(self.rows):
            for name, p in row.items():
                out[i, LABELS.index(name)] = p
        return out / out.sum(axis=1, keepdims=True)


def _det(card: str, x: float, conf: float = 0.5, alts: tuple = ()) -> Detection:
    return Detection(card, conf, (x, 10.0, x + 40, 70.0), alts)


def test_refine_drops_none_keeps_one_per_card_and_fills_alternatives() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    dets = [_det("JH", 0), _det("7S", 50), _det("JD", 100), _det("QC", 150)]
    reader = _Fixed(
        [
            {"JH": 0.8, "JD": 0.15},
            {"none": 0.9, "7S": 0.1},  # a back the detector took for a card
            {"JH": 0.6, "JD": 0.3},  # a second JH: the weaker one goes
            {"QC": 0.3, "QS": 0.3, "none": 0.4},  # unsure: below min_prob and none wins
        ]
    )
    out = refine(image, dets, reader, min_prob=0.5)  # type: ignore[arg-type]
    assert [d.card for d in out] == ["JH"]
    assert out[0].box == dets[0].box
    assert out[0].alternatives[0][0] == "JD"
    expected = reader.probabilities(image, None)[0, LABELS.index("JH")]
    assert out[0].confidence == pytest.approx(expected, abs=1e-6)


def test_refine_passes_weak_readings_on_unnamed_when_asked() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    dets = [_det("?", 0), _det("?", 50), _det("?", 100), _det("?", 150)]
    rows = [{"9S": 0.9, "none": 0.1}, {"9S": 0.37, "TS": 0.24, "8S": 0.06, "none": 0.2, "9C": 0.13},
            {"9C": 0.15, "9D": 0.15, "9H": 0.15, "8C": 0.15, "8D": 0.15, "7C": 0.15, "none": 0.1},
            {"QC": 0.3, "QS": 0.1, "none": 0.6}]
    assert [d.card for d in refine(image, dets, _Fixed(rows))] == ["9S"]  # type: ignore[arg-type]
    out = refine(image, dets, _Fixed(rows), weak_prob=0.2)  # type: ignore[arg-type]
    # Too weak to name (under min_prob) yet above none and weak_prob: unnamed, with its readings;
    # never counted as a card (confidence 0). Under weak_prob, or none first: dropped as before.
    assert [(d.card, d.confidence, d.box) for d in out] == [
        ("9S", pytest.approx(0.9, abs=0.01), dets[0].box), ("?", 0.0, dets[1].box)]
    assert [c for c, _p in out[1].alternatives] == ["9S", "TS", "9C", "8S"]
    assert out[1].alternatives[0][1] == pytest.approx(0.37, abs=0.01)


def test_a_box_the_box_model_is_sure_of_passes_on_its_card_shares_whatever_none_reads() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    plain_8c = {"none": 0.45, "8C": 0.3, "9C": 0.15, "8S": 0.1}  # svgcards' 8C, unseen deck
    back = {"none": 0.95, "8C": 0.03, "9C": 0.02}
    weak_9d = {"9D": 0.4, "TD": 0.2, "none": 0.2, "8D": 0.2}
    faint_8s = {"none": 0.68, "8S": 0.14, "9S": 0.05, "8C": 0.05, "7S": 0.04, "TS": 0.04}
    faint_8c = {"none": 0.65, "8C": 0.2, "9C": 0.08, "7C": 0.07}  # (seed 2203 deal 6)
    dets = [_det("?", 0, conf=0.8), _det("?", 50, conf=0.5), _det("?", 100, conf=0.8),
            _det("?", 150, conf=0.8), _det("?", 200, conf=0.5), _det("?", 250, conf=0.8),
            _det("?", 250, conf=0.5), _det("?", 300, conf=0.65)]
    reader = _Fixed([plain_8c, plain_8c, back, weak_9d, weak_9d, faint_8s, faint_8s, faint_8c])
    out = refine(image, dets, reader, weak_prob=0.2)  # type: ignore[arg-type]
    # The sure boxes read as a card would be: each card's share of the cards' readings, from
    # SURE_WEAK_PROB (bellot's 8S). The unsure boxes read mostly "none" are dropped, the back
    # too (its best card under SURE_WEAK_PROB). Sure from 0.6 (svgcards' 8C boxed at 0.67).
    assert [(d.card, d.confidence, d.box) for d in out] == [
        ("?", 0.0, dets[0].box), ("?", 0.0, dets[3].box), ("?", 0.0, dets[4].box),
        ("?", 0.0, dets[5].box), ("?", 0.0, dets[7].box)]
    assert out[4].alternatives[0] == ("8C", pytest.approx(0.2 / 0.35, abs=0.01))
    assert out[3].alternatives[0] == ("8S", pytest.approx(0.14 / 0.32, abs=0.01))
    shares = dict(out[0].alternatives)
    assert list(shares) == ["8C", "9C", "8S"]
    assert shares["8C"] == pytest.approx(0.3 / 0.55, abs=0.01)
    assert shares["9C"] == pytest.approx(0.15 / 0.55, abs=0.01)
    assert dict(out[1].alternatives)["9D"] == pytest.approx(0.5, abs=0.01)
    assert dict(out[2].alternatives)["9D"] == pytest.approx(0.4, abs=0.01)  # (as read)
    assert refine(image, dets, reader) == []  # type: ignore[arg-type]  # still pictures: dropped


def test_on_video_the_boxes_read_as_no_card_are_passed_on_unnamed_with_no_readings() -> None:
    from pathlib import Path

    from vision.two_stage import WEAK_PROB, TwoStage

    class Boxes:
        model = Path("m.onnx")

        def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
            return [_det("?", 0, conf=0.5), _det("?", 50, conf=0.5), _det("?", 100, conf=0.3)]

    rows = [{"JH": 0.9}, {"none": 0.9, "7S": 0.1}, {"9S": 0.37, "TS": 0.24, "none": 0.2}]
    image = np.zeros((100, 300, 3), np.uint8)
    video = TwoStage(Boxes(), _Fixed(rows), box_conf=0.1, weak_prob=WEAK_PROB)  # type: ignore[arg-type]
    found = [(d.card, d.box, [c for c, _p in d.alternatives]) for d in video.detect(image)]
    # A score pad or a back read as no card shows that something lies there (the tracker's
    # weak streaks and still objects), named nothing and read as nothing.
    assert found == [("JH", (0.0, 10.0, 40.0, 70.0), []),
                     ("?", (100.0, 10.0, 140.0, 70.0), ["9S", "TS"]),
                     ("?", (50.0, 10.0, 90.0, 70.0), [])]
    still = TwoStage(Boxes(), _Fixed(rows), box_conf=0.1)  # type: ignore[arg-type]
    assert [d.card for d in still.detect(image)] == ["JH"]


@pytest.mark.parametrize(("row", "named"), [  # (rows sum to 1)
    ({"9S": 0.45, "TS": 0.2, "8S": 0.18, "9C": 0.16, "none": 0.01}, True),  # clear
    ({"9S": 0.31, "TS": 0.15, "8S": 0.15, "9C": 0.14, "9D": 0.125, "9H": 0.125, "none": 0.001},
     True),
    ({"9S": 0.45, "TS": 0.25, "8S": 0.15, "9C": 0.14, "none": 0.01}, False),  # TS too close
    ({"9S": 0.45, "TS": 0.2, "8S": 0.17, "9C": 0.15, "none": 0.03}, False),  # a hint of a back
    ({"9S": 0.28, "TS": 0.1, "8S": 0.1, "9C": 0.1, "9D": 0.1, "9H": 0.1, "8C": 0.1, "7S": 0.119,
      "none": 0.001}, False),  # too weak however clear
])
def test_a_clear_reading_under_the_bar_is_named_only_when_asked(row, named) -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    dets = [_det("?", 0)]
    assert refine(image, dets, _Fixed([row])) == []  # type: ignore[arg-type]
    out = refine(image, dets, _Fixed([row]), still=True)  # type: ignore[arg-type]
    assert [d.card for d in out] == (["9S"] if named else [])
    if named:
        assert out[0].confidence == pytest.approx(row["9S"], abs=0.01)


def test_a_still_picture_names_no_card_whose_none_share_reaches_a_fifth_of_it() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    dets = [_det("?", 0), _det("?", 50), _det("?", 100)]
    rows = [{"7C": 0.55, "8C": 0.15, "none": 0.2, "9C": 0.1},  # a 6C? "none" at 0.36 of 7C
            {"7C": 0.7, "8C": 0.15, "none": 0.13, "9C": 0.02},  # "none" at 0.19: a card
            {"9D": 0.85, "none": 0.15}]  # "none" at 0.18: a card
    plain = refine(image, dets, _Fixed(rows))  # type: ignore[arg-type]
    assert sorted(d.card for d in plain) == ["7C", "9D"]  # (the two 7C readings: one kept)
    assert plain[1 - [d.card for d in plain].index("9D")].box == dets[1].box
    still = refine(image, [dets[0], dets[2]], _Fixed([rows[0], rows[2]]), still=True)  # type: ignore[arg-type]
    assert [d.card for d in still] == ["9D"]
    kept = refine(image, [dets[1]], _Fixed([rows[1]]), still=True)  # type: ignore[arg-type]
    assert [d.card for d in kept] == ["7C"]


def test_refine_can_weigh_the_detectors_reading() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    dets = [_det("KH", 0, conf=0.9, alts=(("KD", 0.05),))]
    reader = _Fixed([{"KD": 0.55, "KH": 0.45}])
    assert refine(image, dets, reader, min_prob=0.1)[0].card == "KD"  # type: ignore[arg-type]
    both = refine(image, dets, reader, min_prob=0.1, detector_weight=0.5)  # type: ignore[arg-type]
    assert both[0].card == "KH"


def test_refine_boxes_reads_class_agnostic_boxes() -> None:
    image = np.zeros((100, 300, 3), np.uint8)
    reader = _Fixed([{"AS": 0.9}, {"none": 0.95}])
    out = refine_boxes(image, [(0, 0, 40, 60), (50, 0, 90, 60)], reader)  # type: ignore[arg-type]
    assert [(d.card, d.box) for d in out] == [("AS", (0.0, 0.0, 40.0, 60.0))]


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An untrained CardNet exported to ONNX: enough to check shapes and probabilities."""
    pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    from vision.classifier_train import CardNet, export

    torch.manual_seed(0)
    folder = tmp_path_factory.mktemp("cls")
    torch.save({"model": CardNet().state_dict()}, folder / "tiny.pt")
    return export(folder / "tiny.pt", folder / "tiny.onnx")


def test_classifier_gives_ranked_probabilities_per_box(tiny_model: Path) -> None:
    from vision.classifier import CardClassifier

    classifier = CardClassifier(tiny_model)
    options = classifier.session.get_session_options()  # runs after the box model's session
    assert options.get_session_config_entry("session.intra_op.allow_spinning") == "0"
    image = _table((100, 40, 150, 120))
    boxes = [(100, 40, 150, 120), (0, 0, 30, 30), (250, 150, 320, 260)]
    probs = classifier.probabilities(image, boxes)
    assert probs.shape == (3, len(LABELS))
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    readings = classifier.classify(image, boxes, top=4)
    assert len(readings) == 3 and all(len(r) == 4 for r in readings)
    for r in readings:
        assert [p for _, p in r] == sorted((p for _, p in r), reverse=True)
        assert all(name in LABELS for name, _ in r)
    assert classifier.classify(image, []) == []


def test_a_128_px_classifier_exports_and_reads_large_crops(tmp_path: Path) -> None:
    pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    from vision.classifier import CardClassifier
    from vision.classifier_train import CardNet, export

    torch.save({"model": CardNet(crop=128).state_dict(), "crop": 128}, tmp_path / "big.pt")
    classifier = CardClassifier(export(tmp_path / "big.pt", tmp_path / "big.onnx"))
    assert classifier.size == 128
    probs = classifier.probabilities(_table((100, 40, 150, 120)), [(100, 40, 150, 120)])
    assert probs.shape == (1, len(LABELS))


def test_training_refuses_crop_folders_of_different_sizes(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    from vision.classifier_train import _load

    for name, side in (("a", 64), ("b", 128)):
        (tmp_path / name).mkdir()
        np.savez(tmp_path / name / "train.npz", x=np.zeros((2, side, side, 3), np.uint8), y=[0, 1])
    with pytest.raises(ValueError, match="mix crop sizes"):
        _load([tmp_path / "a", tmp_path / "b"], "train.npz")
    x, y = _load([tmp_path / "a", tmp_path / "a"], "train.npz")
    assert x.shape == (4, 64, 64, 3) and y.tolist() == [0, 1, 0, 1]


def test_a_128_px_run_starts_from_the_layers_a_64_px_model_shares(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    torch = pytest.importorskip("torch")
    from vision.classifier_train import CardNet, train

    rng = np.random.default_rng(0)
    for name in ("train.npz", "val.npz"):
        x = rng.integers(0, 255, (6, 128, 128, 3), dtype=np.uint8)
        np.savez(tmp_path / name, x=x, y=np.arange(6))
    small = CardNet(crop=64)
    torch.save({"model": small.state_dict()}, tmp_path / "small.pt")
    ckpt = train(tmp_path, tmp_path / "run", epochs=1, batch=4, lr=0.0, init=tmp_path / "small.pt")
    state = torch.load(ckpt, weights_only=False)
    assert state["crop"] == 128 and state["epoch"] == 0
    first = "features.0.0.weight"  # the stem: same shape in both, copied, unchanged at lr 0
    assert torch.equal(state["model"][first], small.state_dict()[first])
    assert state["model"]["head.1.weight"].shape == (len(LABELS), 256)
    assert "epoch 1/1" in capsys.readouterr().err  # the epoch's progress bar (2 batches)


def test_training_keeps_the_best_epoch_and_resumes_from_the_last(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from vision.classifier_train import train

    rng = np.random.default_rng(1)
    for name in ("train.npz", "val.npz"):
        x = rng.integers(0, 255, (8, 32, 32, 3), dtype=np.uint8)
        np.savez(tmp_path / name, x=x, y=np.arange(8) % 3)
    run = tmp_path / "run"
    train(tmp_path, run, epochs=2, batch=4, lr=1e-3)
    log = (run / "train.log").read_text().splitlines()
    accs = [float(line.split("val_acc ")[1].split()[0]) for line in log if "val_acc" in line]
    best = torch.load(run / "best.pt", weights_only=False)
    last = torch.load(run / "last.pt", weights_only=False)
    # best.pt is the first epoch reaching the highest held-out accuracy; last.pt carries it on
    assert best["epoch"] == accs.index(max(accs)) and last["epoch"] == 1
    assert last["best_acc"] == pytest.approx(max(accs), abs=1e-4)
    assert "opt" not in best  # weights only: what `export` needs
    train(tmp_path, run, epochs=3, batch=4, lr=1e-3)  # resumes at epoch 3
    assert torch.load(run / "last.pt", weights_only=False)["epoch"] == 2
    assert sum("val_acc" in line for line in (run / "train.log").read_text().splitlines()) == 3


def test_a_time_budget_shortens_the_run_to_the_epochs_that_fit(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    from vision.classifier_train import train

    rng = np.random.default_rng(2)
    for name in ("train.npz", "val.npz"):
        np.savez(tmp_path / name, x=rng.integers(0, 255, (8, 32, 32, 3), dtype=np.uint8),
                 y=np.arange(8) % 3)
    # a budget far under one epoch's time: the run stops after its first epoch, not at 50
    state = torch.load(train(tmp_path, tmp_path / "run", epochs=50, batch=4, hours=1e-9),
                       weights_only=False)
    assert state["epoch"] == 0 and state["epochs"] == 1
    assert "epoch 1/1 " in (tmp_path / "run" / "train.log").read_text()


def test_an_exported_classifier_is_rebuilt_into_a_trainable_net_computing_the_same(
    tmp_path: Path,
) -> None:
    ort = pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    from vision.classifier_rebuild import cardnet_from_onnx
    from vision.classifier_train import CardNet, export, prepare

    torch.manual_seed(1)
    net = CardNet(crop=64)
    for module in net.modules():  # BNs far from identity, as after training
        if isinstance(module, torch.nn.BatchNorm2d):
            module.running_mean.uniform_(-0.5, 0.5)
            module.running_var.uniform_(0.2, 3.0)
            module.weight.data.uniform_(0.5, 2.0)
            module.bias.data.uniform_(-0.3, 0.3)
    torch.save({"model": net.state_dict(), "crop": 64}, tmp_path / "m.pt")
    path = export(tmp_path / "m.pt", tmp_path / "m.onnx")
    rng = np.random.default_rng(0)
    sample, other = (rng.integers(0, 255, (n, 64, 64, 3), dtype=np.uint8) for n in (64, 8))

    rebuilt = cardnet_from_onnx(path, sample).eval()
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    want = session.run(None, {"crops": other.transpose(0, 3, 1, 2).astype(np.float32)})[0]
    with torch.no_grad():
        got = torch.softmax(rebuilt(prepare(other)), dim=1).numpy()
    np.testing.assert_allclose(got, want, atol=1e-4)
    # In training mode the BNs normalise by the batch: on the calibration sample that is the
    # same function, so a fine-tune starts from the exported model.
    rebuilt.train()
    rebuilt.head[0].p = 0.0
    with torch.no_grad():
        trained = torch.softmax(rebuilt(prepare(sample)), dim=1).numpy()
    expected = session.run(None, {"crops": sample.transpose(0, 3, 1, 2).astype(np.float32)})[0]
    np.testing.assert_allclose(trained, expected, atol=1e-3)
    with pytest.raises(ValueError, match="convolutions"):
        cardnet_from_onnx(path, rng.integers(0, 255, (4, 128, 128, 3), dtype=np.uint8))


def test_two_stage_reads_the_detectors_class_agnostic_boxes() -> None:
    from vision.two_stage import TwoStage

    class Boxes:
        def __init__(self) -> None:
            self.asked: list[float] = []

        def detect(self, bgr: np.ndarray, conf: float | None = None) -> list[Detection]:
            raise AssertionError("a detector with boxes() is asked for boxes")

        def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
            self.asked.append(conf)
            return [_det("AS", 0, conf=0.03), _det("AS", 60, conf=0.02)]

    source = Boxes()
    reader = TwoStage(source, _Fixed([{"7H": 0.9}, {"8H": 0.8}]), box_conf=0.02)  # type: ignore[arg-type]
    assert sorted(d.card for d in reader.detect(np.zeros((100, 300, 3), np.uint8))) == ["7H", "8H"]
    assert source.asked == [0.02]


def test_missing_model_is_named() -> None:
    from vision.classifier import CardClassifier

    with pytest.raises(FileNotFoundError, match=r"nowhere\.onnx"):
        CardClassifier("nowhere.onnx")


@pytest.mark.skipif(not SHIPPED.exists(), reason="models/card_classifier.onnx not trained yet")
@pytest.mark.skipif(not HELD_OUT_DECK.exists(), reason="held-out artwork not fetched (cache/)")
def test_shipped_model_reads_cards_of_a_deck_it_never_saw() -> None:
    import cv2

    from vision.classifier import CardClassifier

    classifier = CardClassifier(SHIPPED)
    names = ["AS", "KH", "QD", "JC", "TS", "9H", "8D", "7C"]
    right = 0
    for name in names:
        card = cv2.imread(str(HELD_OUT_DECK / f"{name}.png"), cv2.IMREAD_COLOR)
        h, w = card.shape[:2]
        image = np.full((h + 60, w + 60, 3), (40, 120, 40), np.uint8)
        image[30 : 30 + h, 30 : 30 + w] = card
        right += classifier.classify(image, [(30, 30, 30 + w, 30 + h)], top=1)[0][0][0] == name
    assert right >= 6, f"read {right} of {len(names)} held-out cards"


def test_with_classifier_wraps_only_our_model(tmp_path):
    """The second stage re-reads our model's boxes; scripted detectors pass through as they are."""
    from vision.classifier import DEFAULT_CLASSIFIER
    from vision.detector import DEFAULT_MODEL, load_detector
    from vision.two_stage import TwoStage, with_classifier

    class Scripted:
        def detect(self, bgr):
            return []

    scripted = Scripted()
    assert with_classifier(scripted) is scripted
    if not DEFAULT_MODEL.is_file() or not DEFAULT_CLASSIFIER.is_file():
        pytest.skip("shipped models missing")
    real = load_detector()
    assert isinstance(with_classifier(real), TwoStage)
    assert with_classifier(real, tmp_path / "missing.onnx") is real


def test_two_stage_reads_names_on_the_full_resolution_picture() -> None:
    from vision.two_stage import TwoStage

    class Boxes:
        def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
            assert bgr.shape == (100, 300, 3)  # boxes are found on the small picture
            return [_det("AS", 20)]  # (20, 10, 60, 70)

    class Seen(_Fixed):
        def probabilities(self, bgr: np.ndarray, boxes: object) -> np.ndarray:
            self.asked = (bgr.shape, [tuple(b) for b in boxes])  # type: ignore[attr-defined]
            return super().probabilities(bgr, boxes)

    classifier = Seen([{"QS": 0.9}])
    reader = TwoStage(Boxes(), classifier, box_conf=0.1, reads_main=True)  # type: ignore[arg-type]
    small, main = np.zeros((100, 300, 3), np.uint8), np.zeros((200, 600, 3), np.uint8)
    (found,) = reader.detect(small, main=main)
    assert classifier.asked == ((200, 600, 3), [(40.0, 20.0, 120.0, 140.0)])  # read large
    assert found.card == "QS" and found.box == (20.0, 10.0, 60.0, 70.0)  # told small


def test_a_still_picture_reads_the_second_box_models_new_boxes_too() -> None:
    from pathlib import Path

    from vision.two_stage import STILL_BOX_CONF, TwoStage

    class Boxes:
        def __init__(self, found: list[Detection]) -> None:
            self.found, self.asked, self.model = found, [], Path("m.onnx")

        def boxes(self, bgr: np.ndarray, conf: float) -> list[Detection]:
            self.asked.append(conf)
            return self.found

    class Seen(_Fixed):
        def probabilities(self, bgr: np.ndarray, boxes: object) -> np.ndarray:
            self.asked = [tuple(b) for b in boxes]  # type: ignore[attr-defined]
            return super().probabilities(bgr, boxes)

    whole = _det("AS", 0)  # (0, 10, 40, 70): a fanned card's outline, read as the card on it
    strip = Detection("?", 0.4, (0.0, 10.0, 12.0, 70.0))  # the part of it not under the top card
    again = Detection("?", 0.6, (1.0, 10.0, 40.0, 70.0))  # the first model's box, found again
    first, second = Boxes([whole]), Boxes([strip, again])
    classifier = Seen([{"KH": 0.8}, {"9S": 0.7}, {"KH": 0.7}])
    reader = TwoStage(first, classifier, box_conf=0.1, still=True, still_boxes=second)  # type: ignore[arg-type]
    found = reader.detect(np.zeros((100, 300, 3), np.uint8))
    assert sorted(d.card for d in found) == ["9S", "KH"]  # the box found again is no new card
    assert classifier.asked == [whole.box, strip.box, again.box]  # (read as the first's twin)
    assert (first.asked, second.asked) == ([0.1], [STILL_BOX_CONF])


def test_hide_face_paints_over_the_middle_of_the_crops_asked_only() -> None:
    torch = pytest.importorskip("torch")
    from vision.classifier_train import HIDDEN_MIDDLE, MEAN, augment

    side = 128
    textured = torch.rand(8, 3, side, side, generator=torch.Generator().manual_seed(1)) - MEAN
    lo = int(side * (1 - HIDDEN_MIDDLE) / 2)
    middle = (slice(None), slice(None), slice(lo, side - lo), slice(lo, side - lo))
    for share, flat in ((1.0, True), (0.0, False)):
        out = augment(textured.clone(), torch.Generator().manual_seed(2), strength=0.0,
                      hide_face=share)
        spread = out[middle].flatten(1).std(dim=1)  # per crop, over its middle
        assert bool((spread < 1e-6).all()) is flat
        corner = out[:, :, 4:lo - 8, 4:lo - 8].flatten(1).std(dim=1)
        assert bool((corner > 0.05).all())  # (the corners keep their texture either way)


def test_an_ensemble_file_reads_the_mean_of_its_members(tmp_path: Path) -> None:
    pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    from vision.classifier import CardClassifier
    from vision.classifier import main as classifier_cli
    from vision.classifier_train import CardNet, export

    members = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        torch.save({"model": CardNet(crop=64).state_dict(), "crop": 64}, tmp_path / f"{seed}.pt")
        members.append(export(tmp_path / f"{seed}.pt", tmp_path / f"{seed}.onnx"))
    out = tmp_path / "ens.onnx"
    assert classifier_cli(["ensemble", "--out", str(out), *map(str, members)]) == 0

    image = _table((100, 40, 150, 120))
    boxes = [(100, 40, 150, 120), (250, 150, 320, 260)]
    a, b = (CardClassifier(m, turns=2).probabilities(image, boxes) for m in members)
    assert not np.allclose(a, b, atol=1e-3)  # two different members
    merged = CardClassifier(out, turns=2)
    assert merged.size == 64
    np.testing.assert_allclose(merged.probabilities(image, boxes), (a + b) / 2, atol=1e-5)
    # Its second output: both members' pooled features side by side, for a deck memory.
    probs, features = merged.read(image, boxes)
    np.testing.assert_allclose(probs, (a + b) / 2, atol=1e-5)
    assert CardClassifier(members[0]).features is None and merged.features == "features"
    assert features is not None and features.shape == (2, 2 * CardNet(crop=64).head[-1].in_features)
    assert not np.allclose(features[0], features[1])  # two crops, two looks
    # A single classifier gets the same output on its own; its readings are unchanged.
    single = tmp_path / "single.onnx"
    assert classifier_cli(["features", "--out", str(single), str(members[0])]) == 0
    probs, features = CardClassifier(single, turns=2).read(image, boxes)
    np.testing.assert_allclose(probs, a, atol=1e-6)
    assert features is not None and features.shape == (2, CardNet(crop=64).head[-1].in_features)


def test_an_ensemble_refuses_members_that_read_different_inputs(
    tmp_path: Path, tiny_model: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("onnx")
    torch = pytest.importorskip("torch")
    from vision.classifier import main as classifier_cli
    from vision.classifier_ensemble import merge
    from vision.classifier_train import CardNet, export

    torch.save({"model": CardNet(crop=128).state_dict(), "crop": 128}, tmp_path / "big.pt")
    big = export(tmp_path / "big.pt", tmp_path / "big.onnx")
    with pytest.raises(ValueError, match="at least two"):
        merge([tiny_model], tmp_path / "one.onnx")
    out = tmp_path / "mixed.onnx"
    assert classifier_cli(["ensemble", "--out", str(out), str(tiny_model), str(big)]) == 2
    assert "differ" in capsys.readouterr().err and not out.exists()
    assert classifier_cli(["ensemble", "--out", str(out), str(tiny_model), "nope.onnx"]) == 2
    assert "not found: nope.onnx" in capsys.readouterr().err
