"""The oracle detector: detections read straight from a rendered game's truth, so tracking, reconstruction and
attribution can be measured before recognition is (a perfect reader that still suffers hands)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from vision.detections import BACK, FACE, Detections


def oracle_detections(frame: Mapping[str, Any], min_visible: float = 0.45) -> Detections:
    """A perfect detector and reader for one line of ``truth.jsonl``: every card that shows enough (or shows
    an index), read right when an index shows, unread otherwise. Cards under a hand are missed, as a camera
    would miss them."""
    quads, cls, labels, topk = [], [], [], []
    for c in frame["cards"]:
        face = c["card"] != "back"
        if c["visible"] < min_visible and not (face and c["index_visible"]):
            continue
        quads.append(c["quad"])
        cls.append(FACE if face else BACK)
        label = c["card"] if (face and c["index_visible"]) else ("back" if not face else "")
        labels.append(label)
        topk.append(((label, 1.0),) if label and face else ())
    if not quads:
        return Detections.empty()
    return Detections(np.array(quads, np.float64), np.ones(len(quads)), np.array(cls, int), tuple(labels), tuple(topk))
