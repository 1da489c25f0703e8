"""A rules-faithful Racing Demon simulator: bots that play whole rounds concurrently, in continuous time.

Each bot deals its own deck (demon, line, stock), then repeatedly looks at the table, picks a move the
rules allow (foundation plays first, then refills, ladders, and the stock by threes), and carries the card
for a moment before it lands. Bots differ in speed and skill, so two may go for the same foundation at once:
the first to land stays, the other's card is logged as a ``conflict`` and goes back, as at a real table.
The simulator's legality checks are its own (not the referee's), so replaying its log through the referee
is a real cross-check. Randomness comes from a seeded generator: the same seed gives the same round.

>>> result = simulate(players=3, seed=1)
>>> result.finished_by in ("out", "blocked", "stalled", "time-limit")
True
>>> from referee.game import replay
>>> state = replay(result.events)
>>> sorted(v.seq for v in state.flags) == sorted(result.expected_flags)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from heapq import heappop, heappush
from typing import Any

import numpy as np

from referee.cards import ACE, JACK, KING, Card, can_ladder, deck
from referee.events import (
    Draw,
    Event,
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
from referee.game import RoundState, replay
from referee.rules import Blocked, FoundationMode, LadderMove, OutStop, Refill, Rules, StockOrder
from referee.scoring import score

BACK_COLOURS: tuple[str, ...] = (
    "red", "blue", "green", "black", "purple", "orange", "yellow", "grey", "brown", "pink", "teal", "navy",
)  # fmt: skip
NAMES: tuple[str, ...] = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jon", "Kim", "Lou")

INJECTABLE: tuple[str, ...] = (
    "not-an-ace", "wrong-suit", "wrong-rank", "pile-complete", "late-play", "false-out", "duplicate-card",
    "conflict", "not-playable", "ladder-colour", "ladder-rank", "illegal-refill",
)  # fmt: skip
"""The illegal plays :func:`simulate` can inject; each yields exactly the verdict of the same code."""


MISPLAY_SECONDS = 2.5  # how long an injected illegal card lies on its pile before it is taken back
CONFLICT_SECONDS = 1.5  # how long the later of two cards played at once lies on the pile before it goes back


class SimulationError(ValueError):
    """Impossible simulation settings."""


@dataclass(frozen=True, slots=True)
class BotProfile:
    """How a bot plays: ``speed`` scales its pace, ``skill`` is the chance it notices a given move."""

    speed: float
    skill: float


@dataclass(frozen=True, slots=True)
class Motion:
    """A card carried by a hand from ``source`` (picked at ``t0``) to ``dest`` (landed at ``t1``)."""

    player: str
    card: Card
    source: str
    dest: str  # "foundation:<pile>" or "line:N"
    t0: float
    t1: float
    landed: bool  # False when the card went back (a conflict or an injected illegal move)
    # An injected illegal play is carried to its pile, lies there for a while (``resting``), then is carried
    # back (``back``): the camera sees it on the pile as the referee sees it in the log.
    resting: bool = False
    back: bool = False


@dataclass(frozen=True, slots=True)
class SimScore:
    played: int
    kings: int
    out: bool
    demon_left: int
    score: int


@dataclass(slots=True)
class SimResult:
    events: list[Event]
    rules: Rules
    players: tuple[PlayerSpec, ...]
    profiles: dict[str, BotProfile]
    staged_conflicts: list[int]  # seqs of conflicts that arose between bots
    injected: dict[str, int]  # kind -> seq of the injected illegal event
    missed: list[str]  # kinds that found no opportunity before the round ended
    scores: dict[str, SimScore]  # the simulator's own count
    conserved: bool  # every card of every deck accounted for at the end
    finished_by: str
    motions: list[Motion] = field(default_factory=list)

    @property
    def expected_flags(self) -> list[int]:
        """Seqs the referee should flag: the staged conflicts and the injected illegal events."""
        return sorted([*self.staged_conflicts, *self.injected.values()])

    @property
    def duration(self) -> float:
        return self.events[-1].t if self.events else 0.0

    def table_at(self, t: float) -> RoundState:
        """The whole table at time ``t``: every player's demon, line, stock and waste, and the foundations.

        The log carries each deal, so replaying it up to ``t`` rebuilds every pile; cards in a hand at ``t``
        are the :attr:`motions` with ``t0 <= t < t1`` (they still lie at their source until they land).
        """
        return replay(e for e in self.events if e.t <= t)

    def in_hand(self, t: float) -> list[Motion]:
        """The cards being carried at time ``t``."""
        return [m for m in self.motions if m.t0 <= t < m.t1]


class _Bot:
    __slots__ = (
        "demon", "id", "idle_draws", "line", "out_ready", "profile", "stock", "stuck", "token", "waste",
    )  # fmt: skip

    def __init__(self, pid: str, profile: BotProfile, cards: list[Card], demon_size: int, line_size: int) -> None:
        self.id = pid
        self.profile = profile
        self.demon = cards[:demon_size]
        self.line = [[c] for c in cards[demon_size : demon_size + line_size]]
        self.stock = cards[demon_size + line_size :]
        self.waste: list[Card] = []
        self.idle_draws = 0
        self.stuck = False
        self.out_ready = 0  # thinks since the demon emptied
        self.token = 0  # only the latest scheduled think of a bot counts

    def playable(self) -> list[tuple[str, Card]]:
        out: list[tuple[str, Card]] = []
        if self.demon:
            out.append(("demon", self.demon[-1]))
        for i, ladder in enumerate(self.line):
            if ladder:
                out.append((f"line:{i + 1}", ladder[-1]))
        if self.waste:
            out.append(("waste", self.waste[-1]))
        return out

    def pile(self, source: str) -> list[Card]:
        if source == "demon":
            return self.demon
        if source == "waste":
            return self.waste
        return self.line[int(source[5:]) - 1]

    def cards(self) -> int:
        return len(self.demon) + len(self.stock) + len(self.waste) + sum(len(x) for x in self.line)


class _Foundation:
    __slots__ = ("cards", "complete", "id", "owners", "physical", "times")

    def __init__(self, pile_id: str) -> None:
        self.id = pile_id
        self.cards: list[Card] = []  # what each card counts as (a joker: the card it stands for)
        self.physical: list[Card] = []
        self.owners: list[str] = []
        self.times: list[float] = []
        self.complete = False


class _Sim:
    def __init__(
        self,
        rules: Rules,
        players: int,
        seed: int,
        demons: Mapping[str, int] | None,
        inject: Sequence[str],
        max_time: float,
    ) -> None:
        self.rules = rules
        self.rng = np.random.default_rng(seed)
        self.max_time = max_time
        self.events: list[Event] = []
        self.motions: list[Motion] = []
        self.queue: list[tuple[float, int, str, Any]] = []
        self.counter = 0
        self.foundations: dict[str, _Foundation] = {}
        self.staged: list[int] = []
        self.injected: dict[str, int] = {}
        self.out_t: float | None = None
        self.ended = False
        self.finished_by = ""
        self.rotations = 0
        self.progress_at_rotation = -1
        self.plays_landed = 0
        self.now = 0.0
        self.busy_piles: dict[str, float] = {}  # pile id -> until when an illegal card lies on it
        unknown = [k for k in inject if k not in INJECTABLE]
        if unknown:
            raise SimulationError(f"cannot inject {unknown}; injectable: {', '.join(INJECTABLE)}")
        self.pending: dict[str, float] = {}
        for kind in inject:
            self.pending[kind] = float(self.rng.uniform(3.0, 25.0))
        self.bots: dict[str, _Bot] = {}
        specs: list[PlayerSpec] = []
        jokers = rules.jokers
        if not 2 <= players <= 12:
            raise SimulationError(f"players must be 2..12, got {players}")
        teams = rules.partnerships
        if teams and players % 2:
            raise SimulationError(f"partnerships need an even number of players, got {players}")
        seats = players // 2 if teams else players
        for i in range(seats):
            pid = f"p{i + 1}"
            members = (NAMES[2 * i], NAMES[2 * i + 1]) if teams else ()
            name = " & ".join(members) if teams else NAMES[i]
            size = rules.demon_size if demons is None else demons.get(pid, demons.get(name, rules.demon_size))
            if size + rules.line_size > (54 if jokers else 52):
                raise SimulationError(f"{pid}'s demon of {size} leaves no room for a line of {rules.line_size}")
            cards = list(deck(jokers=jokers))
            order = self.rng.permutation(len(cards))
            dealt = [cards[j] for j in order]
            speed = float(self.rng.uniform(0.7, 1.4)) * (1.6 if teams else 1.0)
            profile = BotProfile(speed=speed, skill=float(self.rng.uniform(0.75, 1.0)))
            bot = _Bot(pid, profile, dealt, size, rules.line_size)
            self.bots[pid] = bot
            layout = Layout(demon=tuple(bot.demon), line=tuple(tuple(x) for x in bot.line), stock=tuple(bot.stock))
            specs.append(PlayerSpec(pid, size, name, BACK_COLOURS[i % len(BACK_COLOURS)], members, layout))
        self.specs = tuple(specs)

    # --- plumbing ------------------------------------------------------------------------------------

    def emit(self, event_cls: type[Event], t: float, **fields: Any) -> int:
        seq = len(self.events)
        self.events.append(event_cls(seq=seq, t=round(t, 3), **fields))
        return seq

    def schedule(self, t: float, kind: str, payload: Any) -> None:
        self.counter += 1
        heappush(self.queue, (t, self.counter, kind, payload))

    def wake(self, bot: _Bot, t: float) -> None:
        """Schedules the bot's next look at the table (replacing any earlier one)."""
        bot.token += 1
        self.schedule(t, "think", (bot.id, bot.token))

    def think_delay(self, bot: _Bot) -> float:
        return float(self.rng.gamma(4.0, 0.2)) / bot.profile.speed

    def move_time(self, bot: _Bot) -> float:
        # Carrying a card takes 0.25-0.8 s; always inside the conflict window when that is >= 0.9 s.
        return float(self.rng.uniform(0.25, 0.8)) / max(1.0, bot.profile.speed)

    def over(self, t: float) -> bool:
        if self.ended:
            return True
        if self.out_t is None:
            return False
        grace = self.rules.out_grace if self.rules.out_stop is OutStop.IN_FLIGHT else 0.0
        return t > self.out_t + grace

    # --- rules as the bots know them -----------------------------------------------------------------

    def fits(self, card: Card, f: _Foundation) -> bool:
        if f.complete or card.is_joker or self.busy_piles.get(f.id, -1.0) > self.now:
            return False
        top = f.cards[-1]
        if card.rank != top.rank + 1:
            return False
        if self.rules.foundation_mode is FoundationMode.FLYING_DEMON:
            return card.rank <= JACK or card.suit == top.suit
        return card.suit == f.cards[0].suit

    def foundation_move(self, bot: _Bot) -> tuple[str, Card, str | None] | None:
        skill = bot.profile.skill
        for source, card in bot.playable():
            if self.rng.random() > skill:
                continue
            if card.rank == ACE:
                return source, card, None
            for f in self.foundations.values():
                if self.fits(card, f) or (card.is_joker and not f.complete):
                    return source, card, f.id
        return None

    def line_move(self, bot: _Bot) -> tuple[str, Card, int] | None:
        """A move into the line: refill a gap, ladder the demon top, free a slot, or ladder the waste top."""
        rules = self.rules
        empty = [i for i, ladder in enumerate(bot.line) if not ladder]
        if empty:
            if bot.demon:
                return "demon", bot.demon[-1], empty[0]
            if rules.refill is Refill.ANY and bot.waste:
                return "waste", bot.waste[-1], empty[0]
        if self.rng.random() > bot.profile.skill:
            return None
        exposed = [(i, ladder[-1]) for i, ladder in enumerate(bot.line) if ladder]
        if bot.demon:
            top = bot.demon[-1]
            for i, e in exposed:
                if _ladders(e, top):
                    return "demon", top, i
            # Free a slot by moving a whole ladder (or a lone card) onto another.
            for i, ladder in enumerate(bot.line):
                if not ladder:
                    continue
                if rules.ladder_move is LadderMove.SINGLE and len(ladder) != 1:
                    continue
                base = ladder[0]
                for j, e in exposed:
                    if j != i and _ladders(e, base):
                        return f"line:{i + 1}", base, j
        if bot.waste:
            top = bot.waste[-1]
            for i, e in exposed:
                if _ladders(e, top):
                    return "waste", top, i
        return None

    # --- the loop ----------------------------------------------------------------------------------

    def run(self) -> SimResult:
        rules = self.rules
        start = self.emit(RoundStart, 0.0, rules=rules.name, players=self.specs, options=rules.to_options())
        assert start == 0
        for bot in self.bots.values():
            self.wake(bot, self.think_delay(bot) + 0.5)
        while self.queue and not self.ended:
            t, kind, payload = self.pop()
            if t > self.max_time:
                self.finish(t, "time-limit")
                break
            if kind == "think":
                bot = self.bots[payload[0]]
                if payload[1] == bot.token:
                    self.think(bot, t)
            elif kind == "land":
                self.land(t, *payload)
            elif kind == "draw":
                self.turn_stock(self.bots[payload], t)
            elif kind == "blocked":
                self.blocked(t)
        if not self.ended:
            self.finish(self.events[-1].t + 0.5, "stalled")
        return self.result()

    def pop(self) -> tuple[float, str, Any]:
        """The next scheduled item, its time rounded as the log writes it and never before the last event."""
        t, _, kind, payload = heappop(self.queue)
        last = self.events[-1].t if self.events else 0.0
        return max(round(t, 3), last), kind, payload

    def think(self, bot: _Bot, t: float) -> None:
        if self.over(t) or self.out_t is not None:
            return
        self.now = t
        busy_until = self.try_inject(bot, t)
        if busy_until is not None:
            self.wake(bot, busy_until + self.think_delay(bot))
            return
        # Out: a player with an empty demon calls it, usually at once (never obliged to).
        if not bot.demon:
            bot.out_ready += 1
            if bot.out_ready >= 3 or self.rng.random() < 0.8:
                self.call_out(bot, t)
                return
        move = self.foundation_move(bot)
        if move is not None:
            source, card, pile = move
            dest = pile if pile is not None else f"f{len(self.foundations) + 1}"
            expected = None if pile is None else self.foundations[pile].cards[-1]
            bot.stuck = False
            self.schedule(t + self.move_time(bot), "land", (bot.id, "play", source, card, dest, expected, t))
            return
        lmove = self.line_move(bot)
        if lmove is not None:
            source, card, index = lmove
            bot.stuck = False
            self.schedule(
                t + self.move_time(bot), "land", (bot.id, "ladder", source, card, f"line:{index + 1}", None, t)
            )
            return
        self.draw(bot, t)

    def draw(self, bot: _Bot, t: float) -> None:
        turns = (len(bot.stock) + len(bot.waste)) // self.rules.stock_draw + 1
        if bot.idle_draws > 2 * turns:
            # Two passes through the pack with nothing to do: stuck until the table changes.
            bot.stuck = True
            if all(b.stuck for b in self.bots.values()):
                self.schedule(t + 1.0, "blocked", None)
            self.wake(bot, t + 1.0 + self.think_delay(bot))
            return
        t1 = t + float(self.rng.uniform(0.2, 0.45)) / bot.profile.speed
        self.schedule(t1, "draw", bot.id)

    def turn_stock(self, bot: _Bot, t: float) -> None:
        """Turns the next cards of the stock onto the waste, or the waste over when the stock is out."""
        if self.out_t is not None:
            return
        if bot.stock:
            n = min(self.rules.stock_draw, len(bot.stock))
            drawn = [bot.stock.pop() for _ in range(n)]
            if self.rules.stock_order is StockOrder.REVERSED:
                drawn.reverse()
            bot.waste.extend(drawn)
            self.emit(Draw, t, player=bot.id)
        elif bot.waste:
            bot.stock = bot.waste[::-1]
            bot.waste = []
            self.emit(Turnover, t, player=bot.id)
        bot.idle_draws += 1
        self.wake(bot, t + self.think_delay(bot) * 0.5)

    def land(
        self, t: float, pid: str, what: str, source: str, card: Card, dest: str, expected: Card | None, t0: float
    ) -> None:
        bot = self.bots[pid]
        if self.over(t) or (what == "ladder" and self.out_t is not None):
            self.motions.append(Motion(pid, card, source, _dest(what, dest), t0, t, False))
            return  # the round stopped while the card was in the air: it goes back
        pile = bot.pile(source)
        assert pile and (card in pile), "a bot's own piles change only by its own moves"
        if what == "play":
            f = self.foundations.get(dest)
            as_card = _next_card(expected) if card.is_joker else None
            effective = as_card or card
            if f is not None and (not f.cards or f.cards[-1] != expected):
                # The pile changed while the card was in the air.
                window = self.rules.conflict_window
                if f.cards[-1] == effective and f.owners[-1] != pid and t - f.times[-1] <= window:
                    seq = self.emit(Play, t, player=pid, card=card, pile=dest, source=source, as_card=as_card)
                    self.staged.append(seq)
                    # Both cards lie on the pile a moment, then the later one goes back to its owner.
                    free_at = self.show_misplay(self.events[-1], carried_from=t0, rest=CONFLICT_SECONDS)
                    self.wake(bot, free_at + self.think_delay(bot))
                    return
                self.wake(bot, t + self.think_delay(bot))
                return
            if f is None:
                f = self.foundations[dest] = _Foundation(dest)
            pile.pop()
            self.emit(Play, t, player=pid, card=card, pile=dest, source=source, as_card=as_card)
            f.cards.append(effective)
            f.physical.append(card)
            f.owners.append(pid)
            f.times.append(t)
            f.complete = effective.rank == KING
            self.plays_landed += 1
            for b in self.bots.values():  # the table changed: everyone looks again
                b.idle_draws = 0
                b.stuck = False
        else:
            index = int(dest[5:]) - 1
            sequence = self.rules.ladder_move is LadderMove.SEQUENCE and source.startswith("line:")
            start = pile.index(card) if sequence else len(pile) - 1
            moved = pile[start:]
            del pile[start:]
            bot.line[index].extend(moved)
            self.emit(Ladder, t, player=pid, card=card, source=source, to=dest)
            bot.idle_draws = 0
            bot.stuck = False
        self.motions.append(Motion(pid, card, source, _dest(what, dest), t0, t, True))
        if source == "demon" and bot.demon:
            self.emit(Flip, t, player=pid, card=bot.demon[-1])
        self.wake(bot, t + self.think_delay(bot))

    def blocked(self, t: float) -> None:
        if self.over(t) or not all(b.stuck for b in self.bots.values()):
            return
        if self.rules.blocked is Blocked.END:
            self.finish(t, "blocked")
            return
        if self.plays_landed == self.progress_at_rotation:
            self.rotations += 1
        else:
            self.rotations, self.progress_at_rotation = 0, self.plays_landed
        if self.rotations > 20:
            self.finish(t, "stalled")
            return
        for bot in self.bots.values():
            bot.stock = bot.stock + bot.waste[::-1]
            bot.waste = []
            if bot.stock:
                bot.stock.insert(0, bot.stock.pop())
            self.emit(Rotate, t, player=bot.id)
            bot.idle_draws, bot.stuck = 0, False
            self.wake(bot, t + self.think_delay(bot))

    def call_out(self, bot: _Bot, t: float) -> None:
        self.out_t = t
        self.emit(Out, t, player=bot.id)
        grace = self.rules.out_grace if self.rules.out_stop is OutStop.IN_FLIGHT else 0.0
        # Cards already in the air may still land (in-flight rules); everything else stops.
        while self.queue:
            t2, kind, payload = self.pop()
            if kind == "land":
                self.land(t2, *payload)
        self.finish(t + grace + 0.5, "out")

    def finish(self, t: float, how: str) -> None:
        t = max(round(t, 3), self.events[-1].t)
        late = "late-play" in self.pending
        if late and how == "out":
            self.inject_late_play(t)  # between Out and the end of the round
        self.emit(RoundEnd, t, reason=how)
        if late and how != "out":
            self.inject_late_play(t + 0.3)  # after the round was declared over
        self.ended = True
        self.finished_by = how

    # --- injected illegal moves --------------------------------------------------------------------

    def try_inject(self, bot: _Bot, t: float) -> float | None:
        """Makes the first due injection the table allows; returns when the bot is free again."""
        for kind, after in list(self.pending.items()):
            if kind == "late-play" or t < after:
                continue
            made = _INJECTORS[kind](self, bot, t)
            if made is not None:
                self.injected[kind] = made
                del self.pending[kind]
                return self.show_misplay(self.events[-1])
        return None

    def show_misplay(self, event: Event, *, carried_from: float | None = None, rest: float = MISPLAY_SECONDS) -> float:
        """An illegal foundation play taken from the top of a pile is acted out: carried to the pile (since
        ``carried_from``), left there for ``rest`` seconds, carried back. Returns when the hand is free."""
        t = event.t
        if (
            not isinstance(event, Play)
            or event.player is None
            or event.source is None
            or not self.is_top(event.player, event.source, event.card)
        ):
            return t + 0.6
        dest, carry = f"foundation:{event.pile}", 0.6
        start = max(0.0, t - carry) if carried_from is None else carried_from
        self.motions += [
            Motion(event.player, event.card, event.source, dest, start, t, False),
            Motion(event.player, event.card, event.source, dest, t, t + rest, False, resting=True),
            Motion(event.player, event.card, event.source, dest, t + rest, t + rest + carry, False, back=True),
        ]
        end = t + rest + carry
        self.busy_piles[event.pile] = end
        return end

    def is_top(self, player: str, source: str, card: Card) -> bool:
        pile = self.bots[player].pile(source)
        return bool(pile) and pile[-1] == card

    def inject_late_play(self, t: float) -> None:
        for bot in self.bots.values():
            for source, card in bot.playable():
                if card.is_joker:
                    continue
                piles = [f for f in self.foundations.values() if self.fits(card, f)]
                pile = piles[0].id if piles else f"f{len(self.foundations) + 1}"
                seq = self.emit(Play, t, player=bot.id, card=card, pile=pile, source=source)
                self.injected["late-play"] = seq
                del self.pending["late-play"]
                self.show_misplay(self.events[-1])  # on the table for the camera too, then taken back
                return

    def result(self) -> SimResult:
        deck_size = 54 if self.rules.jokers else 52
        played: dict[str, int] = dict.fromkeys(self.bots, 0)
        kings: dict[str, int] = dict.fromkeys(self.bots, 0)
        for f in self.foundations.values():
            for owner in f.owners:
                played[owner] += 1
            if f.complete:
                kings[f.owners[-1]] += 1
        out_by = next(
            (e.player for e in self.events if isinstance(e, Out) and e.seq not in self.injected.values()), None
        )
        scores = {
            pid: SimScore(
                played[pid],
                kings[pid],
                pid == out_by,
                len(b.demon),
                score(
                    self.rules.points, played=played[pid], kings=kings[pid], out=pid == out_by, demon_left=len(b.demon)
                ),
            )
            for pid, b in self.bots.items()
        }
        conserved = all(b.cards() + played[pid] == deck_size for pid, b in self.bots.items())
        return SimResult(
            events=self.events,
            rules=self.rules,
            players=self.specs,
            profiles={pid: b.profile for pid, b in self.bots.items()},
            staged_conflicts=self.staged,
            injected=self.injected,
            missed=sorted(self.pending),
            scores=scores,
            conserved=conserved,
            finished_by=self.finished_by,
            motions=self.motions,
        )


