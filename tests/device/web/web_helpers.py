"""Helpers for the web tests: what the referee and the tracker write to the event log.

A module of its own (not conftest): several test folders have a conftest.py, and `from conftest
import ...` would pick whichever was imported first.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from device.store import EventStore
from device.web.app import create_app

CHROMIUM = Path("/usr/bin/chromium")
SHOTS = Path(__file__).resolve().parents[3] / "docs" / "screenshots"
# Marks of every browser test module (`pytestmark = BROWSER`); the fixtures are in conftest.py.
BROWSER = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(),
                       reason="needs Debian's chromium at /usr/bin/chromium "
                              "(apt-get install -y chromium)"),
]
PIN = "2468"
HEADERS = {"X-Referee-Pin": PIN}


def sim_deal(seed: int = 7, n_illegal: int = 1) -> Any:
    """A complete simulated deal (hands, contract, 32 plays) with `n_illegal` revokes."""
    from vision.deal_script import play_deal

    return play_deal(random.Random(seed), "ffb-coinche", n_illegal=n_illegal)


def start(store: EventStore, deal: Any, players: dict[str, str] | None = None) -> None:
    """What the referee and tracker write before the first card: game, deal, contract."""
    store.append("game_started", {"rules": deal.rules, "players": players or {},
                                  "teams": {"NS": "Nous", "EW": "Eux"}}, actor="referee")
    store.append("deal_started", {"dealer": str(deal.dealer)}, actor="camera")
    store.append("contract", deal.contract.to_json(), actor="referee")


def play(store: EventStore, deal: Any, index: int, card: str | None = None) -> None:
    """Append play `index` of the deal as the tracker would (optionally misread as `card`)."""
    seat, real = deal.plays[index]
    store.append("card_played", {
        "seat": str(seat), "card": card or str(real), "t": float(index), "confidence": 0.95,
        "uncertain": card is not None, "alternatives": [[str(real), 0.04]] if card else [],
        "evidence": f"evidence/{index:06d}.jpg"})
    if index % 4 == 3:
        store.append("trick_gathered", {"t": index + 0.5})


def replay(store: EventStore, deal: Any, upto: int = 32, over: bool = True) -> None:
    start(store, deal)
    for i in range(upto):
        play(store, deal, i)
    if over and upto == 32:
        store.append("deal_over", {})


def first_proof(deal: Any) -> int:
    """The play that proves the deal's first violation (its flag shows from then on)."""
    from engine.record import judge, load_record

    record = {"rules": deal.rules, "dealer": str(deal.dealer), "contract": deal.contract.to_json(),
              "plays": [[str(s), str(c)] for s, c in deal.plays]}
    return int(judge(load_record(record))["violations"][0]["proven_by"])


def doubtful_revoke(store: EventStore, deal: Any) -> tuple[int, str]:
    """The deal up to the proof of its first violation, the offending card read with a close
    second reading of the suit led (a card not seen yet) that would clear it: (play, that card)."""
    from engine.record import judge, load_record

    record = {"rules": deal.rules, "dealer": str(deal.dealer), "contract": deal.contract.to_json(),
              "plays": [[str(s), str(c)] for s, c in deal.plays]}
    first = judge(load_record(record))["violations"][0]
    i, proof = first["play"], first["proven_by"]
    led = deal.plays[4 * (i // 4)][1]
    seen = {str(c) for _s, c in deal.plays[: proof + 1]}
    other = next(f"{r}{led.suit}" for r in "789TJQKA" if f"{r}{led.suit}" not in seen)
    start(store, deal)
    for k in range(proof + 1):
        if k == i:
            seat, card = deal.plays[k]
            store.append("card_played", {"seat": str(seat), "card": str(card), "t": float(k),
                                         "alternatives": [[other, 0.3]]})
        else:
            play(store, deal, k)
    return i, other


def shot(page: Any, name: str, **kwargs: Any) -> Path:
    """A screenshot of `page` into docs/screenshots/<name>."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / name
    page.screenshot(path=str(path), animations="disabled", **kwargs)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn on 127.0.0.1 in a thread, for the browser and the streaming tests: a table's app
    over `store`, or any `app` given."""

    def __init__(self, store: EventStore | None, app: Any = None, **kwargs: Any) -> None:
        import uvicorn

        self.store = store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        if app is None:
            assert store is not None
            app = create_app(store, referee_pin=PIN, **kwargs)
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning",
                                lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start within 10 s")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True  # open event streams are cut after the 1 s grace
        self.thread.join(timeout=10)
