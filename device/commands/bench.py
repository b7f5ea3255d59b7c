"""`belote bench`: detector speed against a stock YOLO11n at 640 px, and `belote detect`'s memory.

Both models run in the same process, on the same CPU threads, interleaved frame by frame so that
other load on the machine hits them equally; the stock model has random weights (speed only).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HELP = "Benchmark the detector: ms per frame vs stock YOLO11n@640 (ONNX), peak memory."

BASELINE = Path("cache/bench/yolo11n_640.onnx")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--model", type=Path, default=None,
        help="ONNX model (default: the shipped box model, else the 32-card detector)",
    )
    parser.add_argument("--frames", type=int, default=100, help="timed frames per model")
    parser.add_argument("--threads", type=int, default=2, help="ONNX Runtime threads (default 2)")
    parser.add_argument("--image", type=Path, default=None, help="frame to use (default: a photo)")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=BASELINE,
        help="stock YOLO11n@640 ONNX; exported with ultralytics when missing",
    )
    parser.add_argument(
        "--classifier",
        type=Path,
        default=None,
        help="card classifier timed as the second stage (default: the shipped one, if present)",
    )
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")


def run(args: argparse.Namespace) -> int:
    import cv2
    import numpy as np
    from tqdm import tqdm

    from vision.backends import ModelError
    from vision.backends.decode import decode, letterbox
    from vision.backends.onnx_backend import OnnxBackend
    from vision.detector import Detector, default_model
    from vision.two_stage import box_threshold

    model = args.model or default_model(boxes=True)  # the model the companion runs
    image = args.image or _default_image()
    bgr = cv2.imread(str(image)) if image else None
    if bgr is None:
        bgr = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    try:
        ours = OnnxBackend(model, threads=args.threads)
        baseline = _baseline(args.baseline)
    except (ModelError, ImportError) as exc:
        print(f"belote bench: {exc}", file=sys.stderr)
        return 2
    import onnxruntime as ort

    from vision.backends.onnx_backend import session_options

    # The same options as ours (threads, no spinning): the models differ, not their runtime.
    stock = ort.InferenceSession(str(baseline), session_options(args.threads),
                                 providers=["CPUExecutionProvider"])
    stock_in = stock.get_inputs()[0]
    stock_size = tuple(stock_in.shape[2:4])
    classifier = _classifier(args.classifier, args.threads)
    if classifier is False:
        return 2

    reader = Detector(ours, model)  # its class names and box threshold, as the companion's
    names, box_conf = reader.names, box_threshold(reader)
    times: dict[str, list[float]] = {"ours_infer": [], "ours_full": [], "stock_infer": []}
    if classifier is not None:
        times["two_stage"] = []
    boxes_seen = 0
    for i in tqdm(range(args.frames + 5), desc="bench", unit="frame", file=sys.stderr):
        t0 = time.perf_counter()
        tensor, box = letterbox(bgr, ours.input_size)
        t1 = time.perf_counter()
        raw = ours.run(tensor)
        t2 = time.perf_counter()
        decode(raw, box, names=names)
        t3 = time.perf_counter()
        stock_tensor, _ = letterbox(bgr, stock_size)
        t4 = time.perf_counter()
        stock.run(None, {stock_in.name: stock_tensor})
        t5 = time.perf_counter()
        if classifier is not None:  # the shipped reading: class-agnostic boxes, each re-read
            boxes = decode(raw, box, box_conf, names=names, unique=False)
            classifier.probabilities(bgr, [d.box for d in boxes])
            boxes_seen = len(boxes)
        t6 = time.perf_counter()
        if i >= 5:  # warm-up frames are not counted
            times["ours_infer"].append(t2 - t1)
            times["ours_full"].append((t1 - t0) + (t3 - t1))
            times["stock_infer"].append(t5 - t4)
            if classifier is not None:
                times["two_stage"].append((t2 - t0) + (t6 - t5))
    ms = {k: statistics.median(v) * 1000 for k, v in times.items()}
    # The fastest tenth: what the CPU gives when other processes leave it alone.
    p10 = {k: sorted(v)[len(v) // 10] * 1000 for k, v in times.items()}
    h, w = ours.input_size
    result = {
        "model": str(model),
        "input": f"{w}x{h}",
        "threads": args.threads,
        "frames": args.frames,
        "ms_per_frame_inference": round(ms["ours_infer"], 2),
        "ms_per_frame_full": round(ms["ours_full"], 2),
        "stock_yolo11n_640_ms": round(ms["stock_infer"], 2),
        "speedup": round(ms["stock_infer"] / ms["ours_infer"], 2),
        "p10_ms_per_frame_inference": round(p10["ours_infer"], 2),
        "p10_stock_yolo11n_640_ms": round(p10["stock_infer"], 2),
        "detect_peak_rss_mb": _detect_peak_rss(args.model, image),
    }
    if classifier is not None:
        result["two_stage_ms_per_frame"] = round(ms["two_stage"], 2)
        result["two_stage_boxes"] = boxes_seen
        result["two_stage_classifier_turns"] = classifier.turns
        result["two_stage_speedup"] = round(ms["stock_infer"] / ms["two_stage"], 2)
    if args.json:
        print(json.dumps(result))
        return 0
    print(
        f"card detector {model} at {result['input']}, {args.threads} threads, "
        f"median of {args.frames} frames:"
    )
    print(f"  inference          {ms['ours_infer']:7.2f} ms/frame")
    print(f"  + letterbox/decode {ms['ours_full']:7.2f} ms/frame")
    print(f"stock YOLO11n 640x640 ONNX {ms['stock_infer']:7.2f} ms/frame")
    print(f"speed-up (inference) {result['speedup']:.2f}x")
    if classifier is not None:
        print(
            f"two stages (boxes at {box_conf}, {boxes_seen} boxes re-read by the classifier, "
            f"{classifier.turns} turns): {ms['two_stage']:.2f} ms/frame, "
            f"{result['two_stage_speedup']:.2f}x faster than the stock model"
        )
    print(
        f"fastest tenth: {p10['ours_infer']:.2f} ms vs {p10['stock_infer']:.2f} ms "
        f"({p10['stock_infer'] / p10['ours_infer']:.2f}x)"
    )
    rss = result["detect_peak_rss_mb"]
    print(
        "peak memory (RSS) of `belote detect` on one image: "
        + (f"{rss:.0f} MB" if rss is not None else "not measured")
    )
    return 0


def _classifier(path: Path | None, threads: int) -> Any:
    """The classifier to time (None: none shipped, none asked; False: a bad --classifier)."""
    from vision.classifier import DEFAULT_CLASSIFIER, CardClassifier
    from vision.two_stage import DEFAULT_TURNS

    chosen = path or DEFAULT_CLASSIFIER
    if path is None and not chosen.is_file():
        return None
    try:
        return CardClassifier(chosen, threads=threads, turns=DEFAULT_TURNS)
    except FileNotFoundError as exc:
        print(f"belote bench: {exc}", file=sys.stderr)
        return False


def _default_image() -> Path | None:
    """A real photo from the shared dev set when present, so the decode sees real detections."""
    folder = Path(__file__).resolve().parents[2].parent / "shared/realdev/edje_train/images"
    photos = sorted(folder.glob("*.JPG")) if folder.is_dir() else []
    return photos[0] if photos else None


def _baseline(path: Path) -> Path:
    if path.exists():
        return path
    from vision.backends.ultralytics_backend import stock_nano_onnx

    print(f"exporting stock YOLO11n (random weights) to {path}", file=sys.stderr)
    return stock_nano_onnx(path, 640)


# The child prints its own high-water mark: a fork's ru_maxrss would count the parent's pages.
_CHILD = (
    "import atexit, sys\n"
    "def report():\n"
    "    for line in open('/proc/self/status'):\n"
    "        if line.startswith('VmHWM:'):\n"
    "            sys.stderr.write('PEAK_RSS_KB ' + line.split()[1] + '\\n')\n"
    "atexit.register(report)\n"
    "from device.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)


def _detect_peak_rss(model: Path | None, image: Path | None) -> float | None:
    """Run `belote detect` in a fresh process and read its peak resident memory (MB, Linux);
    without `model`, as a user runs it: the shipped models, the second look at 416 px too."""
    if image is None or not Path("/proc/self/status").exists():
        return None
    cmd = [sys.executable, "-c", _CHILD, "detect", str(image), "--json"]
    if model is not None:
        cmd += ["--model", str(model)]
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=root, check=False)
    for line in done.stderr.splitlines():
        if line.startswith("PEAK_RSS_KB ") and done.returncode == 0:
            return round(int(line.split()[1]) / 1024, 1)
    return None
