"""Simulated deals as overhead videos: a deal script (`vision.deal_script`) filmed frame by frame
with the shared table renderer (`vision.render`), and the true record beside each video.

>>> paths = simulate_deals(Path("out"), deals=1, seed=3, illegal=1)   # doctest: +SKIP
>>> paths[0].video.name, paths[0].record.name                          # doctest: +SKIP
('deal_000.mp4', 'deal_000.json')

`deal_XXX.json` is a deal record in the engine's format (rules, dealer, contract, hands, plays;
`belote score` reads it) whose `meta` holds what the simulation knows besides:

    "meta": {"simulated": {
        "video": "deal_000.mp4", "fps": 10, "size": [640, 480], "frames": 900, "duration": 90.0,
        "design": "heruka", "seed": 3, "felt_share": 0.86,
        "clutter": false,                                   # piles of backs, objects (--clutter)
        "illegal": [9, 22],                                 # play indices of the injected revokes
        "timeline": [{"play": 0, "t_landed": 1.5, "t_settled": 1.95}, ...],
            # video seconds: the card lies still (landed), and also uncovered (settled)
        "gathered": [12.3, ...],                            # each trick's cards gone
        "geometry": {"image_size": [640, 480], "corners": [[x, y] SW, SE, NE, NW],
                     "trick_size": 0.08, "method": "manual"}}}   # device.config's geometry section
"""

from __future__ import annotations

import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from vision.deal_script import (
    CARD_CM,
    SIDE,
    Scene,
    SimDeal,
    Timeline,
    build_timeline,
    play_deal,
)
from vision.geometry import TABLE_CM

if TYPE_CHECKING:
    import numpy as np

    from vision.artwork import Design
    from vision.detections import Detection
    from vision.render import Occluder, Placement, TableScene

FELT_SHARE = 0.86  # the felt's side as a share of the picture's height: the whole table in view
TRICK_SIZE = 0.08  # the middle square (as `belote calibrate` sets it); cards land outside it


@dataclass(frozen=True, slots=True)
class SimulatedFiles:
    """What one simulated deal wrote."""

    video: Path
    record: Path
    deal: SimDeal
    frames: int


