"""Detection and identity recall/precision of the committed models as the detector's confidence threshold and
its non-maximum-suppression IoU vary, on fresh renders of *training* deck designs (never the held-out designs
or the real photos, which stay for evaluation).

python scripts/detector_sweep.py [--frames 20] [--iou 0.7 0.8 0.9] [--conf 0.2 0.35 0.5]
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from vision.detections import BACK
from vision.evaluate import _match, labelled, multiset_counts
from vision.models import CardReader
from vision.synth.dataset import NOT_A_CARD, FramePlan, render_frame

SWEEP_SEED = 4242  # not a dataset build's seed, not the evaluation seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--iou", type=float, nargs="+", default=[0.7, 0.8, 0.9])
    ap.add_argument("--conf", type=float, nargs="+", default=[0.2, 0.35, 0.5])
    args = ap.parse_args()
    reader = CardReader.load()
    reader.detector.conf = min(args.conf)
    rng = np.random.default_rng(SWEEP_SEED)
    plans = [FramePlan("val", int(rng.integers(2**31)), int(rng.integers(2, 9)), "racing-demon", heldout=False)
             for _ in range(args.frames)]  # fmt: skip
    frames = [render_frame(plan, max_width=1280) for plan in plans]
    print("nms_iou conf  det_recall det_precision  identity_recall identity_precision")
    for iou in args.iou:
        reader.detector.iou = iou
        found_all = [reader.detector(image) for image, _ in frames]
        read_all = [reader.identifier(image, found) for (image, _), found in zip(frames, found_all, strict=True)]
        for conf in args.conf:
            det, ids = Counter[str](), Counter[str]()
            for (_image, truths), read in zip(frames, read_all, strict=True):
                keep = np.array(
                    [c >= conf and lab != NOT_A_CARD for c, lab in zip(read.conf, read.labels, strict=True)], bool
                )
                found = read[keep] if len(read) else read
                scored = labelled(truths)
                pairs = _match(found, [np.array(t.quad) for t in scored])
                det.update(tp=len(pairs), fp=len(found) - len(pairs), fn=len(scored) - len(pairs))
                truth = Counter(t.card for t in scored if t.card != "back" and t.index_visible)
                got = Counter(lab for lab, c in zip(found.labels, found.cls, strict=True) if c != BACK)
                hit, extra, missed = multiset_counts(truth, got)
                ids.update(tp=hit, fp=extra, fn=missed)

            def rp(c: Counter[str]) -> str:
                return f"{c['tp'] / max(1, c['tp'] + c['fn']):.3f} {c['tp'] / max(1, c['tp'] + c['fp']):.3f}"

            print(f"{iou:7.2f} {conf:4.2f}  {rp(det)}  {rp(ids)}", flush=True)


if __name__ == "__main__":
    main()
