"""The companion's loop: frame source → detector → tracker → event log, with health figures.

Everything the tracker concludes is appended to the `EventStore` before anything else happens, with
an evidence picture (a crop of the full-resolution frame) written first; on start the tracker is
rebuilt from the log, so a restart resumes the game exactly where it was.

>>> stop = threading.Event()                                        # doctest: +SKIP
>>> health = run_loop(source, detector, tracker, store, stop)      # doctest: +SKIP
>>> health.to_json()["fps"]                                         # doctest: +SKIP
14.8
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.store import EventStore

STAGES = ("read", "detect", "track", "store")


@dataclass
class Health:
    """Live figures for the pages: frames per second, milliseconds per stage, camera state."""

    fps: float = 0.0
    ms: dict[str, float] = field(default_factory=lambda: dict.fromkeys(STAGES, 0.0))
    frames: int = 0
    dropped: int = 0  # frames the camera made that we never saw (we were busy)
    read_failures: int = 0  # reads that returned nothing
    camera: str = "down"
    reopens: int = 0
    detections: int = 0  # in the last frame
    last_frame_time: float | None = None  # the frame's own clock (video time for files)
    started: float = field(default_factory=time.time)
    last_error: str | None = None
    running: bool = False
    evidence_failures: int = 0  # plays stored without their picture (disk full, read-only)
    deck_cards: int | None = None  # cards the deck memory knows (None: no memory)
    deck_deals: int = 0  # deals it learnt from

    def to_json(self) -> dict[str, Any]:
        return {
            "fps": round(self.fps, 2),
            "ms": {k: round(v, 2) for k, v in self.ms.items()},
            "frames": self.frames,
            "dropped": self.dropped,
            "read_failures": self.read_failures,
            "camera": self.camera,
            "reopens": self.reopens,
            "detections": self.detections,
            "last_frame_time": self.last_frame_time,
            "uptime_s": round(time.time() - self.started, 1),
            "last_error": self.last_error,
            "running": self.running,
            "evidence_failures": self.evidence_failures,
            "deck_cards": self.deck_cards,
            "deck_deals": self.deck_deals,
        }

    def _smooth(self, stage: str, ms: float) -> None:
        old = self.ms.get(stage, 0.0)
        self.ms[stage] = ms if self.frames <= 1 else 0.9 * old + 0.1 * ms


def write_evidence(frame: Any, box: list[float] | None, directory: Path, name: str) -> str | None:
    """Cut the card (with a margin) out of the full-resolution frame; returns the file name, or
    None when there is nothing to cut. A disk that refuses the file raises OSError (no half-written
    file is left)."""
    if box is None:
        return None
    import cv2

    full = frame.full
    sy = full.shape[0] / frame.image.shape[0]
    sx = full.shape[1] / frame.image.shape[1]
    x0, y0, x1, y1 = box
    mx, my = 0.3 * (x1 - x0), 0.3 * (y1 - y0)
    h, w = full.shape[:2]
    crop = full[
        max(0, int((y0 - my) * sy)) : min(h, int((y1 + my) * sy) + 1),
        max(0, int((x0 - mx) * sx)) : min(w, int((x1 + mx) * sx) + 1),
    ]
    if crop.size == 0:
        return None
    path = directory / name
    tmp = directory / f".{name}.tmp.jpg"
    try:
        directory.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(str(tmp), crop, [cv2.IMWRITE_JPEG_QUALITY, 85]):
            raise OSError(f"cannot write {tmp}")
        os.replace(tmp, path)  # the event never names a half-written file
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise
    return f"evidence/{name}"


def run_loop(
    source: Any,
    detector: Any,
    tracker: Any,
    store: EventStore,
    stop_event: threading.Event,
    *,
    health: Health | None = None,
    evidence_dir: str | Path | None = None,
    geometry: Any = None,
    on_event: Callable[[Any], None] | None = None,
    max_frames: int | None = None,
) -> Health:
    """Run until `stop_event` is set or a file source ends. The tracker must already be restored
    from `store` (see `restore_tracker`); events others write meanwhile are passed to it."""
    health = health or Health()
    health.running = True
    evidence = Path(evidence_dir) if evidence_dir else None
    seen_seq = store.last_seq
    mine: set[int] = set()
    last_index: int | None = None
    last_frame: Any = None
    tick = time.perf_counter()
    # A deck memory (`vision.deck_memory`) learns from the crops read and the plays recorded.
    memory: Any = getattr(detector, "memory", None)

    def learnt() -> None:
        health.deck_cards, health.deck_deals = int((memory.counts > 0).sum()), memory.deals

    if memory is not None:
        learnt()  # what it kept from before a restart

    def keep(events: list[dict[str, Any]], frame: Any) -> None:
        """Store the tracker's events (with an evidence picture for each play)."""
        for ev in events:
            if memory is not None and memory.witness(ev):
                learnt()
            data = ev["data"]
            if ev["type"] == "card_played" and evidence is not None and frame is not None:
                name = f"{store.last_seq + 1:06d}-{data['card']}.jpg"
                try:
                    data["evidence"] = write_evidence(frame, ev.get("box"), evidence, name)
                except OSError:  # a full or read-only disk loses the picture, never the play
                    data["evidence"] = None
                    health.evidence_failures += 1
            stored = store.append(ev["type"], data, actor="camera")
            ev["seq"] = stored.seq  # the tracker's history holds this dict: undo finds it
            mine.add(stored.seq)
            if on_event is not None:
                on_event(stored)

    try:
        while not stop_event.is_set():
            t0 = time.perf_counter()
            frame = source.read()
            t1 = time.perf_counter()
            health.camera = getattr(source, "state", "up" if frame is not None else "down")
            health.reopens = getattr(source, "reopens", 0)
            health.last_error = getattr(source, "last_error", health.last_error)
            if frame is None:
                health.read_failures += 1
                if not getattr(source, "live", False):
                    # The video or folder has ended: cards held for a turn are recorded.
                    keep(tracker.finish(), last_frame)
                    break
                continue
            if last_index is not None and frame.index > last_index + 1:
                health.dropped += frame.index - last_index - 1
            last_index = frame.index
            if tracker.geometry is None and geometry is not None:
                from vision.geometry import TableGeometry

                h, w = frame.image.shape[:2]
                tracker.geometry = TableGeometry.from_config(geometry, (w, h))
                background = getattr(detector, "background", None)
                if background is not None:  # patches of the felt read before any card is
                    background.expected = tracker.geometry.card_length
            if frame.main is not None and getattr(detector, "reads_main", False):
                detections = detector.detect(frame.image, main=frame.main)  # names read large
            else:
                detections = detector.detect(frame.image)
            if memory is not None:
                memory.saw(frame.time, detector.last_crops)
            t2 = time.perf_counter()
            if store.last_seq > seen_seq:  # the referee wrote something: tell the tracker first
                for e in store.events(seen_seq):
                    if e.seq not in mine:
                        tracker.observe(e)
                        if memory is not None:
                            memory.witness(e.to_json())
                            learnt()  # (a new game forgets the deck)
                    seen_seq = e.seq
            events = tracker.update(frame.time, detections)
            last_frame = frame
            t3 = time.perf_counter()
            keep(events, frame)
            t4 = time.perf_counter()
            health.frames += 1
            health.detections = sum(d.confidence > 0 for d in detections)  # (not weak readings)
            health.last_frame_time = frame.time
            for stage, ms in zip(STAGES, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                health._smooth(stage, ms * 1000)
            now = time.perf_counter()
            period = now - tick
            tick = now
            if period > 0:
                health.fps = 1 / period if health.frames <= 1 else 0.9 * health.fps + 0.1 / period
            if max_frames is not None and health.frames >= max_frames:
                break
    finally:
        health.running = False
    return health


def restore_tracker(tracker: Any, store: EventStore) -> int:
    """Replay the log into the tracker; returns how many plays the current deal already has."""
    tracker.restore(store.events())
    return len(tracker.view.plays)


def ensure_game(store: EventStore, rules: Any) -> None:
    """A fresh log starts with `game_started` carrying the configured rules."""
    if not any(e.type == "game_started" for e in store.events()):
        store.append("game_started", {"rules": rules, "players": {}, "teams": {}}, actor="system")


def stop_on_signals(stop_event: threading.Event) -> None:
    """SIGTERM (systemd) and SIGINT (Ctrl-C) ask the loop to finish its frame and stop."""

    def handler(signum: int, _frame: Any) -> None:
        print(f"stopping ({signal.Signals(signum).name})", file=sys.stderr)
        stop_event.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)


