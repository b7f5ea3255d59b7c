"""`belote demo`: the whole companion on a simulated deal, no camera needed, served live.

It takes the bundled deal (`device/demo/deal_000.mp4` with its true record) or films a fresh one
(`--simulate`, needs the fetched artwork), enters the contract as a referee would, runs the real
pipeline on the video (frame source → detector → tracker → event log → engine) while the live
page shows it at http://127.0.0.1:8000, then prints the engine's score sheet and how the camera's
record compares with the true one.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HELP = "Run the companion on a simulated deal (no camera) and serve the live page."

DEMO_DIR = Path(__file__).resolve().parent.parent / "demo"
PLAYERS = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=8000, help="port of the live page (8000)")
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (127.0.0.1)")
    parser.add_argument("--no-serve", action="store_true",
                        help="just read the deal, print the verdict and exit")
    parser.add_argument("--open", action="store_true", help="open the live page in a browser")
    parser.add_argument("--simulate", action="store_true",
                        help="film a fresh deal (needs fetched artwork) instead of the bundled one")
    parser.add_argument("--seed", type=int, default=1, help="seed of --simulate (1)")
    parser.add_argument("--video", type=Path, metavar="DEAL_XXX.mp4",
                        help="a video written by `belote simulate` (its .json beside it)")
    parser.add_argument("--speed", type=float, default=None,
                        help="video seconds per second while serving (default 2; --no-serve: as "
                        "fast as possible)")
    parser.add_argument("--model", help="detector model (default: the shipped one)")
    parser.add_argument("--db", type=Path, help="event log (default: a temporary file)")
    parser.add_argument("--pin", default="1234", help="referee console PIN (1234)")


@dataclass
class DealRun:
    """What the pipeline made of one simulated deal."""

    truth: dict[str, Any]
    seen: dict[str, Any]
    events: list[Any]
    health: Any
    wall_s: float


class PacedSource:
    """Hands out a file source's frames no faster than `speed` times real time (for watching)."""

    def __init__(self, source: Any, speed: float) -> None:
        self.source, self.speed = source, speed
        self.live = False
        self.start: float | None = None

    def read(self) -> Any:
        frame = self.source.read()
        if frame is not None and self.speed > 0:
            if self.start is None:
                self.start = time.monotonic() - frame.time / self.speed
            wait = self.start + frame.time / self.speed - time.monotonic()
            if wait > 0:
                time.sleep(wait)
        return frame

    def close(self) -> None:
        self.source.close()


def load_simulated(video: Path) -> tuple[Path, dict[str, Any]]:
    """A simulated video and its true record (the .json of the same name)."""
    record_path = video.with_suffix(".json")
    if not video.is_file():
        raise FileNotFoundError(f"{video}: no such video")
    if not record_path.is_file():
        raise FileNotFoundError(f"{record_path}: the true record of {video.name} is missing")
    truth = json.loads(record_path.read_text(encoding="utf-8"))
    if "simulated" not in (truth.get("meta") or {}):
        raise ValueError(f"{record_path}: not written by `belote simulate` (no meta.simulated)")
    return video, truth


def referee_events(store: Any, truth: dict[str, Any]) -> None:
    """What a referee enters before the deal: the game, the dealer and the contract."""
    store.append("game_started", {"rules": truth["rules"], "players": PLAYERS,
                                  "teams": {"NS": "Nord-Sud", "EW": "Est-Ouest"}}, actor="referee")
    store.append("deal_started", {"dealer": truth["dealer"]}, actor="referee")
    store.append("contract", truth["contract"], actor="referee")


def run_pipeline(video: Path, truth: dict[str, Any], store: Any, detector: Any, *,
                 evidence_dir: Path | None = None, speed: float = 0.0, health: Any = None,
                 stop: threading.Event | None = None) -> DealRun:
    """The real loop on a simulated video: video source → detector → tracker → event log."""
    from device.config import GeometryConfig, TrackerConfig
    from device.loop import Health, restore_tracker, run_loop
    from device.sources import VideoFileSource
    from vision.tracker import TableTracker, TrackerSettings

    sim = truth["meta"]["simulated"]
    referee_events(store, truth)
    tracker = TableTracker(None, TrackerSettings.from_config(TrackerConfig().model_dump()),
                           truth["rules"])
    restore_tracker(tracker, store)
    source: Any = VideoFileSource(video, lores_width=None)
    if speed > 0:
        source = PacedSource(source, speed)
    health = health or Health()
    started = time.perf_counter()
    try:
        run_loop(source, detector, tracker, store, stop or threading.Event(), health=health,
                 evidence_dir=evidence_dir, geometry=GeometryConfig(**sim["geometry"]))
    finally:
        source.close()
    wall = time.perf_counter() - started
    events = store.events()
    deal = played_deal(events)
    seen = deal.record(truth["rules"]) if deal is not None else {}
    return DealRun(truth, seen, events, health, wall)


