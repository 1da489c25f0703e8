"""How the identifier's three views (whole card, both index corners) read, and which pooling rule reads best, on
fresh renders of *training* deck designs (never the held-out designs or the real photos), with the true quads or
(``--detector``) with the committed detector's quads, each scored against the most visible face it covers (the
playable one of a fanned waste).

python scripts/identifier_views.py [--frames 16] [--seed 778] [--detector]
"""

from __future__ import annotations

import argparse
from collections import Counter

import cv2
import numpy as np

from vision.detections import FACE, polygon_iou
from vision.evaluate import labelled
from vision.models import CardDetector, CardIdentifier, pool_views
from vision.synth.dataset import FramePlan, render_frame


def overlap(quad: np.ndarray, others: list[np.ndarray]) -> float:
    """The largest share of ``quad`` another card's quad covers."""
    area = max(cv2.contourArea(quad.astype(np.float32)), 1e-6)
    return max((cv2.intersectConvexConvex(quad.astype(np.float32), o.astype(np.float32))[0] / area for o in others),
               default=0.0)  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=16)
    ap.add_argument("--seed", type=int, default=778)
    ap.add_argument("--detector", action="store_true", help="read the detector's quads instead of the true ones")
    args = ap.parse_args()
    ide = CardIdentifier()
    det = CardDetector() if args.detector else None
    rng = np.random.default_rng(args.seed)
    stats = Counter[str]()
    for _ in range(args.frames):
        plan = FramePlan("val", int(rng.integers(2**31)), int(rng.integers(2, 9)), "racing-demon", heldout=False)
        image, truths = render_frame(plan, max_width=1280)
        cards = labelled(truths)
        for t, q in _quads(image, cards, det):
            covered = overlap(np.array(t.quad), [np.array(o.quad) for o in cards if o is not t])
            p = ide.classify(ide.views(image, q))
            read = [ide.names[int(v.argmax())] for v in p]
            part = "whole" if t.visible >= 0.9 else "covered"
            squared = p.copy()
            squared[0] **= 2
            rules = {
                "card": read[0], "index1": read[1], "index2": read[2],
                "max": ide.names[int(np.argmax(pool_views(p, "max")))],
                "sum": ide.names[int(np.argmax(pool_views(p, "sum")))],
                "no whole view if overlapped 25%": ide.names[int(np.argmax(pool_views(p if covered < 0.25 else p[1:], "max")))],
                "index corners when they agree": read[1] if read[1] == read[2] else ide.names[int(np.argmax(pool_views(p, "max")))],
                "whole view squared": ide.names[int(np.argmax(pool_views(squared, "max")))],
                "two views that agree, else max": next((r for r in read if read.count(r) >= 2),
                                                       ide.names[int(np.argmax(pool_views(p, "max")))]),
            }  # fmt: skip
            stats[part] += 1
            for rule, label in rules.items():
                stats[f"{part}|{rule}"] += label == t.card
    for part in ("whole", "covered"):
        print(f"{part} cards: {stats[part]}")
        for key, hits in stats.items():
            if key.startswith(part + "|"):
                print(f"  {key.split('|', 1)[1]:<34} {hits / max(1, stats[part]):.3f}")


def _quads(image: np.ndarray, cards: list, det: CardDetector | None) -> list:  # type: ignore[type-arg]
    """(truth, quad) pairs: each readable face with its true quad, or each face the detector found with the most
    visible readable face it matches (IoU > 0.5)."""
    faces = [t for t in cards if t.card not in ("back", "JK") and t.index_visible]
    if det is None:
        return [(t, np.array(t.quad)) for t in faces]
    found = det(image)
    out = []
    for i in range(len(found)):
        if found.cls[i] != FACE:
            continue
        near = [t for t in faces if polygon_iou(np.array(t.quad), found.quads[i]) > 0.5]
        if near:
            out.append((max(near, key=lambda t: t.visible), found.quads[i]))
    return out


if __name__ == "__main__":
    main()
