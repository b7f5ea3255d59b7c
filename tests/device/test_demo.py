"""`belote demo`: the pipeline on a simulated deal, the verdict printed, the live page served."""

from __future__ import annotations

import json
import socket
import tempfile
from pathlib import Path

import pytest

from device.cli import main
from device.store import EventStore

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")


def _toy_design():
    """A deck drawn here, so the test needs neither fetched artwork nor a trained model."""
    from engine.cards import DECK
    from vision.artwork import Design

    cards = {}
    for card in DECK:
        art = np.full((88, 57, 4), 255, np.uint8)
        cv2.putText(art, str(card), (4, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 160, 255), 2)
        cards[str(card)] = art
    return Design("toy", cards, None)


@pytest.fixture(scope="module")
def short_deal(tmp_path_factory):
    from vision.simulate import simulate_deals

    out = tmp_path_factory.mktemp("deal")
    files = simulate_deals(out, deals=1, seed=3, illegal=1, designs=[_toy_design()], fps=5,
                           size=(240, 180), pace=0.7, show_progress=False, use_textures=False,
                           noise=False)
    return files[0]


@pytest.mark.slow  # ~15 s on 2 busy cores: films a deal, then renders it again as the oracle
def test_demo_no_serve_runs_the_pipeline_and_prints_the_verdict(
        short_deal, tmp_path, monkeypatch, capsys) -> None:
    from vision import detector as detector_module
    from vision.simulate import OracleDetector

    truth = json.loads(short_deal.record.read_text())
    # The renderer's labels stand in for the model: this checks the plumbing, not the detector.
    monkeypatch.setattr(detector_module, "load_detector",
                        lambda *a, **k: OracleDetector(truth, _toy_design()))
    db = tmp_path / "log" / "belote.db"
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    rc = main(["demo", "--no-serve", "--video", str(short_deal.video), "--db", str(db)])
    assert list(temp.iterdir()) == []  # the log is elsewhere: no empty work folder left behind
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "plays read right (card, seat, order): 32/32" in out
    assert "illegal plays flagged: 1/1, false flags: 0" in out
    assert "score equals the true record's" in out
    assert "What the camera saw" in out
    store = EventStore(db)
    kinds = [e.type for e in store.events()]
    store.close()
    assert kinds[:3] == ["game_started", "deal_started", "contract"]
    assert kinds.count("card_played") == 32 and kinds.count("trick_gathered") == 8


def test_demo_refuses_a_video_without_its_record(tmp_path, monkeypatch, capsys) -> None:
    video = tmp_path / "deal_000.mp4"
    video.write_bytes(b"not a video")
    temp = tmp_path / "temp"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    assert main(["demo", "--no-serve", "--video", str(video)]) == 2
    assert list(temp.iterdir()) == []
    err = capsys.readouterr().err
    assert "deal_000.json" in err and "Traceback" not in err


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_demo_serves_the_live_page_over_its_event_log(tmp_path) -> None:
    httpx = pytest.importorskip("httpx")
    from device.commands.demo import _serve
    from device.loop import Health

    store = EventStore(tmp_path / "belote.db")
    store.append("game_started", {"rules": "ffb-coinche", "players": {}, "teams": {}})
    store.append("deal_started", {"dealer": "E"})
    store.append("card_played", {"seat": "N", "card": "JH", "t": 1.0, "confidence": 0.9,
                                 "uncertain": False, "alternatives": [], "evidence": None})
    port = _free_port()
    server = _serve(store, Health(), "1234", tmp_path / "evidence", "127.0.0.1", port)
    try:
        page = httpx.get(f"http://127.0.0.1:{port}/", timeout=5)
        assert page.status_code == 200 and "<html" in page.text.lower()
        state = httpx.get(f"http://127.0.0.1:{port}/api/state", timeout=5).json()
        assert "JH" in json.dumps(state)
    finally:
        server.should_exit = True
        store.close()


@pytest.mark.slow
def test_bundled_demo_with_the_shipped_model(tmp_path, capsys) -> None:
    from device.commands.demo import DEMO_DIR
    from vision.detector import DEFAULT_MODEL

    if not DEFAULT_MODEL.exists() or not (DEMO_DIR / "deal_000.mp4").exists():
        pytest.skip("no shipped model or bundled demo deal")
    assert main(["demo", "--no-serve", "--db", str(tmp_path / "belote.db")]) == 0
    out = capsys.readouterr().out
    assert "plays read right (card, seat, order):" in out
    assert Path(DEMO_DIR / "deal_000.json").exists()