def _next_card(top: Card | None) -> Card | None:
    return None if top is None else Card(top.rank + 1, top.suit)


def _ladders(upper: Card, lower: Card) -> bool:
    return not upper.is_joker and not lower.is_joker and can_ladder(upper, lower)


def _dest(what: str, dest: str) -> str:
    return f"foundation:{dest}" if what == "play" else dest


# Each injector makes one illegal event of its kind if the table offers a chance, returning its seq.


def _inject_not_an_ace(sim: _Sim, bot: _Bot, t: float) -> int | None:
    for source, card in bot.playable():
        if card.rank != ACE and not card.is_joker:
            return sim.emit(Play, t, player=bot.id, card=card, pile=f"x{len(sim.events)}", source=source)
    return None


def _inject_wrong_suit(sim: _Sim, bot: _Bot, t: float) -> int | None:
    flying = sim.rules.foundation_mode is FoundationMode.FLYING_DEMON
    for source, card in bot.playable():
        for f in sim.foundations.values():
            if f.complete or card.is_joker or card.rank != f.cards[-1].rank + 1:
                continue
            wrong = card.suit != f.cards[-1].suit if flying else card.suit != f.cards[0].suit
            if wrong and (not flying or card.rank > JACK):
                return sim.emit(Play, t, player=bot.id, card=card, pile=f.id, source=source)
    return None


