"""The int8 exports: made offline from a dataset's train split, used only with the weights they were made from,
and reading what the float model reads."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).parents[2]
MODELS = ROOT / "models"
SAMPLE = ROOT / "datasets" / "sample"

pytest.importorskip("ultralytics")
pytestmark = pytest.mark.skipif(not (MODELS / "identifier.pt").exists(), reason="models not trained yet")


def _sample_crops(n: int) -> list[np.ndarray]:
    import cv2

    return [cv2.imread(str(p)) for p in sorted((SAMPLE / "identify" / "train").rglob("*.png"))[:n]]


def test_an_int8_identifier_is_made_offline_used_by_default_and_reads_like_the_float_one(
    tmp_path: Path, no_network: None
) -> None:
    pytest.importorskip("nncf")
    from vision.models import CardIdentifier
    from vision.quantize import find_int8, quantize

    models = tmp_path / "models"
    models.mkdir()
    shutil.copy(MODELS / "identifier.pt", models / "identifier.pt")
    shutil.copy(MODELS / "identifier.json", models / "identifier.json")
    assert find_int8(models / "identifier.pt", 64) is None
    data = tmp_path / "identify"  # a copy: ultralytics leaves a cache file beside the images it reads
    shutil.copytree(SAMPLE / "identify", data)
    card = quantize("identifier", data, models_dir=models, images=16)
    assert card["weights_sha256"] and card["calibration"]["split"] == "train" and "command" in card
    assert find_int8(models / "identifier.pt", 64) is not None

    fast = CardIdentifier(models / "identifier.pt")  # auto: the int8 export, now that there is one
    assert fast.backend == "int8"
    crops = _sample_crops(24)
    float_probs = CardIdentifier(models / "identifier.pt", backend="openvino").classify(crops)
    int8_probs = fast.classify(crops)
    assert (float_probs.argmax(axis=1) == int8_probs.argmax(axis=1)).mean() >= 0.9


def test_an_int8_export_of_other_weights_is_not_used(tmp_path: Path) -> None:
    """A model retrained after its int8 export was made gets the float export, not the stale int8 one."""
    from vision.models import load_yolo
    from vision.quantize import find_int8, int8_paths

    models = tmp_path / "models"
    models.mkdir()
    weights = models / "identifier.pt"
    shutil.copy(MODELS / "identifier.pt", weights)
    folder, card = int8_paths(weights, 64)
    folder.mkdir(parents=True)
    (folder / "identifier.xml").write_text("<net/>")
    card.write_text(json.dumps({"weights_sha256": "0123456789ab"}))
    assert find_int8(weights, 64) is None
    _, backend = load_yolo(weights, "classify", 64)
    assert backend != "int8"
    card.write_text("not json")
    assert find_int8(weights, 64) is None


def test_quantizing_with_the_wrong_data_says_what_is_wrong(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from demonref.cli import app

    runner = CliRunner()
    missing = runner.invoke(app, ["quantize", "identifier", "--data", str(tmp_path / "nowhere")])
    assert missing.exit_code != 0 and "not a folder" in missing.stderr
    wrong_kind = runner.invoke(app, ["quantize", "identifier", "--data", str(SAMPLE / "detect")])
    assert wrong_kind.exit_code != 0 and "--kind identify" in wrong_kind.stderr
    unknown = runner.invoke(app, ["quantize", "tracker", "--data", str(SAMPLE / "identify")])
    assert unknown.exit_code != 0 and "unknown model" in unknown.stderr
    untrained = runner.invoke(app, ["quantize", "detector", "--data", str(SAMPLE / "detect"), "--models",
                                    str(tmp_path)])  # fmt: skip
    assert untrained.exit_code != 0 and "train it first" in untrained.stderr
    odd_size = runner.invoke(app, ["quantize", "detector", "--data", str(SAMPLE / "detect"), "--imgsz", "1000"])
    assert odd_size.exit_code != 0 and "multiple of 32" in odd_size.stderr
    not_detector = runner.invoke(app, ["quantize", "identifier", "--data", str(SAMPLE / "identify"), "--imgsz", "96"])
    assert not_detector.exit_code != 0 and "only the detector" in not_detector.stderr


def test_the_detector_is_quantized_for_the_input_a_watched_table_is_looked_at() -> None:
    """The int8 detector is made for the shape review and live give a 16:9 frame (and say what it was made for)."""
    from vision.models import WATCHING, CardReader, network_shape
    from vision.quantize import _shape

    watching = CardReader.load(MODELS, watch=True).detector
    assert watching.imgsz == WATCHING["imgsz"] and _shape("detector") == network_shape(720, 1280, watching.imgsz)
    assert _shape("detector", 640) == (384, 640) and _shape("identifier") == 64
