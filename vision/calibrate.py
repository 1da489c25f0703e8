"""Table calibration: the homography from camera pixels to table millimetres, and the players' seats.

Three ways to get the homography, best first:

* **markers** — four ArUco markers (``DICT_4X4_50``, ids 0-3) laid at the corners of a rectangle on the table,
  clockwise from the top-left as the camera sees it. ``demonref calibrate --print markers.png`` makes the sheet.
  The markers' own squares (printed ``MARKER_MM`` wide) give the scale, so the table's size need not be typed.
* **corners** — four image points of a rectangle of known size (e.g. the table's corners).
* **cards** — no markers: a scale-only map from the median size of the cards in view (a card is 88 mm long).

Seats (each player's area and the slots of their demon, line and waste) are found from the dealt table at
round start (``find_seats``) and saved in the same JSON file, which a person may edit.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_MM = 60.0  # printed side of each marker's black square
CARD_MM = (63.0, 88.0)
VERSION = 1


class CalibrationError(ValueError):
    """A calibration could not be made or read; the message says what was wrong."""


@dataclass(frozen=True, slots=True)
class Seat:
    """One player's area on the table (mm). ``down`` points from the table's middle towards the player;
    ``right`` is the player's right hand. Slots are positions along ``right`` measured from ``centre``."""

    player: str
    centre: tuple[float, float]
    down: tuple[float, float]
    demon: float  # slot of the demon pile
    line: tuple[float, ...]  # slots of the line piles, in order line:1, line:2, …
    waste: float  # where the waste lies (beyond the line, away from the demon)
    back: str | None = None  # the back colour of this player's deck
    back_bgr: tuple[float, float, float] | None = None  # its mean colour, as seen at round start (or later in its area)
    stock: float | None = None  # slot of the stock (face down) when it lay on the table at round start

    @property
    def right(self) -> tuple[float, float]:
        return (self.down[1], -self.down[0])

    def local(self, xy: np.ndarray) -> np.ndarray:
        """Table mm → (along right, along down) relative to the seat's centre; rows of points."""
        d = np.asarray(xy, np.float64).reshape(-1, 2) - np.asarray(self.centre)
        return np.stack([d @ np.asarray(self.right), d @ np.asarray(self.down)], axis=1)

    @property
    def span(self) -> tuple[float, float]:
        """The lowest and highest slot of the seat's row: demon, waste and (when known) stock."""
        ends = (self.demon, self.waste) if self.stock is None else (self.demon, self.waste, self.stock)
        return min(ends), max(ends)

    @property
    def pitch(self) -> float:
        slots = sorted((self.demon, *self.line))
        return float(np.median(np.diff(slots))) if len(slots) > 1 else CARD_MM[0] * 1.2


