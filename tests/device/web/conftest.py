"""Fixtures for the web tests: a store, the app, a simulated deal with a revoke, a live server."""

from __future__ import annotations

import random
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from device.store import EventStore
from device.web.app import create_app

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


@pytest.fixture
def store() -> Iterator[EventStore]:
    s = EventStore(":memory:")
    yield s
    s.close()


@pytest.fixture
def client(store: EventStore) -> Iterator[TestClient]:
    with TestClient(create_app(store, referee_pin=PIN)) as c:
        yield c


@pytest.fixture(scope="module")
def revoke_deal() -> Any:
    return sim_deal(7, 1)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """uvicorn on 127.0.0.1 in a thread, for the browser and the streaming tests."""

    def __init__(self, store: EventStore, **kwargs: Any) -> None:
        import uvicorn

        self.store = store
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
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


@pytest.fixture
def live(tmp_path: Any) -> Iterator[LiveServer]:
    s = EventStore(tmp_path / "belote.db")
    with LiveServer(s) as server:
        yield server
    s.close()
