"""The pages: static HTML fed by the JSON API and SSE (no build chain)."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

from dashboard.deps import TableDep

router = APIRouter(tags=["pages"])
STATIC = Path(__file__).resolve().parents[1] / "static"


def _page(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


@router.get("/", response_class=HTMLResponse)
def tournament() -> str:
    """Every table's live state on one page."""
    return _page("tournament.html")


@router.get("/review", response_class=HTMLResponse)
def review_page() -> str:
    """Load an events.jsonl (and its video) and scrub through the round."""
    return _page("review.html")


@router.get("/setup", response_class=HTMLResponse)
def setup_page() -> str:
    """Players and back colours, rule preset and options, calibration steps; makes the table and the rig command."""
    return _page("setup.html")


@router.get("/tables/{table_id}", response_class=HTMLResponse)
def live_table(table: TableDep) -> str:
    return _page("table.html")


@router.get("/tables/{table_id}/match", response_class=HTMLResponse)
def match_page(table: TableDep) -> str:
    """The scoreboard across the table's rounds with the running totals as a chart."""
    return _page("match.html")
