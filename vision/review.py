"""Offline review of a recorded game: video in; the referee's log, an annotated video and a report out.

``review`` is also what ``demonref evaluate e2e`` runs on rendered games, with the real models or with the
oracle's detections read from the render's ``truth.jsonl``. The log is written line by line as events happen
(flushed), so a crash or a damaged file keeps everything seen until then.
"""

from __future__ import annotations

import base64
import html
import json
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.events import Event, dumps
from referee.scoring import tally
from vision.calibrate import Calibration
from vision.capture import Frame, Source
from vision.detections import Detections
from vision.oracle import oracle_detections
from vision.pipeline import Chain, detect_ahead
from vision.synth.faces import BACK_COLOURS

FLAG_SHOW_SECONDS = 3.0


class ReviewError(ValueError):
    """Bad input to a review (the message names it)."""


def parse_players(text: str | None) -> list[tuple[str, str | None]] | None:
    """``"Ann:red,Bob:blue"`` → [("Ann", "red"), ("Bob", "blue")]; a colour may be left out (``"Ann,Bob"``)."""
    if not text:
        return None
    out: list[tuple[str, str | None]] = []
    for item in text.split(","):
        name, _, colour = item.strip().partition(":")
        name, colour = name.strip(), colour.strip().lower()
        if not name:
            raise ReviewError(f"--players: an empty player name in {text!r}")
        if colour and colour not in BACK_COLOURS:
            raise ReviewError(f"--players: unknown back colour {colour!r} for {name}; known: {', '.join(BACK_COLOURS)}")
        if any(name == n for n, _ in out):
            raise ReviewError(f"--players: {name} is named twice")
        out.append((name, colour or None))
    if len(out) < 2:
        raise ReviewError("--players: Racing Demon needs at least two players")
    return out


@dataclass
class ReviewResult:
    events: list[Event]
    frames: int
    processed: int
    seconds: float
    notes: list[str] = field(default_factory=list)
    partial: bool = False
    calibration: Calibration | None = None
    chain: Chain | None = None


def review(
    video: Path,
    out: Path,
    *,
    rules: str = "racing-demon",
    options: dict[str, Any] | None = None,
    players: Sequence[tuple[str, str | None]] | None = None,
    calibration: Calibration | None = None,
    reader: Any | None = None,
    truth: Path | None = None,
    process_fps: float = 10.0,
    annotate: bool = True,
    report: bool = True,
    progress: Callable[[int, int | None], None] | None = None,
) -> ReviewResult:
    """Reviews ``video`` into ``out``: events.jsonl, annotated.mp4, report.html, calibration.json. ``reader``
    is the card models; with ``truth`` (a render's truth.jsonl) the oracle reads the cards instead."""
    if reader is None and truth is None:
        raise ReviewError("review needs the card models or an oracle truth file")
    source = Source.open(video)
    every = max(1, round(source.fps / process_fps))
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "events.jsonl"
    log = log_path.open("w", encoding="utf-8")

    def write(event: Event) -> None:
        log.write(dumps(event) + "\n")
        log.flush()

    chain = Chain(rules, dict(options or {}), players, detect=reader.detector if reader else None,
                  identify=reader.identifier if reader else None, calibration=calibration,
                  frame_rate=max(1, round(source.fps / every)), on_event=write)  # fmt: skip
    truth_file = truth.open(encoding="utf-8") if truth is not None else None
    truth_at = -1
    writer: VideoOut | None = None
    thumbs: dict[int, str] = {}
    t = 0.0
    last_index = 0
    total = source.status.expected
    try:
        frames: Iterator[tuple[Frame, Detections | None]] = (
            detect_ahead(source.frames(every), reader.detector)
            if truth_file is None and reader is not None
            else ((f, None) for f in source.frames(every))
        )
        for frame, dets in frames:
            t, last_index = frame.t, frame.index
            if truth_file is not None:
                line = ""
                while truth_at < frame.index:
                    line = truth_file.readline()
                    truth_at += 1
                    if not line:
                        break
                if not line:
                    break
                dets = oracle_detections(json.loads(line))
            flags_before = len(chain.flags)
            chain.feed(frame.image, frame.t, frame.index, dets)
            for k in range(flags_before, len(chain.flags)):
                thumbs[k] = _thumbnail(frame.image, chain.flags[k].quad)
            if annotate:
                drawn = draw(frame.image, chain, frame.t)
                if writer is None:
                    writer = VideoOut(out / "annotated.mp4", max(1.0, source.fps / every), drawn.shape)
                writer.write(drawn)
            if progress is not None:
                total = total or source.status.expected
                progress(frame.index + 1, total)
    finally:
        if truth_file is not None:
            truth_file.close()
        if writer is not None:
            writer.close()
        partial = source.status.stopped_early is not None
        chain.finish(t, reason="video ended early: " + str(source.status.stopped_early) if partial else "video ended")
        log.close()
    notes = list(chain.notes) + list(source.status.notes)
    if source.status.stopped_early:
        notes.insert(0, source.status.stopped_early)
    if not chain.started:
        notes.insert(0, "the round never started: no dealt table (demons and lines face up) was seen lying still")
    if chain.calibration is not None:
        chain.calibration.save(out / "calibration.json")
    result = ReviewResult(chain.events, last_index + 1, chain.processed, t, notes, partial, chain.calibration, chain)
    if report:
        write_report(out / "report.html", video, result, thumbs)
    return result


