"""Round state and the one core signature: ``apply(state, event) -> (state, verdicts)``.

A rule break is data: the illegal event leaves the state unchanged and yields a :class:`Verdict` with a
stable code. Malformed input (an event before ``round_start``, an unknown player) raises
:class:`~referee.events.EventError`. Time arrives inside events; nothing here reads a clock.

The referee judges what the log lets it judge. When ``round_start`` carries each player's dealt
``layout`` (the simulator's logs do) it follows every pile and checks sources and ladders; when it carries
only demon sizes (what a camera sees) it judges the foundations, identities, Out and the demon count.

>>> from referee.events import parse_lines
>>> log = [
...     '{"type": "round_start", "t": 0, "rules": "racing-demon", "players": [{"id": "ann", "demon": 1}]}',
...     '{"type": "play", "t": 1, "player": "ann", "card": "AS", "pile": "p1", "from": "demon"}',
...     '{"type": "play", "t": 2, "player": "ann", "card": "3S", "pile": "p1"}',
...     '{"type": "out", "t": 3, "player": "ann"}',
... ]
>>> state = replay(parse_lines(log))
>>> [(v.seq, v.code) for v in state.flags]
[(2, 'wrong-rank')]
>>> state.players["ann"].demon_left, state.out_by
(0, 'ann')
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.cards import ACE, JACK, KING, Card, can_ladder
from referee.events import (
    Correction,
    Draw,
    Event,
    EventError,
    Flip,
    Ladder,
    Layout,
    Out,
    Play,
    PlayerSpec,
    Rotate,
    RoundEnd,
    RoundStart,
    Turnover,
)
from referee.rules import FoundationMode, LadderMove, OutStop, Refill, Rules, RulesError, StockOrder

# Stable verdict codes.
NOT_AN_ACE = "not-an-ace"
WRONG_SUIT = "wrong-suit"
WRONG_RANK = "wrong-rank"
PILE_COMPLETE = "pile-complete"
LATE_PLAY = "late-play"
FALSE_OUT = "false-out"
DUPLICATE_CARD = "duplicate-card"
CONFLICT = "conflict"
NOT_PLAYABLE = "not-playable"
LADDER_COLOUR = "ladder-colour"
LADDER_RANK = "ladder-rank"
ILLEGAL_REFILL = "illegal-refill"
UNATTRIBUTED = "unattributed"

VERDICT_CODES: tuple[str, ...] = (
    NOT_AN_ACE, WRONG_SUIT, WRONG_RANK, PILE_COMPLETE, LATE_PLAY, FALSE_OUT, DUPLICATE_CARD, CONFLICT,
    NOT_PLAYABLE, LADDER_COLOUR, LADDER_RANK, ILLEGAL_REFILL, UNATTRIBUTED,
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Verdict:
    """A flag on one event: a stable ``code`` and a sentence for people."""

    seq: int
    code: str
    player: str | None
    card: Card | None
    message: str
    candidates: tuple[str, ...] = ()


class Status(enum.Enum):
    WAITING = "waiting"  # no round_start yet
    PLAYING = "playing"
    OUT = "out"  # someone called Out
    ENDED = "ended"  # round_end seen


class Pile:
    """One foundation: effective identities (a joker counts as what it stands for) and who played each."""

    __slots__ = ("cards", "complete", "id", "owners", "physical", "times")

    def __init__(self, pile_id: str) -> None:
        self.id = pile_id
        self.cards: list[Card] = []
        self.physical: list[Card] = []
        self.owners: list[str | None] = []
        self.times: list[float] = []
        self.complete = False

    @property
    def top(self) -> Card | None:
        return self.cards[-1] if self.cards else None

    @property
    def king_by(self) -> str | None:
        return self.owners[-1] if self.complete else None

    def _copy(self) -> Pile:
        new = Pile.__new__(Pile)
        new.id, new.complete = self.id, self.complete
        new.cards, new.physical = self.cards.copy(), self.physical.copy()
        new.owners, new.times = self.owners.copy(), self.times.copy()
        return new


class Table:
    """A player's own piles, each listed bottom to top."""

    __slots__ = ("demon", "line", "stock", "waste")

    def __init__(self, layout: Layout, line_size: int) -> None:
        self.demon: list[Card] = list(layout.demon)
        self.line: list[list[Card]] = [list(ladder) for ladder in layout.line]
        self.line += [[] for _ in range(line_size - len(self.line))]
        self.stock: list[Card] = list(layout.stock)
        self.waste: list[Card] = list(layout.waste)

    def _copy(self) -> Table:
        new = Table.__new__(Table)
        new.demon, new.stock, new.waste = self.demon.copy(), self.stock.copy(), self.waste.copy()
        new.line = [ladder.copy() for ladder in self.line]
        return new

    def cards(self) -> int:
        return len(self.demon) + len(self.stock) + len(self.waste) + sum(len(x) for x in self.line)

    def pile(self, source: str) -> list[Card] | None:
        """The list behind ``demon``, ``waste`` or ``line:N``; None when N is outside the line."""
        if source == "demon":
            return self.demon
        if source == "waste":
            return self.waste
        index = int(source[5:]) - 1
        return self.line[index] if 0 <= index < len(self.line) else None

    def find_playable(self, card: Card) -> str | None:
        """Where ``card`` is playable from (demon top, waste top, an exposed ladder card), if anywhere."""
        if self.demon and self.demon[-1] == card:
            return "demon"
        if self.waste and self.waste[-1] == card:
            return "waste"
        for i, ladder in enumerate(self.line):
            if ladder and ladder[-1] == card:
                return f"line:{i + 1}"
        return None


