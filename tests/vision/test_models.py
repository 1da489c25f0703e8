"""The committed models load and run on the committed sample; `detect --json` keeps its schema; a bad path is
reported while the other images are still read; nothing is downloaded."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from demonref.cli import app

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "models"
SAMPLE = ROOT / "datasets" / "sample"

pytestmark = [
    pytest.mark.usefixtures("no_network"),
    pytest.mark.skipif(
        not (MODELS / "detector.pt").exists() or not (MODELS / "identifier.pt").exists(),
        reason="models not trained yet",
    ),
]


def test_detect_json_schema_and_bad_paths(tmp_path: Path) -> None:
    images = sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))[:2]
    args = ["detect", str(images[0]), str(tmp_path / "missing.jpg"), str(images[1]), "--json", "--models", str(MODELS),
            "--annotate", str(tmp_path / "drawn")]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and "missing.jpg: no such file" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(images[0]), str(images[1])]
    for line in lines:
        for card in line["cards"]:
            assert set(card) >= {"card", "conf", "quad"} and len(card["quad"]) == 4
            assert card["card"] == "back" or len(card["card"]) in (2, 3)
            assert 0 <= card["conf"] <= 1
    assert len(list((tmp_path / "drawn").iterdir())) == 2


def test_detect_reads_folders_and_keeps_each_drawn_copy(tmp_path: Path) -> None:
    """A folder stands for the images in it; a folder with none is an error naming it while the rest is read;
    photos of the same name in two folders get a drawn copy each."""
    import shutil

    sample = sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))[0]
    for folder in ("table1", "table2"):
        (tmp_path / folder).mkdir()
        shutil.copy(sample, tmp_path / folder / "photo.jpg")
    (tmp_path / "table1" / "notes.txt").write_text("not a photo")
    (tmp_path / "empty").mkdir()
    args = ["detect", str(tmp_path / "table1"), str(tmp_path / "empty"), str(tmp_path / "table2"), "--json",
            "--models", str(MODELS), "--annotate", str(tmp_path / "drawn")]  # fmt: skip
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and f"{tmp_path / 'empty'}: a folder with no images" in result.stderr
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["image"] for line in lines] == [str(tmp_path / f / "photo.jpg") for f in ("table1", "table2")]
    assert lines[0]["cards"] == lines[1]["cards"] and lines[0]["cards"]
    assert sorted(p.name for p in (tmp_path / "drawn").iterdir()) == ["photo.jpg", "table2_photo.jpg"]


def test_identifier_reads_the_sample_crops() -> None:
    import cv2

    from vision.models import CardIdentifier

    identifier = CardIdentifier(MODELS / "identifier.pt")
    crops = sorted((SAMPLE / "identify" / "train").rglob("*_card.png"))[:20]
    probs = identifier.classify([cv2.imread(str(p)) for p in crops])
    assert probs.shape == (len(crops), len(identifier.names)) and len(identifier.names) in (52, 53)
    right = sum(identifier.names[int(p.argmax())] == c.parent.name for p, c in zip(probs, crops, strict=True))
    assert right >= len(crops) // 2  # whole, unblurred training-design cards: most are read


def test_exported_backends_read_like_the_weights() -> None:
    """The OpenVINO export made on first use (cached by the weights' hash) reads what PyTorch reads."""
    import cv2

    from vision.models import CardIdentifier

    crops = [cv2.imread(str(p)) for p in sorted((SAMPLE / "identify" / "train").rglob("*_card.png"))[:24]]
    torch_probs = CardIdentifier(MODELS / "identifier.pt", backend="torch").classify(crops)
    fast = CardIdentifier(MODELS / "identifier.pt", backend="openvino")
    assert fast.backend == "openvino"
    fast_probs = fast.classify(crops)
    assert (torch_probs.argmax(axis=1) == fast_probs.argmax(axis=1)).mean() >= 0.9
    np.testing.assert_allclose(torch_probs.max(axis=1), fast_probs.max(axis=1), atol=0.05)


def test_crops_at_the_network_size_read_the_same_straight_through_the_runtime() -> None:
    """classify() hands view-sized crops to the runtime as one batch; ultralytics' predictor reads the same."""
    import cv2

    from vision.models import CardIdentifier

    crops = [cv2.imread(str(p)) for p in sorted((SAMPLE / "identify" / "train").rglob("*.png"))[:12]]
    assert all(c.shape[:2] == (64, 64) for c in crops)
    for backend in ("torch", "auto"):
        identifier = CardIdentifier(MODELS / "identifier.pt", backend=backend)
        identifier.classify(crops[:1])  # the first call goes through the predictor (it sets the runtime up)
        np.testing.assert_allclose(identifier.classify(crops), identifier._predict(crops), atol=1e-6)
    odd = [cv2.resize(c, (48, 64)) for c in crops[:3]]  # another size: the predictor's transforms
    assert identifier.classify(odd).shape == (3, len(identifier.names))


def test_the_detector_export_takes_the_frame_shape_and_finds_what_the_weights_find() -> None:
    """A fixed-size export is made for the frame's letterboxed shape (384x640 for 16:9, not the square 640x640),
    and finds the cards the PyTorch weights find on a wide sample frame."""
    import cv2

    from vision.detections import match_quads
    from vision.models import CardDetector, network_shape

    assert network_shape(720, 1280, 640) == (384, 640) == network_shape(1080, 1920, 640)
    assert network_shape(480, 640, 640) == (480, 640) and network_shape(1280, 720, 640) == (640, 384)
    frame = next(
        img for p in sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))
        if (img := cv2.imread(str(p))).shape[1] > img.shape[0] * 1.3
    )  # fmt: skip
    weights = CardDetector(MODELS / "detector.pt", backend="torch")(frame)
    fast = CardDetector(MODELS / "detector.pt", backend="openvino")
    found = fast(frame)
    assert list(fast._models) == [network_shape(*frame.shape[:2], 640)]
    assert len(weights) >= 3 and abs(len(found) - len(weights)) <= max(1, len(weights) // 20)
    # cards near the threshold may differ
    assert len(match_quads(found, list(weights.quads), 0.7)) >= 0.9 * len(weights)


def test_a_reader_watching_a_table_keeps_the_boxes_a_still_photo_suppresses() -> None:
    """Review and live keep every card of a ladder or fan (``WATCHING``): at least the boxes a still photo keeps,
    and never two boxes of one card (centres within the same-card distance)."""
    import cv2

    from vision.detections import same_card
    from vision.models import WATCHING, CardReader

    frame = cv2.imread(str(sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))[0]))
    # the suppression alone: at the input size still photos are looked at (a watched table's is larger, below)
    still, watching = CardReader.load(MODELS), CardReader.load(MODELS, watch=True, detector_size=640)
    assert (watching.detector.iou, watching.detector.same_card_gap) == (WATCHING["iou"], WATCHING["same_card_gap"])
    assert (still.detector.iou, still.detector.same_card_gap) == (0.7, None)
    few, many = still.detector(frame), watching.detector(frame)
    assert len(many) >= len(few) >= 3
    gap = WATCHING["same_card_gap"]
    assert len(same_card(many, across=gap, along=gap)) == len(many)  # nothing left to drop


