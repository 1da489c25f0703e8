"""`demonref demo`: the bundled video through the committed card models into a served dashboard, as a
rig would feed it. Run as a real process (it serves HTTP), on the first seconds of the video."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from support import free_port

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "models"


@pytest.mark.skipif(not (MODELS / "detector.pt").exists(), reason="the committed card models are missing")
def test_camera_demo_serves_the_round_it_referees() -> None:
    port = free_port()
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [str(Path(sys.executable).with_name("demonref")), "demo", "--port", str(port), "--seconds", "4", "--no-pace"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    lines: list[str] = []
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            lines.append(line)
            if line.startswith("round over"):
                break
        output = "".join(lines)
        assert f"http://127.0.0.1:{port}/tables/demo" in output, output
        assert "round over" in output, output
        state = httpx.get(f"http://127.0.0.1:{port}/api/tables/demo/state", timeout=10).json()
        # the chain saw the deal: the round started with the bundled game's three players, named by roster
        assert sorted(p["id"] for p in state["players"]) == ["p1", "p2", "p3"], state
        assert state["camera"] is not None  # the rig sent its annotated view
        frame = httpx.get(f"http://127.0.0.1:{port}{state['camera']}", timeout=10)
        assert frame.status_code == 200 and frame.content.startswith(b"\xff\xd8")
        page = httpx.get(f"http://127.0.0.1:{port}/tables/demo", timeout=10)
        assert page.status_code == 200
    finally:
        proc.send_signal(signal.SIGTERM)  # a service manager's stop (Ctrl-C does the same)
        try:
            code = proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
    assert code == 0, "".join(lines)
    # stopped, it leaves nothing behind: its database, tokens and outbox were in a temp folder of its own
    work = re.search(r"adjudicator token in (\S+)admin-token", "".join(lines).replace("\n", ""))
    assert work is not None and not Path(work.group(1)).exists(), "".join(lines)
