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
