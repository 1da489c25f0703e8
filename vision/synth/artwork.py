"""Packaged deck artwork, rendered with PyQt5's QSvgRenderer (it draws most of these SVGs right where rsvg does
not) or, for the decks whose registry entry says ``renderer: rsvg``, with librsvg's ``rsvg-convert`` (Qt 5's SVG
Tiny renderer draws nothing of a ``<symbol>`` placed by ``<use>``: those decks came out as blank cards).

Sources (installed by ``make data``, never committed): GNOME's ``gnome-cards-data`` (SVG sheets in
``/usr/share/aisleriot/cards``, elements ``club_1`` … ``spade_king``, ``back``), KDE's
``kdegames-card-data-kf5`` (``/usr/share/carddecks/svg-*``, elements ``1_club`` … ``king_spade``, ``back``) and
the npm package ``svg-cards`` (PNG faces named like GNOME's elements, 17 coloured backs ``back-<colour>.png``).
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np

from referee.cards import JACK, KING, QUEEN, Card
from vision.synth.faces import card_size, rounded_mask

GNOME_DIR = Path("/usr/share/aisleriot/cards")
KDE_DIR = Path("/usr/share/carddecks")
SVG_CARDS_DIR = Path(__file__).resolve().parents[2] / "datasets/build/artwork/node_modules/svg-cards/png/2x"
_SUIT_WORD = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_RANK_WORD = {1: "1", JACK: "jack", QUEEN: "queen", KING: "king"} | {r: str(r) for r in range(2, 11)}


class ArtworkError(RuntimeError):
    """A deck's artwork is missing or cannot be drawn."""


def element_id(kind: str, card: Card | None) -> str:
    """The SVG element of ``card`` (None: the back) in a ``gnome`` or ``kde`` deck."""
    if card is None:
        return "back"
    if card.suit is None:
        return "joker_red" if kind == "gnome" else "red_joker"
    suit, rank = _SUIT_WORD[card.suit.value], _RANK_WORD[card.rank]
    return f"{suit}_{rank}" if kind == "gnome" else f"{rank}_{suit}"


def deck_file(kind: str, name: str) -> Path:
    if kind == "svg-cards":
        if not SVG_CARDS_DIR.is_dir():
            raise ArtworkError(f"{SVG_CARDS_DIR} is missing; run `make data` to install the svg-cards npm package")
        return SVG_CARDS_DIR
    if kind == "gnome":
        return GNOME_DIR / f"{name}.svgz"
    folder = KDE_DIR / name
    found = sorted(folder.glob("*.svgz")) + sorted(folder.glob("*.svg"))
    if not found:
        raise ArtworkError(f"no SVG in {folder}; run `make data` to install kdegames-card-data-kf5")
    return found[0]


def _qt():  # type: ignore[no-untyped-def]
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_LOGGING_RULES", "qt.svg.warning=false")
    try:
        from PyQt5 import QtGui, QtSvg
    except ImportError as exc:  # pragma: no cover - depends on the machine
        raise ArtworkError("PyQt5 is not installed; run `make data`") from exc
    if QtGui.QGuiApplication.instance() is None:
        _qt.app = QtGui.QGuiApplication([])  # type: ignore[attr-defined]
    return QtGui, QtSvg


@lru_cache(maxsize=8)
def _svg_bytes(path: Path) -> bytes:
    if not path.exists():
        raise ArtworkError(f"{path} is missing; run `make data` to install the packaged decks")
    return gzip.decompress(path.read_bytes()) if path.suffix == ".svgz" else path.read_bytes()


@lru_cache(maxsize=64)
def _renderer(path: Path):  # type: ignore[no-untyped-def]
    _, QtSvg = _qt()
    from PyQt5 import QtCore

    renderer = QtSvg.QSvgRenderer(QtCore.QByteArray(_svg_bytes(path)))
    if not renderer.isValid():
        raise ArtworkError(f"{path} is not a readable SVG")
    return renderer


def _render_png(path: Path, height: int) -> np.ndarray:
    import cv2

    image = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ArtworkError(f"{path} is not a readable BGRA PNG")
    width, height = card_size(height)
    bgra = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
    bgra[..., 3] = np.minimum(bgra[..., 3], rounded_mask(width, height))
    return bgra


def svg_cards_backs() -> list[str]:
    """The colours of the svg-cards package's backs (``back-red.png`` → ``red``), when installed."""
    return sorted(p.stem[5:] for p in SVG_CARDS_DIR.glob("back-*.png")) if SVG_CARDS_DIR.is_dir() else []


