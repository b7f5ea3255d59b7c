"""100 live-page viewers on a replayed game: push latency, and the vision loop's frame rate.

    .venv/bin/python benchmarks/viewers.py [--viewers 100] [--seconds 10] [--card-every 0.25]

On loopback only. The web app (`device.web.create_app`) runs in a thread of this process, as
`belote run` serves it; the vision loop runs in the main thread and writes the replayed deal's
cards to the event store as it goes. The loop is a FAKE, CPU-bound stand-in (OpenCV resize, blur
and colour conversion of a 640x360 frame, plus a little pure-Python bookkeeping per frame), since
no trained detector is bundled yet; its frames per second are measured alone (phase 1) and with
the viewers connected (phase 2) and alone again (phase 3), a replayed deal per phase.

The viewers live in a child process (they are phones, not the Pi): each opens
/api/events/stream with a raw socket and notes when each state `id` arrives. The latency of a
card is the time from its event's commit to the first message that includes it, per viewer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


# --- the viewers (child process) ------------------------------------------------------------


async def _viewer(port: int, until: float, seen: list[tuple[int, float]],
                  ready: asyncio.Event) -> None:
    reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=4 << 20)
    writer.write(b"GET /api/events/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                 b"Accept: text/event-stream\r\n\r\n")
    await writer.drain()
    first = True
    try:
        while time.time() < until:
            try:
                line = await asyncio.wait_for(reader.readline(), max(0.05, until - time.time()))
            except TimeoutError:
                break
            if not line:
                break
            if line.startswith(b"id: "):
                seen.append((int(line[4:]), time.time()))
                if first:
                    first = False
                    ready.set()
    finally:
        writer.close()


async def _viewers(port: int, n: int, seconds: float) -> list[list[tuple[int, float]]]:
    until = time.time() + seconds
    seen: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    readies = [asyncio.Event() for _ in range(n)]
    tasks = [asyncio.create_task(_viewer(port, until, seen[i], readies[i])) for i in range(n)]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 30)
    print("ready", flush=True)  # every viewer has its first state
    await asyncio.gather(*tasks, return_exceptions=True)
    return seen


def client_main(port: int, n: int, seconds: float) -> None:
    seen = asyncio.run(_viewers(port, n, seconds))
    print(json.dumps(seen), flush=True)


# --- the fake vision loop ---------------------------------------------------------------------


def fake_loop(store: Any, plays: list[tuple[str, str]], seconds: float, card_every: float,
              first_index: int = 0) -> tuple[float, list[Any]]:
    """Process frames for `seconds`, a card every `card_every` s; returns (fps, events)."""
    import cv2
    import numpy as np

    cv2.setNumThreads(1)  # the loop's work stays in its own thread (and CPU accounting)
    rng = np.random.default_rng(0)
    frame = rng.integers(0, 255, (1296, 2304, 3), dtype=np.uint8)
    frames, written = 0, []
    start = time.perf_counter()
    next_card = start + card_every
    i = 0
    while time.perf_counter() - start < seconds:
        small = cv2.resize(frame, (640, 360), interpolation=cv2.INTER_AREA)
        hsv = cv2.cvtColor(cv2.GaussianBlur(small, (9, 9), 0), cv2.COLOR_BGR2HSV)
        mask = cv2.inRange(hsv, (35, 40, 40), (85, 255, 255))
        boxes = [(x, y) for x in range(0, 640, 16) for y in range(0, 360, 16)
                 if mask[y, x]]  # the tracker's pure-Python share of the frame
        frames += 1
        _ = len(boxes)
        if time.perf_counter() >= next_card and i < len(plays):
            seat, card = plays[i]
            written.append(store.append("card_played", {
                "seat": seat, "card": card, "t": float(first_index + i), "confidence": 0.97,
                "uncertain": False, "alternatives": [], "evidence": None}))
            if (first_index + i) % 4 == 3:
                store.append("trick_gathered", {"t": float(first_index + i)})
            i += 1
            next_card += card_every
    return frames / (time.perf_counter() - start), written


# --- orchestration ----------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(store: Any, port: int) -> Any:
    import uvicorn

    from device.web.app import create_app

    app = create_app(store, {"fps": 0.0, "camera": "up"}, referee_pin="0000")
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=1))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.02)
    return server


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=10.0, help="per phase (max 60)")
    parser.add_argument("--card-every", type=float, default=0.25)
    parser.add_argument("--client", nargs=3, metavar=("PORT", "N", "SECONDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_main(int(args.client[0]), int(args.client[1]), float(args.client[2]))
        return 0
    seconds = min(max(args.seconds, 1.0), 60.0)
    viewers = min(max(args.viewers, 1), 500)

    from device.store import EventStore
    from vision.deal_script import play_deal

    order = ("alone", "viewers", "alone again")  # alone on both sides: other load drifts
    deals = [play_deal(random.Random(seed), "ffb-coinche") for seed in (1, 2, 3)]
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "belote.db")
        port = _free_port()
        server = _serve(store, port)
        store.append("game_started", {"rules": "ffb-coinche", "players": {}, "teams": {}},
                     actor="referee")
        phases: dict[str, float] = {}
        server_cpu: dict[str, float] = {}
        written: list[Any] = []
        seen: list[list[tuple[int, float]]] = []
        for phase, deal in zip(order, deals, strict=True):
            store.append("deal_started", {"dealer": str(deal.dealer)}, actor="referee")
            store.append("contract", deal.contract.to_json(), actor="referee")
            plays = [(str(s), str(c)) for s, c in deal.plays]
            child = None
            if phase == "viewers":
                child = subprocess.Popen(
                    [sys.executable, __file__, "--client", str(port), str(viewers),
                     str(seconds + 5)], stdout=subprocess.PIPE, text=True)
                assert child.stdout is not None
                if child.stdout.readline().strip() != "ready":
                    print("viewers did not connect", file=sys.stderr)
                    return 1
            cpu0, loop0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
            fps, events = fake_loop(store, plays, seconds, args.card_every)
            # CPU the rest of this process (the web server) used, per second: immune to other
            # programs loading the machine, unlike frames per second.
            server_cpu[phase] = ((time.process_time() - cpu0) - (time.thread_time() - loop0)) / (
                time.perf_counter() - wall0)
            phases[phase] = fps
            store.append("deal_over", {})
            if child is not None:
                written = events
                out, _ = child.communicate(timeout=seconds + 30)
                seen = json.loads(out.strip().splitlines()[-1])
        server.should_exit = True
        store.close()

    latencies = []
    for viewer in seen:
        for ev in written:
            arrival = next((t for seq, t in viewer if seq >= ev.seq), None)
            if arrival is not None:
                latencies.append(arrival - ev.time)
    missed = len(written) * len(seen) - len(latencies)
    alone = (phases["alone"] + phases["alone again"]) / 2
    drop = 100 * (1 - phases["viewers"] / alone)
    print(f"viewers connected: {len(seen)}/{viewers}; cards pushed: {len(written)} "
          f"(one every {args.card_every:g} s)")
    if latencies:
        print(f"push latency: median {1000 * statistics.median(latencies):.0f} ms, "
              f"p95 {1000 * statistics.quantiles(latencies, n=20)[-1]:.0f} ms, "
              f"max {1000 * max(latencies):.0f} ms over {len(latencies)} deliveries "
              f"({missed} missed)")
    print(f"fake vision loop: {phases['alone']:.1f} and {phases['alone again']:.1f} fps alone "
          f"(before/after), {phases['viewers']:.1f} fps with {len(seen)} viewers "
          f"({drop:+.1f}% drop against the mean alone)")
    print(f"web server CPU in this process: {100 * server_cpu['alone']:.1f}% of a core alone, "
          f"{100 * server_cpu['viewers']:.1f}% with {len(seen)} viewers")
    return 0


if __name__ == "__main__":
    sys.exit(main())