class Filming:
    """Turns scenes in table centimetres into frames: the renderer's table pixels, its camera,
    then a light that stays put for the deal and sensor noise that changes every frame."""

    def __init__(self, scene: TableScene, seed: int, noise: bool = True,
                 felt_share: float = FELT_SHARE) -> None:
        self.scene = scene
        self.seed = seed
        self.noise = noise  # off: a much smaller video (the bundled demo)
        w, h = scene.size
        self.px_per_cm = felt_share * h / TABLE_CM
        self.origin = (w / 2, h / 2)
        rng = random.Random(seed)
        self.glare = rng.random() < 0.4
        self.blur = rng.uniform(0.0, 0.8)

    def to_table(self, x: float, y: float) -> tuple[float, float]:
        return (self.origin[0] + x * self.px_per_cm, self.origin[1] + y * self.px_per_cm)

    def corners(self) -> list[list[float]]:
        """The felt's corners SW, SE, NE, NW in image pixels, after the camera."""
        import numpy as np

        half = TABLE_CM / 2
        table = [self.to_table(*p) for p in ((-half, half), (half, half), (half, -half),
                                            (-half, -half))]
        image = self.scene.camera.project(np.array(table))
        return [[round(float(x), 1), round(float(y), 1)] for x, y in image]

    def layout(self, scene: Scene) -> tuple[list[Placement], list[Occluder]]:
        """The scene as the renderer's placements and occluders, in table pixels."""
        from vision.render import Occluder, Placement

        placements = [
            Placement(str(p.card), self.to_table(p.x, p.y), angle=p.angle, z=k)
            for k, p in enumerate(scene.cards)
        ]
        occluders = []
        for h in scene.hands:
            # The renderer puts a hand's palm at `center` with the fingers along `angle`; the
            # script gives the fingertips and the seat the arm comes from.
            sx, sy = SIDE[h.seat]
            dx, dy = h.x - sx * 70, h.y - sy * 70
            angle = math.degrees(math.atan2(dy, dx))
            reach = 0.8 * CARD_CM[1]
            norm = math.hypot(dx, dy) or 1.0
            palm = (h.x - dx / norm * reach, h.y - dy / norm * reach)
            seed = self.seed * 4 + list(SIDE).index(h.seat)  # one skin and shape per player
            occluders.append(Occluder("hand", self.to_table(*palm), angle=angle, seed=seed))
        # The piles lie under the cards swept onto them (a deck drawn without a back shows
        # none); objects on the felt, under the hands.
        if self.scene.design.back is not None:
            placements += [Placement("back", self.to_table(x, y), angle=angle, z=-1.0)
                           for x, y, angle in scene.backs]
        occluders += [Occluder(o.kind, self.to_table(o.x, o.y), o.angle, o.scale, z=1e6,
                               seed=o.seed) for o in scene.objects]
        return placements, occluders

    def frame(self, scene: Scene, index: int) -> np.ndarray:
        """One video frame of `scene`."""
        import numpy as np

        placements, occluders = self.layout(scene)
        image, _labels = self.scene.render(placements, occluders, effects=False)
        gain, offset, noise = self._photo(image.shape)
        out = image.astype(np.float32) * gain + offset
        if self.blur > 0.3:
            import cv2

            out = cv2.GaussianBlur(out, (0, 0), self.blur)
        if noise:
            out += noise[index % len(noise)]
        picture: np.ndarray = np.clip(out, 0, 255).astype(np.uint8)
        return picture

    def _photo(self, shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """The deal's lamp (light gradient, maybe glare) as a per-pixel gain and offset, and a
        few frames of sensor noise to cycle through: made once, the same on every frame."""
        if getattr(self, "_photo_cache", None) is None:
            import numpy as np

            from vision import augment

            def lamp(level: int) -> np.ndarray:
                light = random.Random(self.seed)
                out = augment.light_gradient(np.full(shape, level, np.uint8), light)
                if self.glare:
                    out = augment.glare(out, light)
                return out.astype(np.float32)

            dark, grey = lamp(0), lamp(100)
            noise = []
            if self.noise:
                rng = np.random.default_rng(self.seed)
                sigma = random.Random(self.seed).uniform(2, 8)
                noise = [rng.normal(0, sigma, shape).astype(np.float32) for _ in range(8)]
            self._photo_cache = ((grey - dark) / 100, dark, noise)
        return self._photo_cache


def open_writer(path: Path, fps: float, size: tuple[int, int]) -> tuple[object, Path]:
    """An OpenCV video writer: mp4v into .mp4, else MJPG into .avi where mp4 is unavailable."""
    import cv2

    for suffix, codec in ((".mp4", "mp4v"), (".avi", "MJPG")):
        target = path.with_suffix(suffix)
        fourcc = cv2.VideoWriter_fourcc(*codec)  # type: ignore[attr-defined]  # not in cv2's stubs
        writer = cv2.VideoWriter(str(target), fourcc, fps, size)
        if writer.isOpened():
            return writer, target
        writer.release()
        target.unlink(missing_ok=True)
    raise OSError(f"{path}: OpenCV can write neither mp4 (mp4v) nor avi (MJPG) here")


def make_scene(design: str | Design, size: tuple[int, int], seed: int,
               textures: Sequence[np.ndarray], felt_share: float = FELT_SHARE) -> TableScene:
    """The shared renderer set up for a deal: design, a table texture, a slightly tilted camera."""
    from vision.artwork import load_design
    from vision.render import Camera, TableScene

    pick = random.Random(seed + 7)  # apart from the camera's: a filming without textures
    texture = pick.choice(list(textures)) if textures and pick.random() < 0.7 else None
    camera = Camera.random(random.Random(seed), size, tilt=0.06, rotate=6.0, zoom=(0.95, 1.02))
    felt_px = felt_share * size[1]
    deck = load_design(design) if isinstance(design, str) else design
    return TableScene(deck, texture, size, seed=seed, camera=camera,
                      card_height=CARD_CM[1] * felt_px / TABLE_CM)


def deck_layout(design: str | Design, size: tuple[int, int], seed: int,
                textures: Sequence[np.ndarray], felt_share: float = FELT_SHARE
                ) -> tuple[np.ndarray, list[tuple[str, tuple[float, float, float, float]]]]:
    """A picture of a deck laid out to teach the deck memory (`vision.deck_teaching`), as the
    table's camera sees it: the 32 cards face up in four rows of eight, one suit to a row (in an
    order drawn from `seed`), 7 to A along each row (either way), each put down by hand (a few
    mm and degrees off); and each card's box in the picture."""
    from engine.cards import Card
    from vision.deal_script import CardPose
    from vision.deck_teaching import RANKS, SUITS

    rng = random.Random(seed)
    scene = make_scene(design, size, seed, textures, felt_share)
    filming = Filming(scene, seed, felt_share=felt_share)
    suits = rng.sample(SUITS, len(SUITS))
    poses = []
    for r, suit in enumerate(suits):
        ranks = RANKS if rng.random() < 0.5 else RANKS[::-1]
        for c, rank in enumerate(ranks):
            x = (c - 3.5) * (CARD_CM[0] + 2.5) + rng.uniform(-0.4, 0.4)
            y = (r - 1.5) * (CARD_CM[1] + 2.5) + rng.uniform(-0.4, 0.4)
            poses.append(CardPose(Card.from_str(rank + suit), x, y, rng.uniform(-3.0, 3.0)))
    layout = Scene(tuple(poses), ())
    placements, occluders = filming.layout(layout)
    _drawn, labels = scene.render(placements, occluders, effects=False)
    return filming.frame(layout, 0), [(lab.card, lab.box) for lab in labels]


def simulate_deal(
    out: Path,
    index: int,
    deal: SimDeal,
    timeline: Timeline,
    design: str | Design,
    seed: int,
    fps: float = 10.0,
    size: tuple[int, int] = (640, 480),
    textures: Sequence[np.ndarray] = (),
    progress: object | None = None,
    noise: bool = True,
    pace: float = 1.0,
    passes: float = 0.2,
    felt_share: float = FELT_SHARE,
    clutter: bool = False,
) -> SimulatedFiles:
    """Film one deal into `out/deal_XXX.mp4` and write its true record `out/deal_XXX.json`."""
    out.mkdir(parents=True, exist_ok=True)
    scene = make_scene(design, size, seed, textures, felt_share)
    filming = Filming(scene, seed, noise, felt_share)
    writer, video = open_writer(out / f"deal_{index:03d}.mp4", fps, size)
    frames = math.ceil(timeline.duration * fps)
    try:
        for k in range(frames):
            writer.write(filming.frame(timeline.scene_at(k / fps), k))  # type: ignore[attr-defined]
            if progress is not None:
                progress.update(1)  # type: ignore[attr-defined]
    finally:
        writer.release()  # type: ignore[attr-defined]
    record = deal.record()
    record["meta"] = {"simulated": {
        "video": video.name,
        "fps": fps,
        "size": list(size),
        "frames": frames,
        "duration": round(timeline.duration, 3),
        "design": design if isinstance(design, str) else design.name,
        "seed": seed,
        "pace": pace,
        "passes": passes,
        "clutter": clutter,
        "felt_share": felt_share,
        "illegal": list(deal.illegal),
        "timeline": [{"play": i, "t_landed": round(landed, 3), "t_settled": round(settled, 3)}
                     for i, (landed, settled) in enumerate(zip(timeline.t_landed,
                                                              timeline.t_settled, strict=True))],
        "gathered": [round(t, 3) for t in timeline.gathered],
        "geometry": {"image_size": list(size), "corners": filming.corners(),
                     "trick_size": TRICK_SIZE, "method": "manual"},
    }}
    path = out / f"deal_{index:03d}.json"
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return SimulatedFiles(video, path, deal, frames)


def script_timeline(deal: SimDeal, seed: int, pace: float, passes: float,
                    clutter: bool = False) -> Timeline:
    """The timeline of a deal filmed with `seed` (rebuilt exactly from a record's meta)."""
    return build_timeline(deal, random.Random(seed + 1), pace=pace, passes=passes,
                          clutter=clutter)


def replay_script(record: dict[str, object], design: Design | None = None
                  ) -> tuple[SimDeal, Timeline, Filming]:
    """Everything a simulated deal's true record needs to film it again, frame for frame."""
    sim = record["meta"]["simulated"]  # type: ignore[index]
    deal = SimDeal.from_record(record, tuple(sim["illegal"]))
    timeline = script_timeline(deal, sim["seed"], sim.get("pace", 1.0), sim.get("passes", 0.2),
                               sim.get("clutter", False))
    share = sim.get("felt_share", FELT_SHARE)
    scene = make_scene(design or sim["design"], tuple(sim["size"]), sim["seed"], [], share)
    return deal, timeline, Filming(scene, sim["seed"], felt_share=share)


class OracleDetector:
    """A stand-in detector for a simulated video: in its k-th call it returns every card the
    renderer labels readable in frame k (confidence 0.9). It measures the tracker alone, and
    lets tests run the pipeline without a trained model."""

    def __init__(self, record: dict[str, object], design: Design | None = None) -> None:
        _deal, self.timeline, self.filming = replay_script(record, design)
        self.fps = float(record["meta"]["simulated"]["fps"])  # type: ignore[index]
        self.k = 0
        self.last_ms = 0.0

    def detect(self, image: object) -> list[Detection]:
        """The labels of the next frame, in the pixels of `image` (the loop hands the detector
        the small picture of a large video: 640 wide for a 2304x1296 film)."""
        from vision.detections import Detection

        scene = self.timeline.scene_at(self.k / self.fps)
        self.k += 1
        placements, occluders = self.filming.layout(scene)
        drawn, labels = self.filming.scene.render(placements, occluders, effects=False)
        shape = getattr(image, "shape", drawn.shape)
        sx, sy = shape[1] / drawn.shape[1], shape[0] / drawn.shape[0]
        return [Detection(lab.card, 0.9, (lab.box[0] * sx, lab.box[1] * sy,
                                          lab.box[2] * sx, lab.box[3] * sy))
                for lab in labels if lab.labelled]


def spread(total: int, parts: int, rng: random.Random) -> list[int]:
    """`total` injected plays over `parts` deals, as evenly as possible, in a random order."""
    base = [total // parts + (1 if i < total % parts else 0) for i in range(parts)]
    rng.shuffle(base)
    return base


def simulate_deals(
    out: Path,
    deals: int,
    seed: int = 0,
    illegal: int = 0,
    rules: str = "ffb-coinche",
    designs: Sequence[str | Design] | None = None,
    fps: float = 10.0,
    size: tuple[int, int] = (640, 480),
    pace: float = 1.0,
    passes: float = 0.2,
    show_progress: bool = True,
    use_textures: bool = True,
    noise: bool = True,
    felt_share: float = FELT_SHARE,
    clutter: bool = False,
) -> list[SimulatedFiles]:
    """Deal, script and film `deals` deals with `illegal` revokes across them; deterministic.
    `clutter`: tricks won stay face down in piles, and a few objects lie on the felt."""
    from tqdm import tqdm

    from vision.artwork import HELD_OUT, load_textures

    if illegal > 24 * deals:
        raise ValueError(f"--illegal {illegal}: at most 24 revokes fit in {deals} deal(s)")
    designs = list(designs or HELD_OUT)
    out.mkdir(parents=True, exist_ok=True)
    textures = load_textures() if use_textures else []
    rng = random.Random(seed)
    counts = spread(illegal, deals, rng)
    plans = []
    for i in range(deals):
        deal_seed = rng.randrange(2**31)
        deal = play_deal(random.Random(deal_seed), rules, n_illegal=counts[i])
        timeline = script_timeline(deal, deal_seed, pace, passes, clutter)
        plans.append((deal_seed, deal, timeline))
    total = sum(math.ceil(t.duration * fps) for _, _, t in plans)
    written = []
    with tqdm(total=total, unit="frame", desc="simulate", disable=not show_progress,
              file=sys.stderr) as bar:
        for i, (deal_seed, deal, timeline) in enumerate(plans):
            written.append(simulate_deal(out, i, deal, timeline, designs[i % len(designs)],
                                         deal_seed, fps, size, textures, bar, noise, pace,
                                         passes, felt_share, clutter))
    return written
