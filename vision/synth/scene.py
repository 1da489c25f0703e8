"""Overhead scenes of a Racing Demon table: table geometry, piles laid out from the referee's state, hands
carrying cards, clutter, light and camera, and per-card ground truth.

Cards are composed on a top-down *table canvas* (pixels = millimetres × ``ppm``), which one homography then
warps into the camera frame (tilt, yaw), followed by lens distortion, blur, noise and JPEG. Every card's four
corners go through the same maps, so the truth quads lie on the card pixels. Visibility comes from a label
buffer drawn in the same z-order (hands occlude).
"""

from __future__ import annotations

import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from referee.cards import STANDARD_52, Card
from referee.game import RoundState
from referee.simulate import Motion
from vision.synth import textures
from vision.synth.faces import CARD_H_MM, CARD_W_MM

ARUCO_DICT = cv2.aruco.DICT_4X4_50
MARKER_MM = 60.0
LADDER_STEP_MM = 21.0  # how far each card of a ladder sits below the one it covers: its index strip shows
INDEX_MM = (10.0, 20.0)  # the corner index (rank over suit) of a 63x88 mm card
# A pile set aside lies at least a card's diagonal from other players' cards and foundations (up to three piles, each
# one ASIDE_STEP further along and in).
ASIDE_CLEAR_MM = math.hypot(CARD_W_MM, CARD_H_MM)
ASIDE_STEP = (10.0, -6.0)
# Each seat's row of cards lies at least a card's diagonal from every other seat's, its line slots a full pitch apart:
# the table grows with the players until both hold (people round a real table sit no closer than that).
SEAT_CLEAR_MM = ASIDE_CLEAR_MM
FULL_PITCH_MM = 74.0
SKIN = ((80, 120, 180), (60, 100, 160), (110, 160, 220), (40, 70, 110), (90, 140, 200))
SLEEVE = ((60, 40, 30), (40, 40, 120), (120, 90, 40), (30, 30, 30), (150, 150, 150), (40, 100, 40))


@dataclass(frozen=True, slots=True)
class CardTruth:
    """One card in a frame. ``quad``: the card's corners in frame pixels, clockwise from its top-left."""

    card: str  # "QS", or "back" for a face-down card
    owner: str | None  # the player whose deck it is
    quad: tuple[tuple[float, float], ...]
    visible: float  # fraction of the card not covered
    index_visible: bool  # at least one corner index fully visible
    zone: str  # demon, line:N, waste, stock, foundation:<pile>, kings:<pile> (set aside), hand
    # Frame-pixel quads of the corner indices that are not covered (used to check they are inside the frame).
    index_quads: tuple[tuple[tuple[float, float], ...], ...] = ()

    def to_json(self) -> dict[str, object]:
        return {
            "card": self.card,
            "owner": self.owner,
            "quad": [[round(x, 2), round(y, 2)] for x, y in self.quad],
            "visible": round(self.visible, 3),
            "index_visible": self.index_visible,
            "zone": self.zone,
        }


@dataclass(frozen=True, slots=True)
class Seat:
    """A player's place: the centre of their area (table mm) and the outward direction (radians)."""

    x: float
    y: float
    angle: float

    @property
    def right(self) -> np.ndarray:
        return np.array([math.sin(self.angle), -math.cos(self.angle)])

    @property
    def out(self) -> np.ndarray:
        return np.array([math.cos(self.angle), math.sin(self.angle)])

    def to_table(self, lx: float, ly: float) -> np.ndarray:
        return np.array([self.x, self.y]) + lx * self.right + ly * self.out


