"""Capture: files give timestamped frames and say where a damaged one stopped; a live camera that goes away
is reconnected with backoff and the frames after it keep coming; bad sources get clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.capture import CaptureError, Source


def write_video(path: Path, frames: int, fourcc: str = "MJPG", size: tuple[int, int] = (160, 120)) -> None:
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*fourcc), 10, size)
    for i in range(frames):
        img = np.full((size[1], size[0], 3), (i * 7) % 255, np.uint8)
        cv2.putText(img, str(i), (10, 60), cv2.FONT_HERSHEY_SIMPLEX, 1, (255, 255, 255), 2)
        writer.write(img)
    writer.release()


def test_video_frames_and_timestamps(tmp_path: Path) -> None:
    path = tmp_path / "v.avi"
    write_video(path, 30)
    src = Source.open(path)
    frames = list(src.frames())
    assert len(frames) == 30 and src.status.stopped_early is None
    assert [f.index for f in frames] == list(range(30))
    assert frames[10].t == pytest.approx(1.0, abs=0.02)
    assert [f.index for f in Source.open(path).frames(every=3)] == list(range(0, 30, 3))


def test_a_truncated_video_says_where_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "v.avi"
    write_video(path, 60)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    src = Source.open(path)
    frames = list(src.frames())
    assert 0 < len(frames) < 60
    assert src.status.stopped_early is not None and "stopped at frame" in src.status.stopped_early


def test_bad_sources(tmp_path: Path) -> None:
    with pytest.raises(CaptureError, match="no such file"):
        Source.open(tmp_path / "missing.mp4")
    (tmp_path / "notes.txt").write_text("hello")
    with pytest.raises(CaptureError, match="not a video"):
        Source.open(tmp_path / "notes.txt")
    (tmp_path / "empty").mkdir()
    with pytest.raises(CaptureError, match="no images"):
        Source.open(tmp_path / "empty")


def test_image_folder(tmp_path: Path) -> None:
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.zeros((20, 30, 3), np.uint8))
    (tmp_path / "broken.jpg").write_bytes(b"not an image")
    src = Source.open(tmp_path)
    assert len(list(src.frames())) == 3
    assert any("broken.jpg" in n for n in src.status.notes)


class FakeCamera:
    """Yields ``n`` frames, then fails as an unplugged camera does."""

    def __init__(self, start: int, n: int) -> None:
        self.i, self.end = start, start + n

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        if self.i >= self.end:
            return False, None
        self.i += 1
        return True, np.full((4, 4, 3), self.i, np.uint8)

    def release(self) -> None:
        pass


class Closed:
    def isOpened(self) -> bool:
        return False

    def release(self) -> None:
        pass


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        self.now += 1 / 30
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def test_a_lost_camera_reconnects_and_frames_keep_coming() -> None:
    plan = [FakeCamera(0, 5), Closed(), Closed(), FakeCamera(100, 5)]
    clock = Clock()
    src = Source("camera 0", True, opener=lambda: plan.pop(0), clock=clock, sleep=clock.sleep)
    frames = []
    for f in src.frames():
        frames.append(f)
        if len(frames) == 10:
            break
    assert [int(f.image[0, 0, 0]) for f in frames] == [1, 2, 3, 4, 5, 101, 102, 103, 104, 105]
    assert src.status.reconnects == 1
    assert frames[5].t > frames[4].t + 1.0  # the backoff waited (0.5 s, then 1 s)
    assert any("lost" in n for n in src.status.notes)


def test_a_camera_gone_for_good_gives_up_with_a_clear_message() -> None:
    plan: list[object] = [FakeCamera(0, 3)]
    clock = Clock()
    src = Source("camera 1", True, opener=lambda: plan.pop(0) if plan else Closed(), clock=clock, sleep=clock.sleep,
                 give_up_after=20.0)  # fmt: skip
    got = []
    with pytest.raises(CaptureError, match="no picture for 20 s"):
        for f in src.frames():
            got.append(f)
    assert len(got) == 3  # what was seen before is kept by the caller


def test_a_video_file_is_decoded_ahead_and_leaving_early_stops_the_reader(tmp_path: Path) -> None:
    """Frames come in order with their own pixels while the reader decodes ahead on a thread of its own; a
    review that stops early leaves no reader running and reports no damaged file."""
    import threading

    path = tmp_path / "v.avi"
    write_video(path, 40)
    before = threading.active_count()
    src = Source.open(path)
    seen = []
    for f in src.frames(every=2):
        seen.append((f.index, int(f.image[5, 5, 0])))
        if len(seen) == 5:
            break
    assert [i for i, _ in seen] == [0, 2, 4, 6, 8]
    assert [v for _, v in seen] == [pytest.approx((i * 7) % 255, abs=8) for i in (0, 2, 4, 6, 8)]
    assert src.status.stopped_early is None
    assert threading.active_count() == before


class PacedCamera:
    """A camera giving a frame every ``period`` seconds of real time, numbered from 1."""

    def __init__(self, period: float) -> None:
        self.period, self.i = period, 0
        self.made: list[tuple[int, float]] = []

    def isOpened(self) -> bool:
        return True

    def read(self) -> tuple[bool, np.ndarray | None]:
        import time

        time.sleep(self.period)
        self.i += 1
        self.made.append((self.i, time.monotonic()))
        return True, np.full((4, 4, 3), self.i % 256, np.uint8)

    def release(self) -> None:
        pass


def test_a_live_camera_hands_a_slow_chain_its_newest_frame_and_counts_the_rest_dropped() -> None:
    """A chain slower than the camera gets the table as it is now, not frames a buffer kept: each frame taken
    is at most a frame or two older than the newest the camera had made, and the frames passed over are counted."""
    import time

    cam = PacedCamera(0.02)
    src = Source("camera 0", True, opener=lambda: cam, latest=True)
    taken = []
    for f in src.frames():
        taken.append((int(f.image[0, 0, 0]), cam.i))
        time.sleep(0.05)  # the chain's work on the frame
        if len(taken) == 8:
            break
    values = [v for v, _ in taken]
    assert values == sorted(values) and values[-1] - values[0] >= 10  # it kept up with the camera's clock
    assert all(newest - v <= 2 for v, newest in taken)  # (a buffer would hand over 1, 2, 3, ... in turn)
    assert src.status.dropped >= 10


def test_a_live_camera_read_ahead_that_is_gone_for_good_still_says_so() -> None:
    plan: list[object] = [FakeCamera(0, 3)]
    clock = Clock()
    src = Source("camera 1", True, opener=lambda: plan.pop(0) if plan else Closed(), clock=clock, sleep=clock.sleep,
                 give_up_after=20.0, latest=True)  # fmt: skip
    got = []
    with pytest.raises(CaptureError, match="no picture for 20 s"):
        for f in src.frames():
            got.append(int(f.image[0, 0, 0]))
    assert got and got[-1] == 3  # the newest frame before the camera went is handed over
