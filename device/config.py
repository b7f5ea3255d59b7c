"""The companion's configuration: a YAML file checked strictly (a typo is an error naming the key).

A complete example, every section optional (`default_config_yaml()` prints it):

    camera:
      source: picamera2          # picamera2 | 0 | usb:0 | rtsp://… | video file | image folder
      width: 2304                # main stream (evidence pictures)
      height: 1296
      lores_width: 640           # detector stream
      lores_height: 360
      fps: 15
      stall_s: 3.0               # no frame for this long: the camera is reopened
      max_backoff_s: 30.0
    detector:
      model: models/cards.onnx   # null: the bundled default
      backend: auto              # auto | onnx | ncnn | ultralytics
      conf: 0.25
      imgsz: 640
    geometry:                    # written by `belote calibrate --save`
      image_size: [640, 360]
      corners: [[80, 340], [560, 340], [560, 20], [80, 20]]   # felt corners SW SE NE NW
      trick_size: 0.08
      method: manual
    tracker:
      steady_s: 0.3
      gather_s: 0.8
    rules:
      preset: ffb-coinche
      overrides: {}
    server:
      host: 0.0.0.0
      port: 8000
      referee_pin: "1234"
    storage:
      db: data/belote.db
      evidence_dir: data/evidence
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message names the file and the key."""


class _Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class CameraConfig(_Section):
    source: str = "picamera2"
    width: int = Field(2304, ge=16, le=8192)
    height: int = Field(1296, ge=16, le=8192)
    lores_width: int = Field(640, ge=16, le=4096)
    lores_height: int = Field(360, ge=16, le=4096)
    fps: float = Field(15.0, gt=0, le=120)
    stall_s: float = Field(3.0, gt=0)
    max_backoff_s: float = Field(30.0, gt=0)


class DetectorConfig(_Section):
    model: str | None = None
    backend: str = "auto"
    conf: float = Field(0.25, ge=0, le=1)
    imgsz: int = Field(640, ge=32, le=4096)
    # Re-read each box with models/card_classifier.onnx (vision.two_stage) when it is there.
    second_stage: bool = True
    # Average the classifier over this many quarter turns of each box: 4 reads more cards right
    # (real photos P 0.967 -> 0.984), 1 is ~4x cheaper (about 6 vs 22 ms for 8 boxes on 2 cores).
    classifier_turns: Literal[1, 2, 4] = 4
    # Also read what differs from the felt learnt from the fixed camera (vision.background): on
    # 20 simulated deals it read the cards the box model missed, 633 -> 640 of 640 plays right;
    # and read again the cards lying still that the box model loses (session 47: a deal on a
    # patterned cloth 1 -> 32 of 32).
    felt: bool = True
    # Read the names on the camera's main stream (boxes are found on lores; a source no larger
    # than lores has no main stream, and names are read there). Session 34, three sets of 20
    # deals filmed at 1280x960: 1920/1920 plays right either way, 54 plays over 0.5 s read
    # large against 61 read small; held-out crops cut from 1280 px renders read 0.936 (cards)
    # against 0.895 from 640 px ones (models/card_classifier.md).
    read_main: bool = True
    # Learn this table's own deck from its finished deals (vision.deck_memory) and read each box
    # with that memory as well. Session 52, four sets of 20 deals (one memory per design): plays
    # named over 0.5 s after settling 42 -> 27 of 2,560, first recorded with a wrong card 10 -> 3,
    # every play right either way; +1.3% on the classifier's time (models/card_classifier.md).
    deck_memory: bool = True


Point = tuple[float, float]


class GeometryConfig(_Section):
    image_size: tuple[int, int] | None = None  # the picture the corners were measured on
    corners: list[Point] | None = None  # felt corners in seat order: SW, SE, NE, NW
    trick_size: float = Field(0.08, gt=0, lt=1)  # side of the central trick square / felt side
    edge: float = Field(0.0, ge=0, lt=0.4)  # band along the felt edge that is not a play zone
    method: Literal["manual", "aruco", "felt", "full"] = "full"
    side_cm: float = Field(80.0, gt=0)  # the calibrated square's side on the table (a card's size)

    @field_validator("corners")
    @classmethod
    def _four(cls, v: list[Point] | None) -> list[Point] | None:
        if v is not None and len(v) != 4:
            raise ValueError(f"needs exactly 4 corner points [x, y] (SW, SE, NE, NW), got {len(v)}")
        return v


