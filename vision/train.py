"""Training the card models with ultralytics, offline, on 2 CPU cores (settings from ``ULTRALYTICS.md``).

``detector``: YOLO11n-OBB, oriented boxes of card faces and backs. ``identifier``: YOLO11n-cls on rectified
crops (whole cards and index corners), 52 identities. Both build from ``.yaml`` (never a hub download),
checkpoint every epoch, and resume. The best weights go to ``models/`` with a model card.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
RUNS = ROOT / "runs"


class TrainError(RuntimeError):
    """Training could not start or finish."""


def offline_ultralytics() -> None:
    """Settings that keep ultralytics from touching the network or ~/.config (call before importing it)."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_AUTOINSTALL", "False")
    config = Path(os.environ.setdefault("YOLO_CONFIG_DIR", str(ROOT / "datasets" / "build" / ".ultralytics")))
    font = config / "Ultralytics" / "Arial.ttf"
    if not font.exists():
        import matplotlib

        font.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf", font)


@dataclass(frozen=True, slots=True)
class Recipe:
    model: str
    imgsz: int
    extra: dict[str, Any]


RECIPES: dict[str, Recipe] = {
    "detector": Recipe(
        "yolo11n-obb.yaml",
        640,
        # Renders already vary rotation, scale and colour; never mirror cards.
        # Validation only after the last epoch: on 2 cores every epoch's val pass costs a tenth of the run.
        # A short warm-up: runs that fit one session have few epochs.
        {
            "fliplr": 0.0,
            "degrees": 0.0,
            "mosaic": 0.5,
            "close_mosaic": 1,
            "hsv_h": 0.01,
            "val": False,
            "warmup_epochs": 1,
        },
    ),
    "identifier": Recipe(
        "yolo11n-cls.yaml",
        64,
        {
            "optimizer": "AdamW",
            "lr0": 0.002,
            "auto_augment": None,
            "erasing": 0.0,
            "fliplr": 0.0,
            "scale": 0.1,
            "warmup_epochs": 1,
            "hsv_h": 0.01,
            "cache": "ram",
        },
    ),
}


def _threads_callback(trainer: Any) -> None:
    import torch

    torch.set_num_threads(2)


