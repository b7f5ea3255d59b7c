"""The loop: frames in, events and evidence pictures out, health figures, the referee's events,
a camera outage, and the `run`/`replay` commands."""

from __future__ import annotations

import json
import threading

import cv2
import numpy as np
import pytest

from device.cli import main as belote
from device.config import Config
from device.loop import Companion, Health, run_loop
from device.sources import Frame, ResilientSource
from device.store import EventStore
from vision.detections import Detection
from vision.geometry import TableGeometry
from vision.tracker import TableTracker, TrackerSettings

SPOT = {"S": (200, 245), "N": (200, 155), "E": (245, 200), "W": (155, 200)}


def det(card: str, seat: str, conf: float = 0.9) -> Detection:
    x, y = SPOT[seat]
    return Detection(card, conf, (x - 14, y - 22, x + 14, y + 22))


class FakeSource:
    """Frames at 10 per second of video time; the full picture is twice the detector's."""

    live = False

    def __init__(self, seconds: float, skip: set[int] = frozenset(), hook=None) -> None:
        self.n, self.i, self.skip, self.hook = round(seconds * 10), 0, skip, hook

    def read(self) -> Frame | None:
        while self.i in self.skip:
            self.i += 1
        if self.i >= self.n:
            return None
        i, self.i = self.i, self.i + 1
        if self.hook:
            self.hook(i)
        small = np.full((400, 400, 3), 60, np.uint8)
        full = np.full((800, 800, 3), 60, np.uint8)
        full[:, :, 2] = np.arange(800)[None, :] // 4  # the evidence crop shows where it was cut
        return Frame(small, i / 10, full, i)

    def close(self) -> None:
        pass


class FakeDetector:
    """`script(frame_time)` → detections; the frame's time is learned from the source."""

    def __init__(self, script) -> None:
        self.script, self.calls = script, 0

    def detect(self, bgr: np.ndarray) -> list[Detection]:
        t = self.calls / 10
        self.calls += 1
        return self.script(t)


def make_tracker(rules: str = "ffb-coinche") -> TableTracker:
    return TableTracker(TableGeometry.full((400, 400)), TrackerSettings(), rules)


def test_plays_are_stored_with_evidence_pictures_and_health(tmp_path) -> None:
    store = EventStore(tmp_path / "game.db")
    store.append("deal_started", {"dealer": "E"}, actor="referee")
    tracker = make_tracker()
    tracker.restore(store.events())
    script = lambda t: [det("7H", "N")] + ([det("8H", "W")] if t >= 1.0 else [])  # noqa: E731
    health = run_loop(FakeSource(2.0, skip={5, 6}), FakeDetector(script), tracker, store,
                      threading.Event(), evidence_dir=tmp_path / "evidence")
    plays = [e for e in store.events() if e.type == "card_played"]
    assert [(e.data["seat"], e.data["card"], e.actor) for e in plays] == [
        ("N", "7H", "camera"), ("W", "8H", "camera")]
    picture = cv2.imread(str(tmp_path / plays[0].data["evidence"]))
    assert plays[0].data["evidence"] == f"evidence/{plays[0].seq:06d}-7H.jpg"
    # Cut from the full picture around the card with a 30 % margin: x 186..214 in the small
    # picture → 355..445 in the full one, whose red level there is x / 4 ≈ 100.
    assert 85 <= picture.shape[1] <= 95 and abs(int(picture[:, :, 2].mean()) - 100) <= 3
    assert health.frames == 18 and health.dropped == 2 and not health.running
    report = health.to_json()
    assert set(report["ms"]) == {"read", "detect", "track", "store"} and report["fps"] > 0
    assert not list((tmp_path / "evidence").glob(".*"))  # no half-written pictures left
    assert health.evidence_failures == 0


