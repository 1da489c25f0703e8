"""A table's match (every round's tally and the running totals) and replaying any log up to any event."""

from __future__ import annotations

from dataclasses import asdict, fields, is_dataclass
from typing import Any

from fastapi import APIRouter, Body, HTTPException, Query, status

from dashboard.deps import HubDep, TableDep
from dashboard.hub import LiveTable, snapshot
from referee.cards import BACK_COLOUR_NAMES
from referee.events import EventError, parse_event
from referee.game import replay
from referee.scoring import tally

router = APIRouter(prefix="/api", tags=["rounds"])


@router.get("/tables/{table_id}/match")
def match(table: TableDep, hub: HubDep) -> dict[str, Any]:
    """Every round of the table, its scores, and each player's running total after it."""
    rounds, totals = [], dict[str, int]()
    for number, round_id in enumerate(hub.store.rounds(table.id), start=1):
        events = [parse_event(body) for body in hub.store.events(round_id)]
        if not events:
            continue
        result = tally(replay(events))
        scores = {p.id: p.score for p in result.players}
        for pid, score in scores.items():
            totals[pid] = totals.get(pid, 0) + score
        rounds.append({"round": number, "finished": result.finished, "scores": scores, "totals": dict(totals)})
    return {"table": table.id, "name": table.name, "rounds": rounds, "totals": totals}


@router.post("/replay")
def replay_log(
    events: list[dict[str, Any]] = Body(...),  # noqa: B008 - FastAPI's way to take a JSON list body
    upto: int | None = Query(default=None, description="Replay the events with seq <= upto."),
) -> dict[str, Any]:
    """The table as it stood after event ``upto`` of an uploaded log (the Review page's scrubber)."""
    parsed = []
    for i, body in enumerate(events):
        try:
            parsed.append(parse_event(body, line=i))
        except EventError as exc:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, f"event {i}: {exc}") from None
    chosen = [e for e in parsed if upto is None or e.seq <= upto]
    state = replay(chosen)
    data = snapshot(LiveTable("review", "review", 0, state))
    data["seq"] = chosen[-1].seq if chosen else None
    data["t"] = chosen[-1].t if chosen else 0.0
    return data


@router.get("/rules")
def rules_catalogue() -> dict[str, Any]:
    """Every preset with its full options, for the Setup page (and for rigs that want to show them)."""
    from referee.rules import PRESETS

    def options(rules: Any) -> dict[str, Any]:
        out = {}
        for f in fields(rules):
            if f.name == "name":
                continue
            value = getattr(rules, f.name)
            out[f.name] = asdict(value) if is_dataclass(value) else getattr(value, "value", value)
        return out

    return {"presets": {name: options(r) for name, r in PRESETS.items()}, "back_colours": list(BACK_COLOUR_NAMES)}


@router.post("/rules/check")
def rules_check(body: dict[str, Any] = Body(...)) -> dict[str, Any]:  # noqa: B008
    """Checks a preset plus options (as the Setup page sends them): the options that differ, or the error."""
    from referee.rules import Rules, RulesError

    try:
        rules = Rules.preset(str(body.get("preset", "racing-demon"))).with_options(body.get("options") or {})
    except RulesError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, str(exc)) from None
    return {"preset": rules.name, "options": rules.to_options()}