class PlayerState:
    """What the referee knows of one deck holder."""

    __slots__ = ("demon_left", "demon_top", "id", "kings", "out", "played", "played_cards", "spec", "table")

    def __init__(self, spec: PlayerSpec, rules: Rules) -> None:
        self.spec = spec
        self.id = spec.id
        self.table = Table(spec.layout, rules.line_size) if spec.layout is not None else None
        self.demon_left = spec.demon
        self.demon_top: Card | None = None
        if self.table is not None and self.table.demon:
            self.demon_top = self.table.demon[-1]
        self.played: Counter[Card] = Counter()
        self.played_cards = 0
        self.kings = 0
        self.out = False

    @property
    def name(self) -> str:
        return self.spec.name or self.spec.id

    @property
    def back(self) -> str | None:
        return self.spec.back

    def _copy(self) -> PlayerState:
        new = PlayerState.__new__(PlayerState)
        new.spec, new.id, new.demon_left, new.demon_top = self.spec, self.id, self.demon_left, self.demon_top
        new.table = self.table._copy() if self.table is not None else None
        new.played, new.played_cards = self.played.copy(), self.played_cards
        new.kings, new.out = self.kings, self.out
        return new


class RoundState:
    """The state of one round. Treat it as read-only: :func:`apply` returns a new one."""

    __slots__ = ("_history", "flags", "foundations", "out_by", "out_t", "players", "rules", "start", "status")

    def __init__(self) -> None:
        self.rules = Rules()
        self.start: RoundStart | None = None
        self.status = Status.WAITING
        self.players: dict[str, PlayerState] = {}
        self.foundations: dict[str, Pile] = {}
        self.flags: list[Verdict] = []
        self.out_by: str | None = None
        self.out_t: float | None = None
        self._history: list[Event] = []

    @property
    def applied(self) -> int:
        """How many events made this state (a cheap version number for caches)."""
        return len(self._history)

    @property
    def history(self) -> Sequence[Event]:
        """Every event applied so far, as received (corrections included)."""
        return tuple(self._history)

    def _copy(self) -> RoundState:
        new = RoundState.__new__(RoundState)
        new.rules, new.start, new.status = self.rules, self.start, self.status
        new.players = {k: v._copy() for k, v in self.players.items()}
        new.foundations = {k: v._copy() for k, v in self.foundations.items()}
        new.flags, new.out_by, new.out_t = self.flags.copy(), self.out_by, self.out_t
        new._history = self._history.copy()
        return new

    # --- stepping (mutates self; only apply() and replay() call it) ---------------------------------

    def _step(self, event: Event) -> list[Verdict]:
        self._history.append(event)
        handler = _HANDLERS.get(type(event))
        if handler is None:  # pragma: no cover - every parsed type has a handler
            raise EventError(f"no handler for {type(event).__name__}", seq=event.seq)
        if self.status is Status.WAITING and not isinstance(event, RoundStart | Correction):
            raise EventError("the log has no round_start before this event", seq=event.seq, field_name="type")
        verdicts = handler(self, event)
        self.flags.extend(verdicts)
        return verdicts

    def _player(self, event: Event, pid: str | None) -> PlayerState:
        try:
            return self.players[pid]  # type: ignore[index]
        except KeyError:
            known = ", ".join(self.players)
            raise EventError(f"unknown player {pid!r} (players: {known})", seq=event.seq, field_name="player") from None

    def _over(self, t: float) -> bool:
        """True when no new move may land at time ``t``."""
        if self.status is Status.ENDED:
            return True
        if self.status is Status.OUT:
            grace = self.rules.out_grace if self.rules.out_stop is OutStop.IN_FLIGHT else 0.0
            return self.out_t is None or t > self.out_t + grace
        return False