class VideoOut:
    """An MP4 written on a thread of its own (OpenCV lets go of the GIL while it encodes), frames in order; at
    most ``ahead`` drawn frames wait for the encoder."""

    def __init__(self, path: Path, fps: float, shape: tuple[int, ...], ahead: int = 4) -> None:
        h, w = shape[:2]
        self._writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), fps, (w, h))
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="encode")
        self._pending: deque[Future[Any]] = deque()
        self._ahead = ahead

    def write(self, image: np.ndarray) -> None:
        while len(self._pending) >= self._ahead:
            self._pending.popleft().result()
        self._pending.append(self._pool.submit(self._writer.write, image))

    def close(self) -> None:
        """Waits for the frames still queued, then finishes the file."""
        try:
            while self._pending:
                self._pending.popleft().result()
        finally:
            self._pool.shutdown(wait=True)
            self._writer.release()


def _thumbnail(image: np.ndarray, quad: list[list[float]] | None, size: int = 240) -> str:
    """A JPEG (base64) of the place a flag concerns, or of the whole frame."""
    return base64.b64encode(thumbnail_jpeg(image, quad, size)).decode()


def thumbnail_jpeg(image: np.ndarray, quad: list[list[float]] | None, size: int = 240) -> bytes:
    """A JPEG of the place a flag concerns (around its card), or of the whole frame."""
    crop = image
    if quad is not None:
        q = np.asarray(quad)
        c = q.mean(axis=0)
        r = max(60.0, float(np.ptp(q, axis=0).max()) * 1.5)
        x0, y0 = (np.maximum(c - r, 0)).astype(int)
        x1, y1 = (np.minimum(c + r, [image.shape[1], image.shape[0]])).astype(int)
        if x1 > x0 and y1 > y0:
            crop = image[y0:y1, x0:x1]
    s = size / max(crop.shape[:2])
    small = cv2.resize(crop, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buf.tobytes() if ok else b""


def frame_jpeg(image: np.ndarray, width: int = 960, quality: int = 70) -> bytes:
    """A frame for the live page: at most ``width`` pixels wide, JPEG."""
    if image.shape[1] > width:
        s = width / image.shape[1]
        image = cv2.resize(image, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return buf.tobytes() if ok else b""


def draw(image: np.ndarray, chain: Chain, t: float) -> np.ndarray:
    """The frame with quads and readings, each player's area, the foundation piles (with whose arm brought each
    top) and recent flags."""
    out = image.copy()
    scale = max(1, round(image.shape[1] / 1280))
    for s in chain.seen:
        q = np.round(s.quad).astype(np.int32)
        colour = (255, 0, 255) if s.back else ((0, 220, 0) if s.static else (0, 200, 255))
        cv2.polylines(out, [q], True, colour, scale, cv2.LINE_AA)
        if not s.back and s.card:
            _text(out, s.card, tuple(q.min(axis=0)), 0.5 * scale)
    cal = chain.calibration
    if cal is not None and cal.seats:
        for seat in cal.seats:
            right, down = np.array(seat.right), np.array(seat.down)
            lo, hi = seat.span
            corners = [(lo - 45, -70), (hi + 45, -70), (hi + 45, 180), (lo - 45, 180)]
            pts = np.array([np.array(seat.centre) + right * x + down * y for x, y in corners])
            poly = np.round(cal.to_image(pts)).astype(np.int32)
            cv2.polylines(out, [poly], True, (255, 200, 0), scale, cv2.LINE_AA)
            _text(out, seat.player, tuple(poly[2]), 0.7 * scale)
    if chain.last_view is not None and cal is not None:
        for pile in chain.last_view.foundations:
            xy = cal.to_image(np.array([[pile.x, pile.y]]))[0]
            arms = f" <{','.join(pile.reached)}" if pile.reached else ""  # whose arm brought the top
            _text(out, f"{pile.id}:{pile.top or '?'}{arms}", (int(xy[0]), int(xy[1])), 0.6 * scale, (0, 255, 255))
    recent = [f for f in chain.flags if t - f.t <= FLAG_SHOW_SECONDS]
    for k, f in enumerate(recent[-4:]):
        _text(out, f"FLAG {f.verdict.code}: {f.verdict.message}", (10 * scale, (30 + 28 * k) * scale), 0.7 * scale,
              (0, 0, 255))  # fmt: skip
        if f.quad is not None:
            cv2.polylines(out, [np.round(np.array(f.quad)).astype(np.int32)], True, (0, 0, 255), 3 * scale)
    return out


def _text(
    img: np.ndarray, text: str, org: tuple[int, int], size: float, colour: tuple[int, int, int] = (255, 255, 255)
) -> None:
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), 3, cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, colour, 1, cv2.LINE_AA)