def _inject_wrong_rank(sim: _Sim, bot: _Bot, t: float) -> int | None:
    for source, card in bot.playable():
        for f in sim.foundations.values():
            top = f.cards[-1]
            if not f.complete and not card.is_joker and card.rank != top.rank + 1 and card != top:
                return sim.emit(Play, t, player=bot.id, card=card, pile=f.id, source=source)
    return None


def _inject_pile_complete(sim: _Sim, bot: _Bot, t: float) -> int | None:
    done = [f for f in sim.foundations.values() if f.complete]
    for source, card in bot.playable():
        if done and not card.is_joker:
            return sim.emit(Play, t, player=bot.id, card=card, pile=done[0].id, source=source)
    return None


def _inject_false_out(sim: _Sim, bot: _Bot, t: float) -> int | None:
    return sim.emit(Out, t, player=bot.id) if bot.demon else None


def _inject_duplicate(sim: _Sim, bot: _Bot, t: float) -> int | None:
    for f in sim.foundations.values():
        for card, owner in zip(f.physical, f.owners, strict=True):
            if owner == bot.id and not card.is_joker:
                return sim.emit(Play, t, player=bot.id, card=card, pile=f.id)
    return None


def _inject_conflict(sim: _Sim, bot: _Bot, t: float) -> int | None:
    for f in sim.foundations.values():
        top = f.cards[-1]
        if f.owners[-1] != bot.id and t - f.times[-1] <= sim.rules.conflict_window - 0.05:
            for source, card in bot.playable():
                if card == top:
                    return sim.emit(Play, t, player=bot.id, card=card, pile=f.id, source=source)
    return None


