"""Event log v1: one JSON object a line (see ``docs/event-log.md`` and ``referee/schema/event-log.schema.json``).

Every event has ``type`` and ``t`` (seconds); ``seq`` is optional on input (else the 0-based line index).
Fields the referee does not know (evidence such as ``frame``, ``confidence``, ``candidates``) are kept in
``extra`` and written back unchanged.

>>> ev = parse_event({"type": "play", "t": 1.5, "player": "ann", "card": "AS", "pile": "p1", "from": "demon"}, 0)
>>> ev.card, ev.source, to_json(ev)["from"]
(Card.parse('AS'), 'demon', 'demon')
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeAlias, get_args

from referee.cards import Card, CardError

SCHEMA_VERSION = 1

Source: TypeAlias = str
"""``demon``, ``waste`` or ``line:N`` (N counts from 1)."""

_SOURCE_RE = re.compile(r"^(demon|waste|line:[1-9][0-9]?)$")
_LINE_RE = re.compile(r"^line:[1-9][0-9]?$")

CorrectionAction = Literal["accept", "reject", "reassign", "unassign", "fix-card", "set-demon", "end-round", "note"]
CORRECTION_ACTIONS: tuple[str, ...] = get_args(CorrectionAction)


class EventError(ValueError):
    """A malformed event: names the line and the field."""

    def __init__(
        self, message: str, *, line: int | None = None, seq: int | None = None, field_name: str | None = None
    ) -> None:
        self.line = line
        self.seq = seq
        self.field_name = field_name
        self.detail = message
        super().__init__(self.describe())

    def describe(self, line: int | None = None) -> str:
        """The one-line message; ``line`` (0-based) names where the event sat in its file."""
        line = self.line if line is None else line
        if line is not None:
            where = f"line {line + 1}: "
        elif self.seq is not None:
            where = f"event seq {self.seq}: "
        else:
            where = ""
        what = f"field '{self.field_name}': " if self.field_name else ""
        return f"{where}{what}{self.detail}"


@dataclass(frozen=True, slots=True)
class Layout:
    """A player's dealt table, each pile listed bottom to top (the last card is the top)."""

    demon: tuple[Card, ...]
    line: tuple[tuple[Card, ...], ...]
    stock: tuple[Card, ...]
    waste: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True)
