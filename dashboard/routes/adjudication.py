"""The adjudicator's corrections: each one a `correction` event appended to the log, with who and why."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, status
from pydantic import BaseModel, Field

from dashboard.deps import AdminDep, HubDep, TableDep
from dashboard.hub import audit_trail
from referee.events import CorrectionAction, EventError

router = APIRouter(prefix="/api/tables", tags=["adjudication"])


class CorrectionIn(BaseModel):
    action: CorrectionAction
    by: str = Field(min_length=1, max_length=100)
    reason: str | None = Field(default=None, max_length=1000)
    target: int | None = Field(default=None, ge=0)
    player: str | None = None
    card: str | None = None
    demon: int | None = Field(default=None, ge=0)


@router.post("/{table_id}/corrections")
def correct(body: CorrectionIn, table: TableDep, hub: HubDep, _: AdminDep) -> dict[str, Any]:
    history = table.state.history
    if not history:
        raise HTTPException(status.HTTP_409_CONFLICT, "the table has no round yet")
    seq = max(e.seq for e in history) + 1
    event = {"type": "correction", "seq": seq, "t": history[-1].t, **body.model_dump(exclude_none=True)}
    try:
        _, verdicts = hub.ingest(table.id, event)
    except EventError as exc:
        raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, str(exc)) from None
    return {"seq": seq, "verdicts": verdicts}


@router.get("/{table_id}/audit")
def audit(table: TableDep) -> list[dict[str, Any]]:
    return audit_trail(table.state)