def test_views_are_pooled_by_their_product_unless_asked_for_the_most_confident() -> None:
    from vision.models import pool_views

    views = np.array([[0.6, 0.3, 0.1], [0.7, 0.2, 0.1], [0.2, 0.75, 0.05]])
    assert pool_views(views, "max").argmax() == 1  # the single most confident view
    summed = pool_views(views, "sum")
    assert summed.argmax() == 0 and abs(summed.sum() - 1) < 1e-9  # two agreeing views outvote a confident one


def test_an_identifier_crops_the_index_corner_its_card_names(tmp_path: Path) -> None:
    from vision.models import index_part_of
    from vision.synth.dataset import INDEX_PART, INDEX_PART_V1

    weights = tmp_path / "identifier.pt"
    assert index_part_of(weights) == INDEX_PART_V1  # no card: the corner older identifiers were trained on
    weights.with_suffix(".json").write_text(json.dumps({"data_build": {"index_part": list(INDEX_PART)}}))
    assert index_part_of(weights) == INDEX_PART


def test_held_out_renders_are_scored_by_where_the_cards_lie() -> None:
    from vision.evaluate import evaluate_renders
    from vision.models import CardReader

    reader = CardReader.load(MODELS)
    loaded = (reader.detector.iou, reader.detector.same_card_gap)
    m = evaluate_renders(reader, 1)
    assert (reader.detector.iou, reader.detector.same_card_gap) == loaded
    d = m["detection"]
    zones = d["recall_by_zone"]
    assert "demon" in zones and all(":" not in z for z in zones)  # "line:3" counts as "line"
    assert sum(v["n"] for v in zones.values()) == d["tp"] + d["fn"] == d["clear_n"] + d["covered_n"]
    found = sum(round(v["recall"] * v["n"]) for v in zones.values())
    assert found == d["tp"]
    # The chain's suppression (WATCHING) is scored on the same cards: its zones add up to its matches, and the
    # reader is left as it was loaded (still-photo suppression).
    w = d["watching"]
    assert set(w["recall_by_zone"]) == set(zones)
    assert sum(round(w["recall_by_zone"][z] * zones[z]["n"]) for z in zones) == w["tp"]
    assert w["recall"] == w["tp"] / (d["tp"] + d["fn"])


