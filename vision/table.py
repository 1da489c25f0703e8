"""From cards seen in a frame to a ``TableView``: which player's area each card lies in, which slot (demon, line
pile, waste) it occupies, and which foundation pile it belongs to.

Everything here works in table millimetres (``Calibration.to_table``), so a tilted camera and a round table
look the same. Seats are found once, from the dealt table at round start (``find_seats``); foundation piles
keep their ids while they are nudged, and a completed pile carried off keeps its id when its King shows up
elsewhere.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from referee.cards import KING, QUEEN, Card, can_ladder
from referee.tableview import PileView, PlayerView, TableView
from vision.arms import Arms
from vision.calibrate import CARD_MM, Calibration, Seat
from vision.synth.faces import BACK_COLOURS

LADDER_REACH_MM = 14 * 21.0  # how far a ladder can grow towards its player
# A demon is one pile, never laddered: a face lying further towards its player than this from the row, nearest the
# demon's place, lies on the ladder of the line place beside it, drawn aslant (r-s161/game02, oracle: p4's 6S on the
# 7H of line:1, 68 mm down its ladder and 24 degrees off the seat's own down, lay nearer the demon's place than line:1's
# and was taken for the demon's top for six seconds).
DEMON_DROP_MM = 0.5 * CARD_MM[1]
PILE_RADIUS_MM = 0.6 * CARD_MM[1]  # cards closer than this to a pile's centre belong to that pile
# In the middle, faces closer than this to a surer reading show the same place: the detector, keeping every card of a
# ladder (models.WATCHING), also keeps a loose box on a foundation, and a pile's top is its highest card read.
PLACE_MM = 0.5 * CARD_MM[0]
SECOND_KING_SECONDS = 3.0  # a second copy of a completing King lands this soon after the pile is carried off
# A pile built to its Queen (or its King seen on it a moment) gone from its place this long, with no arm over the place
# now, was completed and carried off, though its King was never seen lying in the middle: set aside in a player's area
# or off the table, or turned over.
CARRIED_SECONDS = 1.0
CARRIED_BUILT = 3  # ... a pile seen built to its Queen: this many of its lower cards seen as its top
COVER_MM = 30.0  # a card newly lying this close to where one vanished was put on it (it was not lifted)
ROW_GAP_MM = 2.5 * CARD_MM[0]  # slots of a dealt row lie closer together than this
MIN_READ = 0.3  # a foundation card read with less probability than this is taken as unread
LIFT_SECONDS = 2.0  # a card seen moving out of an area this recently is the same card seen again in flight
# A card in a hand read less surely than this left no area as that card: a card turning in a hand is read as
# one thing and another, and a second area "losing" the card that lands leaves its origin undecided.
LIFT_READ = 0.9
# A card put on another one (a waste dealt onto it, a ladder built on it) arrived from this far off: a card only
# revealed where another was lifted lies where it was first seen.
ARRIVED_MM = 20.0
# How far back the arms over a pile are looked at when its top changes: the hand that put the card down was over it
# in the frames just before (a pile hidden longer than this is asked about only its last stretch).
REACH_LOOKBACK_S = 1.0
REACH_KEEP_S = 3.0  # a pile's top showing again this soon after it last showed keeps who brought it
BURIED_SECONDS = 20.0  # a card covered in an area is reported buried there this long at most, unless seen again
# A stock names its seat for the whole round, so only a back the detector is sure of is taken for one: a patterned
# cloth read as a back now and then (s12/game00: a checker cloth, 0.35-0.39, in 3 of 5 frames) once stood in for a
# missed stock and gave its seat the cloth's colour, swapping two players' names. An unsure seat waits for backs
# seen in its area instead (the pipeline's late naming).
STOCK_CONF = 0.5
# A stock lies squared to its own row: its long side runs across the row, as its row's cards' do. At a many-sided
# table a neighbour's stock lies turned as the neighbour's row is (60 degrees at six seats), and can lie nearer the
# end of this row than this row's own stock does (e2e-s145/game00, six players, oracle: each row took the next
# seat's stock, 117 mm past its demon, over its own 198 mm past its last line card; every seat was named after its
# neighbour's back and laid out the wrong way round). Each degree a back is turned from its row's cards costs as
# much as this many mm further away.
STOCK_TILT_MM = 4.0


@dataclass(frozen=True, slots=True)
class Seen:
    """One card as the chain saw it in one frame."""

    quad: np.ndarray  # 4×2 image pixels
    card: str | None  # "QS"; None for a back or an unread face
    back: bool
    conf: float
    candidates: tuple[tuple[str, float], ...] = ()
    track: int = -1
    static: bool = True  # has not moved lately (a card in a hand is not static)
    colour: tuple[float, float, float] | None = None  # a back's mean colour (BGR)

    def centre(self) -> np.ndarray:
        return np.asarray(self.quad, np.float64).mean(axis=0)


def colour_name(bgr: Sequence[float]) -> str:
    """The nearest named back colour."""
    return min(BACK_COLOURS, key=lambda n: colour_cost(bgr, n))


# A back printed as a fine pattern of one ink on white paper is, at a camera's few pixels a card, the ink blended
# with the paper: a red lattice measures pale pink. A coloured ink explains a measurement as that blend, down to
# this share of ink, on paper of these lightnesses (Lab L).
INK_SHARE = np.linspace(0.2, 1.0, 17)[:, None, None]
PAPER = np.stack(np.broadcast_arrays(np.linspace(55.0, 100.0, 10), 0.0, 0.0), axis=1)[None]  # Lab, a and b 0
CHROMATIC = 20.0  # a named colour this far from grey (Lab chroma) is an ink; black and grey are matched as they are
_LAB_WEIGHT = np.array([0.4, 1.0, 1.0])  # lightness down-weighted: room light changes it more than the hue


def colour_cost(bgr: Sequence[float], name: str) -> float:
    """How far a measured back colour is from a named one (Lab, lightness down-weighted); a coloured ink's cost is
    that of its nearest blend with white paper (a fine pattern, a few pixels a card)."""
    seen, ink = _lab(bgr), _named_lab(name)
    if math.hypot(ink[1], ink[2]) < CHROMATIC:
        return float(np.linalg.norm((seen - ink) * _LAB_WEIGHT))
    blends = INK_SHARE * ink + (1 - INK_SHARE) * PAPER
    return float(np.linalg.norm((blends - seen) * _LAB_WEIGHT, axis=2).min())


def alike_backs(colours: Iterable[str | None]) -> list[str]:
    """The named back colours among ``colours`` that no measured colour tells apart: two or more with no hue (black,
    grey). A coloured ink keeps its hue blended with the paper; a dark one does not: a fine black pattern on white
    reads, a few pixels a card, as grey (e2e-s154/game00, eight players, oracle: p4's black lattice measured
    (150, 145, 144), lighter than p8's plain grey back at (137, 132, 133), and the two seats were swapped)."""
    plain = [c for c in dict.fromkeys(colours) if c in BACK_COLOURS and math.hypot(*_named_lab(c)[1:]) < CHROMATIC]
    return plain if len(plain) >= 2 else []


@cache
def _named_lab(name: str) -> np.ndarray:
    """The Lab of a named back colour, converted once (every measured back is costed against every name)."""
    return _lab(BACK_COLOURS[name])


def _lab(bgr: Sequence[float]) -> np.ndarray:
    """CIE Lab of a BGR colour (0-255)."""
    px = np.clip(np.array([[bgr]], np.float32) / 255.0, 0, 1)
    return cv2.cvtColor(px, cv2.COLOR_BGR2Lab).reshape(3).astype(np.float64)


def back_colour(image: np.ndarray, quad: np.ndarray) -> tuple[float, float, float]:
    """A back's colour: the median of its inked pixels (the white border and highlights left out)."""
    from vision.detections import card_corners
    from vision.synth.dataset import rectify

    crop = rectify(image, card_corners(quad), (32, 44))[6:-6, 5:-5]
    hsv = cv2.cvtColor(crop, cv2.COLOR_BGR2HSV).reshape(-1, 3)
    px = crop.reshape(-1, 3)
    inked = px[(hsv[:, 1] > 50) | (hsv[:, 2] < 90)]
    if len(inked) < 10:
        inked = px
    med = np.median(inked, axis=0)
    return (float(med[0]), float(med[1]), float(med[2]))


def _angle_groups(angles: np.ndarray, groups: int) -> list[np.ndarray]:
    """Splits points around a circle into ``groups`` runs at the widest angular gaps; index arrays."""
    order = np.argsort(angles)
    a = angles[order]
    gaps = np.diff(np.concatenate([a, a[:1] + 2 * math.pi]))
    cuts = np.sort(np.argsort(gaps)[::-1][:groups])
    runs = []
    for k in range(len(cuts)):
        start, end = cuts[k] + 1, cuts[(k + 1) % len(cuts)] + 1
        idx = list(range(start, end)) if end > start else list(range(start, len(a))) + list(range(0, end))
        if len(cuts) == 1:
            idx = list(range(start, len(a))) + list(range(0, start))
        runs.append(order[np.array(idx, int) % len(a)])
    return runs


def _along_row(xy: np.ndarray, run: np.ndarray) -> np.ndarray:
    """The points of ``run`` that lie along its row. The row is the line through two of them with the most others
    within half a card's width of it (fitted again through those); points more than half a card's length off it
    are dropped. A stray reading grouped with a row turns its direction, which every slot of the seat hangs on
    (e2e-s31/game02, real models: a stock read as a 4D at the table's corner tilted its neighbour's row by 24
    degrees and moved its slots up to 72 mm; s13/game00: a weak reading beyond the table's corner did the same)."""
    if len(run) < 3:
        return run
    pts = xy[run]

    def off(p: np.ndarray, along: np.ndarray) -> np.ndarray:
        return np.abs((pts - p) @ np.array([along[1], -along[0]]) / max(1e-9, float(np.linalg.norm(along))))

    best = max(
        ((off(pts[i], pts[j] - pts[i]) <= CARD_MM[0] / 2) for i in range(len(pts)) for j in range(i + 1, len(pts))),
        key=lambda near: int(near.sum()),
    )
    mid = pts[best].mean(axis=0)
    _, _, vt = np.linalg.svd(pts[best] - mid)
    return run[off(mid, vt[0]) <= CARD_MM[1] / 2]


def _whole_row(xy: np.ndarray, need: int) -> np.ndarray:
    """Which of the faces ``xy`` (table mm), found beyond the marked table, make a player's whole row: at least
    ``need`` in line, a card's length across at most, spread a row's length along it (``need`` - 1 card widths) with no
    gap wider than two cards. A stray object beside the table is a card or two, and cards in a hand or a heap lie
    together, not in a row (e2e-s87/game01, real models: five faces of a heap past the table's corner, taken for a
    row, lengthened p1's). Markers laid inside the table's edge can leave a whole row beyond them (e2e-s120/game00,
    oracle: p2's row lay 100-120 mm past the marked edge, and the seat finder split p3's row in two to make four)."""
    best = np.zeros(len(xy), bool)
    for i, j in itertools.combinations(range(len(xy)), 2):
        along = xy[j] - xy[i]
        if (norm := float(np.linalg.norm(along))) < 1e-6:
            continue
        along /= norm
        d = xy - xy[i]
        near = np.abs(d @ np.array([along[1], -along[0]])) <= CARD_MM[1] / 2
        if near.sum() <= best.sum() or near.sum() < need:
            continue
        lx = np.sort(d[near] @ along)
        if lx[-1] - lx[0] >= (need - 1) * CARD_MM[0] and float(np.diff(lx).max()) <= 2 * CARD_MM[0]:
            best = near
    return best


def find_seats(
    calibration: Calibration,
    seen: Sequence[Seen],
    *,
    line_size: int,
    players: Sequence[tuple[str, str | None]] | None = None,
    centre: tuple[float, float] | None = None,
) -> list[Seat]:
    """The players' seats from the dealt table: each player's face-up demon top and line lie in a row at the
    table's edge, their stock (backs) beside it. ``players``: (id, back colour name) when known. Players are
    split at the widest angular gaps around the middle of the cards dealt (``centre``, when not given)."""
    # Only what lies on the table: a score pad or a phone beside it that the detector takes for a card would
    # otherwise stretch a player's row out to it.
    all_xy = calibration.to_table(np.array([s.centre() for s in seen])) if seen else np.zeros((0, 2))
    on = calibration.on_table(all_xy)
    is_back = np.array([s.back for s in seen], bool)
    sure_back = is_back & (np.array([s.conf for s in seen]) >= STOCK_CONF)
    on &= ~is_back | sure_back
    off = np.flatnonzero(~on & ~is_back)
    on[off[_whole_row(all_xy[off], line_size + 1)]] = True
    faces = [s for s, keep, back in zip(seen, on, is_back, strict=True) if keep and not back]
    if not faces:
        raise ValueError("no face-up cards in view: deal the demons and lines before the round starts")
    xy, bxy = all_xy[on & ~is_back], all_xy[on & is_back]
    # A stock is any sure back, beyond the marked table too: it is taken only in line with a row's end, where nothing
    # stray lies. Round a round table the markers mark a square inside its edge, and a stock at the edge can lie
    # further beyond it than a card's length (e2e-s157/game02 at 1920x1080, eight players, oracle: p7's stock lay
    # 170 mm beyond the square; the seat got none, was named by its order and swapped with p8's).
    stocks = [s for s, sure in zip(seen, sure_back, strict=True) if sure]
    sxy = all_xy[sure_back]
    # Faces beyond the table's edge, for a row one short: its end card may overhang the edge further than a stray
    # object lies in line with a row (e2e-s83/game02: p2's demon 111 mm past the edge, the row tilted; its line's
    # first card was taken for the demon, and p2's real demon was never seen).
    beyond = [(p, s.conf) for s, p, keep in zip(seen, all_xy, on, strict=True) if not keep and not s.back]
    if centre is None:
        # The middle of the dealt cards, not of the marked table: markers need not sit evenly round the players
        # (e2e-s149/game01, six players, oracle: the marked rectangle's middle lay 77 mm to one side of the seats', and
        # the widest gaps round it split two rows between neighbours).
        allxy = np.vstack([xy, bxy]) if len(bxy) else xy
        centre = (float(allxy[:, 0].mean()), float(allxy[:, 1].mean()))
    c = np.asarray(centre)
    n = len(players) if players else max(1, round(len(faces) / (line_size + 1)))
    angles = np.arctan2(xy[:, 1] - c[1], xy[:, 0] - c[0])
    runs = _angle_groups(angles, n)
    rows = []
    for run in runs:
        run = _along_row(xy, run)
        pts = xy[run]
        mid = pts.mean(axis=0)
        down = mid - c
        if len(pts) >= 3:  # the row's own direction is better than the direction to the middle
            _, _, vt = np.linalg.svd(pts - mid)
            along = vt[0]
            normal = np.array([along[1], -along[0]])
            down = normal if normal @ (mid - c) > 0 else -normal
        down = down / max(1e-9, float(np.linalg.norm(down)))
        right = np.array([down[1], -down[0]])
        lx = (pts - mid) @ right
        conf = [faces[i].conf for i in run]
        slots = _row_run(_merge_slots(lx))
        if len(slots) == line_size:
            extra = [(float((p - mid) @ right), c) for p, c in beyond if abs(float((p - mid) @ down)) <= CARD_MM[1] / 2]
            if extra:
                lx = np.concatenate([lx, [x for x, _ in extra]])
                conf += [c for _, c in extra]
                slots = _row_run(_merge_slots(lx))
        rows.append((mid, down, right, _trim_row(slots, lx, conf, line_size)))
    stock = _stocks(rows, sxy, [long_side(calibration, s.quad) for s in stocks])
    seats: list[Seat] = []
    for k, (mid, down, right, slots) in enumerate(rows):
        j = stock.get(k)
        if j is not None:  # the stock lies beyond one end of the row: the demon is at the other end
            bx = float((sxy[j] - mid) @ right)
            demon_left = abs(bx - slots[0]) > abs(bx - slots[-1])
        else:
            demon_left = calibration.demon_side == "left"
        ordered = list(slots) if demon_left else list(slots[::-1])
        demon, line = float(ordered[0]), [float(v) for v in ordered[1 : 1 + line_size]]
        pitch = float(np.median(np.abs(np.diff(ordered)))) if len(ordered) > 1 else CARD_MM[0] * 1.2
        waste = (line[-1] if line else demon) + (pitch if demon_left else -pitch) * 1.15
        bgr = stocks[j].colour if j is not None else None
        stock_at = float((sxy[j] - mid) @ right) if j is not None else None
        seats.append(
            Seat(
                player=f"p{k + 1}",
                centre=(float(mid[0]), float(mid[1])),
                down=(float(down[0]), float(down[1])),
                demon=demon,
                line=tuple(line),
                waste=waste,
                back=colour_name(bgr) if bgr is not None else None,
                back_bgr=bgr,
                stock=stock_at,
            )
        )
    return name_seats(seats, players)


def _stocks(
    rows: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
    bxy: np.ndarray,
    long_sides: Sequence[np.ndarray],
) -> dict[int, int]:
    """Which back is each row's stock: one each, by an assignment on the distance from a back to the nearer
    end of a row along its own line (a neighbour's stock may lie as near to a row as its own) and how far the back
    is turned from the row's cards (``long_sides``: each back's long side on the table).

    Where a back taken for a stock could be another row's, lying at that row's other end and squarish to it (round
    the corner, at six seats or more), the rows share one handedness: each end is tried for every row, and the one
    that gives more rows a stock, then stocks less turned from their rows, is kept. Distance cannot choose: a
    neighbour's stock lies nearer a row's demon than the row's own lies past its waste (e2e-s148/game01, eight
    players, real models: p5's stock was missed, its row took p6's past its demon, turned 19 degrees by a near-square
    box, and three more rows followed, each laid out the wrong way round). A player laying out the other way round,
    whose stock could be no other row's, keeps their own end."""
    if not len(bxy) or not rows:
        return {}
    cost = np.full((len(rows), len(bxy)), 1e6)
    tilt, end = np.zeros(cost.shape), np.zeros(cost.shape, int)
    for k, (mid, down, right, slots) in enumerate(rows):
        for j, b in enumerate(bxy):
            lx = float((b - mid) @ right)
            tilt[k, j], end[k, j] = _tilt(long_sides[j], down), 1 if lx > slots[-1] else -1
            cost[k, j] = _stock_cost(lx, float((b - mid) @ down), slots[0], slots[-1], float(tilt[k, j]))
    stock = _assign(cost)
    # (a stock that could be another row's, at that row's other end, lying squarish to it)
    shared = any(
        cost[o, j] < 1e6 and end[o, j] != end[k, j] and tilt[o, j] < 45
        for k, j in stock.items()
        for o in range(len(rows))
        if o != k
    )
    if not shared:
        return stock
    tries = [_assign(np.where(end == e, cost, 1e6)) for e in (1, -1)]
    return min(tries, key=lambda s: (-len(s), float(np.mean([tilt[k, j] for k, j in s.items()])) if s else math.inf))


def _assign(cost: np.ndarray) -> dict[int, int]:
    """Row -> column of a least-cost assignment, each at most once; none where the cost is 1e6 (not there)."""
    import lap  # ultralytics' tracker needs it too

    _, x, _ = lap.lapjv(cost, extend_cost=True, cost_limit=1e5)
    return {k: int(j) for k, j in enumerate(x) if j >= 0 and cost[k, j] < 1e6}


def long_side(calibration: Calibration, quad: np.ndarray) -> np.ndarray:
    """The direction of a card's long side on the table (unit, table mm), from its quad in the image."""
    q = calibration.to_table(np.asarray(quad, np.float64))
    a, b = (q[1] - q[0] + q[2] - q[3]) / 2, (q[2] - q[1] + q[3] - q[0]) / 2
    side = a if np.linalg.norm(a) >= np.linalg.norm(b) else b
    return side / max(1e-9, float(np.linalg.norm(side)))


def _tilt(side: np.ndarray | None, down: np.ndarray | Sequence[float]) -> float:
    """Degrees (0-90) between a card's long ``side`` and a row's ``down``, along which its own cards' long sides
    run."""
    if side is None:
        return 0.0
    d = np.asarray(down, np.float64)
    cos = abs(float(side @ d)) / max(1e-9, float(np.linalg.norm(d)))
    return math.degrees(math.acos(min(1.0, cos)))


def _stock_cost(lx: float, ly: float, lo: float, hi: float, tilt: float) -> float:
    """How far a back at (``lx`` along a row, ``ly`` across it) lies from where that row's stock may be: in line
    with the row, half a card to six cards beyond either end (1e6: not there). A back lying on the row itself is
    the edge of its demon's face-down stack, not a stock (e2e-s32/game00: one read at 0.52 on p2's demon was taken
    for p2's stock over the real one three cards past the line, and the seat was laid out the wrong way round: its
    waste fell outside it and every card dealt there became a foundation). ``tilt``: degrees the back is turned from
    the row's cards (``STOCK_TILT_MM`` each)."""
    beyond = max(lo - lx, lx - hi, 0.0)
    if abs(ly) >= CARD_MM[1] or not 0.5 * CARD_MM[0] <= beyond < 6 * CARD_MM[0]:
        return 1e6
    return beyond + 2 * abs(ly) + STOCK_TILT_MM * tilt


def seat_of_back(seats: Sequence[Seat], xy: np.ndarray, side: np.ndarray | None = None) -> str | None:
    """The player whose stock a back at ``xy`` (table mm; ``side``: its long side's direction there, when known)
    may be: the seat whose row it lies in line with, nearest and least turned from it, on the stock's side of the
    demon (None: in line with no seat's row there). The stock lies beyond the end of the row away from the demon, so
    a back beyond the demon's end is no stock (s12/game00: a checkered cloth read as a back just past p2's demon, seen
    from the first frame, named p2's seat by the cloth's colour before p2's blue stock was seen at all)."""
    best, player = 1e6, None
    for seat in seats:
        lx, ly = (float(v) for v in seat.local(xy)[0])
        towards_waste = 1.0 if seat.waste > seat.demon else -1.0
        cost = _stock_cost(lx, ly, *seat.span, _tilt(side, seat.down))
        if (lx - seat.demon) * towards_waste > 0.5 * CARD_MM[0] and cost < best:
            best, player = cost, seat.player
    return player


def _merge_slots(lx: np.ndarray) -> np.ndarray:
    """Positions along the row, cards closer than half a card width taken as one slot."""
    out: list[list[float]] = []
    for v in np.sort(lx):
        if out and v - out[-1][-1] < CARD_MM[0] * 0.5:
            out[-1].append(float(v))
        else:
            out.append([float(v)])
    return np.array([np.mean(g) for g in out])


def _row_run(slots: np.ndarray) -> np.ndarray:
    """The longest run of slots dealt side by side (gaps under ``ROW_GAP_MM``): a stray card further along the
    row's line (one of the foundations, a card dropped at the edge) is not one of its slots."""
    if len(slots) < 2:
        return slots
    breaks = np.flatnonzero(np.diff(slots) > ROW_GAP_MM) + 1
    runs = np.split(slots, breaks)
    return max(runs, key=len)


def _trim_row(slots: np.ndarray, lx: np.ndarray, conf: Sequence[float], line_size: int) -> np.ndarray:
    """A dealt row is a demon and ``line_size`` cards: of more slots side by side, the ends read least surely go
    (a detector's slip beside the demon, read as a card at 0.08, shifted every slot of its row by one)."""
    slots = np.asarray(slots, float)
    sure = [
        max((c for x, c in zip(lx, conf, strict=True) if abs(x - v) < CARD_MM[0] * 0.5), default=0.0) for v in slots
    ]
    lo, hi = 0, len(slots)
    while hi - lo > line_size + 1:
        if sure[lo] <= sure[hi - 1]:
            lo += 1
        else:
            hi -= 1
    return slots[lo:hi]


def name_seats(seats: list[Seat], players: Sequence[tuple[str, str | None]] | None) -> list[Seat]:
    """Gives each seat its player: by back colour when the players' colours are known, else in order around
    the table; without a player list, a seat is named by its back colour (or p1, p2, …)."""
    from dataclasses import replace

    if not players:
        named, used = [], set[str]()
        for k, s in enumerate(seats):
            base = s.back or f"p{k + 1}"
            name, n = base, 2
            while name in used:
                name, n = f"{base}{n}", n + 1
            used.add(name)
            named.append(replace(s, player=name))
        return named
    cost = np.zeros((len(seats), len(players)))
    for i, s in enumerate(seats):
        for j, (_pid, colour) in enumerate(players):
            if s.back_bgr is not None and colour in BACK_COLOURS:
                cost[i, j] = colour_cost(s.back_bgr, colour)
            else:
                cost[i, j] = 1000.0 + abs(i - j)  # unknown colours: keep the order around the table
    out = list(seats)
    for i, j in _assign(cost).items():
        pid, colour = players[j]
        out[i] = replace(seats[i], player=pid, back=colour or seats[i].back)
    return out


@dataclass
class _Pile:
    id: str
    xy: np.ndarray
    top: Card | None
    last_seen: int
    below: Card | None = None  # the top before the current one (shown again if an illegal card is taken back)
    # the last top that built the pile up (its first card, then each higher one of that suit): shown again when all
    # the illegal cards put on it since are taken back, however many lay stacked there
    lawful: Card | None = None
    # the lawful top the last one jumped from (ranks between unseen: landed under a hand, or the jump was an illegal
    # card); shown again when illegal cards on the jump are taken back with it
    jumped_from: Card | None = None
    history: set[Card] = field(default_factory=set)  # every card that has been its top
    carried: tuple[np.ndarray, float] | None = None  # where it lay before it was carried off (completed), and when
    carried_unseen: bool = False  # carried off out of sight (``_gone_complete``), its King not seen elsewhere since
    seen_t: float | None = None  # when it was last seen (``last_seen``'s time)
    sure: bool = False  # its top has been read surely (``LIFT_READ``) at least once since it became its top
    # card -> (the players whose arm reached the pile as that card showed as its top (``vision.arms``), the one of
    # them seen first, when it was last its top)
    reached: dict[Card, tuple[tuple[str, ...], str | None, float]] = field(default_factory=dict)


class TableModel:
    """Turns the cards seen in each frame into a ``TableView`` (areas, slots, foundation piles)."""

    def __init__(self, calibration: Calibration, line_size: int, arms: Arms | None = None) -> None:
        if not calibration.seats:
            raise ValueError("the calibration has no seats: find them at round start first")
        self.calibration = calibration
        self.line_size = line_size
        self.arms = arms  # who reached a pile as its top changed (fed the frames by the caller)
        self.piles: list[_Pile] = []
        self._next_pile = 1
        self._last_columns: dict[str, set[str]] = {}
        # track -> (area first seen in, card, where in table mm it was first seen as that card)
        self._origin: dict[int, tuple[str | None, str | None, np.ndarray | None]] = {}
        self._lifted: dict[str, dict[str, float]] = {}  # card -> area it was carried from -> when last seen moving
        # track -> (card, player, where in table mm, column) of faces lying in a player's area
        self._resting: dict[int, tuple[str, str, np.ndarray, str]] = {}
        self._exposed: set[int] = set()  # tracks of the cards on top of their column last time (the playable ones)
        self._sure: set[int] = set()  # tracks of the resting cards last time that were surely the card read
        # player -> card covered there (not taken) -> when, and in which column
        self._buried: dict[str, dict[str, tuple[float, str]]] = {}
        self._tops: dict[tuple[str, str], Card | None] = {}  # (player, column) -> its uppermost card last time

    def assign(self, xy: np.ndarray) -> tuple[str | None, str | None]:
        """(player, column) for a point in table mm; (None, None) in the foundation area."""
        x, y = (float(v) for v in np.asarray(xy, np.float64).reshape(2))
        best: tuple[float, str, str] | None = None
        for g in map(_reach_of, self.calibration.seats):
            dx, dy = x - g.centre[0], y - g.centre[1]
            lx, ly = dx * g.right[0] + dy * g.right[1], dx * g.down[0] + dy * g.down[1]
            # The area reaches the stock: a face there is a card being turned onto the waste.
            if not (g.lo - g.pitch * 0.75 <= lx <= g.hi + g.pitch * 0.75):
                continue
            if not (-CARD_MM[1] * 0.8 <= ly <= LADDER_REACH_MM):
                continue
            column, where = min(g.columns, key=lambda kv: abs(kv[1] - lx))
            if column != "waste" and abs(where - lx) > g.pitch * 0.6:
                column = "waste" if abs(g.waste - lx) < abs(g.demon - lx) else column
            if column == "demon" and ly > DEMON_DROP_MM:
                column = min((kv for kv in g.columns if kv[0].startswith("line:")), key=lambda kv: abs(kv[1] - lx))[0]
            dist = abs(ly)
            if best is None or dist < best[0]:
                best = (dist, g.player, column)
        return (best[1], best[2]) if best else (None, None)

    def view(self, t: float, frame: int, seen: Sequence[Seen]) -> TableView:
        cal = self.calibration
        faces = [s for s in seen if not s.back and s.card is not None]
        xy = cal.to_table(np.array([s.centre() for s in faces])) if faces else np.zeros((0, 2))
        columns: dict[str, dict[str, list[tuple[Seen, np.ndarray]]]] = {s.player: {} for s in cal.seats}
        middle: list[tuple[Seen, np.ndarray]] = []
        in_flight: list[tuple[int, str]] = []  # new tracks first seen outside every area
        on_table = cal.on_table(xy)
        for k, (s, p) in enumerate(zip(faces, xy, strict=True)):
            if s.track >= 0 and self._origin.get(s.track, (None, None, None))[1] != s.card:
                origin = self.assign(p)[0]  # where this card was first seen
                self._origin[s.track] = (origin, s.card, p)
                if origin is None and s.card is not None:
                    in_flight.append((s.track, s.card))
            if not s.static:
                origin = self._origin.get(s.track, (None, None, None))[0]
                if origin is not None and s.card is not None and s.conf >= LIFT_READ:
                    self._lifted.setdefault(s.card, {})[origin] = t
                continue  # a card in a hand, on its way somewhere
            player, column = self.assign(p)
            if player is None or column is None:
                if on_table[k]:  # off the table (a score pad read as a card) is not a foundation
                    middle.append((s, p))
            else:
                columns[player].setdefault(column, []).append((s, p))
        # A card lying in a player's area that is gone in one frame was picked up too fast to be seen moving,
        # unless another card newly there (lying, or still in the hand putting it down) covered it: a waste card
        # dealt onto it, a ladder built on it. A demon is never covered: a new card there is its next one.
        resting = {s.track: (s.card, pid, p, column) for pid, cols in columns.items() for column, items in cols.items()
                   for s, p in items if s.track >= 0 and s.card is not None}  # fmt: skip
        # A resting card is surely that card when read surely, or read so lying there in two frames running: a
        # card snatched between two frames is the card it was read as only then (s13/game00: p2's line card read
        # "3C" at 0.6 in one frame, gone the next, made p2 a second area the landing 3C was lifted from).
        read_surely = {s.track for s in faces if s.conf >= LIFT_READ}
        sure = {tr for tr, (c, p_, _, _) in resting.items() if tr in read_surely
                or self._resting.get(tr, (None, None))[:2] == (c, p_)}  # fmt: skip
        lay_before = {(c, p_) for c, p_, _, _ in self._resting.values()}
        # Areas where several cards newly lie on the waste at once: a waste dealt, covering what lay there.
        dealt = Counter(p_ for c, p_, _, col in resting.values() if col == "waste" and (c, p_) not in lay_before)
        # Areas whose whole waste (two cards or more) is gone in one frame: turned over (or a hand over it), not a
        # top card lifted alone, which leaves the card below it showing.
        wastes = Counter(p_ for _, p_, _, col in self._resting.values() if col == "waste")
        kept = Counter(p_ for tr, (c, p_, _, col) in self._resting.items()
                       if col == "waste" and resting.get(tr, (None, None))[:2] == (c, p_))  # fmt: skip
        moving = {(f.track, f.card) for f in faces if not f.static}  # cards in a hand
        for track, (card, pid, where, column) in self._resting.items():
            still = resting.get(track)
            if still is not None and still[:2] == (card, pid):
                continue
            # The tracker may follow the new card onto the spot: a card not lying there before (a card that was,
            # shown as the top one left, is the one below it).
            newly = [
                (f, f_xy)
                for f, f_xy in zip(faces, xy, strict=True)
                if f.track not in self._resting and f.card != card and float(np.linalg.norm(f_xy - where)) < COVER_MM
            ]
            # Its track still seen showing it, moving, is the card in a hand: lifted, whatever shows where it lay (the
            # card under it, seen for the first time in a while, is no card put on it: e2e-s91/game02, oracle: p3's
            # 7C lifted off its line's 8D was taken for covered by it, so p2's conflicting 7C took the play).
            covered = (
                column != "demon"
                and (track, card) not in moving
                and ((still is not None and still[1] == pid and (still[0], pid) not in lay_before) or bool(newly))
            )
            if not covered:  # its track gone, or following something else now
                # Only a card on top of its column can be picked up: one seen lying under another (in a ladder, a
                # fan) that goes unseen was missed or hidden, not taken.
                if (
                    track in self._exposed
                    and track in self._sure
                    and (column != "waste" or wastes[pid] < 2 or kept[pid] > 0)
                ):
                    self._lifted.setdefault(card, {})[pid] = t
            elif dealt[pid] >= 2 or any(self._arrived(f, f_xy) for f, f_xy in newly):
                self._buried.setdefault(pid, {})[card] = (t, column)
        self._resting = resting
        self._sure = sure
        # A card the tracker lost in flight is the same card just lifted from one area, unless that area shows
        # it lying there again (a hand passed over it). Two players moving the same identity at once leave it to
        # the referee's other evidence.
        here = {(card, pid) for card, pid, _, _ in resting.values()}
        for track, card in in_flight:
            movers = [
                pid
                for pid, t0 in self._lifted.get(card, {}).items()
                if t - t0 <= LIFT_SECONDS and (card, pid) not in here
            ]
            if len(movers) == 1:
                self._origin[track] = (movers[0], card, self._origin[track][2])
        players = []
        self._exposed = set()
        for seat in cal.seats:
            cols = columns[seat.player]
            down = np.array([0.0, 1.0])
            fan = np.array([1.0 if seat.waste > seat.demon else -1.0, 0.0])
            now = {c for c, items in cols.items() if items and c != "waste"}
            before = self._last_columns.get(seat.player, set())
            occluded = len(before - now) >= 2  # a hand over the area hides several piles at once
            if not occluded:
                self._last_columns[seat.player] = now
            ways = {"demon": down, "waste": fan} | {f"line:{i + 1}": down for i in range(len(seat.line))}
            uppermost = {c: _uppermost(seat, cols.get(c), way) for c, way in ways.items()}
            self._exposed.update(s.track for s in uppermost.values() if s is not None)
            pv = PlayerView(
                seat.player,
                demon_top=_card_of(uppermost["demon"]),
                line=tuple(_card_of(uppermost[f"line:{i + 1}"]) for i in range(len(seat.line))),
                waste_top=_card_of(uppermost["waste"]),
                occluded=occluded,
                maybe=tuple((c, others) for c, s in uppermost.items() if s is not None and (others := _others(s))),
            )
            # A card seen lying under another in a line or the waste is covered there (a ladder, a fan, a card put
            # back on it). A buried card stays so until it shows on top there again (or long after).
            buried = self._buried.setdefault(seat.player, {})
            for column, items in cols.items():
                if column == "demon" or not items:  # nothing covers a demon: a new card there is its next one
                    continue
                top = _card_of(uppermost[column])
                # A column's top last time that is seen over a card covered there till now, which shows on top again,
                # is being lifted off, not covered (e2e-s28/game00, oracle: p1's 4C, lifted from its 5D as two other
                # 4Cs went, was taken for covered, so the pile's 4C went to a loser of the conflict).
                # While cards are lifted off one after another (a hand over the column shows a card deeper down a
                # moment), the top they are lifted from stays the one before the lifting began.
                was = self._tops.get((seat.player, column))
                lifting = top is not None and buried.get(str(top), (0.0, ""))[1] == column
                if not lifting:
                    self._tops[(seat.player, column)] = top
                buried.update({s.card: (t, column) for s, _ in items if s.card is not None and _card(s.card) != top
                               and not (lifting and _card(s.card) == was)})  # fmt: skip
            shown = {str(c) for c in pv.playable()}
            # A card covered in a line whose place shows on top a card it may lie on was lifted off that card, not
            # covered (r-s163/game00, real models: p2's 3D, read QS once under the hand lifting it off its 4C, was
            # reported covered for 20 s, so its play went to another deck).
            tops = {f"line:{i + 1}": c for i, c in enumerate(pv.line)}
            for c in [c for c, (t0, column) in buried.items() if c in shown or t - t0 > BURIED_SECONDS
                      or (tops.get(column) is not None and can_ladder(tops[column], Card.parse(c)))]:  # fmt: skip
                del buried[c]
            players.append(replace(pv, buried=tuple(sorted((Card.parse(c) for c in buried), key=str))))
        foundations = self._piles(t, frame, _one_per_place(middle))
        return TableView(t, frame, foundations, tuple(players), hands=self._hands(t))

    def _hands(self, t: float) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Each known pile an arm lies over in the frame at ``t``, with whose arms (``TableView.hands``)."""
        if self.arms is None:
            return ()
        over = ((p.id, self.arms.reaching(self.calibration, p.xy, t, t)) for p in self.piles if p.seen_t is not None)
        return tuple((pid, who) for pid, who in over if who)

    def _arrived(self, seen: Seen, xy: np.ndarray) -> bool:
        """``seen`` was carried to where it lies (put down), not revealed there."""
        _, card, first = self._origin.get(seen.track, (None, None, None))
        return first is not None and card == seen.card and float(np.linalg.norm(first - xy)) > ARRIVED_MM

    def _reached(self, xy: np.ndarray, since: float | None, t: float) -> tuple[tuple[str, ...], str | None]:
        """The players whose arm reached ``xy`` since the pile there was last seen as it was (at most
        ``REACH_LOOKBACK_S`` ago; a new pile: that long), and of two or more the one seen there in an earlier frame
        than every other's (None: none was)."""
        if self.arms is None:
            return (), None
        since = t - REACH_LOOKBACK_S if since is None else max(since, t - REACH_LOOKBACK_S)
        when = self.arms.first_reached(self.calibration, xy, since, t)
        times = sorted(when.values())
        first = min(when, key=when.__getitem__) if len(times) >= 2 and times[0] < times[1] else None  # not a tie
        return tuple(when), first

    def _origin_of(self, seen: Seen) -> str | None:
        """The player area ``seen``'s track started in, while it still shows the card it was tracked as."""
        origin, seen_as, _ = self._origin.get(seen.track, (None, None, None))
        return origin if seen_as == seen.card else None

    def _piles(self, t: float, frame: int, middle: list[tuple[Seen, np.ndarray]]) -> tuple[PileView, ...]:
        """Groups the middle's cards into piles (the highest card of a group is its top: foundations build
        up) and matches them to the known piles by place, or by top card when a pile was carried off."""
        groups: list[list[tuple[Seen, np.ndarray]]] = []
        for item in sorted(middle, key=lambda it: -it[0].conf):
            for g in groups:
                if np.linalg.norm(np.mean([p for _, p in g], axis=0) - item[1]) < PILE_RADIUS_MM:
                    g.append(item)
                    break
            else:
                groups.append([item])
        views: list[tuple[_Pile, PileView]] = []
        free = list(self.piles)
        # Groups lying where a known pile lies are matched first, so that a card put down elsewhere is not taken for
        # a pile carried off there while that pile still shows in its place (a 2S put down apart from the AS pile
        # it would continue); and the nearest first, so that a card carried off a pile (an illegal one taken back,
        # a frame still in the hand) takes no pile from the card lying in its place (e2e-s109/game01, real models:
        # p1's 9C, lifted off the 3S, took the pile's name, and the 3S showing became a new pile, its spades all
        # refused as on no Ace).
        centres = [np.mean([p for _, p in g], axis=0) for g in groups]

        def nearest(c: np.ndarray) -> float:
            return min((float(np.linalg.norm(p.xy - c)) for p in self.piles), default=math.inf)

        for g, centre in sorted(zip(groups, centres, strict=True), key=lambda gc: nearest(gc[1])):
            # The top is the highest card; of equal ones (two decks' same card, a conflict) the first to arrive.
            # A reading the identifier itself gives little chance is no evidence of which card lies there.
            read = [it for it in g if it[0].conf >= MIN_READ]
            best = max(read or g, key=lambda it: (_rank(it[0].card), -_track(it[0]), it[0].conf))
            card = _card(best[0].card) if read else None
            # A completed pile takes no more cards: another card there is a new pile (an Ace where the old one
            # was set aside) or another completed pile set aside on it. An unfinished pile is never taken away,
            # so an Ace there is its own Ace peeking out, or a card played on it for the rules to judge.
            near = [
                p
                for p in free
                if np.linalg.norm(p.xy - centre) < PILE_RADIUS_MM
                and not (card is not None and _complete(p) and card != p.top)
            ]
            pile = min(near, key=lambda p: float(np.linalg.norm(p.xy - centre))) if near else None
            if pile is not None:
                free.remove(pile)
                pile.xy = 0.8 * pile.xy + 0.2 * centre  # piles get nudged: follow slowly
            else:
                # A pile carried off (a completed one set aside) shows up elsewhere with its top, or with
                # the card that completed it as it went: a King. Only a completed one: an unfinished pile is never
                # carried off, and a card it showed seen elsewhere is one lifted off it, an illegal card taken back
                # (e2e-s125/game01, real models: p3's 3H carried off the AC-2C pile took its name, and the clubs after
                # it went to a new pile, all refused).
                moved = (
                    [
                        p
                        for p in free
                        if p.last_seen < frame and (_continues(p.top, card) or (p.carried_unseen and p.top == card))
                    ]
                    if card is not None and card.rank == KING
                    else []
                )
                # The King that completed a pile, another deck's copy, lying where that pile was as it was carried
                # off: a conflict's second copy (the referee logs it when it goes back), not a pile of one King.
                second = card is not None and any(
                    p.carried is not None and p.top == card and _complete(p) and t - p.carried[1] <= SECOND_KING_SECONDS
                    and np.linalg.norm(p.carried[0] - centre) < PILE_RADIUS_MM
                    for p in self.piles
                )  # fmt: skip
                if second:
                    continue
                if moved:
                    pile = moved[0]
                    free.remove(pile)
                    if not pile.carried_unseen:
                        pile.carried = (pile.xy.copy(), t)  # a completed pile, or completed as it went
                    pile.xy, pile.carried_unseen = centre, False
                else:
                    pile = _Pile(
                        f"f{self._next_pile}", centre, card, frame, history={card} if card else set(), lawful=card
                    )
                    self._next_pile += 1
                    self.piles.append(pile)
            buried = _buried(pile, card)
            if buried and not pile.sure and best[0].conf >= LIFT_READ:
                # A top only ever read unsurely was a misreading of the card read surely in its place now, not a card
                # hiding it (e2e-s38/game02, real models: p4's 3C on the 2C pile read "4C" at 0.46 in one frame, then
                # 3C at 1.00 for 23 s, which was taken for an older card peeking out, the pile unreported all along).
                pile.history.discard(pile.top)  # type: ignore[arg-type]
                if pile.lawful == pile.top:
                    pile.lawful = pile.below
                pile.top = pile.below
                buried = _buried(pile, card)  # (under the card beneath, an older one still)
            if buried:
                pile.last_seen, pile.seen_t = frame, t  # its top is hidden (a hand over it), a card beneath shows
                continue
            unsure = card is None and pile.top is not None
            if unsure:
                card = pile.top  # its cards read too unsurely to say: as it was
            # The card an illegal jump was put on shows again: the jump was taken back with the cards put on it, and
            # the pile is as it was before it, its top brought by whoever brought it then (e2e-s117/game01).
            back = card is not None and card != pile.top and card == pile.jumped_from
            if card != pile.top:
                pile.below = pile.top
                if back:
                    pile.lawful, pile.jumped_from = card, None
                elif card is not None:
                    pile.history.add(card)
                    if _builds(pile.lawful, card):
                        jump = pile.lawful is not None and card.rank > pile.lawful.rank + 1
                        pile.jumped_from = pile.lawful if jump else None
                        pile.lawful = card
            brought: tuple[str, ...] = ()
            first: str | None = None
            if card is not None:
                # Who brought a new pile's first top or a new top; one showing again soon (a hand passed, or it was
                # misread a moment) keeps who brought it.
                brought, first, last = pile.reached.get(card, ((), None, -math.inf))
                again = back and card in pile.reached
                if (card != pile.top or last == -math.inf) and t - last > REACH_KEEP_S and not again:
                    brought, first = self._reached(pile.xy, pile.seen_t, t)
                pile.reached[card] = (brought, first, t)
            if not unsure:
                pile.sure = (pile.sure and card == pile.top) or best[0].conf >= LIFT_READ
            pile.top, pile.last_seen, pile.seen_t = card, frame, t
            candidates = tuple((c, p) for c, p in ((_card(n), pr) for n, pr in best[0].candidates) if c is not None)
            origin = self._origin_of(best[0])
            same = sorted((it[0] for it in g if it[0] is not best[0] and it[0].card == best[0].card), key=_track)
            if unsure:  # what the unsure reading says is no evidence either
                candidates, origin, same = (), None, []
            doubles: list[str] = []
            for other in same:
                where = self._origin_of(other)
                if where is not None and where != origin and where not in doubles:
                    doubles.append(where)
            views.append(
                (
                    pile,
                    PileView(
                        pile.id,
                        float(pile.xy[0]),
                        float(pile.xy[1]),
                        card,
                        best[0].conf,
                        candidates,
                        origin,  # type: ignore[arg-type]
                        tuple(doubles),
                        brought,
                        first,
                    ),
                )
            )
        for pile in free:
            if self._gone_complete(pile, t):
                self._carry_off(pile, t)
            if pile.carried_unseen and pile.carried is not None and t - pile.carried[1] <= CARRIED_SECONDS:
                # shown where it lay a while, long enough for the referee to take the King as lying there
                brought, first, _ = pile.reached[pile.top]  # type: ignore[index]
                view = PileView(
                    pile.id, float(pile.xy[0]), float(pile.xy[1]), pile.top, 1.0, (), None, (), brought, first
                )
                views.append((pile, view))
        views.sort(key=lambda v: v[0].id)
        return tuple(v for _, v in views)

    def _gone_complete(self, pile: _Pile, t: float) -> bool:
        """``pile``, not seen now, was built to its Queen, or completed by a King seen a moment only, and has been gone
        ``CARRIED_SECONDS`` from a place no arm covers: its King completed it and it was carried off (an unfinished
        pile is never taken away), the King never seen lying in the middle (e2e-s149/game00, six players, oracle: p1
        set the completed clubs aside on its neighbour's demon, and the KC was never credited; e2e-s156/game02, five:
        p4's KC read on its pile in one frame as the hand took the pile off the table)."""
        top = pile.top
        if top is None or pile.seen_t is None or pile.carried is not None or t - pile.seen_t < CARRIED_SECONDS:
            return False
        if top.rank == KING:  # read surely on its Queen (not a completed pile set aside, first seen as its King)
            built = pile.below == Card(QUEEN, top.suit) and pile.sure
        else:
            # Built to it, its lower cards seen as they came: a lone Queen put down as a pile of its own is an illegal
            # card, taken back (e2e-s106/game01, real models: the lone QH, read JH a moment, was taken for a pile gone
            # complete).
            below = {c for c in pile.history if c.suit == top.suit and c.rank < QUEEN}
            built = top.rank == QUEEN and pile.lawful == top and len(below) >= CARRIED_BUILT
        return built and (self.arms is None or not self.arms.reaching(self.calibration, pile.xy, t, t))

    def _carry_off(self, pile: _Pile, t: float) -> None:
        """``pile`` (``_gone_complete``) completed by its King where it lay, brought by an arm seen over it in the last
        second it showed (the hand that brought the King and took the pile away), unless the King was seen landing.
        Not the arms over the place once the pile is gone: other players' reaching the middle (e2e-s151/game00, eight
        players, oracle: p2's arm, there 0.1 s after the pile was last seen, took p1's KH)."""
        assert pile.top is not None and pile.seen_t is not None
        king = Card(KING, pile.top.suit)
        if pile.top != king:
            pile.below, pile.top, pile.lawful = pile.top, king, king
            pile.history.add(king)
        if king not in pile.reached:
            brought, first = self._reached(pile.xy, pile.seen_t - REACH_LOOKBACK_S, pile.seen_t)
            pile.reached[king] = (brought, first, t)
        pile.carried, pile.carried_unseen = (pile.xy.copy(), t), True


def _complete(pile: _Pile) -> bool:
    """The pile is a completed one: its top is a King that came on its Queen, or after its Jack and Queen (both
    landing while a hand hid the pile), or it was a King when first seen (a completed pile set aside). A King read
    on a pile that never showed its Queen is a misread, and so is one read on a low card of a pile that once held
    its Queen (an illegal Queen taken back)."""
    top = pile.top
    if top is None or top.rank != 13:
        return False
    queen, jack = Card(12, top.suit), Card(11, top.suit)
    return pile.below == queen or {queen, jack} <= pile.history or pile.history <= {top}


def _builds(lawful: Card | None, card: Card) -> bool:
    """``card`` builds the pile up from its last lawful top (the pile's first card, then any higher one of its suit:
    cards may land unseen between); a card that does not is one for the rules to refuse (or a misreading)."""
    return lawful is None or (card.suit == lawful.suit and card.rank > lawful.rank)


def _buried(pile: _Pile, card: Card | None) -> bool:
    """``card`` was this pile's top before the one it has now, and is neither the one just beneath it nor its last
    lawful top (which show again when illegal cards are taken back: e2e-s55/game01, oracle: p4's 6H, then p1's 2C
    put on the AD pile, both taken back): the top is hidden and an older card of the pile shows."""
    top = pile.top
    return (
        card is not None
        and top is not None
        and card.rank < top.rank
        and card not in (pile.below, pile.lawful)
        and not (card == pile.jumped_from and top != pile.lawful)
        and card in pile.history
    )


def _one_per_place(items: list[tuple[Seen, np.ndarray]]) -> list[tuple[Seen, np.ndarray]]:
    """The surest reading of each place (``PLACE_MM``) among the middle's faces (of equally sure ones the highest:
    a pile builds up), and any other copy of that card there (a conflict's second copy)."""
    kept: list[tuple[Seen, np.ndarray]] = []
    for item in sorted(items, key=lambda it: (-it[0].conf, -_rank(it[0].card))):
        if all(k[0].card == item[0].card or float(np.linalg.norm(item[1] - k[1])) >= PLACE_MM for k in kept):
            kept.append(item)
    return kept


def _uppermost(seat: Seat, items: list[tuple[Seen, np.ndarray]] | None, along: np.ndarray) -> Seen | None:
    """The uncovered card of a pile: the one lying furthest along the way the pile grows."""
    if not items:
        return None
    return max(items, key=lambda it: float(seat.local(it[1])[0] @ along))[0]


def _card_of(seen: Seen | None) -> Card | None:
    return _card(seen.card) if seen is not None else None


MAYBE_MIN = 0.05  # the least probability an identity other than the reading needs to be kept as possible


def _others(seen: Seen) -> tuple[Card, ...]:
    """Identities other than its reading the reader gave a card some chance of."""
    return tuple(
        c for name, p in seen.candidates if p >= MAYBE_MIN and name != seen.card and (c := _card(name)) is not None
    )


def _continues(top: Card | None, card: Card | None) -> bool:
    if top is None or card is None or card.suit is None or top.suit != card.suit:
        return False
    return card.rank in (top.rank, top.rank + 1) and card.rank > 1


def _card(name: str | None) -> Card | None:
    if name is None or name == "back":
        return None
    try:
        return Card.parse(name)
    except ValueError:
        return None


def _track(seen: Seen) -> int:
    return seen.track if seen.track is not None else 1 << 30  # an untracked card counts as the newest


def _rank(name: str | None) -> int:
    c = _card(name)
    return c.rank if c is not None else -1


class _Reach(NamedTuple):
    """A seat's geometry as plain numbers, for placing many points (``TableModel.assign``)."""

    player: str
    centre: tuple[float, float]
    right: tuple[float, float]
    down: tuple[float, float]
    pitch: float
    lo: float
    hi: float
    demon: float
    waste: float
    columns: tuple[tuple[str, float], ...]


def _reach_of(seat: Seat) -> _Reach:
    return _reach(seat.player, seat.centre, seat.down, seat.demon, seat.line, seat.waste, seat.stock)


@lru_cache(maxsize=64)
def _reach(
    player: str,
    centre: tuple[float, float],
    down: tuple[float, float],
    demon: float,
    line: tuple[float, ...],
    waste: float,
    stock: float | None,
) -> _Reach:
    seat = Seat(player, centre, down, demon, line, waste, stock=stock)
    lo, hi = seat.span
    columns = (("demon", demon), ("waste", waste), *((f"line:{i + 1}", v) for i, v in enumerate(line)))
    return _Reach(player, centre, seat.right, down, seat.pitch, lo, hi, demon, waste, columns)
