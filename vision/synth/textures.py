"""Table surfaces, clutter, lighting and camera effects for rendered scenes (numpy + OpenCV, seeded)."""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

SURFACES: tuple[str, ...] = ("wood", "felt", "cloth", "laminate")


def _noise(rng: np.random.Generator, h: int, w: int, scale: int) -> np.ndarray:
    """Smooth noise in [0, 1] with features about ``scale`` pixels wide."""
    small = rng.random((max(2, h // scale + 2), max(2, w // scale + 2))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC).clip(0, 1)


def surface(kind: str, height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """A table surface texture (BGR uint8), drawn at up to 1024 px and scaled up."""
    if kind not in SURFACES:
        raise ValueError(f"unknown surface {kind!r}; known: {', '.join(SURFACES)}")
    scale = min(1.0, 1024 / max(height, width))
    if scale < 1.0:
        small = surface(kind, max(2, round(height * scale)), max(2, round(width * scale)), rng)
        return cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR)
    if kind == "wood":
        base = np.array(rng.choice([[60, 120, 170], [90, 150, 200], [40, 80, 130], [120, 170, 210]]), np.float32)
        ys = np.arange(height, dtype=np.float32)[:, None]
        warp = _noise(rng, height, width, 60) * 40
        freq = float(rng.uniform(0.05, 0.15))
        grain = 0.5 + 0.5 * np.sin((ys + warp) * freq + _noise(rng, height, width, 8) * 2)
        planks = (np.arange(width)[None, :] // int(rng.integers(120, 260))) % 2 * 0.06
        shade = 0.82 + 0.18 * grain + planks - 0.05
        img = base[None, None, :] * shade[..., None]
        if rng.random() < 0.5:
            img = img.transpose(1, 0, 2)
            img = cv2.resize(img, (width, height))
    elif kind == "felt":
        base = np.array(rng.choice([[40, 100, 30], [90, 60, 20], [30, 30, 110], [60, 60, 60]]), np.float32)
        fibres = rng.normal(1.0, 0.06, (height, width)).astype(np.float32)
        img = base[None, None, :] * (fibres * (0.9 + 0.2 * _noise(rng, height, width, 80)))[..., None]
    elif kind == "cloth":
        a = np.array(rng.integers(120, 240, 3), np.float32)
        b = a * float(rng.uniform(0.5, 0.8))
        step = int(rng.integers(12, 40))
        yy, xx = np.mgrid[0:height, 0:width]
        checks = (((yy // step) + (xx // step)) % 2).astype(np.float32)
        img = a * (1 - checks[..., None]) + b * checks[..., None]
        img *= rng.normal(1.0, 0.04, (height, width, 1)).astype(np.float32)
    else:  # laminate
        base = np.array(rng.integers(150, 245, 3), np.float32)
        img = base[None, None, :] * (0.92 + 0.08 * _noise(rng, height, width, 30))[..., None]
        img *= rng.normal(1.0, 0.02, (height, width, 1)).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def draw_clutter(
    canvas: np.ndarray, rng: np.random.Generator, ppm: float, keep_out: list[tuple[float, float, float]]
) -> None:
    """Chips, cups, phones, score pads, pens, coins and coasters on the table, away from the ``keep_out`` circles
    (x, y, radius in pixels). Score pads and coasters are pale rectangles: the detector must learn they are not
    cards."""
    h, w = canvas.shape[:2]
    for _ in range(int(rng.integers(0, 6))):
        for _try in range(20):
            x, y = float(rng.uniform(0, w)), float(rng.uniform(0, h))
            if all((x - kx) ** 2 + (y - ky) ** 2 > (kr + 60 * ppm) ** 2 for kx, ky, kr in keep_out):
                break
        else:
            continue
        kind = rng.choice(["chip", "chip", "cup", "phone", "pad", "pad", "pen", "coin", "coaster"])
        colour = tuple(int(v) for v in rng.integers(0, 255, 3))
        c = (round(x), round(y))
        if kind == "chip":
            r = round(20 * ppm)
            for k in range(int(rng.integers(1, 5))):
                cc = (c[0] + k * 2, c[1] - k * 2)
                cv2.circle(canvas, cc, r, colour, -1, cv2.LINE_AA)
                cv2.circle(canvas, cc, round(r * 0.7), (235, 235, 235), max(1, round(2 * ppm)), cv2.LINE_AA)
            _chip_spots(canvas, rng, cc, r)
        elif kind == "cup":
            r = round(42 * ppm)
            cv2.circle(canvas, (c[0] + round(6 * ppm), c[1] + round(6 * ppm)), r, (30, 30, 30), -1, cv2.LINE_AA)
            cv2.circle(canvas, c, r, colour, -1, cv2.LINE_AA)
            cv2.circle(canvas, c, round(r * 0.85), (40, 60, 90), -1, cv2.LINE_AA)
        elif kind == "phone":
            size = (round(75 * ppm), round(150 * ppm))
            box = cv2.boxPoints((c, size, float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(canvas, box.astype(np.int32), (25, 25, 25), cv2.LINE_AA)
        elif kind == "pad":
            _score_pad(canvas, rng, c, ppm)
        elif kind == "pen":
            size = (round(rng.uniform(120, 150) * ppm), round(9 * ppm))
            box = cv2.boxPoints((c, size, float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(canvas, box.astype(np.int32), colour, cv2.LINE_AA)
        elif kind == "coin":
            r = round(rng.uniform(9, 14) * ppm)
            metal = tuple(int(v) for v in rng.choice([[60, 150, 190], [170, 170, 175], [80, 120, 160]]))
            cv2.circle(canvas, c, r, metal, -1, cv2.LINE_AA)
            cv2.circle(canvas, c, max(1, round(r * 0.8)), tuple(int(v * 0.85) for v in metal), 1, cv2.LINE_AA)
        else:  # coaster: a pale square of cork or card
            side = round(rng.uniform(85, 105) * ppm)
            box = cv2.boxPoints((c, (side, side), float(rng.uniform(0, 90))))
            tone = tuple(int(v) for v in rng.choice([[120, 170, 200], [215, 225, 230], [180, 200, 215]]))
            cv2.fillConvexPoly(canvas, box.astype(np.int32), tone, cv2.LINE_AA)


def _chip_spots(canvas: np.ndarray, rng: np.random.Generator, c: tuple[int, int], r: int) -> None:
    """The pale inserts round a poker chip's rim (most chips have four to eight): with them a chip seen from above
    is a coloured disc with white spots, a look a card's pips share, and the detector must learn it is no card."""
    n = int(rng.integers(4, 9))
    tone = tuple(int(v) for v in rng.choice([[240, 240, 240], [200, 230, 245], [60, 60, 60]]))
    start = float(rng.uniform(0, 2 * np.pi))
    half = max(1, round(r * 0.14))
    for k in range(n):
        a = start + 2 * np.pi * k / n
        centre = (float(c[0] + 0.86 * r * np.cos(a)), float(c[1] + 0.86 * r * np.sin(a)))
        box = cv2.boxPoints((centre, (2 * half, 3 * half), float(np.degrees(a))))
        cv2.fillConvexPoly(canvas, np.round(box).astype(np.int32), tone, cv2.LINE_AA)


def _score_pad(canvas: np.ndarray, rng: np.random.Generator, c: tuple[int, int], ppm: float) -> None:
    """A paper score pad: a white or cream sheet, ruled lines and a scrawl of tallies."""
    w, h = rng.uniform(95, 150) * ppm, rng.uniform(140, 210) * ppm
    angle = float(rng.uniform(0, 180))
    paper = tuple(int(v) for v in rng.choice([[245, 248, 250], [215, 240, 250], [235, 235, 235]]))
    box = cv2.boxPoints((c, (w, h), angle))
    cv2.fillConvexPoly(canvas, box.astype(np.int32), paper, cv2.LINE_AA)
    a = np.deg2rad(angle)
    along, across = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    centre = np.array(c, np.float64)
    ink = tuple(int(v) for v in rng.choice([[120, 40, 20], [30, 30, 30], [40, 40, 160]]))
    step = rng.uniform(7, 10) * ppm
    k = -h / 2 + step
    while k < h / 2 - step / 2:
        p0 = centre + across * k - along * w / 2 * 0.95
        p1 = centre + across * k + along * w / 2 * 0.95
        cv2.line(canvas, tuple(np.round(p0).astype(int)), tuple(np.round(p1).astype(int)), (200, 170, 150), 1)
        if rng.random() < 0.5:  # a tally or a number written on the line
            start = rng.uniform(-0.4, 0.2) * w
            pts = [centre + across * (k - step * 0.3) + along * (start + j * 3 * ppm) for j in range(6)]
            pts = [pt + across * rng.uniform(-2, 2) * ppm for pt in pts]
            cv2.polylines(canvas, [np.round(np.array(pts)).astype(np.int32)], False, ink, 1, cv2.LINE_AA)
        k += step


def lighting(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """A smooth illumination field (float32, about 0.6-1.15) with a warm or cool tint."""
    field = 0.75 + 0.4 * _noise(rng, height, width, max(height, width) // 2)
    tint = np.array([rng.uniform(0.85, 1.05), 1.0, rng.uniform(0.9, 1.1)], np.float32)
    return (field[..., None] * tint[None, None, :]).astype(np.float32)


def glare(height: int, width: int, rng: np.random.Generator) -> np.ndarray:
    """An additive soft highlight (uint8, one channel), like a lamp reflected by glossy cards."""
    spot = np.zeros((height, width), np.float32)
    c = (int(rng.integers(0, width)), int(rng.integers(0, height)))
    axes = (int(rng.integers(width // 20, width // 6)), int(rng.integers(height // 30, height // 8)))
    cv2.ellipse(spot, c, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
    spot = cv2.GaussianBlur(spot, (0, 0), max(3.0, width / 60))
    return np.clip(spot * float(rng.uniform(40, 110)), 0, 255).astype(np.uint8)


@lru_cache(maxsize=12)
def _grain(shape: tuple[int, ...], sigma: float) -> np.ndarray:
    """Gaussian sensor noise, a little larger than the frame so each frame takes a shifted window of it."""
    rng = np.random.default_rng(round(sigma * 1000))
    return rng.normal(0, sigma, (shape[0] + 16, shape[1] + 16, *shape[2:])).astype(np.int16)


def sensor(frame: np.ndarray, rng: np.random.Generator, *, blur: float, noise: float, jpeg: int | None) -> np.ndarray:
    """Focus/motion blur, sensor noise and JPEG compression."""
    out = frame
    if blur > 0.3:
        if rng.random() < 0.3:  # motion blur along a random direction
            k = max(3, round(blur * 3) | 1)
            kernel = np.zeros((k, k), np.float32)
            angle = float(rng.uniform(0, np.pi))
            for i in range(k):
                t = i - k // 2
                kernel[round(k // 2 + t * np.sin(angle)), round(k // 2 + t * np.cos(angle))] = 1
            out = cv2.filter2D(out, -1, kernel / kernel.sum())
        else:
            out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        grain = _grain(out.shape, float(max(1, round(noise))))
        dy, dx = int(rng.integers(0, 16)), int(rng.integers(0, 16))
        out = cv2.add(out, grain[dy : dy + out.shape[0], dx : dx + out.shape[1]], dtype=cv2.CV_8U)
    if jpeg is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
        if ok:
            out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
