"""YOLO datasets built from rendered scenes: oriented-box detection (card face / card back) and an
identification set of perspective-rectified crops (52 identities; whole cards and index corners).

Frame ``i`` of a build is a pure function of (seed, i), so a build is deterministic and resumable: frames whose
files exist are skipped. Train and val frames use training designs; test frames use held-out designs only.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from referee.cards import STANDARD_52
from referee.rules import PRESETS, Rules
from referee.simulate import SimResult, simulate
from vision.detections import Detections, card_corners, match_quads
from vision.synth.faces import index_fonts
from vision.synth.render import make_renderer
from vision.synth.scene import CardTruth, SceneStyle

DETECT_NAMES = ("card", "back")
IDENTITIES = tuple(str(c) for c in STANDARD_52)
# Crops are square: ultralytics' classifier resizes and centre-crops at validation and prediction, which
# would cut the rank or the suit off a tall crop. Whole cards and index corners are stretched to squares.
CROP_W, CROP_H = 64, 64  # whole-card crops
INDEX_W, INDEX_H = 64, 64  # index-corner crops: the rank over the suit
# The index corner as fractions of the card, with a margin: real indices run taller than 21 mm, and a detector's
# quad is a few millimetres off. Identifiers trained before session 4 saw the tight corner (``INDEX_PART_V1``);
# a model's card records the part it was trained on (``index_part`` in its data build).
INDEX_PART = (-0.02, -0.02, 0.25, 0.32)
INDEX_PART_V1 = (0.0, 0.0, 0.18, 0.235)  # 11 x 21 mm
NOT_A_CARD = "none"  # the identifier's class for a crop of no card face (table, clutter, a back): a detector's slip
NEGATIVES_PER_FRAME = 3
BACK_NEGATIVES_PER_FRAME = 2  # face-down cards per frame cut as if the detector had called them faces
CLASSES = (*IDENTITIES, NOT_A_CARD)  # the identifier's classes

# Identification frames are rendered at most one of these wide (scenes come up to 4K): before identify-v6 they
# were rendered at full size, so most crops were sharper than a 720p-1080p camera's.
IDENTIFY_WIDTHS = (1280, 1600, 1920)
MIN_CARD_PX = 36  # narrower cards are not cropped for identification: their index is a blur

# The share of frames with loose cards (``SceneRenderer.scatter``: overlapping pairs, fans, rows, spread hands),
# half of them on a table with no game laid out. Detection builds before detect-v5 had none.
LOOSE_SHARE = 0.3
# Which cards are labelled for detection: enough of them shows to be found and read.
MIN_VISIBLE = 0.45


class DatasetError(ValueError):
    """Bad dataset settings."""


@dataclass(frozen=True, slots=True)
class FramePlan:
    split: str
    seed: int
    players: int
    preset: str
    heldout: bool


def plan_frame(seed: int, index: int, *, val_fraction: float = 0.1, test_fraction: float = 0.1) -> FramePlan:
    rng = np.random.default_rng([seed, index])
    u = float(rng.random())
    split = "test" if u < test_fraction else "val" if u < test_fraction + val_fraction else "train"
    preset = str(rng.choice([p for p in PRESETS if p != "flying-demon"] + ["racing-demon"] * 3))
    players = int(rng.integers(2, 9))
    return FramePlan(split, int(rng.integers(2**31)), players, preset, heldout=split == "test")


def simulate_plan(plan: FramePlan) -> tuple[SimResult, np.random.Generator]:
    """The simulated round behind ``plan`` (who plays, with which back colours) and the generator, as left, that
    the rest of the frame is drawn from."""
    rng = np.random.default_rng(plan.seed)
    rules = Rules.preset(plan.preset)
    if plan.players < 4 and rng.random() < 0.3:
        rules = rules.with_options({"line_size": 5})
    return simulate(players=plan.players, seed=plan.seed, rules=rules), rng


def render_frame(plan: FramePlan, *, max_width: int | None = None) -> tuple[np.ndarray, list[CardTruth]]:
    """One random frame: a simulated round stopped at a random moment, in a random scene."""
    result, rng = simulate_plan(plan)
    style = SceneStyle.random(rng)
    if max_width is not None and style.size[0] > max_width:
        # Render straight at the stored size: the table spans the frame either way, so cards keep their size.
        w, h = style.size
        style = replace(style, size=(max_width, round(h * max_width / w)))
    renderer = make_renderer(
        result, plan.seed, heldout=plan.heldout, size=None, markers=bool(rng.random() < 0.7), style=style
    )
    t = float(rng.uniform(0, result.duration))
    if rng.random() < 0.5 and result.motions:  # often catch a card in a hand
        m = result.motions[int(rng.integers(len(result.motions)))]
        t = float(rng.uniform(m.t0, m.t1))
    if rng.random() < LOOSE_SHARE:  # cards lying loose: over the game, or on a table with no game on it
        renderer.game = renderer.hands = bool(rng.random() < 0.5)
        renderer.scatter(
            rng, int(rng.integers(1, 5) if renderer.game else rng.integers(2, 7)), anywhere=not renderer.game
        )
    frame, truths = renderer.render(result.table_at(t), result.motions, t)
    return frame, truths


def obb_lines(truths: list[CardTruth], width: int, height: int) -> list[str]:
    """YOLO OBB label lines: ``class x1 y1 x2 y2 x3 y3 x4 y4`` normalised, for cards that show enough."""
    lines = []
    for c in truths:
        if c.visible < MIN_VISIBLE and not (c.card != "back" and c.index_visible):
            continue
        q = np.array(c.quad)
        if q[:, 0].max() < 0 or q[:, 1].max() < 0 or q[:, 0].min() > width or q[:, 1].min() > height:
            continue
        q = q / [width, height]
        cls = 1 if c.card == "back" else 0
        lines.append(f"{cls} " + " ".join(f"{v:.5f}" for v in np.clip(q, 0, 1).ravel()))
    return lines


def rectify(
    frame: np.ndarray, quad: np.ndarray, size: tuple[int, int], part: tuple[float, float, float, float] = (0, 0, 1, 1)
) -> np.ndarray:
    """The region ``part`` (x0, y0, x1, y1 as fractions of the card) of the card at ``quad``, straightened."""
    src = _part_polygon(quad, part).astype(np.float32)  # the part's corners, bilinear in the card's quad
    w, h = size
    dst = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    return cv2.warpPerspective(frame, cv2.getPerspectiveTransform(src, dst), (w, h), flags=cv2.INTER_AREA)


# How far a detector's quad lies from the card, as a share of the card's width (and in degrees), measured with
# the committed detector on renders of training designs (`python scripts/detector_sweep.py --quads --frames 12`):
# the centre is off by ~0.045 across and ~0.07 along the card, each side's length by ~7%, the angle by a few
# degrees. Identifier crops are cut with the same errors so it learns to read what the detector will hand it.
JITTER = {"shift": (0.045, 0.07), "scale": 0.07, "degrees": 4.0, "corner": 0.02}


def crops(
    frame: np.ndarray,
    truths: list[CardTruth],
    rng: np.random.Generator | None = None,
    *,
    negatives: np.random.Generator | None = None,
    min_px: int = MIN_CARD_PX,
) -> list[tuple[str, str, np.ndarray]]:
    """(identity, kind, image) crops: whole cards that are nearly uncovered, and every visible index corner.
    With ``rng``, each crop's corners are jittered as a detector's would be, and whole cards are sometimes
    turned half a turn (the run-time corner order cannot tell a card from its half-turned self).
    With ``negatives``, also card-sized places that show no card face, as class ``NOT_A_CARD``: random places
    (``none``) and face-down cards cut as a detector would hand them over (``back``) — a back the detector takes
    for a face must be read as no card, not as a guess at one."""
    out = []
    h, w = frame.shape[:2]
    for c in truths:
        if c.card == "back" or c.card == "JK" or not c.index_visible:
            continue
        q = np.array(c.quad)
        if not _croppable(q, w, h, min_px):
            continue
        if c.visible >= 0.9:
            whole = np.roll(q, 2, axis=0) if rng is not None and rng.random() < 0.5 else q
            out.append((c.card, "card", rectify(frame, _jitter(whole, rng), (CROP_W, CROP_H))))
        out.append((c.card, "index", rectify(frame, _jitter(q, rng), (INDEX_W, INDEX_H), INDEX_PART)))
    if negatives is not None:
        for q in negative_quads(frame.shape[1], frame.shape[0], truths, negatives, NEGATIVES_PER_FRAME):
            out.append((NOT_A_CARD, "none", rectify(frame, q, (CROP_W, CROP_H))))
        backs = [
            np.array(c.quad)
            for c in truths
            if c.card == "back" and c.visible >= 0.6 and _croppable(np.array(c.quad), w, h, min_px)
        ]
        for k in negatives.permutation(len(backs))[:BACK_NEGATIVES_PER_FRAME]:
            q = np.roll(backs[k], 2, axis=0) if negatives.random() < 0.5 else backs[k]
            out.append((NOT_A_CARD, "back", rectify(frame, _jitter(q, rng), (CROP_W, CROP_H))))
    return out


def seen_crops(
    frame: np.ndarray, truths: list[CardTruth], detections: Detections, min_px: int = MIN_CARD_PX
) -> list[tuple[str, str, np.ndarray]]:
    """(identity, kind, image) crops of the faces a detector found, cut from its quads as the chain cuts them
    (the whole card and both index corners, ``card_corners`` order). A view is labelled only with what it shows:
    the whole card when the card lies nearly uncovered, a corner when one of the card's uncovered indices lies in
    it. The detector's quads are off in ways random jitter does not imitate (a fanned card's box slides onto the
    one beneath), and these crops are what the identifier is handed at run time."""
    out: list[tuple[str, str, np.ndarray]] = []
    h, w = frame.shape[:2]
    faces = [t for t in truths if t.card != "back" and t.card != "JK"]
    pairs = match_quads(detections, [np.array(t.quad) for t in faces])
    for i, j in sorted(pairs.items()):
        t = faces[j]
        q = card_corners(detections.quads[i])
        if not _croppable(q, w, h, min_px):
            continue
        if t.visible >= 0.9:
            out.append((t.card, "seen-card", rectify(frame, q, (CROP_W, CROP_H))))
        indices = [np.array(x, np.float64).mean(axis=0) for x in t.index_quads]
        for corner in (q, np.roll(q, 2, axis=0)):
            region = _part_polygon(corner, INDEX_PART).astype(np.float32)
            if any(cv2.pointPolygonTest(region, (float(x), float(y)), False) >= 0 for x, y in indices):
                out.append((t.card, "seen-index", rectify(frame, corner, (INDEX_W, INDEX_H), INDEX_PART)))
    return out


def _part_polygon(quad: np.ndarray, part: tuple[float, float, float, float]) -> np.ndarray:
    """The frame corners of the region ``part`` of the card at ``quad`` (as ``rectify`` cuts it)."""
    tl, tr, br, bl = np.asarray(quad, np.float64)
    x0, y0, x1, y1 = part
    u, v = np.array([[x0], [x1], [x1], [x0]]), np.array([[y0], [y0], [y1], [y1]])
    top, bottom = tl + (tr - tl) * u, bl + (br - bl) * u
    return top + (bottom - top) * v


def _croppable(q: np.ndarray, w: int, h: int, min_px: int) -> bool:
    """The card at ``q`` lies wholly inside the frame and is at least ``min_px`` wide (narrower, its index is too
    small to be read by anyone)."""
    inside = q[:, 0].min() >= 1 and q[:, 1].min() >= 1 and q[:, 0].max() <= w - 2 and q[:, 1].max() <= h - 2
    return bool(inside and np.linalg.norm(q[1] - q[0]) >= min_px)


def negative_quads(
    width: int, height: int, truths: list[CardTruth], rng: np.random.Generator, n: int
) -> list[np.ndarray]:
    """Up to ``n`` card-sized quads at random places and angles that cover at most 10% of any face-up card."""
    faces = [np.array(t.quad, np.float32) for t in truths if t.card != "back"]
    sizes = [np.linalg.norm(np.array(t.quad[1]) - np.array(t.quad[0])) for t in truths]
    side = float(np.median(sizes)) if sizes else 0.05 * width
    out: list[np.ndarray] = []
    for _ in range(20 * n):
        if len(out) == n:
            break
        w = side * float(rng.uniform(0.8, 1.25))
        if 2 * w >= min(width, height):
            continue  # cards this big (a close-up) leave no room for a card-sized place beside them
        box = cv2.boxPoints(
            (
                (float(rng.uniform(w, width - w)), float(rng.uniform(w, height - w))),
                (w, w * 88 / 63),
                float(rng.uniform(0, 180)),
            )
        ).astype(np.float32)
        area = cv2.contourArea(box)
        if all(cv2.intersectConvexConvex(box, f)[0] < 0.1 * min(area, cv2.contourArea(f)) for f in faces):
            out.append(box)
    return out


def _jitter(quad: np.ndarray, rng: np.random.Generator | None) -> np.ndarray:
    if rng is None:
        return quad
    q = np.asarray(quad, np.float64)
    centre = q.mean(axis=0)
    across, along = q[1] - q[0], q[3] - q[0]
    side = float(np.linalg.norm(across))
    axes = np.stack([across / side, along / np.linalg.norm(along)])  # rows: the card's x and y in the image
    local = (q - centre) @ axes.T * (1 + rng.normal(0, JITTER["scale"], 2))
    turn = np.radians(rng.normal(0, JITTER["degrees"]))
    rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
    shift = rng.normal(0, JITTER["shift"]) * side
    moved = (local @ rot.T + shift) @ axes + centre
    return moved + rng.normal(0, JITTER["corner"] * side, q.shape)


@functools.cache
def _detector(weights: str) -> Any:
    """A worker's detector, loaded once, with the chain's suppression."""
    from vision.models import WATCHING, CardDetector  # vision.models imports this module

    return CardDetector(Path(weights), **WATCHING)


@dataclass(frozen=True, slots=True)
class CropRecipe:
    """How identification crops are cut: from frames rendered at most one of ``widths`` wide, of cards at least
    ``min_px`` wide there, and (``detector``: weights) also from that detector's quads (``seen_crops``)."""

    widths: tuple[int, ...] = IDENTIFY_WIDTHS
    min_px: int = MIN_CARD_PX
    detector: str | None = None