def train(
    what: str,
    data: Path,
    *,
    epochs: int,
    batch: int = 16,
    fraction: float = 1.0,
    seed: int = 0,
    resume: bool = False,
    name: str | None = None,
    imgsz: int | None = None,
    start_from: Path | None = None,
    models_dir: Path = MODELS,
    runs_dir: Path = RUNS,
    take_last: bool = False,
) -> dict[str, Any]:
    """Trains (or resumes) ``what`` on ``data``; copies the best weights to ``models/`` and writes the card.

    ``take_last``: no training; the run's last checkpoint (written at the end of every epoch) becomes the weights,
    for a run the session's end would cut short. Its card says how many of the ``epochs`` were done."""
    if what not in RECIPES:
        raise TrainError(f"unknown model {what!r}; known: {', '.join(RECIPES)}")
    recipe = RECIPES[what]
    name = name or what
    run_dir = runs_dir / name
    last = run_dir / "weights" / "last.pt"
    if what == "detector" and not (data / "data.yaml").exists():
        raise TrainError(
            f"{data}/data.yaml is missing: build it with `demonref dataset build --kind detect --out {data}`"
        )
    if what == "identifier" and not (data / "train").is_dir():
        raise TrainError(
            f"{data}/train is missing: build it with `demonref dataset build --kind identify --out {data}`"
        )
    if start_from is not None and not start_from.is_file():
        raise TrainError(f"--start-from {start_from}: no such weights file")
    previous_card = _card_of(start_from) if start_from is not None else None
    offline_ultralytics()
    from ultralytics import YOLO

    started = time.time()
    if (take_last or resume) and not last.exists():
        raise TrainError(f"{'no checkpoint to take' if take_last else 'nothing to resume'}: {last} does not exist")
    if not take_last:  # taken: the run's last checkpoint is the weights as it is
        # Resumed, from scratch, or on from weights trained here earlier (never downloaded ones).
        model = YOLO(str(last) if resume else str(start_from) if start_from is not None else recipe.model)
        model.add_callback("on_train_start", _threads_callback)
        if resume:
            model.train(resume=True)
        else:
            model.train(
                data=str(data / "data.yaml") if what == "detector" else str(data),
                epochs=epochs,
                imgsz=imgsz or recipe.imgsz,
                batch=batch,
                device="cpu",
                workers=0,
                seed=seed,
                deterministic=True,
                fraction=fraction,
                project=str(runs_dir),
                name=name,
                exist_ok=True,
                save_period=1,
                plots=False,
                verbose=False,
                **recipe.extra,
            )
    weights = last if take_last else run_dir / "weights" / "best.pt"
    if not weights.exists():
        raise TrainError(f"training ended without {weights}")
    models_dir.mkdir(parents=True, exist_ok=True)
    target = models_dir / f"{what}.pt"
    _strip(weights, target)
    results = _last_metrics(run_dir)
    done = int(results.get("epoch", epochs)) if take_last else epochs
    if take_last:  # a finished run validates after its last epoch; a run cut short is validated here
        val = YOLO(str(target)).val(
            data=str(data / "data.yaml") if what == "detector" else str(data),
            imgsz=imgsz or recipe.imgsz, batch=batch, device="cpu", workers=0, plots=False, verbose=False,
        )  # fmt: skip
        results.update({k: round(float(v), 5) for k, v in val.results_dict.items()})
    card = {
        "model": what,
        "architecture": recipe.model,
        "imgsz": imgsz or recipe.imgsz,
        "data": str(data.relative_to(ROOT) if data.is_relative_to(ROOT) else data),
        "data_build": json.loads((data / "build.json").read_text()) if (data / "build.json").exists() else None,
        "epochs": done,
        **({"epochs_planned": epochs, "taken_from": str(last)} if take_last else {}),
        "batch": batch,
        "fraction": fraction,
        "seed": seed,
        "settings": recipe.extra,
        "started_from": previous_card,
        **({} if take_last else {"wall_seconds_this_call": round(time.time() - started)}),
        "metrics": results,
        "command": f"demonref train {what} --data {data} --epochs {epochs} --batch {batch} --fraction {fraction} --seed {seed}"
        + (f" --imgsz {imgsz}" if imgsz else "")
        + (f" --start-from {start_from}" if start_from is not None else ""),
    }
    (models_dir / f"{what}.json").write_text(json.dumps(card, indent=1), encoding="utf-8")
    return card


def _card_of(weights: Path) -> dict[str, Any]:
    """The model card of the weights a run starts from (so a card shows the whole lineage)."""
    card = weights.with_suffix(".json")
    if card.exists():
        loaded: dict[str, Any] = json.loads(card.read_text(encoding="utf-8"))
        return loaded
    return {"weights": str(weights), "card": "missing"}


def _strip(src: Path, dst: Path) -> None:
    """Copies weights without the optimizer state (a few MB instead of tens)."""
    from ultralytics.utils.torch_utils import strip_optimizer

    tmp = dst.with_suffix(".tmp.pt")
    shutil.copy(src, tmp)
    strip_optimizer(str(tmp))
    tmp.replace(dst)


def _last_metrics(run_dir: Path) -> dict[str, float]:
    csv = run_dir / "results.csv"
    if not csv.exists():
        return {}
    lines = [line.split(",") for line in csv.read_text().splitlines() if line.strip()]
    header = [h.strip() for h in lines[0]]
    last = lines[-1]
    out = {}
    for key, value in zip(header, last, strict=False):
        try:
            out[key] = float(value)
        except ValueError:
            continue
    return out
