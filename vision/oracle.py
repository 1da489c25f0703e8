"""The oracle detector: detections read straight from a rendered game's truth, so tracking, reconstruction and
attribution can be measured before recognition is (a perfect reader that still suffers hands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from vision.detections import BACK, FACE, Detections

# How surely the oracle reads a face that shows only its index (covered but for a corner): less surely than one lying
# in view, as a camera's reader would.
PEEKING = 0.9


def oracle_detections(frame: Mapping[str, Any], min_visible: float = 0.45) -> Detections:
    """A perfect detector and reader for one line of ``truth.jsonl``: every card that shows enough (or shows
    an index), read right when an index shows, unread otherwise. Cards under a hand are missed, as a camera
    would miss them. A face that shows only its index is read less surely (``PEEKING``), as a camera's reader
    would read it: equally sure readings of a card and of the pile top peeking out beneath it would leave the
    table model to take the higher for the pile's top (a pile builds up), and a lower card put on a pile by
    mistake would never be seen there (e2e-s42/game01: p2's 4D on the 5S pile, 2.5 s in full view)."""
    quads, cls, labels, topk, sure = [], [], [], [], []
    for c in frame["cards"]:
        face = c["card"] != "back"
        if c["visible"] < min_visible and not (face and c["index_visible"]):
            continue
        quads.append(c["quad"])
        cls.append(FACE if face else BACK)
        label = c["card"] if (face and c["index_visible"]) else ("back" if not face else "")
        labels.append(label)
        sure.append(1.0 if c["visible"] >= min_visible else PEEKING)
        topk.append(((label, sure[-1]),) if label and face else ())
    if not quads:
        return Detections.empty()
    return Detections(np.array(quads, np.float64), np.array(sure), np.array(cls, int), tuple(labels), tuple(topk))
