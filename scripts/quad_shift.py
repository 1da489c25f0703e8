"""How far the detector's quads lie from the cards they read, and whether reading a quad moved along the card
would read better: on games recorded with `chain_cache.py record` (their truth beside them).

For each face whose index shows, in every STEP-th recorded frame, the tracked quad nearest the true one is read
as it is and moved by a share of its width or height either way; a rule picks the move whose whole-card view is
the surest and reads it as the identifier does (the most confident of its three views). Fully visible cards
and covered ones are scored apart; then, by how far the quad's centre lies from the card's (share of the card's
size), how often the chain's own pooled reading was right.

python scripts/quad_shift.py out/e2e-s10/game0{0,1,2} --tag int8 [--step 60] [--models models]
"""

from __future__ import annotations

import argparse
import json
import pickle
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.detections import card_corners
from vision.models import CardIdentifier, pool_views

MOVES = [(0, 0.0)] + [(axis, s) for m in (0.08, 0.12, 0.16) for axis in (0, 1) for s in (-m, m)]
BANDS = ((0.0, 0.04), (0.04, 0.08), (0.08, 0.12), (0.12, 0.2), (0.2, 0.5))


def _size(quad: np.ndarray) -> float:
    a, b = quad[1] - quad[0], quad[3] - quad[0]
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0])))


def _rules(p: np.ndarray) -> dict[str, int]:
    """Class read by each rule from the views of every move (moves, 3 views, classes)."""
    out = {"as detected": int(np.argmax(pool_views(p[0], "max")))}
    for most in (0.08, 0.12, 0.16):
        allowed = [i for i, (_, s) in enumerate(MOVES) if abs(s) <= most + 1e-9]
        k = max(allowed, key=lambda i: p[i, 0].max())
        out[f"surest whole view, moves up to {most}"] = int(np.argmax(pool_views(p[k], "max")))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("games", nargs="+", type=Path)
    ap.add_argument("--tag", required=True, help="the recording: GAME/cache-TAG.pkl")
    ap.add_argument("--step", type=int, default=60, help="read every STEP-th recorded frame")
    ap.add_argument("--models", type=Path, default=Path("models"))
    args = ap.parse_args()
    ide = CardIdentifier(args.models / "identifier.pt")
    names = ide.names
    stats = Counter[tuple[str, str]]()
    shifts: list[tuple[float, bool]] = []
    for game in args.games:
        with (game / f"cache-{args.tag}.pkl").open("rb") as f:
            recorded = {index: seen for _, index, _, seen in pickle.load(f)["frames"]}
        truth = (game / "truth.jsonl").read_text(encoding="utf-8").splitlines()
        video = cv2.VideoCapture(str(game / "game.mp4"))
        at = -1
        for index in sorted(recorded)[5 :: args.step]:
            while at < index:
                _, image = video.read()
                at += 1
            items = []
            for c in json.loads(truth[index])["cards"]:
                if c["card"] == "back" or not c["index_visible"]:
                    continue
                true = np.asarray(c["quad"], np.float64)
                near = min(
                    recorded[index], key=lambda s: float(np.linalg.norm(s.centre() - true.mean(0))), default=None
                )
                if near is None or near.card is None:
                    continue
                off = float(np.linalg.norm(near.centre() - true.mean(0))) / _size(true)
                if off > 0.5:
                    continue
                if c["visible"] >= 0.9:
                    shifts.append((off, near.card == c["card"]))
                q = card_corners(np.asarray(near.quad, np.float64))
                sides = (q[1] - q[0], q[3] - q[0])
                items.append((c, [q + s * sides[axis] for axis, s in MOVES]))
            crops = [v for _, quads in items for quad in quads for v in ide.views(image, quad)]
            if not crops:
                continue
            probs = ide.classify(crops).reshape(len(items), len(MOVES), 3, -1)
            for (c, _), p in zip(items, probs, strict=True):
                part = "whole" if c["visible"] >= 0.9 else "covered"
                stats[part, ""] += 1
                for rule, label in _rules(p).items():
                    stats[part, rule] += names[label] == c["card"]
        print(game, flush=True)
    for part in ("whole", "covered"):
        n = stats[part, ""]
        print(f"{part} cards with an index showing: {n}")
        for (p, rule), hits in stats.items():
            if p == part and rule:
                print(f"  {rule:<36} {hits / max(1, n):.3f}")
    off = np.array([s for s, _ in shifts])
    right = np.array([r for _, r in shifts])
    print("whole cards, the chain's pooled reading by how far its quad lies off (share of the card's size):")
    for lo, hi in BANDS:
        m = (off >= lo) & (off < hi)
        print(f"  {lo:.2f}-{hi:.2f}: {int(m.sum()):6d} cards, {right[m].mean() if m.any() else 0:.3f} right")


if __name__ == "__main__":
    main()
