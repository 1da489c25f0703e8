"""Still photos taken nearer than a table seen whole: how the detector and identifier read them looking once, and
looking also at the photo shrunk (``vision.models.STILL``, the setting of `demonref detect` and `evaluate models`).

Held-out renders (never the real photos) are cut to a window 1/ZOOM of the frame, which the network then sees
ZOOM times nearer, as a camera or phone nearer the table would; for each zoom, detection and image-level
identities (the multiset of faces read against the faces lying wholly in the window) are scored for both.

python scripts/still_scales.py [--frames 30] [--zooms 1,1.5,2,3,4,6] [--seed 920000]
"""

from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import replace

import numpy as np
from rich.console import Console
from rich.progress import track
from rich.table import Table

from vision.detections import BACK, Detections, match_quads
from vision.evaluate import heldout_frames, labelled, multiset_counts
from vision.models import CardReader
from vision.synth.dataset import NOT_A_CARD, render_frame


def _rp(tp: int, fp: int, fn: int) -> str:
    """Recall / precision."""
    return f"{tp / max(1, tp + fn):.3f} / {tp / max(1, tp + fp):.3f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--zooms", default="1,1.5,2,3,4,6")
    ap.add_argument("--seed", type=int, default=920_000)
    args = ap.parse_args()
    zooms = [float(z) for z in args.zooms.split(",")]
    still = CardReader.load()
    readers = {"once": replace(still, detector=replace(still.detector, shrink=(1.0,))), "still": still}
    rng = np.random.default_rng(args.seed)
    score: dict[tuple[float, str], Counter[str]] = {}
    for plan in track(heldout_frames(args.frames, args.seed), description="renders"):
        image, truths = render_frame(plan, max_width=1920)
        height, width = image.shape[:2]
        for zoom in zooms:
            w, h = int(width / zoom), int(height / zoom)
            x0, y0 = int(rng.integers(0, width - w + 1)), int(rng.integers(0, height - h + 1))
            window = np.ascontiguousarray(image[y0 : y0 + h, x0 : x0 + w])

            def inside(q: np.ndarray, w: int = w, h: int = h) -> bool:
                return bool(q.min() >= 0 and q[:, 0].max() < w and q[:, 1].max() < h)

            cards = [t for t in labelled(truths) if inside(np.array(t.quad) - [x0, y0])]
            quads = [np.array(t.quad) - [x0, y0] for t in cards]
            faces = Counter(t.card for t in cards if t.card != "back" and (t.index_visible or t.visible >= 0.9))
            backs = sum(t.card == "back" for t in cards)
            for name, reader in readers.items():
                read = reader(window)
                kept = [i for i in range(len(read)) if inside(read.quads[i])]  # cards cut by the window not scored
                read = read[np.array(kept, int)] if kept else Detections.empty()
                s = score.setdefault((zoom, name), Counter())
                pairs = match_quads(read, quads)
                s["det_tp"] += len(pairs)
                s["det_fp"] += len(read) - len(pairs)
                s["det_fn"] += len(quads) - len(pairs)
                labels = Counter(label for label in read.labels if label not in ("back", NOT_A_CARD))
                hit, extra, missed = multiset_counts(faces, labels)
                s["tp"], s["fp"], s["fn"] = s["tp"] + hit, s["fp"] + extra, s["fn"] + missed
                s["backs"] += backs
                s["backs_ok"] += min(backs, int((read.cls == BACK).sum()) if len(read) else 0)
    table = Table(title=f"held-out renders seen nearer ({args.frames} frames, seed {args.seed})")
    for col in ("zoom", "look", "detection R / P", "faces R / P", "backs"):
        table.add_column(col)
    for (zoom, name), s in sorted(score.items()):
        table.add_row(
            f"{zoom:g}",
            name,
            _rp(s["det_tp"], s["det_fp"], s["det_fn"]),
            _rp(s["tp"], s["fp"], s["fn"]),
            f"{s['backs_ok']} of {s['backs']}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
