"""The pages: the tournament overview and each table's live page (static HTML fed by SSE)."""

from __future__ import annotations

from html import escape
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from dashboard.deps import HubDep, TableDep

router = APIRouter(tags=["pages"])
STATIC = Path(__file__).resolve().parents[1] / "static"


@router.get("/", response_class=HTMLResponse)
def tournament(hub: HubDep) -> str:
    rows = "".join(
        f'<li><a href="/tables/{escape(t.id)}">{escape(t.name)}</a> — {t.state.status.value}, {len(t.state.history)} events</li>'
        for t in hub.tables.values()
    )
    return f"<!doctype html><title>demonref — tables</title><h1>Tables</h1><ul>{rows or '<li>no tables yet</li>'}</ul>"


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def live_table(table: TableDep) -> str:
    return (STATIC / "table.html").read_text(encoding="utf-8")