def _build_frame(out: Path, kind: str, seed: int, i: int, max_width: int, recipe: CropRecipe = CropRecipe()) -> str:
    """Renders frame ``i`` of a build into ``out`` (skipped when already done); returns its split. An
    identification frame's crops are cut as ``recipe`` says (with its detector, ``seen_crops`` too)."""
    plan = plan_frame(seed, i)
    done = out / ".done" / f"{i:06d}"
    if done.exists():
        return plan.split
    if kind == "identify":  # cameras film at 720p-1080p: crops come from frames of those widths
        max_width = int(np.random.default_rng([seed, i, 13]).choice(recipe.widths))
    frame, truths = render_frame(plan, max_width=max_width)
    name = f"s{seed}_{i:06d}"
    if kind == "detect":
        images, labels = out / "images" / plan.split, out / "labels" / plan.split
        images.mkdir(parents=True, exist_ok=True)
        labels.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(images / f"{name}.jpg"), frame, [cv2.IMWRITE_JPEG_QUALITY, 92])
        h, w = frame.shape[:2]
        (labels / f"{name}.txt").write_text("\n".join(obb_lines(truths, w, h)) + "\n", encoding="utf-8")
    else:
        jitter = np.random.default_rng([seed, i, 7]) if plan.split == "train" else None
        negatives = np.random.default_rng([seed, i, 11])
        cut = crops(frame, truths, jitter, negatives=negatives, min_px=recipe.min_px)
        if recipe.detector is not None:
            cut += seen_crops(frame, truths, _detector(recipe.detector)(frame), recipe.min_px)
        for j, (identity, what, img) in enumerate(cut):
            folder = out / plan.split / identity
            folder.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / f"{name}_{j:03d}_{what}.png"), img)
    done.parent.mkdir(exist_ok=True)
    done.write_text(plan.split)
    return plan.split


