"""The card models at run time: the detector (oriented boxes of faces and backs) and the identifier (rank and
suit from rectified crops, with top-k), loaded from ``models/`` and never downloaded."""

from __future__ import annotations

import contextlib
import json
import logging
import math
import shutil
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.detections import BACK, Detections, card_corners, cards_corners, from_ultralytics, same_card
from vision.quantize import digest, find_int8, size_name
from vision.synth.dataset import CROP_H, CROP_W, INDEX_H, INDEX_PART_V1, INDEX_W, NOT_A_CARD, rectify
from vision.train import MODELS, offline_ultralytics

TOP_K = 5
COMBINE = ("max", "sum")  # how a card's three views are pooled (pool_views)


class ModelMissingError(FileNotFoundError):
    """A model file is not where it should be."""


def _require(path: Path, what: str) -> Path:
    if not path.exists():
        raise ModelMissingError(
            f"{what} model not found at {path}. Train it with `demonref train {what} --data DATASET` "
            f"(see models/README.md), or put a trained {path.name} there."
        )
    return path


def _threads(model: Any) -> None:
    import torch

    torch.set_num_threads(2)


BACKENDS = ("int8", "openvino", "onnx", "torch")
CACHE = MODELS / ".cache"  # exports made from the committed weights on first use (git-ignored)


def load_yolo(path: Path, task: str, imgsz: int | tuple[int, int], backend: str = "auto") -> tuple[Any, str]:
    """The model at ``path`` on the fastest backend that works here: the committed int8 OpenVINO export of exactly
    these weights at this input size (``demonref quantize``), else an OpenVINO (or ONNX Runtime) export made from
    the weights on first use and cached by their hash and input size (``imgsz``: a side, or height and width),
    else the PyTorch weights themselves. ``backend``: auto, int8, openvino, onnx or torch. Returns (model,
    backend used)."""
    from ultralytics import YOLO

    if backend not in ("auto", *BACKENDS):
        raise ValueError(f"unknown backend {backend!r}; known: auto, {', '.join(BACKENDS)}")
    order = ["int8", "openvino", "onnx"] if backend == "auto" else [backend]
    for name in order:
        if name == "torch":
            break
        try:
            with _quiet():
                if name == "int8":
                    found = find_int8(path, imgsz)
                    if found is None:
                        raise ModelMissingError(
                            f"no int8 export of these weights at {size_name(imgsz)} in {path.parent / 'int8'} "
                            f"(make one with `demonref quantize {path.stem} --data DATASET`)"
                        )
                    return YOLO(str(found), task=task), name
                return YOLO(str(_export(path, name, imgsz)), task=task), name
        except Exception as exc:  # a missing runtime or a failed export: the next backend, finally PyTorch
            if backend != "auto":
                raise ModelMissingError(f"{path}: no {name} export could be made ({exc})") from exc
    return YOLO(str(path), task=task), "torch"


@contextlib.contextmanager
def _quiet() -> Iterator[None]:
    """Ultralytics talks on stdout while exporting and loading; stdout belongs to ``--json`` output."""
    from ultralytics.utils import LOGGER

    level = LOGGER.level
    LOGGER.setLevel(logging.WARNING)
    try:
        with contextlib.redirect_stdout(sys.stderr):
            yield
    finally:
        LOGGER.setLevel(level)


def _export(path: Path, fmt: str, imgsz: int | tuple[int, int]) -> Path:
    """An export of ``path`` in the cache, made once per weights file (processes racing to make it are fine:
    each exports into its own folder and the first rename wins)."""
    import os

    final = CACHE / f"{path.stem}-{digest(path)}-{size_name(imgsz)}-{fmt}"
    name = f"{path.stem}_openvino_model" if fmt == "openvino" else f"{path.stem}.onnx"
    if (final / name).exists():
        return final / name
    work = CACHE / f".{final.name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    shutil.copy(path, work / path.name)
    from ultralytics import YOLO

    # Dynamic batch for the classifier (many crops at once); the detector takes one frame.
    made = YOLO(str(work / path.name)).export(
        format=fmt,
        imgsz=list(imgsz) if isinstance(imgsz, tuple) else imgsz,
        dynamic=path.stem != "detector",
        verbose=False,
    )
    if not (work / name).exists():
        raise RuntimeError(f"export to {fmt} wrote {made}, not {name}")
    try:
        work.rename(final)
    except OSError:  # another process finished first
        shutil.rmtree(work, ignore_errors=True)
    return final / name