def test_a_disk_that_refuses_the_pictures_loses_no_play(tmp_path) -> None:
    store = EventStore(tmp_path / "game.db")
    store.append("deal_started", {"dealer": "E"}, actor="referee")
    tracker = make_tracker()
    tracker.restore(store.events())
    blocked = tmp_path / "evidence"
    blocked.write_text("a file where the folder should be")  # no picture can be written there
    script = lambda t: [det("7H", "N")] + ([det("8H", "W")] if t >= 1.0 else [])  # noqa: E731
    health = run_loop(FakeSource(2.0), FakeDetector(script), tracker, store, threading.Event(),
                      evidence_dir=blocked)
    plays = [e for e in store.events() if e.type == "card_played"]
    assert [(e.data["seat"], e.data["card"], e.data["evidence"]) for e in plays] == [
        ("N", "7H", None), ("W", "8H", None)]
    assert health.evidence_failures == 2 and health.to_json()["evidence_failures"] == 2


@pytest.mark.parametrize("corners, length", [
    ([[50, 350], [350, 350], [350, 50], [50, 50]], 33.0),  # a 300 px felt: 0.11 of its side
    (None, None),  # not calibrated: no guess
])
def test_the_felt_learnt_by_the_detector_expects_cards_as_long_as_the_table_says(
        corners, length) -> None:
    from device.config import GeometryConfig
    from vision.background import TableBackground

    detector = FakeDetector(lambda t: [])
    detector.background = TableBackground()
    tracker = TableTracker(None, TrackerSettings(), "ffb-coinche")
    geometry = GeometryConfig(corners=corners, method="manual" if corners else "full")
    run_loop(FakeSource(0.5), detector, tracker, EventStore(":memory:"), threading.Event(),
             geometry=geometry)
    assert detector.background.expected == (pytest.approx(length) if length else None)


def test_the_referee_contract_and_undo_reach_the_tracker_mid_run(tmp_path) -> None:
    store = EventStore(":memory:")
    store.append("deal_started", {"dealer": "E"}, actor="referee")
    tracker = make_tracker()
    tracker.restore(store.events())

    def referee(i: int) -> None:
        if i == 3:
            store.append("contract", {"taker": "N", "bid": 90, "trump": "H"}, actor="referee")
        if i == 12:
            first = next(e for e in store.events() if e.type == "card_played")
            store.append("undo", {"seq": first.seq}, actor="referee")

    run_loop(FakeSource(2.0, hook=referee), FakeDetector(lambda t: [det("7H", "N")]), tracker,
             store, threading.Event())
    assert tracker.view.contract == {"taker": "N", "bid": 90, "trump": "H"}
    assert tracker.view.plays == []  # undone, and the same card was not recorded again
    assert [e.type for e in store.events()].count("card_played") == 1


def test_stop_event_ends_a_live_loop(tmp_path) -> None:
    class Endless(FakeSource):
        live = True

    stop = threading.Event()
    calls = []

    def script(t: float) -> list[Detection]:
        calls.append(t)
        if len(calls) == 7:
            stop.set()
        return []

    health = run_loop(Endless(10**6), FakeDetector(script), make_tracker(), EventStore(":memory:"),
                      stop)
    assert health.frames == 7


def test_a_camera_gone_for_30_s_loses_no_play(tmp_path) -> None:
    """ResilientSource with a fake clock: plays before and after a 30 s outage are all kept."""
    clock = {"now": 0.0}
    opened = []

    class Camera:
        live = True

        def read(self) -> Frame | None:
            clock["now"] += 0.1
            if 3.0 <= clock["now"] < 33.0:
                return None  # unplugged
            return Frame(np.zeros((400, 400, 3), np.uint8), clock["now"], None, 0)

        def close(self) -> None:
            pass

    def opener() -> Camera:
        if 3.0 <= clock["now"] < 33.0 and opened:
            raise OSError("camera gone")
        opened.append(1)
        return Camera()

    src = ResilientSource(opener, stall_s=2.0, max_backoff_s=4.0, clock=lambda: clock["now"],
                          sleep=lambda s: clock.__setitem__("now", clock["now"] + s))
    stop = threading.Event()
    seen_down = []

    class Detector:
        def detect(self, bgr):
            t = clock["now"]
            seen_down.append(src.state)
            if t > 40:
                stop.set()
            return [det("AS", "S")] + ([det("KS", "E")] if t > 33 else [])

    store = EventStore(":memory:")
    store.append("deal_started", {"dealer": "W"}, actor="referee")  # S leads, E next
    tracker = make_tracker()
    tracker.restore(store.events())
    health = Health()
    run_loop(src, Detector(), tracker, store, stop, health=health)
    assert [(e.data["seat"], e.data["card"]) for e in store.events() if e.type == "card_played"] \
        == [("S", "AS"), ("E", "KS")]
    assert health.camera == "up" and health.reopens == 1 and health.read_failures > 0


