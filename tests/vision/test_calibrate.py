"""Calibration: markers found in a rendered frame give the table's true size; JSON round-trips; bad files
and bad input get clear errors; the printable sheet is readable by the finder."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.simulate import simulate
from vision.calibrate import (
    Calibration,
    CalibrationError,
    Seat,
    find_markers,
    from_card_sizes,
    from_corners,
    from_markers,
    marker_sheet,
)
from vision.synth.render import make_renderer
from vision.synth.scene import SceneStyle


def rendered(tilt: float, yaw: float, seed: int = 4) -> tuple[np.ndarray, object]:
    result = simulate(players=3, seed=seed)
    style = SceneStyle("laminate", (1280, 720), tilt, yaw, 0.92, 0.0, 0.0, 1.0, None, False, False)
    renderer = make_renderer(result, seed, heldout=False, size=(1280, 720), style=style, hands=False)
    frame, _ = renderer.render(result.table_at(0.0))
    return frame, renderer


@pytest.mark.parametrize(("tilt", "yaw"), [(0.0, 0.0), (0.2, 7.0)])
def test_markers_give_the_table_size(tilt: float, yaw: float) -> None:
    frame, renderer = rendered(tilt, yaw)
    cal = from_markers(frame)
    pos = np.array(renderer.marker_positions())  # type: ignore[attr-defined]
    true_w, true_h = pos[1, 0] - pos[0, 0], pos[3, 1] - pos[0, 1]
    assert cal.table_mm is not None
    assert cal.table_mm[0] == pytest.approx(true_w, rel=0.03)
    assert cal.table_mm[1] == pytest.approx(true_h, rel=0.03)
    # Distances on the table come out in millimetres wherever they are measured.
    found = find_markers(frame)
    centres = cal.to_table(np.array([found[i].mean(axis=0) for i in range(4)]))
    assert np.linalg.norm(centres[2] - centres[0]) == pytest.approx(np.hypot(true_w, true_h), rel=0.03)


def test_missing_markers_are_named() -> None:
    frame, _ = rendered(0.0, 0.0)
    found = find_markers(frame)
    x, y = found[2].mean(axis=0).astype(int)
    frame[y - 60 : y + 60, x - 60 : x + 60] = 128  # cover marker 2
    with pytest.raises(CalibrationError, match="markers 2 not found"):
        from_markers(frame, allow_three=False)
    three = from_markers(frame)  # its place is inferred from the other three
    assert three.notes == {"inferred_marker": 2} and three.table_mm is not None
    full = from_markers(rendered(0.0, 0.0)[0])
    assert full.table_mm is not None
    assert three.table_mm[0] == pytest.approx(full.table_mm[0], rel=0.03)
    x0, y0 = found[0].mean(axis=0).astype(int)
    frame[y0 - 60 : y0 + 60, x0 - 60 : x0 + 60] = 128  # and marker 0
    with pytest.raises(CalibrationError, match="markers 0, 2 not found"):
        from_markers(frame)


def test_json_round_trip(tmp_path: Path) -> None:
    cal = from_corners([[10, 20], [900, 30], [880, 700], [20, 690]], (1200, 800), (1280, 720))
    seat = Seat("ann", (600.0, 700.0), (0.0, 1.0), -150.0, (-75.0, 0.0, 75.0, 150.0), 240.0, "red", (40.0, 30.0, 180.0))
    cal = cal.with_seats([seat])
    path = tmp_path / "table.json"
    cal.save(path)
    again = Calibration.load(path)
    assert again == cal
    np.testing.assert_allclose(again.to_table(np.array([[10.0, 20.0]])), [[0.0, 0.0]], atol=1e-6)
    np.testing.assert_allclose(again.to_image(again.to_table(np.array([[300.0, 400.0]]))), [[300.0, 400.0]], atol=1e-6)


def test_scaled_to_another_resolution() -> None:
    cal = from_corners([[10, 20], [900, 30], [880, 700], [20, 690]], (1200, 800), (1280, 720))
    half = cal.scaled_to((640, 360))
    np.testing.assert_allclose(
        half.to_table(np.array([[5.0, 10.0]])), cal.to_table(np.array([[10.0, 20.0]])), atol=1e-6
    )


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "not a JSON calibration file"),
        ("[1, 2]", "expected a JSON object"),
        ('{"homography": [[1, 0], [0, 1]], "image_size": [10, 10]}', "invertible 3×3"),
        ('{"homography": [[1,0,0],[0,1,0],[0,0,1]], "image_size": [10, 10], "seats": [{"player": "a"}]}', "seat 0"),
        ('{"homography": [[1,0,0],[0,1,0],[0,0,1]], "image_size": [10, 10], "demon_side": "up"}', "demon_side"),
    ],
)
def test_bad_files_get_clear_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "table.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=message):
        Calibration.load(path)
    with pytest.raises(CalibrationError, match="no such file"):
        Calibration.load(tmp_path / "missing.json")


def test_the_printed_sheet_is_found(tmp_path: Path) -> None:
    path = tmp_path / "markers.png"
    marker_sheet(path, dpi=150)
    sheet = cv2.imread(str(path))
    assert sorted(find_markers(sheet)) == [0, 1, 2, 3]


def test_scale_from_card_sizes() -> None:
    quad = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], float) * 2.0  # cards 2 px per mm
    cal = from_card_sizes([quad, quad + 300], (1280, 720))
    np.testing.assert_allclose(cal.to_table(np.array([[176.0, 0.0]])), [[88.0, 0.0]])
    with pytest.raises(CalibrationError, match="nothing to measure"):
        from_card_sizes([], (1280, 720))


def test_corner_errors() -> None:
    with pytest.raises(CalibrationError, match="four corner points"):
        from_corners([[0, 0], [1, 1]], (100, 100), (10, 10))
    with pytest.raises(CalibrationError, match="positive"):
        from_corners([[0, 0], [1, 0], [1, 1], [0, 1]], (0, 100), (10, 10))
    assert json.loads(json.dumps(from_corners([[0, 0], [9, 0], [9, 9], [0, 9]], (90, 90), (10, 10)).to_json()))