@dataclass(frozen=True, slots=True)
class TableGeometry:
    width: float  # mm
    height: float
    round: bool
    seats: tuple[Seat, ...]
    pitch: float  # distance between line slots, mm

    @staticmethod
    def make(players: int, *, round_table: bool = False, line_size: int = 4) -> TableGeometry:
        """A table for ``players``: about 1.2 m for four, and wider where rows would crowd (e2e-s148/game00: eight
        players at an oblong table of 1.7 m, the nearest cards of two seats 42 mm apart, a stock on a neighbour's
        demon)."""
        width = 800.0 + 110.0 * players
        while True:
            geometry = TableGeometry._seated(width, players, round_table, line_size)
            if geometry.pitch >= FULL_PITCH_MM and geometry.rows_apart(line_size) >= SEAT_CLEAR_MM:
                return geometry
            width += 20.0

    @staticmethod
    def _seated(width: float, players: int, round_table: bool, line_size: int) -> TableGeometry:
        height = width if round_table else width * 0.68
        a, b = width / 2 * 0.74, height / 2 * 0.72
        # Players sit evenly spaced along the table's edge, each facing across it (their row along the edge). Spaced
        # by angle instead, those at the ends of an oblong table sat crowded (e2e-s148/game00, eight players: p4's
        # stock lay on p3's demon, which was never seen).
        theta = math.pi / 2 + np.linspace(0.0, 2 * math.pi, 3601)  # the first player sits at the bottom
        arc = np.concatenate([[0.0], np.cumsum(np.hypot(np.diff(a * np.cos(theta)), np.diff(b * np.sin(theta))))])
        seats = []
        for i in range(players):
            t = float(np.interp(arc[-1] * i / players, arc, theta))
            normal = math.atan2(a * math.sin(t), b * math.cos(t))  # the edge's outward direction there
            seats.append(Seat(width / 2 + a * math.cos(t), height / 2 + b * math.sin(t), normal))
        perimeter = math.pi * (3 * (a + b) - math.sqrt((3 * a + b) * (a + 3 * b)))
        pitch = min(FULL_PITCH_MM, perimeter / players / (line_size + 3.2))
        return TableGeometry(width, height, round_table, tuple(seats), pitch)

    def row(self, line_size: int = 4) -> list[float]:
        """Where a seat's cards lie along its row (seat mm): the demon, the line's places, the waste, the stock."""
        p = self.pitch
        x0 = -p * (line_size + 2) / 2
        return [x0 + p * k for k in range(line_size + 1)] + [x0 + p * (line_size + 1.15), x0 + p * (line_size + 2.6)]

    def rows_apart(self, line_size: int = 4) -> float:
        """The least distance (mm) between the places of two seats' rows."""
        places = [np.array([s.to_table(x, 0) for x in self.row(line_size)]) for s in self.seats]
        return min(
            (
                float(np.linalg.norm(a[:, None] - b[None], axis=2).min())
                for i, a in enumerate(places)
                for b in places[i + 1 :]
            ),
            default=math.inf,
        )

    def aside(self, seat: int, line_size: int = 4) -> tuple[float, float] | None:
        """Where the player at ``seat`` sets completed piles aside (seat mm: along their row, outwards): beyond their
        stock towards the middle or, where that is on a neighbour's cards (round tables of five seats or more), inwards
        of their own waste; None where both are on someone's cards or a foundation's place (oblong tables of five or
        more): the piles go off the table. Nobody puts a completed pile on a neighbour's demon (e2e-s149/game00: six
        players, the KC set aside there was read as that neighbour's card)."""
        p, out = self.pitch, -110.0
        row = self.row(line_size)
        taken = [o.to_table(x, 0) for k, o in enumerate(self.seats) if k != seat for x in row]
        taken += self.foundation_cells()[: 4 * len(self.seats)]  # a place for every Ace there can be
        for lx in (p * (line_size + 2) / 2 + p * 1.2, row[-2]):  # beyond the stock; the waste's place
            spread = [self.seats[seat].to_table(lx + n * ASIDE_STEP[0], out + n * ASIDE_STEP[1]) for n in range(3)]
            if all(float(np.linalg.norm(w - o)) >= ASIDE_CLEAR_MM for w in spread for o in taken):
                return lx, out
        return None

    def foundation_cells(self) -> list[np.ndarray]:
        """Places for foundations in the middle, nearest the centre first."""
        cx, cy = self.width / 2, self.height / 2
        rx, ry = self.width * 0.27, self.height * 0.24
        cells = []
        for gy in np.arange(-ry, ry + 1, 128.0):
            for gx in np.arange(-rx, rx + 1, 96.0):
                if (gx / rx) ** 2 + (gy / ry) ** 2 <= 1.05:
                    cells.append(np.array([cx + gx, cy + gy]))
        cells.sort(key=lambda c: (c[0] - cx) ** 2 + (c[1] - cy) ** 2)
        return cells


@dataclass(slots=True)
class Placed:
    """A card image to draw: its centre (table mm), the directions of its image x and y axes, and its truth."""

    image: np.ndarray  # BGRA
    centre: np.ndarray
    right: np.ndarray
    down: np.ndarray
    card: str
    owner: str | None
    zone: str
    label: bool = True  # whether the card gets a truth entry
    lifted: float = 0.0  # mm above the table (a carried card casts a longer shadow)

    def corners(self) -> np.ndarray:
        hw, hh = CARD_W_MM / 2, CARD_H_MM / 2
        return np.array([self.centre - hw * self.right - hh * self.down, self.centre + hw * self.right - hh * self.down,
                         self.centre + hw * self.right + hh * self.down, self.centre - hw * self.right + hh * self.down])  # fmt: skip


@dataclass(slots=True)
class Camera:
    """Table canvas → frame homography plus radial lens distortion (k1) about the frame centre."""

    H: np.ndarray
    size: tuple[int, int]  # (width, height)
    k1: float
    fused: tuple[np.ndarray, np.ndarray] | None = None

    def project(self, canvas_points: np.ndarray) -> np.ndarray:
        pts = cv2.perspectiveTransform(canvas_points.reshape(-1, 1, 2).astype(np.float64), self.H).reshape(-1, 2)
        return self.distort(pts)

    def _norm(self) -> tuple[np.ndarray, float]:
        w, h = self.size
        return np.array([w / 2, h / 2]), math.hypot(w / 2, h / 2)

    def distort(self, pts: np.ndarray) -> np.ndarray:
        """Where undistorted frame points land in the distorted frame (the inverse of the map ``warp`` builds)."""
        if self.k1 == 0:
            return pts
        c, r0 = self._norm()
        v = (pts - c) / r0
        rs = np.linalg.norm(v, axis=1)
        rd = rs.copy()
        for _ in range(8):  # Newton on rd * (1 + k1 rd^2) = rs
            f = rd * (1 + self.k1 * rd**2) - rs
            rd -= f / (1 + 3 * self.k1 * rd**2)
        scale = np.where(rs > 1e-9, rd / np.maximum(rs, 1e-9), 1.0)
        return c + v * scale[:, None] * r0

    def warp(self, canvas: np.ndarray, border: tuple[int, ...]) -> np.ndarray:
        """The camera frame of a table canvas: the homography and the lens distortion in one remap, through
        fixed-point maps built once per camera (each frame pixel → the canvas point it sees)."""
        if self.fused is None:
            w, h = self.size
            ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
            if self.k1 != 0:
                c, r0 = self._norm()
                vx, vy = (xs - c[0]) / r0, (ys - c[1]) / r0
                f = 1 + self.k1 * (vx**2 + vy**2)
                xs, ys = (c[0] + vx * f * r0).astype(np.float32), (c[1] + vy * f * r0).astype(np.float32)
            pts = np.stack([xs, ys], axis=-1).reshape(-1, 1, 2).astype(np.float64)
            src = cv2.perspectiveTransform(pts, np.linalg.inv(self.H)).reshape(h, w, 2).astype(np.float32)
            self.fused = cv2.convertMaps(src, None, cv2.CV_16SC2)
        return cv2.remap(canvas, self.fused[0], self.fused[1], cv2.INTER_LINEAR,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=border)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SceneStyle:
    """Everything random about a scene, drawn once from its seed."""

    surface: str
    size: tuple[int, int]
    tilt: float  # 0..~0.3: how much the far side shrinks
    yaw: float  # degrees
    fill: float  # how much of the frame the table spans
    k1: float
    blur: float
    noise: float
    jpeg: int | None
    glare: bool
    clutter: bool

    @staticmethod
    def random(rng: np.random.Generator, size: tuple[int, int] | None = None) -> SceneStyle:
        sizes = [(1280, 720), (1280, 720), (1920, 1080), (1920, 1080), (2560, 1440), (3840, 2160)]
        return SceneStyle(
            surface=str(rng.choice(textures.SURFACES)),
            size=size or sizes[int(rng.integers(len(sizes)))],
            tilt=float(rng.uniform(0, 0.3)),
            yaw=float(rng.uniform(-10, 10)),
            fill=float(
                rng.choice([rng.uniform(0.85, 0.98), rng.uniform(0.98, 1.6), rng.uniform(1.6, 3.0)], p=[0.5, 0.3, 0.2])
            ),
            k1=float(rng.uniform(-0.08, 0.04)),
            blur=float(rng.choice([0.0, 0.0, rng.uniform(0.4, 1.6)])),
            noise=float(rng.uniform(0, 6)),
            jpeg=int(rng.integers(60, 95)) if rng.random() < 0.8 else None,
            glare=bool(rng.random() < 0.4),
            clutter=bool(rng.random() < 0.7),
        )


