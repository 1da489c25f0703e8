"""8-bit OpenVINO exports of the card models (NNCF post-training quantization on rendered training images).

An int8 export is made for one network input (the detector's 384×640, which 16:9 cameras at 720p and 1080p
give; the identifier's 64 px crops) and committed in ``models/int8/`` with a card naming the digest of the
weights it was made from. ``load_yolo`` uses it only while those weights are the ones in ``models/``: a
retrained model is never paired with a stale export (it falls back to the float export until
``demonref quantize`` is run again). Calibration images come from a dataset's ``train`` split, never from
the splits the models are scored on.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

from vision.train import MODELS, RECIPES, ROOT, offline_ultralytics


class QuantizeError(RuntimeError):
    """An int8 export could not be made (the message names what was wrong)."""


def digest(path: Path) -> str:
    """Short content hash of a weights file: what exports and int8 cards are keyed by."""
    return hashlib.sha256(path.read_bytes()).hexdigest()[:12]


def size_name(imgsz: int | tuple[int, int]) -> str:
    return f"{imgsz[0]}x{imgsz[1]}" if isinstance(imgsz, tuple) else str(imgsz)


def int8_paths(weights: Path, imgsz: int | tuple[int, int]) -> tuple[Path, Path]:
    """(export folder, card) of the int8 export of ``weights`` for this input size."""
    base = weights.parent / "int8" / f"{weights.stem}-{size_name(imgsz)}"
    return base.parent / f"{base.name}_openvino_model", base.with_suffix(".json")


def find_int8(weights: Path, imgsz: int | tuple[int, int]) -> Path | None:
    """The committed int8 export of exactly these weights at this size, or None (none made, or made from other
    weights: a model retrained since)."""
    folder, card = int8_paths(weights, imgsz)
    try:
        made_from = json.loads(card.read_text(encoding="utf-8"))["weights_sha256"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not any(folder.glob("*.xml")):
        return None
    return folder if made_from == digest(weights) else None


def _shape(what: str, side: int | None = None) -> int | tuple[int, int]:
    """The network input the model runs at: the detector's for a 16:9 frame with its longer side at ``side``
    (default: as a watched table is looked at, ``WATCH_IMGSZ``), the identifier's crop side."""
    from vision.models import WATCH_IMGSZ, CardIdentifier, network_shape

    return network_shape(720, 1280, side or WATCH_IMGSZ) if what == "detector" else CardIdentifier.imgsz


def _calibration_data(what: str, data: Path) -> tuple[Path, Path]:
    """(the dataset argument ultralytics wants, the train split's folder): a detection dataset's yaml, a
    classification dataset's folder."""
    if not data.is_dir():
        raise QuantizeError(f"--data {data}: not a folder (give one made by `demonref dataset build`)")
    if what == "detector":
        yaml = data / "data.yaml"
        if not yaml.exists():
            raise QuantizeError(f"--data {data}: no data.yaml; the detector is calibrated on a `--kind detect` build")
        return yaml, data / "images" / "train"
    if not (data / "train").is_dir() or (data / "data.yaml").exists():
        raise QuantizeError(f"--data {data}: the identifier is calibrated on a `--kind identify` build (class folders)")
    return data, data / "train"


def quantize(
    what: str, data: Path, *, models_dir: Path = MODELS, images: int = 300, seed: int = 0, imgsz: int | None = None
) -> dict[str, Any]:
    """Makes the int8 export of ``models_dir/<what>.pt``, calibrated on about ``images`` images of ``data``'s
    train split, writes it and its card to ``models_dir/int8/`` and returns the card. ``imgsz``: the detector's
    input side for a 16:9 frame (default: a watched table's)."""
    if what not in RECIPES:
        raise QuantizeError(f"unknown model {what!r}; known: {', '.join(RECIPES)}")
    if imgsz is not None:
        from vision.models import input_side

        if what != "detector":
            raise QuantizeError(f"--imgsz {imgsz}: only the detector's input size can be chosen")
        try:
            input_side(imgsz)
        except ValueError as exc:
            raise QuantizeError(f"--imgsz: {exc}") from exc
    weights = models_dir / f"{what}.pt"
    if not weights.exists():
        raise QuantizeError(f"{weights} not found: train it first (`demonref train {what} --data DATASET`)")
    source, train_split = _calibration_data(what, data)
    train_images = _count_images(train_split)
    if train_images == 0:
        raise QuantizeError(f"--data {data}: its train split has no images")
    fraction = min(1.0, images / train_images)
    shape = _shape(what, imgsz)
    folder, card_path = int8_paths(weights, shape)
    offline_ultralytics()
    from ultralytics import YOLO

    work = folder.parent / f".{folder.name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    t0 = time.time()
    try:
        shutil.copy(weights, work / weights.name)
        made = YOLO(str(work / weights.name)).export(
            format="openvino",
            int8=True,
            data=str(source),
            split="train",
            fraction=fraction,
            imgsz=list(shape) if isinstance(shape, tuple) else shape,
            dynamic=what == "identifier",  # many crops at once; the detector takes one frame
            batch=1,
            seed=seed,
            verbose=False,
        )
        made_dir = Path(made)
        if not made_dir.is_dir():
            raise QuantizeError(f"the int8 export wrote {made}, not a folder")
        shutil.rmtree(folder, ignore_errors=True)
        made_dir.rename(folder)
    except QuantizeError:
        raise
    except Exception as exc:  # nncf missing, a failed calibration: say so rather than leave half a folder
        raise QuantizeError(f"int8 export of {weights} failed: {type(exc).__name__}: {exc}") from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)
    named = str(data.relative_to(ROOT) if data.is_relative_to(ROOT) else data)  # as training cards name data
    card: dict[str, Any] = {
        "model": what,
        "weights": weights.name,
        "export": folder.name,
        "weights_sha256": digest(weights),
        "imgsz": list(shape) if isinstance(shape, tuple) else shape,
        "runtime": "openvino int8 (nncf post-training quantization, ultralytics export int8=True)",
        "calibration": {"data": named, "split": "train", "images": round(fraction * train_images)},
        "seed": seed,
        "wall_seconds": round(time.time() - t0, 1),
        "command": f"demonref quantize {what} --data {named} --images {images} --seed {seed}"
        + (f" --imgsz {imgsz}" if imgsz else ""),
    }
    card_path.write_text(json.dumps(card, indent=1) + "\n", encoding="utf-8")
    return card


def _count_images(folder: Path) -> int:
    return sum(1 for p in folder.rglob("*") if p.suffix.lower() in (".png", ".jpg", ".jpeg")) if folder.is_dir() else 0