class TrackerConfig(_Section):
    steady_s: float = Field(0.3, gt=0)  # a card is played once seen this long, still
    hit_ratio: float = Field(0.6, gt=0, le=1)  # … in this share of the frames
    forget_s: float = Field(0.6, gt=0)  # a candidate unseen this long is forgotten
    gather_s: float = Field(0.8, gt=0)  # a full trick unseen this long has been gathered
    empty_s: float = Field(1.0, gt=0)  # an empty table this long starts a deal
    # Hold a doubtful reading (or a later card) this long; a card whose picture has read its best
    # name since it came to rest is recorded at once, in doubt, and judged again after this long.
    max_wait: float = Field(0.6, ge=0)
    # Mid-trick, hold a card played out of turn this long for the seat whose turn it is; a seat
    # never read by the time the trick is gathered becomes an unread play in its place.
    turn_wait: float = Field(20.0, ge=0)
    min_conf: float = Field(0.25, ge=0, le=1)
    sure_conf: float = Field(0.6, ge=0, le=1)  # below: the play is marked uncertain
    dealer: Literal["N", "E", "S", "W"] = "S"  # first dealer when nobody said


class RulesConfig(_Section):
    preset: str = "ffb-coinche"
    overrides: dict[str, Any] = Field(default_factory=dict)

    def spec(self) -> str | dict[str, Any]:
        """The form `engine.rules.find_rules` and the `game_started` event take."""
        return {"preset": self.preset, **self.overrides} if self.overrides else self.preset


class ServerConfig(_Section):
    host: str = "0.0.0.0"
    port: int = Field(8000, ge=1, le=65535)
    referee_pin: str | None = None


class StorageConfig(_Section):
    db: Path = Path("data/belote.db")
    evidence_dir: Path = Path("data/evidence")
    deck_memory: Path = Path("data/deck_memory.npz")  # what the deck memory has learnt


class Config(_Section):
    camera: CameraConfig = Field(default_factory=CameraConfig)
    detector: DetectorConfig = Field(default_factory=DetectorConfig)
    geometry: GeometryConfig = Field(default_factory=GeometryConfig)
    tracker: TrackerConfig = Field(default_factory=TrackerConfig)
    rules: RulesConfig = Field(default_factory=RulesConfig)
    server: ServerConfig = Field(default_factory=ServerConfig)
    storage: StorageConfig = Field(default_factory=StorageConfig)


def _explain(name: str, exc: ValidationError) -> str:
    lines = []
    for err in exc.errors():
        key = ".".join(str(p) for p in err["loc"]) or "(top level)"
        msg = "unknown key (check the spelling)" if err["type"] == "extra_forbidden" else err["msg"]
        lines.append(f"{name}: {key}: {msg}")
    return "\n".join(lines)


def parse_config(obj: Any, name: str = "config") -> Config:
    """Validate a mapping (as read from YAML); raises ConfigError naming each bad key."""
    if obj is None:
        obj = {}
    if not isinstance(obj, dict):
        raise ConfigError(f"{name}: expected a mapping of sections, got {type(obj).__name__}")
    try:
        config = Config.model_validate(obj)
    except ValidationError as exc:
        raise ConfigError(_explain(name, exc)) from None
    _check_rules(config, name)
    return config


def _check_rules(config: Config, name: str) -> None:
    try:
        from engine.rules import find_rules
    except ImportError:  # engine not installed: checked when the game starts
        return
    try:
        find_rules(config.rules.spec())
    except ValueError as exc:
        raise ConfigError(f"{name}: rules: {exc}") from None


def load_config(path: str | Path | None) -> Config:
    """Read and validate a YAML file; None gives the defaults."""
    if path is None:
        return Config()
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read it ({exc.strerror})") from None
    try:
        obj = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" line {mark.line + 1}" if mark else ""
        problem = getattr(exc, "problem", exc)
        raise ConfigError(f"{path}:{where} not valid YAML ({problem})") from None
    return parse_config(obj, str(path))


def save_geometry(path: str | Path, geometry: GeometryConfig) -> None:
    """Write the geometry section into a YAML file, keeping its other sections."""
    path = Path(path)
    obj: dict[str, Any] = {}
    if path.exists():
        loaded = yaml.safe_load(path.read_text(encoding="utf-8"))
        if isinstance(loaded, dict):
            obj = loaded
    obj["geometry"] = geometry.model_dump(mode="json")
    parse_config(obj, path.name)  # never write a file we could not read back
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(yaml.safe_dump(obj, sort_keys=False), encoding="utf-8")
    tmp.replace(path)


def default_config_yaml() -> str:
    """The example configuration from this module's docstring."""
    text = (__doc__ or "").split("\n\n", 2)[2]
    return "\n".join(line[4:] for line in text.splitlines()) + "\n"
