"""The detector runs one frame ahead of the tracker (review and live): same finds, same order, a frame handed over
as soon as it is detected, errors raised after the frames before them, nothing left running."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest

from vision.capture import CaptureError, Frame
from vision.detections import Detections
from vision.pipeline import detect_ahead


def frames(n: int) -> list[Frame]:
    return [Frame(np.full((4, 4, 3), i, np.uint8), i / 10, i) for i in range(n)]


def fake_detect(image: np.ndarray) -> Detections:
    time.sleep(0.002)
    v = float(image[0, 0, 0])
    return Detections(np.full((1, 4, 2), v), np.array([v / 100]), np.array([0]))


def test_each_frame_comes_with_its_own_detections_in_order() -> None:
    calls: list[int] = []

    def detect(image: np.ndarray) -> Detections:
        calls.append(int(image[0, 0, 0]))
        return fake_detect(image)

    out = list(detect_ahead(frames(12), detect))
    assert [f.index for f, _ in out] == list(range(12))
    assert all(float(d.quads[0, 0, 0]) == f.index for f, d in out)
    assert calls == list(range(12))


def test_the_next_frame_is_detected_while_this_one_is_worked_on() -> None:
    started: list[float] = []

    def detect(image: np.ndarray) -> Detections:
        started.append(time.perf_counter())
        return fake_detect(image)

    it = detect_ahead(frames(3), detect)
    next(it)
    time.sleep(0.05)  # the caller busy with frame 0
    assert len(started) == 2  # frame 1's detection began before the caller asked for it


def test_leaving_early_leaves_no_detector_running() -> None:
    before = threading.active_count()
    for frame, _ in detect_ahead(frames(50), fake_detect):
        if frame.index == 3:
            break
    assert threading.active_count() == before


def test_a_frame_is_handed_over_without_waiting_for_the_next_to_arrive() -> None:
    arrived = threading.Event()
    kept_waiting: list[bool] = []

    def camera() -> Iterator[Frame]:
        yield from frames(1)
        kept_waiting.append(not arrived.wait(2.0))  # the next frame comes once the caller has the first
        yield Frame(np.full((4, 4, 3), 1, np.uint8), 0.1, 1)

    it = detect_ahead(camera(), fake_detect)
    first, _ = next(it)
    arrived.set()
    assert first.index == 0
    assert [f.index for f, _ in it] == [1]
    assert kept_waiting == [False]


def test_a_source_that_fails_gives_its_frames_before_the_error() -> None:
    def truncated() -> Iterator[Frame]:
        yield from frames(3)
        raise CaptureError("the file stops at frame 3")

    got: list[int] = []
    with pytest.raises(CaptureError, match="frame 3"):
        for frame, _ in detect_ahead(truncated(), fake_detect):
            got.append(frame.index)
    assert got == [0, 1, 2]


def test_a_detector_error_reaches_the_caller() -> None:
    def broken(image: np.ndarray) -> Detections:
        if image[0, 0, 0] == 2:
            raise RuntimeError("runtime failed on frame 2")
        return fake_detect(image)

    got: list[int] = []
    with pytest.raises(RuntimeError, match="frame 2"):
        for frame, _ in detect_ahead(frames(5), broken):
            got.append(frame.index)
    assert got == [0, 1]
