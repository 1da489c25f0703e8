"""Live tables: each table's current round state (rebuilt from the stored log) and its SSE subscribers."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from dashboard.storage import Store
from referee.events import Correction, EventError, Play, RoundStart, parse_event, to_json
from referee.game import RoundState, apply, initial, replay
from referee.handicap import next_demons
from referee.scoring import tally


def audit_trail(state: RoundState) -> list[dict[str, Any]]:
    """The round's corrections as logged, oldest first (the audit API and the live page's list)."""
    return [to_json(e) for e in state.history if isinstance(e, Correction)]


@dataclass
class LiveTable:
    id: str
    name: str
    round_id: int
    state: RoundState = field(default_factory=initial)
    subscribers: set[asyncio.Queue[dict[str, Any]]] = field(default_factory=set)
    thumbs: set[int] = field(default_factory=set)  # seqs with a stored picture (flags show it)
    frame: bytes | None = None  # the rig's latest annotated camera frame (JPEG), kept in memory only
    frame_at: float = 0.0  # time.time() it arrived


def snapshot(table: LiveTable) -> dict[str, Any]:
    """Everything a page shows for one table: players, foundations, flags, tally."""
    state = table.state
    result = tally(state)
    scores = {p.id: p.score for p in result.players}
    demons = {p.id: p.spec.demon for p in state.players.values()}
    nxt = (
        next_demons("simple", scores, totals=scores, demons=demons, round_number=1, base=state.rules.demon_size)
        if result.finished and scores
        else {}
    )
    refused = {v.seq for v in state.flags}
    last: dict[str, list[str]] = {}
    for e in state.history:
        if isinstance(e, Play) and e.player is not None and e.seq not in refused:
            last.setdefault(e.player, []).append(str(e.card))
    return {
        "table": table.id,
        "name": table.name,
        "round": table.round_id,
        "rules": state.rules.name,
        "status": state.status.value,
        "out_by": state.out_by,
        "players": [
            {
                "id": p.id,
                "name": p.name,
                "back": p.back,
                "played": p.played_cards,
                "kings": p.kings,
                "demon_left": p.demon_left,
                "out": p.out,
                "score": scores.get(p.id, 0),
                "last_plays": last.get(p.id, [])[-3:],
                "next_demon": nxt.get(p.id),
            }
            for p in state.players.values()
        ],
        "foundations": [
            {"id": f.id, "top": str(f.top) if f.top else None, "cards": len(f.cards), "complete": f.complete}
            for f in state.foundations.values()
        ],
        "flags": [
            {
                "seq": v.seq,
                "code": v.code,
                "player": v.player,
                "card": str(v.card) if v.card else None,
                "message": v.message,
                "candidates": list(v.candidates),
                "thumb": f"/api/tables/{table.id}/flags/{v.seq}/thumb.jpg" if v.seq in table.thumbs else None,
            }
            for v in state.flags
        ],
        "corrections": audit_trail(state),
        "events": len(state.history),
        "camera": f"/api/tables/{table.id}/frame.jpg" if table.frame is not None else None,
    }


class Hub:
    """The tables being served. Ingest goes through here: stored first, then applied, then pushed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.tables: dict[str, LiveTable] = {}
        for table_id, name in store.tables():
            round_id = store.current_round(table_id)
            events = [parse_event(body) for body in store.events(round_id)]
            self.tables[table_id] = LiveTable(table_id, name, round_id, replay(events))
            self.tables[table_id].thumbs = store.thumb_seqs(round_id)

    def add_table(self, table_id: str, name: str) -> str:
        token = self.store.create_table(table_id, name)
        self.tables[table_id] = LiveTable(table_id, name, self.store.current_round(table_id))
        return token

    def ingest(self, table_id: str, body: dict[str, Any]) -> tuple[bool, list[dict[str, Any]]]:
        """Stores and applies one event. Returns (new, verdicts); a seq already stored changes nothing."""
        table = self.tables[table_id]
        event = parse_event(body)
        stored = json.loads(json.dumps(to_json(event)))
        if self.store.event(table.round_id, event.seq) == stored:
            return False, []  # sent before (a rig replaying its outbox)
        if isinstance(event, RoundStart) and table.state.status.value != "waiting":
            table.round_id = self.store.current_round(table_id, new=True)
            table.state = initial()
            table.thumbs = set()
        # Judge before storing: a malformed event (unknown player, ...) must not enter the log.
        new_state, verdicts = apply(table.state, event)
        if not self.store.append(table.round_id, stored):
            return False, []
        table.state = new_state
        self._push(table)
        return True, [{"seq": v.seq, "code": v.code, "message": v.message} for v in verdicts]

    def put_thumb(self, table_id: str, seq: int, jpeg: bytes) -> None:
        table = self.tables[table_id]
        self.store.put_thumb(table.round_id, seq, jpeg)
        table.thumbs.add(seq)
        self._push(table)

    def put_frame(self, table_id: str, jpeg: bytes) -> None:
        table = self.tables[table_id]
        first = table.frame is None
        table.frame, table.frame_at = jpeg, time.time()
        if first:  # pages learn that there is a camera view; later frames are fetched by the page itself
            self._push(table)

    def _push(self, table: LiveTable) -> None:
        data = snapshot(table)
        for queue in list(table.subscribers):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(data)


__all__ = ["EventError", "Hub", "LiveTable", "snapshot"]