def _inject_not_playable(sim: _Sim, bot: _Bot, t: float) -> int | None:
    if len(bot.waste) >= 2:
        return sim.emit(Play, t, player=bot.id, card=bot.waste[-2], pile=f"x{len(sim.events)}", source="waste")
    if len(bot.demon) >= 2:
        return sim.emit(Play, t, player=bot.id, card=bot.demon[-2], pile=f"x{len(sim.events)}", source="demon")
    if bot.stock:
        return sim.emit(Play, t, player=bot.id, card=bot.stock[-1], pile=f"x{len(sim.events)}")
    return None


def _inject_ladder(colour: bool) -> Any:
    def inject(sim: _Sim, bot: _Bot, t: float) -> int | None:
        sources = [(s, c) for s, c in bot.playable() if s in ("demon", "waste") and not c.is_joker]
        for source, card in sources:
            for i, ladder in enumerate(bot.line):
                if not ladder or ladder[-1].is_joker:
                    continue
                e = ladder[-1]
                rank_ok = card.rank == e.rank - 1
                if (colour and rank_ok and card.colour == e.colour) or (not colour and not rank_ok):
                    return sim.emit(Ladder, t, player=bot.id, card=card, source=source, to=f"line:{i + 1}")
        return None

    return inject


def _inject_illegal_refill(sim: _Sim, bot: _Bot, t: float) -> int | None:
    if sim.rules.refill is not Refill.DEMON or not bot.demon or not bot.waste:
        return None
    for i, ladder in enumerate(bot.line):
        if not ladder:
            return sim.emit(Ladder, t, player=bot.id, card=bot.waste[-1], source="waste", to=f"line:{i + 1}")
    return None


