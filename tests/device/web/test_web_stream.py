"""Server-sent events on a real server: the first state at once, then one push per change."""

from __future__ import annotations

import json
import time

import httpx
from web_helpers import play, start


def _states(lines, count: int) -> list[dict]:
    """Read `count` `state` messages from an SSE line iterator."""
    out, event = [], None
    for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == "state":
            out.append(json.loads(line[5:]))
            if len(out) == count:
                return out
    return out


def test_each_new_event_is_pushed_within_a_second(live, revoke_deal) -> None:
    start(live.store, revoke_deal)
    with httpx.Client(timeout=5) as c, c.stream("GET", live.url + "/api/events/stream") as r:
        assert r.headers["content-type"].startswith("text/event-stream")
        lines = r.iter_lines()
        (first,) = _states(lines, 1)
        assert first["seq"] == live.store.last_seq
        for i in range(3):
            t0 = time.monotonic()
            play(live.store, revoke_deal, i)
            (state,) = _states(lines, 1)
            assert time.monotonic() - t0 < 1.0
            assert state["deal"]["trick"][-1]["card"] == str(revoke_deal.plays[i][1])


def test_a_delayed_stream_shows_the_past(live, revoke_deal) -> None:
    start(live.store, revoke_deal)
    with httpx.Client(timeout=5) as c, c.stream(
            "GET", live.url + "/api/events/stream", params={"delay": 1}) as r:
        lines = r.iter_lines()
        play(live.store, revoke_deal, 0)
        t0 = time.monotonic()
        states = _states(lines, 2)
        while states[-1]["deal"] is None or not states[-1]["deal"]["plays"]:
            states += _states(lines, 1)
        assert 0.7 < time.monotonic() - t0 < 2.0  # the card shows about 1 s late
