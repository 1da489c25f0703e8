"""Handicaps: each player's demon size for the next round, from the scores so far.

Methods (``RULES.md``): ``simple`` (seed 002), ``cumulative`` (seed 000), ``mean-13`` (seed 001) and
``none``. Players tied for a place are always moved by the same amount; a demon never goes below 0.

>>> next_demons("simple", {"a": 20, "b": 3, "c": 9}, totals={"a": 20, "b": 3, "c": 9},
...             demons={"a": 13, "b": 13, "c": 13}, round_number=1)
{'a': 14, 'b': 12, 'c': 13}
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Literal

Method = Literal["none", "simple", "cumulative", "mean-13"]
METHODS: tuple[str, ...] = ("none", "simple", "cumulative", "mean-13")


class HandicapError(ValueError):
    """An unknown handicap method or inconsistent players."""


def _best_and_worst(scores: Mapping[str, int]) -> tuple[set[str], set[str]]:
    """The players tied for the highest and for the lowest score; both empty when everyone is tied."""
    if not scores:
        return set(), set()
    high, low = max(scores.values()), min(scores.values())
    if high == low:
        return set(), set()
    return {p for p, s in scores.items() if s == high}, {p for p, s in scores.items() if s == low}


def rank_delta(position: int, n: int, cap: int = 2) -> int:
    """The ``mean-13`` move for the player at ``position`` (0 = best) of ``n``: symmetric, summing to 0.

    >>> [rank_delta(i, 4) for i in range(4)], [rank_delta(i, 5) for i in range(5)]
    ([2, 1, -1, -2], [2, 1, 0, -1, -2])
    """
    x = (n - 1) / 2 - position
    if x == 0:
        return 0
    return int(math.copysign(min(cap, math.ceil(abs(x))), x))


def _mean_13(scores: Mapping[str, int], demons: Mapping[str, int], base: int) -> dict[str, int]:
    ordered = sorted(scores.values(), reverse=True)
    n = len(ordered)
    moves: dict[str, int] = {}
    for player, s in scores.items():
        first = ordered.index(s)
        last = n - 1 - ordered[::-1].index(s)
        options = [rank_delta(i, n) for i in range(first, last + 1)]
        # Tied players move together; stick to the extreme of the places they share.
        biggest = max(abs(d) for d in options)
        extremes = {d for d in options if abs(d) == biggest}
        moves[player] = extremes.pop() if len(extremes) == 1 else 0
    new = {p: max(0, demons[p] + moves[p]) for p in scores}
    # Keep the table's mean demon at the base: a drift of a whole card shifts everyone back by one.
    mean = sum(new.values()) / n
    if mean >= base + 1:
        new = {p: max(0, d - 1) for p, d in new.items()}
    elif mean <= base - 1:
        new = {p: d + 1 for p, d in new.items()}
    return new


def next_demons(
    method: str,
    round_scores: Mapping[str, int],
    *,
    totals: Mapping[str, int],
    demons: Mapping[str, int],
    round_number: int,
    base: int = 13,
) -> dict[str, int]:
    """Demon sizes for the round after ``round_number`` (1-based).

    ``round_scores`` are the scores of the round just played, ``totals`` the running totals including it,
    ``demons`` the sizes it was played with, ``base`` the rules' demon size (the mean ``mean-13`` keeps).
    """
    if method not in METHODS:
        raise HandicapError(f"unknown handicap {method!r}; known: {', '.join(METHODS)}")
    if set(round_scores) != set(demons) or set(round_scores) != set(totals):
        raise HandicapError("round scores, totals and demons must name the same players")
    if method == "none":
        return dict(demons)
    if method == "mean-13":
        return _mean_13(round_scores, demons, base)
    moves = dict.fromkeys(round_scores, 0)
    winners, losers = _best_and_worst(round_scores)
    for p in winners:
        moves[p] += 1
    for p in losers:
        moves[p] -= 1
    if method == "cumulative" and round_number >= 2:
        leaders, trailers = _best_and_worst(totals)
        for p in leaders:
            moves[p] += 1
        for p in trailers:
            moves[p] -= 1
    return {p: max(0, demons[p] + moves[p]) for p in round_scores}
