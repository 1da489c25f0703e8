"""The oracle detector: table views read straight from a rendered game's truth, so tracking, reconstruction
and attribution can be measured before recognition is (a perfect reader that still suffers hands)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any

from referee.cards import Card
from referee.tableview import PileView, PlayerView, TableView

COVERED = 0.9  # a playable card shown less than this is taken as covered (by a hand)


def view_from_truth(frame: Mapping[str, Any], players: list[str], line_size: int) -> TableView:
    """One TableView from one line of ``truth.jsonl``. Within a zone the last card listed lies on top."""
    tops: dict[tuple[str | None, str], dict[str, Any]] = {}
    hands: set[str] = set()
    for c in frame["cards"]:
        if c["zone"] == "hand":
            hands.add(c["owner"])
            continue
        tops[(c["owner"], c["zone"])] = c  # later entries are drawn above earlier ones
    # A foundation's top is its last card, whoever's it is.
    by_pile: dict[str, dict[str, Any]] = {}
    for c in frame["cards"]:
        if c["zone"].startswith(("foundation:", "kings:")):  # a completed pile set aside still shows its King
            by_pile[c["zone"].split(":", 1)[1]] = c
    foundations = tuple(
        PileView(pid, 0.0, 0.0, Card.parse(c["card"]), 1.0) for pid, c in by_pile.items() if c["visible"] >= COVERED
    )

    def top(pid: str, zone: str) -> Card | None:
        c = tops.get((pid, zone))
        return Card.parse(c["card"]) if c is not None and c["card"] != "back" else None

    views = []
    for pid in players:
        covered = pid in hands or any(
            c["visible"] < COVERED for (owner, zone), c in tops.items()
            if owner == pid and (zone in ("demon", "waste") or zone.startswith("line:"))
        )  # fmt: skip
        views.append(
            PlayerView(
                pid,
                demon_top=top(pid, "demon"),
                line=tuple(top(pid, f"line:{i + 1}") for i in range(line_size)),
                waste_top=top(pid, "waste"),
                occluded=covered,
            )
        )
    return TableView(float(frame["t"]), int(frame["frame"]), foundations, tuple(views))


def stable_views(views: Iterable[TableView], frames: int = 3) -> Iterator[TableView]:
    """Every view, marked ``settled`` once its foundations have not changed for ``frames`` frames in a row
    (a card being put down is not committed half-way); players' areas are read from every view."""
    last_key: object = None
    run = 0
    for v in views:
        key = v.foundations
        run = run + 1 if key == last_key else 1
        last_key = key
        yield replace(v, settled=run >= frames)
