"""Rendered games (video + per-frame truth + the ground-truth event log) and the choice of decks for a table."""

from __future__ import annotations

import json
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from referee.cards import Card
from referee.events import dumps
from referee.game import apply, initial
from referee.rules import Rules
from referee.simulate import SimResult, simulate
from vision.synth import artwork
from vision.synth.decks import Design, design_named, load_designs, split_designs
from vision.synth.faces import BACK_PATTERNS, recolour, render_back
from vision.synth.scene import SceneRenderer, SceneStyle, TableGeometry


class RenderError(RuntimeError):
    """A rendered game could not be written."""


@dataclass(frozen=True, slots=True)
class TableDecks:
    """Which face design and which back each player's deck has."""

    faces: dict[str, Design]
    backs: dict[str, tuple[str, str]]  # player -> (colour, pattern or "svg-cards")

    def face_source(self, height: int) -> Callable[[str, Card], np.ndarray]:
        return lambda pid, card: self.faces[pid].face(card, height=height)

    def back_source(self, height: int, seed: int) -> Callable[[str], np.ndarray]:
        def back(pid: str) -> np.ndarray:
            colour, pattern = self.backs[pid]
            if pattern == "svg-cards":
                return artwork.render_packaged("svg-cards", "svg-cards", None, height=height, back=colour)
            if pattern.startswith("recolour:"):
                return recolour(design_named(pattern.removeprefix("recolour:")).back(height=height), colour)
            return render_back(colour, pattern, height=height, seed=seed + zlib.crc32(pid.encode()) % 1000)

        return back


def choose_decks(
    players: Sequence[str],
    colours: Sequence[str],
    rng: np.random.Generator,
    *,
    heldout: bool,
    designs: list[Design] | None = None,
) -> TableDecks:
    """A face design per player from the training (or held-out) designs, and a back in the player's colour."""
    train, test = split_designs(designs if designs is not None else load_designs())
    pool = test if heldout else train
    if not pool:
        raise RenderError("no deck design available for this split; check datasets/decks.yaml")
    pool = [d for d in pool for _ in range(max(1, d.weight))]
    faces = {}
    for p in players:
        d = pool[int(rng.integers(len(pool)))]
        faces[p] = replace(d, seed=int(rng.integers(2**31))) if d.varied else d  # a deck of its own
    packaged_backs = set(artwork.svg_cards_backs())
    svg_decks = [
        d
        for d in (designs if designs is not None else load_designs())
        if d.kind in ("gnome", "kde") and d.available() and d.status != "skip"
    ]
    backs = {}
    for p, colour in zip(players, colours, strict=True):
        u = rng.random()
        if colour in packaged_backs and u < 0.3:
            backs[p] = (colour, "svg-cards")
        elif svg_decks and u < 0.6:  # a packaged back recoloured to the player's colour
            d = svg_decks[int(rng.integers(len(svg_decks)))]
            if recolours_to(d, colour):
                backs[p] = (colour, f"recolour:{d.kind}:{d.name}")
            else:  # a pattern of its own instead, chosen without a draw so the other decks stay as they were
                backs[p] = (colour, str(BACK_PATTERNS[zlib.crc32(f"{d.name}:{colour}".encode()) % len(BACK_PATTERNS)]))
        else:
            backs[p] = (colour, str(BACK_PATTERNS[int(rng.integers(len(BACK_PATTERNS)))]))
    return TableDecks(faces, backs)


@cache
def recolours_to(design: Design, colour: str) -> bool:
    """Whether ``design``'s back, recoloured to ``colour``, looks that colour: its inked pixels, measured as the
    chain measures a back to name a seat (``vision.table.back_colour``), lie nearest ``colour`` of the named back
    colours. Some backs keep their look whatever the colour (black with a white emblem, black damask, brushed
    silver with a coloured strip): a player called "blue" must not get one (e2e-s39/game01, where a "blue" player
    with a black back and a "black" one with grey stripes had their names swapped)."""
    from vision.table import back_colour, colour_name  # the chain's own measure; imported late (synth comes first)

    back = recolour(design.back(height=176), colour)
    alpha = back[..., 3:4].astype(np.float32) / 255.0
    flat = (back[..., :3] * alpha + 128 * (1 - alpha)).astype(np.uint8)  # over mid grey
    h, w = flat.shape[:2]
    return colour_name(back_colour(flat, np.array([[0, 0], [w, 0], [w, h], [0, h]], float))) == colour


