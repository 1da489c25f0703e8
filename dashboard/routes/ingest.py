"""Rigs send events; the adjudicator creates tables."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Body, HTTPException, status
from pydantic import BaseModel, Field

from dashboard.deps import SEQ_MAX, AdminDep, HubDep, RigDep, TableDep
from referee.events import EventError

router = APIRouter(prefix="/api/tables", tags=["ingest"])


class NewTable(BaseModel):
    id: str = Field(pattern=r"^[A-Za-z0-9_-]{1,64}$")
    name: str = Field(min_length=1, max_length=200)


class NewTableOut(BaseModel):
    id: str
    rig_token: str


@router.post("", status_code=status.HTTP_201_CREATED)
def create_table(body: NewTable, hub: HubDep, _: AdminDep) -> NewTableOut:
    if body.id in hub.tables:
        raise HTTPException(status.HTTP_409_CONFLICT, f"table {body.id!r} exists")
    return NewTableOut(id=body.id, rig_token=hub.add_table(body.id, body.name))


@router.post("/{table_id}/events")
def ingest(table: TableDep, hub: HubDep, _: RigDep, events: list[dict[str, Any]] = Body(...)) -> dict[str, Any]:  # noqa: B008
    """Events of the referee's log (JSON objects, each with ``seq``). Idempotent: a seq already stored is skipped."""
    stored, skipped, verdicts = 0, 0, []
    for i, body in enumerate(events):
        seq = body.get("seq")
        if not isinstance(seq, int) or not 0 <= seq <= SEQ_MAX:
            raise HTTPException(
                status.HTTP_422_UNPROCESSABLE_ENTITY,
                f"event {i}: field 'seq': an integer from 0 to {SEQ_MAX} is required",
            )
        try:
            new, v = hub.ingest(table.id, body)
        except EventError as exc:
            raise HTTPException(status.HTTP_422_UNPROCESSABLE_ENTITY, f"event {i}: {exc}") from None
        stored += new
        skipped += not new
        verdicts.extend(v)
    return {"stored": stored, "skipped": skipped, "verdicts": verdicts}
