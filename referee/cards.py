"""Cards, suits, colours and decks.

A :class:`Card` is an immutable value written in the notation the event log uses:
``AS 2H … 10D JC QS KH`` (``T`` is accepted for ten on input) and ``JK`` for a joker.

>>> Card.parse("QS")
Card.parse('QS')
>>> Card.parse("TD").rank, Card.parse("TD").colour
(10, <Colour.RED: 'red'>)
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import TypeAlias

Rank: TypeAlias = int
"""1 (Ace) to 13 (King); 0 for a joker."""

ACE: Rank = 1
JACK: Rank = 11
QUEEN: Rank = 12
KING: Rank = 13
JOKER_RANK: Rank = 0


class CardError(ValueError):
    """A card's notation could not be read."""


class Colour(enum.Enum):
    RED = "red"
    BLACK = "black"


class Suit(enum.Enum):
    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def colour(self) -> Colour:
        return Colour.RED if self in (Suit.DIAMONDS, Suit.HEARTS) else Colour.BLACK


SUITS: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
RANK_NAMES: dict[Rank, str] = {1: "A", 11: "J", 12: "Q", 13: "K"} | {r: str(r) for r in range(2, 11)}
_RANK_BY_NAME: dict[str, Rank] = {name: rank for rank, name in RANK_NAMES.items()} | {"T": 10, "1": 1}


@dataclass(frozen=True, slots=True, order=True)
class Card:
    """A playing card. ``suit`` is ``None`` only for a joker (rank 0)."""

    rank: Rank
    suit: Suit | None

    def __post_init__(self) -> None:
        if self.suit is None:
            if self.rank != JOKER_RANK:
                raise CardError(f"only a joker has no suit, got rank {self.rank}")
        elif not ACE <= self.rank <= KING:
            raise CardError(f"rank must be 1..13, got {self.rank}")

    @classmethod
    def parse(cls, text: str) -> Card:
        """Reads ``"QS"``, ``"10D"``, ``"TD"``, ``"ah"`` or ``"JK"``."""
        if not isinstance(text, str):
            raise CardError(f"card must be a string like 'QS', got {text!r}")
        s = text.strip().upper()
        if s in ("JK", "JOKER"):
            return JOKER
        if len(s) < 2 or len(s) > 3:
            raise CardError(f"unknown card {text!r} (expected e.g. AS, 10D, TD, QS, JK)")
        rank_text, suit_text = s[:-1], s[-1]
        rank = _RANK_BY_NAME.get(rank_text)
        try:
            suit = Suit(suit_text)
        except ValueError:
            suit = None
        if rank is None or suit is None:
            raise CardError(f"unknown card {text!r} (expected e.g. AS, 10D, TD, QS, JK)")
        return _CARDS[(rank, suit)]

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @property
    def colour(self) -> Colour | None:
        return None if self.suit is None else self.suit.colour

    def __str__(self) -> str:
        if self.suit is None:
            return "JK"
        return RANK_NAMES[self.rank] + self.suit.value

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


JOKER = Card(JOKER_RANK, None)
_CARDS: dict[tuple[Rank, Suit], Card] = {(r, s): Card(r, s) for s in SUITS for r in range(ACE, KING + 1)}
STANDARD_52: tuple[Card, ...] = tuple(_CARDS[(r, s)] for s in SUITS for r in range(ACE, KING + 1))


def card(text: str | Card) -> Card:
    """Returns ``text`` as a :class:`Card` (already a card: returned as is)."""
    return text if isinstance(text, Card) else Card.parse(text)


def deck(*, jokers: bool = False) -> tuple[Card, ...]:
    """One player's deck in a fixed order: 52 cards, plus two jokers when ``jokers``.

    >>> len(deck()), len(deck(jokers=True))
    (52, 54)
    """
    return STANDARD_52 + ((JOKER, JOKER) if jokers else ())


def can_ladder(upper: Card, lower: Card) -> bool:
    """True when ``lower`` may be placed on ``upper`` in a line: one rank lower, other colour.

    Jokers are wild in ladders.

    >>> can_ladder(Card.parse("7S"), Card.parse("6H")), can_ladder(Card.parse("7S"), Card.parse("6C"))
    (True, False)
    """
    if upper.is_joker or lower.is_joker:
        return True
    return lower.rank == upper.rank - 1 and lower.colour != upper.colour


# The back colours players name their decks by (``round_start`` players' ``back``); the renderer draws them and
# the camera chain matches the backs it sees against them.
BACK_COLOUR_NAMES: tuple[str, ...] = (
    "red", "blue", "green", "black", "purple", "orange", "yellow", "grey", "brown", "pink", "teal", "navy",
)  # fmt: skip