def card_pixels(renderer: SceneRenderer) -> int:
    """Face image height that matches the frame's scale (a little sharper than needed)."""
    return int(np.clip(88 * renderer.ppm * 1.6, 96, 420))


def make_renderer(result: SimResult, seed: int, *, heldout: bool, size: tuple[int, int] | None, markers: bool = True,
                  style: SceneStyle | None = None, hands: bool = True) -> SceneRenderer:  # fmt: skip
    rng = np.random.default_rng(seed)
    players = [p.id for p in result.players]
    colours = [p.back or "red" for p in result.players]
    decks = choose_decks(players, colours, rng, heldout=heldout)
    if style is None:  # a camera set up over a game sees the whole table
        style = SceneStyle.random(rng, size)
        style = replace(style, fill=min(style.fill, float(rng.uniform(0.85, 0.98))))
    geometry = TableGeometry.make(len(players), round_table=bool(rng.random() < 0.3), line_size=result.rules.line_size)
    renderer = SceneRenderer(geometry, players, lambda p, c: np.zeros((1, 1, 4), np.uint8), lambda p: np.zeros((1, 1, 4), np.uint8),
                             style, seed=seed, markers=markers, hands=hands, line_size=result.rules.line_size)  # fmt: skip
    h = card_pixels(renderer)
    renderer.faces = decks.face_source(h)
    renderer.backs = decks.back_source(h, seed)
    renderer.decks = decks  # type: ignore[attr-defined]
    return renderer


def render_game(
    out: Path,
    *,
    players: int = 4,
    seed: int = 0,
    heldout: bool = False,
    inject: Sequence[str] = (),
    rules: Rules | None = None,
    fps: int = 15,
    size: tuple[int, int] = (1280, 720),
    markers: bool = True,
    max_seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Writes ``out/game.mp4``, ``out/truth.jsonl`` and ``out/events.jsonl``; returns a summary."""
    if not 15 <= fps <= 30:
        raise RenderError(f"fps must be 15-30, got {fps}")
    result = simulate(players=players, seed=seed, rules=rules, inject=inject)
    renderer = make_renderer(result, seed, heldout=heldout, size=size, markers=markers)
    out.mkdir(parents=True, exist_ok=True)
    events_path = out / "events.jsonl"
    events_path.write_text("".join(dumps(e) + "\n" for e in result.events), encoding="utf-8")
    # The film runs until the last event, or the last card carried back after it (a late play taken back).
    end = max([result.duration, *(m.t1 for m in result.motions)])
    duration = end if max_seconds is None else min(end, max_seconds)
    n_frames = int(duration * fps) + 1
    tmp_video = out / "game.part.mp4"
    writer = cv2.VideoWriter(str(tmp_video), cv2.VideoWriter_fourcc(*"mp4v"), fps, size)
    if not writer.isOpened():
        raise RenderError(f"OpenCV cannot write MP4 video to {tmp_video}")
    state = initial()
    events = result.events
    k = 0
    import time

    started = time.perf_counter()
    with (out / "truth.part.jsonl").open("w", encoding="utf-8") as truth_file:
        for i in range(n_frames):
            t = i / fps
            while k < len(events) and events[k].t <= t:
                state, _ = apply(state, events[k])
                k += 1
            frame, truths = renderer.render(state, result.motions, t)
            writer.write(frame)
            truth_file.write(json.dumps({"frame": i, "t": round(t, 4), "cards": [c.to_json() for c in truths]}) + "\n")
            if progress is not None:
                progress(i + 1, n_frames)
    writer.release()
    elapsed = time.perf_counter() - started
    tmp_video.replace(out / "game.mp4")
    (out / "truth.part.jsonl").replace(out / "truth.jsonl")
    decks = renderer.decks  # type: ignore[attr-defined]
    summary = {
        "frames": n_frames,
        "fps": fps,
        "size": list(size),
        "seconds": round(duration, 2),
        "render_fps": round(n_frames / elapsed, 2),
        "players": {p: {"face": decks.faces[p].key, "back": list(decks.backs[p])} for p in decks.faces},
        "heldout": heldout,
        "injected": result.injected,
        "missed_injections": result.missed,
        "style": {k: getattr(renderer.style, k) for k in renderer.style.__dataclass_fields__},
        "markers": renderer.marker_positions() if markers else [],
        "table_mm": [renderer.geometry.width, renderer.geometry.height],
    }
    (out / "render.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary
