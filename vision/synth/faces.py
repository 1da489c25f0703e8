"""Procedural card faces and backs: no packaged artwork needed (used by the tests and CI).

Faces have both corner indices (rank over suit, top-left and, turned, bottom-right), the standard pip
layouts for A–10 and framed court cards, in a few font, colour and paper styles. Backs come in the colours
real decks come in with lattice, stripe, dot, check and logo patterns inside a white margin. Every image is
BGRA, 63×88 mm in aspect, with transparent rounded corners.

>>> face = render_face(Card.parse("QS"), FaceStyle.from_seed(0), height=176)
>>> face.shape
(176, 126, 4)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from referee.cards import JACK, KING, QUEEN, RANK_NAMES, Card, Suit

CARD_W_MM, CARD_H_MM = 63.0, 88.0
ASPECT = CARD_W_MM / CARD_H_MM
CORNER_MM = 3.2

# BGR colours real decks come in (names as the event log's `back` uses them).
BACK_COLOURS: dict[str, tuple[int, int, int]] = {
    "red": (40, 30, 180),
    "blue": (150, 60, 20),
    "green": (60, 120, 30),
    "black": (35, 35, 35),
    "purple": (120, 40, 100),
    "orange": (20, 110, 230),
    "yellow": (40, 190, 230),
    "grey": (120, 120, 120),
    "brown": (30, 60, 110),
    "pink": (150, 110, 230),
    "teal": (120, 120, 20),
    "navy": (90, 30, 20),
}
BACK_PATTERNS: tuple[str, ...] = ("lattice", "stripes", "dots", "checks", "logo")
FINE_BACKS = 0.4  # the share of lattice and stripe backs drawn fine

FORMS = (-1.0, -0.5, 0.0, 0.5, 1.0)  # the suit symbols' bends a varied deck draws from (few: masks are cached)
_FONTS = (
    cv2.FONT_HERSHEY_SIMPLEX,
    cv2.FONT_HERSHEY_DUPLEX,
    cv2.FONT_HERSHEY_COMPLEX,
    cv2.FONT_HERSHEY_TRIPLEX,
)


@dataclass(frozen=True, slots=True)
class FaceStyle:
    """How a procedural deck looks."""

    font: int
    thickness: float  # stroke width relative to text height
    red: tuple[int, int, int]
    black: tuple[int, int, int]
    paper: tuple[int, int, int]
    index_height: float  # rank text height, fraction of card height
    border: bool
    court: tuple[int, int, int]  # the court cards' accent colour
    # Drawn from a wider space by ``FaceStyle.varied`` (``from_seed`` keeps the defaults, so its decks stay as
    # they were): a TrueType/OpenType font for the indices and court letters instead of the Hershey ``font``,
    # where the index sits and how big its parts are, and the pips' size.
    ttf: str | None = None
    index_x: float = 0.035  # the top-left index's box: left, top and width as fractions of the card
    index_y: float = 0.03
    index_w: float = 0.16
    condense: float = 0.62  # a one-character rank's width relative to its height
    suit_scale: float = 1.0  # the index's suit relative to the room under the rank
    pip_scale: float = 1.0
    suit_form: tuple[float, float] = (0.0, 0.0)  # how the suit symbols are bent (``suit_mask``'s ``form``)

    @staticmethod
    def varied(seed: int) -> FaceStyle:
        """A deck of its own from a wide space of styles: most in one of the fonts on this machine
        (``index_fonts``), indices placed and sized as different makers do, papers, inks and pip sizes. Training
        on many of these teaches the identifier what every deck's indices share rather than a few decks' look."""
        rng = np.random.default_rng([seed, 7])
        fonts = index_fonts()
        ttf = fonts[int(rng.integers(len(fonts)))] if fonts and rng.random() < 0.85 else None
        warm = int(rng.integers(0, 18))
        paper = (int(rng.integers(225, 256)) - warm, int(rng.integers(232, 256)), int(rng.integers(238, 256)))
        black = (
            tuple(int(v) for v in rng.integers(0, 45, 3))
            if rng.random() < 0.8
            else (int(rng.integers(60, 120)), int(rng.integers(20, 50)), int(rng.integers(0, 40)))  # dark blue ink
        )
        return FaceStyle(
            font=_FONTS[int(rng.integers(len(_FONTS)))],
            thickness=float(rng.uniform(0.06, 0.18)),
            red=(int(rng.integers(0, 70)), int(rng.integers(0, 60)), int(rng.integers(150, 240))),
            black=black,  # type: ignore[arg-type]
            paper=paper,
            index_height=float(rng.uniform(0.07, 0.13)),
            border=bool(rng.random() < 0.4),
            court=(int(rng.integers(40, 220)), int(rng.integers(40, 200)), int(rng.integers(0, 200))),
            ttf=ttf,
            index_x=float(rng.uniform(0.02, 0.06)),
            index_y=float(rng.uniform(0.02, 0.05)),
            index_w=float(rng.uniform(0.12, 0.19)),
            condense=float(rng.uniform(0.5, 0.8)),
            suit_scale=float(rng.uniform(0.6, 1.0)),
            pip_scale=float(rng.uniform(0.75, 1.2)),
            suit_form=(float(rng.choice(FORMS)), float(rng.choice(FORMS))),
        )

    @staticmethod
    def from_seed(seed: int) -> FaceStyle:
        rng = np.random.default_rng(seed)
        paper = tuple(int(v) for v in rng.integers(232, 256, 3))
        return FaceStyle(
            font=_FONTS[int(rng.integers(len(_FONTS)))],
            thickness=float(rng.uniform(0.09, 0.16)),
            red=(int(rng.integers(10, 60)), int(rng.integers(10, 50)), int(rng.integers(170, 230))),
            black=tuple(int(v) for v in rng.integers(0, 40, 3)),  # type: ignore[arg-type]
            paper=paper,  # type: ignore[arg-type]
            index_height=float(rng.uniform(0.085, 0.115)),
            border=bool(rng.random() < 0.5),
            court=(int(rng.integers(120, 200)), int(rng.integers(80, 160)), int(rng.integers(0, 80))),
        )


def card_size(height: int) -> tuple[int, int]:
    """(width, height) in pixels of a card ``height`` pixels tall."""
    return round(height * ASPECT), height


def rounded_mask(width: int, height: int) -> np.ndarray:
    """uint8 mask of a card's rounded rectangle (255 inside)."""
    r = max(1, round(height * CORNER_MM / CARD_H_MM))
    mask = np.zeros((height, width), np.uint8)
    cv2.rectangle(mask, (r, 0), (width - 1 - r, height - 1), 255, -1)
    cv2.rectangle(mask, (0, r), (width - 1, height - 1 - r), 255, -1)
    for cx, cy in ((r, r), (width - 1 - r, r), (r, height - 1 - r), (width - 1 - r, height - 1 - r)):
        cv2.circle(mask, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return mask


@lru_cache(maxsize=256)
def suit_mask(suit: Suit, size: int = 256, form: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A filled suit symbol as a float mask in [0, 1], ``size`` × ``size``. ``form`` (each in [-1, 1]) bends the
    shape as makers' symbols differ: rounder or slimmer lobes, wider or narrower spread and stems; (0, 0) is the
    plain symbol every seeded deck uses."""
    s = 4 * size  # draw large, then shrink: smooth edges
    m = np.zeros((s, s), np.uint8)
    u = s / 100.0
    f0, f1 = form

    def pt(x: float, y: float) -> tuple[int, int]:
        return round(x * u), round(y * u)

    if suit is Suit.DIAMONDS:
        half = 38 + 8 * f0
        cv2.fillPoly(m, [np.array([pt(50, 2), pt(50 + half, 50), pt(50, 98), pt(50 - half, 50)])], 255, cv2.LINE_AA)
    elif suit is Suit.HEARTS:
        r, dx = 25 + 3 * f0, 21 + 3 * f1
        cv2.circle(m, pt(50 - dx, 32), round(r * u), 255, -1, cv2.LINE_AA)
        cv2.circle(m, pt(50 + dx, 32), round(r * u), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([pt(6, 40), pt(94, 40), pt(50, 96 - 6 * max(f1, 0))])], 255, cv2.LINE_AA)
    elif suit is Suit.SPADES:
        r, dx, stem = 23 + 4 * f0, 21 + 3 * f1, 16 + 6 * f0
        cv2.circle(m, pt(50 - dx, 58), round(r * u), 255, -1, cv2.LINE_AA)
        cv2.circle(m, pt(50 + dx, 58), round(r * u), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([pt(8, 52), pt(92, 52), pt(50, 2 + 6 * max(f1, 0))])], 255, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([pt(50, 60), pt(50 + stem, 98), pt(50 - stem, 98)])], 255, cv2.LINE_AA)
    else:  # clubs
        r, dx, stem = 22 + (4 if f0 > 0 else 2) * f0, 24 + 4 * f1, 16 + 6 * f1  # slimmer lobes would read as a spade
        for cx, cy in ((50, 27), (50 - dx, 58), (50 + dx, 58)):
            cv2.circle(m, pt(cx, cy), round(r * u), 255, -1, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([pt(50, 45), pt(50 + stem, 98), pt(50 - stem, 98)])], 255, cv2.LINE_AA)
        cv2.fillPoly(m, [np.array([pt(50, 35), pt(62, 62), pt(38, 62)])], 255, cv2.LINE_AA)
    return cv2.resize(m, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


# Fonts that draw symbols, not letters and digits, or draw them as something else.
_NOT_TEXT = ("cmex", "cmsy", "cmmi", "stixsiz", "stixnonuni", "lastresort", "math", "symbol", "dingbat",
             "d050000l", "z003")  # fmt: skip


@lru_cache(maxsize=1)
def index_fonts() -> tuple[str, ...]:
    """The TrueType/OpenType fonts on this machine that draw ranks as ranks, sorted by path: matplotlib's (always
    here: ultralytics needs it) and the system's (``make data`` installs a few families that real decks'
    indices resemble). Nothing is downloaded."""
    dirs = [Path("/usr/share/fonts")]
    try:
        import matplotlib

        dirs.append(Path(matplotlib.get_data_path()) / "fonts" / "ttf")
    except ImportError:  # fonts are optional: the Hershey fonts remain
        pass
    found = []
    for d in dirs:
        if d.is_dir():
            found += [p for p in d.rglob("*") if p.suffix.lower() in (".ttf", ".otf")]
    names: dict[str, str] = {}  # one file per font name (the same family ships in several folders)
    for p in sorted(found):
        if any(bad in p.name.lower() for bad in _NOT_TEXT):
            continue
        names.setdefault(p.name.lower(), str(p))
    return tuple(path for path in sorted(names.values()) if _draws_ranks(path))


def _draws_ranks(path: str) -> bool:
    """Whether a font draws 'A', 'K', 'Q', '8' and '10' as distinct, non-empty shapes."""
    try:
        masks = [_ttf_mask(t, path, 0.0, 24, 32) for t in ("A", "K", "Q", "8", "10")]
    except (OSError, ValueError):
        return False
    if any(m.sum() < 20 for m in masks):
        return False
    return all(np.abs(a - b).mean() > 0.08 for i, a in enumerate(masks) for b in masks[i + 1 :])


@lru_cache(maxsize=64)
def _ttf_font(path: str) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, 160)


def _ttf_mask(text: str, path: str, thickness: float, width: int, height: int) -> np.ndarray:
    font = _ttf_font(path)
    stroke = round(max(0.0, thickness - 0.08) * 40)  # heavier styles get an outline stroke
    left, top, right, bottom = font.getbbox(text, stroke_width=stroke)
    if right <= left or bottom <= top:
        raise ValueError(f"{path} draws nothing for {text!r}")
    canvas = Image.new("L", (right - left + 4, bottom - top + 4), 0)
    ImageDraw.Draw(canvas).text((2 - left, 2 - top), text, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    a = np.asarray(canvas)
    if not a.any():
        raise ValueError(f"{path} draws nothing for {text!r}")
    return _stretch_ink(a, width, height)


def _stretch_ink(canvas: np.ndarray, width: int, height: int) -> np.ndarray:
    """The inked part of a uint8 drawing stretched to ``width`` × ``height``, as a float mask."""
    ys, xs = np.nonzero(canvas)
    canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cv2.resize(canvas, (max(1, width), max(1, height)), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def style_text(text: str, style: FaceStyle, width: int, height: int) -> np.ndarray:
    """``text`` in the style's font (its TrueType font when it has one), stretched to ``width`` × ``height``."""
    if style.ttf is not None:
        return _ttf_mask(text, style.ttf, style.thickness, width, height)
    return text_mask(text, style.font, style.thickness, width, height)


