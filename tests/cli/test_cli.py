"""The command line: simulate → referee --json, match, bench, and bad input (exit 2, one line, no traceback)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from demonref.cli import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_simulate_then_referee_json(tmp_path: Path) -> None:
    out = tmp_path / "game.jsonl"
    code, stdout, _ = run(
        "simulate", "--players", "4", "--seed", "7", "--out", str(out), "--inject", "wrong-suit,false-out"
    )
    assert code == 0 and out.exists() and "wrote" in stdout
    code, stdout, _ = run("referee", str(out), "--json")
    assert code == 0
    lines = stdout.strip().splitlines()
    assert len(lines) == 1
    obj = json.loads(lines[0])
    assert obj["rules"] == "racing-demon" and len(obj["players"]) == 4
    assert {f["code"] for f in obj["flags"]} >= {"wrong-suit", "false-out"}
    assert all(set(p) == {"id", "played", "kings", "out", "demon_left", "score"} for p in obj["players"])


def test_referee_human_output_and_options(tmp_path: Path) -> None:
    out = tmp_path / "nerts.jsonl"
    code, _, _ = run(
        "simulate", "--players", "3", "--rules", "nerts", "-o", "demon_size=11", "-o", "stock_draw=1", "--out", str(out)
    )
    assert code == 0
    code, stdout, _ = run("tally", str(out), "--feed")
    assert code == 0 and "Tally — nerts" in stdout and "plays" in stdout


BAD = [
    ('{"type": "round_start", "t": 0, "rules": "racing-demon", "players": [{"id": "a", "demon": 3}]}\n{"type": "play", "t": 1, "player": "a", "card": "1Z", "pile": "h"}\n',
     "line 2: field 'card': unknown card '1Z'"),
    ('{"type": "round_start", "t": 0, "rules": "snap", "players": [{"id": "a", "demon": 3}]}\n', "line 1: field 'rules': unknown rules preset 'snap'"),
    ('{"type": "round_start", "t": 0, "rules": "nerts", "players": [{"id": "a", "demon": 3}]}\n\n{"type": "play", "t": 1, "player": "zed", "card": "AS", "pile": "h"}\n',
     "line 3: field 'player': unknown player 'zed'"),
    ('{"type": "round_start", "t": 0, "rules": "nerts", "players": [{"id": "a"}]}\n', "line 1: field 'players[0].demon': missing"),
    ('{"type": "round_start", "t": 0, "rules": "nerts", "options": {"demon_size": "x"}, "players": [{"id": "a", "demon": 1}]}\n',
     "line 1: field 'options': bad value 'x'"),
    ('{"type": "play", "t": 1, "player": "a", "card": "AS", "pile": "h"\n', "line 1: not valid JSON"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_logs_exit_2_with_one_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    code, stdout, stderr = run("referee", str(path), "--json")
    assert code == 2 and stdout == ""
    assert message in stderr and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1


def test_missing_file_and_bad_options(tmp_path: Path) -> None:
    code, _, stderr = run("referee", str(tmp_path / "nope.jsonl"))
    assert code == 2 and "no such file" in stderr
    code, _, stderr = run("simulate", "--rules", "snap", "--out", str(tmp_path / "x.jsonl"))
    assert code == 2 and "unknown rules preset 'snap'" in stderr
    code, _, stderr = run("simulate", "-o", "refill=hand", "--out", str(tmp_path / "x.jsonl"))
    assert code == 2 and "refill" in stderr
    code, _, stderr = run("simulate", "--inject", "cheat", "--out", str(tmp_path / "x.jsonl"))
    assert code == 2 and "cannot inject" in stderr
    code, _, stderr = run("match", "--handicap", "fair")
    assert code == 2 and "unknown handicap 'fair'" in stderr
    for command in (
        ["review", str(tmp_path / "game.mp4"), "--out", str(tmp_path / "r")],
        ["live", "--out", str(tmp_path / "l")],
        ["demo"],
    ):
        code, _, stderr = run(*command, "--fps", "0")  # refused before any camera, model or video is opened
        assert code == 2 and "--fps" in stderr


def test_match_prints_round_by_round() -> None:
    code, stdout, _ = run("match", "--players", "3", "--handicap", "cumulative", "--seed", "3", "--target", "40")
    assert code == 0
    assert "round 1" in stdout and "next demon" in stdout and ("winner" in stdout or "nobody reached" in stdout)


def test_bench_referee_reports_figures() -> None:
    code, stdout, _ = run("bench", "referee", "--rounds", "5", "--json")
    assert code == 0
    figures = json.loads(stdout)
    assert figures["replay events/s"] > 0 and figures["simulated rounds/s"] > 0 and figures["events"] > 100


def test_demo_runs_fast() -> None:
    code, stdout, _ = run("demo", "--simulated", "--speed", "0", "--seed", "2")
    assert code == 0 and "Tally" in stdout and "FLAG wrong-suit" in stdout


def test_render_game_and_dataset_commands(tmp_path: Path) -> None:
    code, _stdout, stderr = run(
        "render-game",
        "--players",
        "2",
        "--seed",
        "1",
        "--size",
        "640x360",
        "--seconds",
        "2",
        "--out",
        str(tmp_path / "g"),
    )
    assert code == 0, stderr
    assert {"game.mp4", "truth.jsonl", "events.jsonl", "render.json"} <= {p.name for p in (tmp_path / "g").iterdir()}
    code, _, stderr = run("render-game", "--size", "huge", "--out", str(tmp_path / "x"))
    assert code == 2 and "--size expects WIDTHxHEIGHT" in stderr
    code, _, stderr = run(
        "dataset", "build", "--kind", "detect", "--frames", "2", "--out", str(tmp_path / "d"), "--max-width", "640"
    )
    assert code == 0, stderr
    assert (tmp_path / "d" / "data.yaml").exists()
    code, _, stderr = run("dataset", "build", "--kind", "segment", "--frames", "2", "--out", str(tmp_path / "d2"))
    assert code == 2 and "kind must be detect or identify" in stderr
    code, _, stderr = run(
        "dataset", "preview", "--renders", "1", "--out", str(tmp_path / "sheet.png"), "--real", str(tmp_path / "none")
    )
    assert code == 0 and (tmp_path / "sheet.png").stat().st_size > 0


def test_evaluate_e2e_renders_its_games_at_the_size_asked(tmp_path: Path) -> None:
    """``evaluate e2e --size`` renders the games it reviews at that frame size (five players or more default to
    1920x1080, fewer to 1280x720); a size it cannot read is refused before anything is rendered."""
    out = tmp_path / "e2e"
    args = ("evaluate", "e2e", "--oracle", "--games", "1", "--players", "2", "--seconds", "2", "--out", str(out))
    code, stdout, stderr = run(*args, "--size", "640x360")
    assert code == 0, stderr
    assert json.loads((out / "game00" / "render.json").read_text())["size"] == [640, 360]
    assert "scores exact" in stdout and (out / "e2e.json").exists()
    code, _, stderr = run(*args[:-1], str(tmp_path / "bad"), "--size", "big")
    assert code == 2 and "--size expects WIDTHxHEIGHT" in stderr and not (tmp_path / "bad").exists()
