"""The acceptance check of the companion (issue 4) on simulated deals.

    .venv/bin/python benchmarks/simulated_deals.py --deals 20 --illegal 10 --out runs/simdeals

Films N deals with the held-out card designs (hands passing over the cards, K revokes injected),
runs the real pipeline on each video (video → detector → tracker → event log → engine) and prints:
plays recovered with the right card, seat and order; injected illegal plays flagged with their
proof; false flags; deals whose score equals the true record's; the latency from the moment a
card settles (still, uncovered) to the video time it is recorded (median, worst; an unread play
counts from when its card is named: filled, or deduced at the deal's end), and to the time its
card last changed in the record (a misread renamed later counts from then); the pipeline's
frames per second. `--threads 2` limits the detector (and OpenCV) to 2 cores. `--oracle` replaces
the detector with the renderer's own labels, to measure the tracker alone. `--reuse` keeps videos
already in --out. Each replay's result is saved next to its video (`deal_NNN.replay.json`);
`--rejudge` measures those again with the current engine, without running the pipeline.
`--cache` saves each frame's detections beside the video the first time and replays them after
(same detector only): a change to the tracker is measured on all 20 deals in a minute or two.
With `--deck-memory`, `--cache` keeps the two models' answers instead (`stage_cache.py`): what
the memory reads changes from run to run, what the models say of a box does not.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


class PlayAreaDetector:
    """Experiment: the detector reads only the middle of the felt (where cards are played),
    cropped from the frame so cards are as big in its input as in its training scenes; boxes
    are mapped back to the frame. `share` is the crop's side as a share of the felt's side."""

    def __init__(self, detector, corners: list, share: float) -> None:
        self.detector, self.share = detector, share
        xs, ys = [p[0] for p in corners], [p[1] for p in corners]
        self.center = (sum(xs) / 4, sum(ys) / 4)
        self.side = (max(xs) - min(xs) + max(ys) - min(ys)) / 2 * share
        self.last_ms = 0.0

    def detect(self, image):
        from dataclasses import replace

        h, w = image.shape[:2]
        half = self.side / 2
        x0, y0 = max(0, int(self.center[0] - half)), max(0, int(self.center[1] - half))
        x1, y1 = min(w, int(self.center[0] + half)), min(h, int(self.center[1] + half))
        found = self.detector.detect(image[y0:y1, x0:x1])
        self.last_ms = getattr(self.detector, "last_ms", 0.0)
        return [replace(d, box=(d.box[0] + x0, d.box[1] + y0, d.box[2] + x0, d.box[3] + y0))
                for d in found]


class CachedDetector:
    """The detector's answers frame by frame, saved once (`deal_NNN.detections.json.gz`) and read
    back on later runs with the same detector: the tracker is then the only thing that runs.
    `keep`: only the detections at least this confident are passed on (a cache made with a
    two-stage detector naming every box, `names at 0.0`, serves every threshold)."""

    def __init__(self, detector, path: Path, keep: float = 0.0) -> None:
        import gzip
        import json

        self.detector, self.path, self.last_ms, self.keep = detector, path, 0.0, keep
        self.saved: list | None = None
        self.recorded: list = []
        if path.exists():
            data = json.loads(gzip.decompress(path.read_bytes()))
            if data["detector"] == repr(detector):
                self.saved = data["frames"]

    @property
    def reads_main(self) -> bool:
        return bool(getattr(self.detector, "reads_main", False))

    def detect(self, image, main=None):
        from vision.detections import UNNAMED, Detection

        if self.saved is not None:
            row = self.saved[len(self.recorded)]
            self.recorded.append(row)
            return [Detection(c, f, tuple(b), tuple(tuple(a) for a in alt))
                    for c, f, b, alt in row if f >= self.keep or c == UNNAMED]
        found = self.detector.detect(image) if main is None else self.detector.detect(image,
                                                                                      main=main)
        self.last_ms = getattr(self.detector, "last_ms", 0.0)
        self.recorded.append([[d.card, d.confidence, list(d.box), [list(a) for a in d.alternatives]]
                              for d in found])
        return [d for d in found if d.confidence >= self.keep or d.card == UNNAMED]

    def save(self) -> None:
        import gzip
        import json

        if self.saved is None:
            data = {"detector": repr(self.detector), "frames": self.recorded}
            self.path.write_bytes(gzip.compress(json.dumps(data).encode()))


def common(a: list, b: list) -> int:
    """Length of the longest common subsequence: plays right once a missed or extra play is
    allowed for (the strict count shifts every later play after one miss)."""
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b):
            prev, row[j + 1] = row[j + 1], prev + 1 if x == y else max(row[j + 1], row[j])
    return row[-1]


def _card_changes(events: list[dict]):
    """(play index, event data, whether it records the play) for each event of the log that set
    a play's card: its recording (an unread play is recorded without its card), and each
    correction that named or renamed it (not a reading confirmed)."""
    played = 0
    for e in events:
        data = e["data"]
        if e["type"] == "card_played":
            yield played, data, True
            played += 1
        elif e["type"] == "correction" and data.get("t") is not None \
                and data.get("card") != data.get("before"):
            yield int(data["play"]), data, False


def named_at(events: list[dict]) -> dict[int, float]:
    """Play index -> the frame time its card last changed in the log (`_card_changes`)."""
    return {i: float(data["t"]) for i, data, _recorded in _card_changes(events)}


def _shown_wrong(true_plays: list[tuple], events: list[dict]) -> list[tuple[bool, float]]:
    """(in doubt, seconds of video until corrected) for each play first recorded with a card
    other than the true one: what the live page showed wrongly meanwhile (infinity when the
    record kept it)."""
    first: dict[int, dict] = {}
    fixed: dict[int, float] = {}
    for i, data, recorded in _card_changes(events):
        if recorded:
            first[i] = data
        else:
            fixed.setdefault(i, float(data["t"]))
    return [(bool(p.get("uncertain")), fixed.get(i, float("inf")) - float(p["t"]))
            for i, p in first.items()
            if p["card"] is not None and i < len(true_plays)
            and (p["seat"], p["card"]) != tuple(true_plays[i])]


def measure(items: list[tuple[dict, dict]], frames: int, wall: float) -> list[str]:
    """The figures of the acceptance check, one per line, from (true record, replay result)."""
    from engine.record import judge, load_record

    plays = right = injected = flagged = false_flags = same_score = recorded = aligned = 0
    unread = deduced = doubted = false_doubts = 0
    latencies: list[float] = []
    from_landing: list[float] = []
    named: list[float] = []
    shown_wrong: list[tuple[bool, float]] = []
    per_deal = []
    for truth, result in items:
        sim = truth["meta"]["simulated"]
        true_v = judge(load_record({k: v for k, v in truth.items() if k != "meta"}))
        seen_v = result["verdict"] if result["verdict"] and "error" not in result["verdict"] \
            else None
        true_plays = [tuple(p) for p in truth["plays"]]
        seen = [(p["seat"], p["card"]) for p in result["plays"]]  # deduced cards named
        ok = [i for i, p in enumerate(true_plays) if i < len(seen) and seen[i] == p]
        plays += len(true_plays)
        right += len(ok)
        recorded += len(seen)
        unread += sum(1 for p in result["plays"] if p["card"] is None)
        deduced += sum(1 for e in result["events"]
                       if e["type"] == "correction" and e["data"].get("deduced"))
        aligned += common(true_plays, seen)
        expected = {(v["play"], v["rule"]) for v in true_v["violations"]}
        found = (seen_v or {}).get("violations", [])
        # A violation marked `unless` is one a misreading would clear: shown to the referee to
        # check, not called. Counted apart.
        got = {(v["play"], v["rule"]): v for v in found if "unless" not in v}
        doubt = {(v["play"], v["rule"]): v for v in found if "unless" in v}
        injected += len(sim["illegal"])
        flagged += sum(1 for i in sim["illegal"]
                       if any(p == i and v["proven_by"] is not None for (p, _), v in got.items()))
        doubted += sum(1 for i in sim["illegal"]
                       if i not in {p for p, _ in got} and any(p == i for p, _ in doubt))
        false_flags += len(set(got) - expected)
        false_doubts += len(set(doubt) - expected)
        same = seen_v is not None and seen_v["score"] == true_v["score"]
        same_score += same
        # Latency: the video time each right play was recorded minus when its card settled.
        t_settled = {e["play"]: e["t_settled"] for e in sim["timeline"]}
        t_landed = {e["play"]: e.get("t_landed", e["t_settled"]) for e in sim["timeline"]}
        named_when = named_at(result["events"])
        shown_wrong += _shown_wrong(true_plays, result["events"])
        for i in ok:
            t = result["plays"][i]["t"]
            latencies.append(float(t) - t_settled[i])
            from_landing.append(float(t) - t_landed[i])
            named.append(named_when.get(i, float(t)) - t_settled[i])
        per_deal.append(f"{len(ok)}/{len(true_plays)}{'' if same else '(score!)'}")
    lines = [
        f"deals: {len(items)}; plays right per deal: {' '.join(per_deal)}",
        f"plays recovered with the right card, seat and order: {right}/{plays}",
        f"plays recorded: {recorded}; in the true order allowing for misses/extras (LCS): "
        f"{aligned}/{plays}",
        f"plays seen but not read: {unread} left unread, {deduced} deduced at the deal's end "
        f"(counted right above when the deduced card is)",
        f"injected illegal plays flagged with proof: {flagged}/{injected} (and {doubted} more "
        f"marked in doubt: a misreading would clear them)",
        f"false flags: {false_flags} (and {false_doubts} more marked in doubt)",
        f"deals whose score equals the true record's: {same_score}/{len(items)}",
    ]
    if shown_wrong:
        spans = sorted(span for _doubt, span in shown_wrong)
        lines.append(f"plays first recorded with a wrong card (shown so until corrected): "
                     f"{len(shown_wrong)}/{plays}, {sum(d for d, _ in shown_wrong)} of them in "
                     f"doubt; shown wrongly for a median {statistics.median(spans):.1f} s, "
                     f"worst {spans[-1]:.1f} s")
    for name, values in (("settled (still, uncovered) to recorded", latencies),
                         ("landed (still, hand on it) to recorded", from_landing),
                         ("settled to named right (an unread play: when its card is named)",
                          named)):
        if values:
            late = sum(v > 0.5 for v in values)
            lines.append(f"latency from {name}, video s: median "
                         f"{statistics.median(values):.2f}, 90th percentile "
                         f"{statistics.quantiles(values, n=10)[-1]:.2f}, worst {max(values):.2f}, "
                         f"best {min(values):.2f}; over 0.5 s: {late}/{len(values)}")
    fps = items[0][0]["meta"]["simulated"]["fps"] if items else 0
    lines.append(f"pipeline: {frames} frames in {wall:.1f} s = {frames / max(wall, 1e-9):.1f} "
                 f"frames/s (the video runs at {fps} frames/s)")
    return lines


def rejudge(folder: Path, deals: int) -> int:
    """The figures again from the saved replay results, with the engine as it is now."""
    import json

    from device.commands.replay import first_deal_plays, verdict_of
    from device.store import Event

    items, frames, wall = [], 0, 0.0
    for saved in sorted(folder.glob("deal_*.replay.json"))[:deals]:
        truth = json.loads(saved.with_name(saved.name.replace(".replay", "")).read_text())
        result = json.loads(saved.read_text())
        # The record again from the saved event log, as the replay writes it now.
        events = [Event(**e) for e in result["events"]]
        result["plays"], result["record"]["plays"] = first_deal_plays(events)
        result["verdict"] = verdict_of(result["record"])
        frames += result["frames"]
        wall += result.get("wall_s", 0.0)
        items.append((truth, result))
    if not items:
        print(f"error: no saved replay results (deal_*.replay.json) in {folder}", file=sys.stderr)
        return 2
    print("\n".join(measure(items, frames, wall)))
    return 0


def load_teacher(args: argparse.Namespace) -> tuple:
    """The box model and classifier read afresh (not from the stage cache) for --teach-deck."""
    from vision.classifier import DEFAULT_CLASSIFIER, CardClassifier
    from vision.detector import load_detector

    return (load_detector(args.model, boxes=True),
            CardClassifier(args.classifier or DEFAULT_CLASSIFIER, threads=args.threads,
                           turns=args.turns))


def teach_deck(memory, sim: dict, main: bool, box_model, classifier) -> str:
    """Teach `memory` the design of `sim` (a deal's meta) from a picture of its 32 cards laid
    out, filmed at the deal's size (its seed drawn from the design's name) and read as the deals
    are (`main`: boxes on the 640 px picture, names on the large one). Says how it went."""
    import zlib

    import cv2

    from vision.artwork import load_textures
    from vision.deck_teaching import LayoutError, find_layout
    from vision.detections import iou
    from vision.simulate import deck_layout

    design, (w, h) = sim["design"], sim["size"]
    image, truth = deck_layout(design, (w, h), zlib.crc32(design.encode()), load_textures())
    small = cv2.resize(image, (640, round(640 * h / w)), interpolation=cv2.INTER_AREA) \
        if main and w > 640 else image
    try:
        layout = find_layout(box_model, classifier, small, image if small is not image else None)
    except LayoutError as exc:
        return f"deck of {design} not taught: {exc}"
    right = sum(card == max(truth, key=lambda t: iou(t[1], box))[0]
                for card, box in zip(layout.cards, layout.boxes, strict=True))
    taught = memory.teach(layout.cards, layout.features)
    return (f"deck of {design} taught: {taught} cards, {right} of {len(layout.cards)} named right "
            f"by their places ({layout.agree} read so by the classifier alone)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--illegal", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--out", type=Path, default=Path("runs/simdeals"))
    parser.add_argument("--fps", type=float, default=10.0)
    parser.add_argument("--pace", type=float, default=1.0)
    parser.add_argument("--size", default="640x480", help="video WxH (default 640x480)")
    parser.add_argument("--designs", nargs="+", help="default: the held-out designs")
    parser.add_argument("--clutter", action="store_true",
                        help="film the tricks won as piles of backs, and objects on the felt")
    parser.add_argument("--threads", type=int, default=2, help="cores for the detector (2)")
    parser.add_argument("--oracle", action="store_true", help="renderer labels, not the detector")
    parser.add_argument("--reuse", action="store_true", help="keep the videos already in --out")
    parser.add_argument("--model", help="detector model (default: the shipped one)")
    parser.add_argument("--two-stage", action="store_true",
                        help="re-read each box with the card classifier (vision.two_stage)")
    parser.add_argument("--classifier", help="card classifier (default: the shipped one)")
    parser.add_argument("--box-conf", type=float, default=None,
                        help="box threshold of the first stage (default: the detector's own)")
    parser.add_argument("--turn-wait", type=float, default=None, metavar="S",
                        help="tracker.turn_wait: hold a card out of turn this long")
    parser.add_argument("--tracker", action="append", default=[], metavar="NAME=VALUE",
                        help="set a tracker setting (config `tracker.NAME`), e.g. max_wait=0.3; "
                        "repeatable")
    parser.add_argument("--turns", type=int, default=4, choices=(1, 2, 4),
                        help="quarter turns the classifier averages (default 4, as shipped)")
    parser.add_argument("--rejudge", action="store_true",
                        help="judge the saved replay results again (no pipeline)")
    parser.add_argument("--crop", type=float, default=0.0, metavar="SHARE",
                        help="experiment: detect only in the middle SHARE of the felt (e.g. 0.6)")
    parser.add_argument("--cache", action="store_true",
                        help="save the detections beside each video, replay them next time")
    parser.add_argument("--main", action="store_true",
                        help="two stages: read names on the video's full resolution, not on the "
                        "detector's small picture (config detector.read_main)")
    parser.add_argument("--no-felt", dest="felt", action="store_false",
                        help="two stages: do not read what differs from the learnt felt "
                        "(vision.background; on by default, as in the device's config)")
    parser.add_argument("--deck-memory", action="store_true",
                        help="two stages: a memory of each design's deck, learnt at each deal's "
                        "end and read with the classifier (vision.deck_memory; with --cache, the "
                        "two models' answers are cached: stage_cache.py)")
    parser.add_argument("--teach-deck", action="store_true",
                        help="with --deck-memory: before each design's first deal, teach its "
                        "memory from a picture of the 32 cards laid out (vision.deck_teaching), "
                        "as a referee would with `belote teach`")
    parser.add_argument("--min-prob", type=float, default=None,
                        help="two stages: the least probability of a box's card to count "
                        "(default: vision.two_stage.DEFAULT_MIN_PROB)")
    args = parser.parse_args(argv)
    if args.deck_memory and not args.two_stage:
        parser.error("--deck-memory needs --two-stage")
    if args.teach_deck and not args.deck_memory:
        parser.error("--teach-deck needs --deck-memory")
    stages = None  # with the memory, --cache keeps the two models' answers (`StageCache`)
    if args.min_prob is None:
        from vision.two_stage import DEFAULT_MIN_PROB

        args.min_prob = DEFAULT_MIN_PROB
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "ORT_NUM_THREADS"):
        os.environ[var] = str(args.threads)
    import json

    import cv2

    cv2.setNumThreads(args.threads)
    from tqdm import tqdm

    from vision.simulate import OracleDetector

    if args.rejudge:
        return rejudge(args.out, args.deals)
    videos = sorted(args.out.glob("deal_[0-9][0-9][0-9].json")) if args.reuse else []
    if len(videos) < args.deals:
        from vision.simulate import simulate_deals

        t0 = time.perf_counter()
        files = simulate_deals(args.out, args.deals, seed=args.seed, illegal=args.illegal,
                               designs=args.designs, fps=args.fps, pace=args.pace,
                               size=tuple(int(v) for v in args.size.split("x")),
                               clutter=args.clutter)
        print(f"filmed {len(files)} deals in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        videos = [f.record for f in files]
    videos = videos[: args.deals]
    detector = None
    if not args.oracle:
        from vision.detector import load_detector

        detector = load_detector(args.model, boxes=args.two_stage)
        if args.two_stage:
            from vision.classifier import DEFAULT_CLASSIFIER, CardClassifier
            from vision.two_stage import TwoStage

            classifier = CardClassifier(args.classifier or DEFAULT_CLASSIFIER,
                                        threads=args.threads, turns=args.turns)
            # The cache keeps every name, to try thresholds on it; not with the felt, for the felt
            # learnt depends on which boxes are read as cards (nor with the memory: `stages`).
            names_at = 0.0 if args.cache and not (args.felt or args.deck_memory) \
                else args.min_prob
            if args.deck_memory and args.cache:
                from stage_cache import StageCache

                stages = StageCache(detector, classifier)
                detector, classifier = stages.boxes_stage(), stages.classifier_stage()
            detector = TwoStage(detector, classifier, box_conf=args.box_conf, min_prob=names_at)
            detector.reads_main = args.main
        print(f"detector: {detector!r}", file=sys.stderr)
    from device.commands.replay import replay
    from device.config import Config

    tracker: dict[str, str | float] = dict(item.split("=", 1) for item in args.tracker)
    if args.turn_wait is not None:
        tracker["turn_wait"] = args.turn_wait
    config = Config.model_validate({"tracker": tracker})  # (a wrong name: a clear error)

    items, frames, wall = [], 0, 0.0
    memories: dict = {}  # design -> its deck memory: one table plays one deck all evening
    teacher = None  # (box model, classifier) read afresh, for --teach-deck
    for path in tqdm(videos, desc="pipeline", unit="deal", file=sys.stderr):
        truth = json.loads(path.read_text(encoding="utf-8"))
        sim = truth["meta"]["simulated"]
        if args.deck_memory:
            from vision.deck_memory import DeckMemory

            if args.teach_deck and sim["design"] not in memories:
                if teacher is None:
                    teacher = load_teacher(args)
                memories[sim["design"]] = DeckMemory()
                print(teach_deck(memories[sim["design"]], sim, args.main, *teacher),
                      file=sys.stderr)
            detector.memory = memories.setdefault(sim["design"], DeckMemory())
        referee = {k: truth[k] for k in ("rules", "dealer", "contract")}
        referee["geometry"] = sim["geometry"]
        det = OracleDetector(truth) if args.oracle else detector
        if args.crop and not args.oracle:
            det = PlayAreaDetector(detector, sim["geometry"]["corners"], args.crop)
        if args.felt and args.two_stage and detector is not None:
            from vision.background import TableBackground
            from vision.two_stage import WEAK_PROB

            detector.background = TableBackground()  # (replay resets it for each video)
            detector.weak_prob = WEAK_PROB  # video, as `with_classifier(felt=True)` reads it
        if stages is not None:
            stages.open(path.with_suffix(".stages.npz"))
        elif args.cache and not args.oracle:
            det = CachedDetector(det, path.with_suffix(".detections.json.gz"),
                                 keep=args.min_prob if args.two_stage else 0.0)
        t0 = time.perf_counter()
        result = replay(path.with_name(sim["video"]), det, referee=referee, progress=False,
                        config=config)
        wall += time.perf_counter() - t0
        frames += result["frames"]
        items.append((truth, result))
        if isinstance(det, CachedDetector):
            det.save()
        if stages is not None:
            stages.save()
        saved = {**result, "wall_s": time.perf_counter() - t0}
        path.with_suffix(".replay.json").write_text(json.dumps(saved, default=str))
    print("\n".join(measure(items, frames, wall)))
    if stages is not None:
        print(f"stage cache: {stages.hits} reads from it, {stages.misses} read afresh")
    for design, memory in sorted(memories.items()):
        crops, known = int(memory.counts.sum()), int((memory.counts > 0).sum())
        print(f"deck memory of {design}: {memory.deals} deals learnt, {crops} crops, "
              f"{known} cards known")
    return 0


if __name__ == "__main__":
    sys.exit(main())
