"""Golden logs with hand-computed tallies, replayed under every preset."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support import GOLDEN, codes

from referee.events import parse_lines
from referee.game import replay
from referee.rules import PRESETS, Points
from referee.scoring import score, tally


def _golden(name: str, preset: str | None = None) -> tuple[list, dict]:  # type: ignore[type-arg]
    lines = (GOLDEN / f"{name}.jsonl").read_text().splitlines()
    if preset is not None:
        first = json.loads(lines[0])
        first["rules"] = preset
        lines[0] = json.dumps(first)
    expected = json.loads((GOLDEN / f"{name}.expected.json").read_text())
    return list(parse_lines(lines)), expected


@pytest.mark.parametrize("preset", list(PRESETS))
def test_three_decks_under_every_preset(preset: str) -> None:
    events, expected = _golden("three-decks", preset)
    result = tally(replay(events))
    assert result.rules == preset
    assert codes(result.flags) == [tuple(f) for f in expected["flags"]]
    assert {p.id: p.score for p in result.players} == expected[preset]
    assert {p.id: [p.played, p.kings, p.out, p.demon_left] for p in result.players} == expected["counts"]
    assert result.finished


def test_flying_demon_golden() -> None:
    events, expected = _golden("flying-demon")
    result = tally(replay(events))
    assert codes(result.flags) == [tuple(f) for f in expected["flags"]]
    assert {p.id: p.score for p in result.players} == expected["flying-demon"]
    assert {p.id: [p.played, p.kings, p.out, p.demon_left] for p in result.players} == expected["counts"]


def test_tied_and_negative_scores_are_reported_as_they_are() -> None:
    events, _ = _golden("three-decks")
    scores = [p.score for p in tally(replay(events)).players]
    assert scores.count(-1) == 2 and min(scores) < 0


@pytest.mark.parametrize(
    ("points", "played", "kings", "out", "demon", "expected"),
    [
        (Points(), 17, 0, False, 4, 13),  # seed 002's worked example
        (Points(), 0, 0, True, 0, 10),  # a demon of 0: GO, OUT, +10
        (Points(), 3, 2, False, 9, 4),
        (Points(1, -2, 0, 0), 5, 1, False, 6, -7),
        (Points(1, -1, 25, 0), 20, 1, True, 0, 45),
    ],
)
def test_score_formula(points: Points, played: int, kings: int, out: bool, demon: int, expected: int) -> None:
    assert score(points, played=played, kings=kings, out=out, demon_left=demon) == expected


def test_json_shape(tmp_path: Path) -> None:
    events, _ = _golden("three-decks")
    obj = tally(replay(events)).to_json()
    assert set(obj) == {"rules", "players", "flags"}
    assert set(obj["players"][0]) == {"id", "played", "kings", "out", "demon_left", "score"}
    assert set(obj["flags"][0]) == {"seq", "code", "player", "card", "message"}
    json.dumps(obj)
