"""Benchmarks behind ``demonref bench`` (speed figures are measured here, never asserted in tests)."""

from __future__ import annotations

import platform
import time

from referee.events import dumps, parse_lines
from referee.game import replay
from referee.rules import PRESETS, Rules
from referee.simulate import simulate


def bench_referee(*, rounds: int = 200, players: int = 4) -> dict[str, float | int | str]:
    """Simulated rounds/s, and replay events/s with and without JSON parsing, over every preset."""
    presets = list(PRESETS)
    t0 = time.perf_counter()
    logs = []
    for i in range(rounds):
        name = presets[i % len(presets)]
        n = 2 if name == "flying-demon" else players
        logs.append(simulate(players=n, seed=i, rules=Rules.preset(name)).events)
    sim_s = time.perf_counter() - t0
    events = sum(len(log) for log in logs)
    t0 = time.perf_counter()
    for log in logs:
        replay(log)
    replay_s = time.perf_counter() - t0
    lines = [[dumps(e) for e in log] for log in logs]
    t0 = time.perf_counter()
    for text in lines:
        replay(parse_lines(text))
    parse_s = time.perf_counter() - t0
    return {
        "rounds": rounds,
        "events": events,
        "simulated rounds/s": rounds / sim_s,
        "replay events/s": events / replay_s,
        "parse+replay events/s": events / parse_s,
        "python": platform.python_version(),
    }


def bench_render(
    *, seconds: float = 20.0, size: tuple[int, int] = (1280, 720), seed: int = 3
) -> dict[str, float | int | str]:
    """Frames/s of ``render-game`` (video + truth written) and of single dataset frames."""
    import tempfile
    from pathlib import Path

    from vision.synth.dataset import plan_frame, render_frame
    from vision.synth.render import render_game

    with tempfile.TemporaryDirectory() as tmp:
        summary = render_game(Path(tmp), players=4, seed=seed, size=size, max_seconds=seconds)
    t0 = time.perf_counter()
    n = 10
    for i in range(n):
        render_frame(plan_frame(seed, i), max_width=size[0])
    single = n / (time.perf_counter() - t0)
    return {
        "size": f"{size[0]}x{size[1]}",
        "render-game frames": int(summary["frames"]),  # type: ignore[call-overload]
        "render-game frames/s": float(summary["render_fps"]),  # type: ignore[arg-type]
        "dataset frames/s (new scene each)": single,
    }


def bench_vision(
    *, backends: tuple[str, ...] = ("torch", "onnx", "openvino"), runs: int = 20, seed: int = 5
) -> dict[str, float | int | str]:
    """Milliseconds per frame of detector + identifier (and of each alone) at 1280×720 and 1920×1080, on a
    rendered mid-game table of about 40 cards, per backend; the median of ``runs`` after a warm-up."""
    import statistics
    from dataclasses import replace

    import numpy as np

    from referee.simulate import simulate
    from vision.models import CardDetector, CardIdentifier
    from vision.synth.render import make_renderer
    from vision.synth.scene import SceneStyle

    result = simulate(players=4, seed=seed)
    frames = {}
    for size in ((1280, 720), (1920, 1080)):
        rng = np.random.default_rng(seed)
        style = replace(SceneStyle.random(rng, size), fill=0.95)  # the whole table in view
        renderer = make_renderer(result, seed, heldout=True, size=size, style=style)
        frame, truths = renderer.render(result.table_at(result.duration * 0.4))
        frames[size] = (frame, len(truths))
    out: dict[str, float | int | str] = {}
    for backend in backends:
        try:
            det, ide = CardDetector(backend=backend), CardIdentifier(backend=backend)
        except Exception as exc:  # a backend that cannot load here is reported, not fatal
            out[f"{backend}"] = f"unavailable ({type(exc).__name__})"
            continue
        for (w, h), (frame, n_cards) in frames.items():
            found = det(frame)
            ide(frame, found)  # warm-up
            d_ms, i_ms = [], []
            for _ in range(runs):
                t0 = time.perf_counter()
                found = det(frame)
                t1 = time.perf_counter()
                ide(frame, found)
                t2 = time.perf_counter()
                d_ms.append(1000 * (t1 - t0))
                i_ms.append(1000 * (t2 - t1))
            key = f"{backend} {w}x{h}"
            out[f"{key} cards (true/found)"] = f"{n_cards}/{len(found)}"
            out[f"{key} detector ms"] = statistics.median(d_ms)
            out[f"{key} identifier ms"] = statistics.median(i_ms)
            out[f"{key} total ms"] = statistics.median([a + b for a, b in zip(d_ms, i_ms, strict=True)])
    return out
