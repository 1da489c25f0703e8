"""Live refereeing: the camera chain on a camera (or a video played at its own speed), events written to disk
as they happen and sent to the dashboard through the rig's outbox.

The chain processes the newest frames it can keep up with (``process_fps`` at most); frames it cannot keep up
with are skipped, never queued, so the referee stays within a blink of the table.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.events import Event, dumps
from vision.calibrate import Calibration
from vision.capture import CaptureError, Frame, Source
from vision.pipeline import Chain, detect_ahead
from vision.review import draw, frame_jpeg, thumbnail_jpeg

PICTURE_SECONDS = 0.33  # how often the annotated camera view goes to the dashboard


# Processing under this share of the rate asked for loses plays: a card that lands and is covered between two
# processed frames is never seen (on a 2-core machine without AVX-512, `make demo` kept up with 6.5 of 15 frames/s
# and credited a pile with six cards that never lay there).
KEEPING_UP = 0.75


@dataclass
class LiveStats:
    frames: int = 0
    processed: int = 0
    seconds: float = 0.0
    wanted: float = 0.0  # frames/s asked for when frames that are not processed in time are lost (else 0)

    @property
    def fps(self) -> float:
        return self.processed / self.seconds if self.seconds > 0 else 0.0

    def falling_behind(self) -> str | None:
        """What to say when frames were lost because the machine processed well under the rate asked for."""
        if self.wanted <= 0 or self.seconds < 5.0 or self.fps >= KEEPING_UP * self.wanted:
            return None
        return (
            f"this machine processed {self.fps:.1f} frames/s of the {self.wanted:.0f} asked for, and the frames in "
            "between were skipped: plays made and covered between two processed frames are missed. Review a "
            "recording with `demonref review` (every frame, at its own pace), or lower --fps, the camera's "
            "resolution or the detector's input (--detector-size 640, about a third faster)."
        )


def run_live(
    source: Source,
    out: Path,
    *,
    rules: str = "racing-demon",
    options: dict[str, Any] | None = None,
    players: Sequence[tuple[str, str | None]] | None = None,
    calibration: Calibration | None = None,
    reader: Any,
    outbox: Any | None = None,
    pictures: Any | None = None,
    process_fps: float = 15.0,
    pace: bool = False,
    stop: Callable[[], bool] = lambda: False,
    on_event: Callable[[Event], None] | None = None,
    max_seconds: float | None = None,
) -> tuple[Chain, LiveStats]:
    """Runs until the source ends, ``stop()`` says so, or ``max_seconds`` of play; then ends the round.
    ``pace``: play a file at its own speed (as a camera would deliver it). ``pictures`` (a
    :class:`demonref.outbox.PictureSender`) gets the annotated camera view a few times a second and a picture
    of each flagged event (also saved in ``out/thumbs``)."""
    out.mkdir(parents=True, exist_ok=True)
    try:
        log = (out / "events.jsonl").open("x", encoding="utf-8")
    except FileExistsError:
        raise CaptureError(f"{out}/events.jsonl already holds a round; give another --out") from None

    def emit(event: Event) -> None:
        log.write(dumps(event) + "\n")
        log.flush()
        if outbox is not None:
            outbox.put(event)
        if on_event is not None:
            on_event(event)

    chain = Chain(rules, dict(options or {}), players, detect=reader.detector, identify=reader.identifier,
                  calibration=calibration, frame_rate=round(process_fps), on_event=emit)  # fmt: skip
    stats = LiveStats(wanted=min(process_fps, source.fps or process_fps) if pace or source.live else 0.0)
    started = time.monotonic()
    next_due = 0.0
    last_flush = 0.0
    last_picture = 0.0
    reason = "stopped"
    t = 0.0

    def due() -> Iterator[Frame]:
        """The frames to process, taken on the detector's thread: the newest the chain can keep up with."""
        nonlocal next_due
        for frame in source.frames():
            stats.frames += 1
            if pace:
                ahead = frame.t - (time.monotonic() - started)
                if ahead > 0:
                    time.sleep(ahead)
                elif ahead < -1.0 / process_fps:
                    continue  # behind the clock: drop this frame, as a camera would
            if frame.t < next_due:
                continue
            next_due = frame.t + 1.0 / process_fps
            yield frame

    try:
        # The detector works on the next frame while the chain tracks and referees this one (vision.pipeline).
        for frame, found in detect_ahead(due(), reader.detector):
            t = frame.t
            flags_before = len(chain.flags)
            chain.feed(frame.image, frame.t, frame.index, found)
            stats.processed += 1
            for flag in chain.flags[flags_before:]:
                jpeg = thumbnail_jpeg(frame.image, flag.quad)
                (out / "thumbs").mkdir(exist_ok=True)
                (out / "thumbs" / f"{flag.verdict.seq}.jpg").write_bytes(jpeg)
                if pictures is not None:
                    pictures.thumb(flag.verdict.seq, jpeg)
            if pictures is not None and time.monotonic() - last_picture >= PICTURE_SECONDS:
                pictures.frame(frame_jpeg(draw(frame.image, chain, frame.t)))
                last_picture = time.monotonic()
            if outbox is not None and time.monotonic() - last_flush > 0.25:
                outbox.flush()
                last_flush = time.monotonic()
            if stop() or (max_seconds is not None and frame.t >= max_seconds):
                reason = "stopped by the operator"
                break
        else:
            reason = "the video ended" if not source.live else "the camera stream ended"
    except CaptureError as exc:
        reason = f"camera lost: {exc}"
        raise
    except KeyboardInterrupt:
        reason = "stopped by the operator"
    finally:
        stats.seconds = time.monotonic() - started
        chain.finish(t, reason=reason)
        log.close()
        if chain.calibration is not None:
            chain.calibration.save(out / "calibration.json")
        if outbox is not None:
            outbox.flush(now=float("inf"))
        if pictures is not None:
            pictures.close()
    return chain, stats
