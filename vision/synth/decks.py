"""The design registry (``datasets/decks.yaml``): which deck designs exist, which are held out, and drawing
any card of any design through one function."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import yaml

from referee.cards import Card
from vision.synth import artwork
from vision.synth.faces import FaceStyle, render_face

DECKS_YAML = Path(__file__).resolve().parents[2] / "datasets" / "decks.yaml"


@dataclass(frozen=True, slots=True)
class Design:
    kind: str  # procedural | gnome | kde
    name: str
    heldout: bool = False
    status: str = "ok"
    seed: int = 0

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"

    def available(self) -> bool:
        """Procedural designs always are; packaged ones once `make data` installed them."""
        return self.kind == "procedural" or (self.status != "skip" and artwork.installed(self.kind, self.name))

    def face(self, card: Card, *, height: int = 352) -> np.ndarray:
        """``card`` in this design as BGRA, drawn at the nearest of a few sizes and kept in memory."""
        bucket = min(FACE_SIZES, key=lambda b: abs(b - height) if b >= height else 10_000 + height - b)
        return _face(self.kind, self.name, self.seed, card, bucket)


FACE_SIZES = (128, 192, 256, 384, 512)


@lru_cache(maxsize=6000)
def _face(kind: str, name: str, seed: int, card: Card, height: int) -> np.ndarray:
    if kind == "procedural":
        img = render_face(card, FaceStyle.from_seed(seed), height=height)
    else:
        img = artwork.render_packaged(kind, name, card, height=height)
    img.setflags(write=False)
    return img


def load_designs(path: Path = DECKS_YAML) -> list[Design]:
    """Every design listed, skipped ones included (check ``status``)."""
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    designs = []
    for kind, entries in raw.items():
        for e in entries:
            designs.append(
                Design(
                    kind, str(e["name"]), bool(e.get("heldout", False)), e.get("status", "ok"), int(e.get("seed", 0))
                )
            )
    return designs


def split_designs(designs: list[Design], *, available_only: bool = True) -> tuple[list[Design], list[Design]]:
    """(training designs, held-out designs), leaving out skipped and (by default) uninstalled ones."""
    usable = [d for d in designs if d.status != "skip" and (d.available() or not available_only)]
    return [d for d in usable if not d.heldout], [d for d in usable if d.heldout]
