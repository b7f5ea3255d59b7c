"""Frame sources: one small interface over a Pi camera, a USB camera or stream, a video, a folder.

Every source hands out `Frame`s (a small BGR `image` for the detector, the full `main` image for
evidence pictures, and a time in seconds) from `read()`, and `None` when it has nothing to give.
`ResilientSource` wraps a live source and reopens it with back-off when it stops delivering.

>>> src = open_source("tests/data/frames")          # doctest: +SKIP
>>> frame = src.read(); frame.image.shape           # doctest: +SKIP
(360, 640, 3)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".webm", ".m4v")


class SourceError(ValueError):
    """A source that cannot be opened: names the camera, file or folder."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One picture of the table: `image` for the detector, `main` (same or larger) for evidence."""

    image: np.ndarray  # BGR, detector-sized
    time: float  # seconds: video time for files, monotonic clock for live cameras
    main: np.ndarray | None = None  # BGR full resolution; None when it is `image`
    index: int = 0

    @property
    def full(self) -> np.ndarray:
        return self.image if self.main is None else self.main


class FrameSource(Protocol):
    """What the loop reads from. `live` sources are reopened when they stall; files just end."""

    live: bool

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


def _shrink(image: np.ndarray, width: int | None) -> np.ndarray:
    """Downscale to `width` pixels wide (keeping the aspect), never upscale."""
    if not width or image.shape[1] <= width:
        return image
    import cv2

    height = round(image.shape[0] * width / image.shape[1])
    return cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)


def _pair(image: np.ndarray, width: int | None) -> tuple[np.ndarray, np.ndarray | None]:
    small = _shrink(image, width)
    return small, (None if small is image else image)


class PiCameraSource:
    """Raspberry Pi camera through picamera2: `main` for evidence, `lores` for the detector."""

    live = True

    def __init__(
        self,
        main_size: tuple[int, int] = (2304, 1296),
        lores_size: tuple[int, int] = (640, 360),
        fps: float = 15.0,
    ) -> None:
        try:
            from picamera2 import Picamera2  # apt: python3-picamera2 (Raspberry Pi OS only)
        except ImportError as exc:
            raise SourceError(
                "camera 'picamera2': the picamera2 module is missing; on Raspberry Pi OS run "
                "`sudo apt install python3-picamera2` and make the venv with --system-site-packages"
            ) from exc
        self._cam: Any = Picamera2()
        # "RGB888" is BGR in memory (OpenCV order); lores is YUV420 on every Pi model.
        config = self._cam.create_video_configuration(
            main={"size": tuple(main_size), "format": "RGB888"},
            lores={"size": tuple(lores_size), "format": "YUV420"},
            controls={"FrameRate": float(fps)},
        )
        self._cam.configure(config)
        self._cam.start()
        self._period_ns = 1e9 / float(fps)
        self._first_ns: int | None = None
        self._index = -1

    def read(self) -> Frame | None:
        import cv2

        try:
            (main, lores), meta = self._cam.capture_arrays(["main", "lores"])
        except Exception:  # a camera unplugged mid-capture: the wrapper reopens it
            return None
        # Number frames by the sensor's clock, so frames we were too busy to take show as gaps.
        stamp = meta.get("SensorTimestamp") if isinstance(meta, dict) else None
        if stamp is None:
            self._index += 1
        else:
            self._first_ns = stamp if self._first_ns is None else self._first_ns
            self._index = max(self._index + 1, round((stamp - self._first_ns) / self._period_ns))
        image = cv2.cvtColor(lores, cv2.COLOR_YUV2BGR_I420)
        return Frame(image, time.monotonic(), main, self._index)

    def close(self) -> None:
        try:
            self._cam.stop()
        finally:
            self._cam.close()


