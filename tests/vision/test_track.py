"""Card tracks: ultralytics' ByteTrack over oriented boxes, with readings pooled per track."""

from __future__ import annotations

import numpy as np

from vision.detections import FACE, Detections
from vision.oracle import oracle_detections
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


class _Reader:
    """An identifier that reads every crop as ``card``, and counts its calls."""

    def __init__(self, card: str) -> None:
        self.card, self.calls = card, 0

    def __call__(self, image: np.ndarray, found: Detections) -> Detections:
        self.calls += 1
        return found.with_labels([self.card] * len(found), [((self.card, 0.97),)] * len(found))


def test_a_card_dealt_where_a_lifted_one_lay_is_read_again_though_its_pixels_barely_differ() -> None:
    """A waste is picked up, turned and dealt back: ByteTrack gives the new top the old top's track, and in a
    tiny thumbnail two faces of one deck look alike, so only the track being lost a moment says to read again."""
    reader = _Reader("3S")
    tracks = CardTracks(reader, frame_rate=15)
    image = np.full((480, 640, 3), 200, np.uint8)
    for _ in range(3):
        before = tracks.update(image, frame((200, 200, "")))
    assert [s.card for s in before] == ["3S"]
    for _ in range(3):  # lifted: nothing there
        tracks.update(image, Detections.empty())
    reader.card = "2C"
    for _ in range(2):
        after = tracks.update(image, frame((201, 200, "")))
    assert [s.track for s in after] == [before[0].track]  # the same track...
    assert [s.card for s in after] == ["2C"]  # ...read again
    calls = reader.calls
    for _ in range(3):  # lying still and unchanged: not read again
        tracks.update(image, frame((201, 200, "")))
    assert reader.calls == calls


def test_a_card_put_on_a_pile_in_full_view_is_read_surer_than_the_top_peeking_out_beneath_it() -> None:
    # Read alike, the table model would take the higher of a place's two cards for the pile's top (a pile builds
    # up), and a lower card put on the pile by mistake would never be its top (e2e-s42/game01, oracle).
    truth = {"cards": [
        {"card": "5S", "quad": card(300, 200), "visible": 0.12, "index_visible": True, "zone": "foundation:f1"},
        {"card": "4D", "quad": card(302, 203), "visible": 1.0, "index_visible": True, "zone": "foundation:f1"},
    ]}  # fmt: skip
    found = oracle_detections(truth)
    assert found.conf[1] == 1.0 and found.conf[0] < found.conf[1]
    tracks = CardTracks(None, frame_rate=15)
    image = np.zeros((480, 640, 3), np.uint8)
    for _ in range(3):
        seen = tracks.update(image, found)
    conf = {s.card: s.conf for s in seen}
    assert set(conf) == {"5S", "4D"} and conf["4D"] > conf["5S"]
    assert dict(next(s for s in seen if s.card == "5S").candidates)["5S"] == conf["5S"]
