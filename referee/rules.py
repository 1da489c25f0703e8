"""Rule sets: every house-rule option of ``RULES.md`` as data, and the presets that bundle them.

>>> Rules.preset("nerts").points.per_demon_card
-2
>>> Rules.preset("racing-demon").with_options({"demon_size": 11, "refill": "any"}).demon_size
11
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any


class RulesError(ValueError):
    """An unknown preset or an invalid rule option."""


class Refill(enum.Enum):
    """Where a gap in the line may be filled from."""

    DEMON = "demon"  # seeds 000, 001, 002 (default)
    ANY = "any"  # seed 004: demon, waste or another ladder


class LadderMove(enum.Enum):
    """How many cards move at once between ladders."""

    SINGLE = "single"  # seed 001 (default)
    SEQUENCE = "sequence"  # seed 004: a card with everything on it


class StockOrder(enum.Enum):
    """Which of the drawn cards ends up on top of the waste."""

    NORMAL = "normal"  # the third card drawn shows
    REVERSED = "reversed"  # the stock's top card shows


class FoundationMode(enum.Enum):
    SAME_SUIT = "same-suit"
    FLYING_DEMON = "flying-demon"  # any suit up to the Jack, then the Jack's suit


class Blocked(enum.Enum):
    """What happens when every player is stuck."""

    ROTATE = "rotate"  # each moves the top stock card to the bottom (seeds 001, 004)
    END = "end"  # the round ends; everybody pays the demon penalty (seed 004 alternative)


class OutStop(enum.Enum):
    """What may still land after Out is called."""

    IMMEDIATE = "immediate"  # seed 002: no further movement
    IN_FLIGHT = "in-flight"  # seed 004: cards in the air may land (within ``out_grace``)


@dataclass(frozen=True, slots=True)
class Points:
    """Scoring weights; the demon weight is negative."""

    per_card: int = 1
    per_demon_card: int = -1
    out_bonus: int = 10
    king_bonus: int = 5


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option the referee enforces. Build one with :meth:`preset` and :meth:`with_options`."""

    name: str = "racing-demon"
    demon_size: int = 13
    line_size: int = 4
    refill: Refill = Refill.DEMON
    ladder_move: LadderMove = LadderMove.SINGLE
    stock_draw: int = 3
    stock_order: StockOrder = StockOrder.NORMAL
    foundation_mode: FoundationMode = FoundationMode.SAME_SUIT
    blocked: Blocked = Blocked.ROTATE
    out_stop: OutStop = OutStop.IMMEDIATE
    out_grace: float = 0.5
    jokers: bool = False
    partnerships: bool = False
    conflict_window: float = 1.0
    points: Points = field(default_factory=Points)

    def __post_init__(self) -> None:
        if self.demon_size < 0:
            raise RulesError(f"demon_size must be >= 0, got {self.demon_size}")
        if self.line_size not in (3, 4, 5):
            raise RulesError(f"line_size must be 3, 4 or 5, got {self.line_size}")
        if self.stock_draw not in (1, 2, 3):
            raise RulesError(f"stock_draw must be 1, 2 or 3, got {self.stock_draw}")
        if self.conflict_window < 0 or self.out_grace < 0:
            raise RulesError("conflict_window and out_grace must be >= 0 seconds")
        if self.demon_size + self.line_size > 52:
            raise RulesError(f"demon_size {self.demon_size} + line_size {self.line_size} exceed a deck")

    @staticmethod
    def preset(name: str) -> Rules:
        """The preset called ``name`` (see :data:`PRESETS`)."""
        try:
            return PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown rules preset {name!r}; known: {', '.join(PRESETS)}") from None

    def with_options(self, options: Mapping[str, Any]) -> Rules:
        """A copy with ``options`` applied; values may be JSON values (``"any"``, ``12``, ``{"out_bonus": 25}``)."""
        if not isinstance(options, Mapping):  # JSON from a form or a file: a list or a string is no set of options
            raise RulesError(f"rule options must be an object of option: value, not {type(options).__name__}")
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in known or name == "name":
                raise RulesError(f"unknown rule option {key!r}; known: {', '.join(sorted(known))}")
            changes[name] = _coerce(name, value, getattr(self, name))
        return replace(self, **changes)

    def to_options(self) -> dict[str, Any]:
        """The options that differ from this rule set's preset, as JSON values."""
        base = PRESETS.get(self.name, Rules())
        out: dict[str, Any] = {}
        for f in fields(self):
            if f.name == "name":
                continue
            mine, theirs = getattr(self, f.name), getattr(base, f.name)
            if mine != theirs:
                out[f.name] = _jsonable(mine)
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Points):
        return {f.name: getattr(value, f.name) for f in fields(value)}
    return value


def _coerce(name: str, value: Any, current: Any) -> Any:
    """Turns a JSON value into the type of option ``name``."""
    try:
        if isinstance(current, enum.Enum):
            return type(current)(value)
        if isinstance(current, bool):
            if not isinstance(value, bool):
                raise TypeError
            return value
        if isinstance(current, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError
            return value
        if isinstance(current, float):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError
            return float(value)
        if isinstance(current, Points):
            if not isinstance(value, Mapping):
                raise TypeError
            allowed = {f.name for f in fields(Points)}
            unknown = set(value) - allowed
            if unknown:
                raise RulesError(f"unknown points field(s) {sorted(unknown)}; known: {sorted(allowed)}")
            for v in value.values():
                if isinstance(v, bool) or not isinstance(v, int):
                    raise TypeError
            return replace(current, **value)
    except (TypeError, ValueError) as exc:
        if isinstance(exc, RulesError):
            raise
        choices = ""
        if isinstance(current, enum.Enum):
            choices = f" (one of {', '.join(str(m.value) for m in type(current))})"
        raise RulesError(f"bad value {value!r} for rule option {name!r}{choices}") from None
    raise RulesError(f"rule option {name!r} cannot be set")  # pragma: no cover


def _nerts(name: str, points: Points) -> Rules:
    return Rules(
        name=name,
        refill=Refill.ANY,
        ladder_move=LadderMove.SEQUENCE,
        out_stop=OutStop.IN_FLIGHT,
        points=points,
    )


PRESETS: dict[str, Rules] = {
    "racing-demon": Rules(),
    "nerts": _nerts("nerts", Points(per_card=1, per_demon_card=-2, out_bonus=0, king_bonus=0)),
    "nerts-bonus": _nerts("nerts-bonus", Points(per_card=1, per_demon_card=-1, out_bonus=25, king_bonus=0)),
    "nerts-alt": Rules(name="nerts-alt", points=Points(per_card=1, per_demon_card=-2, out_bonus=0, king_bonus=0)),
    "flying-demon": Rules(name="flying-demon", demon_size=21, foundation_mode=FoundationMode.FLYING_DEMON),
}
"""The rule presets by name; ``racing-demon`` is the default."""

DEFAULT_PRESET = "racing-demon"
