"""A match: rounds played to a target total, with a scoreboard and handicapped demon sizes.

>>> m = Match.new(["a", "b"], target=20)
>>> m = m.add_round({"a": 12, "b": -3})
>>> m.totals, m.next_demons, m.finished
({'a': 12, 'b': -3}, {'a': 14, 'b': 12}, False)
>>> m.add_round({"a": 9, "b": 4}).winners
('a',)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from referee.handicap import METHODS, HandicapError, next_demons
from referee.rules import Rules


@dataclass(frozen=True, slots=True)
class RoundRecord:
    number: int
    demons: Mapping[str, int]  # the sizes this round was played with
    scores: Mapping[str, int]
    totals: Mapping[str, int]  # running totals after this round


@dataclass(frozen=True, slots=True)
class Match:
    """Immutable: :meth:`add_round` returns a new match."""

    players: tuple[str, ...]
    rules: Rules
    handicap: str
    target: int
    rounds: tuple[RoundRecord, ...]
    next_demons: Mapping[str, int]

    @staticmethod
    def new(
        players: Sequence[str],
        *,
        rules: Rules | None = None,
        handicap: str = "cumulative",
        target: int = 100,
        demons: Mapping[str, int] | None = None,
    ) -> Match:
        rules = rules or Rules()
        if handicap not in METHODS:
            raise HandicapError(f"unknown handicap {handicap!r}; known: {', '.join(METHODS)}")
        if len(set(players)) != len(players) or not players:
            raise HandicapError(f"players must be distinct and at least one, got {list(players)}")
        start = dict(demons) if demons else dict.fromkeys(players, rules.demon_size)
        return Match(tuple(players), rules, handicap, target, (), start)

    @property
    def totals(self) -> dict[str, int]:
        return dict(self.rounds[-1].totals) if self.rounds else dict.fromkeys(self.players, 0)

    @property
    def finished(self) -> bool:
        return any(total >= self.target for total in self.totals.values())

    @property
    def winners(self) -> tuple[str, ...]:
        """The players with the highest total once someone reached the target; empty before."""
        if not self.finished:
            return ()
        best = max(self.totals.values())
        return tuple(p for p in self.players if self.totals[p] == best)

    def add_round(self, scores: Mapping[str, int]) -> Match:
        """Records a round's scores (one per player) and works out the next round's demons."""
        if set(scores) != set(self.players):
            raise HandicapError(f"round scores name {sorted(scores)}, the match has {sorted(self.players)}")
        totals = {p: self.totals[p] + scores[p] for p in self.players}
        number = len(self.rounds) + 1
        record = RoundRecord(number, dict(self.next_demons), dict(scores), totals)
        demons = next_demons(
            self.handicap,
            scores,
            totals=totals,
            demons=self.next_demons,
            round_number=number,
            base=self.rules.demon_size,
        )
        return replace(self, rounds=(*self.rounds, record), next_demons=demons)
