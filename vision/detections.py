"""One detections type for every vision stage: parallel numpy arrays, validated, indexed by masks.

>>> d = Detections(quads=np.zeros((2, 4, 2)), conf=np.array([0.9, 0.4]), cls=np.array([0, 1]))
>>> len(d[d.conf > 0.5])
1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import cv2
import numpy as np

FACE, BACK = 0, 1


@dataclass(frozen=True)
class Detections:
    """N cards: ``quads`` (N, 4, 2) pixel corners, ``conf`` (N,), ``cls`` (N,) 0 face / 1 back, and per card
    the identity reading (``labels``: "QS", "back", or "" before identification) with its top-k."""

    quads: np.ndarray
    conf: np.ndarray
    cls: np.ndarray
    labels: tuple[str, ...] = ()
    topk: tuple[tuple[tuple[str, float], ...], ...] = ()
    track_id: np.ndarray | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        n = len(self.quads)
        if self.quads.shape != (n, 4, 2):
            raise ValueError(f"quads must be (N, 4, 2), got {self.quads.shape}")
        if self.conf.shape != (n,) or self.cls.shape != (n,):
            raise ValueError(f"conf and cls must be ({n},), got {self.conf.shape} and {self.cls.shape}")
        if self.labels and len(self.labels) != n:
            raise ValueError(f"labels must have {n} entries, got {len(self.labels)}")
        if self.topk and len(self.topk) != n:
            raise ValueError(f"topk must have {n} entries, got {len(self.topk)}")

    def __len__(self) -> int:
        return len(self.quads)

    def __getitem__(self, index: Any) -> Detections:
        idx = np.arange(len(self))[index]
        idx = np.atleast_1d(idx)
        return Detections(
            quads=self.quads[idx],
            conf=self.conf[idx],
            cls=self.cls[idx],
            labels=tuple(self.labels[i] for i in idx) if self.labels else (),
            topk=tuple(self.topk[i] for i in idx) if self.topk else (),
            track_id=None if self.track_id is None else self.track_id[idx],
        )

    @staticmethod
    def empty() -> Detections:
        return Detections(np.zeros((0, 4, 2)), np.zeros(0), np.zeros(0, int))

    def with_labels(self, labels: list[str], topk: list[tuple[tuple[str, float], ...]]) -> Detections:
        return Detections(self.quads, self.conf, self.cls, tuple(labels), tuple(topk), self.track_id)

    def to_json(self) -> list[dict[str, Any]]:
        out = []
        for i in range(len(self)):
            label = self.labels[i] if self.labels else ("back" if self.cls[i] == BACK else "")
            item: dict[str, Any] = {
                "card": label,
                "conf": round(float(self.conf[i]), 4),
                "quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quads[i]],
            }
            if self.topk and self.topk[i]:
                item["top"] = [[c, round(p, 4)] for c, p in self.topk[i]]
            out.append(item)
        return out


def from_ultralytics(result: Any) -> Detections:
    """The only code that reads ultralytics' ``Results`` (oriented boxes)."""
    obb = getattr(result, "obb", None)
    if obb is None or len(obb) == 0:
        return Detections.empty()
    return Detections(
        quads=obb.xyxyxyxy.cpu().numpy().astype(np.float64).reshape(-1, 4, 2),
        conf=obb.conf.cpu().numpy().astype(np.float64),
        cls=obb.cls.cpu().numpy().astype(int),
    )


def card_corners(quad: np.ndarray) -> np.ndarray:
    """Orders a card's corners clockwise from a top-left with the long side vertical (up to a half turn,
    which a point-symmetric card does not need)."""
    return cards_corners(np.asarray(quad, np.float64)[None])[0]


def cards_corners(quads: np.ndarray) -> np.ndarray:
    """``card_corners`` of many quads (N, 4, 2) at once (a frame's cards in one go)."""
    q = np.asarray(quads, np.float64).reshape(-1, 4, 2)
    centre = q.mean(axis=1, keepdims=True)
    angles = np.arctan2(q[..., 1] - centre[..., 1], q[..., 0] - centre[..., 0])
    q = np.take_along_axis(q, np.argsort(angles, axis=1)[..., None], axis=1)  # clockwise in image coordinates
    top = np.linalg.norm(q[:, 1] - q[:, 0], axis=1) > np.linalg.norm(q[:, 2] - q[:, 1], axis=1)
    q[top] = np.roll(q[top], -1, axis=1)  # make q0->q1 the short (top) side
    return q


def same_card(dets: Detections, *, across: float, along: float) -> Detections:
    """Keeps one box of each card: going from the most confident, a box is dropped when its centre lies within
    ``across`` card widths and ``along`` card heights of a kept box of the same class. Cards fanned or stacked
    in a ladder lie a fifth of a card or more apart and are all kept; two boxes of one card lie closer. (The
    detector's own suppression compares boxes by their overlap, and neighbouring cards of a fan overlap as much
    as two boxes of one card do, so it keeps one card of a fan.)"""
    if len(dets) < 2:
        return dets
    corners = cards_corners(dets.quads)
    centres = corners.mean(axis=1)
    u = corners[:, 1] - corners[:, 0]  # across the card, its width long
    v = corners[:, 3] - corners[:, 0]  # along the card, its height long
    d = centres[:, None] - centres[None]  # d[j, k]: from box k's centre to box j's
    # covers[j, k]: box j lies on box k's card (measured along k's sides) and is of its class
    covers = (
        (np.abs(np.einsum("jkc,kc->jk", d, u)) < across * (u**2).sum(axis=1))
        & (np.abs(np.einsum("jkc,kc->jk", d, v)) < along * (v**2).sum(axis=1))
        & (dets.cls[:, None] == dets.cls[None])
    )
    kept: list[int] = []
    dropped = np.zeros(len(dets), bool)
    for k in np.argsort(-dets.conf, kind="stable"):
        if not dropped[k]:
            kept.append(int(k))
            dropped |= covers[:, k]
    return dets[np.array(sorted(kept), int)]


def match_quads(pred: Detections, truth_quads: list[np.ndarray], iou: float = 0.5) -> dict[int, int]:
    """Detections paired with true quads greedily, most confident first, at an IoU of at least ``iou``:
    detection index -> truth index."""
    taken: set[int] = set()
    pairs = {}
    for i in np.argsort(-pred.conf):
        best, best_iou = -1, iou
        for j, q in enumerate(truth_quads):
            if j in taken:
                continue
            v = polygon_iou(pred.quads[i], q)
            if v >= best_iou:
                best, best_iou = j, v
        if best >= 0:
            taken.add(best)
            pairs[int(i)] = best
    return pairs


def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """IoU of two convex quads."""
    pa, pb = a.astype(np.float32).reshape(-1, 2), b.astype(np.float32).reshape(-1, 2)
    inter, _ = cv2.intersectConvexConvex(pa, pb)
    union = cv2.contourArea(pa) + cv2.contourArea(pb) - inter
    return float(inter / union) if union > 0 else 0.0