def write_report(path: Path, video: Path, result: ReviewResult, thumbs: dict[int, str]) -> None:
    """A single self-contained HTML page: the tally, every flag with its picture, notes and a timeline."""
    chain = result.chain
    esc = html.escape
    parts = [
        "<!doctype html><html lang=en><meta charset=utf-8>",
        f"<title>demonref review: {esc(video.name)}</title>",
        "<style>body{font:15px system-ui,sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse}"
        "td,th{border:1px solid #ccc;padding:.3em .6em;text-align:left}.flag{display:flex;gap:1em;margin:.6em 0}"
        ".note{background:#fff3cd;padding:.5em}.tl{position:relative;height:40px;background:#eee;margin:1em 0}"
        ".tl span{position:absolute;top:0;width:2px;height:40px;background:#36c}.tl span.f{background:#d33}</style>",
        f"<h1>Review of {esc(video.name)}</h1>",
        f"<p>{result.frames} frames, {result.processed} processed, {result.seconds:.1f} s of play.</p>",
    ]
    for note in result.notes:
        parts.append(f"<p class=note>{esc(note)}</p>")
    if chain is not None and chain.started:
        board = tally(chain.state)
        parts.append("<h2>Tally</h2><table><tr><th>player</th><th>score</th><th>details</th></tr>")
        for p in board.to_json()["players"]:
            details = ", ".join(f"{k}: {v}" for k, v in p.items() if k not in ("id", "score"))
            parts.append(f"<tr><td>{esc(str(p['id']))}</td><td>{p['score']}</td><td>{esc(details)}</td></tr>")
        parts.append("</table>")
        parts.append(f"<h2>Flags ({len(chain.flags)})</h2>")
        if not chain.flags:
            parts.append("<p>No flags: every play the camera saw was legal.</p>")
        for k, f in enumerate(chain.flags):
            img = f"<img alt='frame {f.frame}' src='data:image/jpeg;base64,{thumbs[k]}'>" if thumbs.get(k) else ""
            parts.append(
                f"<div class=flag>{img}<div><b>{esc(f.verdict.code)}</b> at {f.t:.1f} s (frame {f.frame}, event "
                f"{f.verdict.seq})<br>{esc(f.verdict.message)}</div></div>"
            )
        span = max(result.seconds, 1e-6)
        flagged = {f.verdict.seq for f in chain.flags}
        marks = "".join(
            f"<span class={'f' if e.seq in flagged else 'p'} style='left:{100 * e.t / span:.2f}%' "
            f"title='{esc(type(e).__name__)} {e.t:.1f}s'></span>"
            for e in result.events
            if type(e).__name__ in ("Play", "Out")
        )
        parts.append(f"<h2>Timeline</h2><div class=tl>{marks}</div><p>Blue: plays; red: flagged.</p>")
        parts.append("<h2>Events</h2><table><tr><th>t</th><th>event</th></tr>")
        for e in result.events:
            parts.append(f"<tr><td>{e.t:.2f}</td><td><code>{esc(dumps(e))}</code></td></tr>")
        parts.append("</table>")
    path.write_text("\n".join(parts) + "\n</html>\n", encoding="utf-8")