@dataclass(frozen=True, slots=True)
class Calibration:
    """Image pixels → table mm, and the seats. Saved as JSON; every field may be edited by hand."""

    homography: tuple[tuple[float, ...], ...]  # 3×3, image px → table mm
    image_size: tuple[int, int]  # (width, height) the homography was made for
    source: str  # markers, corners or cards
    table_mm: tuple[float, float] | None = None  # the marked rectangle's size, when known
    seats: tuple[Seat, ...] = ()
    demon_side: str = "left"  # where the demon lies when no stock shows which end is which
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def H(self) -> np.ndarray:
        return np.asarray(self.homography, np.float64)

    def to_table(self, points: np.ndarray) -> np.ndarray:
        """Image pixels (…, 2) → table mm (…, 2)."""
        pts = np.asarray(points, np.float64)
        shape = pts.shape
        out = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), self.H).reshape(shape)
        return out

    def on_table(self, xy: np.ndarray, margin_mm: float = CARD_MM[1]) -> np.ndarray:
        """For points in table mm (…, 2): whether each lies on the marked table, or within ``margin_mm`` of its
        edge (a player's row may overhang it a little). Everything counts as on the table when its size is not
        known (calibrated from the cards' size)."""
        pts = np.asarray(xy, np.float64)
        if not self.table_mm:
            return np.ones(pts.shape[:-1], bool)
        w, h = self.table_mm
        x, y = pts[..., 0], pts[..., 1]
        return (x >= -margin_mm) & (x <= w + margin_mm) & (y >= -margin_mm) & (y <= h + margin_mm)

    def to_image(self, points: np.ndarray) -> np.ndarray:
        pts = np.asarray(points, np.float64)
        shape = pts.shape
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(self.H)).reshape(shape)

    def scaled_to(self, size: tuple[int, int]) -> Calibration:
        """The same calibration for frames of another resolution (same camera, resized)."""
        if tuple(size) == tuple(self.image_size):
            return self
        sx, sy = self.image_size[0] / size[0], self.image_size[1] / size[1]
        h = self.H @ np.diag([sx, sy, 1.0])
        return replace(self, homography=_tuple(h), image_size=(int(size[0]), int(size[1])))

    def with_seats(self, seats: Sequence[Seat]) -> Calibration:
        return replace(self, seats=tuple(seats))

    def seat(self, player: str) -> Seat | None:
        return next((s for s in self.seats if s.player == player), None)

    # --- JSON ---------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "version": VERSION,
            "source": self.source,
            "image_size": list(self.image_size),
            "homography": [list(r) for r in self.homography],
            "table_mm": list(self.table_mm) if self.table_mm else None,
            "demon_side": self.demon_side,
            "seats": [{k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(s).items()} for s in self.seats],
            "notes": self.notes,
        }

    @staticmethod
    def from_json(data: dict[str, Any], *, where: str = "calibration") -> Calibration:
        try:
            if data.get("version", VERSION) != VERSION:
                raise CalibrationError(f"{where}: version {data.get('version')} is not {VERSION}")
            h = np.asarray(data["homography"], np.float64)
            if h.shape != (3, 3) or not np.isfinite(h).all() or abs(np.linalg.det(h)) < 1e-12:
                raise CalibrationError(f"{where}: 'homography' must be an invertible 3×3 matrix")
            size = tuple(int(v) for v in data["image_size"])
            if len(size) != 2 or min(size) <= 0:
                raise CalibrationError(f"{where}: 'image_size' must be [width, height]")
            side = data.get("demon_side", "left")
            if side not in ("left", "right"):
                raise CalibrationError(f"{where}: 'demon_side' must be 'left' or 'right', not {side!r}")
            seats = []
            for i, s in enumerate(data.get("seats") or []):
                try:
                    seats.append(
                        Seat(
                            player=str(s["player"]),
                            centre=(float(s["centre"][0]), float(s["centre"][1])),
                            down=_unit(s["down"]),
                            demon=float(s["demon"]),
                            line=tuple(float(v) for v in s["line"]),
                            waste=float(s["waste"]),
                            back=s.get("back"),
                            back_bgr=tuple(float(v) for v in s["back_bgr"]) if s.get("back_bgr") else None,  # type: ignore[arg-type]
                            stock=float(s["stock"]) if s.get("stock") is not None else None,
                        )
                    )
                except (KeyError, TypeError, ValueError, IndexError) as exc:
                    raise CalibrationError(f"{where}: seat {i} is malformed ({exc!r})") from exc
            table = data.get("table_mm")
            return Calibration(
                homography=_tuple(h),
                image_size=(size[0], size[1]),
                source=str(data.get("source", "edited")),
                table_mm=(float(table[0]), float(table[1])) if table else None,
                seats=tuple(seats),
                demon_side=side,
                notes=dict(data.get("notes") or {}),
            )
        except CalibrationError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise CalibrationError(f"{where}: missing or malformed field ({exc!r})") from exc

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(path.suffix + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")
        tmp.replace(path)

    @staticmethod
    def load(path: Path) -> Calibration:
        if not path.exists():
            raise CalibrationError(f"{path}: no such file")
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise CalibrationError(f"{path}: not a JSON calibration file ({exc})") from exc
        if not isinstance(data, dict):
            raise CalibrationError(f"{path}: expected a JSON object")
        return Calibration.from_json(data, where=str(path))


def _tuple(h: np.ndarray) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(float(v) for v in row) for row in h)


def _unit(v: Sequence[float]) -> tuple[float, float]:
    x, y = float(v[0]), float(v[1])
    n = math.hypot(x, y)
    if n == 0:
        raise ValueError("a zero direction")
    return (x / n, y / n)


# --- markers --------------------------------------------------------------------------------------


