"""Fixtures for the web tests: a store, the app, a simulated deal with a revoke, a live server,
and headless Chromium (Playwright) for the browser tests."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import CHROMIUM, PIN, sim_deal

from device.store import EventStore
from device.web.app import create_app


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


@pytest.fixture
def live(tmp_path: Any) -> Iterator[LiveServer]:
    s = EventStore(tmp_path / "belote.db")
    with LiveServer(s) as server:
        yield server
    s.close()


ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


@pytest.fixture
def js_errors(browser: Any) -> Iterator[list[str]]:
    """Every uncaught script error of every page the test opens; none allowed."""
    errors: list[str] = []
    original = browser.new_context

    def new_context(**kwargs: Any) -> Any:
        ctx = original(**kwargs)
        ctx.on("page", lambda p: p.on("pageerror", lambda e: errors.append(str(e))))
        return ctx

    browser.new_context = new_context
    yield errors
    browser.new_context = original
    assert errors == []


@pytest.fixture
def page(browser: Any, js_errors: list[str]) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1366, "height": 860})
    p = context.new_page()
    p.set_default_timeout(5000)
    yield p
    context.close()
