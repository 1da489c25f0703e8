"""Reading the tables: list, state snapshot, live stream (SSE: a full snapshot on connect and on change)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import StreamingResponse

from dashboard.deps import HubDep, TableDep
from dashboard.hub import snapshot

router = APIRouter(prefix="/api/tables", tags=["state"])


@router.get("")
def list_tables(hub: HubDep) -> list[dict[str, Any]]:
    return [
        {"id": t.id, "name": t.name, "status": t.state.status.value, "events": len(t.state.history)}
        for t in hub.tables.values()
    ]


@router.get("/{table_id}/state")
def table_state(table: TableDep) -> dict[str, Any]:
    return snapshot(table)


@router.get("/{table_id}/stream")
async def table_stream(table: TableDep, request: Request) -> StreamingResponse:
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=8)
    table.subscribers.add(queue)

    async def events() -> AsyncIterator[str]:
        try:
            yield f"event: snapshot\ndata: {json.dumps(snapshot(table))}\n\n"
            while not await request.is_disconnected():
                try:
                    data = await asyncio.wait_for(queue.get(), timeout=15)
                except TimeoutError:
                    yield ": keep-alive\n\n"
                    continue
                yield f"event: snapshot\ndata: {json.dumps(data)}\n\n"
        finally:
            table.subscribers.discard(queue)

    return StreamingResponse(events(), media_type="text/event-stream", headers={"Cache-Control": "no-cache"})