FaceSource = Callable[[str, Card], np.ndarray]  # (player, card) -> BGRA face image
BackSource = Callable[[str], np.ndarray]  # player -> BGRA back image


@dataclass
class SceneRenderer:
    """Renders frames of one table. Reuse it across the frames of a game: textures, camera and faces are cached."""

    geometry: TableGeometry
    players: Sequence[str]
    faces: FaceSource
    backs: BackSource
    style: SceneStyle
    seed: int = 0
    markers: bool = True
    hands: bool = True
    line_size: int = 4
    game: bool = True  # False: the game's cards are not laid out (a table with only ``loose`` cards on it)
    loose: list[Placed] = field(default_factory=list)  # cards lying loose on top of the game (``scatter``)
    _cache: dict[tuple[str, str], np.ndarray] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        rng = np.random.default_rng(self.seed)
        w = self.style.size[0]
        self.ppm = w * 1.05 / self.geometry.width  # canvas pixels per table mm, close to the frame's own scale
        self.row = self.geometry.row(self.line_size)  # along each seat's row (seat mm): demon, line, waste, stock
        cw, ch = round(self.geometry.width * self.ppm), round(self.geometry.height * self.ppm)
        margin = round(0.12 * max(cw, ch))
        self.margin = margin
        floor = textures.surface(str(rng.choice(["wood", "laminate"])), ch + 2 * margin, cw + 2 * margin, rng)
        floor = (floor.astype(np.float32) * 0.55).astype(np.uint8)
        table = textures.surface(self.style.surface, ch, cw, rng)
        mask = np.zeros((ch, cw), np.uint8)
        if self.geometry.round:
            cv2.ellipse(mask, (cw // 2, ch // 2), (cw // 2, ch // 2), 0, 0, 360, 255, -1, cv2.LINE_AA)
        else:
            mask[:] = 255
        region = floor[margin : margin + ch, margin : margin + cw]
        region[:] = np.where(mask[..., None] > 0, table, region)
        self.base = floor
        keep = [
            (self._canvas(s.to_table(0, 0))[0], self._canvas(s.to_table(0, 0))[1], 300 * self.ppm)
            for s in self.geometry.seats
        ]
        centre = self._canvas(np.array([self.geometry.width / 2, self.geometry.height / 2]))
        keep.append((centre[0], centre[1], 0.3 * self.geometry.width * self.ppm))
        if self.style.clutter:
            textures.draw_clutter(self.base, rng, self.ppm, keep)
        if self.markers:
            self._draw_markers()
        self.camera = self._make_camera(rng)
        light = textures.lighting(self.style.size[1], self.style.size[0], rng)
        self.glare = (
            cv2.cvtColor(textures.glare(self.style.size[1], self.style.size[0], rng), cv2.COLOR_GRAY2BGR)
            if self.style.glare
            else None
        )
        self.light = np.clip(light * 160, 0, 255).astype(np.uint8)  # cv2.multiply(frame, light, scale=1/160)
        self.floor_colour = tuple(
            float(v) for v in self.base[: self.margin // 2, : self.margin // 2].reshape(-1, 3).mean(axis=0)
        )
        self.rng = rng
        self.cells = self.geometry.foundation_cells()
        self.skin = {p: SKIN[i % len(SKIN)] for i, p in enumerate(self.players)}
        self.sleeve = {p: SLEEVE[(i * 2 + self.seed) % len(SLEEVE)] for i, p in enumerate(self.players)}
        self._jitter: dict[tuple[str, int], tuple[float, float, float]] = {}
        self._lscale = min(1.0, self.ppm)  # label buffer: at most 1 px per mm
        self._loff = self.margin / self.ppm * self._lscale
        self._label_shape = (
            round(self.base.shape[0] / self.ppm * self._lscale),
            round(self.base.shape[1] / self.ppm * self._lscale),
        )
        self._static_key: tuple[object, ...] | None = None
        self._aside: dict[
            tuple[int, int], tuple[float, float] | None
        ] = {}  # (seat, line size) -> ``TableGeometry.aside``
        self._cell_of: dict[str, int] = {}  # foundation pile -> its place in the middle (``cells``), see ``render``
        self._static_layer: tuple[np.ndarray, np.ndarray, list[Placed], list[np.ndarray]] | None = None

    # --- geometry ---------------------------------------------------------------------------------

    def _canvas(self, mm: np.ndarray) -> np.ndarray:
        return np.asarray(mm, np.float64) * self.ppm + self.margin

    def marker_positions(self) -> list[tuple[float, float]]:
        """Table-mm centres of the ArUco markers 0-3, clockwise from the top-left corner."""
        g, inset = self.geometry, MARKER_MM * 0.9
        if g.round:
            r = g.width / 2 * 0.93
            return [(g.width / 2 + r * math.cos(a), g.height / 2 + r * math.sin(a)) for a in (-2.36, -0.79, 0.79, 2.36)]
        return [
            (inset, inset),
            (g.width - inset, inset),
            (g.width - inset, g.height - inset),
            (inset, g.height - inset),
        ]

    def _draw_markers(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(ARUCO_DICT)
        side = round(MARKER_MM * self.ppm)
        for marker_id, (mx, my) in enumerate(self.marker_positions()):
            img = cv2.aruco.generateImageMarker(dictionary, marker_id, side)
            quiet = round(side * 0.2)
            img = cv2.copyMakeBorder(img, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
            x, y = (self._canvas(np.array([mx, my])) - img.shape[0] / 2).round().astype(int)
            self.base[y : y + img.shape[0], x : x + img.shape[1]] = img[..., None]

    def _make_camera(self, rng: np.random.Generator) -> Camera:
        h, w = self.base.shape[:2]
        fw, fh = self.style.size
        tm = self.margin
        table = np.array([[tm, tm], [w - tm, tm], [w - tm, h - tm], [tm, h - tm]], np.float64)
        tw, th = w - 2 * tm, h - 2 * tm
        scale = min(fw / tw, fh / th) * self.style.fill
        quad = (table - [w / 2, h / 2]) * scale
        yaw = math.radians(self.style.yaw)
        rot = np.array([[math.cos(yaw), -math.sin(yaw)], [math.sin(yaw), math.cos(yaw)]])
        quad = quad @ rot.T
        # Tilt: the side away from the camera looks shorter.
        side = int(rng.integers(4))
        a, b = side, (side + 1) % 4
        mid = (quad[a] + quad[b]) / 2
        quad[a] = mid + (quad[a] - mid) * (1 - self.style.tilt)
        quad[b] = mid + (quad[b] - mid) * (1 - self.style.tilt)
        if self.style.fill <= 1:  # a camera set up to see the whole table: it all fits in the frame
            span = quad.max(axis=0) - quad.min(axis=0)
            quad *= min(1.0, self.style.fill * min(fw / span[0], fh / span[1]))
            quad -= (quad.max(axis=0) + quad.min(axis=0)) / 2
        quad += [fw / 2, fh / 2]
        if self.style.fill > 1:  # a close camera sees part of the table: any part
            slack = (self.style.fill - 1) / self.style.fill
            quad += [rng.uniform(-0.5, 0.5) * slack * fw * 1.2, rng.uniform(-0.5, 0.5) * slack * fh * 1.2]
        H = cv2.getPerspectiveTransform(table.astype(np.float32), quad.astype(np.float32)).astype(np.float64)
        return Camera(H, (fw, fh), self.style.k1)

    # --- laying out the table --------------------------------------------------------------------

    def _image(self, player: str, card: Card | None) -> np.ndarray:
        key = (player, "back" if card is None else str(card))
        img = self._cache.get(key)
        if img is None:
            img = self.backs(player) if card is None else self.faces(player, card)
            self._cache[key] = img
        return img

    def _noise(self, key: tuple[str, int], spread_mm: float, spread_deg: float) -> tuple[float, float, float]:
        """A stable small displacement for a card (it does not jump between frames)."""
        if key not in self._jitter:
            r = np.random.default_rng([zlib.crc32(repr(key).encode()), self.seed])  # stable across processes
            self._jitter[key] = (
                float(r.normal(0, spread_mm)),
                float(r.normal(0, spread_mm)),
                float(r.normal(0, spread_deg)),
            )
        return self._jitter[key]

    def _place(self, seat: Seat, lx: float, ly: float, image: np.ndarray, card: str, owner: str | None, zone: str,
               *, jitter_key: tuple[str, int] | None = None, spread: tuple[float, float] = (1.5, 2.0), label: bool = True,
               angle: float | None = None) -> Placed:  # fmt: skip
        dx = dy = da = 0.0
        if jitter_key is not None:
            dx, dy, da = self._noise(jitter_key, *spread)
        theta = (seat.angle if angle is None else angle) + math.radians(da)
        right = np.array([math.sin(theta), -math.cos(theta)])
        down = np.array([math.cos(theta), math.sin(theta)])
        return Placed(image, seat.to_table(lx + dx, ly + dy), right, down, card, owner, zone, label)

    def scatter(self, rng: np.random.Generator, groups: int, *, anywhere: bool = False) -> list[Placed]:
        """Lays ``groups`` groups of loose cards on the table (drawn over the game, zone ``loose``): overlapping
        pairs, fans, rows and spread hands, of faces and backs from the players' decks, in the middle of the table
        (``anywhere``: all over it). Cards lie like this whenever people play: a hand put down, a pack fanned, two
        cards dropped one over the other; the detector must box each card of such a group on its own."""
        g = self.geometry
        middle = np.array([g.width / 2, g.height / 2])
        reach = np.array([g.width, g.height]) * (0.42 if anywhere else 0.22)
        w, h = CARD_W_MM, CARD_H_MM
        for _ in range(groups):
            pid = self.players[int(rng.integers(len(self.players)))]
            centre = middle + rng.uniform(-1, 1, 2) * reach
            theta = float(rng.uniform(0, 2 * math.pi))
            kind = str(rng.choice(["pair", "fan", "row", "spread"], p=[0.4, 0.25, 0.15, 0.2]))
            n = {  # all three counts are drawn whatever the kind (detect-v5 was built so)
                "pair": 2,
                "fan": int(rng.integers(3, 9)),
                "row": int(rng.integers(3, 6)),
                "spread": int(rng.integers(3, 7)),
            }[kind]
            backs = kind == "fan" and rng.random() < 0.6
            cards: list[Card | None] = [STANDARD_52[int(k)] for k in rng.permutation(len(STANDARD_52))[:n]]
            if kind == "pair" and rng.random() < 0.2:
                cards[0] = None  # a face dropped on a back
            base_right = np.array([math.cos(theta), math.sin(theta)])
            base_down = np.array([-math.sin(theta), math.cos(theta)])
            poses: list[tuple[np.ndarray, float]] = []  # (offset along base_right and base_down, turn in degrees)
            if kind == "pair":
                shift = np.array([rng.choice([-1, 1]) * rng.uniform(0.15, 0.6) * w, rng.uniform(-0.4, 0.4) * h])
                poses = [(np.zeros(2), 0.0), (shift, float(rng.normal(0, 10)))]
            elif kind == "fan":
                step = float(rng.uniform(6, 15))
                for k in range(n):
                    a = math.radians((k - (n - 1) / 2) * step)
                    poses.append((np.array([math.sin(a), 1 - math.cos(a)]) * h * 0.42, math.degrees(a)))
            elif kind == "row":
                gap = float(rng.uniform(1.05, 1.5)) * w
                poses = [
                    (np.array([(k - (n - 1) / 2) * gap, rng.normal(0, 2)]), float(rng.normal(0, 3))) for k in range(n)
                ]
            else:
                step = float(rng.uniform(0.12, 0.28)) * w
                poses = [
                    (np.array([(k - (n - 1) / 2) * step, rng.normal(0, 1.5)]), float(rng.normal(0, 2)))
                    for k in range(n)
                ]
            for card, (offset, turn) in zip(cards, poses, strict=True):
                face = None if backs else card
                a = theta + math.radians(turn)
                right = np.array([math.cos(a), math.sin(a)])
                down = np.array([-math.sin(a), math.cos(a)])
                where = centre + offset[0] * base_right + offset[1] * base_down
                label = "back" if face is None else str(face)
                self.loose.append(Placed(self._image(pid, face), where, right, down, label, pid, "loose"))
        return self.loose  # (the static layer's key counts the loose cards: it is drawn again)

    def layout(self, state: RoundState, carried: Sequence[Motion] = ()) -> list[Placed]:
        """Every card to draw, bottom to top, from the referee's view of the table, then any loose cards."""
        if not self.game:
            return list(self.loose)
        placed: list[Placed] = []
        lifted = {(m.player, m.source, str(m.card)) for m in carried}
        # A card that will go back (an illegal play, a lost conflict) leaves its demon unturned meanwhile.
        going_back = {(m.player, m.source, str(m.card)) for m in carried if not m.landed}
        pitch = self.geometry.pitch
        kings: dict[str, int] = {}
        for pid, seat in zip(self.players, self.geometry.seats, strict=False):
            p = state.players.get(pid)
            if p is None or p.table is None:
                continue
            t = p.table
            back = self._image(pid, None)
            x0 = self.row[0]
            # Demon: a squared stack with visible thickness, the top card face up.
            demon = list(t.demon)
            unturned = bool(demon) and (pid, "demon", str(demon[-1])) in going_back
            if demon and (pid, "demon", str(demon[-1])) in lifted:
                demon = demon[:-1]
            if unturned and demon:
                placed.append(self._place(seat, x0, 0, back, "back", pid, "demon", jitter_key=(pid, 1000)))
                demon = []
            if len(demon) > 1:
                # The face-down cards below show as the stack's thickness: one back, offset by its height.
                off = min(len(demon) - 1, 14) * 0.25
                placed.append(
                    self._place(seat, x0 + off, off, back, "back", pid, "demon", label=False, jitter_key=(pid, 1000))
                )
            if demon:
                placed.append(
                    self._place(
                        seat, x0, 0, self._image(pid, demon[-1]), str(demon[-1]), pid, "demon", jitter_key=(pid, 1000)
                    )
                )
            # The line: ladders overlapping towards the player, each covered card showing its index strip.
            for li, ladder in enumerate(t.line):
                cards = list(ladder)
                if cards and (pid, f"line:{li + 1}", str(cards[-1])) in lifted:
                    cards = cards[:-1]
                for j, c in enumerate(cards):
                    placed.append(self._place(seat, self.row[li + 1], j * LADDER_STEP_MM, self._image(pid, c), str(c), pid,
                                              f"line:{li + 1}", jitter_key=(pid, 2000 + li * 60 + j)))  # fmt: skip
            # Waste: squared, the last three fanned.
            waste = list(t.waste)
            if waste and (pid, "waste", str(waste[-1])) in lifted:
                waste = waste[:-1]
            wx = self.row[-2]
            fan_from = max(0, len(waste) - 3)
            for k, c in enumerate(waste):
                off = max(0, k - fan_from) * 12.0
                placed.append(
                    self._place(seat, wx + off, 0, self._image(pid, c), str(c), pid, "waste", jitter_key=(pid, 5000))
                )
            # Stock on the table beside the waste, face down.
            if t.stock:
                sx = wx + pitch * 1.45
                if len(t.stock) > 1:
                    off = min(len(t.stock), 30) * 0.12
                    placed.append(
                        self._place(
                            seat, sx + off, off, back, "back", pid, "stock", label=False, jitter_key=(pid, 6000)
                        )
                    )
                placed.append(self._place(seat, sx, 0, back, "back", pid, "stock", jitter_key=(pid, 6000)))
        # Foundations in the middle; completed ones set aside by the player who played the King.
        cells = self.cells
        # Completed piles in the order they were completed: the latest lies on top of its player's stack.
        piles = sorted(
            enumerate(state.foundations.items()),
            key=lambda kp: (kp[1][1].complete, kp[1][1].times[-1] if kp[1][1].complete else 0),
        )
        for k, (pile_id, pile) in piles:
            if pile.complete and pile.king_by in self.players:
                king_seat = self.geometry.seats[self.players.index(pile.king_by)]
                n = kings.get(pile.king_by, 0)
                kings[pile.king_by] = n + 1
                key = (self.players.index(pile.king_by), self.line_size)
                if key not in self._aside:  # the same every frame
                    self._aside[key] = self.geometry.aside(*key)
                aside = self._aside[key]
                if aside is None:  # no room on the table: off it, on the player's lap
                    continue
                lx, ly = aside[0] + n * ASIDE_STEP[0], aside[1] + n * ASIDE_STEP[1]
                for j, (c, owner) in enumerate(zip(pile.physical, pile.owners, strict=True)):
                    img = self._image(owner or pile.king_by, c)
                    placed.append(self._place(king_seat, lx, ly, img, str(c), owner, f"kings:{pile_id}", label=j == len(pile.physical) - 1,
                                              jitter_key=(f"k{pile_id}", j), spread=(0.6, 1.0)))  # fmt: skip
                continue
            k = self._cell_of.get(pile_id, k)
            cell = cells[k % len(cells)] + (k // len(cells)) * np.array([18.0, 14.0])
            for j, (c, owner) in enumerate(zip(pile.physical, pile.owners, strict=True)):
                seat = (
                    self.geometry.seats[self.players.index(owner)] if owner in self.players else self.geometry.seats[0]
                )
                centre_seat = Seat(float(cell[0]), float(cell[1]), seat.angle)
                img = self._image(owner or self.players[0], c)
                placed.append(self._place(centre_seat, 0, 0, img, str(c), owner, f"foundation:{pile_id}",
                                          jitter_key=(f"f{pile_id}", j), spread=(3.0, 7.0)))  # fmt: skip
        return placed + self.loose

    def carried(self, state: RoundState, motions: Sequence[Motion], t: float) -> list[tuple[Placed, Seat, Motion]]:
        """The cards in hands at time ``t``, on their way from source to destination (or lying on a pile, ``resting``),
        each with its motion."""
        out = []
        for m in motions:
            if not (m.t0 <= t < m.t1) or m.player not in self.players or not self.hands:
                continue
            seat = self.geometry.seats[self.players.index(m.player)]
            start = self._slot(seat, m.source)
            if m.dest.startswith("foundation:"):
                pile_id = m.dest.split(":", 1)[1]
                k = self._cell_of.get(pile_id, len(self._cell_of))
                end = self.cells[k % len(self.cells)]
            else:
                end = self._slot(seat, m.dest)
            u = 1.0 if m.resting else (t - m.t0) / max(1e-6, m.t1 - m.t0)
            u = 1.0 - u if m.back else u  # an illegal card carried back from the pile it lay on
            u = u * u * (3 - 2 * u)  # ease in and out
            pos = start + (end - start) * u
            theta = seat.angle + math.radians(25 * math.sin(math.pi * u))
            if m.resting:  # lying on the pile, a little askew, no hand over it
                theta += math.radians(8)
                pos = pos + np.array([6.0, 4.0])
            right = np.array([math.sin(theta), -math.cos(theta)])
            down = np.array([math.cos(theta), math.sin(theta)])
            lift = 40 * math.sin(math.pi * u)
            zone = m.dest if m.resting else "hand"
            placed = Placed(self._image(m.player, m.card), pos, right, down, str(m.card), m.player, zone, True, lift)
            out.append((placed, seat, m))
        return out

    def _slot(self, seat: Seat, where: str) -> np.ndarray:
        if where == "demon":
            return seat.to_table(self.row[0], 0)
        if where == "waste":
            return seat.to_table(self.row[-2] + 24, 0)
        if where.startswith("line:"):
            return seat.to_table(self.row[int(where[5:])], 30)
        return seat.to_table(0, 0)

    # --- drawing ----------------------------------------------------------------------------------

    def _blit(self, canvas: np.ndarray, p: Placed, shadow: float) -> None:
        img = p.image
        ih, iw = img.shape[:2]
        s = CARD_W_MM / iw  # mm per card image pixel
        centre = self._canvas(p.centre)
        ax, ay = p.right * s * self.ppm, p.down * s * self.ppm
        corners = self._canvas(p.corners())
        x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
        if p.lifted > 0:
            off = p.lifted * 0.25 * self.ppm
            x1, y1 = x1 + round(off) + 2, y1 + round(off) + 2
        H, W = canvas.shape[:2]
        cx0, cy0, cx1, cy1 = max(x0, 0), max(y0, 0), min(x1, W), min(y1, H)
        if cx1 <= cx0 or cy1 <= cy0:
            return
        origin = centre - ax * iw / 2 - ay * ih / 2 - [cx0, cy0]
        M = np.array([[ax[0], ay[0], origin[0]], [ax[1], ay[1], origin[1]]])
        warped = cv2.warpAffine(img, M, (cx1 - cx0, cy1 - cy0), flags=cv2.INTER_AREA if self.ppm * s < 1 else cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))  # fmt: skip
        alpha = warped[..., 3:].astype(np.float32) / 255.0
        roi = canvas[cy0:cy1, cx0:cx1].astype(np.float32)
        if shadow > 0:
            off = max(1, round((1.5 + p.lifted * 0.25) * self.ppm))
            sh = np.zeros_like(alpha)
            sh[off:, off:] = alpha[:-off, :-off]
            sh = cv2.GaussianBlur(sh, (0, 0), max(0.8, off * 0.8))[..., None] if sh.shape[0] > 2 else sh
            roi *= 1 - shadow * sh.reshape(roi.shape[0], roi.shape[1], 1)
        roi = roi * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
        canvas[cy0:cy1, cx0:cx1] = roi.astype(np.uint8)

    def _hand(
        self, canvas: np.ndarray, labels: np.ndarray, lscale: float, loff: float, p: Placed, seat: Seat, player: str
    ) -> None:
        """A hand holding ``p`` and its sleeve back to the player's edge of the table."""
        grip = p.centre + p.down * CARD_H_MM * 0.28 + seat.out * 18
        edge = np.array([seat.x, seat.y]) + seat.out * 420
        palm_axes = (CARD_W_MM * 0.5, CARD_W_MM * 0.38)
        ang = math.degrees(math.atan2(seat.out[1], seat.out[0]))
        for target, scale, off in ((canvas, self.ppm, self.margin), (labels, lscale, loff)):
            line = cv2.LINE_AA if target is canvas else cv2.LINE_8  # labels must stay exact integers
            colour_s = self.sleeve[player] if target is canvas else 0
            colour_h = self.skin[player] if target is canvas else 0
            thumb = grip - seat.right * 30 - seat.out * 22
            g, t, e, s0 = (
                tuple(np.round(np.asarray(q) * scale + off).astype(int))
                for q in (grip, thumb, edge, grip + seat.out * 40)
            )
            cv2.line(target, s0, e, colour_s, max(1, round(52 * scale)), line)
            cv2.ellipse(
                target, g, (round(palm_axes[0] * scale), round(palm_axes[1] * scale)), ang, 0, 360, colour_h, -1, line
            )
            cv2.ellipse(target, t, (round(20 * scale), round(9 * scale)), ang + 60, 0, 360, colour_h, -1, line)

    def _static(
        self, state: RoundState, active: Sequence[Motion]
    ) -> tuple[np.ndarray, np.ndarray, list[Placed], list[np.ndarray], list[CardTruth | None]]:
        """The table with every card lying still, and its truth (cached until the state or the cards in hand change)."""
        key = (
            id(state),
            state.applied,
            tuple(sorted((m.player, m.source, str(m.card)) for m in active)),
            tuple(self._cell_of.items()),
            self.game,
            len(self.loose),
        )
        if self._static_key == key and self._static_layer is not None:
            return self._static_layer
        placed = self.layout(state, active)
        canvas = self.base.copy()
        labels = np.zeros(self._label_shape, np.int32)
        polys = []
        for i, p in enumerate(placed, start=1):
            self._blit(canvas, p, 0.35)
            poly = np.round(p.corners() * self._lscale + self._loff).astype(np.int32)
            cv2.fillConvexPoly(labels, poly, i)
            polys.append(poly)
        counts = np.bincount(labels.ravel(), minlength=len(placed) + 1)
        truths = [
            self._truth(i, p, poly, labels, counts)
            for i, (p, poly) in enumerate(zip(placed, polys, strict=True), start=1)
        ]
        self._static_key, self._static_layer = key, (canvas, labels, placed, polys, truths)
        return self._static_layer

    def render(
        self, state: RoundState, motions: Sequence[Motion] = (), t: float = 0.0
    ) -> tuple[np.ndarray, list[CardTruth]]:
        """One camera frame (BGR) of the table at time ``t`` and the truth for every labelled card."""
        active = [m for m in motions if m.t0 <= t < m.t1] if self.hands else []
        self._cell_of = _cells_taken(state, motions if self.hands else (), t)
        carried = self.carried(state, active, t)
        canvas, labels, placed, polys, truths = self._static(state, active)
        if carried:
            canvas, labels, truths = canvas.copy(), labels.copy(), list(truths)
            touched = []
            for j, (p, seat, m) in enumerate(carried, start=len(placed) + 1):
                self._blit(canvas, p, 0.45)
                poly = np.round(p.corners() * self._lscale + self._loff).astype(np.int32)
                cv2.fillConvexPoly(labels, poly, j)
                if m.resting:  # an illegal card lying on its pile lies under the pile's cards that landed after it
                    for i in self._landed_on(state, placed, m.dest, m.t0):
                        self._blit(canvas, placed[i - 1], 0.35)
                        cv2.fillConvexPoly(labels, polys[i - 1], i)
                if p.zone == "hand":
                    self._hand(canvas, labels, self._lscale, self._loff, p, seat, p.owner or self.players[0])
                grip = np.round((p.centre + seat.out * 60) * self._lscale + self._loff)
                touched.append(np.vstack([poly, grip[None, :] - 60 * self._lscale, grip[None, :] + 60 * self._lscale]))
            counts = np.bincount(labels.ravel(), minlength=len(placed) + len(carried) + 1)
            # Only cards near a hand can have changed; the rest keep their static truth.
            for i, (p, poly) in enumerate(zip(placed, polys, strict=True), start=1):
                if truths[i - 1] is not None and any(_overlap(poly, box) for box in touched):
                    truths[i - 1] = self._truth(i, p, poly, labels, counts)
            for j, (p, _, _) in enumerate(carried, start=len(placed) + 1):
                poly = np.round(p.corners() * self._lscale + self._loff).astype(np.int32)
                truths.append(self._truth(j, p, poly, labels, counts))
        frame = self.camera.warp(canvas, self.floor_colour)
        frame = cv2.multiply(frame, self.light, scale=1 / 160.0)
        if self.glare is not None:
            frame = cv2.add(frame, self.glare)
        frame = textures.sensor(frame, self.rng, blur=self.style.blur, noise=self.style.noise, jpeg=self.style.jpeg)
        in_frame = (in_view(tr, self.style.size) for tr in truths if tr is not None)
        return frame, [tr for tr in in_frame if tr is not None]

    @staticmethod
    def _landed_on(state: RoundState, placed: Sequence[Placed], zone: str, since: float) -> list[int]:
        """The label values (1-based indices into ``placed``) of the cards of foundation ``zone`` that landed after
        ``since``: ``placed`` holds a foundation's cards bottom to top, as its pile holds them."""
        pile = state.foundations.get(zone.split(":", 1)[1])
        at = [i for i, q in enumerate(placed, start=1) if q.zone == zone]
        if pile is None or len(at) != len(pile.times):
            return []
        return [i for i, landed in zip(at, pile.times, strict=True) if landed > since]

    def _truth(self, i: int, p: Placed, poly: np.ndarray, labels: np.ndarray, counts: np.ndarray) -> CardTruth | None:
        """The truth of card ``i`` (its label value) given the label buffer; None when unlabelled or hidden."""
        if not p.label:
            return None
        area = max(1.0, cv2.contourArea(poly.astype(np.float32)))
        visible = min(1.0, counts[i] / area)
        if visible <= 0.0:
            return None
        index_quads: list[tuple[tuple[float, float], ...]] = []
        if p.card != "back":
            corners = p.corners()
            for corner, sign in ((0, 1), (2, -1)):  # top-left and (turned) bottom-right index
                c = corners[corner]
                iw, ih = INDEX_MM
                box = np.array(
                    [c, c + sign * p.right * iw, c + sign * (p.right * iw + p.down * ih), c + sign * p.down * ih]
                )
                bpoly = np.round(box * self._lscale + self._loff).astype(np.int32)
                x0, y0 = np.maximum(bpoly.min(axis=0), 0)
                x1, y1 = bpoly.max(axis=0) + 1
                if x1 <= x0 or y1 <= y0:
                    continue
                mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
                cv2.fillConvexPoly(mask, bpoly - [x0, y0], 1)
                roi = labels[y0:y1, x0:x1]
                m = mask[: roi.shape[0], : roi.shape[1]].astype(bool)
                if m.sum() and (roi[m] == i).mean() >= 0.85:
                    projected = self.camera.project(self._canvas(box))
                    index_quads.append(tuple((float(x), float(y)) for x, y in projected))
        quad = self.camera.project(self._canvas(p.corners()))
        return CardTruth(
            p.card,
            p.owner,
            tuple((float(x), float(y)) for x, y in quad),
            visible,
            bool(index_quads),
            p.zone,
            tuple(index_quads),
        )


def _cells_taken(state: RoundState, motions: Sequence[Motion], t: float) -> dict[str, int]:
    """Each foundation pile's place in the middle, in the order the piles came: a pile when its first card landed,
    a card the rules refuse put down as a pile of its own (``Motion.landed`` False) when it was picked up. A refused
    card lies where it was put till it is taken back, and the next pile started meanwhile goes beside it (it used to
    take that place and push the refused card on to the next one)."""
    came: dict[str, tuple[float, int]] = {
        pid: (pile.times[0] if pile.times else -math.inf, k) for k, (pid, pile) in enumerate(state.foundations.items())
    }
    for m in motions:
        pid = m.dest.split(":", 1)[1] if m.dest.startswith("foundation:") else None
        if pid is not None and not m.landed and m.t0 <= t and pid not in state.foundations:
            came[pid] = min(came.get(pid, (m.t0, len(came))), (m.t0, len(came)))
    return {pid: k for k, pid in enumerate(sorted(came, key=came.__getitem__))}


def in_view(truth: CardTruth, size: tuple[int, int]) -> CardTruth | None:
    """``truth`` as the camera sees it: the visible fraction shrunk by the part of the card outside the frame, and
    an index counted only when its whole corner lies inside; None when the card is out of view."""
    w, h = size
    quad = np.array(truth.quad, np.float32)
    if quad[:, 0].min() >= 0 and quad[:, 1].min() >= 0 and quad[:, 0].max() <= w and quad[:, 1].max() <= h:
        return truth
    frame = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    area = abs(cv2.contourArea(quad))
    inside, _ = cv2.intersectConvexConvex(quad, frame) if area > 0 else (0.0, None)
    share = float(inside) / area if area > 0 else 0.0
    if share <= 0.0:
        return None
    indices = tuple(q for q in truth.index_quads if all(0 <= x <= w and 0 <= y <= h for x, y in q))
    return replace(truth, visible=truth.visible * min(1.0, share), index_visible=bool(indices), index_quads=indices)


def _overlap(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether the bounding boxes of two point sets overlap."""
    ax0, ay0 = a.min(axis=0)
    ax1, ay1 = a.max(axis=0)
    bx0, by0 = b.min(axis=0)
    bx1, by1 = b.max(axis=0)
    return bool(ax0 <= bx1 and bx0 <= ax1 and ay0 <= by1 and by0 <= ay1)