class Companion:
    """The whole device from a `Config`: camera, detector, tracker, log; `run()` blocks."""

    def __init__(
        self,
        config: Any,
        *,
        source: Any = None,
        detector: Any = None,
        store: EventStore | None = None,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.config = config
        self.log = log or (lambda msg: print(msg, file=sys.stderr))
        self.store = store or EventStore(config.storage.db)
        self.health = Health()
        self.stop_event = threading.Event()
        self._source = source
        self._detector = detector
        ensure_game(self.store, config.rules.spec())
        self.tracker = self.build_tracker()
        n = restore_tracker(self.tracker, self.store)
        if n:
            self.log(f"resumed: {n} plays already recorded in this deal")

    def build_tracker(self) -> Any:
        from vision.tracker import TableTracker, TrackerSettings

        settings = TrackerSettings.from_config(self.config.tracker.model_dump())
        return TableTracker(None, settings, self.config.rules.spec())

    def build_source(self) -> Any:
        from device.sources import ResilientSource, open_source

        cam = self.config.camera

        def opener() -> Any:
            return open_source(
                cam.source, size=(cam.width, cam.height),
                lores_size=(cam.lores_width, cam.lores_height), fps=cam.fps, realtime=True,
            )

        first = opener()  # a typo in the source fails now, loudly, not in a retry loop
        if not first.live:
            return first
        made = [first]

        def reopen() -> Any:
            return made.pop() if made else opener()

        return ResilientSource(
            reopen, stall_s=cam.stall_s, max_backoff_s=cam.max_backoff_s, log=self.log
        )

    def build_detector(self) -> Any:
        from vision.detector import load_detector

        d = self.config.detector
        detector = load_detector(d.model, d.backend, imgsz=d.imgsz, conf=d.conf,
                                 boxes=d.second_stage)
        if d.second_stage:
            from vision.two_stage import with_classifier

            return with_classifier(detector, turns=d.classifier_turns, felt=d.felt,
                                   read_main=d.read_main, deck_memory=d.deck_memory,
                                   memory_path=self.config.storage.deck_memory)
        return detector

    def run(self, source: Any = None, detector: Any = None) -> Health:
        """Read, detect, track and record until `stop()` (or SIGTERM with `stop_on_signals`)."""
        source = source or self._source or self.build_source()
        detector = detector or self._detector or self.build_detector()
        try:
            return run_loop(
                source, detector, self.tracker, self.store, self.stop_event,
                health=self.health, evidence_dir=self.config.storage.evidence_dir,
                geometry=self.config.geometry,
            )
        finally:
            source.close()

    def stop(self) -> None:
        self.stop_event.set()
