"""Benchmarks behind ``demonref bench`` (speed figures are measured here, never asserted in tests)."""

from __future__ import annotations

import platform
import shutil
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
    *,
    backends: tuple[str, ...] = ("torch", "onnx", "openvino", "int8"),
    runs: int = 20,
    seed: int = 5,
    detector_size: int | None = None,
) -> dict[str, float | int | str]:
    """Milliseconds per frame of detector + identifier (and of each alone) at 1280×720 and 1920×1080, on a
    rendered mid-game table of about 40 cards, per backend; the median of ``runs`` after a warm-up. The detector
    runs as review and live run it (``WATCHING``), its input's longer side ``detector_size`` (default the
    chain's)."""
    import statistics
    from dataclasses import replace

    import numpy as np

    from referee.simulate import simulate
    from vision.models import CardReader
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
            reader = CardReader.load(backend=backend, watch=True, detector_size=detector_size)
            det, ide = reader.detector, reader.identifier
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
            key = f"{backend} {w}x{h} ({det.imgsz} px)"
            out[f"{key} cards (true/found)"] = f"{n_cards}/{len(found)}"
            out[f"{key} detector ms"] = statistics.median(d_ms)
            out[f"{key} identifier ms"] = statistics.median(i_ms)
            out[f"{key} total ms"] = statistics.median([a + b for a, b in zip(d_ms, i_ms, strict=True)])
    return out


