"""Crash safety and load, on a real server process: killed with SIGKILL in the middle of ingest, it restarts
with exactly the state of the events it stored (every acknowledged one, no half batch, the same as a clean
replay); and the dashboard benchmark runs (its figures are for the notes, not asserted)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
from fastapi.testclient import TestClient
from support import free_port

from dashboard.app import create_app
from dashboard.settings import Settings
from referee.events import to_json
from referee.simulate import simulate


def bodies(seed: int, inject: tuple[str, ...]) -> list[dict]:  # type: ignore[type-arg]
    out = [to_json(e) for e in simulate(players=3, seed=seed, inject=inject).events]
    for p in out[0]["players"]:
        p.pop("layout", None)  # a camera knows no deal
    return out


def serve(db: Path, port: int) -> tuple[subprocess.Popen[str], list[str]]:
    exe = str(Path(sys.executable).with_name("demonref"))
    proc = subprocess.Popen([exe, "serve", "--port", str(port), "--database", f"sqlite:///{db}"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    lines: list[str] = []
    threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True).start()  # type: ignore[union-attr]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/tables", timeout=2).status_code == 200:
                return proc, lines
        except httpx.TransportError:
            time.sleep(0.2)
    proc.kill()
    raise AssertionError(f"the server did not start: {''.join(lines)}")


def test_kill_9_during_ingest_then_restart_gives_the_same_state(tmp_path: Path) -> None:
    db, port = tmp_path / "db.sqlite", free_port()
    url = f"http://127.0.0.1:{port}"
    proc, lines = serve(db, port)
    try:
        token = next(line.rsplit(" ", 1)[1].strip() for line in lines if "adjudicator token" in line)
        made = httpx.post(f"{url}/api/tables", json={"id": "t1", "name": "One"},
                          headers={"Authorization": f"Bearer {token}"}, timeout=10)  # fmt: skip
        rig = {"Authorization": f"Bearer {made.json()['rig_token']}"}
        events = bodies(seed=5, inject=("wrong-suit",))
        acked = 0
        killed = False
        for i in range(0, len(events), 4):
            if i >= len(events) // 2 and not killed:
                # The kill lands while the next batch is on its way.
                threading.Timer(0.005, proc.send_signal, (signal.SIGKILL,)).start()
                killed = True
            try:
                r = httpx.post(f"{url}/api/tables/t1/events", json=events[i : i + 4], headers=rig, timeout=10)
            except httpx.TransportError:
                break
            assert r.status_code == 200, r.text
            acked = i + 4
        proc.wait(timeout=10)
        assert killed and 0 < acked < len(events)
    finally:
        if proc.poll() is None:
            proc.kill()
    proc, _ = serve(db, port)
    try:
        after = httpx.get(f"{url}/api/tables/t1/state", timeout=10).json()
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=20)
    stored = after["events"]
    assert acked <= stored <= acked + 4 and stored % 4 == 0  # acknowledged ones all kept; a batch is whole or absent
    clean = Settings(database_url=f"sqlite:///{tmp_path / 'clean.sqlite'}", token_file=tmp_path / "token")
    with TestClient(create_app(clean)) as client:
        admin = {"Authorization": f"Bearer {clean.token_file.read_text().strip()}"}  # type: ignore[union-attr]
        rig2 = {
            "Authorization": f"Bearer {client.post('/api/tables', json={'id': 't1', 'name': 'One'}, headers=admin).json()['rig_token']}"
        }
        client.post("/api/tables/t1/events", json=events[:stored], headers=rig2)
        want = client.get("/api/tables/t1/state").json()
    assert after == want


def test_bench_dashboard_reports_push_latency_and_ingest() -> None:
    from demonref.bench import bench_dashboard

    figures = bench_dashboard(clients=3, pushes=4, ingest=20)
    assert figures["deliveries"] == 3 * 4  # every subscriber got every push
    assert 0 < float(figures["push latency p50 ms"]) <= float(figures["push latency p99 ms"])
    assert float(figures["ingest events/s (batches of 100)"]) > 0