class OpenCVSource:
    """A USB camera (`0`, `usb:1`) or a stream URL (`rtsp://…`, `http://…`) through OpenCV."""

    live = True

    def __init__(
        self,
        device: int | str,
        size: tuple[int, int] | None = None,
        fps: float | None = None,
        lores_width: int | None = 640,
    ) -> None:
        import cv2

        self.name = str(device)
        self._cap = cv2.VideoCapture(device)
        if not self._cap.isOpened():
            raise SourceError(f"camera {self.name!r}: cannot open it (is it plugged in?)")
        if size:
            self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        if fps:
            self._cap.set(cv2.CAP_PROP_FPS, fps)
        self._cap.set(cv2.CAP_PROP_BUFFERSIZE, 1)  # the newest frame, not one queued seconds ago
        self._lores_width = lores_width
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        self._index += 1
        small, main = _pair(image, self._lores_width)
        return Frame(small, time.monotonic(), main, self._index)

    def close(self) -> None:
        self._cap.release()


class VideoFileSource:
    """A recorded video; frame times are video time (index / fps), so replays are reproducible."""

    live = False

    def __init__(self, path: str | Path, lores_width: int | None = 640) -> None:
        import cv2

        self.path = Path(path)
        if not self.path.is_file():
            raise SourceError(f"video {str(self.path)!r}: no such file")
        self._cap = cv2.VideoCapture(str(self.path))
        if not self._cap.isOpened():
            raise SourceError(f"video {str(self.path)!r}: OpenCV cannot read it")
        fps = float(self._cap.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if fps > 0 else 30.0
        self.frame_count = int(self._cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self._lores_width = lores_width
        self._index = 0

    def read(self) -> Frame | None:
        ok, image = self._cap.read()
        if not ok or image is None:
            return None
        small, main = _pair(image, self._lores_width)
        frame = Frame(small, self._index / self.fps, main, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        self._cap.release()


class ImageFolderSource:
    """A folder of pictures read in name order, one every 1/fps seconds of pretend time."""

    live = False

    def __init__(self, path: str | Path, fps: float = 10.0, lores_width: int | None = 640) -> None:
        self.path = Path(path)
        if not self.path.is_dir():
            raise SourceError(f"folder {str(self.path)!r}: no such folder")
        self.files = sorted(p for p in self.path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise SourceError(f"folder {str(self.path)!r}: no images ({', '.join(IMAGE_SUFFIXES)})")
        self.fps = fps
        self.frame_count = len(self.files)
        self._lores_width = lores_width
        self._index = 0

    def read(self) -> Frame | None:
        import cv2

        while self._index < len(self.files):
            i = self._index
            self._index += 1
            image = cv2.imread(str(self.files[i]), cv2.IMREAD_COLOR)
            if image is not None:  # an unreadable file is skipped, not fatal
                small, main = _pair(image, self._lores_width)
                return Frame(small, i / self.fps, main, i)
        return None

    def close(self) -> None:
        self._index = len(self.files)


class RealTimeSource:
    """Plays a recorded source at its own pace (a video shown live, for demos and `belote run`)."""

    live = False

    def __init__(self, source: FrameSource, clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.source, self._clock, self._sleep = source, clock, sleep
        self._start: float | None = None

    def read(self) -> Frame | None:
        frame = self.source.read()
        if frame is None:
            return None
        if self._start is None:
            self._start = self._clock() - frame.time
        wait = self._start + frame.time - self._clock()
        if wait > 0:
            self._sleep(wait)
        return frame

    def close(self) -> None:
        self.source.close()


def open_source(
    spec: str,
    *,
    size: tuple[int, int] | None = None,
    lores_size: tuple[int, int] = (640, 360),
    fps: float = 15.0,
    realtime: bool = False,
) -> FrameSource:
    """Open a source from its text form: `picamera2`, `0` / `usb:0`, a URL, a video or a folder.
    `realtime`: play a video or folder at its own pace rather than as fast as possible."""
    spec = spec.strip()
    if spec == "picamera2":
        return PiCameraSource(size or (2304, 1296), lores_size, fps)
    device: int | str | None = None
    if spec.isdigit():
        device = int(spec)
    elif spec.startswith("usb:") and spec[4:].isdigit():
        device = int(spec[4:])
    elif "://" in spec:
        device = spec
    if device is not None:
        return OpenCVSource(device, size, fps, lores_size[0])
    path = Path(spec)
    recorded: FrameSource | None = None
    if path.is_dir():
        recorded = ImageFolderSource(path, fps, lores_size[0])
    elif path.is_file():
        recorded = VideoFileSource(path, lores_size[0])
    if recorded is not None:
        return RealTimeSource(recorded) if realtime else recorded
    raise SourceError(
        f"source {spec!r}: not a camera (picamera2, 0, usb:0, rtsp://…), video file or folder"
    )


STILL_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp")


def one_picture(spec: str, lores_size: tuple[int, int] = (640, 360)) -> Frame:
    """One picture for a one-off job (calibration, teaching the deck): a still file, shrunk to
    the detector's width with the original as `main`; else the 5th frame of a camera, video or
    folder (a camera's exposure settles). Raises ValueError (SourceError too) naming `spec`."""
    path = Path(spec)
    if path.is_file() and path.suffix.lower() in STILL_SUFFIXES:
        import cv2

        image = cv2.imread(str(path))
        if image is None:
            raise ValueError(f"picture {spec!r}: cannot read it")
        small, main = _pair(image, lores_size[0])
        return Frame(small, 0.0, main)
    source = open_source(spec, lores_size=lores_size)
    try:
        frame = None
        for _ in range(5):
            frame = source.read() or frame
        if frame is None:
            raise ValueError(f"source {spec!r}: no picture came")
        return frame
    finally:
        source.close()


class ResilientSource:
    """Keeps a live source alive: after `stall_s` without a frame it is closed and reopened,
    waiting 1, 2, 4 … `max_backoff_s` seconds between attempts. `state` is "up" or "down".

    Clock and sleep are injectable so tests can simulate a 30 s outage instantly.
    """

    live = True

    def __init__(
        self,
        opener: Callable[[], FrameSource],
        *,
        stall_s: float = 3.0,
        first_backoff_s: float = 1.0,
        max_backoff_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self._opener = opener
        self.stall_s = stall_s
        self.first_backoff_s = first_backoff_s
        self.max_backoff_s = max_backoff_s
        self._clock = clock
        self._sleep = sleep
        self._log = log or (lambda _msg: None)
        self._source: FrameSource | None = None
        self._backoff = first_backoff_s
        self._next_attempt = clock()
        self._last_frame = clock()
        self.state = "down"
        self.reopens = 0  # successful opens after the first
        self.failed_reads = 0
        self.last_error: str | None = None
        self._opened_once = False

    def _try_open(self) -> None:
        now = self._clock()
        if now < self._next_attempt:
            self._sleep(min(self._next_attempt - now, 0.5))  # don't spin while waiting
            return
        try:
            self._source = self._opener()
        except Exception as exc:  # any failure to open is retried, never fatal
            self.last_error = f"{type(exc).__name__}: {exc}"
            self._next_attempt = self._clock() + self._backoff
            self._log(f"camera down ({self.last_error}); retrying in {self._backoff:g} s")
            self._backoff = min(self._backoff * 2, self.max_backoff_s)
            return
        if self._opened_once:
            self.reopens += 1
        self._opened_once = True
        self._last_frame = self._clock()  # a fresh source gets a full stall period

    def read(self) -> Frame | None:
        if self._source is None:
            self._try_open()
            if self._source is None:
                self.state = "down"
                return None
        frame = None
        try:
            frame = self._source.read()
        except Exception as exc:  # a driver error counts as a missing frame
            self.last_error = f"{type(exc).__name__}: {exc}"
        now = self._clock()
        if frame is not None:
            self._last_frame = now
            self._backoff = self.first_backoff_s
            self.state = "up"
            return frame
        self.failed_reads += 1
        if now - self._last_frame >= self.stall_s:
            self.state = "down"
            self._log(f"no frame for {now - self._last_frame:.1f} s; reopening the camera")
            self._drop()
            self._next_attempt = now + self._backoff
            self._backoff = min(self._backoff * 2, self.max_backoff_s)
        else:
            self._sleep(0.01)
        return None

    def _drop(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:  # closing a dead camera may fail too; it is being replaced
                pass
            self._source = None

    def close(self) -> None:
        self._drop()
        self.state = "down"
