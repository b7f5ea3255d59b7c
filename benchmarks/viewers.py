"""100 live-page viewers on a replayed game: push latency, and the vision loop's frame rate.

    .venv/bin/python benchmarks/viewers.py [--viewers 100] [--seconds 4] [--rounds 3]

On loopback only. The web app (`device.web.create_app`) runs in a thread of this process, as
`belote run` serves it; the vision loop runs in the main thread and writes the replayed deal's
cards to the event store as it goes. The loop is a FAKE, CPU-bound stand-in (OpenCV resize, blur
and colour conversion of a 640x360 frame, plus a little pure-Python bookkeeping per frame), since
no trained detector is bundled yet; its frames per second are measured alone and with the
viewers connected, in alternated short windows (a replayed deal each).

The viewers live in a child process (they are phones, not the Pi): each opens
/api/events/stream with a raw socket and notes when each state `id` arrives. The latency of a
card is the time from its event's commit to the first message that includes it, per viewer.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import resource
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

LOOP_CPU: list[float] = []  # the loop thread's CPU seconds per frame, one entry per window


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
    cpu0 = time.thread_time()
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
    wall = time.perf_counter() - start
    LOOP_CPU.append((time.thread_time() - cpu0) / max(frames, 1))
    return frames / wall, written


# --- orchestration ----------------------------------------------------------------------------


# The Pi's process (loop + web server) on one core, the viewers (phones, really) on the others.
_CPUS = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
_MAIN_CPUS = set(_CPUS[:1])
_VIEWER_CPUS = set(_CPUS[1:]) or set(_CPUS)


def _pin(cpus: set[int]) -> Any:
    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, cpus)

    return pin


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


def _window(store: Any, deal: Any, seconds: float, card_every: float,
            viewers: int, port: int) -> dict[str, Any]:
    """One measuring window on a fresh deal, with `viewers` streams open (0: none)."""
    store.append("deal_started", {"dealer": str(deal.dealer)}, actor="referee")
    store.append("contract", deal.contract.to_json(), actor="referee")
    child = None
    if viewers:
        child = subprocess.Popen([sys.executable, __file__, "--client", str(port), str(viewers),
                                  str(seconds + 3)], stdout=subprocess.PIPE, text=True,
                                 preexec_fn=_pin(_VIEWER_CPUS))
        assert child.stdout is not None
        if child.stdout.readline().strip() != "ready":
            raise RuntimeError("the viewers did not connect")
    cpu0, loop0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
    fps, events = fake_loop(store, [(str(s), str(c)) for s, c in deal.plays], seconds,
                            card_every)
    # CPU the rest of this process (the web server) used per second: unlike frames per second,
    # immune to other programs loading the machine.
    server = ((time.process_time() - cpu0) - (time.thread_time() - loop0)) / (
        time.perf_counter() - wall0)
    seen: list[list[tuple[int, float]]] = []
    client_cpu = 0.0
    if child is not None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out, _ = child.communicate(timeout=seconds + 30)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        client_cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
        seen = json.loads(out.strip().splitlines()[-1])
    latencies = []
    for viewer in seen:
        for ev in events:
            arrival = next((t for seq, t in viewer if seq >= ev.seq), None)
            if arrival is not None:
                latencies.append(arrival - ev.time)
    return {"fps": fps, "server": server, "loop_cpu": LOOP_CPU[-1], "latencies": latencies,
            "viewers": len(seen),
            "client_cpu": client_cpu / (seconds + 3),
            "expected": len(seen) * len(events)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--viewers", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=4.0, help="per window (max 30)")
    parser.add_argument("--rounds", type=int, default=3,
                        help="windows alone and with viewers, alternated (max 10)")
    parser.add_argument("--card-every", type=float, default=0.25)
    parser.add_argument("--client", nargs=3, metavar=("PORT", "N", "SECONDS"),
                        help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.client:
        client_main(int(args.client[0]), int(args.client[1]), float(args.client[2]))
        return 0
    seconds = min(max(args.seconds, 1.0), 30.0)
    rounds = min(max(args.rounds, 1), 10)
    viewers = min(max(args.viewers, 1), 500)

    from device.store import EventStore
    from vision.deal_script import play_deal

    _pin(_MAIN_CPUS)()
    alone: list[dict[str, Any]] = []
    watched: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        store = EventStore(Path(tmp) / "belote.db")
        port = _free_port()
        server = _serve(store, port)
        store.append("game_started", {"rules": "ffb-coinche", "players": {}, "teams": {}},
                     actor="referee")
        # Alternate short windows so that other programs' load drifts over both conditions.
        for r in range(rounds):
            for n, out in ((0, alone), (viewers, watched)):
                deal = play_deal(random.Random(2 * r + bool(n)), "ffb-coinche")
                out.append(_window(store, deal, seconds, args.card_every, n, port))
        server.should_exit = True
        store.close()

    latencies = [x for w in watched for x in w["latencies"]]
    expected = sum(w["expected"] for w in watched)
    fps_alone = statistics.median(w["fps"] for w in alone)
    fps_watched = statistics.median(w["fps"] for w in watched)
    print(f"{rounds} rounds of {seconds:g} s windows; a card every {args.card_every:g} s; "
          f"viewers connected: {min(w['viewers'] for w in watched)}/{viewers}")
    if latencies:
        print(f"push latency: median {1000 * statistics.median(latencies):.0f} ms, "
              f"p95 {1000 * statistics.quantiles(latencies, n=20)[-1]:.0f} ms, "
              f"max {1000 * max(latencies):.0f} ms over {len(latencies)} deliveries "
              f"({expected - len(latencies)} missed)")
    each_alone = ", ".join(f"{w['fps']:.1f}" for w in alone)
    each_watched = ", ".join(f"{w['fps']:.1f}" for w in watched)
    print(f"fake vision loop: median {fps_alone:.1f} fps alone ({each_alone}), "
          f"{fps_watched:.1f} fps with {viewers} viewers ({each_watched}): "
          f"{100 * (1 - fps_watched / fps_alone):+.1f}% drop")
    cpu_alone = statistics.median(w["server"] for w in alone)
    cpu_watched = statistics.median(w["server"] for w in watched)
    print(f"web server CPU in this process: {100 * cpu_alone:.1f}% of a core alone, "
          f"{100 * cpu_watched:.1f}% with {viewers} viewers (the loop's worst-case share "
          "if both had to share one core)")
    per_frame = statistics.median(w["loop_cpu"] for w in alone + watched)
    print(f"the loop needs {1000 * per_frame:.1f} ms of CPU per frame: on a core of its own it "
          f"would run at {1 / per_frame:.0f} fps and lose {100 * cpu_watched:.1f}% to the server "
          "at most; the wall-clock fps above also carry the load of other programs")
    client = statistics.median(w["client_cpu"] for w in watched)
    print(f"viewers' process: {100 * client:.0f}% of a core, pinned to CPUs "
          f"{sorted(_VIEWER_CPUS)}; loop and server pinned to {sorted(_MAIN_CPUS)}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