def _build_star(args: tuple[Path, str, int, int, int, CropRecipe]) -> str:
    return _build_frame(*args)


def build(
    out: Path,
    *,
    kind: str,
    frames: int,
    seed: int = 0,
    max_width: int = 1280,  # detection frames are rendered at most this wide; crops come from ``widths``
    workers: int = 1,
    detector: Path | None = None,
    widths: tuple[int, ...] = IDENTIFY_WIDTHS,
    min_card_px: int = MIN_CARD_PX,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Builds (or resumes) a dataset in ``out``; returns counts per split. Frame i depends only on (seed, i),
    so any number of ``workers`` gives the same files. ``detector``: identification crops also cut from the
    quads these weights find (``seen_crops``); ``widths`` and ``min_card_px``: the cameras' frame widths crops
    are cut from and the narrowest card cut (``CropRecipe``)."""
    if kind not in ("detect", "identify"):
        raise DatasetError(f"kind must be detect or identify, got {kind!r}")
    if frames <= 0:
        raise DatasetError(f"frames must be positive, got {frames}")
    if workers < 1:
        raise DatasetError(f"workers must be at least 1, got {workers}")
    recipe = CropRecipe(tuple(widths), min_card_px, None if detector is None else str(detector))
    if recipe != CropRecipe() and kind != "identify":
        raise DatasetError("a detector, widths and a narrowest card are for identification crops: kind identify")
    if not widths or min(widths) < 320 or min_card_px < 8:
        raise DatasetError(
            f"widths must be 320 px or more and the narrowest card 8 px or more, got {widths}, {min_card_px}"
        )
    if detector is not None and not detector.is_file():
        raise DatasetError(f"{detector}: no such detector weights")
    out.mkdir(parents=True, exist_ok=True)
    counts: dict[str, int] = {}
    jobs = [(out, kind, seed, i, max_width, recipe) for i in range(frames)]
    if workers == 1:
        splits = map(_build_star, jobs)
    else:
        import multiprocessing

        pool = multiprocessing.get_context("spawn").Pool(workers)
        splits = pool.imap(_build_star, jobs)
    try:
        for k, split in enumerate(splits, start=1):
            counts[split] = counts.get(split, 0) + 1
            if progress:
                progress(k, frames)
    finally:
        if workers > 1:
            pool.close()
            pool.join()
    if kind == "detect":
        # No `path:` key: ultralytics then takes this file's folder as the dataset root.
        names = "\n".join(f"  {k}: {n}" for k, n in enumerate(DETECT_NAMES))
        (out / "data.yaml").write_text(
            f"train: images/train\nval: images/val\ntest: images/test\nnames:\n{names}\n", encoding="utf-8"
        )
    else:
        for split in ("train", "val", "test"):
            for identity in CLASSES:  # every class folder exists, so class indices are stable
                (out / split / identity).mkdir(parents=True, exist_ok=True)
    summary: dict[str, object] = {"kind": kind, "frames": frames, "seed": seed, "splits": counts}
    # Frames depend on the fonts installed too (varied decks draw their indices in them): say how many there were.
    summary["varied_deck_fonts"] = len(index_fonts())
    summary["loose_share"] = LOOSE_SHARE
    if kind == "identify":
        summary["index_part"] = list(INDEX_PART)
        summary["jitter"] = JITTER
        summary["widths"] = list(widths)
        summary["min_card_px"] = min_card_px
        summary["negatives"] = {"places": NEGATIVES_PER_FRAME, "backs": BACK_NEGATIVES_PER_FRAME}
        if detector is not None:
            from vision.quantize import digest

            summary["seen_by"] = {"detector": str(detector), "digest": digest(detector)}
    (out / "build.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    return summary
