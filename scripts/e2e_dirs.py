"""Scores the camera chain on rendered games already on disk (oracle by default): one line per game.

python scripts/e2e_dirs.py out/mis1 out/late1 [--models models] [--combine sum]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from vision.e2e import evaluate_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", type=Path, help="folders made by `demonref render-game`")
    ap.add_argument("--models", type=Path, help="read the cards with these models instead of the oracle")
    ap.add_argument("--fps", type=float, default=15.0)
    ap.add_argument("--combine", default="max", choices=("max", "sum"), help="how the identifier pools its views")
    args = ap.parse_args()
    reader = None
    if args.models is not None:
        from vision.models import CardReader

        reader = CardReader.load(args.models, combine=args.combine, watch=True)
    for game in args.games:
        r = evaluate_game(game, reader=reader, process_fps=args.fps)
        keep = ("plays", "recall", "precision", "attribution", "scores_exact", "player_rounds", "flags_found",
                "truth_flags", "flags_missed", "flags_false", "latency_median_ms", "plays_missed", "plays_extra")  # fmt: skip
        print(game, json.dumps({k: r[k] for k in keep}), flush=True)


if __name__ == "__main__":
    main()
