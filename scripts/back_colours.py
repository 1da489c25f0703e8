"""How well the backs' colours name their decks, on rendered frames (never the evaluation photos).

For every rendered frame, each player's face-down cards lying in full view are measured the way seats are at
round start (``vision.table.back_colour``, the median per player); then (a) the nearest of all named colours,
(b) the seat naming of ``vision.table`` (one colour per player among the players' own colours) is scored.

python scripts/back_colours.py --frames 60 --seed 5000
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict

import numpy as np

from vision.synth.dataset import plan_frame, render_frame, simulate_plan
from vision.table import back_colour, colour_cost, colour_name


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=60)
    ap.add_argument("--seed", type=int, default=5000)
    args = ap.parse_args()
    import lap

    nearest_ok = nearest_n = seat_ok = seat_n = 0
    confused: Counter[tuple[str, str]] = Counter()
    for i in range(args.frames):
        plan = plan_frame(args.seed, i)
        frame, truths = render_frame(plan)
        measured: dict[str, list[tuple[float, float, float]]] = defaultdict(list)
        for t in truths:
            if t.card == "back" and t.visible >= 0.9 and t.zone != "hand" and t.owner:
                measured[t.owner].append(back_colour(frame, np.array(t.quad)))
        colours = {p.id: p.back or "red" for p in simulate_plan(plan)[0].players}  # the renderer's own choice
        pids = sorted(measured)
        if not pids:
            continue
        med = {p: tuple(float(v) for v in np.median(np.array(measured[p]), axis=0)) for p in pids}
        for p in pids:
            nearest_n += 1
            name = colour_name(med[p])
            nearest_ok += name == colours[p]
            if name != colours[p]:
                confused[(colours[p], name)] += 1
        cost = np.array([[colour_cost(med[p], colours[q]) for q in pids] for p in pids])
        _, x, _ = lap.lapjv(cost, extend_cost=True)
        for k, p in enumerate(pids):
            seat_n += 1
            seat_ok += pids[int(x[k])] == p
        print(f"\rframe {i + 1}/{args.frames}", end="", flush=True)
    print()
    print(f"nearest named colour: {nearest_ok}/{nearest_n} = {nearest_ok / max(1, nearest_n):.3f}")
    print(f"seats named among the players' colours: {seat_ok}/{seat_n} = {seat_ok / max(1, seat_n):.3f}")
    print("confusions (true -> named):", ", ".join(f"{a}->{b} {n}" for (a, b), n in confused.most_common(12)))


if __name__ == "__main__":
    main()
