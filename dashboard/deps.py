"""Shared dependencies: the hub, and the two kinds of bearer token."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, HTTPException, Path, Request, status

from dashboard.hub import Hub, LiveTable


def get_hub(request: Request) -> Hub:
    return request.app.state.hub  # type: ignore[no-any-return]


HubDep = Annotated[Hub, Depends(get_hub)]

SEQ_MAX = 2**63 - 1  # an event's seq is stored in a 64-bit SQL integer
# An event's seq in a path: a number past what the database holds is a 422, not a server error.
SeqPath = Annotated[int, Path(ge=0, le=SEQ_MAX, description="An event's seq.")]


def _bearer(authorization: str | None) -> str:
    if not authorization or not authorization.lower().startswith("bearer "):
        raise HTTPException(
            status.HTTP_401_UNAUTHORIZED, "a bearer token is required", headers={"WWW-Authenticate": "Bearer"}
        )
    return authorization.split(" ", 1)[1].strip()


def get_table(table_id: str, hub: HubDep) -> LiveTable:
    table = hub.tables.get(table_id)
    if table is None:
        raise HTTPException(status.HTTP_404_NOT_FOUND, f"no table {table_id!r}")
    return table


TableDep = Annotated[LiveTable, Depends(get_table)]


def require_admin(hub: HubDep, authorization: Annotated[str | None, Header()] = None) -> None:
    if not hub.store.check_admin(_bearer(authorization)):
        raise HTTPException(status.HTTP_403_FORBIDDEN, "the adjudicator token is wrong")


def require_rig(table: TableDep, hub: HubDep, authorization: Annotated[str | None, Header()] = None) -> None:
    if not hub.store.check_rig(table.id, _bearer(authorization)):
        raise HTTPException(status.HTTP_403_FORBIDDEN, f"the rig token of table {table.id!r} is wrong")


AdminDep = Annotated[None, Depends(require_admin)]
RigDep = Annotated[None, Depends(require_rig)]