# --- handlers ---------------------------------------------------------------------------------------


def _round_start(state: RoundState, ev: RoundStart) -> list[Verdict]:
    if state.status is not Status.WAITING:
        raise EventError("a second round_start: one log holds one round", seq=ev.seq, field_name="type")
    try:
        rules = Rules.preset(ev.rules).with_options(ev.options)
    except RulesError as exc:
        raise EventError(str(exc), seq=ev.seq, field_name="options" if "option" in str(exc) else "rules") from None
    deck_size = 54 if rules.jokers else 52
    for p in ev.players:
        if p.layout is not None:
            table = Table(p.layout, rules.line_size)
            if table.cards() != deck_size or len(p.layout.line) > rules.line_size:
                raise EventError(
                    f"player {p.id!r}: layout holds {table.cards()} cards in {len(p.layout.line)} ladders; "
                    f"expected {deck_size} cards and at most {rules.line_size} ladders",
                    seq=ev.seq,
                    field_name="players",
                )
        if rules.partnerships and len(p.members) < 2:
            raise EventError(f"partnership {p.id!r} needs two members", seq=ev.seq, field_name="players")
    state.rules, state.start, state.status = rules, ev, Status.PLAYING
    state.players = {p.id: PlayerState(p, rules) for p in ev.players}
    return []


def _verdict(ev: Play | Ladder | Out, code: str, message: str) -> list[Verdict]:
    card = getattr(ev, "card", None)
    return [Verdict(ev.seq, code, ev.player, card, message, _candidates(ev))]


def _candidates(ev: Event) -> tuple[str, ...]:
    raw = ev.extra.get("candidates")
    return tuple(str(c) for c in raw) if isinstance(raw, list) else ()


def _arms_seen(ev: Event) -> str:
    """What the camera saw of arms over the pile as the card arrived (the log's ``reached``), for the message."""
    raw = ev.extra.get("reached")
    if not isinstance(raw, list) or not raw:
        return ""
    return f" (an arm reached the pile from {', '.join(str(r) for r in raw)})"


def _check_identity(state: RoundState, p: PlayerState, card: Card) -> str | None:
    """Layer 2: the card must be one the player's deck can still hold."""
    if card.is_joker:
        if not state.rules.jokers:
            return "jokers are not in play in this round"
        if p.played[card] >= 2:
            return f"{p.id}'s deck has only two jokers and both are already on foundations"
        return None
    if p.played[card]:
        return f"{p.id}'s {card} is already on a foundation: a foreign card or a misread"
    return None


