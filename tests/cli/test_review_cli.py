"""review and calibrate on the command line: outputs on the committed rendered game (oracle reader), the
printable marker sheet, and bad input (exit 2, one clear line, nothing half-written)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
from typer.testing import CliRunner

from demonref.cli import app

runner = CliRunner()
SAMPLE = Path(__file__).parents[2] / "datasets" / "sample" / "game"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_review_with_the_oracle(tmp_path: Path) -> None:
    start = json.loads((SAMPLE / "events.jsonl").read_text().splitlines()[0])
    roster = ",".join(f"{p['id']}:{p['back']}" for p in start["players"])
    code, stdout, stderr = run("review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path), "--players", roster,
                               "--oracle", str(SAMPLE / "truth.jsonl"), "--fps", "15")  # fmt: skip
    assert code == 0, stderr
    assert "plays" in stdout
    for name in ("events.jsonl", "report.html", "annotated.mp4", "calibration.json"):
        assert (tmp_path / name).stat().st_size > 0, name
    code, stdout, _ = run("tally", str(tmp_path / "events.jsonl"), "--json")
    assert code == 0 and {p["id"] for p in json.loads(stdout)["players"]} == {p["id"] for p in start["players"]}


def test_seats_named_the_wrong_way_round_are_put_right_in_the_calibration_file(tmp_path: Path) -> None:
    """When the camera names two seats the wrong way round (their stocks unseen, named by table order), the
    adjudicator swaps their players in the saved calibration.json and reviews again with ``--calibration``: the
    plays go to the swapped players, and each player keeps the deck colour the roster gives them."""
    start = json.loads((SAMPLE / "events.jsonl").read_text().splitlines()[0])
    roster = ",".join(f"{p['id']}:{p['back']}" for p in start["players"])
    common = ["--players", roster, "--oracle", str(SAMPLE / "truth.jsonl"), "--fps", "15"]
    code, _, stderr = run("review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path / "first"), *common)
    assert code == 0, stderr

    def plays(out: Path) -> list[tuple[str, str, str]]:
        events = [json.loads(line) for line in (out / "events.jsonl").read_text().splitlines()]
        return [(e["player"], e["card"], e["pile"]) for e in events if e["type"] == "play"]

    first = plays(tmp_path / "first")
    a, b = sorted({player for player, _, _ in first})[:2]  # two players who both played
    saved = json.loads((tmp_path / "first" / "calibration.json").read_text())
    swap = {a: b, b: a}
    for seat in saved["seats"]:
        seat["player"] = swap.get(seat["player"], seat["player"])
    (tmp_path / "table.json").write_text(json.dumps(saved))
    code, _, stderr = run("review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path / "again"), *common,
                          "--calibration", str(tmp_path / "table.json"))  # fmt: skip
    assert code == 0, stderr
    assert plays(tmp_path / "again") == [(swap.get(p, p), card, pile) for p, card, pile in first]
    again = json.loads((tmp_path / "again" / "events.jsonl").read_text().splitlines()[0])
    assert {p["id"]: p["back"] for p in again["players"]} == {p["id"]: p["back"] for p in start["players"]}


def test_review_bad_input(tmp_path: Path) -> None:
    code, _, stderr = run("review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path), "--players", "Ann:mauve,Bob:red")
    assert code == 2 and "unknown back colour 'mauve'" in stderr
    code, _, stderr = run("review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path), "--players", "Ann:red")
    assert code == 2 and "at least two players" in stderr
    code, _, stderr = run(
        "review", str(tmp_path / "none.mp4"), "--out", str(tmp_path), "--oracle", str(SAMPLE / "truth.jsonl")
    )
    assert code == 2 and "none.mp4: no such file" in stderr
    code, _, stderr = run(
        "review", str(SAMPLE / "game.mp4"), "--out", str(tmp_path), "--calibration", str(tmp_path / "t.json")
    )
    assert code == 2 and "t.json: no such file" in stderr
    assert "Traceback" not in stderr


def test_calibrate_sheet_then_find_it(tmp_path: Path) -> None:
    sheet = tmp_path / "markers.png"
    code, stdout, _ = run("calibrate", "--print", str(sheet))
    assert code == 0 and sheet.exists() and "60 mm" in stdout
    frame = tmp_path / "frame.png"
    cap = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    ok, image = cap.read()
    assert ok and cv2.imwrite(str(frame), image)
    out = tmp_path / "table.json"
    code, stdout, stderr = run("calibrate", "--source", str(frame), "--out", str(out))
    assert code == 0, stderr
    assert json.loads(out.read_text())["source"] == "markers"
    code, _, stderr = run("calibrate", "--source", str(sheet.with_name("nothing.png")), "--out", str(out))
    assert code == 2 and "not a readable image" in stderr
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), image[:40, :40])
    code, _, stderr = run("calibrate", "--source", str(blank), "--out", str(tmp_path / "x.json"))
    assert code == 2 and "markers 0, 1, 2, 3 not found" in stderr and not (tmp_path / "x.json").exists()