def text_mask(text: str, font: int, thickness: float, width: int, height: int) -> np.ndarray:
    """``text`` stretched to fill ``width`` × ``height`` as a float mask (condensed like card indices)."""
    scale = 4.0
    thick = max(1, round(thickness * 30 * scale / 2))
    (tw, th), base = cv2.getTextSize(text, font, scale, thick)
    canvas = np.zeros((th + base + 2 * thick, tw + 2 * thick), np.uint8)
    cv2.putText(canvas, text, (thick, th + thick), font, scale, 255, thick, cv2.LINE_AA)
    return _stretch_ink(canvas, width, height)


def _paint(img: np.ndarray, mask: np.ndarray, x: int, y: int, colour: tuple[int, int, int]) -> None:
    """Alpha-blends ``colour`` through ``mask`` at (x, y) into a BGR or BGRA image, clipped to its edges."""
    h, w = mask.shape
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if x1 <= x0 or y1 <= y0:
        return
    m = mask[y0 - y : y1 - y, x0 - x : x1 - x, None]
    region = img[y0:y1, x0:x1, :3].astype(np.float32)
    img[y0:y1, x0:x1, :3] = (region * (1 - m) + np.array(colour, np.float32) * m).astype(np.uint8)


def _pip(
    img: np.ndarray,
    suit: Suit,
    cx: float,
    cy: float,
    size: int,
    colour: tuple[int, int, int],
    flip: bool,
    form: tuple[float, float] = (0.0, 0.0),
) -> None:
    m = cv2.resize(suit_mask(suit, form=form), (size, size), interpolation=cv2.INTER_AREA)
    if flip:
        m = m[::-1, ::-1]
    _paint(img, m, round(cx - size / 2), round(cy - size / 2), colour)


# Pip centres (x, y) as fractions of the card for A–10, the standard layouts.
_L, _C, _R = 0.3, 0.5, 0.7
_ROWS4 = (0.2, 0.4, 0.6, 0.8)
PIP_LAYOUTS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((_C, 0.5),),
    2: ((_C, 0.2), (_C, 0.8)),
    3: ((_C, 0.2), (_C, 0.5), (_C, 0.8)),
    4: ((_L, 0.2), (_R, 0.2), (_L, 0.8), (_R, 0.8)),
    5: ((_L, 0.2), (_R, 0.2), (_C, 0.5), (_L, 0.8), (_R, 0.8)),
    6: ((_L, 0.2), (_R, 0.2), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    7: ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_L, 0.8), (_R, 0.8)),
    8: ((_L, 0.2), (_R, 0.2), (_C, 0.35), (_L, 0.5), (_R, 0.5), (_C, 0.65), (_L, 0.8), (_R, 0.8)),
    9: (*((x, y) for y in _ROWS4 for x in (_L, _R)), (_C, 0.5)),
    10: (*((x, y) for y in _ROWS4 for x in (_L, _R)), (_C, 0.3), (_C, 0.7)),
}


def index_box(width: int, height: int, style: FaceStyle) -> tuple[int, int, int, int]:
    """The top-left index's box (x, y, w, h) in pixels: rank above suit."""
    th = style.index_height * height
    return round(style.index_x * width), round(style.index_y * height), round(style.index_w * width), round(th * 1.85)


