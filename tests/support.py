"""Helpers shared by the tests."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from referee.events import Event, parse_lines

GOLDEN = Path(__file__).parent / "golden"


def log(*objs: dict[str, Any]) -> list[Event]:
    """Events from JSON-like dicts (seq defaults to the position)."""
    return list(parse_lines(json.dumps(o) for o in objs))


def start(*players: tuple[str, int], rules: str = "racing-demon", **options: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {
        "type": "round_start",
        "t": 0,
        "rules": rules,
        "players": [{"id": p, "demon": d} for p, d in players],
    }
    if options:
        obj["options"] = options
    return obj


def play(player: str | None, card: str, pile: str, t: float, source: str | None = None, **extra: Any) -> dict[str, Any]:
    obj: dict[str, Any] = {"type": "play", "t": t, "player": player, "card": card, "pile": pile}
    if source:
        obj["from"] = source
    obj.update(extra)
    return obj


def codes(verdicts: Iterable[Any]) -> list[tuple[int, str]]:
    return [(v.seq, v.code) for v in verdicts]


def free_port() -> int:
    """A loopback port nobody listens on (for a server a test starts)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
