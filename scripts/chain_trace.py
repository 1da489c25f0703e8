"""Traces the chain's mistakes on recorded games (``chain_cache.py record``): which plays went to the wrong deck or to
nobody, what the referee was shown around a moment, and how a suit's piles were logged against the truth.

python scripts/chain_trace.py wrong out/e2e-s10/game0{0,1,2} --tag watch       # misattributed and unattributed plays
python scripts/chain_trace.py views out/e2e-s12/game00 --tag watch --start 24.3 --end 25 --players p2,p4 [--piles]
python scripts/chain_trace.py suits out/e2e-s12/game00 --tag watch --suits CS  # the chain's and the truth's plays
python scripts/chain_trace.py middle out/e2e-check/game01 --tag watch --start 12.5 --end 17.5 --at 483,386
python scripts/chain_trace.py demon out/e2e-s36/game00 --tag cand --players p4   # flips, ladders, demon plays
python scripts/chain_trace.py scores out/r-s1*/game0? --tag m896  # why each wrong score is wrong, and a summary
"""

from __future__ import annotations

import argparse
import pickle
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np
from chain_cache import replay

from referee.events import Correction, Event, Flip, Ladder, Play
from referee.game import replay as referee_replay
from referee.tableview import TableView
from vision.e2e import load_game, misattributed, scored_plays
from vision.pipeline import Chain


def _evidence(e: Play) -> dict[str, Any]:
    return {k: v for k, v in e.extra.items() if k != "frame"}


def wrong(game: Path, tag: str) -> None:
    """Each recovered play credited to another deck or to nobody: the truth's player, place and time beside the
    chain's, with the evidence the chain logged (confidence, candidates, inferred, read as)."""
    _, chain = replay(game, tag)
    truth, _, _ = load_game(game)
    true_plays, plays = scored_plays(truth, referee_replay(truth), chain.events, referee_replay(chain.events))
    for t, e in misattributed(true_plays, plays):
        print(f"{game} {e.card!s:4} truth {t.player} {t.source or '?':7} {t.t:6.2f} s | chain {e.player} "
              f"{e.source or '?':7} {e.t:6.2f} s seq {e.seq} {_evidence(e)}")  # fmt: skip


def views(game: Path, tag: str, start: float, end: float, players: list[str], piles: bool) -> None:
    """The table views the referee was given between ``start`` and ``end`` (film seconds): each player's demon,
    line and waste as read, and (``piles``) every foundation with its top, where it was tracked from and how surely
    it was read."""
    shown: list[TableView] = []
    step = Chain._step

    def spy(self: Chain, view: TableView) -> None:
        if start <= view.t <= end:
            shown.append(view)
        step(self, view)

    Chain._step = spy  # type: ignore[method-assign]
    try:
        replay(game, tag)
    finally:
        Chain._step = step  # type: ignore[method-assign]
    for view in shown:
        areas = []
        for p in view.players:
            if p.id in players:
                line = " ".join(str(c) if c else "-" for c in p.line)
                areas.append(
                    f"{p.id}: demon {p.demon_top} line {line} waste {p.waste_top}{' (covered)' if p.occluded else ''}"
                )
        middle = [f"{f.id} {f.top} from {f.origin} {f.confidence:.2f}" for f in view.foundations] if piles else []
        print(f"{view.t:6.2f}", " | ".join(areas), ("| " + ", ".join(middle)) if middle else "")


def suits(game: Path, tag: str, letters: str) -> None:
    """The chain's plays and corrections of cards of these suits (C, D, H, S), then the truth's."""
    _, chain = replay(game, tag)
    truth, _, _ = load_game(game)

    def of(e: Event) -> bool:
        return isinstance(e, Play) and e.card.suit is not None and e.card.suit.value in letters

    print("chain:")
    for e in chain.events:
        if of(e) or isinstance(e, Correction):
            what = (
                f"{e.player} {e.card} on {e.pile} from {e.source}" if isinstance(e, Play) else f"{e.action} {e.target}"
            )
            print(f"  {e.t:6.2f} seq {e.seq} {type(e).__name__.lower()} {what}",
                  _evidence(e) if isinstance(e, Play) else getattr(e, "reason", ""))  # fmt: skip
    print("truth:")
    for e in truth:
        if of(e):
            assert isinstance(e, Play)
            print(f"  {e.t:6.2f} seq {e.seq} {e.player} {e.card} on {e.pile} from {e.source}")


def demon(game: Path, tag: str, players: list[str]) -> None:
    """Each player's demon as the chain logged it (flips, moves to the line, plays from it, and the corrections of
    those), then as the truth has it: where a demon count goes wrong."""
    _, chain = replay(game, tag)
    truth, _, _ = load_game(game)
    for who in players:
        for name, events in (("chain", chain.events), ("truth", truth)):
            print(f"{who} {name}:")
            mine = {e.seq for e in events if getattr(e, "player", None) == who}
            for e in events:
                if isinstance(e, Flip) and e.player == who:
                    print(f"  {e.t:6.2f} seq {e.seq} flip {e.card}", {k: v for k, v in e.extra.items() if k != "frame"})
                elif isinstance(e, Ladder) and e.player == who and e.source == "demon":
                    print(f"  {e.t:6.2f} seq {e.seq} ladder {e.card} to {e.to}")
                elif isinstance(e, Play) and e.player == who and e.source == "demon":
                    print(f"  {e.t:6.2f} seq {e.seq} play {e.card} on {e.pile}")
                elif isinstance(e, Correction) and e.target in mine:
                    print(f"  {e.t:6.2f} seq {e.seq} correction {e.action} of {e.target}: {e.reason}")