def _check_source(state: RoundState, p: PlayerState, card: Card, source: str | None) -> tuple[str | None, str | None]:
    """Layer 3: the card must be playable where it came from. Returns (error, resolved source)."""
    table = p.table
    if table is not None:
        if source is None:
            found = table.find_playable(card)
            if found is None:
                return f"{card} is not a playable card of {p.id} (demon top, waste top or exposed ladder card)", None
            return None, found
        pile = table.pile(source)
        if pile is None:
            return f"{source} is outside {p.id}'s line of {state.rules.line_size}", None
        if not pile or pile[-1] != card:
            top = str(pile[-1]) if pile else "nothing"
            return f"{card} is not the playable card of {p.id}'s {source} (that shows {top})", None
        return None, source
    # Foundation-only knowledge: the demon count, and its top when a flip showed it.
    if source is None and p.demon_top is not None and p.demon_top == card:
        source = "demon"
    if source == "demon":
        if p.demon_left <= 0:
            return f"{p.id}'s demon is already empty", None
        if p.demon_top is not None and p.demon_top != card:
            return f"{p.id}'s demon shows {p.demon_top}, not {card}", None
    elif source is not None and source.startswith("line:") and int(source[5:]) > state.rules.line_size:
        return f"{source} is outside {p.id}'s line of {state.rules.line_size}", None
    return None, source


def _check_foundation(state: RoundState, ev: Play, card: Card, pile: Pile | None) -> tuple[str, str] | None:
    """Layer 4: the card must continue the foundation it lands on. Returns (code, message) or None."""
    if pile is None or not pile.cards:
        if card.rank != ACE:
            return NOT_AN_ACE, f"{card} cannot start foundation {ev.pile}: only an Ace can"
        return None
    top = pile.cards[-1]
    # Two players landing the same card: the first seen stays (also for the King that completes a pile). A copy
    # logged late (seen only when it was taken back) is judged against the pile as it stood at its time, when
    # that card was the top even if more have landed on it since.
    if card.rank <= top.rank and card in pile.cards:
        i = pile.cards.index(card)
        if pile.owners[i] != ev.player and abs(ev.t - pile.times[i]) <= state.rules.conflict_window:
            return (
                CONFLICT,
                f"{card} landed on {ev.pile} {ev.t - pile.times[i]:.2f}s after {pile.owners[i]}'s: first-seen wins",
            )
    if pile.complete:
        return PILE_COMPLETE, f"foundation {ev.pile} is already complete (King played)"
    if card.rank != top.rank + 1:
        return WRONG_RANK, f"{card} cannot follow {top} on foundation {ev.pile}"
    if state.rules.foundation_mode is FoundationMode.FLYING_DEMON:
        if card.rank > JACK and card.suit != top.suit:
            return WRONG_SUIT, f"{card} must follow the Jack's suit on foundation {ev.pile} ({top})"
    elif card.suit != pile.cards[0].suit:
        return WRONG_SUIT, f"{card} is not the suit of foundation {ev.pile} ({pile.cards[0]})"
    return None


