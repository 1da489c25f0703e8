"""The design registry (``datasets/decks.yaml``): which deck designs exist, which are held out, and drawing
any card of any design through one function."""

from __future__ import annotations

from dataclasses import dataclass
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
        """``card`` in this design as BGRA."""
        if self.kind == "procedural":
            return render_face(card, FaceStyle.from_seed(self.seed), height=height)
        return artwork.render_packaged(self.kind, self.name, card, height=height)


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
