"""`belote replay`: the whole pipeline offline on a recorded video (or folder of pictures).

What the referee would have typed in (rules, dealer, contract) and the installation's calibration
come from the record beside the video (`deal_000.json` for `deal_000.mp4`, as `belote simulate`
writes them) or from the options; the plays come only from the pictures. `--check` compares them
with that record's plays and timeline.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from device.commands.reading import add_reading_arguments, load_reader

HELP = "Run the pipeline offline on a video or folder; print the record seen and the verdict."


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", type=Path, metavar="VIDEO|DIR",
                        help="a video, a folder of videos, or a folder of pictures")
    parser.add_argument("--json", action="store_true", help="print JSON (a list for a folder)")
    parser.add_argument("--model", help="detector model (default: the shipped one)")
    parser.add_argument("--backend", default="auto", help="detector backend (default auto)")
    parser.add_argument("--conf", type=float, default=None, help="detector confidence threshold")
    add_reading_arguments(parser)
    parser.add_argument("--config", type=Path, metavar="YAML",
                        help="take geometry, tracker and rules settings from this config")
    parser.add_argument("--rules", help="rules preset when no record sits beside the video")
    parser.add_argument("--dealer", choices=("N", "E", "S", "W"), help="the dealer")
    parser.add_argument("--contract", metavar="JSON",
                        help='e.g. \'{"taker": "N", "bid": 90, "trump": "H"}\'')
    parser.add_argument("--fps", type=float, default=10.0, help="frame rate of a picture folder")
    parser.add_argument("--check", action="store_true",
                        help="compare with the record beside the video (plays, latency)")
    parser.add_argument("--oracle", action="store_true",
                        help="simulated videos only: read the cards from the simulation instead "
                        "of the detector, to measure the tracker alone")


def _inputs(path: Path) -> list[Path]:
    from device.sources import VIDEO_SUFFIXES

    if path.is_dir():
        videos = sorted(p for p in path.iterdir() if p.suffix.lower() in VIDEO_SUFFIXES)
        return videos or [path]
    return [path]


def _beside(video: Path) -> dict[str, Any] | None:
    side = video.with_suffix(".json") if video.is_file() else video / "record.json"
    if not side.is_file():
        return None
    try:
        obj = json.loads(side.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ValueError(f"{side}: cannot read the record beside the video ({exc})") from None
    return obj if isinstance(obj, dict) else None


def replay(
    path: Path,
    detector: Any,
    *,
    referee: dict[str, Any] | None = None,
    config: Any = None,
    fps: float = 10.0,
    progress: bool = True,
) -> dict[str, Any]:
    """Run one video or picture folder through source → detector → tracker → log.

    `referee`: {"rules", "dealer", "contract"} as the referee would enter them, plus an optional
    "geometry" section (calibration). Returns {"source", "frames", "fps", "record", "verdict",
    "plays", "events"}.
    """
    import threading
    import time

    from tqdm import tqdm

    from device.config import Config, GeometryConfig
    from device.loop import restore_tracker, run_loop
    from device.sources import ImageFolderSource, VideoFileSource
    from device.store import EventStore
    from vision.tracker import TableTracker, TrackerSettings

    config = config or Config()
    referee = dict(referee or {})
    rules = referee.get("rules") or config.rules.spec()
    store = EventStore(":memory:")
    store.append("game_started", {"rules": rules, "players": {}, "teams": {}}, actor="referee")
    if referee.get("dealer"):
        store.append("deal_started", {"dealer": referee["dealer"]}, actor="referee")
    if referee.get("contract"):
        store.append("contract", dict(referee["contract"]), actor="referee")
    geometry = config.geometry
    if referee.get("geometry") and not config.geometry.corners:
        geometry = GeometryConfig.model_validate(referee["geometry"])
    background = getattr(detector, "background", None)
    if background is not None:
        background.reset()  # another video: another table, its felt learnt afresh
    settings = TrackerSettings.from_config(config.tracker.model_dump())
    tracker = TableTracker(None, settings, rules)
    restore_tracker(tracker, store)
    width = config.camera.lores_width
    source: Any = (ImageFolderSource(path, fps, width) if path.is_dir()
                   else VideoFileSource(path, width))
    bar = tqdm(total=source.frame_count or None, unit="frame", desc=path.name,
               disable=not progress, file=sys.stderr, leave=False)

    class _Counted:
        live = False

        def read(self) -> Any:
            frame = source.read()
            bar.update(frame is not None)
            return frame

    start = time.perf_counter()
    try:
        health = run_loop(_Counted(), detector, tracker, store, threading.Event(),
                          geometry=geometry)
    finally:
        bar.close()
        source.close()
    elapsed = time.perf_counter() - start
    events = store.events()
    plays, entries = first_deal_plays(events)
    record = {"rules": rules, "dealer": referee.get("dealer") or _dealer(events),
              "contract": referee.get("contract"), "plays": entries}
    return {
        "source": str(path),
        "frames": health.frames,
        "fps": round(health.frames / elapsed, 2) if elapsed > 0 else None,
        "ms": health.to_json()["ms"],  # per stage (read, detect, track, store), smoothed
        "record": record,
        "verdict": verdict_of(record),
        "plays": plays,
        "events": [e.to_json() for e in events],
    }


def first_deal_plays(events: list[Any]) -> tuple[list[dict[str, Any]], list[list[Any]]]:
    """The first deal's plays as the log tells them (the tracker's own corrections applied),
    and as the engine's record writes them (with the readings in doubt)."""
    from device.web.fold import fold

    folded = fold(events)
    if not folded.deals:
        return [], []
    data = {e.seq: e.data for e in events}
    plays = folded.deals[0].plays
    return [{"seat": p.seat, "card": p.card, "t": p.t, "seen": data[p.seq].get("seen"),
             "confidence": p.confidence, "uncertain": p.uncertain,
             "alternatives": p.alternatives, "read_as": p.read_as}
            for p in plays], [p.record_entry() for p in plays]


