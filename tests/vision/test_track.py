"""Card tracks: ultralytics' ByteTrack over oriented boxes, with readings pooled per track."""

from __future__ import annotations

import numpy as np

from vision.detections import FACE, Detections
from vision.track import CardTracks


def card(cx: float, cy: float, w: float = 60, h: float = 84) -> list[list[float]]:
    return [[cx - w / 2, cy - h / 2], [cx + w / 2, cy - h / 2], [cx + w / 2, cy + h / 2], [cx - w / 2, cy + h / 2]]


def frame(*cards: tuple[float, float, str]) -> Detections:
    labels = tuple(label for _, _, label in cards)
    return Detections(
        np.array([card(x, y) for x, y, _ in cards], np.float64),
        np.ones(len(cards)),
        np.full(len(cards), FACE),
        labels,
        tuple(((label, 1.0),) if label else () for label in labels),
    )


def test_a_read_card_keeps_its_reading_while_unread_where_it_lies_but_not_once_its_track_slides_elsewhere() -> None:
    tracks = CardTracks(None, frame_rate=15)
    image = np.zeros((480, 640, 3), np.uint8)
    for _ in range(3):
        seen = tracks.update(image, frame((200, 200, "3D")))
    assert [s.card for s in seen] == ["3D"]
    seen = tracks.update(image, frame((202, 201, "")))  # its index covered a moment: still the 3D
    assert [s.card for s in seen] == ["3D"]
    for x in (215, 230, 245):  # the track drifts onto a card beside it whose index does not show
        seen = tracks.update(image, frame((x, 200, "")))
    assert all(s.card != "3D" for s in seen)
