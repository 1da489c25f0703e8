"""End-to-end measurement on rendered games: the chain's event log against the ground-truth log."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.events import Correction, Event, Out, Play, PlayerSpec, RoundEnd, RoundStart, read_log
from referee.game import replay
from referee.reconstruct import reconstruct
from referee.scoring import tally
from referee.tableview import TableView
from vision.oracle import stable_views, view_from_truth


def camera_start(truth_start: RoundStart) -> RoundStart:
    """What the table tells a camera at round start: players, backs and demon sizes, not the deal."""
    players = tuple(PlayerSpec(p.id, p.demon, p.name, p.back, p.members) for p in truth_start.players)
    return replace(truth_start, players=players)


def oracle_views(game: Path, start: RoundStart, line_size: int) -> list[TableView]:
    players = [p.id for p in start.players]
    with (game / "truth.jsonl").open(encoding="utf-8") as fh:
        return list(stable_views(view_from_truth(json.loads(line), players, line_size) for line in fh))


def chain_log(start: RoundStart, views: list[TableView]) -> list[Event]:
    """round_start, the reconstructed events, Out for the one player whose demon is seen empty, round_end."""
    events: list[Event] = [camera_start(start), *reconstruct(views)]
    if views:
        last = views[-1]
        empty = [p.id for p in last.players if p.demon_top is None and not p.occluded]
        seq = events[-1].seq + 1
        if len(empty) == 1:
            events.append(Out(seq=seq, t=last.t, player=empty[0], extra={"inferred": True}))
            seq += 1
        events.append(RoundEnd(seq=seq, t=last.t, reason="video ended"))
    return events


def compare(truth: list[Event], chain: list[Event], *, until: float | None = None) -> dict[str, Any]:
    """Plays recovered (card and pile), attribution, exact scores and flags (truth cut at ``until`` seconds
    when only part of the round was filmed)."""
    if until is not None:
        truth = [e for e in truth if e.t <= until]
    truth_state = replay(truth)
    bad = {v.seq for v in truth_state.flags}
    true_plays = [e for e in truth if isinstance(e, Play) and e.seq not in bad]
    chain_state = replay(chain)
    reassigned = {e.target: e.player for e in chain if isinstance(e, Correction) and e.action == "reassign"}
    chain_plays = [replace(e, player=reassigned.get(e.seq, e.player)) for e in chain if isinstance(e, Play)]
    want = Counter((str(e.card), e.pile) for e in true_plays)
    got = Counter((str(e.card), e.pile) for e in chain_plays)
    hit = sum((want & got).values())
    owner = {(str(e.card), e.pile): e.player for e in true_plays}
    attributed = [e for e in chain_plays if (str(e.card), e.pile) in owner]
    right = sum(1 for e in attributed if e.player == owner[(str(e.card), e.pile)])
    t_scores = {p.id: p.score for p in tally(truth_state).players}
    c_scores = {p.id: p.score for p in tally(chain_state).players}
    return {
        "plays": len(true_plays),
        "recall": hit / max(1, sum(want.values())),
        "precision": hit / max(1, sum(got.values())),
        "attribution": right / max(1, len(attributed)),
        "unattributed": sum(1 for e in chain_plays if e.player is None),
        "scores_exact": sum(1 for p in t_scores if t_scores[p] == c_scores.get(p)),
        "player_rounds": len(t_scores),
        "truth_flags": sorted({v.code for v in truth_state.flags}),
        "chain_flags": sorted({v.code for v in chain_state.flags}),
        "scores": {"truth": t_scores, "chain": c_scores},
    }


def evaluate_game(game: Path) -> dict[str, Any]:
    truth = read_log(game / "events.jsonl")
    start = truth[0]
    if not isinstance(start, RoundStart):
        raise ValueError(f"{game}/events.jsonl does not start with round_start")
    line_size = replay(truth[:1]).rules.line_size
    views = oracle_views(game, start, line_size)
    chain = chain_log(start, views)
    filmed = json.loads((game / "render.json").read_text())["seconds"] if (game / "render.json").exists() else None
    return compare(truth, chain, until=filmed)