def network_shape(height: int, width: int, imgsz: int, stride: int = 32) -> tuple[int, int]:
    """The network input for a frame of this size: its longer side scaled to ``imgsz``, the shorter side padded
    up to the stride, as ultralytics letterboxes a PyTorch model's input (a 1280×720 frame gives 384×640: 40%
    fewer pixels than the square 640×640 a fixed-size export would otherwise take)."""
    scale = imgsz / max(height, width)
    return (
        min(imgsz, -(-round(height * scale) // stride) * stride),
        min(imgsz, -(-round(width * scale) // stride) * stride),
    )


# The suppression a watched table uses (review, live, evaluate e2e). A still photo keeps one box of each stack (the
# defaults), but on a table the top card of a ladder or a waste fan is the card that matters, and the single box
# that survives suppression there is often the one of the card beneath (its index is the one read). Keeping them
# all suits the table model, which takes a column's uppermost card and one reading per place in the middle. On
# thirteen recorded held-out games (docs/vision.md "Suppression"): fully visible faces read right 0.882 -> 0.924 in
# lines and 0.837 -> 0.878 in wastes; plays credited right 596 -> 604 of 696; about a tenth slower.
# A watched table is also looked at with the frame's longer side at 896 px, not 640 (a 720p frame is 512x896 at the
# network, shrunk 0.7 rather than 0.5): its cards are 1.4 times larger there and their quads lie nearer the card,
# so fewer corner views show the card beneath (docs/vision.md "Input size"; 960, session 43's, read no better on
# the 66 recorded games and costs more time).
WATCH_IMGSZ = 896
WATCHING: dict[str, Any] = {"iou": 0.95, "same_card_gap": 0.14, "shrink": (1.0,), "imgsz": WATCH_IMGSZ, "fits": True}
# Watching a table whose cards would lie narrower than this at the detector's input (px), the input grows at the
# round's start (``CardDetector.fit_cards``), up to ``FIT_MAX_IMGSZ`` and the frame's own size: the detector learnt
# cards 20-30 px wide there (a table of four at 1280x720 and 896). At 1920x1080, seven players' cards (38-41 px) lie
# 18-19 px wide at 896; at 1280 twelve games of five to eight players read 742 plays right against 679 (session 58).
# On int8 it grows on to the next size with an int8 export (models/int8: 1088 and 1280 besides 896), which reads as
# well as the float export at the size asked and runs faster (docs/pipeline.md, session 59).
FIT_CARD_PX = 20.0
FIT_MAX_IMGSZ = 1280
# Still photos (``demonref detect``, ``evaluate models``): looked at as taken and shrunk 1.5, 2 and 3 times, the
# surest kept (``CardDetector.shrink``; measured on held-out renders seen nearer, docs/vision.md).
STILL: dict[str, Any] = {"shrink": (1.0, 1.5, 2.0, 3.0)}
EMPTY_CONF = 0.75  # how sure a look that finds nothing counts as, against the mean confidence of one that finds cards
AS_TAKEN_BONUS = 0.02  # a shrunk look must be this much surer than the photo as taken to replace it


def input_side(side: int) -> int:
    """``side`` if the detector can take it as its input's longer side (a multiple of its 32 px stride, from 320
    px, where cards become too small to find); else a ValueError naming it."""
    if side < 320 or side % 32:
        raise ValueError(f"the detector's input size must be a multiple of 32 from 320, got {side}")
    return side


@dataclass
class CardDetector:
    """Finds card faces and backs as oriented quads. An export has a fixed input size, so one is made (and
    cached) for each frame shape seen: a camera's frames all share one."""

    path: Path = MODELS / "detector.pt"
    imgsz: int = 640
    conf: float = 0.35
    backend: str = "auto"
    iou: float = 0.7  # non-maximum suppression between oriented boxes (ultralytics', by overlap)
    # Then `vision.detections.same_card` at this distance (a share of the card), when set. Ultralytics compares
    # oriented boxes by a Gaussian overlap under which the neighbouring cards of a waste fan or a ladder overlap
    # (~0.75) as much as two boxes of one card do, so at 0.7 it keeps one card of a fan. `iou=0.95` with
    # `same_card_gap=0.14` keeps them (more cards found and read on still frames) but also keeps more loose boxes, so
    # still photos keep the defaults and the chain, whose table model copes with stacks, uses ``WATCHING``.
    same_card_gap: float | None = None
    # Still photos come at any distance, but the detector learnt cards as a table seen whole shows them (about 15-60
    # px across at its input): nearer, it finds their pips and corners as cards of their own. With ``shrink``, the
    # photo is also looked at shrunk by each factor (padded back to its size, so one export serves), and the factor
    # whose boxes are surest on average is kept (the photo as taken by ``AS_TAKEN_BONUS``); a factor finding nothing
    # counts as ``EMPTY_CONF``, so stray boxes on a few big cards do not beat a clean result. ``STILL`` sets it for
    # photos; a watched table, whose cards keep the size the detector learnt, looks once.
    shrink: tuple[float, ...] = (1.0,)
    fits: bool = False  # ``fit_cards`` may grow the input (watching a table at the size it chose, not one given)

    def __post_init__(self) -> None:
        if not self.shrink or min(self.shrink) < 1.0:
            raise ValueError(f"shrink factors must be 1 or more, got {self.shrink}")
        _require(self.path, "detector")
        offline_ultralytics()
        # The export for a 16:9 camera is made at once (it also settles which backend works here); other frame
        # shapes get theirs when first seen.
        shape = network_shape(720, 1280, self.imgsz)
        self.model, self.backend = load_yolo(self.path, "obb", shape, self.backend)
        self._models: dict[tuple[int, int], Any] = {} if self.backend == "torch" else {shape: self.model}
        self._warm: set[int] = set()

    def fit_cards(self, card_px: float, frame: tuple[int, int]) -> int | None:
        """Grows the input side (``fits`` only) so that cards ``card_px`` wide in frames ``frame`` (width, height) big
        lie ``FIT_CARD_PX`` wide at it, up to ``FIT_MAX_IMGSZ`` and the frame's longer side. Returns the new side, or
        None where it stays. On int8, the side grows on to the next size with an int8 export (``demonref quantize
        detector --imgsz``), where there is one: the sizes it was not made for run on the float export, slower."""
        longer = max(frame)
        if not self.fits or card_px * self.imgsz / longer >= FIT_CARD_PX:
            return None
        largest = min(FIT_MAX_IMGSZ, longer) // 32 * 32
        side = min(largest, math.ceil(FIT_CARD_PX * longer / card_px / 32) * 32)
        if side <= self.imgsz:
            return None
        if self.backend == "int8":  # the next size up with an int8 export, if any: faster than float at the one asked
            width, height = frame
            shapes = ((s, network_shape(height, width, s)) for s in range(side, largest + 1, 32))
            side = next((s for s, shape in shapes if find_int8(self.path, shape) is not None), side)
        self.imgsz = side
        return side

    def _model_for(self, shape: tuple[int, int]) -> tuple[Any, int | tuple[int, int]]:
        if self.backend == "torch":  # PyTorch letterboxes to the frame's shape by itself
            return self.model, self.imgsz
        if shape not in self._models:
            # The int8 export is made for one shape; the others get the float export.
            backend = "auto" if self.backend == "int8" else self.backend
            self._models[shape] = load_yolo(self.path, "obb", shape, backend)[0]
        return self._models[shape], shape

    def __call__(self, image: np.ndarray) -> Detections:
        if len(self.shrink) == 1 and self.shrink[0] == 1.0:
            return self._detect(image)
        looks = [(f, self._shrunk(image, f)) for f in self.shrink]
        return max(
            looks,
            key=lambda look: (
                (float(look[1].conf.mean()) if len(look[1]) else EMPTY_CONF)
                + (AS_TAKEN_BONUS if look[0] == 1.0 else 0.0)
            ),
        )[1]

    def _shrunk(self, image: np.ndarray, factor: float) -> Detections:
        """The cards found in ``image`` shrunk by ``factor`` at its top left (the rest padded with ultralytics'
        letterbox grey), in the image's own pixels."""
        if factor == 1.0:
            return self._detect(image)
        h, w = image.shape[:2]
        small = cv2.resize(image, (max(1, round(w / factor)), max(1, round(h / factor))), interpolation=cv2.INTER_AREA)
        canvas = np.full_like(image, 114)
        canvas[: small.shape[0], : small.shape[1]] = small
        found = self._detect(canvas)
        if not len(found):
            return found
        centres = found.quads.mean(axis=1)
        found = found[(centres[:, 0] < small.shape[1]) & (centres[:, 1] < small.shape[0])]
        found.quads[:] = found.quads * [w / small.shape[1], h / small.shape[0]]
        return found

    def _detect(self, image: np.ndarray) -> Detections:
        model, size = self._model_for(network_shape(image.shape[0], image.shape[1], self.imgsz))
        with _quiet():  # ultralytics announces each runtime it loads on stdout
            result = model.predict(image, imgsz=size, conf=self.conf, iou=self.iou, device="cpu", verbose=False)[0]
        if id(model) not in self._warm:
            _threads(model)  # ultralytics sets 1 thread on its first predict; two are 1.7x faster
            self._warm.add(id(model))
        found = from_ultralytics(result)
        return (
            found
            if self.same_card_gap is None
            else same_card(found, across=self.same_card_gap, along=self.same_card_gap)
        )


@dataclass
class CardIdentifier:
    """Reads rank and suit from a card's rectified crop: the whole card and both index corners, their
    the most confident view (``combine="max"``) or their log-probabilities summed (``"sum"``). Keeps the top-k so the
    referee can prefer a rule-consistent reading. A model trained with the ``none`` class labels crops that show
    no card face ``none``: the detector slipped."""

    path: Path = MODELS / "identifier.pt"
    imgsz: int = 64
    backend: str = "auto"
    combine: str = "max"

    def __post_init__(self) -> None:
        _require(self.path, "identifier")
        if self.combine not in COMBINE:
            raise ValueError(f"combine must be one of {', '.join(COMBINE)}, got {self.combine!r}")
        offline_ultralytics()
        self.model, self.backend = load_yolo(self.path, "classify", self.imgsz, self.backend)
        with _quiet():  # an exported model's names come from loading its runtime
            self.names: dict[int, str] = dict(self.model.names)
        self.index_part = index_part_of(self.path)
        self._warm = False

    def views(self, image: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
        return self._views(image, card_corners(quad))

    def _views(self, image: np.ndarray, q: np.ndarray) -> list[np.ndarray]:
        """The three crops of a quad already in ``card_corners`` order."""
        turned = np.roll(q, 2, axis=0)  # the same card turned half a turn: the other index corner
        return [
            rectify(image, q, (CROP_W, CROP_H)),
            rectify(image, q, (INDEX_W, INDEX_H), self.index_part),
            rectify(image, turned, (INDEX_W, INDEX_H), self.index_part),
        ]

    def classify(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities (len(crops), classes). Crops already at the network's size (the views are) go
        straight to the loaded runtime as one batch: ultralytics' classify transforms leave such a crop as it is
        but cost a PIL round trip and a ``Results`` per crop (about a quarter of the time for 120 crops)."""
        if not crops:
            return np.zeros((0, len(self.names)))
        if not self._warm or any(c.shape[:2] != (self.imgsz, self.imgsz) or c.ndim != 3 for c in crops):
            return self._predict(crops)
        import torch

        batch = np.ascontiguousarray(np.stack(crops)[..., ::-1].transpose(0, 3, 1, 2))  # BGR HWC -> RGB CHW
        with torch.inference_mode():
            out = self.model.predictor.model(torch.from_numpy(batch).float() / 255.0)
        out = out[0] if isinstance(out, (list, tuple)) else out
        return np.asarray(out.cpu().numpy() if hasattr(out, "cpu") else out, dtype=np.float32)

    def _predict(self, crops: list[np.ndarray]) -> np.ndarray:
        """Class probabilities through ultralytics' predictor (its transforms, any crop size)."""
        with _quiet():
            results = self.model.predict(crops, imgsz=self.imgsz, device="cpu", verbose=False)
        if not self._warm:
            _threads(self.model)
            self._warm = True
        return np.stack([r.probs.data.cpu().numpy() for r in results])

    def __call__(self, image: np.ndarray, detections: Detections) -> Detections:
        faces = [i for i in range(len(detections)) if detections.cls[i] != BACK]
        corners = cards_corners(detections.quads[faces]) if faces else []
        crops = [v for q in corners for v in self._views(image, q)]
        probs = self.classify(crops).reshape(len(faces), 3, -1) if faces else np.zeros((0, 3, len(self.names)))
        labels = ["back"] * len(detections)
        topk: list[tuple[tuple[str, float], ...]] = [()] * len(detections)
        for row, i in enumerate(faces):
            view = pool_views(probs[row], self.combine)
            order = np.argsort(view)[::-1][:TOP_K]
            labels[i] = self.names[int(order[0])]
            topk[i] = tuple((self.names[int(k)], float(view[k])) for k in order)
        return detections.with_labels(labels, topk)


def pool_views(views: np.ndarray, combine: str) -> np.ndarray:
    """One probability row from a card's views (V, classes): their normalised product (``sum`` of logs: views
    that agree outvote one confidently wrong view, a blank view barely counts) or the most confident view."""
    if combine == "max":
        return np.asarray(views[int(np.argmax(views.max(axis=1)))])
    logp = np.log(np.clip(views, 1e-6, 1.0)).sum(axis=0)
    p = np.exp(logp - logp.max())
    return np.asarray(p / p.sum())


def index_part_of(weights: Path) -> tuple[float, float, float, float]:
    """The index-corner region an identifier was trained on, from its model card (older cards: the tight one)."""
    card = weights.with_suffix(".json")
    try:
        part = json.loads(card.read_text(encoding="utf-8"))["data_build"]["index_part"]
        return (float(part[0]), float(part[1]), float(part[2]), float(part[3]))
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return INDEX_PART_V1


@dataclass
class CardReader:
    """Detector then identifier: every card in a still photo."""

    detector: CardDetector
    identifier: CardIdentifier

    @staticmethod
    def load(
        models: Path = MODELS,
        backend: str = "auto",
        combine: str = "max",
        *,
        watch: bool = False,
        detector_size: int | None = None,
    ) -> CardReader:
        """The committed models; ``watch``: suppression and input size for watching a table (``WATCHING``), not
        still photos; ``detector_size``: the detector's input side instead (640 is faster, 896 reads better)."""
        settings = WATCHING if watch else STILL
        if detector_size is not None:
            settings = {**settings, "imgsz": input_side(detector_size), "fits": False}
        return CardReader(
            CardDetector(models / "detector.pt", backend=backend, **settings),
            CardIdentifier(models / "identifier.pt", backend=backend, combine=combine),
        )

    def __call__(self, image: np.ndarray) -> Detections:
        """Every card found, read; places the identifier says show no card face are dropped."""
        read = self.identifier(image, self.detector(image))
        keep = np.array([label != NOT_A_CARD for label in read.labels], bool)
        read = read[keep] if len(read) else read
        return read.with_labels(
            list(read.labels), [tuple(kv for kv in top if kv[0] != NOT_A_CARD) for top in read.topk]
        )


def read_image(path: Path) -> np.ndarray:
    """An image from disk, or a clear error naming the file."""
    if not path.exists():
        raise FileNotFoundError(f"{path}: no such file")
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError(f"{path}: not a readable image (expected JPEG, PNG, …)")
    return image


def annotate(image: np.ndarray, detections: Detections) -> np.ndarray:
    """A copy of ``image`` with quads and readings drawn."""
    out = image.copy()
    scale = max(1, round(image.shape[1] / 1280))
    for i in range(len(detections)):
        q = np.round(detections.quads[i]).astype(np.int32)
        colour = (255, 0, 255) if detections.cls[i] == BACK else (0, 220, 0)
        cv2.polylines(out, [q], True, colour, 2 * scale, cv2.LINE_AA)
        label = detections.labels[i] if detections.labels else ("back" if detections.cls[i] == BACK else "card")
        text = f"{label} {detections.conf[i]:.2f}"
        org = tuple(q.min(axis=0))
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (0, 0, 0), 4 * scale, cv2.LINE_AA)
        cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.6 * scale, (255, 255, 255), scale, cv2.LINE_AA)
    return out
