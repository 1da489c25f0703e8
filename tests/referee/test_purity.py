"""The referee stays pure: no heavy or impure imports, no clock, the same answers every time."""

from __future__ import annotations

import ast
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee.events import dumps
from referee.game import replay
from referee.scoring import tally
from referee.simulate import simulate

REFEREE = Path(__file__).parents[2] / "referee"
FORBIDDEN_MODULES = ("cv2", "torch", "torchvision", "ultralytics", "fastapi", "starlette", "sqlalchemy", "uvicorn")
IMPURE = {"time", "datetime", "random", "asyncio", "secrets", "uuid", "os", "socket", "threading"}


def test_importing_referee_pulls_in_no_heavy_library() -> None:
    code = (
        "import sys, referee, referee.simulate, referee.game, referee.scoring, referee.match;"
        f"print(','.join(m for m in {FORBIDDEN_MODULES!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize("path", sorted(REFEREE.glob("*.py")), ids=lambda p: p.name)
def test_no_impure_imports(path: Path) -> None:
    tree = ast.parse(path.read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & (IMPURE | set(FORBIDDEN_MODULES)), imported & (IMPURE | set(FORBIDDEN_MODULES))


def test_the_referee_reads_no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    events = simulate(players=4, seed=5).events

    def no_clock() -> float:
        raise AssertionError("the referee read the clock")

    for name in ("time", "monotonic", "perf_counter", "time_ns", "monotonic_ns"):
        monkeypatch.setattr(time, name, no_clock)
    state = replay(events)
    assert tally(state).finished


def test_replay_is_deterministic() -> None:
    events = simulate(players=6, seed=9, inject=("wrong-rank", "late-play")).events
    a, b = tally(replay(events)), tally(replay(list(events)))
    assert a == b
    again = simulate(players=6, seed=9, inject=("wrong-rank", "late-play")).events
    assert [dumps(e) for e in again] == [dumps(e) for e in events]