def _close_up(frame: np.ndarray, quads: list[np.ndarray], centre: np.ndarray, zoom: float) -> tuple[np.ndarray, list]:
    """A window of ``frame`` round ``centre`` blown up ``zoom`` times to the frame's size (a camera nearer the
    table), with the true quads of the cards lying wholly inside it."""
    import cv2

    h, w = frame.shape[:2]
    ww, hh = w / zoom, h / zoom
    x0, y0 = int(np.clip(centre[0] - ww / 2, 0, w - ww)), int(np.clip(centre[1] - hh / 2, 0, h - hh))
    near = cv2.resize(frame[y0 : y0 + int(hh), x0 : x0 + int(ww)], (w, h), interpolation=cv2.INTER_CUBIC)
    moved = [(q - [x0, y0]) * zoom for q in quads]
    return near, [q for q in moved if q.min() >= 0 and q[:, 0].max() < w and q[:, 1].max() < h]


def test_a_still_photo_taken_near_the_cards_is_also_looked_at_shrunk() -> None:
    """The detector learnt cards at the size a whole table shows them; seen three times nearer, it finds them better
    (and with fewer stray boxes) in the photo shrunk back to that size: ``STILL`` looks at both and keeps the surer."""
    import cv2

    from vision.detections import match_quads
    from vision.models import STILL, CardReader

    still = CardReader.load(MODELS).detector
    assert still.shrink == STILL["shrink"] and CardReader.load(MODELS, watch=True).detector.shrink == (1.0,)
    once = replace(still, shrink=(1.0,))
    counts = {"truth": 0, "once": 0, "once_boxes": 0, "still": 0, "still_boxes": 0}
    for path in sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))[:3]:
        frame = cv2.imread(str(path))
        h, w = frame.shape[:2]
        label = SAMPLE / "detect" / "labels" / path.parent.name / f"{path.stem}.txt"
        quads = [np.array(line.split()[1:], float).reshape(4, 2) * [w, h] for line in label.read_text().splitlines()]
        for q in quads[::5]:
            near, inside = _close_up(frame, quads, q.mean(axis=0), 3.0)
            a, b = once(near), still(near)
            counts["truth"] += len(inside)
            counts["once"] += len(match_quads(a, inside))
            counts["still"] += len(match_quads(b, inside))
            counts["once_boxes"] += len(a)
            counts["still_boxes"] += len(b)
    assert counts["truth"] >= 40
    assert counts["still"] > counts["once"]
    assert counts["still"] / counts["still_boxes"] > counts["once"] / counts["once_boxes"]


def test_a_shrunk_look_finds_its_cards_where_they_lie_in_the_photo() -> None:
    """Boxes found in the photo shrunk (and padded) come back in the photo's own pixels."""
    import cv2

    from vision.detections import match_quads
    from vision.models import CardDetector

    frame = cv2.imread(str(sorted((SAMPLE / "detect" / "images").rglob("*.jpg"))[0]))
    detector = CardDetector(MODELS / "detector.pt")
    as_taken, shrunk = detector._shrunk(frame, 1.0), detector._shrunk(frame, 1.5)
    assert len(shrunk) >= 5
    assert len(match_quads(shrunk, list(as_taken.quads), 0.5)) >= 0.8 * len(shrunk)


