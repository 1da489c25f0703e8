"""TableView: what the vision side saw of the table at one moment (plain data, no pixels).

The camera pipeline sends one per processed frame, each foundation pile as it last held still;
``referee.reconstruct`` turns successive views into events.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from referee.cards import Card


@dataclass(frozen=True, slots=True)
class PileView:
    """A foundation as seen: where it lies (table mm), its top card and how sure the reading is."""

    id: str
    x: float
    y: float
    top: Card | None
    confidence: float = 1.0
    candidates: tuple[tuple[Card, float], ...] = ()  # the identifier's top-k for the top card
    origin: str | None = None  # the player in whose area the top card was first seen (tracked as it moved)
    # The origins of further copies of the top card lying on it, in the order they arrived (another deck's
    # same card played at the same moment: a conflict).
    doubles: tuple[str, ...] = ()
    # The players whose arm reached over this place as its top arrived (the camera saw an arm run from here towards
    # their seat): evidence for who put the card down that needs no reading of the card. Empty when not watched.
    reached: tuple[str, ...] = ()
    # Of two or more such players, the one whose arm was seen there in an earlier frame than every other's (the hand
    # that got there first); None when one or none was seen, or two first in the same frame.
    reached_first: str | None = None


@dataclass(frozen=True, slots=True)
class PlayerView:
    """A player's playable cards as seen: demon top, the exposed card of each ladder, the waste top.

    ``None`` means empty or not seen; ``occluded`` says a hand or sleeve covered the area in this view.
    """

    id: str
    demon_top: Card | None = None
    demon_visible: bool = True
    line: tuple[Card | None, ...] = ()
    waste_top: Card | None = None
    occluded: bool = False
    # Cards of this area lately seen covered where they lay (a waste dealt onto them, a ladder built on them): out
    # of sight but not taken, so not the card that just landed anywhere.
    buried: tuple[Card, ...] = ()
    # Other identities the reader gave the card at a place some chance of: (place, cards). Evidence for who played
    # a card nobody was seen to have (a waste top misread as another card of its colour, then lifted).
    maybe: tuple[tuple[str, tuple[Card, ...]], ...] = ()

    def playable(self) -> dict[Card, str]:
        """Each playable card and where it lies (``demon``, ``line:N``, ``waste``)."""
        out: dict[Card, str] = {}
        if self.demon_top is not None:
            out[self.demon_top] = "demon"
        for i, c in enumerate(self.line):
            if c is not None:
                out.setdefault(c, f"line:{i + 1}")
        if self.waste_top is not None:
            out.setdefault(self.waste_top, "waste")
        return out

    def at(self, place: str) -> Card | None:
        """The card shown at ``place`` (``demon``, ``line:N``, ``waste``, as ``playable`` names them); None when none
        is, or N is outside the line."""
        if place == "demon":
            return self.demon_top
        if place == "waste":
            return self.waste_top
        index = int(place.removeprefix("line:")) - 1
        return self.line[index] if 0 <= index < len(self.line) else None


@dataclass(frozen=True, slots=True)
class TableView:
    t: float
    frame: int
    foundations: tuple[PileView, ...] = ()
    players: tuple[PlayerView, ...] = ()
    removed: tuple[str, ...] = field(default=())  # foundations taken off the table (completed piles)
    # The foundations shown may be committed (the camera chain passes each pile only once it has held still, so
    # its views are all settled); players' areas are read in every view.
    settled: bool = True
    # (pile id, players) for each known foundation an arm lay over in this view's frame, running from there towards
    # the player's seat (seen or not: the hand may hide the pile): a hand bringing a card, or taking one back.
    # Empty when not watched.
    hands: tuple[tuple[str, tuple[str, ...]], ...] = ()

    def player(self, pid: str) -> PlayerView | None:
        return next((p for p in self.players if p.id == pid), None)

    def renamed(self, names: Mapping[str, str]) -> TableView:
        """The same view with players called by ``names`` (old id -> new id; ids not in it are kept): the
        areas, where each foundation's top and its doubles came from and who reached it, and whose hands lie over the
        piles."""

        def new(pid: str) -> str:
            return names.get(pid, pid)

        return replace(
            self,
            players=tuple(replace(p, id=new(p.id)) for p in self.players),
            foundations=tuple(
                replace(
                    f,
                    origin=None if f.origin is None else new(f.origin),
                    doubles=tuple(map(new, f.doubles)),
                    reached=tuple(map(new, f.reached)),
                    reached_first=None if f.reached_first is None else new(f.reached_first),
                )
                for f in self.foundations
            ),
            hands=tuple((pile, tuple(map(new, who))) for pile, who in self.hands),
        )
