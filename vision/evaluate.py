"""Measuring the card models: on renders with held-out deck designs, and on the real photos of
``../shared/eval/real`` (read for evaluation only; never copied, never trained or tuned on)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detections import BACK, Detections, match_quads
from vision.models import WATCHING, CardReader, read_image
from vision.synth.dataset import CLASSES, IDENTITIES, MIN_VISIBLE, NOT_A_CARD, FramePlan, render_frame
from vision.synth.scene import CardTruth

EVAL_SEED = 900_000  # far from any training build's seeds


def heldout_frames(n: int, seed: int = EVAL_SEED) -> list[FramePlan]:
    rng = np.random.default_rng(seed)
    return [
        FramePlan("test", int(rng.integers(2**31)), int(rng.integers(2, 9)), "racing-demon", heldout=True)
        for _ in range(n)
    ]


def labelled(truths: list[CardTruth]) -> list[CardTruth]:
    """The cards a detector is scored on: enough of it shows, or (a face) its index corner does."""
    return [t for t in truths if t.visible >= MIN_VISIBLE or (t.card != "back" and t.index_visible)]


def _zone(zone: str) -> str:
    """ "line:3" -> "line", "foundation:f2" -> "foundation"."""
    return zone.split(":", 1)[0]


def multiset_counts(truth: Counter[str], read: Counter[str]) -> tuple[int, int, int]:
    """(true positives, false positives, false negatives) of identities read against the truth, as multisets."""
    hit = sum((read & truth).values())
    return hit, sum(read.values()) - hit, sum(truth.values()) - hit


def evaluate_renders(
    reader: CardReader, frames: int, *, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    tp = fp = fn = 0
    whole = Counter[str]()
    index_only = Counter[str]()
    e2e = Counter[str]()
    det = Counter[str]()  # detection recall by how much of the card shows
    zones = Counter[str]()
    watched_zones = Counter[str]()  # cards found with the chain's suppression, by zone
    confusion = np.zeros((len(CLASSES), len(CLASSES)), np.int64)
    errors: list[dict[str, Any]] = []
    # The reader's detector with the suppression review and live use (``WATCHING``: every card of a ladder or a
    # fan kept), whatever the reader was loaded with.
    watching = replace(reader.detector, **WATCHING)
    for k, plan in enumerate(heldout_frames(frames)):
        image, truths = render_frame(plan, max_width=1280)
        scored = labelled(truths)
        quads = [np.array(t.quad) for t in scored]
        found = reader.detector(image)
        pairs = match_quads(found, quads)
        # The same frame as the camera chain sees it (its suppression keeps stacked cards): recall by zone too.
        watched = watching(image)
        watched_pairs = match_quads(watched, quads)
        det["watch_tp"] += len(watched_pairs)
        det["watch_fp"] += len(watched) - len(watched_pairs)
        for j in set(watched_pairs.values()):
            watched_zones[_zone(scored[j].zone)] += 1
        tp += len(pairs)
        fp += len(found) - len(pairs)
        fn += len(scored) - len(pairs)
        matched = set(pairs.values())
        for j, t in enumerate(scored):  # recall by how much of the card shows: lying clear, or covered
            part = "clear" if t.visible >= 0.9 else "covered"
            det[part] += 1
            det[f"{part}_found"] += j in matched
            zones[_zone(t.zone)] += 1  # and by where it lies (demon, line, waste, stock, foundation, hand)
            zones[f"{_zone(t.zone)}_found"] += j in matched
        # The identifier alone, on the true quads of cards whose index shows.
        faces = [t for t in scored if t.card != "back" and t.index_visible and t.card in IDENTITIES]
        if faces:
            fake = Detections(np.array([t.quad for t in faces]), np.ones(len(faces)), np.zeros(len(faces), int))
            read = reader.identifier(image, fake)
            for t, label in zip(faces, read.labels, strict=True):
                bucket = whole if t.visible >= 0.9 else index_only
                bucket["n"] += 1
                bucket["ok"] += label == t.card
                confusion[CLASSES.index(t.card), CLASSES.index(label)] += 1
                if label != t.card and len(errors) < 40:
                    errors.append(
                        {"frame": k, "truth": t.card, "read": label, "visible": round(t.visible, 2), "zone": t.zone}
                    )
        # End to end: matched detections of faces, read by the identifier.
        read_all = reader.identifier(image, found)
        for i in set(range(len(found))) - set(pairs):  # the detector's slips: does the identifier reject them?
            if found.cls[i] != BACK:
                e2e["slips"] += 1
                e2e["slips_rejected"] += read_all.labels[i] == NOT_A_CARD
        for i, j in pairs.items():
            t = scored[j]
            if t.card != "back" and t.index_visible:
                e2e["n"] += 1
                e2e["ok"] += read_all.labels[i] == t.card
                e2e["rejected"] += read_all.labels[i] == NOT_A_CARD
            elif t.card == "back":
                e2e["backs"] += 1
                e2e["backs_ok"] += found.cls[i] == BACK
        if progress:
            progress(k + 1, frames)
    return {
        "frames": frames,
        "detection": {
            "recall": tp / max(1, tp + fn),
            "precision": tp / max(1, tp + fp),
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "recall_clear": det["clear_found"] / max(1, det["clear"]),
            "recall_covered": det["covered_found"] / max(1, det["covered"]),
            "clear_n": det["clear"],
            "covered_n": det["covered"],
            "recall_by_zone": {
                z: {"n": n, "recall": round(zones[f"{z}_found"] / n, 3)}
                for z, n in sorted(zones.items())
                if not z.endswith("_found")
            },
            # As review and live run it (models.WATCHING): stacked cards kept, more loose boxes too.
            "watching": {
                "recall": det["watch_tp"] / max(1, tp + fn),
                "precision": det["watch_tp"] / max(1, det["watch_tp"] + det["watch_fp"]),
                "tp": det["watch_tp"],
                "fp": det["watch_fp"],
                "recall_by_zone": {
                    z: round(watched_zones[z] / n, 3) for z, n in sorted(zones.items()) if not z.endswith("_found")
                },
            },
        },
        "identity_top1_whole": whole["ok"] / max(1, whole["n"]),
        "identity_whole_n": whole["n"],
        "identity_top1_index_only": index_only["ok"] / max(1, index_only["n"]),
        "identity_index_only_n": index_only["n"],
        "end_to_end_face_top1": e2e["ok"] / max(1, e2e["n"]),
        "end_to_end_back_class": e2e["backs_ok"] / max(1, e2e["backs"]),
        # The identifier's "none": faces found that it wrongly rejects, and detector slips it rightly rejects.
        "end_to_end_faces_rejected": e2e["rejected"] / max(1, e2e["n"]),
        "detector_slips_rejected": e2e["slips_rejected"] / max(1, e2e["slips"]),
        "examples_of_errors": errors,
        "_confusion": confusion,
    }


def real_labels(root: Path) -> dict[str, dict[str, tuple[list[str], int]]]:
    """source -> image -> (face-up identities, number of face-down backs), from each folder's labels."""
    out: dict[str, dict[str, tuple[list[str], int]]] = {}
    for source in sorted(p for p in root.iterdir() if p.is_dir()):
        labels = {}
        for f in ("cards.json", "image_level.json"):
            path = source / "labels" / f
            if path.exists():
                for image, entry in json.loads(path.read_text()).items():
                    if not isinstance(entry, dict):
                        continue
                    if "face_up_cards" in entry:
                        faces = list(entry["face_up_cards"])
                    else:
                        faces = list(entry.get("fully_visible", [])) + list(entry.get("partially_visible", []))
                    labels[image] = ([c.upper() for c in faces], int(entry.get("n_face_down_backs", 0)))
                break
        if labels:
            out[source.name] = labels
    return out