def _play(state: RoundState, ev: Play) -> list[Verdict]:
    pile = state.foundations.get(ev.pile)
    card: Card | None = ev.card
    if ev.card.is_joker:
        card = ev.as_card or _joker_default(pile)
    p = state._player(ev, ev.player) if ev.player is not None else None
    source = ev.source
    if not ev.forced:
        # 1. Nothing lands once the round is over.
        if state._over(ev.t):
            return _verdict(ev, LATE_PLAY, f"{ev.card} played after the round stopped")
        if p is not None:
            # 2. The card must be one the deck still holds.
            error = _check_identity(state, p, ev.card)
            if error:
                return _verdict(
                    ev, DUPLICATE_CARD if not ev.card.is_joker or state.rules.jokers else NOT_PLAYABLE, error
                )
            # 3. It must come from a playable place.
            error, source = _check_source(state, p, ev.card, source)
            if error:
                return _verdict(ev, NOT_PLAYABLE, error)
        # 4. It must continue the foundation.
        if card is None:
            return _verdict(ev, NOT_AN_ACE, f"a joker starting foundation {ev.pile} must say which Ace it is")
        broken = _check_foundation(state, ev, card, pile)
        if broken:
            return _verdict(ev, *broken)
    elif p is not None and source is None and p.table is not None:
        source = p.table.find_playable(ev.card)
    if card is None:  # a forced joker with nothing declared stands for itself
        card = ev.card
    # Legal (or forced): move the card.
    if pile is None:
        pile = state.foundations[ev.pile] = Pile(ev.pile)
    pile.cards.append(card)
    pile.physical.append(ev.card)
    pile.owners.append(ev.player)
    pile.times.append(ev.t)
    if card.rank == KING:
        pile.complete = True
    if p is None:
        return [
            Verdict(
                ev.seq,
                UNATTRIBUTED,
                None,
                ev.card,
                f"{ev.card} on {ev.pile}: who played it is not known{_arms_seen(ev)}",
                _candidates(ev),
            )
        ]
    p.played[ev.card] += 1
    p.played_cards += 1
    if pile.complete:
        p.kings += 1
    _take(p, source, ev.card)
    return []


def _joker_default(pile: Pile | None) -> Card | None:
    """An undeclared joker stands for the card its foundation needs next."""
    if pile is None or not pile.cards or pile.complete:
        return None
    top = pile.cards[-1]
    return Card(top.rank + 1, top.suit)


def _take(p: PlayerState, source: str | None, card: Card, *, with_rest: bool = False) -> list[Card]:
    """Removes ``card`` (and, with ``with_rest``, what lies on it) from the player's ``source``."""
    if p.table is not None and source is not None:
        pile = p.table.pile(source)
        if pile is not None and card in pile:
            index = len(pile) - 1 - pile[::-1].index(card) if not with_rest else pile.index(card)
            moved = pile[index:] if with_rest else [pile[index]]
            del pile[index : index + len(moved)]
            if source == "demon":
                p.demon_left = len(p.table.demon)
                p.demon_top = p.table.demon[-1] if p.table.demon else None
            return moved
        return [card]
    if source == "demon":
        p.demon_left = max(0, p.demon_left - 1)
        p.demon_top = None  # unknown until the next flip
    return [card]


def _ladder(state: RoundState, ev: Ladder) -> list[Verdict]:
    p = state._player(ev, ev.player)
    table = p.table
    if not ev.forced:
        # 1. Nothing moves once the round is over.
        if state._over(ev.t):
            return _verdict(ev, LATE_PLAY, f"{ev.card} moved after the round stopped")
        if ev.source == ev.to:
            return _verdict(ev, NOT_PLAYABLE, f"{ev.card} moved from {ev.source} onto itself")
        if table is None:
            # Foundation-only knowledge: only the demon can be checked.
            error, _ = _check_source(state, p, ev.card, ev.source) if ev.source == "demon" else (None, None)
            if error:
                return _verdict(ev, NOT_PLAYABLE, error)
            if int(ev.to[5:]) > state.rules.line_size:
                return _verdict(ev, NOT_PLAYABLE, f"{ev.to} is outside {p.id}'s line of {state.rules.line_size}")
        else:
            # 2. The card must be movable from its source.
            error = _check_ladder_source(state, table, ev)
            if error:
                return _verdict(ev, NOT_PLAYABLE, error)
            dest = table.pile(ev.to)
            if dest is None:
                return _verdict(ev, NOT_PLAYABLE, f"{ev.to} is outside {p.id}'s line of {state.rules.line_size}")
            # 3. A gap is filled only from where the rules allow; a ladder goes down in alternating colours.
            if not dest:
                if state.rules.refill is Refill.DEMON and ev.source != "demon" and table.demon:
                    return _verdict(
                        ev, ILLEGAL_REFILL, f"a gap in the line is filled from the demon only, not {ev.source}"
                    )
            else:
                upper = dest[-1]
                if not upper.is_joker and not ev.card.is_joker:
                    if ev.card.rank != upper.rank - 1:
                        return _verdict(
                            ev, LADDER_RANK, f"{ev.card} cannot go on {upper} in {ev.to}: one rank lower needed"
                        )
                    if not can_ladder(upper, ev.card):
                        return _verdict(
                            ev, LADDER_COLOUR, f"{ev.card} cannot go on {upper} in {ev.to}: colours must alternate"
                        )
    sequence = state.rules.ladder_move is LadderMove.SEQUENCE and ev.source.startswith("line:")
    moved = _take(p, ev.source, ev.card, with_rest=sequence)
    if table is not None:
        dest = table.pile(ev.to)
        if dest is not None:
            dest.extend(moved)
    return []


