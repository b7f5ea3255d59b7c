"""Fixtures for the web tests: a store, the app, a simulated deal with a revoke, a live server,
and headless Chromium (Playwright) for the browser tests."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_helpers import CHROMIUM, PIN, LiveServer, sim_deal

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
