"""Tracking cards across frames: ultralytics' ByteTrack keeps each detection's id; identities are read once
per track and again only when the card's pixels change (motion gating), and readings are pooled over frames.

A card put down exactly where another lay keeps the old track id; its pixels change, so it is read again,
and a confident new reading replaces the pooled one instead of averaging with it.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import cv2
import numpy as np

from vision.detections import BACK, Detections, cards_corners
from vision.synth.dataset import NOT_A_CARD, rectify
from vision.table import Seen, back_colour

PATCH = (12, 16)  # the tiny grey thumbnail that tells whether a card's pixels changed
CHANGED = 18.0  # mean absolute grey difference (0-255) that counts as a change
SURE = 0.9  # a track found again after frames unseen is read again; a reading this sure of another card replaces
# its pool (a waste lifted, turned and dealt back where it lay: ByteTrack gives the new top the old track, and
# faces of one deck differ too little in a tiny thumbnail for the motion gate)
REFRESH_FRAMES = 30  # read every track again at least this often
UNREAD_DRIFT = 0.25  # an unread face this far (share of its size) from where its track was read is another card
STATIC_SHARE = 0.06  # moved less than this share of its size over the last frames: lying still
STILL_FRAMES = 3  # ... in each of this many processed frames in a row (at 15 frames/s, still for 0.13 s)

TRACKER_ARGS = {
    "tracker_type": "bytetrack",
    "track_high_thresh": 0.25,
    "track_low_thresh": 0.1,
    "new_track_thresh": 0.25,
    "track_buffer": 30,
    "match_thresh": 0.8,
    "fuse_score": True,
}


class _Boxes:
    """The numpy-backed results ByteTrack reads: conf, cls, xywhr, boolean indexing."""

    def __init__(self, conf: np.ndarray, cls: np.ndarray, xywhr: np.ndarray) -> None:
        self.conf, self.cls, self.xywhr = conf, cls, xywhr

    def __len__(self) -> int:
        return len(self.conf)

    def __getitem__(self, index: Any) -> _Boxes:
        return _Boxes(self.conf[index], self.cls[index], self.xywhr[index])

    @property
    def xywh(self) -> np.ndarray:
        return self.xywhr[:, :4]

    @property
    def xyxy(self) -> np.ndarray:
        c, wh = self.xywhr[:, :2], self.xywhr[:, 2:4]
        return np.hstack([c - wh / 2, c + wh / 2])


def _xywhr(quads: np.ndarray) -> np.ndarray:
    out = np.zeros((len(quads), 5), np.float32)
    for i, q in enumerate(quads):
        (cx, cy), (w, h), a = cv2.minAreaRect(np.asarray(q, np.float32))
        out[i] = (cx, cy, w, h, np.deg2rad(a))
    return out


@dataclass
class _Track:
    probs: dict[str, float] = field(default_factory=dict)
    patch: np.ndarray | None = None
    read_at: int = -(10**9)
    centres: deque[np.ndarray] = field(default_factory=lambda: deque(maxlen=STILL_FRAMES))
    colour: tuple[float, float, float] | None = None
    label: str | None = None  # a reading given with the detection (the oracle's)
    read_at_xy: np.ndarray | None = None  # where that reading was given
    label_conf: float = 1.0  # how surely it was given
    seen_at: int = 0  # the processed frame it was last found in

    def best(self) -> tuple[str | None, float, tuple[tuple[str, float], ...]]:
        if self.label is not None:
            return self.label, self.label_conf, ((self.label, self.label_conf),)
        if not self.probs:
            return None, 0.0, ()
        ranked = sorted(self.probs.items(), key=lambda kv: -kv[1])[:5]
        cards = tuple(kv for kv in ranked if kv[0] != NOT_A_CARD)  # candidates for the referee are cards
        return ranked[0][0], ranked[0][1], cards


def _differs(pooled: dict[str, float], new: dict[str, float]) -> bool:
    """A reading sure of another card than the pool's."""
    card, p = max(new.items(), key=lambda kv: kv[1])
    return p >= SURE and card != max(pooled.items(), key=lambda kv: kv[1])[0]