def played_deal(events: list[Any]) -> Any:
    """The deal the log shows played (`device.web.fold.DealLog`), or None."""
    from device.web.fold import fold

    game = fold(events)
    # The empty table after the last trick starts a new (empty) deal: judge the one played.
    played = [d for d in game.deals if d.plays] or game.deals
    return played[-1] if played else None


def replay_truth(truth: dict[str, Any], store: Any, speed: float = 0.0,
                 stop: threading.Event | None = None) -> DealRun:
    """No detector: write the true plays as the camera would have, at their video times."""
    from device.loop import Health
    from device.web.fold import fold

    sim = truth["meta"]["simulated"]
    referee_events(store, truth)
    moments = [(t["t_settled"], "card_played", i) for i, t in enumerate(sim["timeline"])]
    moments += [(t, "trick_gathered", i) for i, t in enumerate(sim["gathered"])]
    started = time.perf_counter()
    for t, kind, i in sorted(moments):
        if speed > 0 and stop is not None and stop.wait(
                max(0.0, started + t / speed - time.perf_counter())):
            break
        if kind == "card_played":
            seat, card = truth["plays"][i]
            store.append(kind, {"seat": seat, "card": card, "t": t, "confidence": 1.0,
                                "uncertain": False, "alternatives": [], "evidence": None},
                         actor="system")
        else:
            store.append(kind, {"t": t}, actor="system")
    store.append("deal_over", {}, actor="system")
    events = store.events()
    seen = fold(events).deals[-1].record(truth["rules"])
    return DealRun(truth, seen, events, Health(), time.perf_counter() - started)


def verdicts(run: DealRun, title: str = "What the camera saw"
             ) -> tuple[dict[str, Any] | None, dict[str, Any], str]:
    """The engine's verdict on what the camera saw and on the truth, and the seen score sheet."""
    from engine.record import RecordError, judge, load_record
    from engine.sheet import score_sheet

    truth = {k: v for k, v in run.truth.items() if k != "meta"}
    true_verdict = judge(load_record(truth))
    try:
        seen = load_record(run.seen)
    except RecordError as exc:
        return None, true_verdict, f"the camera's record cannot be judged: {exc}"
    return judge(seen), true_verdict, score_sheet(seen, title=title)


def compare(run: DealRun) -> str:
    """One line per figure: plays recovered, flags, score, against the true record."""
    seen_verdict, true_verdict, _ = verdicts(run)
    truth_plays = [tuple(p) for p in run.truth["plays"]]
    deal = played_deal(run.events)  # the cards as the log names them, deduced ones too
    seen_plays = [(p.seat, p.card) for p in deal.plays] if deal is not None else []
    right = sum(a == b for a, b in zip(truth_plays, seen_plays, strict=False))
    lines = [f"plays read right (card, seat, order): {right}/{len(truth_plays)}"
             + ("" if len(seen_plays) == len(truth_plays) else f" ({len(seen_plays)} recorded)")]
    found = (seen_verdict or {}).get("violations", [])
    flags = {(v["play"], v["rule"]) for v in found if "unless" not in v}
    doubted = {(v["play"], v["rule"]) for v in found if "unless" in v}
    expected = {(v["play"], v["rule"]) for v in true_verdict["violations"]}
    lines.append(f"illegal plays flagged: {len(flags & expected)}/{len(expected)}, "
                 f"false flags: {len(flags - expected)}; in doubt (a misreading would clear "
                 f"them; the referee checks): {len(doubted & expected)} true, "
                 f"{len(doubted - expected)} false")
    same = seen_verdict is not None and seen_verdict["score"] == true_verdict["score"]
    lines.append(f"score {'equals' if same else 'DIFFERS from'} the true record's: "
                 f"{(seen_verdict or {}).get('score')} vs {true_verdict['score']}")
    return "\n".join(lines)


