"""The end-of-round count: cards on foundations, Kings, the Out bonus and the demon penalty.

>>> from referee.events import parse_lines
>>> from referee.game import replay
>>> log = [
...     '{"type": "round_start", "t": 0, "rules": "nerts", "players": [{"id": "a", "demon": 0}, {"id": "b", "demon": 3}]}',
...     '{"type": "play", "t": 1, "player": "b", "card": "AS", "pile": "1", "from": "demon"}',
...     '{"type": "out", "t": 2, "player": "a"}',
... ]
>>> [(s.id, s.score) for s in tally(replay(parse_lines(log))).players]
[('a', 0), ('b', -3)]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.game import RoundState, Status, Verdict
from referee.rules import Points


@dataclass(frozen=True, slots=True)
class PlayerScore:
    id: str
    name: str
    back: str | None
    played: int
    kings: int
    out: bool
    demon_left: int
    score: int


@dataclass(frozen=True, slots=True)
class Tally:
    rules: str
    players: tuple[PlayerScore, ...]
    flags: tuple[Verdict, ...]
    finished: bool

    def by_id(self) -> dict[str, PlayerScore]:
        return {p.id: p for p in self.players}

    def to_json(self) -> dict[str, Any]:
        """The object ``demonref referee --json`` prints."""
        return {
            "rules": self.rules,
            "players": [
                {
                    "id": p.id,
                    "played": p.played,
                    "kings": p.kings,
                    "out": p.out,
                    "demon_left": p.demon_left,
                    "score": p.score,
                }
                for p in self.players
            ],
            "flags": [
                {
                    "seq": v.seq,
                    "code": v.code,
                    "player": v.player,
                    "card": None if v.card is None else str(v.card),
                    "message": v.message,
                }
                for v in self.flags
            ],
        }


def score(points: Points, *, played: int, kings: int, out: bool, demon_left: int) -> int:
    """One player's round score.

    >>> score(Points(), played=17, kings=1, out=False, demon_left=4)
    18
    """
    return (
        played * points.per_card
        + kings * points.king_bonus
        + (points.out_bonus if out else 0)
        + demon_left * points.per_demon_card
    )


def tally(state: RoundState) -> Tally:
    """Scores every player of ``state`` under its rules; valid at any moment, final once the round stopped."""
    points = state.rules.points
    players = tuple(
        PlayerScore(
            id=p.id,
            name=p.name,
            back=p.back,
            played=p.played_cards,
            kings=p.kings,
            out=p.out,
            demon_left=p.demon_left,
            score=score(points, played=p.played_cards, kings=p.kings, out=p.out, demon_left=p.demon_left),
        )
        for p in state.players.values()
    )
    return Tally(
        rules=state.rules.name,
        players=players,
        flags=tuple(state.flags),
        finished=state.status in (Status.OUT, Status.ENDED),
    )