def test_the_surest_look_is_kept_and_the_photo_as_taken_wins_a_near_tie(monkeypatch: pytest.MonkeyPatch) -> None:
    from vision.detections import Detections
    from vision.models import AS_TAKEN_BONUS, EMPTY_CONF, CardDetector

    def found(*conf: float) -> Detections:
        return Detections(np.zeros((len(conf), 4, 2)), np.array(conf, float), np.zeros(len(conf), int))

    detector = CardDetector(MODELS / "detector.pt", shrink=(1.0, 2.0))
    frame = np.zeros((72, 128, 3), np.uint8)
    for looks, kept in [
        ({1.0: found(0.6, 0.7), 2.0: found(0.9)}, 2.0),  # surer shrunk
        ({1.0: found(0.8), 2.0: found(0.8 + AS_TAKEN_BONUS / 2)}, 1.0),  # a near tie goes to the photo as taken
        ({1.0: found(0.5, 0.6), 2.0: found()}, 2.0),  # stray boxes lose to finding nothing
        ({1.0: found(EMPTY_CONF + 0.1), 2.0: found()}, 1.0),
    ]:
        monkeypatch.setattr(detector, "_shrunk", lambda image, f, looks=looks: looks[f])
        assert detector(frame) is looks[kept]
    with pytest.raises(ValueError, match="shrink factors"):
        CardDetector(MODELS / "detector.pt", shrink=(0.5,))


def test_the_detector_input_for_a_watched_table_can_be_chosen_and_a_bad_one_is_refused(tmp_path: Path) -> None:
    """Review and live look at 896 px by default (``WATCHING``); ``--detector-size`` trades it for speed, and a size
    the network cannot take is refused with a message naming it."""
    from vision.models import WATCHING, CardReader

    assert CardReader.load(MODELS, watch=True).detector.imgsz == WATCHING["imgsz"] == 896
    assert CardReader.load(MODELS).detector.imgsz == 640  # still photos
    assert CardReader.load(MODELS, watch=True, detector_size=640).detector.imgsz == 640
    with pytest.raises(ValueError, match="multiple of 32"):
        CardReader.load(MODELS, watch=True, detector_size=650)
    game = str(SAMPLE / "game" / "game.mp4")
    bad = CliRunner().invoke(app, ["review", game, "--out", str(tmp_path / "r"), "--detector-size", "650"])
    assert bad.exit_code == 2 and "multiple of 32" in bad.stderr and not (tmp_path / "r").exists()


def test_a_watched_table_with_small_cards_gets_a_larger_detector_input_unless_one_was_chosen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 1920x1080 eight players' cards are 29 px wide: 13.5 px at the default 896 input, smaller than the detector
    learnt them (20-30 px). Watching, the input grows to bring them to 20 px (a multiple of 32, at most 1280 and the
    frame's own side); cards wide enough keep 896, and so does a size given with ``--detector-size``. On int8 it
    grows on to the next size that has an int8 export, where one does (here none but 896's)."""
    import vision.models
    from vision.models import CardReader

    monkeypatch.setattr(vision.models, "find_int8", lambda path, shape: path if shape == (512, 896) else None)
    watching = CardReader.load(MODELS, watch=True).detector
    assert watching.fit_cards(45.3, (1920, 1080)) is None and watching.imgsz == 896  # 21 px at 896
    assert watching.fit_cards(38.1, (1920, 1080)) == 1024 == watching.imgsz  # 17.8 px at 896; 20.3 at 1024
    assert watching.fit_cards(29.8, (1920, 1080)) == 1280  # at most 1280
    assert watching.fit_cards(38.1, (1920, 1080)) is None  # never shrinks
    small = CardReader.load(MODELS, watch=True).detector
    assert small.fit_cards(18.0, (1280, 720)) == 1280  # at most the frame's own side
    chosen = CardReader.load(MODELS, watch=True, detector_size=896).detector
    assert chosen.fit_cards(29.8, (1920, 1080)) is None and chosen.imgsz == 896


def test_a_detector_on_int8_grows_its_input_to_the_next_size_with_an_int8_export(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fitting its input to small cards, a detector on int8 takes the next size up that has an int8 export of its
    weights (the others run on the float export, slower); none up to the largest, it takes the size asked. A detector
    on the float export takes the size asked."""
    import vision.models
    from vision.models import CardReader

    made = {(512, 896), (640, 1088), (736, 1280)}
    monkeypatch.setattr(vision.models, "find_int8", lambda path, shape: path if shape in made else None)
    on_int8 = CardReader.load(MODELS, watch=True).detector
    assert on_int8.backend == "int8"
    assert on_int8.fit_cards(38.1, (1920, 1080)) == 1088 == on_int8.imgsz  # 1024 asked
    made = {(512, 896), (640, 1088)}
    on_int8 = CardReader.load(MODELS, watch=True).detector
    assert on_int8.fit_cards(34.0, (1920, 1080)) == 1152  # 1152 asked; none at 1152-1280
    on_float = CardReader.load(MODELS, watch=True).detector
    on_float.backend = "openvino"
    assert on_float.fit_cards(38.1, (1920, 1080)) == 1024