def bench_dashboard(*, clients: int = 200, pushes: int = 60, ingest: int = 2000) -> dict[str, float | int | str]:
    """The dashboard on loopback, served by ``demonref serve`` in its own process: the delay from posting an
    event to each of ``clients`` SSE subscribers receiving the snapshot that holds it (p50/p99), and ingest
    throughput (events/s) one event per request and in batches of 100."""
    import asyncio
    import json
    import os
    import re
    import socket
    import statistics
    import subprocess
    import sys
    import tempfile
    from pathlib import Path

    import httpx

    from referee.events import to_json

    work = Path(tempfile.mkdtemp(prefix="demonref-bench-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    url = f"http://127.0.0.1:{port}"
    exe = str(Path(sys.executable).with_name("demonref"))
    server = subprocess.Popen([exe, "serve", "--port", str(port), "--database", f"sqlite:///{work / 'bench.db'}"],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                              env={**os.environ, "PYTHONUNBUFFERED": "1"})  # fmt: skip
    try:
        assert server.stdout is not None
        token = None
        for line in server.stdout:
            found = re.search(r"adjudicator token .*: (\S+)", line)
            if found:
                token = found.group(1)
                break
        if token is None:
            raise RuntimeError("the dashboard did not start")
        admin = {"Authorization": f"Bearer {token}"}
        for _ in range(100):
            try:
                httpx.get(f"{url}/api/tables", timeout=2)
                break
            except httpx.TransportError:
                time.sleep(0.1)

        def table(name: str) -> dict[str, str]:
            made = httpx.post(f"{url}/api/tables", json={"id": name, "name": name}, headers=admin, timeout=10)
            return {"Authorization": f"Bearer {made.json()['rig_token']}"}

        events = []
        seed = 1
        while len(events) < max(pushes, ingest) + 1:  # rounds of simulated play, seqs running on
            for e in simulate(players=4, seed=seed).events:
                body = to_json(e)
                if body["type"] == "round_start":
                    if events:
                        continue
                    for p in body["players"]:
                        p.pop("layout", None)
                if body["type"] in ("round_end", "out"):
                    continue
                body["seq"] = len(events)
                events.append(body)
            seed += 1

        # Push latency: every subscriber connected, then events posted one at a time, a little apart.
        rig = table("push")
        httpx.post(f"{url}/api/tables/push/events", json=events[:1], headers=rig, timeout=10)
        sent: dict[int, float] = {}
        delays: list[float] = []

        async def subscriber(client: httpx.AsyncClient, ready: asyncio.Event, connected: list[int]) -> None:
            async with client.stream("GET", f"{url}/api/tables/push/stream") as response:
                connected.append(1)
                if len(connected) == clients:
                    ready.set()
                async for line in response.aiter_lines():
                    if line.startswith("data: "):
                        n = json.loads(line[6:])["events"]
                        if n - 1 in sent:
                            delays.append(time.perf_counter() - sent[n - 1])
                            if n - 1 == pushes:
                                return

        async def run() -> None:
            limits = httpx.Limits(max_connections=clients + 10)
            async with httpx.AsyncClient(limits=limits, timeout=60) as client:
                ready, connected = asyncio.Event(), []
                tasks = [asyncio.create_task(subscriber(client, ready, connected)) for _ in range(clients)]
                await asyncio.wait_for(ready.wait(), 60)
                await asyncio.sleep(0.5)
                for k in range(1, pushes + 1):
                    sent[k] = time.perf_counter()
                    await client.post(f"{url}/api/tables/push/events", json=[events[k]], headers=rig)
                    await asyncio.sleep(0.1)
                await asyncio.wait_for(asyncio.gather(*tasks), 60)

        asyncio.run(run())
        out: dict[str, float | int | str] = {"SSE clients": clients, "pushes": pushes, "deliveries": len(delays)}
        ms = sorted(1000 * d for d in delays)
        out["push latency p50 ms"] = statistics.median(ms)
        out["push latency p99 ms"] = ms[min(len(ms) - 1, int(0.99 * len(ms)))]
        # Ingest throughput, no subscribers.
        for batch in (1, 100):
            name = f"ingest{batch}"
            rig = table(name)
            with httpx.Client(timeout=60) as client:
                t0 = time.perf_counter()
                for i in range(0, ingest, batch):
                    r = client.post(f"{url}/api/tables/{name}/events", json=events[i : i + batch], headers=rig)
                    r.raise_for_status()
                out[f"ingest events/s (batches of {batch})"] = ingest / (time.perf_counter() - t0)
        return out
    finally:
        server.terminate()
        server.wait(timeout=20)
        shutil.rmtree(work, ignore_errors=True)  # its database


def bench_review(
    *,
    seconds: float = 20.0,
    size: tuple[int, int] = (1280, 720),
    fps: int = 30,
    process_fps: float = 10.0,
    backend: str = "auto",
    detector_size: int | None = None,
) -> dict[str, float | int | str]:
    """The camera chain's speed on a rendered game (held-out decks) through the committed models, warmed up on
    the video's first frame: offline review of a ``fps`` video (times real time, with the annotated video and
    report; the detector works a frame ahead of the tracker) and the live mode's rate (frames processed per second
    with every frame of the video asked for, decoding included: the most ``demonref live`` can keep up with)."""
    import tempfile
    from pathlib import Path

    from referee.events import RoundStart, read_log
    from vision.capture import Source
    from vision.live import run_live
    from vision.models import CardReader
    from vision.review import review
    from vision.synth.render import render_game

    with tempfile.TemporaryDirectory(prefix="demonref-bench-review-") as tmp:  # the rendered game goes with it
        work = Path(tmp)
        render_game(work / "game", players=4, seed=21, heldout=True, fps=fps, size=size, max_seconds=seconds)
        start = read_log(work / "game" / "events.jsonl")[0]
        assert isinstance(start, RoundStart)
        players = [(p.id, p.back) for p in start.players]
        reader = CardReader.load(backend=backend, watch=True, detector_size=detector_size)
        first = next(Source.open(work / "game" / "game.mp4").frames())
        reader(first.image)  # the runtimes' first inference (compilation, thread pools) is not the review's speed
        t0 = time.perf_counter()
        result = review(work / "game" / "game.mp4", work / "review", players=players, reader=reader,
                        process_fps=process_fps)  # fmt: skip
        wall = time.perf_counter() - t0
        _, stats = run_live(Source.open(work / "game" / "game.mp4"), work / "live", players=players, reader=reader,
                            process_fps=1000.0)  # fmt: skip
        return {
            "video": f"{size[0]}x{size[1]} at {fps} fps, {seconds:.0f} s",
            "backends (detector, identifier)": f"{reader.detector.backend}, {reader.identifier.backend}",
            "detector input side": reader.detector.imgsz,
            "review frames processed": result.processed,
            "review seconds": wall,
            "review x real time": seconds / wall,
            "live processed frames/s (video decoding included)": stats.fps,
            "live ms per frame": 1000 * stats.seconds / max(1, stats.processed),
        }