def test_companion_writes_game_started_once_and_resumes(tmp_path) -> None:
    config = Config.model_validate({"storage": {"db": str(tmp_path / "g.db"),
                                                "evidence_dir": str(tmp_path / "ev")},
                                    "rules": {"preset": "belote-501"}})
    c1 = Companion(config, source=FakeSource(1.5), detector=FakeDetector(lambda t: []),
                   log=lambda m: None)
    c1.run()
    c1.store.append("card_played", {"seat": "N", "card": "7S"})
    c1.store.close()
    logs = []
    c2 = Companion(config, source=FakeSource(0.5), detector=FakeDetector(lambda t: []),
                   log=logs.append)
    types = [e.type for e in c2.store.events()]
    assert types == ["game_started", "deal_started", "card_played"]
    assert c2.store.events()[0].data["rules"] == "belote-501"
    assert c2.tracker.view.prise and c2.tracker.view.plays == [("N", "7S")]
    assert logs == ["resumed: 1 plays already recorded in this deal"]


def test_run_command_bad_config_and_source(tmp_path, capsys) -> None:
    bad = tmp_path / "c.yaml"
    bad.write_text("camera:\n  sorce: 0\n")
    assert belote(["run", "--config", str(bad)]) == 2
    assert "camera.sorce: unknown key" in capsys.readouterr().err
    assert belote(["run", "--source", str(tmp_path / "none.mp4"), "--db",
                   str(tmp_path / "g.db"), "--no-web"]) == 2
    assert "not a camera" in capsys.readouterr().err
    assert belote(["run", "--example-config"]) == 0
    assert "referee_pin" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["run", "replay", "calibrate"])
