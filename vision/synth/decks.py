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
    kind: str  # procedural | gnome | kde | svg-cards
    name: str
    heldout: bool = False
    status: str = "ok"  # ok | check | backs (its faces are no French-suited deck: only its back is used) | skip
    seed: int = 0
    renderer: str = "qt"  # how an SVG deck is drawn: qt | rsvg (see vision.synth.artwork)
    # Procedural only: every deck drawn of this design is a new one (``FaceStyle.varied`` from a seed the
    # renderer draws), and ``weight`` is how many designs' share of the tables it gets.
    varied: bool = False
    weight: int = 1

    @property
    def key(self) -> str:
        return f"{self.kind}:{self.name}"

    def available(self) -> bool:
        """Procedural designs always are; packaged ones once `make data` installed them."""
        return self.kind == "procedural" or (
            self.status != "skip" and artwork.installed(self.kind, self.name, self.renderer)
        )

    def face(self, card: Card, *, height: int = 352) -> np.ndarray:
        """``card`` in this design as BGRA, drawn at the nearest of a few sizes and kept in memory."""
        bucket = min(FACE_SIZES, key=lambda b: abs(b - height) if b >= height else 10_000 + height - b)
        return _face(self.kind, self.name, self.seed, self.renderer, card, bucket, self.varied)

    def back(self, *, height: int = 352) -> np.ndarray:
        """This packaged deck's back as BGRA (procedural designs have none: see ``faces.render_back``)."""
        if self.kind == "procedural":
            raise ValueError(f"{self.key} is procedural: its backs are drawn by faces.render_back")
        return artwork.render_packaged(self.kind, self.name, None, height=height, engine=self.renderer)


FACE_SIZES = (128, 192, 256, 384, 512)


@lru_cache(maxsize=6000)
def _face(kind: str, name: str, seed: int, renderer: str, card: Card, height: int, varied: bool) -> np.ndarray:
    if kind == "procedural":
        img = render_face(card, (FaceStyle.varied if varied else FaceStyle.from_seed)(seed), height=height)
    else:
        img = artwork.render_packaged(kind, name, card, height=height, engine=renderer)
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
                    kind,
                    str(e["name"]),
                    bool(e.get("heldout", False)),
                    e.get("status", "ok"),
                    int(e.get("seed", 0)),
                    str(e.get("renderer", "qt")),
                    bool(e.get("varied", False)),
                    int(e.get("weight", 1)),
                )
            )
    return designs


@lru_cache(maxsize=1)
def _registry() -> dict[str, Design]:
    return {d.key: d for d in load_designs()}


def design_named(key: str) -> Design:
    """The registered design ``kind:name`` (as ``Design.key`` spells it)."""
    try:
        return _registry()[key]
    except KeyError:
        raise KeyError(f"no deck design {key!r} in {DECKS_YAML}") from None


def split_designs(designs: list[Design], *, available_only: bool = True) -> tuple[list[Design], list[Design]]:
    """(training designs, held-out designs) of faces, leaving out skipped, backs-only and (by default) uninstalled
    ones."""
    usable = [d for d in designs if d.status not in ("skip", "backs") and (d.available() or not available_only)]
    return [d for d in usable if not d.heldout], [d for d in usable if d.heldout]