class CardTracks:
    """Detections in, ``Seen`` cards out (track ids, pooled identities, lying still or not, back colours)."""

    def __init__(self, identifier: Any | None = None, *, frame_rate: int = 30) -> None:
        from vision.train import offline_ultralytics

        offline_ultralytics()
        from ultralytics.trackers.byte_tracker import BYTETracker

        self.identifier = identifier
        # Lost tracks are kept ~3 s: a hand may cover a card that long.
        self.tracker = BYTETracker(SimpleNamespace(**(TRACKER_ARGS | {"track_buffer": max(10, 3 * frame_rate)})))
        self.tracks: dict[int, _Track] = {}
        self.frame = 0
        self.reads = 0  # crops sent to the identifier (motion gating keeps this low)

    def update(self, image: np.ndarray, detections: Detections) -> list[Seen]:
        self.frame += 1
        if len(detections) == 0:
            self.tracker.update(_Boxes(np.zeros(0, np.float32), np.zeros(0), np.zeros((0, 5), np.float32)), image)
            return []
        boxes = _Boxes(detections.conf.astype(np.float32), detections.cls.astype(np.float32), _xywhr(detections.quads))
        rows = self.tracker.update(boxes, image)
        ids = {int(r[-1]): int(r[-4]) for r in rows}  # detection index -> track id
        corners = cards_corners(detections.quads)
        seen: list[Seen] = []
        to_read: list[tuple[int, int, bool]] = []  # (detection, track, found again after frames unseen)
        for i in range(len(detections)):
            tid = ids.get(i)
            if tid is None:
                continue  # a new track is confirmed on its next frame
            tr = self.tracks.setdefault(tid, _Track(seen_at=self.frame))
            refound = self.frame - tr.seen_at > 1
            tr.seen_at = self.frame
            quad = corners[i]
            tr.centres.append(quad.mean(axis=0))
            given = detections.labels and detections.topk and detections.topk[i]
            if detections.labels and detections.cls[i] != BACK and self.identifier is None:
                # Readings came with the detections. An unread face keeps its track's reading only while it lies
                # where it was read: a track that slid onto another card (a hand passing over a pile) is not it.
                if given:
                    tr.label, tr.read_at_xy = detections.labels[i], quad.mean(axis=0)
                    tr.label_conf = float(detections.topk[i][0][1])
                elif tr.label is not None and tr.read_at_xy is not None:
                    size = float(np.linalg.norm(quad[2] - quad[0]))
                    if float(np.linalg.norm(quad.mean(axis=0) - tr.read_at_xy)) > UNREAD_DRIFT * size:
                        tr.label = None
            if detections.cls[i] == BACK:
                if tr.colour is None:
                    tr.colour = back_colour(image, quad)
                continue
            if tr.label is not None or self.identifier is None:
                continue
            patch = cv2.resize(cv2.cvtColor(rectify(image, quad, (48, 64)), cv2.COLOR_BGR2GRAY), PATCH,
                               interpolation=cv2.INTER_AREA).astype(np.float32)  # fmt: skip
            changed = tr.patch is None or float(np.abs(patch - tr.patch).mean()) > CHANGED
            if changed or refound or self.frame - tr.read_at >= REFRESH_FRAMES:
                to_read.append((i, tid, refound))
                tr.patch = patch
                if changed:
                    tr.probs = {}  # a different card (or the same one turned): start the pool again
        if to_read and self.identifier is not None:
            sub = detections[np.array([i for i, _, _ in to_read])]
            read = self.identifier(image, sub)
            self.reads += len(to_read)
            for k, (_i, tid, refound) in enumerate(to_read):
                tr = self.tracks[tid]
                tr.read_at = self.frame
                new = dict(read.topk[k]) if read.topk else {}
                if refound and tr.probs and new and _differs(tr.probs, new):
                    tr.probs = {}
                keys = set(tr.probs) | set(new)
                tr.probs = {c: 0.5 * tr.probs.get(c, 0.0) + 0.5 * new.get(c, 0.0) for c in keys} if tr.probs else new
        for i in range(len(detections)):
            tid = ids.get(i)
            if tid is None:
                continue
            tr = self.tracks[tid]
            back = bool(detections.cls[i] == BACK)
            card, conf, cands = (None, float(detections.conf[i]), ()) if back else tr.best()
            if card == NOT_A_CARD:
                continue  # the identifier sees no card face here: the detector slipped
            quad = corners[i]
            size = float(np.linalg.norm(quad[2] - quad[0]))
            pts = np.array(tr.centres)
            static = len(pts) >= 2 and float(np.linalg.norm(pts - pts[-1], axis=1).max()) < STATIC_SHARE * size
            seen.append(Seen(quad, card, back, conf, cands, tid, static, tr.colour))
        live = {t.track_id for t in self.tracker.tracked_stracks + self.tracker.lost_stracks}
        for tid in list(self.tracks):
            if tid not in live:
                del self.tracks[tid]
        return seen