def test_help(command, capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        belote([command, "--help"])
    assert exit_.value.code == 0
    assert "usage: belote " + command in capsys.readouterr().out


def test_replay_command_errors(tmp_path, capsys) -> None:
    assert belote(["replay", str(tmp_path / "missing.mp4")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert belote(["replay", str(tmp_path), "--contract", "{bad"]) == 2
    assert "--contract is not JSON" in capsys.readouterr().err
    assert belote(["replay", str(tmp_path), "--model", str(tmp_path / "nope.onnx")]) == 2
    assert "nope.onnx" in capsys.readouterr().err
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    assert belote(["replay", str(tmp_path), "--oracle"]) == 2
    assert "--oracle needs the simulation's record" in capsys.readouterr().err


def test_replay_pipeline_on_a_picture_folder(tmp_path, monkeypatch, capsys) -> None:
    """The replay command end to end, with the detector replaced by a scripted one."""
    from device.commands import replay as replay_cmd

    for i in range(30):
        cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), np.zeros((400, 400, 3), np.uint8))
    cards = {"N": "7H", "W": "8H", "S": "AH", "E": "9H"}
    order = list(cards)

    def script(t: float) -> list[Detection]:
        return [det(cards[s], s) for s in order[: min(4, int(t / 0.6) + 1)]]

    monkeypatch.setattr("vision.detector.load_detector", lambda *a, **k: FakeDetector(script))
    code = belote(["replay", str(tmp_path), "--json", "--dealer", "E", "--contract",
                   '{"taker": "N", "bid": 80, "trump": "H"}'])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["record"]["plays"] == [["N", "7H"], ["W", "8H"], ["S", "AH"], ["E", "9H"]]
    # Hearts are trumps: the nine (14) beats the ace (11); 11 + 14 points.
    assert out["verdict"]["tricks"] == [{"leader": "N", "winner": "E", "points": 25}]
    assert out["frames"] == 30 and [p["uncertain"] for p in out["plays"]] == [False] * 4
    assert replay_cmd.HELP


def test_run_command_records_a_picture_folder(tmp_path, monkeypatch, capsys) -> None:
    pictures = tmp_path / "pictures"
    pictures.mkdir()
    for i in range(25):
        cv2.imwrite(str(pictures / f"f{i:03d}.png"), np.zeros((400, 400, 3), np.uint8))
    script = lambda t: [det("QC", "W")] if t >= 1.2 else []  # noqa: E731
    monkeypatch.setattr("vision.detector.load_detector", lambda *a, **k: FakeDetector(script))
    config = tmp_path / "config.yaml"
    config.write_text(f"camera:\n  source: {pictures}\n  fps: 10\n"
                      f"storage:\n  db: {tmp_path / 'g.db'}\n  evidence_dir: {tmp_path / 'ev'}\n")
    assert belote(["run", "--config", str(config), "--no-web"]) == 0
    assert "stopped after 25 frames" in capsys.readouterr().err
    store = EventStore(tmp_path / "g.db")
    events = [(e.type, e.data.get("card")) for e in store.events()]
    assert events == [("game_started", None), ("deal_started", None), ("card_played", "QC")]
    assert len(list((tmp_path / "ev").glob("*.jpg"))) == 1


def test_replay_takes_the_referee_inputs_and_calibration_from_the_record_beside(
    tmp_path, monkeypatch, capsys
) -> None:
    video = tmp_path / "deal_000.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (400, 400))
    for _ in range(40):
        writer.write(np.zeros((400, 400, 3), np.uint8))
    writer.release()
    cards = {"N": "7H", "W": "8H", "S": "AH", "E": "9H"}
    order = list(cards)
    truth = {
        "rules": "ffb-coinche", "dealer": "E",
        "contract": {"taker": "N", "bid": 80, "trump": "S"},
        "plays": [[s, cards[s]] for s in order],
        "hands": {"N": ["KD"]},  # never read by replay: the camera must find the plays itself
        "meta": {"simulated": {
            "timeline": [{"play": i, "t_settled": 0.6 * i} for i in range(4)],
            # The felt is the picture turned a quarter: W at the bottom, so S sits on the right.
            "geometry": {"image_size": [400, 400], "method": "manual",
                         "corners": [[400, 400], [400, 0], [0, 0], [0, 400]]},
        }},
    }
    (tmp_path / "deal_000.json").write_text(json.dumps(truth))
    turned = {"N": "W", "W": "S", "S": "E", "E": "N"}  # where each seat's card lies on screen

    def script(t: float) -> list[Detection]:
        return [det(cards[s], turned[s]) for s in order[: min(4, int(t / 0.6) + 1)]]

    monkeypatch.setattr("vision.detector.load_detector", lambda *a, **k: FakeDetector(script))
    assert belote(["replay", str(tmp_path), "--json", "--check"]) == 0
    [out] = json.loads(capsys.readouterr().out)  # a folder of videos gives a list
    assert out["check"]["exact"] and out["check"]["right"] == 4
    assert out["check"]["illegal"] == {"injected": [], "flagged": [], "in_doubt": [], "missed": [],
                                       "false": []}
    assert 0.1 <= out["check"]["delay_s"]["median"] <= 0.5
    assert out["verdict"]["tricks"] == [{"leader": "N", "winner": "S", "points": 11}]


def test_replay_reports_the_first_deal_with_the_trackers_corrections() -> None:
    from device.commands.replay import first_deal_plays

    store = EventStore(":memory:")
    store.append("game_started", {"rules": "ffb-coinche", "players": {}, "teams": {}})
    store.append("deal_started", {"dealer": "E"})
    for seat, card in (("N", "7H"), ("W", "8H")):
        store.append("card_played", {"seat": seat, "card": card, "t": 1.0, "seen": 0.5})
    store.append("correction", {"play": 0, "card": "7D", "before": "7H"})
    store.append("deal_started", {"dealer": "S"})
    store.append("card_played", {"seat": "W", "card": "AS", "t": 9.0})
    plays, entries = first_deal_plays(store.events())
    assert [(p["seat"], p["card"], p["read_as"]) for p in plays] == [
        ("N", "7D", "7H"), ("W", "8H", None)]
    assert plays[0]["seen"] == 0.5
    assert entries == [["N", "7D"], ["W", "8H"]]  # the record: no reading in doubt


def test_a_detector_that_reads_names_large_gets_the_full_picture() -> None:
    class MainReader(FakeDetector):
        reads_main = True  # as vision.two_stage.TwoStage: boxes on the small picture, names large

        def detect(self, bgr: np.ndarray, main: np.ndarray | None = None) -> list[Detection]:
            self.shapes.append((bgr.shape, None if main is None else main.shape))
            return super().detect(bgr)

    detector = MainReader(lambda t: [])
    detector.shapes = []
    run_loop(FakeSource(0.5), detector, make_tracker(), EventStore(":memory:"), threading.Event())
    assert detector.shapes == [((400, 400, 3), (800, 800, 3))] * 5


def test_the_loop_teaches_the_deck_memory_what_each_play_looked_like() -> None:
    """The reader's crops of each frame and every event (the tracker's and the referee's) reach
    its deck memory; at the deal's end it has learnt the record's cards, as the referee
    corrected it."""
    from vision.crops import LABELS
    from vision.deck_memory import DeckMemory

    looks = {card: np.random.default_rng(i).normal(size=8) for i, card in enumerate(("7H", "8H"))}
    boxes = {"7H": det("7H", "N").box, "8H": det("8H", "W").box}

    class Reader(FakeDetector):
        memory = DeckMemory()

        def detect(self, bgr: np.ndarray) -> list[Detection]:
            found = super().detect(bgr)
            self.last_crops = [(d.box, looks[d.card]) for d in found]
            return found

    class Tracker:
        geometry = "set"

        def update(self, t: float, detections: list[Detection]) -> list[dict]:
            if t == 0.5:
                return [{"type": "card_played", "box": list(boxes[card]),
                         "data": {"card": card, "seat": seat, "seen": 0.2, "t": 0.5,
                                  "uncertain": False}} for card, seat in (("7H", "N"),
                                                                           ("8H", "W"))]
            return [{"type": "deal_over", "data": {}}] if t == 1.9 else []

        def observe(self, event) -> None:
            pass

        def finish(self) -> list[dict]:
            return []

    store = EventStore(":memory:")

    def referee(i: int) -> None:
        if i == 12:  # the referee says the second play was the 9H
            store.append("correction", {"play": 1, "card": "9H", "before": "8H"}, actor="referee")

    reader = Reader(lambda t: [det("7H", "N"), det("8H", "W")] if t >= 0.2 else [])
    health = run_loop(FakeSource(2.0, hook=referee), reader, Tracker(), store, threading.Event())
    memory = reader.memory
    assert memory.deals == 1
    assert health.to_json()["deck_cards"] == 2 and health.deck_deals == 1  # for the pages
    assert {LABELS[i] for i in np.flatnonzero(memory.counts)} == {"7H", "9H"}
    assert memory.counts.sum() >= 4  # a crop every 0.3 s from 0.2 to 1.9 s


def test_the_companion_reads_with_a_deck_memory_kept_in_its_storage(tmp_path) -> None:
    """The shipped models and the default config: two stages with a deck memory kept where the
    config says, read back at the next start; `deck_memory: false` reads without one."""
    from vision.deck_memory import DeckMemory

    kept = tmp_path / "deck.npz"
    config = Config.model_validate({"storage": {"db": str(tmp_path / "g.db"),
                                                "deck_memory": str(kept)}})
    memory = Companion(config, log=lambda m: None).build_detector().memory
    assert isinstance(memory, DeckMemory) and memory.path == kept and memory.deals == 0
    memory.sums, memory.counts[:] = np.ones((32, 512)), 3
    memory.deals = 2
    memory.save(kept)
    assert Companion(config, log=lambda m: None).build_detector().memory.deals == 2
    off = Config.model_validate({"storage": {"db": str(tmp_path / "h.db")},
                                 "detector": {"deck_memory": False}})
    assert Companion(off, log=lambda m: None).build_detector().memory is None
