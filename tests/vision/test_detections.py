"""The detections type, corner ordering, IoU, and the detect command's errors without models."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from demonref.cli import app
from vision.detections import BACK, FACE, Detections, card_corners, cards_corners, polygon_iou, same_card
from vision.models import ModelMissingError, read_image


def test_detections_validate_and_index() -> None:
    d = Detections(np.zeros((3, 4, 2)), np.array([0.9, 0.2, 0.7]), np.array([0, 1, 0]))
    kept = d[d.conf > 0.5]
    assert len(kept) == 2 and kept.cls.tolist() == [0, 0]
    with pytest.raises(ValueError, match=r"quads must be \(N, 4, 2\), got \(3, 4\)"):
        Detections(np.zeros((3, 4)), np.zeros(3), np.zeros(3))
    with pytest.raises(ValueError, match="conf and cls"):
        Detections(np.zeros((2, 4, 2)), np.zeros(3), np.zeros(2))
    labelled = d.with_labels(["QS", "back", "7H"], [(("QS", 0.9),), (), (("7H", 0.8),)])
    assert [c["card"] for c in labelled.to_json()] == ["QS", "back", "7H"]


@pytest.mark.parametrize("turns", range(4))
def test_card_corners_put_the_short_side_on_top(turns: int) -> None:
    w, h = 63, 88
    quad = np.array([[100, 100], [100 + w, 100], [100 + w, 100 + h], [100, 100 + h]], float)
    angle = np.pi / 2 * turns + 0.2
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    q = (quad - quad.mean(axis=0)) @ rot.T
    ordered = card_corners(np.roll(q, turns, axis=0))
    assert np.linalg.norm(ordered[1] - ordered[0]) == pytest.approx(w)
    assert np.linalg.norm(ordered[2] - ordered[1]) == pytest.approx(h)


def test_a_frames_quads_are_ordered_at_once_as_one_by_one() -> None:
    rng = np.random.default_rng(3)
    quads = np.stack([np.roll(_card(*rng.uniform(0, 1280, 2), angle=rng.uniform(0, 7)), int(rng.integers(4)), axis=0)
                      + rng.normal(0, 1, (4, 2)) for _ in range(200)])  # fmt: skip
    np.testing.assert_array_equal(cards_corners(quads), np.stack([card_corners(q) for q in quads]))
    assert cards_corners(np.zeros((0, 4, 2))).shape == (0, 4, 2)


def _card(x: float, y: float, angle: float = 0.3, w: float = 63, h: float = 88) -> np.ndarray:
    rot = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]]) @ rot.T
    return corners + np.array([x, y])


def test_same_card_keeps_a_fan_and_a_ladder_and_drops_a_second_box_of_one_card() -> None:
    angle = 0.3
    across = np.array([np.cos(angle), np.sin(angle)])  # the card's width direction
    along = np.array([-np.sin(angle), np.cos(angle)])
    fan = [_card(*(np.array([200.0, 200.0]) + k * 12 * across), angle) for k in range(3)]  # 12 mm apart
    ladder = [_card(*(np.array([500.0, 200.0]) + k * 21 * along), angle) for k in range(3)]  # 21 mm apart
    again = _card(*(np.array([500.0, 200.0]) + 42 * along + 4 * across + 5 * along), angle + 0.05)
    on_back = _card(*(np.array([200.0, 200.0]) + 24 * across), angle)
    quads = np.stack([*fan, *ladder, again, on_back])
    conf = np.array([0.6, 0.7, 0.9, 0.8, 0.7, 0.9, 0.5, 0.8])
    cls = np.array([FACE] * 7 + [BACK])
    kept = same_card(Detections(quads, conf, cls), across=0.14, along=0.14)
    # Every card of the fan and of the ladder stays; the weaker box of the ladder's last card goes; a back
    # found where a face was (another class) is not a second box of that face.
    assert kept.conf.tolist() == [0.6, 0.7, 0.9, 0.8, 0.7, 0.9, 0.8]
    assert kept.cls.tolist()[-1] == BACK
    assert len(same_card(Detections.empty(), across=0.14, along=0.14)) == 0


def test_polygon_iou() -> None:
    a = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    assert polygon_iou(a, a) == pytest.approx(1.0)
    assert polygon_iou(a, a + np.array([5, 0])) == pytest.approx(50 / 150)
    assert polygon_iou(a, a + np.array([20, 0])) == 0.0


def test_read_image_errors(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such file"):
        read_image(tmp_path / "nope.jpg")
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not an image")
    with pytest.raises(ValueError, match="not a readable image"):
        read_image(bad)


def test_detect_without_models_says_how_to_train(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["detect", str(tmp_path / "x.jpg"), "--models", str(tmp_path / "models")])
    assert result.exit_code == 2
    assert "demonref train detector" in result.stderr and "Traceback" not in result.stderr
    with pytest.raises(ModelMissingError):
        from vision.models import CardDetector

        CardDetector(tmp_path / "none.pt")