def render_face(card: Card, style: FaceStyle, *, height: int = 352) -> np.ndarray:
    """A card face as BGRA, ``height`` pixels tall."""
    if card.suit is None:
        return _render_joker(style, height)
    width, height = card_size(height)
    img = np.zeros((height, width, 4), np.uint8)
    img[..., :3] = style.paper
    colour = style.red if card.suit in (Suit.HEARTS, Suit.DIAMONDS) else style.black
    if style.border:
        bx, by = round(0.02 * width), round(0.015 * height)
        cv2.rectangle(img, (bx, by), (width - 1 - bx, height - 1 - by), (*colour, 255), 1, cv2.LINE_AA)
    # Both corner indices: rank over suit, top-left, and the same turned at the bottom-right.
    ix, iy, iw, ih = index_box(width, height, style)
    rank = RANK_NAMES[card.rank]
    th = round(style.index_height * height)
    tw = round(th * (style.condense if len(rank) == 1 else 1.0))
    index = np.zeros((ih, iw), np.float32)
    tm = style_text(rank, style, min(tw, iw), th)
    index[: tm.shape[0], (iw - tm.shape[1]) // 2 : (iw - tm.shape[1]) // 2 + tm.shape[1]] = tm
    ps = max(2, round(min(iw, ih - th - 2) * style.suit_scale))
    sm = cv2.resize(suit_mask(card.suit, form=style.suit_form), (ps, ps), interpolation=cv2.INTER_AREA)
    index[th + 2 : th + 2 + ps, (iw - ps) // 2 : (iw - ps) // 2 + ps] = np.maximum(
        index[th + 2 : th + 2 + ps, (iw - ps) // 2 : (iw - ps) // 2 + ps], sm
    )
    _paint(img, index, ix, iy, colour)
    _paint(img, index[::-1, ::-1], width - ix - iw, height - iy - ih, colour)
    if card.rank in (JACK, QUEEN, KING):
        _court(img, card, style, colour)
    else:
        size = round((0.5 if card.rank == 1 else 0.2) * width * style.pip_scale)
        for fx, fy in PIP_LAYOUTS[card.rank]:
            _pip(img, card.suit, fx * width, fy * height, size, colour, flip=fy > 0.5, form=style.suit_form)
    img[..., 3] = rounded_mask(width, height)
    return img


def _court(img: np.ndarray, card: Card, style: FaceStyle, colour: tuple[int, int, int]) -> None:
    """A framed court card: a figure of bands and a crown, the letter, and suit pips (point-symmetric)."""
    assert card.suit is not None
    h, w = img.shape[:2]
    x0, y0, x1 = round(0.2 * w), round(0.14 * h), round(0.8 * w)
    half = np.zeros((h // 2 - y0, x1 - x0, 3), np.uint8)
    half[:] = style.paper
    hh, hw = half.shape[:2]
    # Robe bands, a face, a crown: drawn in the top half, then mirrored to the bottom turned.
    cv2.rectangle(half, (0, round(0.55 * hh)), (hw - 1, hh - 1), style.court, -1)
    for i in range(3):
        y = round((0.62 + 0.12 * i) * hh)
        cv2.line(half, (0, y), (hw - 1, y), colour, max(1, hh // 40), cv2.LINE_AA)
    cv2.ellipse(
        half,
        (hw // 2, round(0.42 * hh)),
        (round(0.17 * hw), round(0.16 * hh)),
        0,
        0,
        360,
        (150, 190, 235),
        -1,
        cv2.LINE_AA,
    )
    crown = np.array([[0.3, 0.28], [0.3, 0.12], [0.4, 0.2], [0.5, 0.08], [0.6, 0.2], [0.7, 0.12], [0.7, 0.28]])
    if card.rank == JACK:
        crown = np.array([[0.32, 0.28], [0.34, 0.16], [0.66, 0.16], [0.68, 0.28]])
    cv2.fillPoly(half, [np.round(crown * [hw, hh]).astype(np.int32)], (20, 180, 220), cv2.LINE_AA)
    letter = style_text(RANK_NAMES[card.rank], style, round(0.22 * hw), round(0.2 * hh))
    big = half.copy()
    _paint(big, letter, round(0.06 * hw), round(0.04 * hh), colour)
    pip = suit_mask(card.suit, form=style.suit_form)
    _paint(big, cv2.resize(pip, (round(0.2 * hw),) * 2), round(0.74 * hw), round(0.04 * hh), colour)
    img[y0 : y0 + hh, x0:x1, :3] = big
    img[h - y0 - hh : h - y0, x0:x1, :3] = big[::-1, ::-1]
    cv2.rectangle(img, (x0, y0), (x1 - 1, h - y0 - 1), (*colour, 255), max(1, w // 80), cv2.LINE_AA)


def _render_joker(style: FaceStyle, height: int) -> np.ndarray:
    width, height = card_size(height)
    img = np.zeros((height, width, 4), np.uint8)
    img[..., :3] = style.paper
    th = round(0.5 * width)
    _paint(
        img,
        text_mask("JOKER", style.font, style.thickness, th, round(0.12 * height)),
        (width - th) // 2,
        round(0.44 * height),
        style.red,
    )
    img[..., 3] = rounded_mask(width, height)
    return img


def render_back(colour: str, pattern: str, *, height: int = 352, seed: int = 0) -> np.ndarray:
    """A card back as BGRA: ``pattern`` in ``colour`` inside a white margin."""
    if colour not in BACK_COLOURS:
        raise ValueError(f"unknown back colour {colour!r}; known: {', '.join(BACK_COLOURS)}")
    if pattern not in BACK_PATTERNS:
        raise ValueError(f"unknown back pattern {pattern!r}; known: {', '.join(BACK_PATTERNS)}")
    rng = np.random.default_rng(seed)
    width, height = card_size(height)
    base = np.array(BACK_COLOURS[colour], np.float32)
    light = tuple(int(v) for v in np.clip(base + (255 - base) * 0.55, 0, 255))
    dark = tuple(int(v) for v in base)
    img = np.zeros((height, width, 4), np.uint8)
    img[..., :3] = 250
    m = round(width * float(rng.uniform(0.04, 0.08)))
    inner = np.zeros((height - 2 * m, width - 2 * m, 3), np.uint8)
    inner[:] = dark
    ih, iw = inner.shape[:2]
    step = max(4, round(width * float(rng.uniform(0.05, 0.09))))
    if pattern in ("lattice", "stripes") and rng.random() < FINE_BACKS:
        # A fine lattice, as on many casino and club backs (a Bicycle back's is about 2 % of the card's width a
        # step): from a table's distance it is a texture rather than lines.
        step = max(2, round(width * float(rng.uniform(0.018, 0.035))))
    line = max(1, step // 5)
    if pattern == "lattice":
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), light, line, cv2.LINE_AA)
            cv2.line(inner, (k, ih), (k + ih, 0), light, line, cv2.LINE_AA)
    elif pattern == "stripes":
        for k in range(-ih, iw + ih, step):
            cv2.line(inner, (k, 0), (k + ih, ih), light, max(1, step // 3), cv2.LINE_AA)
    elif pattern == "dots":
        for yy in range(step // 2, ih, step):
            for xx in range(step // 2 + (yy // step % 2) * step // 2, iw, step):
                cv2.circle(inner, (xx, yy), max(1, step // 4), light, -1, cv2.LINE_AA)
    elif pattern == "checks":
        for yy in range(0, ih, step):
            for xx in range((yy // step % 2) * step, iw, 2 * step):
                cv2.rectangle(inner, (xx, yy), (xx + step - 1, yy + step - 1), light, -1)
    else:  # logo: a border line and a central emblem
        cv2.rectangle(inner, (step // 2, step // 2), (iw - step // 2, ih - step // 2), light, line, cv2.LINE_AA)
        cv2.circle(inner, (iw // 2, ih // 2), round(0.28 * iw), light, max(2, line * 2), cv2.LINE_AA)
        star = [
            (iw // 2 + round(0.2 * iw * np.cos(a)), ih // 2 + round(0.2 * iw * np.sin(a)))
            for a in np.linspace(-np.pi / 2, 3.5 * np.pi, 6)[:-1]
        ]
        cv2.polylines(inner, [np.array(star[::2] + star[1::2], np.int32)], True, light, max(1, line), cv2.LINE_AA)
    img[m : m + ih, m : m + iw, :3] = inner
    img[..., 3] = rounded_mask(width, height)
    return img


def recolour(back: np.ndarray, colour: str) -> np.ndarray:
    """A packaged back turned to ``colour``: its coloured pixels take the colour's hue and saturation (grey and
    black keep their lightness, darkened for black), so a deck's pattern can come in every player's colour."""
    if colour not in BACK_COLOURS:
        raise ValueError(f"unknown back colour {colour!r}; known: {', '.join(BACK_COLOURS)}")
    target = cv2.cvtColor(np.array([[BACK_COLOURS[colour]]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0].astype(np.int32)
    hsv = cv2.cvtColor(back[..., :3], cv2.COLOR_BGR2HSV).astype(np.int32)
    coloured = hsv[..., 1] > 40
    hsv[..., 0] = np.where(coloured, target[0], hsv[..., 0])
    hsv[..., 1] = np.where(
        coloured, np.clip(hsv[..., 1] * max(target[1], 1) // 255 + target[1] // 3, 0, 255), hsv[..., 1]
    )
    if target[1] < 40:  # black or grey decks
        hsv[..., 2] = np.where(coloured, hsv[..., 2] * max(target[2], 40) // 255, hsv[..., 2])
    out = back.copy()
    out[..., :3] = cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)
    return out