def evaluate_real(reader: CardReader, root: Path, *, annotate_dir: Path | None = None) -> dict[str, Any]:
    results: dict[str, Any] = {}
    for source, images in real_labels(root).items():
        tp = fp = fn = 0
        backs_true = backs_found = backs_ok = 0
        per_image = []
        for name, (faces, backs) in images.items():
            path = root / source / "images" / name
            if not path.exists():
                continue
            image = read_image(path)
            found = reader(image)
            read = Counter(label for label in found.labels if label != "back")
            truth = Counter(faces)
            hit, extra, missed = multiset_counts(truth, read)
            tp, fp, fn = tp + hit, fp + extra, fn + missed
            n_backs = sum(1 for label in found.labels if label == "back")
            backs_true += backs
            backs_found += n_backs
            backs_ok += min(backs, n_backs)
            per_image.append(
                {
                    "image": name,
                    "truth": sorted(truth.elements()),
                    "read": sorted(read.elements()),
                    "backs": [backs, n_backs],
                }
            )
            if annotate_dir is not None:
                from vision.models import annotate

                annotate_dir.mkdir(parents=True, exist_ok=True)
                small = annotate(image, found)
                scale = 1280 / max(small.shape[:2])
                if scale < 1:
                    small = cv2.resize(small, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
                cv2.imwrite(str(annotate_dir / f"{source}__{Path(name).stem}.jpg"), small)
        results[source] = {
            "images": len(per_image),
            "recall": tp / max(1, tp + fn),
            "precision": tp / max(1, tp + fp),
            "backs_counted": backs_ok / backs_true if backs_true else None,
            "backs_true": backs_true,
            "backs_found": backs_found,
            "per_image": per_image,
        }
    return results


def confusion_image(confusion: np.ndarray, path: Path) -> None:
    """The identities' confusion matrix as a heat map (rows: truth, columns: reading; the last column ``none``)."""
    cell = 14
    n = len(confusion)
    rows = confusion / np.maximum(1, confusion.sum(axis=1, keepdims=True))
    img = np.full((n * cell + 40, n * cell + 40, 3), 255, np.uint8)
    for i in range(n):
        for j in range(n):
            v = rows[i, j]
            colour = (
                (255 - int(200 * v), 255 - int(120 * v), 255)
                if i != j
                else (255 - int(255 * v), 255, 255 - int(255 * v))
            )
            cv2.rectangle(
                img, (40 + j * cell, 40 + i * cell), (40 + (j + 1) * cell - 1, 40 + (i + 1) * cell - 1), colour, -1
            )
    for k, name in enumerate(CLASSES[:n]):
        if k % 13 == 0:
            cv2.putText(img, name, (2, 40 + k * cell + 10), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1)
            cv2.putText(img, name, (40 + k * cell, 30), cv2.FONT_HERSHEY_PLAIN, 0.7, (0, 0, 0), 1)
    cv2.imwrite(str(path), img)
