"""A contact sheet of renders beside real photos (for looking only: the real photos are never trained on)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.synth.dataset import plan_frame, render_frame

TILE = (480, 320)


def _tile(img: np.ndarray, caption: str) -> np.ndarray:
    h, w = img.shape[:2]
    scale = min(TILE[0] / w, TILE[1] / h)
    small = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    tile = np.full((TILE[1] + 24, TILE[0], 3), 30, np.uint8)
    y, x = (TILE[1] - small.shape[0]) // 2 + 24, (TILE[0] - small.shape[1]) // 2
    tile[y : y + small.shape[0], x : x + small.shape[1]] = small
    cv2.putText(tile, caption[:60], (6, 17), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (230, 230, 230), 1, cv2.LINE_AA)
    return tile


def contact_sheet(
    out: Path, *, renders: int = 6, seed: int = 0, real_dir: Path | None = None, columns: int = 3
) -> Path:
    tiles = []
    for i in range(renders):
        plan = plan_frame(seed, i)
        frame, _ = render_frame(plan, max_width=1280)
        tiles.append(_tile(frame, f"render {i} ({plan.players} players{', held-out decks' if plan.heldout else ''})"))
    if real_dir is not None and real_dir.is_dir():
        photos = sorted(p for p in real_dir.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
        step = max(1, len(photos) // max(1, renders))
        for p in photos[::step][:renders]:
            img = cv2.imread(str(p))
            if img is not None:
                tiles.append(_tile(img, f"real: {p.parent.parent.name}/{p.name}"))
    while len(tiles) % columns:
        tiles.append(np.full_like(tiles[0], 30))
    rows = [np.hstack(tiles[r : r + columns]) for r in range(0, len(tiles), columns)]
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.vstack(rows))
    return out
