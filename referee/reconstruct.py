"""From successive table views to events: foundation changes become plays, attributed to the player whose
playable card disappeared as it landed; demon changes become ladder moves and flips.

Pure and deterministic: ``step(state, view) -> (state, events)``; ``reconstruct(views)`` is a fold.

>>> from referee.tableview import PileView, PlayerView, TableView
>>> ace = Card.parse("AS")
>>> v0 = TableView(0.0, 0, (), (PlayerView("ann", demon_top=ace), PlayerView("bob")))
>>> v1 = TableView(1.0, 30, (PileView("p1", 0, 0, ace),), (PlayerView("ann", demon_top=Card.parse("9D")), PlayerView("bob")))
>>> [(type(e).__name__, getattr(e, "player", None), str(getattr(e, "card", ""))) for e in reconstruct([v0, v1])]
[('Play', 'ann', 'AS'), ('Flip', 'ann', '9D')]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.cards import ACE, Card
from referee.events import Event, Flip, Ladder, Play
from referee.tableview import PileView, PlayerView, TableView


@dataclass(frozen=True, slots=True)
class ReconState:
    """What the reconstruction has committed so far."""

    tops: Mapping[str, Card] = field(default_factory=dict)  # pile id -> top card
    playable: Mapping[str, Mapping[Card, str]] = field(default_factory=dict)  # player -> card -> place
    demon_tops: Mapping[str, Card | None] = field(default_factory=dict)
    next_seq: int = 1  # 0 is the round_start
    started: bool = False


def _consistent(top: Card | None, pile: PileView) -> Card | None:
    """The pile's new top. A reading that does not simply continue the pile (a skip, or one the rules forbid)
    gives way to a top-k candidate that does: a misread is likelier than cards landing unseen."""
    read = pile.top
    if read is None:
        return None

    def continues(card: Card) -> bool:
        return card.rank == (ACE if top is None else top.rank + 1) and (top is None or card.suit == top.suit)

    if continues(read):
        return read
    return next((card for card, _p in pile.candidates if continues(card)), read)


def _new_cards(top: Card | None, new: Card) -> list[tuple[Card, bool]]:
    """The cards that must have landed to go from ``top`` to ``new``: (card, inferred)."""
    if top is not None and (new.rank <= top.rank or new.suit is None):
        return [(new, False)]
    start = ACE if top is None else top.rank + 1
    if new.suit is None:
        return [(new, False)]
    return [(Card(r, new.suit), True) for r in range(start, new.rank)] + [(new, False)]


def _attribute(
    card: Card, before: Mapping[str, Mapping[Card, str]], now: Mapping[str, PlayerView]
) -> tuple[str | None, str | None, list[str]]:
    """(player, source, candidates): who had ``card`` playable and no longer has it there."""
    had = [(pid, places[card]) for pid, places in before.items() if card in places]
    gone = []
    for pid, place in had:
        view = now.get(pid)
        if view is None or view.occluded:
            continue
        if view.playable().get(card) != place:
            gone.append((pid, place))
    if len(gone) == 1:
        return gone[0][0], gone[0][1], [pid for pid, _ in had]
    if len(had) == 1 and not gone:
        return had[0][0], had[0][1], [had[0][0]]
    pool = [pid for pid, _ in (gone or had)]
    return None, None, pool


def step(state: ReconState, view: TableView) -> tuple[ReconState, list[Event]]:
    """Compares ``view`` with what was committed; returns the new state and the events it implies."""
    events: list[Event] = []
    seq = state.next_seq
    players = {p.id: p for p in view.players}
    tops = dict(state.tops)
    played_from: dict[str, set[str]] = {}
    if state.started:
        for pile in view.foundations:
            before = tops.get(pile.id)
            new = _consistent(before, pile)
            if new is None or new == before:
                continue
            for card, inferred in _new_cards(before, new):
                player, source, candidates = _attribute(card, state.playable, players)
                extra: dict[str, Any] = {"frame": view.frame, "confidence": round(pile.confidence, 3)}
                if inferred:
                    extra["inferred"] = True
                if player is None:
                    extra["candidates"] = candidates
                events.append(
                    Play(seq=seq, t=view.t, player=player, card=card, pile=pile.id, source=source, extra=extra)
                )
                seq += 1
                if player is not None and source is not None:
                    played_from.setdefault(player, set()).add(source)
            tops[pile.id] = new
    else:
        tops.update({p.id: p.top for p in view.foundations if p.top is not None})
    # Demons: a new top means the old one left (to a foundation, seen above, or into the line), then a flip.
    demon_tops = dict(state.demon_tops)
    playable = {pid: dict(places) for pid, places in state.playable.items()}
    for pid, pv in players.items():
        if pv.occluded:
            continue
        old = demon_tops.get(pid)
        new_top = pv.demon_top if pv.demon_visible else old
        if state.started and new_top != old and old is not None and "demon" not in played_from.get(pid, set()):
            where = pv.playable().get(old)
            if where is not None and where.startswith("line:"):
                events.append(
                    Ladder(
                        seq=seq, t=view.t, player=pid, card=old, source="demon", to=where, extra={"frame": view.frame}
                    )
                )
                seq += 1
        if state.started and new_top is not None and new_top != old:
            events.append(Flip(seq=seq, t=view.t, player=pid, card=new_top, extra={"frame": view.frame}))
            seq += 1
        demon_tops[pid] = new_top
        playable[pid] = pv.playable()
    return ReconState(tops, playable, demon_tops, seq, True), events


def reconstruct(views: Iterable[TableView]) -> list[Event]:
    """All events implied by a sequence of stable views (the first view is the starting table)."""
    state = ReconState()
    out: list[Event] = []
    for view in views:
        state, events = step(state, view)
        out.extend(events)
    return out
