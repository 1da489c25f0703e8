"""A seconds-long training smoke test: the offline training path runs end to end and writes a model card."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.synth import dataset

pytest.importorskip("ultralytics")


def test_detector_trains_one_epoch_offline(tmp_path: Path, no_network: None) -> None:
    from vision.train import train

    data = tmp_path / "det"
    dataset.build(data, kind="detect", frames=6, seed=5, max_width=320)
    for split in ("train", "val"):  # tiny sets may miss a split by chance
        if not (data / "images" / split).exists():
            src = next((data / "images").iterdir())
            (data / "images" / split).symlink_to(src.resolve())
            (data / "labels" / split).symlink_to((data / "labels" / src.name).resolve())
    card = train(
        "detector", data, epochs=1, batch=4, imgsz=160, models_dir=tmp_path / "models", runs_dir=tmp_path / "runs"
    )
    assert (tmp_path / "models" / "detector.pt").stat().st_size > 100_000
    saved = json.loads((tmp_path / "models" / "detector.json").read_text())
    assert saved["epochs"] == 1 and card["metrics"]
    assert saved["imgsz"] == 160 and "--imgsz 160" in saved["command"]  # the card's command makes the same run
    # a run the session's end cuts short: its last checkpoint becomes the weights, the card says what was done
    taken = train("detector", data, epochs=3, batch=4, imgsz=160, models_dir=tmp_path / "taken",
                  runs_dir=tmp_path / "runs", take_last=True)  # fmt: skip
    assert (tmp_path / "taken" / "detector.pt").stat().st_size > 100_000
    assert taken["epochs"] == 1 and taken["epochs_planned"] == 3 and taken["taken_from"].endswith("last.pt")
    assert "metrics/mAP50-95(B)" in taken["metrics"]  # validated as a finished run is


def test_taking_the_last_checkpoint_of_a_run_that_never_started_says_so(tmp_path: Path) -> None:
    from vision.train import TrainError, train

    data = tmp_path / "det"
    data.mkdir()
    (data / "data.yaml").write_text("path: .\n")
    with pytest.raises(TrainError, match="no checkpoint to take"):
        train("detector", data, epochs=3, models_dir=tmp_path / "m", runs_dir=tmp_path / "runs", take_last=True)
