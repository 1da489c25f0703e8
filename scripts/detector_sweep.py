"""Detection and identity recall/precision of the committed models as the detector's confidence threshold and
its non-maximum-suppression IoU vary, on fresh renders of *training* deck designs (never the held-out designs
or the real photos, which stay for evaluation).

python scripts/detector_sweep.py [--frames 20] [--iou 0.7 0.8 0.9] [--conf 0.2 0.35 0.5] [--same-card 0.1 0.14]
python scripts/detector_sweep.py --quads   # how far the detector's quads lie from cards lying clear
python scripts/detector_sweep.py --imgsz 896 --iou 0.95 --same-card 0.14 --conf 0.35   # as review looks (and --quads)
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from vision.detections import BACK, card_corners, match_quads, same_card
from vision.evaluate import labelled, multiset_counts
from vision.models import CardReader
from vision.synth.dataset import NOT_A_CARD, FramePlan, render_frame
from vision.synth.scene import CardTruth

SWEEP_SEED = 4242  # not a dataset build's seed, not the evaluation seed


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--frames", type=int, default=20)
    ap.add_argument("--iou", type=float, nargs="+", default=[0.7, 0.8, 0.9])
    ap.add_argument("--conf", type=float, nargs="+", default=[0.2, 0.35, 0.5])
    ap.add_argument("--same-card", type=float, nargs="*", default=[],
                    help="also: ultralytics' suppression at --iou's last value, then vision.detections.same_card "
                    "at these distances (share of a card, across = along)")  # fmt: skip
    ap.add_argument("--imgsz", type=int, default=640, help="the detector's input side (the chain's: 896)")
    ap.add_argument("--quads", action="store_true", help="measure the quads' errors instead (identifier jitter)")
    args = ap.parse_args()
    reader = CardReader.load()
    reader.detector.conf, reader.detector.imgsz = min(args.conf), args.imgsz
    rng = np.random.default_rng(SWEEP_SEED)
    plans = [FramePlan("val", int(rng.integers(2**31)), int(rng.integers(2, 9)), "racing-demon", heldout=False)
             for _ in range(args.frames)]  # fmt: skip
    frames = [render_frame(plan, max_width=1280) for plan in plans]
    if args.quads:
        quad_errors(reader, frames)
        return
    print("nms_iou conf  det_recall det_precision  identity_recall identity_precision  clear covered")
    settings: list[tuple[str, float, float | None]] = [(f"{iou:7.2f}", iou, None) for iou in args.iou]
    settings += [(f"{args.iou[-1]:.2f}+{d:.2f}", args.iou[-1], d) for d in args.same_card]
    for name, iou, dist in settings:
        reader.detector.iou = iou
        found_all = [reader.detector(image) for image, _ in frames]
        if dist is not None:
            found_all = [same_card(f, across=dist, along=dist) for f in found_all]
        read_all = [reader.identifier(image, found) for (image, _), found in zip(frames, found_all, strict=True)]
        for conf in args.conf:
            det, ids = Counter[str](), Counter[str]()
            for (_image, truths), read in zip(frames, read_all, strict=True):
                keep = np.array(
                    [c >= conf and lab != NOT_A_CARD for c, lab in zip(read.conf, read.labels, strict=True)], bool
                )
                found = read[keep] if len(read) else read
                scored = labelled(truths)
                pairs = match_quads(found, [np.array(t.quad) for t in scored])
                det.update(tp=len(pairs), fp=len(found) - len(pairs), fn=len(scored) - len(pairs))
                matched = set(pairs.values())
                for j, t in enumerate(scored):  # recall of the cards lying clear and of those partly covered
                    part = "clear" if t.visible >= 0.9 else "covered"
                    det.update({part: 1, f"{part}_found": int(j in matched)})
                truth = Counter(t.card for t in scored if t.card != "back" and t.index_visible)
                got = Counter(lab for lab, c in zip(found.labels, found.cls, strict=True) if c != BACK)
                hit, extra, missed = multiset_counts(truth, got)
                ids.update(tp=hit, fp=extra, fn=missed)

            def rp(c: Counter[str]) -> str:
                return f"{c['tp'] / max(1, c['tp'] + c['fn']):.3f} {c['tp'] / max(1, c['tp'] + c['fp']):.3f}"

            parts = " ".join(f"{det[f'{p}_found'] / max(1, det[p]):.3f}" for p in ("clear", "covered"))
            print(f"{name:>9} {conf:4.2f}  {rp(det)}  {rp(ids)}  {parts}", flush=True)


def quad_errors(reader: CardReader, frames: list[tuple[np.ndarray, list[CardTruth]]]) -> None:
    """For faces lying clear that the detector found (IoU >= 0.5): its quad's centre offset across and along the
    card and each side's length, as shares of the card's width and height, its turn, and the worst corner's
    distance, as a share of the width. ``vision.synth.dataset.JITTER`` is set from these."""
    shift, scale, turn, worst, centre = [], [], [], [], []
    for image, truths in frames:
        clear = [t for t in truths if t.card != "back" and t.visible >= 0.95]
        found = reader.detector(image)
        for i, j in match_quads(found, [np.array(t.quad, float) for t in clear]).items():
            q = card_corners(np.array(clear[j].quad, float))
            a = card_corners(found.quads[i])
            if np.abs(np.roll(a, 2, axis=0) - q).sum() < np.abs(a - q).sum():
                a = np.roll(a, 2, axis=0)  # the same card named from the other end
            w, h = float(np.linalg.norm(q[1] - q[0])), float(np.linalg.norm(q[3] - q[0]))
            across, along = (q[1] - q[0]) / w, (q[3] - q[0]) / h
            off = a.mean(axis=0) - q.mean(axis=0)
            shift.append((off @ across / w, off @ along / w))
            scale.append((np.linalg.norm(a[1] - a[0]) / w, np.linalg.norm(a[3] - a[0]) / h))
            da = np.arctan2(*(a[3] - a[0])[::-1]) - np.arctan2(*(q[3] - q[0])[::-1])
            turn.append(np.degrees((da + np.pi) % (2 * np.pi) - np.pi))
            worst.append(float(np.abs(a - q).max()) / w)
            centre.append(float(np.linalg.norm(off)) / w)
    if not worst:
        print("no clear face was found")
        return
    sh, sc, tu, wo = np.array(shift), np.array(scale), np.array(turn), np.array(worst)
    print(f"faces lying clear, found: {len(wo)}")
    print(f"centre offset / width, sd across {sh[:, 0].std():.3f}, along {sh[:, 1].std():.3f}")
    print(f"side length ratio, sd across {sc[:, 0].std():.3f}, along {sc[:, 1].std():.3f}")
    print(
        f"turn, degrees: median |turn| {np.median(np.abs(tu)):.1f}, 90th percentile {np.percentile(np.abs(tu), 90):.1f}"
    )
    print(f"worst corner / width: median {np.median(wo):.3f}, 90th percentile {np.percentile(wo, 90):.3f}")
    print(f"centre offset / width: median {np.median(centre):.3f}, 90th percentile {np.percentile(centre, 90):.3f}")


if __name__ == "__main__":
    main()