def _dealer(events: list[Any]) -> str | None:
    return next((e.data.get("dealer") for e in events if e.type == "deal_started"), None)


def verdict_of(record: dict[str, Any]) -> dict[str, Any] | None:
    """`belote score`'s object for a record seen by the camera (None without a contract)."""
    if not record.get("contract") or not record.get("dealer"):
        return None  # the camera cannot hear the auction: no contract, no verdict
    from engine.record import judge, load_record

    try:
        return judge(load_record(record))
    except ValueError as exc:
        return {"error": str(exc)}


def _check(result: dict[str, Any], truth: dict[str, Any]) -> dict[str, Any]:
    """How the plays seen compare with the true record: right plays and recording delay."""
    true_plays = [list(p) for p in truth.get("plays") or []]
    seen = [[p["seat"], p["card"]] for p in result["plays"]]  # deduced cards named
    right = sum(1 for a, b in zip(seen, true_plays, strict=False) if a == b)
    timeline = ((truth.get("meta") or {}).get("simulated") or {}).get("timeline") or []
    delays = sorted(p["t"] - s["t_settled"] for p, s in zip(result["plays"], timeline,
                                                              strict=False) if p["t"] is not None)
    out: dict[str, Any] = {"plays": len(true_plays), "seen": len(seen), "right": right,
                           "exact": seen == true_plays}
    if delays:
        out["delay_s"] = {"median": round(delays[len(delays) // 2], 3),
                          "max": round(delays[-1], 3)}
    verdict = result.get("verdict")
    if verdict and "violations" in verdict:
        injected = list(((truth.get("meta") or {}).get("simulated") or {}).get("illegal") or [])
        flagged = sorted({v["play"] for v in verdict["violations"] if "unless" not in v})
        doubted = sorted({v["play"] for v in verdict["violations"] if "unless" in v} - {*flagged})
        out["illegal"] = {"injected": injected, "flagged": flagged, "in_doubt": doubted,
                          "missed": [i for i in injected if i not in flagged],
                          "false": [i for i in flagged if i not in injected]}
        true_verdict = verdict_of(truth)
        if true_verdict and "score" in true_verdict:
            out["score_equal"] = verdict.get("score") == true_verdict["score"]
    return out


def run(args: argparse.Namespace) -> int:
    if not args.path.exists():
        print(f"replay: {args.path}: no such file or folder", file=sys.stderr)
        return 2
    from device.config import ConfigError, load_config

    try:
        config = load_config(args.config)
        contract = json.loads(args.contract) if args.contract else None
    except ConfigError as exc:
        print(f"replay: {exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"replay: --contract is not JSON ({exc})", file=sys.stderr)
        return 2
    detector = None
    if not args.oracle:
        try:
            kw = {} if args.conf is None else {"conf": args.conf}
            _, detector = load_reader(args, "replay", args.model or config.detector.model,
                                      config.detector.second_stage,
                                      config.detector.classifier_turns,
                                      config.detector.felt,
                                      deck_memory=config.detector.deck_memory,
                                      backend=args.backend, **kw)
        except (ValueError, FileNotFoundError) as exc:
            print(f"replay: {exc}", file=sys.stderr)
            return 2
    results = []
    inputs = _inputs(args.path)
    for path in inputs:
        try:
            truth = _beside(path)
            referee = {k: (truth or {}).get(k) for k in ("rules", "dealer", "contract")}
            referee["geometry"] = ((truth or {}).get("meta") or {}).get("simulated", {}).get(
                "geometry")
            for key, value in (("rules", args.rules), ("dealer", args.dealer),
                               ("contract", contract)):
                if value:
                    referee[key] = value
            if args.oracle:
                if truth is None or not truth.get("meta", {}).get("simulated"):
                    raise ValueError(f"{path}: --oracle needs the simulation's record beside it")
                from vision.simulate import OracleDetector

                detector = OracleDetector(truth)
            result = replay(path, detector, referee=referee, config=config, fps=args.fps)
        except ValueError as exc:  # SourceError, a bad record beside the video
            print(f"replay: {exc}", file=sys.stderr)
            return 2
        if args.check and truth:
            result["check"] = _check(result, truth)
        results.append(result)
        if not args.json:
            _print_text(result)
    if args.json:
        out = [{k: v for k, v in r.items() if k != "events"} for r in results]
        many = inputs != [args.path]  # a folder of videos gives a list
        json.dump(out if many else out[0], sys.stdout, indent=1)
        sys.stdout.write("\n")
    return 0


def _print_text(result: dict[str, Any]) -> None:
    ms = ", ".join(f"{k} {v:.2f}" for k, v in result["ms"].items())
    print(f"{result['source']}: {len(result['plays'])} plays in {result['frames']} frames "
          f"({result['fps']} frames/s; ms per frame: {ms})")
    for i, p in enumerate(result["plays"]):
        mark = "  ? " + ", ".join(f"{c} {v:.2f}" for c, v in p["alternatives"]) \
            if p["uncertain"] else ""
        print(f"  {i + 1:2d}. {p['seat']} {p['card']:>2}  at {p['t']:.1f} s{mark}")
    verdict = result["verdict"]
    if verdict is None:
        print("  no verdict: the dealer and contract are unknown (--dealer, --contract)")
    else:
        print("  verdict: " + json.dumps({k: verdict.get(k) for k in
                                          ("result", "score", "violations")}))
    if "check" in result:
        print("  check: " + json.dumps(result["check"]))
