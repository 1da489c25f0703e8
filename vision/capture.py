"""Frames from wherever the camera is: a webcam index, a video file, an RTSP/HTTP stream or a folder of images.

Every frame carries its timestamp (the file's own clock for videos and folders, the wall clock for live
sources). Live sources notice dropped frames and reconnect with backoff when the camera goes away, without
ending the round; a video file that stops early says where it stopped.

>>> src = Source.open("recording.mp4")          # doctest: +SKIP
>>> for frame in src.frames(every=2): ...       # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp")
PREFETCH = 4  # frames a video file is decoded ahead of the chain


class CaptureError(RuntimeError):
    """A source could not be opened or was lost for good; the message says which and why."""


@dataclass
class Frame:
    image: np.ndarray
    t: float  # seconds since the source started
    index: int  # frame number in the source


@dataclass
class Status:
    """What happened while reading: shown to the user and written into reports."""

    read: int = 0
    dropped: int = 0  # live frames that arrived late enough that some in between were lost
    reconnects: int = 0
    expected: int | None = None  # frames a file said it had
    stopped_early: str | None = None  # why a file ended before its end
    notes: list[str] = field(default_factory=list)


Opener = Callable[[], Any]  # returns a cv2.VideoCapture-like object (isOpened, read, get, release)


@dataclass
class Source:
    """One camera or recording. Use ``Source.open(spec)``; iterate ``frames()``."""

    name: str
    live: bool
    opener: Opener | None = None
    folder: list[Path] | None = None
    fps: float = 30.0
    give_up_after: float = 60.0  # seconds a live source may stay away before the round is given up
    backoff: tuple[float, ...] = (0.5, 1.0, 2.0, 4.0, 8.0)
    clock: Callable[[], float] = time.monotonic
    sleep: Callable[[float], None] = time.sleep
    status: Status = field(default_factory=Status)
    # Live only: read the camera on a thread of its own and hand over its newest frame, so a chain slower than the
    # camera gets the table as it is now rather than what a driver or stream buffer kept (RTSP buffers grow for
    # as long as the reader lags). Frames replaced before they were taken count as dropped.
    latest: bool = False

    @staticmethod
    def open(spec: str | int | Path, *, fps: float | None = None) -> Source:
        """``0`` (a webcam index), ``rtsp://…``/``http://…`` (a stream), a video file or a folder of images."""
        text = str(spec)
        if text.isdigit():
            index = int(text)
            return Source(f"camera {index}", True, lambda: cv2.VideoCapture(index), fps=fps or 30.0, latest=True)
        if "://" in text:
            return Source(text, True, lambda: cv2.VideoCapture(text), fps=fps or 30.0, latest=True)
        path = Path(text)
        if not path.exists():
            raise CaptureError(f"{path}: no such file or folder (expected a video, an image folder or a camera index)")
        if path.is_dir():
            images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not images:
                raise CaptureError(f"{path}: no images ({', '.join(IMAGE_SUFFIXES)}) in this folder")
            return Source(str(path), False, folder=images, fps=fps or 2.0)
        cap = cv2.VideoCapture(str(path))
        if not cap.isOpened():
            raise CaptureError(f"{path}: not a video OpenCV can read (expected MP4, AVI, MKV, …)")
        ok, _ = cap.read()
        if not ok:
            cap.release()
            raise CaptureError(f"{path}: no frame could be decoded (is the file empty or truncated?)")
        rate = fps or cap.get(cv2.CAP_PROP_FPS) or 30.0
        cap.release()
        return Source(str(path), False, lambda: cv2.VideoCapture(str(path)), fps=rate)

    def frames(self, every: int = 1) -> Iterator[Frame]:
        """Every ``every``-th frame. Live sources reconnect when lost; files and folders end at their end."""
        if self.folder is not None:
            yield from self._folder(every)
        elif self.live and self.latest:
            yield from itertools.islice(self._read_on_thread(self._live(1), keep=1, newest=True), 0, None, every)
        elif self.live:
            yield from self._live(every)
        else:
            yield from self._read_on_thread(self._file(every), keep=PREFETCH, newest=False)

    def _folder(self, every: int) -> Iterator[Frame]:
        assert self.folder is not None
        self.status.expected = len(self.folder)
        for i, path in enumerate(self.folder):
            if i % every:
                continue
            image = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if image is None:
                self.status.notes.append(f"{path.name}: not a readable image, skipped")
                continue
            self.status.read += 1
            yield Frame(image, i / self.fps, i)

    def _file(self, every: int) -> Iterator[Frame]:
        assert self.opener is not None
        cap = self.opener()
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT) or 0)
        self.status.expected = count or None
        i = 0
        try:
            while True:
                ok = cap.grab()
                if not ok:
                    break
                if i % every == 0:
                    ok, image = cap.retrieve()
                    if not ok or image is None:
                        break
                    ms = cap.get(cv2.CAP_PROP_POS_MSEC)
                    t = ms / 1000.0 if ms and ms > 0 else i / self.fps
                    self.status.read += 1
                    yield Frame(image, t, i)
                i += 1
        finally:
            cap.release()
        if count and i < count - 1:
            self.status.stopped_early = (
                f"{self.name}: the video stopped at frame {i} of {count} ({i / self.fps:.1f} s of "
                f"{count / self.fps:.1f} s); the file looks truncated or damaged, so this review covers only that part"
            )

    def _live(self, every: int) -> Iterator[Frame]:
        assert self.opener is not None
        start = self.clock()
        cap = self._connect(start, limit=min(self.give_up_after, 10.0))  # a wrong address should fail soon
        last_t: float | None = None
        i = 0
        try:
            while True:
                ok, image = cap.read() if cap is not None else (False, None)
                if not ok or image is None:
                    if cap is not None:
                        cap.release()
                    self.status.notes.append(f"{self.name} lost at {self.clock() - start:.1f} s; reconnecting")
                    cap = self._connect(start)
                    last_t = None
                    continue
                t = self.clock() - start
                if last_t is not None and t - last_t > 1.8 / self.fps:
                    self.status.dropped += max(0, round((t - last_t) * self.fps) - 1)
                last_t = t
                if i % every == 0:
                    self.status.read += 1
                    yield Frame(image, t, i)
                i += 1
        finally:
            if cap is not None:
                cap.release()

    def _read_on_thread(self, frames: Iterator[Frame], *, keep: int, newest: bool) -> Iterator[Frame]:
        """``frames`` read on a thread of their own (OpenCV lets go of the GIL while it decodes or waits for a
        camera), so the next frames are ready while the chain works on this one. At most ``keep`` wait: a file's
        reader then waits (every frame is handed on); with ``newest`` (a camera) the oldest waiting gives way and
        counts as dropped, so the chain gets the table as it is now. An error of the reader (a camera gone for
        good) is raised here, after the frames read before it; leaving the loop early stops the reader."""
        waiting: deque[Frame] = deque()
        changed = threading.Condition()
        done = threading.Event()
        ended: list[BaseException | None] = []

        def read() -> None:
            failure: BaseException | None = None
            try:
                for frame in frames:
                    with changed:
                        while not newest and len(waiting) >= keep and not done.is_set():
                            changed.wait(0.1)
                        if done.is_set():
                            break
                        if len(waiting) >= keep:
                            waiting.popleft()
                            self.status.dropped += 1  # the chain was still busy: that frame is skipped
                        waiting.append(frame)
                        changed.notify_all()
            except BaseException as exc:  # handed to the consumer, raised there
                failure = exc
            finally:
                frames.close()  # the reader releases its capture
                with changed:
                    ended.append(failure)
                    changed.notify_all()

        reader = threading.Thread(target=read, name=f"read {self.name}", daemon=True)
        reader.start()
        try:
            while True:
                with changed:
                    changed.wait_for(lambda: bool(waiting or ended))
                    if not waiting:
                        break
                    frame = waiting.popleft()
                    changed.notify_all()
                yield frame
        finally:
            done.set()
            with changed:
                changed.notify_all()
            reader.join(timeout=2.0)  # a camera's reader asleep in a reconnect's backoff ends on its own
        if ended and ended[0] is not None:
            raise ended[0]

    def _connect(self, start: float, limit: float | None = None) -> Any:
        """Opens the live source, retrying with backoff; gives up after ``give_up_after`` seconds away."""
        assert self.opener is not None
        limit = self.give_up_after if limit is None else limit
        lost_at = self.clock()
        attempt = 0
        while True:
            cap = self.opener()
            if cap is not None and cap.isOpened():
                if attempt:
                    self.status.reconnects += 1
                return cap
            if self.clock() - lost_at >= limit:
                raise CaptureError(
                    f"{self.name}: no picture for {limit:.0f} s (tried {attempt + 1} times); "
                    "check the cable or the stream address. Everything seen so far was kept."
                )
            self.sleep(self.backoff[min(attempt, len(self.backoff) - 1)])
            attempt += 1