class PlayerSpec:
    """A deck holder: one player, or a partnership sharing one deck (``members``)."""

    id: str
    demon: int
    name: str | None = None
    back: str | None = None
    members: tuple[str, ...] = ()
    layout: Layout | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Fields every event has."""

    seq: int
    t: float
    extra: Mapping[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundStart(Event):
    rules: str
    players: tuple[PlayerSpec, ...]
    options: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class Play(Event):
    """A card put on a foundation. ``player`` is None when nobody could be attributed."""

    player: str | None
    card: Card
    pile: str
    source: Source | None = None
    as_card: Card | None = None  # what a joker stands for
    forced: bool = False  # set by an adjudicator's ``accept``: legality is not judged


@dataclass(frozen=True, slots=True, kw_only=True)
class Ladder(Event):
    """A card (and, with sequence moves, what lies on it) moved into the player's line."""

    player: str
    card: Card
    source: Source
    to: Source
    forced: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Flip(Event):
    """A new demon top was turned face up."""

    player: str
    card: Card


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Event):
    """Cards turned from the stock onto the waste (``cards``: the ones shown, if known)."""

    player: str
    cards: tuple[Card, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Turnover(Event):
    """The waste turned over, unshuffled, to become the stock again."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Rotate(Event):
    """Blocked table: the top stock card moved to the bottom of the stock."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class Out(Event):
    player: str
    forced: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class RoundEnd(Event):
    reason: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Correction(Event):
    """An adjudicator's override; ``target`` is the ``seq`` of the event it corrects."""

    action: CorrectionAction
    by: str
    reason: str = ""
    target: int | None = None
    player: str | None = None
    card: Card | None = None
    demon: int | None = None
    source: str | None = None  # JSON "from": a reassigned play's place in its new player's area, when known


EVENT_TYPES: dict[str, type[Event]] = {
    "round_start": RoundStart,
    "play": Play,
    "ladder": Ladder,
    "flip": Flip,
    "draw": Draw,
    "turnover": Turnover,
    "rotate": Rotate,
    "out": Out,
    "round_end": RoundEnd,
    "correction": Correction,
}
TYPE_NAMES: dict[type[Event], str] = {cls: name for name, cls in EVENT_TYPES.items()}

_KNOWN_FIELDS: dict[str, frozenset[str]] = {
    "round_start": frozenset({"rules", "options", "players"}),
    "play": frozenset({"player", "card", "pile", "from", "as", "forced"}),
    "ladder": frozenset({"player", "card", "from", "to", "forced"}),
    "flip": frozenset({"player", "card"}),
    "draw": frozenset({"player", "cards"}),
    "turnover": frozenset({"player"}),
    "rotate": frozenset({"player"}),
    "out": frozenset({"player", "forced"}),
    "round_end": frozenset({"reason"}),
    "correction": frozenset({"action", "by", "reason", "target", "player", "card", "demon", "from"}),
}
_COMMON = frozenset({"type", "t", "seq"})


def type_name(event: Event) -> str:
    """The ``type`` string of ``event`` (``"play"``, ``"round_start"``, …)."""
    return TYPE_NAMES[type(event)]


# --- reading ---------------------------------------------------------------------------------------


class _Reader:
    """Reads typed fields out of one JSON object, raising :class:`EventError` naming the line and field."""

    def __init__(self, obj: Mapping[str, Any], line: int | None) -> None:
        self.obj = obj
        self.line = line

    def error(self, name: str | None, message: str) -> EventError:
        return EventError(message, line=self.line, field_name=name)

    def has(self, name: str) -> bool:
        return self.obj.get(name) is not None

    def str_(self, name: str, *, required: bool = True) -> str | None:
        value = self.obj.get(name)
        if value is None:
            if required:
                raise self.error(name, "missing")
            return None
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise self.error(name, f"expected a string, got {value!r}")
        text = str(value)
        if not text:
            raise self.error(name, "must not be empty")
        return text

    def int_(self, name: str, *, required: bool = True, minimum: int | None = None) -> int | None:
        value = self.obj.get(name)
        if value is None:
            if required:
                raise self.error(name, "missing")
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(name, f"expected an integer, got {value!r}")
        if minimum is not None and value < minimum:
            raise self.error(name, f"must be >= {minimum}, got {value}")
        return value

    def card(self, name: str, *, required: bool = True) -> Card | None:
        value = self.obj.get(name)
        if value is None:
            if required:
                raise self.error(name, "missing")
            return None
        try:
            return Card.parse(value)
        except CardError as exc:
            raise self.error(name, str(exc)) from None

    def cards(self, name: str, value: Any = None) -> tuple[Card, ...]:
        value = self.obj.get(name) if value is None else value
        if value is None:
            return ()
        if not isinstance(value, list):
            raise self.error(name, f"expected a list of cards, got {value!r}")
        try:
            return tuple(Card.parse(v) for v in value)
        except CardError as exc:
            raise self.error(name, str(exc)) from None

    def source(self, name: str, *, required: bool, line_only: bool = False) -> str | None:
        text = self.str_(name, required=required)
        if text is None:
            return None
        pattern = _LINE_RE if line_only else _SOURCE_RE
        if not pattern.match(text):
            expected = "'line:N'" if line_only else "'demon', 'waste' or 'line:N'"
            raise self.error(name, f"expected {expected}, got {text!r}")
        return text

    def bool_(self, name: str) -> bool:
        value = self.obj.get(name, False)
        if not isinstance(value, bool):
            raise self.error(name, f"expected true or false, got {value!r}")
        return value


def parse_event(obj: Any, line: int | None = None) -> Event:
    """Builds a typed event from one decoded JSON object; ``line`` (0-based) is used in errors and as seq."""
    if not isinstance(obj, Mapping):
        raise EventError(f"expected a JSON object, got {type(obj).__name__}", line=line)
    r = _Reader(obj, line)
    kind = obj.get("type")
    if kind is None:
        raise r.error("type", "missing")
    if kind not in EVENT_TYPES:
        raise r.error("type", f"unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}")
    t_raw = obj.get("t")
    if t_raw is None:
        raise r.error("t", "missing")
    if isinstance(t_raw, bool) or not isinstance(t_raw, int | float) or not math.isfinite(t_raw):
        raise r.error("t", f"expected a number of seconds, got {t_raw!r}")
    seq = r.int_("seq", required=False, minimum=0)
    if seq is None:
        if line is None:
            raise r.error("seq", "missing (and no line index to default to)")
        seq = line
    known = _KNOWN_FIELDS[kind]
    extra = {k: v for k, v in obj.items() if k not in known and k not in _COMMON}
    common: dict[str, Any] = {"seq": seq, "t": float(t_raw), "extra": extra}
    return _PARSERS[kind](r, common)


def _parse_round_start(r: _Reader, common: dict[str, Any]) -> Event:
    rules = r.str_("rules")
    options = r.obj.get("options") or {}
    if not isinstance(options, Mapping):
        raise r.error("options", f"expected an object, got {options!r}")
    players_raw = r.obj.get("players")
    if not isinstance(players_raw, list) or not players_raw:
        raise r.error("players", "expected a non-empty list of players")
    players: list[PlayerSpec] = []
    seen: set[str] = set()
    for i, p in enumerate(players_raw):
        if not isinstance(p, Mapping):
            raise r.error(f"players[{i}]", f"expected an object, got {p!r}")
        pr = _Reader(p, r.line)
        try:
            pid = pr.str_("id")
            demon = pr.int_("demon", minimum=0)
            name = pr.str_("name", required=False)
            back = pr.str_("back", required=False)
        except EventError as exc:
            raise r.error(f"players[{i}].{exc.field_name}", str(exc).split(": ", 2)[-1]) from None
        assert pid is not None and demon is not None
        if pid in seen:
            raise r.error(f"players[{i}].id", f"duplicate player id {pid!r}")
        seen.add(pid)
        members = p.get("members") or []
        if not isinstance(members, list) or not all(isinstance(m, str) for m in members):
            raise r.error(f"players[{i}].members", f"expected a list of names, got {members!r}")
        layout = _parse_layout(r, i, p.get("layout"))
        if layout is not None and len(layout.demon) != demon:
            raise r.error(f"players[{i}].layout.demon", f"has {len(layout.demon)} cards but demon is {demon}")
        players.append(PlayerSpec(pid, demon, name, back, tuple(members), layout))
    return RoundStart(rules=rules or "", players=tuple(players), options=dict(options), **common)


def _parse_layout(r: _Reader, i: int, raw: Any) -> Layout | None:
    if raw is None:
        return None
    name = f"players[{i}].layout"
    if not isinstance(raw, Mapping):
        raise r.error(name, f"expected an object, got {raw!r}")
    line_raw = raw.get("line")
    if not isinstance(line_raw, list) or not all(isinstance(x, list) for x in line_raw):
        raise r.error(f"{name}.line", "expected a list of ladders (lists of cards)")
    return Layout(
        demon=r.cards(f"{name}.demon", raw.get("demon") or []),
        line=tuple(r.cards(f"{name}.line", ladder) if ladder else () for ladder in line_raw),
        stock=r.cards(f"{name}.stock", raw.get("stock") or []),
        waste=r.cards(f"{name}.waste", raw.get("waste") or []),
    )


def _parse_play(r: _Reader, common: dict[str, Any]) -> Event:
    card = r.card("card")
    assert card is not None
    as_card = r.card("as", required=False)
    if as_card is not None and as_card.is_joker:
        raise r.error("as", "a joker must stand for a real card")
    return Play(
        player=r.str_("player", required=False),
        card=card,
        pile=r.str_("pile") or "",
        source=r.source("from", required=False),
        as_card=as_card,
        forced=r.bool_("forced"),
        **common,
    )


def _parse_ladder(r: _Reader, common: dict[str, Any]) -> Event:
    card = r.card("card")
    assert card is not None
    return Ladder(
        player=r.str_("player") or "",
        card=card,
        source=r.source("from", required=True) or "",
        to=r.source("to", required=True, line_only=True) or "",
        forced=r.bool_("forced"),
        **common,
    )


def _parse_flip(r: _Reader, common: dict[str, Any]) -> Event:
    card = r.card("card")
    assert card is not None
    return Flip(player=r.str_("player") or "", card=card, **common)


def _parse_draw(r: _Reader, common: dict[str, Any]) -> Event:
    return Draw(player=r.str_("player") or "", cards=r.cards("cards"), **common)


def _parse_player_only(cls: type[Turnover] | type[Rotate]) -> Callable[[_Reader, dict[str, Any]], Event]:
    def parse(r: _Reader, common: dict[str, Any]) -> Event:
        return cls(player=r.str_("player") or "", **common)

    return parse


def _parse_out(r: _Reader, common: dict[str, Any]) -> Event:
    return Out(player=r.str_("player") or "", forced=r.bool_("forced"), **common)


def _parse_round_end(r: _Reader, common: dict[str, Any]) -> Event:
    return RoundEnd(reason=r.str_("reason", required=False), **common)


def _parse_correction(r: _Reader, common: dict[str, Any]) -> Event:
    action = r.str_("action")
    if action not in CORRECTION_ACTIONS:
        raise r.error("action", f"unknown correction {action!r}; known: {', '.join(CORRECTION_ACTIONS)}")
    target = r.int_("target", required=action in ("accept", "reject", "reassign", "unassign", "fix-card"), minimum=0)
    player = r.str_("player", required=action in ("reassign", "set-demon"))
    card = r.card("card", required=action == "fix-card")
    demon = r.int_("demon", required=action == "set-demon", minimum=0)
    if target is not None and target >= common["seq"]:
        raise r.error("target", f"must name an earlier event's seq (< {common['seq']}), got {target}")
    return Correction(
        action=action,  # type: ignore[arg-type]
        by=r.str_("by") or "",
        reason=r.str_("reason", required=False) or "",
        target=target,
        player=player,
        card=card,
        demon=demon,
        source=r.source("from", required=False),
        **common,
    )


_PARSERS: dict[str, Callable[[_Reader, dict[str, Any]], Event]] = {
    "round_start": _parse_round_start,
    "play": _parse_play,
    "ladder": _parse_ladder,
    "flip": _parse_flip,
    "draw": _parse_draw,
    "turnover": _parse_player_only(Turnover),
    "rotate": _parse_player_only(Rotate),
    "out": _parse_out,
    "round_end": _parse_round_end,
    "correction": _parse_correction,
}


def parse_lines(lines: Iterable[str]) -> Iterator[Event]:
    """Parses JSON Lines; blank lines are skipped but still counted for line numbers."""
    seen: set[int] = set()
    for index, text in enumerate(lines):
        if not text.strip():
            continue
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EventError(f"not valid JSON ({exc.msg} at column {exc.colno})", line=index) from None
        event = parse_event(obj, index)
        if event.seq in seen:
            raise EventError(f"duplicate seq {event.seq}", line=index, field_name="seq")
        seen.add(event.seq)
        yield event


def read_log(path: str | Path) -> list[Event]:
    """Reads an event log file."""
    p = Path(path)
    try:
        with p.open(encoding="utf-8") as fh:
            return list(parse_lines(fh))
    except UnicodeDecodeError as exc:
        raise EventError(f"{p} is not UTF-8 text ({exc.reason})") from None


# --- writing ---------------------------------------------------------------------------------------


def _layout_json(layout: Layout) -> dict[str, Any]:
    out: dict[str, Any] = {
        "demon": [str(c) for c in layout.demon],
        "line": [[str(c) for c in ladder] for ladder in layout.line],
        "stock": [str(c) for c in layout.stock],
    }
    if layout.waste:
        out["waste"] = [str(c) for c in layout.waste]
    return out


def _player_json(p: PlayerSpec) -> dict[str, Any]:
    out: dict[str, Any] = {"id": p.id}
    if p.name is not None:
        out["name"] = p.name
    if p.back is not None:
        out["back"] = p.back
    out["demon"] = p.demon
    if p.members:
        out["members"] = list(p.members)
    if p.layout is not None:
        out["layout"] = _layout_json(p.layout)
    return out


def to_json(event: Event) -> dict[str, Any]:
    """The JSON object of ``event`` (the inverse of :func:`parse_event`)."""
    out: dict[str, Any] = {"seq": event.seq, "t": event.t, "type": type_name(event)}
    match event:
        case RoundStart():
            out["rules"] = event.rules
            if event.options:
                out["options"] = dict(event.options)
            out["players"] = [_player_json(p) for p in event.players]
        case Play():
            out["player"] = event.player
            out["card"] = str(event.card)
            out["pile"] = event.pile
            if event.source is not None:
                out["from"] = event.source
            if event.as_card is not None:
                out["as"] = str(event.as_card)
            if event.forced:
                out["forced"] = True
        case Ladder():
            out.update(player=event.player, card=str(event.card), to=event.to)
            out["from"] = event.source
            if event.forced:
                out["forced"] = True
        case Flip():
            out.update(player=event.player, card=str(event.card))
        case Draw():
            out["player"] = event.player
            if event.cards:
                out["cards"] = [str(c) for c in event.cards]
        case Turnover() | Rotate():
            out["player"] = event.player
        case Out():
            out["player"] = event.player
            if event.forced:
                out["forced"] = True
        case RoundEnd():
            if event.reason is not None:
                out["reason"] = event.reason
        case Correction():
            out.update(action=event.action, by=event.by)
            if event.reason:
                out["reason"] = event.reason
            for name in ("target", "player", "demon"):
                value = getattr(event, name)
                if value is not None:
                    out[name] = value
            if event.card is not None:
                out["card"] = str(event.card)
            if event.source is not None:
                out["from"] = event.source
    for key, value in event.extra.items():
        out.setdefault(key, value)
    return out


def dumps(event: Event) -> str:
    """One log line (no newline)."""
    return json.dumps(to_json(event), separators=(",", ":"), ensure_ascii=False)


def write_log(events: Sequence[Event], path: str | Path) -> None:
    """Writes ``events`` as JSON Lines."""
    with Path(path).open("w", encoding="utf-8") as fh:
        for event in events:
            fh.write(dumps(event) + "\n")
