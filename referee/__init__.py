"""The referee: pure, deterministic rules engine for Racing Demon / Nerts / Pounce.

Never imports cv2, torch, ultralytics, fastapi or sqlalchemy, and reads no clock: time arrives in events.
"""

from __future__ import annotations

from referee.cards import Card, Colour, Suit, deck
from referee.events import Event, EventError, parse_event, parse_lines, read_log, to_json, write_log
from referee.game import RoundState, Status, Verdict, apply, initial, replay
from referee.match import Match
from referee.rules import PRESETS, Rules, RulesError
from referee.scoring import Tally, tally

__all__ = [
    "PRESETS",
    "Card",
    "Colour",
    "Event",
    "EventError",
    "Match",
    "RoundState",
    "Rules",
    "RulesError",
    "Status",
    "Suit",
    "Tally",
    "Verdict",
    "apply",
    "deck",
    "initial",
    "parse_event",
    "parse_lines",
    "read_log",
    "replay",
    "tally",
    "to_json",
    "write_log",
]