_INJECTORS: dict[str, Any] = {
    "not-an-ace": _inject_not_an_ace,
    "wrong-suit": _inject_wrong_suit,
    "wrong-rank": _inject_wrong_rank,
    "pile-complete": _inject_pile_complete,
    "false-out": _inject_false_out,
    "duplicate-card": _inject_duplicate,
    "conflict": _inject_conflict,
    "not-playable": _inject_not_playable,
    "ladder-colour": _inject_ladder(True),
    "ladder-rank": _inject_ladder(False),
    "illegal-refill": _inject_illegal_refill,
}


def simulate(
    *,
    players: int = 4,
    seed: int = 0,
    rules: Rules | None = None,
    demons: Mapping[str, int] | None = None,
    inject: Sequence[str] = (),
    max_time: float = 1800.0,
) -> SimResult:
    """Plays one round and returns its ground-truth event log and the simulator's own count.

    ``players`` counts people: with partnership rules, pairs share a deck (``players // 2`` decks).
    ``demons`` maps player ids (``p1``…) to demon sizes (the handicap); ``inject`` names illegal plays from
    :data:`INJECTABLE` to slip in; ``max_time`` caps the round in simulated seconds.
    """
    return _Sim(rules or Rules(), players, seed, demons, inject, max_time).run()
