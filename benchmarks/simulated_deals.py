"""The acceptance check of the companion (issue 4) on simulated deals.

    .venv/bin/python benchmarks/simulated_deals.py --deals 20 --illegal 10 --out runs/simdeals

Films N deals with the held-out card designs (hands passing over the cards, K revokes injected),
runs the real pipeline on each video (video → detector → tracker → event log → engine) and prints:
plays recovered with the right card, seat and order; injected illegal plays flagged with their
proof; false flags; deals whose score equals the true record's; the latency from the moment a
card settles (still, uncovered) to the video time it is recorded (median, worst); the pipeline's
frames per second. `--threads 2` limits the detector (and OpenCV) to 2 cores. `--oracle` replaces
the detector with the renderer's own labels, to measure the tracker alone. `--reuse` keeps videos
already in --out.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class OracleDetector:
    """Every card the renderer says is readable in frame k, with confidence 0.9 (k = call count)."""

    def __init__(self, record: dict) -> None:
        from vision.simulate import replay_script

        _deal, self.timeline, self.filming = replay_script(record)
        self.fps = record["meta"]["simulated"]["fps"]
        self.k = 0
        self.last_ms = 0.0

    def detect(self, _image):  # -> list[Detection]
        from vision.detections import Detection

        scene = self.timeline.scene_at(self.k / self.fps)
        self.k += 1
        placements, occluders = self.filming.layout(scene)
        _img, labels = self.filming.scene.render(placements, occluders, effects=False)
        return [Detection(lab.card, 0.9, lab.box) for lab in labels if lab.labelled]


def measure(runs: list, frames: int, wall: float) -> list[str]:
    """The figures of the acceptance check, one per line."""
    from device.commands.demo import verdicts

    plays = right = injected = flagged = false_flags = same_score = 0
    latencies: list[float] = []
    from_landing: list[float] = []
    per_deal = []
    for run in runs:
        seen_v, true_v, _ = verdicts(run)
        sim = run.truth["meta"]["simulated"]
        truth = [tuple(p) for p in run.truth["plays"]]
        seen = [tuple(p) for p in run.seen.get("plays", [])]
        ok = [i for i, p in enumerate(truth) if i < len(seen) and seen[i] == p]
        plays += len(truth)
        right += len(ok)
        expected = {(v["play"], v["rule"]) for v in true_v["violations"]}
        got = {(v["play"], v["rule"]): v for v in (seen_v or {}).get("violations", [])}
        injected += len(sim["illegal"])
        flagged += sum(1 for i in sim["illegal"]
                       if any(p == i and v["proven_by"] is not None for (p, _), v in got.items()))
        false_flags += len(set(got) - expected)
        same = seen_v is not None and seen_v["score"] == true_v["score"]
        same_score += same
        # Latency: the video time of each correct card_played event minus when the card settled.
        t_settled = {e["play"]: e["t_settled"] for e in sim["timeline"]}
        t_landed = {e["play"]: e.get("t_landed", e["t_settled"]) for e in sim["timeline"]}
        camera = [e for e in run.events if e.type == "card_played" and e.actor == "camera"]
        for i in ok:
            if i < len(camera):
                latencies.append(float(camera[i].data["t"]) - t_settled[i])
                from_landing.append(float(camera[i].data["t"]) - t_landed[i])
        per_deal.append(f"{len(ok)}/{len(truth)}{'' if same else ' score!'}")
    lines = [
        f"deals: {len(runs)}; per deal (plays right): {' '.join(per_deal)}",
        f"plays recovered with the right card, seat and order: {right}/{plays}",
        f"injected illegal plays flagged with proof: {flagged}/{injected}",
        f"false flags: {false_flags}",
        f"deals whose score equals the true record's: {same_score}/{len(runs)}",
    ]
    if latencies:
        for name, values in (("settled (still, uncovered)", latencies),
                             ("landed (still, hand on it)", from_landing)):
            lines.append(f"latency from {name} to recorded, video s: median "
                         f"{statistics.median(values):.2f}, worst {max(values):.2f}, "
                         f"best {min(values):.2f}")
    lines.append(f"pipeline: {frames} frames in {wall:.1f} s = {frames / wall:.1f} fps "
                 f"(video is {runs[0].truth['meta']['simulated']['fps'] if runs else 0} fps)")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--illegal", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=Path("runs/simdeals"))
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--designs", nargs="+", help="default: the held-out designs")
    parser.add_argument("--threads", type=int, default=2, help="cores for the detector (2)")
    parser.add_argument("--oracle", action="store_true", help="renderer labels, not the detector")
    parser.add_argument("--reuse", action="store_true", help="keep the videos already in --out")
    args = parser.parse_args(argv)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "ORT_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    import json

    import cv2

    cv2.setNumThreads(args.threads)
    from device.commands.demo import run_pipeline
    from device.store import EventStore

    videos = sorted(args.out.glob("deal_*.json")) if args.reuse else []
    if len(videos) < args.deals:
        from vision.simulate import simulate_deals

        t0 = time.perf_counter()
        files = simulate_deals(args.out, args.deals, seed=args.seed, illegal=args.illegal,
                               designs=args.designs, fps=args.fps, pace=args.pace)
        print(f"filmed {len(files)} deals in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        videos = [f.record for f in files]
    videos = videos[: args.deals]
    detector = None
    if not args.oracle:
        from vision.detector import load_detector

        detector = load_detector()
        print(f"detector: {detector!r}", file=sys.stderr)
    runs, frames, wall = [], 0, 0.0
    from tqdm import tqdm

    for path in tqdm(videos, desc="pipeline", unit="deal", file=sys.stderr):
        truth = json.loads(path.read_text(encoding="utf-8"))
        video = path.with_name(truth["meta"]["simulated"]["video"])
        with tempfile.TemporaryDirectory() as tmp:
            store = EventStore(Path(tmp) / "belote.db")
            det = OracleDetector(truth) if args.oracle else detector
            run = run_pipeline(video, truth, store, det)
            store.close()
        runs.append(run)
        frames += run.health.frames
        wall += run.wall_s
    print("\n".join(measure(runs, frames, wall)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
