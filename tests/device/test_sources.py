"""Frame sources: picture folders, video files, opening by name, and reopening a vanished camera."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from device.sources import (
    Frame,
    ImageFolderSource,
    ResilientSource,
    SourceError,
    VideoFileSource,
    open_source,
)


def _picture(i: int, w: int = 1280, h: int = 720) -> np.ndarray:
    image = np.zeros((h, w, 3), np.uint8)
    image[:, :, 1] = 40 * i  # each picture recognisable by its green level
    return image


def test_folder_reads_pictures_in_name_order_with_small_and_full_images(tmp_path) -> None:
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame_{i:03d}.png"), _picture(i))
    (tmp_path / "notes.txt").write_text("not a picture")
    src = open_source(str(tmp_path), fps=5)
    assert isinstance(src, ImageFolderSource) and src.frame_count == 3
    frames = [src.read() for _ in range(4)]
    assert frames[3] is None
    assert [f.time for f in frames[:3]] == pytest.approx([0.0, 0.2, 0.4])
    assert [int(f.image[5, 5, 1]) for f in frames[:3]] == [0, 40, 80]
    assert frames[0].image.shape == (360, 640, 3) and frames[0].full.shape == (720, 1280, 3)


def test_folder_skips_unreadable_files(tmp_path) -> None:
    cv2.imwrite(str(tmp_path / "a.png"), _picture(1, 64, 48))
    (tmp_path / "b.jpg").write_bytes(b"not a jpeg")
    cv2.imwrite(str(tmp_path / "c.png"), _picture(2, 64, 48))
    src = ImageFolderSource(tmp_path)
    frames = [src.read(), src.read(), src.read()]
    assert frames[2] is None and [f.index for f in frames[:2]] == [0, 2]
    assert frames[0].main is None  # small pictures are not copied twice


def test_video_file_gives_every_frame_in_video_time(tmp_path) -> None:
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    for i in range(20):
        writer.write(_picture(i % 6, 64, 48))
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, VideoFileSource) and src.fps == pytest.approx(10.0)
    frames = []
    while (f := src.read()) is not None:
        frames.append(f)
    src.close()
    assert len(frames) == 20
    assert frames[-1].time == pytest.approx(1.9)
    assert abs(int(frames[3].image[10, 10, 1]) - 120) < 10  # lossy but recognisable


@pytest.mark.parametrize("spec, words", [
    ("no/such/thing.mp4", "not a camera"),
    ("picamera2", "python3-picamera2"),
])
def test_unopenable_sources_name_what_failed(spec: str, words: str) -> None:
    with pytest.raises(SourceError, match=words):
        open_source(spec)


def test_a_file_that_is_not_a_video_is_refused(tmp_path) -> None:
    bad = tmp_path / "clip.mp4"
    bad.write_bytes(b"garbage")
    with pytest.raises(SourceError, match=r"clip\.mp4"):
        VideoFileSource(bad)


class _Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, s: float) -> None:
        self.now += s


class _Camera:
    """A camera that works until the clock says it was unplugged, and back after `back`."""

    live = True

    def __init__(self, clock: _Clock, gone: float, back: float) -> None:
        self.clock, self.gone, self.back = clock, gone, back
        self.closed = False

    def read(self) -> Frame | None:
        self.clock.now += 0.1  # one frame every 100 ms
        if self.closed or self.gone <= self.clock.now < self.back:
            return None
        return Frame(np.zeros((4, 4, 3), np.uint8), self.clock.now)

    def close(self) -> None:
        self.closed = True


def test_a_camera_gone_for_30_s_is_reopened_without_restart() -> None:
    clock = _Clock()
    opened: list[_Camera] = []

    def opener() -> _Camera:
        if 10.0 <= clock.now < 40.0 and opened:
            raise OSError("no camera at /dev/video0")
        cam = _Camera(clock, gone=10.0, back=40.0)
        opened.append(cam)
        return cam

    src = ResilientSource(opener, stall_s=2.0, max_backoff_s=8.0, clock=clock, sleep=clock.sleep)
    states, frames = [], []
    while clock.now < 60.0:
        frame = src.read()
        states.append(src.state)
        if frame is not None:
            frames.append(frame.time)
    assert "down" in states and states[-1] == "up"
    assert src.reopens >= 1 and opened[0].closed
    assert max(t for t in frames if t < 40) < 10.0  # nothing invented while it was gone
    recovered = min(t for t in frames if t >= 40)
    assert recovered < 40.0 + 8.0 + 1.0  # back within one (capped) back-off period
    assert "no camera" in (src.last_error or "")


def test_backoff_doubles_and_is_capped() -> None:
    clock = _Clock()
    attempts: list[float] = []

    def opener() -> _Camera:
        attempts.append(clock.now)
        raise OSError("unplugged")

    src = ResilientSource(opener, first_backoff_s=1.0, max_backoff_s=4.0, clock=clock,
                          sleep=clock.sleep)
    while clock.now < 20.0:
        assert src.read() is None
    gaps = [round(b - a) for a, b in itertools.pairwise(attempts)]
    assert gaps[:4] == [1, 2, 4, 4]
    assert src.state == "down"


class _FakePicamera2:
    """Just enough of picamera2.Picamera2 to check how the source drives it."""

    def __init__(self) -> None:
        self.config = None
        self.stamps = iter([1_000_000_000 + k * 66_666_667 for k in (0, 1, 3, 4)])  # 15 fps

    def create_video_configuration(self, main, lores, controls):
        return {"main": main, "lores": lores, "controls": controls}

    def configure(self, config) -> None:
        self.config = config

    def start(self) -> None:
        pass

    def capture_arrays(self, names):
        w, h = self.config["lores"]["size"]
        yuv = np.full((h * 3 // 2, w), 128, np.uint8)  # I420: mid grey, no colour
        mw, mh = self.config["main"]["size"]
        return [np.zeros((mh, mw, 3), np.uint8), yuv], {"SensorTimestamp": next(self.stamps)}

    def stop(self) -> None:
        pass

    def close(self) -> None:
        pass


def test_picamera2_source_reads_lores_for_the_detector_and_main_for_evidence(monkeypatch) -> None:
    import sys
    import types

    from device.sources import PiCameraSource

    module = types.ModuleType("picamera2")
    module.Picamera2 = _FakePicamera2  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "picamera2", module)
    src = open_source("picamera2", size=(1280, 720), lores_size=(320, 180))
    assert isinstance(src, PiCameraSource)
    cfg = src._cam.config
    assert cfg["main"] == {"size": (1280, 720), "format": "RGB888"}
    assert cfg["lores"]["format"] == "YUV420"
    frames = [src.read() for _ in range(4)]
    assert frames[0].image.shape == (180, 320, 3) and frames[0].full.shape == (720, 1280, 3)
    assert abs(int(frames[0].image.mean()) - 128) <= 2
    assert [f.index for f in frames] == [0, 1, 3, 4]  # frame 2 was missed: the loop counts it
    src.close()


def test_realtime_source_plays_a_recording_at_its_own_pace(tmp_path) -> None:
    from device.sources import RealTimeSource

    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _picture(i, 32, 24))
    clock = _Clock()
    clock.now = 100.0
    src = RealTimeSource(ImageFolderSource(tmp_path, fps=2), clock=clock, sleep=clock.sleep)
    seen = []
    while (frame := src.read()) is not None:
        seen.append((frame.time, clock.now))
    assert seen == [(0.0, 100.0), (0.5, 100.5), (1.0, 101.0), (1.5, 101.5)]
    assert not isinstance(open_source(str(tmp_path)), RealTimeSource)
    assert isinstance(open_source(str(tmp_path), realtime=True), RealTimeSource)