def _check_ladder_source(state: RoundState, table: Table, ev: Ladder) -> str | None:
    pile = table.pile(ev.source)
    if pile is None:
        return f"{ev.source} is outside the line of {state.rules.line_size}"
    if pile and pile[-1] == ev.card:
        return None
    if state.rules.ladder_move is LadderMove.SEQUENCE and ev.source.startswith("line:") and ev.card in pile:
        return None
    top = str(pile[-1]) if pile else "nothing"
    return f"{ev.card} is not movable from {ev.source} (it shows {top})"


def _flip(state: RoundState, ev: Flip) -> list[Verdict]:
    p = state._player(ev, ev.player)
    if p.table is None:
        p.demon_top = ev.card
    return []


def _draw(state: RoundState, ev: Draw) -> list[Verdict]:
    p = state._player(ev, ev.player)
    table = p.table
    if table is not None and not state._over(ev.t):
        n = min(state.rules.stock_draw, len(table.stock))
        drawn = [table.stock.pop() for _ in range(n)]
        if state.rules.stock_order is StockOrder.REVERSED:
            drawn.reverse()
        table.waste.extend(drawn)
    return []


def _turnover(state: RoundState, ev: Turnover) -> list[Verdict]:
    p = state._player(ev, ev.player)
    table = p.table
    if table is not None and not state._over(ev.t):
        table.stock = table.waste[::-1] + table.stock
        table.waste = []
    return []


def _rotate(state: RoundState, ev: Rotate) -> list[Verdict]:
    p = state._player(ev, ev.player)
    table = p.table
    if table is not None and not state._over(ev.t):
        # The waste goes face down on the stock, then the top card goes to the bottom.
        table.stock = table.stock + table.waste[::-1]
        table.waste = []
        if table.stock:
            table.stock.insert(0, table.stock.pop())
    return []


def _out(state: RoundState, ev: Out) -> list[Verdict]:
    p = state._player(ev, ev.player)
    if not ev.forced:
        if state.status is not Status.PLAYING:
            return _verdict(ev, LATE_PLAY, f"{ev.player} called Out after the round stopped")
        if p.demon_left > 0:
            return _verdict(ev, FALSE_OUT, f"{ev.player} called Out with {p.demon_left} card(s) left in the demon")
    elif state.status is Status.ENDED:
        return []
    p.out = True
    state.status, state.out_by, state.out_t = Status.OUT, p.id, ev.t
    return []


def _round_end(state: RoundState, ev: RoundEnd) -> list[Verdict]:
    state.status = Status.ENDED
    return []


def _correction(state: RoundState, ev: Correction) -> list[Verdict]:
    # Corrections with a target were folded into history by replay(); the rest act here.
    if ev.action == "set-demon":
        p = state._player(ev, ev.player)
        p.demon_left = ev.demon or 0
        p.table = None  # the count is now the adjudicator's, not the layout's
        p.demon_top = None
    elif ev.action == "end-round":
        state.status = Status.ENDED
    return []