def find_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """ArUco markers 0-3 in ``image``: id → its 4 corners (clockwise from the marker's top-left)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(ARUCO_DICT), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(grey)
    found: dict[int, np.ndarray] = {}
    if ids is None:
        return found
    for c, i in zip(corners, ids.ravel(), strict=True):
        if 0 <= int(i) <= 3 and int(i) not in found:
            found[int(i)] = c.reshape(4, 2).astype(np.float64)
    return found


def from_markers(image: np.ndarray, marker_mm: float = MARKER_MM, *, allow_three: bool = True) -> Calibration:
    """The homography from four markers at the corners of a rectangle; their printed size gives the scale. With
    one marker covered, its place is inferred from the other three (``allow_three``)."""
    found = find_markers(image)
    missing = [i for i in range(4) if i not in found]
    if len(missing) > 1 or (missing and not allow_three):
        raise CalibrationError(
            f"markers {', '.join(map(str, missing))} not found (found: {sorted(found) or 'none'}); "
            "put all four printed markers (`demonref calibrate --print markers.png`) on the table in view"
        )
    centres = np.zeros((4, 2))
    for i in range(4):
        if i in found:
            centres[i] = found[i].mean(axis=0)
    if missing:  # one covered (a cup, a hand): the rectangle's fourth corner, as a parallelogram's
        m = missing[0]
        centres[m] = centres[(m + 1) % 4] + centres[(m + 3) % 4] - centres[(m + 2) % 4]
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float64)
    h_unit, _ = cv2.findHomography(centres, unit)
    if h_unit is None:
        raise CalibrationError("the four markers do not span a rectangle (are they in a line?)")
    widths, heights = [], []
    for i in found:
        c = cv2.perspectiveTransform(found[i].reshape(-1, 1, 2), h_unit).reshape(4, 2)
        widths.append((np.linalg.norm(c[1] - c[0]) + np.linalg.norm(c[2] - c[3])) / 2)
        heights.append((np.linalg.norm(c[3] - c[0]) + np.linalg.norm(c[2] - c[1])) / 2)
    w_mm = marker_mm / float(np.median(widths))
    h_mm = marker_mm / float(np.median(heights))
    target = unit * [w_mm, h_mm]
    h, _ = cv2.findHomography(centres, target)
    size = (int(image.shape[1]), int(image.shape[0]))
    notes = {"inferred_marker": missing[0]} if missing else {}
    return Calibration(_tuple(h), size, "markers", (round(w_mm, 1), round(h_mm, 1)), notes=notes)


def from_corners(
    corners: Sequence[Sequence[float]], size_mm: tuple[float, float], image_size: tuple[int, int]
) -> Calibration:
    """The homography from four image points (clockwise from top-left) of a rectangle ``size_mm`` big."""
    pts = np.asarray(corners, np.float64)
    if pts.shape != (4, 2):
        raise CalibrationError(f"expected four corner points x,y; got {len(pts)}")
    w, h = size_mm
    if w <= 0 or h <= 0:
        raise CalibrationError(f"the rectangle's size must be positive, got {w}×{h} mm")
    target = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    hom, _ = cv2.findHomography(pts, target)
    if hom is None:
        raise CalibrationError("the four corner points do not make a quadrilateral")
    return Calibration(_tuple(hom), image_size, "corners", (float(w), float(h)))


def card_size_px(quads: Sequence[np.ndarray]) -> tuple[float, float]:
    """The median width and length (px) of the cards of ``quads`` (each quad's shorter and longer side)."""
    sides = [[float(np.linalg.norm(q[(k + 1) % 4] - q[k])) for k in range(4)] for q in map(np.asarray, quads)]
    return float(np.median([min(s) for s in sides])), float(np.median([max(s) for s in sides]))


def from_card_sizes(quads: Sequence[np.ndarray], image_size: tuple[int, int]) -> Calibration:
    """Without markers: a scale-only map (image axes kept) from the median card length in view."""
    if not quads:
        raise CalibrationError("no markers and no cards in view: nothing to measure the table by")
    mm_per_px = CARD_MM[1] / card_size_px(quads)[1]
    h = np.diag([mm_per_px, mm_per_px, 1.0])
    return Calibration(_tuple(h), image_size, "cards")


def marker_sheet(path: Path, dpi: int = 300, marker_mm: float = MARKER_MM) -> None:
    """A printable A4 sheet of markers 0-3, each ``marker_mm`` wide at ``dpi``, with where to lay it."""
    px = dpi / 25.4
    sheet = np.full((round(297 * px), round(210 * px)), 255, np.uint8)
    side = round(marker_mm * px)
    dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
    places = ("top-left", "top-right", "bottom-right", "bottom-left")
    for i, place in enumerate(places):
        col, row = i % 2, i // 2
        x = round((25 + col * 95) * px)
        y = round((40 + row * 120) * px)
        sheet[y : y + side, x : x + side] = cv2.aruco.generateImageMarker(dictionary, i, side)
        cv2.putText(sheet, f"{i}: {place}", (x, y + side + round(10 * px)), cv2.FONT_HERSHEY_SIMPLEX,
                    px * 0.35, 0, max(1, round(px * 0.5)), cv2.LINE_AA)  # fmt: skip
    cv2.putText(sheet, "demonref: cut out, lay at the table's corners as the camera sees them; keep the white border",
                (round(10 * px), round(20 * px)), cv2.FONT_HERSHEY_SIMPLEX, px * 0.22, 0, max(1, round(px * 0.3)),
                cv2.LINE_AA)  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), sheet):
        raise CalibrationError(f"{path}: could not write the sheet (is the suffix .png or .jpg?)")