ENGINES = ("qt", "rsvg")


def render_packaged(
    kind: str, name: str, card: Card | None, *, height: int = 352, back: str | None = None, engine: str = "qt"
) -> np.ndarray:
    """One card (None: the back) of a packaged deck as BGRA, ``height`` pixels tall, 63×88 aspect.

    ``back`` picks one of the svg-cards package's coloured backs (see :func:`svg_cards_backs`); ``engine`` draws
    an SVG deck with Qt (``qt``) or librsvg (``rsvg``).
    """
    if engine not in ENGINES:
        raise ArtworkError(f"unknown SVG renderer {engine!r}: one of {', '.join(ENGINES)}")
    if kind == "svg-cards":
        eid = element_id("gnome", card) if card is not None else (f"back-{back}" if back else "back")
        path = deck_file(kind, name) / f"{eid}.png"
        if not path.exists():
            raise ArtworkError(f"svg-cards has no {path.name}")
        return _render_png(path, height)
    if engine == "rsvg":
        return _render_rsvg(kind, name, element_id(kind, card), height)
    QtGui, _ = _qt()
    from PyQt5 import QtCore

    renderer = _renderer(deck_file(kind, name))
    eid = element_id(kind, card)
    if not renderer.elementExists(eid):
        raise ArtworkError(f"{kind} deck {name!r} has no element {eid!r}")
    width, height = card_size(height)
    image = QtGui.QImage(width, height, QtGui.QImage.Format_ARGB32)
    image.fill(QtCore.Qt.transparent)
    painter = QtGui.QPainter(image)
    painter.setRenderHint(QtGui.QPainter.Antialiasing)
    renderer.render(painter, eid, QtCore.QRectF(0, 0, width, height))
    painter.end()
    ptr = image.constBits()
    ptr.setsize(height * width * 4)
    return _rounded(np.frombuffer(ptr, np.uint8).reshape(height, width, 4).copy(), f"{kind} deck {name!r}", eid)


def _render_rsvg(kind: str, name: str, eid: str, height: int) -> np.ndarray:
    import cv2

    if not rsvg_available():
        raise ArtworkError("rsvg-convert is missing; run `make data` to install librsvg2-bin")
    width, height = card_size(height)
    done = subprocess.run(
        ["rsvg-convert", "--export-id", eid, "--width", str(width), "--height", str(height), "--format", "png"],
        input=_svg_bytes(deck_file(kind, name)),
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        reason = done.stderr.decode(errors="replace").strip().splitlines()[-1:] or ["no reason given"]
        raise ArtworkError(f"{kind} deck {name!r}: rsvg-convert could not draw {eid!r} ({reason[0]})")
    bgra = cv2.imdecode(np.frombuffer(done.stdout, np.uint8), cv2.IMREAD_UNCHANGED)
    if bgra is None or bgra.ndim != 3 or bgra.shape[2] != 4:
        raise ArtworkError(f"{kind} deck {name!r}: rsvg-convert gave no BGRA image for {eid!r}")
    if bgra.shape[:2] != (height, width):
        bgra = cv2.resize(bgra, (width, height), interpolation=cv2.INTER_AREA)
    return _rounded(bgra, f"{kind} deck {name!r}", eid)


def _rounded(bgra: np.ndarray, deck: str, eid: str) -> np.ndarray:
    """A drawn card with its corners rounded; drawing nothing at all is an error."""
    if bgra[..., 3].max() == 0:
        raise ArtworkError(f"{deck} drew nothing for {eid!r}")
    height, width = bgra.shape[:2]
    bgra[..., 3] = np.minimum(bgra[..., 3], rounded_mask(width, height))
    return bgra


@lru_cache(maxsize=1)
def rsvg_available() -> bool:
    """Whether librsvg's ``rsvg-convert`` is here (``make data`` installs it)."""
    return shutil.which("rsvg-convert") is not None


@lru_cache(maxsize=1)
def qt_available() -> bool:
    """Whether PyQt5 can draw SVGs here (``make data`` installs it)."""
    try:
        _qt()
    except (ArtworkError, ImportError, RuntimeError):
        return False
    return True


def installed(kind: str, name: str, engine: str = "qt") -> bool:
    """Whether this deck can be drawn on this machine: its files, and for SVG decks the renderer."""
    try:
        present = deck_file(kind, name).exists()
    except ArtworkError:
        return False
    return present and (kind == "svg-cards" or (rsvg_available() if engine == "rsvg" else qt_available()))