_HANDLERS: dict[type[Event], Callable[[RoundState, Any], list[Verdict]]] = {
    RoundStart: _round_start,
    Play: _play,
    Ladder: _ladder,
    Flip: _flip,
    Draw: _draw,
    Turnover: _turnover,
    Rotate: _rotate,
    Out: _out,
    RoundEnd: _round_end,
    Correction: _correction,
}


# --- corrections --------------------------------------------------------------------------------


def _rewrite(events: Sequence[Event]) -> dict[int, Event | None]:
    """Applies every targeted correction to the event it names: seq -> corrected event (None: rejected)."""
    by_seq = {e.seq: e for e in events}
    changed: dict[int, Event | None] = {}
    for ev in events:
        if not isinstance(ev, Correction) or ev.target is None:
            continue
        if ev.target not in by_seq or ev.target >= ev.seq:
            raise EventError(
                f"correction names seq {ev.target}, which is not an earlier event", seq=ev.seq, field_name="target"
            )
        current = changed.get(ev.target, by_seq[ev.target])
        if isinstance(current, RoundStart):
            raise EventError("round_start cannot be corrected; start a new round", seq=ev.seq, field_name="target")
        changed[ev.target] = _corrected(current, ev)
    return changed


def _corrected(target: Event | None, fix: Correction) -> Event | None:
    if fix.action == "reject" or target is None:
        return None
    if fix.action == "accept":
        if isinstance(target, Play | Ladder | Out):
            return replace(target, forced=True)
        return target
    if fix.action == "reassign":
        if not isinstance(target, Play | Ladder | Flip | Out | Draw):
            raise EventError("reassign needs a play, ladder, flip, draw or out", seq=fix.seq, field_name="target")
        if fix.player is None:
            raise EventError("reassign needs a player", seq=fix.seq, field_name="player")
        if isinstance(target, Play):  # where the card came from was the old player's place, not the new one's
            return replace(target, player=fix.player, source=fix.source)
        if isinstance(target, Ladder) and fix.source is not None:
            return replace(target, player=fix.player, source=fix.source)
        return replace(target, player=fix.player)
    if fix.action == "unassign":
        if not isinstance(target, Play):
            raise EventError("unassign needs a play", seq=fix.seq, field_name="target")
        return replace(target, player=None, source=None)
    if fix.action == "fix-card":
        if not isinstance(target, Play | Ladder | Flip):
            raise EventError("fix-card needs a play, ladder or flip", seq=fix.seq, field_name="target")
        if fix.card is None:
            raise EventError("fix-card needs a card", seq=fix.seq, field_name="card")
        return replace(target, card=fix.card)
    return target


# --- the public API -----------------------------------------------------------------------------


def initial() -> RoundState:
    """The state before ``round_start``."""
    return RoundState()


def apply(state: RoundState, event: Event) -> tuple[RoundState, list[Verdict]]:
    """Applies one event to a copy of ``state``: the new state and the verdicts on this event.

    A correction that names an earlier event re-derives the round from its history, so the new state's
    ``flags`` are those of the corrected record.
    """
    if isinstance(event, Correction) and event.target is not None:
        new = replay([*state._history, event])
        return new, []
    new = state._copy()
    return new, new._step(event)


def replay(events: Iterable[Event]) -> RoundState:
    """Folds ``events`` from the initial state; targeted corrections rewrite the events they name first."""
    history = list(events)
    changed = _rewrite(history) if any(isinstance(e, Correction) for e in history) else {}
    state = RoundState()
    for ev in history:
        fixed = changed.get(ev.seq, ev) if changed else ev
        if fixed is None:  # rejected: kept in the history, not applied
            state._history.append(ev)
            continue
        state._step(fixed)
        state._history[-1] = ev
    return state


def audit(events: Iterable[Event]) -> list[Correction]:
    """The adjudicator's corrections in a log, in order."""
    return [e for e in events if isinstance(e, Correction)]
