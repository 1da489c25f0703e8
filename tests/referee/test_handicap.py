"""Handicap tables, ties and the mean-13 drift; matches to a target."""

from __future__ import annotations

import pytest

from referee.handicap import HandicapError, next_demons, rank_delta
from referee.match import Match
from referee.rules import Rules

D13 = {"a": 13, "b": 13, "c": 13}


@pytest.mark.parametrize(
    ("method", "scores", "totals", "demons", "round_number", "expected"),
    [
        ("none", {"a": 30, "b": 1, "c": 5}, {"a": 30, "b": 1, "c": 5}, D13, 1, D13),
        ("simple", {"a": 20, "b": 3, "c": 9}, {"a": 20, "b": 3, "c": 9}, D13, 1, {"a": 14, "b": 12, "c": 13}),
        ("simple", {"a": 20, "b": 20, "c": 3}, {"a": 20, "b": 20, "c": 3}, D13, 1, {"a": 14, "b": 14, "c": 12}),
        ("simple", {"a": 5, "b": 5, "c": 5}, {"a": 5, "b": 5, "c": 5}, D13, 1, D13),
        ("simple", {"a": 9, "b": -4, "c": 2}, {"a": 9, "b": -4, "c": 2}, {"a": 13, "b": 0, "c": 13}, 4, {"a": 14, "b": 0, "c": 13}),
        # cumulative, round 1: like simple.
        ("cumulative", {"a": 20, "b": 3, "c": 9}, {"a": 20, "b": 3, "c": 9}, D13, 1, {"a": 14, "b": 12, "c": 13}),
        # round 2: round winner b +1, overall leader a +1, round and overall loser c -2.
        ("cumulative", {"a": 5, "b": 10, "c": 1}, {"a": 25, "b": 13, "c": 10}, {"a": 14, "b": 12, "c": 12}, 2,
         {"a": 15, "b": 13, "c": 10}),
        # the same person wins the round and leads: +2; the round loser is not the overall loser.
        ("cumulative", {"a": 12, "b": 1, "c": 4}, {"a": 30, "b": 14, "c": 9}, D13, 3, {"a": 15, "b": 12, "c": 12}),
        # a demon never goes below 0.
        ("cumulative", {"a": 12, "b": 1, "c": 4}, {"a": 30, "b": 14, "c": 2}, {"a": 13, "b": 1, "c": 0}, 3,
         {"a": 15, "b": 0, "c": 0}),
        # mean-13: by rank, tied players stick to the extreme of the places they share.
        ("mean-13", {"a": 20, "b": 5, "c": 10, "d": 5}, {"a": 20, "b": 5, "c": 10, "d": 5},
         {"a": 13, "b": 13, "c": 13, "d": 13}, 1, {"a": 15, "b": 11, "c": 14, "d": 11}),
        # ... and when the mean drifts a whole card (to 11.75 here), everyone shifts back by one.
        ("mean-13", {"a": 1, "b": 1, "c": 1, "d": 9}, {"a": 21, "b": 6, "c": 11, "d": 14},
         {"a": 15, "b": 11, "c": 14, "d": 11}, 2, {"a": 14, "b": 10, "c": 13, "d": 14}),
        ("mean-13", {"a": 3, "b": 3, "c": 3}, {"a": 3, "b": 3, "c": 3}, D13, 1, D13),
    ],
)  # fmt: skip
def test_next_demons(method, scores, totals, demons, round_number, expected) -> None:  # type: ignore[no-untyped-def]
    assert next_demons(method, scores, totals=totals, demons=demons, round_number=round_number) == expected


def test_mean_13_keeps_the_mean_without_ties() -> None:
    for n in range(2, 9):
        players = [f"p{i}" for i in range(n)]
        scores = {p: 100 - i for i, p in enumerate(players)}
        new = next_demons("mean-13", scores, totals=scores, demons=dict.fromkeys(players, 13), round_number=1)
        assert sum(new.values()) == 13 * n
        assert [rank_delta(i, n) for i in range(n)] == [-rank_delta(n - 1 - i, n) for i in range(n)]


def test_unknown_method_and_players() -> None:
    with pytest.raises(HandicapError, match="unknown handicap 'fair'"):
        next_demons("fair", {"a": 1}, totals={"a": 1}, demons={"a": 13}, round_number=1)
    with pytest.raises(HandicapError):
        next_demons("simple", {"a": 1}, totals={"a": 1, "b": 2}, demons={"a": 13}, round_number=1)


def test_match_to_target() -> None:
    m = Match.new(["a", "b", "c"], handicap="cumulative", target=30)
    m = m.add_round({"a": 20, "b": 3, "c": 9})
    assert m.next_demons == {"a": 14, "b": 12, "c": 13} and not m.finished and m.winners == ()
    m = m.add_round({"a": 5, "b": 10, "c": 1})
    assert m.totals == {"a": 25, "b": 13, "c": 10}
    assert m.rounds[1].demons == {"a": 14, "b": 12, "c": 13}
    assert m.next_demons == {"a": 15, "b": 13, "c": 11}
    m = m.add_round({"a": 6, "b": 17, "c": 0})
    assert m.totals == {"a": 31, "b": 30, "c": 10}
    assert m.finished and m.winners == ("a",)  # both reached the target: the highest total wins
    tied = Match.new(["a", "b"], target=10).add_round({"a": 12, "b": 12})
    assert tied.winners == ("a", "b")


def test_match_uses_the_rules_demon_size() -> None:
    m = Match.new(["x", "y"], rules=Rules.preset("flying-demon"), handicap="mean-13")
    assert m.next_demons == {"x": 21, "y": 21}
    m = m.add_round({"x": 10, "y": 2})
    assert m.next_demons == {"x": 22, "y": 20}


def test_match_rejects_wrong_players() -> None:
    m = Match.new(["a", "b"])
    with pytest.raises(HandicapError):
        m.add_round({"a": 1})
