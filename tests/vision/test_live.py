"""Live refereeing plumbing: the chain on a source, events on disk as they happen and through the outbox to a
server that drops out for a while; the round is ended and nothing is lost or sent twice."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from demonref.outbox import Outbox
from referee.events import RoundEnd, RoundStart, read_log
from vision.capture import CaptureError, Source
from vision.live import LiveStats, run_live
from vision.oracle import oracle_detections

SAMPLE = Path(__file__).parents[2] / "datasets" / "sample" / "game"


def oracle_reader() -> Any:
    """A stand-in for the card models that reads each frame's truth (frames arrive in order)."""
    lines = iter((SAMPLE / "truth.jsonl").read_text().splitlines())

    def detect(image: np.ndarray) -> Any:
        return oracle_detections(json.loads(next(lines)))

    return SimpleNamespace(detector=detect, identifier=None)


class FlakyServer:
    def __init__(self) -> None:
        self.calls = 0
        self.stored: list[int] = []

    def __call__(self, events: list[dict[str, Any]]) -> None:
        self.calls += 1
        if 2 <= self.calls <= 4:
            raise ConnectionError("network down")
        self.stored.extend(e["seq"] for e in events)


def test_live_round_reaches_the_server_despite_an_outage(tmp_path: Path) -> None:
    start = read_log(SAMPLE / "events.jsonl")[0]
    assert isinstance(start, RoundStart)
    server = FlakyServer()
    box = Outbox(tmp_path, server, batch=3)
    _, stats = run_live(Source.open(SAMPLE / "game.mp4"), tmp_path, rules=start.rules,
                            players=[(p.id, p.back) for p in start.players], reader=oracle_reader(), outbox=box,
                            process_fps=100)  # fmt: skip
    log = read_log(tmp_path / "events.jsonl")
    assert isinstance(log[0], RoundStart) and isinstance(log[-1], RoundEnd)
    assert stats.processed == stats.frames > 0
    for _ in range(5):  # the server comes back within a few tries; the test does not wait out the backoff
        box.flush(now=1e9)
        box._next_try = 0.0
    assert server.stored == [e.seq for e in log]  # everything, in order, once
    assert (tmp_path / "calibration.json").exists()
    with pytest.raises(CaptureError, match="already holds a round"):
        run_live(Source.open(SAMPLE / "game.mp4"), tmp_path, reader=oracle_reader())


def test_a_machine_that_cannot_keep_up_is_told_so_only_when_frames_were_lost() -> None:
    slow = LiveStats(frames=600, processed=130, seconds=20.0, wanted=15.0)  # 6.5 of 15 frames/s, the rest skipped
    message = slow.falling_behind()
    assert message is not None and "6.5 frames/s of the 15" in message
    assert LiveStats(frames=600, processed=280, seconds=20.0, wanted=15.0).falling_behind() is None  # 14 of 15
    assert LiveStats(frames=600, processed=130, seconds=20.0, wanted=0.0).falling_behind() is None  # none skipped
    assert LiveStats(frames=30, processed=6, seconds=2.0, wanted=15.0).falling_behind() is None  # too short to say


def test_a_video_read_in_turn_loses_no_frames_and_gets_no_warning(tmp_path: Path) -> None:
    _, stats = run_live(Source.open(SAMPLE / "game.mp4"), tmp_path, reader=oracle_reader(), process_fps=100)
    assert stats.wanted == 0.0 and stats.falling_behind() is None