def scores(games: list[Path], tag: str) -> None:
    """Why each player-round's score is wrong: the parts of it that differ (``e2e.compare``'s ``score_misses``: the
    chain's count minus the truth's) and the plays behind them: the player's plays credited to another deck or to
    nobody (lost), other decks' plays credited to them (gained), their plays not recovered. Then, over all the games,
    how many wrong player-rounds had each mix of causes, and where the misattributed plays came from."""
    causes: Counter[tuple[str, ...]] = Counter()
    sources: Counter[str] = Counter()
    for game in games:
        r, _ = replay(game, tag)
        truth, _, _ = load_game(game)
        player_of = {(str(e.card), e.pile): e.player for e in truth if isinstance(e, Play)}
        # "source card truth>chain" -> (source, card, the truth's player, the chain's)
        wrong = [(source, card, *pair.split(">")) for source, card, pair in map(str.split, r["misattributed"])]
        sources.update("line" if source.startswith("line:") else source for source, *_ in wrong)
        for pid, parts in sorted(r["score_misses"].items()):
            lost = [f"{card} ({source}) to {to}" for source, card, by, to in wrong if by == pid]
            gained = [f"{card} ({source}) from {by}" for source, card, by, to in wrong if to == pid]
            missed = [m for m in r["plays_missed"] if player_of.get(tuple(m.split())) == pid]
            cause = [name for name, plays in (("lost", lost), ("gained", gained), ("not recovered", missed)) if plays]
            causes[(*cause, *(["demon count"] if "demon_left" in parts else []))] += 1
            print(f"{game} {pid} {parts} lost {lost} gained {gained} not recovered {missed}")
    print("wrong player-rounds by cause:")
    for mix, n in causes.most_common():
        print(f"  {n:4} {' + '.join(mix) or 'other'}")
    print("misattributed plays by where the card came from:", dict(sources.most_common()))


def middle(game: Path, tag: str, start: float, end: float, at: tuple[float, float] | None) -> None:
    """What the tracker handed the table model in the middle (outside every player's area) between ``start`` and
    ``end``, frame by frame: track, reading and its probability, moving or still, where (table mm), the top three
    readings; only within 60 mm of ``at`` (table mm) when given. Finds a pile's place with ``views --piles``."""
    with (game / f"cache-{tag}.pkl").open("rb") as f:
        frames = pickle.load(f)["frames"]
    _, chain = replay(game, tag, arms=False)  # for the seats found in the recording
    cal, model = chain.calibration, chain.model
    assert cal is not None and model is not None
    for t, _index, _shape, seen in frames:
        if not start <= t <= end:
            continue
        out = []
        for s in seen:
            if s.back or s.card is None:
                continue
            xy = cal.to_table(np.array([s.centre()]))[0]
            if model.assign(xy)[0] is not None or (at is not None and np.linalg.norm(xy - np.asarray(at)) > 60):
                continue
            top3 = ",".join(f"{c}:{p:.2f}" for c, p in s.candidates[:3])
            out.append(f"[{s.track} {s.card} {s.conf:.2f} {'still' if s.static else 'moving'} "
                       f"({xy[0]:.0f},{xy[1]:.0f}) {top3}]")  # fmt: skip
        print(f"{t:6.2f}", " ".join(out))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("what", choices=("wrong", "views", "suits", "middle", "demon", "scores"))
    ap.add_argument("games", nargs="+", type=Path, help="games recorded with chain_cache.py record")
    ap.add_argument("--tag", default="models", help="the recording: GAME/cache-TAG.pkl")
    ap.add_argument("--start", type=float, default=0.0)
    ap.add_argument("--end", type=float, default=1e9)
    ap.add_argument("--players", default="p1,p2,p3,p4", help="views, demon: whose areas to show")
    ap.add_argument("--piles", action="store_true", help="views: show the foundations too")
    ap.add_argument("--suits", default="CDHS", help="suits: which suits' plays to list")
    ap.add_argument("--at", help="middle: only near this place, table mm 'x,y'")
    args = ap.parse_args()
    if args.what == "scores":
        scores(args.games, args.tag)
        return
    for game in args.games:
        if args.what == "wrong":
            wrong(game, args.tag)
        elif args.what == "views":
            views(game, args.tag, args.start, args.end, args.players.split(","), args.piles)
        elif args.what == "demon":
            demon(game, args.tag, args.players.split(","))
        elif args.what == "middle":
            at = tuple(float(v) for v in args.at.split(",")) if args.at else None
            middle(game, args.tag, args.start, args.end, at)  # type: ignore[arg-type]
        else:
            suits(game, args.tag, args.suits)


if __name__ == "__main__":
    main()
