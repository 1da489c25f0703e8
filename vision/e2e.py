"""End-to-end measurement on rendered games: the chain's event log against the ground-truth log."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.events import Correction, Event, Out, Play, RoundStart, read_log
from referee.game import RoundState, replay
from referee.scoring import PlayerScore, tally

TAIL_SECONDS = 1.0  # when only part of a round was filmed, what happened this close to the cut is out of scope


def _without_late(chain: list[Event], late: list[Event], cut: float) -> list[Event]:
    """``chain`` without one of its events after ``cut`` for each of the truth's ``late`` events, matched by type and
    card (the same player's first, else the latest). One for one: a play of a card that landed before the cut, logged
    after it, stays when another copy of that card came in the tail (e2e-s53/game00: p3's 3S landed 0.3 s before the
    cut, p1's copy on it after; both were logged after the cut, and p3's was dropped with p1's)."""
    after = [e for e in chain if e.t > cut]
    dropped: set[int] = set()
    for t in late:
        same = [e for e in after if e.seq not in dropped and type(e) is type(t)
                and str(getattr(e, "card", "")) == str(getattr(t, "card", ""))]  # fmt: skip
        if same:
            mine = [e for e in same if getattr(e, "player", None) == getattr(t, "player", None)]
            dropped.add(mine[0].seq if mine else same[-1].seq)
    return [e for e in chain if e.seq not in dropped]


def compare(
    truth: list[Event], chain: list[Event], *, until: float | None = None, injected: Collection[int] = ()
) -> dict[str, Any]:
    """Plays recovered (card and pile), attribution, exact scores, flags found/missed/false and the latency
    from a card landing to its event. When only the first ``until`` seconds of the round were filmed, events of
    the last ``TAIL_SECONDS`` before the cut are left out on both sides: a camera cannot log what it has not yet
    had time to see settle, and the chain's events for them are dropped by type and card. ``injected``: the seqs
    of the truth's injected illegal plays (``injected_seqs``), scored apart from the conflicts that arise between
    players as ``injected_flagged`` of ``injected`` (those filmed)."""
    if until is not None:
        cut = until - TAIL_SECONDS
        truth_all, truth = truth, [e for e in truth if e.t <= cut]
        chain = _without_late(chain, [e for e in truth_all if cut < e.t <= until], cut)
        # The camera infers an Out from the demon emptying, a moment before the player calls it: an Out called
        # after the cut (or just after the film ends) leaves out the chain's Out of that player too.
        called_late = {e.player for e in truth_all if isinstance(e, Out) and cut < e.t <= until + TAIL_SECONDS}
        chain = [e for e in chain if not (isinstance(e, Out) and e.player in called_late)]
        kept = {e.seq for e in chain}
        chain = [e for e in chain if not isinstance(e, Correction) or e.target is None or e.target in kept]
    truth_state = replay(truth)
    chain_state = replay(chain)
    true_plays, chain_plays = scored_plays(truth, truth_state, chain, chain_state)
    want = Counter((str(e.card), e.pile) for e in true_plays)
    got = Counter((str(e.card), e.pile) for e in chain_plays)
    hit = sum((want & got).values())
    owner = {(str(e.card), e.pile): e for e in true_plays}
    attributed = [e for e in chain_plays if (str(e.card), e.pile) in owner]
    wrong = misattributed(true_plays, chain_plays)
    right = len(attributed) - len(wrong)
    latency = [e.t - owner[(str(e.card), e.pile)].t for e in attributed if not e.extra.get("inferred")]
    t_tally, c_tally = tally(truth_state).by_id(), tally(chain_state).by_id()
    t_scores = {pid: p.score for pid, p in t_tally.items()}
    c_scores = {pid: p.score for pid, p in c_tally.items()}
    # Flags: the truth's (injected illegal plays, conflicts) against the chain's, by code and card.
    t_flags = Counter((v.code, str(v.card)) for v in truth_state.flags)
    c_flags = Counter((v.code, str(v.card)) for v in chain_state.flags)
    planted_seqs = set(injected)
    planted = Counter((v.code, str(v.card)) for v in truth_state.flags if v.seq in planted_seqs)
    return {
        "plays": len(true_plays),
        "plays_missed": sorted(f"{card} {pile}" for card, pile in (want - got).elements()),
        "plays_extra": sorted(f"{card} {pile}" for card, pile in (got - want).elements()),
        "recall": hit / max(1, sum(want.values())),
        "precision": hit / max(1, sum(got.values())),
        "attribution": right / max(1, len(attributed)),
        # Plays recovered but not given to the one who played them, by where the card came from.
        "misattributed": sorted(f"{t.source or '?'} {e.card} {t.player}>{e.player}" for t, e in wrong),
        "unattributed": sum(1 for e in chain_plays if e.player is None),
        "scores_exact": sum(1 for p in t_scores if t_scores[p] == c_scores.get(p)),
        "player_rounds": len(t_scores),
        "flags_found": sum((t_flags & c_flags).values()),
        "flags_missed": sorted(f"{c} {card}" for c, card in (t_flags - c_flags).elements()),
        "flags_false": sorted(f"{c} {card}" for c, card in (c_flags - t_flags).elements()),
        "truth_flags": sum(t_flags.values()),
        "injected": sum(planted.values()),
        "injected_flagged": sum((planted & c_flags).values()),
        "injected_missed": sorted(f"{c} {card}" for c, card in (planted - c_flags).elements()),
        "latency_median_ms": round(1000 * statistics.median(latency)) if latency else None,
        "scores": {"truth": t_scores, "chain": c_scores},
        "score_misses": _score_misses(t_tally, c_tally),
    }


def _score_misses(truth: dict[str, PlayerScore], chain: dict[str, PlayerScore]) -> dict[str, dict[str, int]]:
    """Why each player-round's score is not exact: the chain's count minus the truth's, of each part of the score
    that differs (cards played, cards left in the demon, Kings, out)."""
    misses: dict[str, dict[str, int]] = {}
    for pid, want in truth.items():
        got = chain.get(pid)
        if got is None or got.score == want.score:
            continue
        parts = {"played": (want.played, got.played), "demon_left": (want.demon_left, got.demon_left),
                 "kings": (want.kings, got.kings), "out": (int(want.out), int(got.out))}  # fmt: skip
        misses[pid] = {part: b - a for part, (a, b) in parts.items() if a != b}
    return misses


def scored_plays(
    truth: list[Event], truth_state: RoundState, chain: list[Event], chain_state: RoundState
) -> tuple[list[Play], list[Play]]:
    """The plays to score: the truth's that its rules accepted, and the chain's with its corrections applied (who
    played them, which card), without those its rules refused (scored as flags, found or false), on piles named as
    the truth names them. ``*_state``: each log replayed."""
    bad = {v.seq for v in truth_state.flags}
    true_plays = [e for e in truth if isinstance(e, Play) and e.seq not in bad]
    reassigned = {
        e.target: e.player for e in chain if isinstance(e, Correction) and e.action in ("reassign", "unassign")
    }
    recarded = {e.target: e.card for e in chain if isinstance(e, Correction) and e.action == "fix-card"}
    refused = {v.seq for v in chain_state.flags if v.code != "unattributed"}
    refused |= {e.target for e in chain if isinstance(e, Correction) and e.action == "reject" and e.target is not None}
    chain_plays = [replace(e, player=reassigned.get(e.seq, e.player), card=recarded.get(e.seq) or e.card)
                   for e in chain if isinstance(e, Play) and e.seq not in refused]  # fmt: skip
    names = pile_names(true_plays, chain_plays)
    return true_plays, [replace(e, pile=names.get(e.pile, e.pile)) for e in chain_plays]


def misattributed(true_plays: list[Play], chain_plays: list[Play]) -> list[tuple[Play, Play]]:
    """(the truth's play, the chain's) for each recovered play the chain credited to another deck or to nobody, in
    the chain's order (``scored_plays``' lists)."""
    owner = {(str(e.card), e.pile): e for e in true_plays}
    return [(t, e) for e in chain_plays if (t := owner.get((str(e.card), e.pile))) is not None and e.player != t.player]


def pile_names(truth: list[Play], chain: list[Play]) -> dict[str, str]:
    """The chain names piles in the order it sees them; the truth in the order they were started. Pairs each
    chain pile with the truth pile of the same suit that holds most of the same cards, started nearest in time."""
    import lap
    import numpy as np

    def piles(plays: list[Play]) -> dict[str, tuple[set[str], float, str | None]]:
        out: dict[str, tuple[set[str], float, str | None]] = {}
        for e in plays:
            cards, t0, suit = out.get(e.pile, (set(), e.t, e.card.suit))
            cards.add(str(e.card))
            out[e.pile] = (cards, min(t0, e.t), suit)
        return out

    t_piles, c_piles = piles(truth), piles(chain)
    if not t_piles or not c_piles:
        return {}
    t_ids, c_ids = list(t_piles), list(c_piles)
    cost = np.full((len(c_ids), len(t_ids)), 1e6)
    for i, c in enumerate(c_ids):
        c_cards, c_t0, c_suit = c_piles[c]
        for j, t in enumerate(t_ids):
            t_cards, t_t0, t_suit = t_piles[t]
            if c_suit == t_suit:
                cost[i, j] = -10.0 * len(c_cards & t_cards) + min(abs(c_t0 - t_t0), 60.0)
    _, x, _ = lap.lapjv(cost, extend_cost=True, cost_limit=1e5)
    return {c_ids[i]: t_ids[j] for i, j in enumerate(x) if j >= 0 and cost[i, j] < 1e6}


def load_game(game: Path) -> tuple[list[Event], RoundStart, float | None]:
    """A rendered game's true log, its round_start, and how many seconds were filmed (None: all of it)."""
    truth = read_log(game / "events.jsonl")
    start = truth[0]
    if not isinstance(start, RoundStart):
        raise ValueError(f"{game}/events.jsonl does not start with round_start")
    filmed = json.loads((game / "render.json").read_text())["seconds"] if (game / "render.json").exists() else None
    return truth, start, filmed


def injected_seqs(game: Path) -> list[int]:
    """The seqs of a rendered game's injected illegal plays (``render.json``; none for a game without one)."""
    path = game / "render.json"
    if not path.exists():
        return []
    return [int(seq) for seq in json.loads(path.read_text()).get("injected", {}).values()]


def evaluate_game(game: Path, *, reader: Any | None = None, process_fps: float = 15.0) -> dict[str, Any]:
    """Reviews a rendered game (``reader`` None: the oracle's detections from truth.jsonl) and compares the
    chain's log with the truth. The review goes to ``game/review-oracle`` or ``game/review-models``."""
    from vision.review import review

    truth, start, filmed = load_game(game)
    players = [(p.id, p.back) for p in start.players]
    out = game / ("review-oracle" if reader is None else "review-models")
    result = review(game / "game.mp4", out, rules=start.rules, options=dict(start.options), players=players,
                    reader=reader, truth=game / "truth.jsonl" if reader is None else None,
                    process_fps=process_fps, annotate=reader is not None, report=reader is not None)  # fmt: skip
    r = compare(truth, result.events, until=filmed, injected=injected_seqs(game))
    r["seconds"] = round(result.seconds, 2)
    r["notes"] = result.notes
    return r