def _serve(store: Any, health: Any, pin: str, evidence: Path, host: str, port: int) -> Any:
    import uvicorn

    from device.config import Config
    from device.web.app import create_app

    config = Config.model_validate({"storage": {"evidence_dir": str(evidence)},
                                    "server": {"referee_pin": pin, "port": port}})
    app = create_app(store, health, config, referee_pin=pin)
    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, name="web", daemon=True)
    thread.start()
    for _ in range(100):  # wait until it listens (or failed to)
        if server.started or not thread.is_alive():
            break
        time.sleep(0.05)
    if not server.started:
        raise OSError(f"cannot serve on {host}:{port} (in use? try --port)")
    return server


def _pick_deal(args: argparse.Namespace, work: Path) -> Path:
    if args.video is not None:
        video: Path = args.video
        return video
    if args.simulate:
        from vision.simulate import simulate_deals

        print(f"filming a fresh deal (seed {args.seed}) with the held-out card designs...")
        files = simulate_deals(work / "deal", deals=1, seed=args.seed, illegal=1, fps=8,
                               pace=0.7, noise=False)
        return files[0].video
    return DEMO_DIR / "deal_000.mp4"


def run(args: argparse.Namespace) -> int:
    from device.loop import stop_on_signals

    stop = threading.Event()
    stop_on_signals(stop)  # Ctrl-C or SIGTERM: finish the frame, stop serving, exit 0
    work = Path(tempfile.mkdtemp(prefix="belote-demo-"))
    try:
        return _run(args, work, stop)
    finally:
        if not any(work.iterdir()):  # --db elsewhere, or stopped before anything was written
            work.rmdir()


def _run(args: argparse.Namespace, work: Path, stop: threading.Event) -> int:
    from device.loop import Health
    from device.store import EventStore

    try:
        video, truth = load_simulated(_pick_deal(args, work))
    except (OSError, ValueError) as exc:
        print(f"demo: {exc}", file=sys.stderr)
        shutil.rmtree(work / "deal", ignore_errors=True)  # a deal half filmed; nothing recorded
        return 2
    from vision.detector import ModelError, load_detector

    try:
        from vision.two_stage import with_classifier

        detector: Any = with_classifier(load_detector(args.model, boxes=True), felt=True)
    except ModelError as exc:
        # Without a model the page can still show the deal: the true plays, at their times.
        print(f"demo: {exc}\ndemo: no detector, so the true record is replayed instead of the "
              "video (train one: belote train)", file=sys.stderr)
        detector = None
    db = args.db or work / "belote.db"
    store = EventStore(db)
    evidence = Path(db).parent / "evidence"
    health = Health()
    c = truth["contract"]
    print(f"deal: {video.name}, dealer {truth['dealer']}, contract {c['taker']} {c['bid']} "
          f"{c['trump']}{' coinché' if c.get('coinche', 1) > 1 else ''} ({truth['rules']})")
    print(f"detector: {detector!r}; event log: {db}" if detector else f"event log: {db}")
    server = None
    if not args.no_serve:
        try:
            server = _serve(store, health, args.pin, evidence, args.host, args.port)
        except OSError as exc:
            print(f"demo: {exc}", file=sys.stderr)
            return 2
        url = f"http://{args.host}:{args.port}/"
        print(f"live page: {url}   referee: {url}referee (PIN {args.pin})   overlay: {url}overlay")
        if args.open:
            import webbrowser

            webbrowser.open(url)
    speed = args.speed if args.speed is not None else (0.0 if args.no_serve else 2.0)
    if detector is None:
        result = replay_truth(truth, store, speed, stop)
    else:
        print("reading the video: camera → detector → tracker → engine ...")
        result = run_pipeline(video, truth, store, detector, evidence_dir=evidence, speed=speed,
                              health=health, stop=stop)
    title = "What the camera saw" if detector else "The true record (no detector)"
    seen_verdict, _true, sheet = verdicts(result, title)
    print()
    print(sheet)
    print()
    if detector is not None:
        print(compare(result))
    h = result.health
    if h.frames:
        print(f"pipeline: {h.frames} frames in {result.wall_s:.1f} s "
              f"({h.frames / result.wall_s:.1f} frames/s; detector {h.ms.get('detect', 0):.0f} "
              "ms/frame)")
    if server is None:
        store.close()
        return 0 if seen_verdict is not None else 1
    if not stop.is_set():
        print(f"\nserving {url} — Ctrl-C to stop")
    while not stop.wait(0.5):
        pass
    server.should_exit = True
    store.close()
    return 0
