"""A scripted table for loop tests: a live-like source whose frames carry their own time, a fake
detector that reads that time back and returns the cards the script has on the felt then.

Run as a program it is the companion on that table (used to kill -9 it and restart it):
    python tests/device/scripted_table.py --db DB [--epoch EPOCH] [--tricks 3]
"""

from __future__ import annotations

import argparse
import threading
import time

import numpy as np

from device.loop import restore_tracker, run_loop, stop_on_signals
from device.sources import Frame
from device.store import EventStore
from vision.detections import Detection
from vision.geometry import TableGeometry
from vision.tracker import TableTracker, TrackerSettings

SPOT = {"S": (400, 485), "N": (400, 315), "E": (485, 400), "W": (315, 400)}
# Dealer E, counterclockwise: N leads the first trick; the zone a card lies in names its seat.
PLAYS = [
    ("N", "7H"), ("W", "8H"), ("S", "9H"), ("E", "AH"),
    ("E", "7C"), ("N", "8C"), ("W", "QC"), ("S", "KC"),
    ("S", "TD"), ("E", "JD"), ("N", "QD"), ("W", "KD"),
    ("W", "7S"), ("S", "8S"), ("E", "9S"), ("N", "TS"),
]
T0, PACE, HOLD, GAP = 1.0, 0.35, 2.5, 0.4  # empty table, between cards, full trick shown, after
TRICK_S = 4 * PACE + HOLD + GAP


def settings() -> TrackerSettings:
    return TrackerSettings(steady_s=0.1, gather_s=0.3, empty_s=0.2, forget_s=0.3)


def geometry() -> TableGeometry:
    return TableGeometry.full((800, 800))


def scene(t: float, tricks: int = 3) -> list[Detection]:
    """The cards on the felt at scenario time t (seconds)."""
    out = []
    for j in range(tricks):
        start = T0 + j * TRICK_S
        if not start <= t < start + 4 * PACE + HOLD:
            continue
        for k in range(4):
            if t >= start + k * PACE:
                seat, card = PLAYS[4 * j + k]
                x, y = SPOT[seat]
                out.append(Detection(card, 0.9, (x - 28, y - 44, x + 28, y + 44)))
    return out


def end_time(tricks: int = 3) -> float:
    return T0 + tricks * TRICK_S + 0.5


class ScriptedSource:
    """Frames at `fps` on the wall clock; each frame's time is written into its first pixels."""

    live = False  # it ends when the script does

    def __init__(self, epoch: float, end: float, fps: float = 30.0) -> None:
        self.epoch, self.end, self.period = epoch, end, 1.0 / fps
        self.index = 0
        self.state = "up"

    def read(self) -> Frame | None:
        t = time.time() - self.epoch
        if t > self.end:
            return None
        time.sleep(self.period)
        t = time.time() - self.epoch
        image = np.zeros((32, 32, 3), np.uint8)
        image[0, :8, 0] = np.frombuffer(np.float64(t).tobytes(), np.uint8)
        self.index += 1
        return Frame(image, t, None, self.index)

    def close(self) -> None:
        pass


class ScriptedDetector:
    """Returns the script's cards for the time encoded in the frame."""

    def __init__(self, tricks: int = 3) -> None:
        self.tricks = tricks

    def detect(self, bgr: np.ndarray) -> list[Detection]:
        t = float(np.frombuffer(bgr[0, :8, 0].tobytes(), np.float64)[0])
        return scene(t, self.tricks)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    # (the kill -9 test shares one epoch across restarts; otherwise the script starts once the
    # program is ready, so a slow start on a loaded machine does not skip cards)
    parser.add_argument("--epoch", type=float, default=None)
    parser.add_argument("--tricks", type=int, default=3)
    args = parser.parse_args()
    store = EventStore(args.db)
    tracker = TableTracker(geometry(), settings())
    restore_tracker(tracker, store)
    stop = threading.Event()
    stop_on_signals(stop)
    epoch = time.time() if args.epoch is None else args.epoch
    source = ScriptedSource(epoch, end_time(args.tricks))
    run_loop(source, ScriptedDetector(args.tricks), tracker, store, stop)
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
