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
