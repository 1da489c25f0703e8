"""Whose arm reached a place on the table: evidence for who put a card down that needs no reading of the card.

A card is carried to a foundation in a hand whose arm runs back over the table to its player's side. The
camera sees the arm as a long region unlike the table as it lay a moment before. ``Arms`` keeps that
background (a running average of a downscaled frame, which takes in slowly what stays put: a card put down
becomes table within about ten seconds) and a short memory of what differed from it; ``reaching`` asks, for a place
and a stretch of time, which players' arms lay along the way from that place towards their seat.

The test is a ray, not a blob: from the place towards the player's shoulder (``SHOULDER_MM`` beyond the middle of
their area, along the way their area faces), most of ``RAY_MM`` must differ from the table in one frame. Blobs
merge (two arms crossing, a card just put down next to the pile) where rays still say which way an arm runs.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.calibrate import Calibration

SHOULDER_MM = 420.0  # from the middle of a player's area to where their arm comes from, along the way it faces
RAY_MM = (70.0, 260.0, 15.0)  # the stretch of the way to the shoulder an arm must cover: start, end, step
COVERED = 0.7  # the share of the ray's points that must differ from the table, in one frame
RAY_NEED = COVERED * len(np.arange(*RAY_MM))  # how many points that is (a ray with fewer in the picture is not used)
# The hand holds the card off its centre (by a corner, an edge): rays start this far (mm) either side of the place.
OFFSETS_MM = (-30.0, -15.0, 0.0, 15.0, 30.0)
# The arm ends at the place (its hand is there): of these points next to it on the way to the shoulder, at least
# NEAR_NEEDED differ from the table. An arm reaching a pile just beyond, on the same line, covers the ray further out
# but not these.
NEAR_MM = (25.0, 40.0, 55.0)
NEAR_NEEDED = 2


@dataclass
class Arms:
    """Keeps the table's background and the last ``keep_s`` seconds of what differed from it.

    ``threshold`` is the summed absolute difference of the three colour channels on the downscaled frame (a
    4×4 average, so camera noise is a quarter of the full frame's); ``settle_s`` is the background's time
    constant where the frame agrees with it, ``absorb_s`` where it does not (a white card put down on a dark cloth
    becomes table in about three of those; an arm held still as long does too)."""

    scale: int = 4
    threshold: float = 36.0
    settle_s: float = 0.8
    absorb_s: float = 3.3
    keep_s: float = 2.0
    _background: np.ndarray | None = field(default=None, repr=False)
    _t: float | None = field(default=None, repr=False)
    _masks: deque[tuple[float, np.ndarray]] = field(default_factory=deque, repr=False)
    _rays: dict[tuple[object, ...], tuple[Calibration, list[tuple[str, list[tuple[np.ndarray, ...]]]]]] = field(
        default_factory=dict, repr=False
    )

    def update(self, image: np.ndarray, t: float) -> None:
        """Takes one frame (BGR or grey) at time ``t`` seconds."""
        h, w = image.shape[:2]
        small = cv2.resize(image, (max(1, w // self.scale), max(1, h // self.scale)), interpolation=cv2.INTER_AREA)
        if small.ndim == 2:
            small = cv2.cvtColor(small, cv2.COLOR_GRAY2BGR)
        frame = small.astype(np.float32)
        if self._background is None or self._background.shape != frame.shape or self._t is None or t < self._t:
            self._background, self._t = frame, t  # the first frame, another size, or time went back: start again
            self._masks.clear()
            self._masks.append((t, np.zeros(frame.shape[:2], np.uint8)))
            return
        dt = max(t - self._t, 1e-3)
        self._t = t
        diff = cv2.transform(cv2.absdiff(frame, self._background), np.ones((1, 3), np.float32))
        mask = cv2.morphologyEx((diff > self.threshold).astype(np.uint8), cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
        cv2.accumulateWeighted(frame, self._background, 1 - math.exp(-dt / self.settle_s), mask=1 - mask)
        cv2.accumulateWeighted(frame, self._background, 1 - math.exp(-dt / self.absorb_s), mask=mask)
        self._masks.append((t, mask))
        while self._masks and self._masks[0][0] < t - self.keep_s:
            self._masks.popleft()

    def mask(self) -> np.ndarray | None:
        """The latest frame's difference from the table (1 where something lies that was not there), downscaled."""
        return self._masks[-1][1] if self._masks else None

    def reaching(self, calibration: Calibration, xy: np.ndarray, since: float, until: float) -> tuple[str, ...]:
        """The players whose arm lay along the way from ``xy`` (table mm) to their seat, ending there, in some
        frame between ``since`` and ``until`` (seconds, both included), in seat order."""
        return tuple(self.first_reached(calibration, xy, since, until))

    def first_reached(self, calibration: Calibration, xy: np.ndarray, since: float, until: float) -> dict[str, float]:
        """``reaching``'s players (in seat order), each with the time of the first frame their arm was seen in."""
        frames = [(t, m) for t, m in self._masks if since - 1e-6 <= t <= until + 1e-6]
        if not frames or not calibration.seats:
            return {}
        out: dict[str, float] = {}
        for player, rays in self._ways(calibration, xy, frames[0][1].shape):
            for fx, fy, nx, ny in rays:
                for t, m in frames:
                    if t >= out.get(player, math.inf):
                        break  # an earlier frame already showed this arm (at another offset)
                    if m[fy, fx].sum() >= RAY_NEED and m[ny, nx].sum() >= NEAR_NEEDED:
                        out[player] = t
                        break
        return out

    def _ways(
        self, calibration: Calibration, xy: np.ndarray, size: tuple[int, ...]
    ) -> list[tuple[str, list[tuple[np.ndarray, ...]]]]:
        """Per seat, the mask's pixels of each ray from ``xy`` towards the player's shoulder (far points x, y, near
        points x, y), those inside the picture only; rays that run out of the picture are left out. Kept per place:
        piles stay put, and the table's view does not change within a round."""
        at = np.asarray(xy, np.float64).reshape(2)
        key = (id(calibration), size, round(float(at[0]), 1), round(float(at[1]), 1))
        if (hit := self._rays.get(key)) is not None and hit[0] is calibration:  # (kept alive here: ids not reused)
            return hit[1]
        start, stop, step = RAY_MM
        far, near = np.arange(start, stop, step)[:, None], np.asarray(NEAR_MM)[:, None]
        ways: list[tuple[str, list[tuple[np.ndarray, ...]]]] = []
        for seat in calibration.seats:
            way = np.asarray(seat.centre) + np.asarray(seat.down) * SHOULDER_MM - at
            n = float(np.linalg.norm(way))
            if n < stop:
                continue  # the place is at the player's own side: no arm needs to reach over the table to it
            u = way / n
            side = np.array([-u[1], u[0]])
            rays = []
            for off in OFFSETS_MM:
                base = at + side * off
                fx, fy = self._pixels(calibration, base + u * far, size)
                nx, ny = self._pixels(calibration, base + u * near, size)
                if len(fx) >= RAY_NEED:  # else the way runs out of the picture
                    rays.append((fx, fy, nx, ny))
            ways.append((seat.player, rays))
        if len(self._rays) > 4096:  # places are few; a long run of new ones (a moving camera's table) starts afresh
            self._rays.clear()
        self._rays[key] = (calibration, ways)
        return ways

    def _pixels(self, calibration: Calibration, points: np.ndarray, size: tuple[int, ...]) -> tuple[np.ndarray, ...]:
        """The mask's pixels (x, y) at ``points`` (table mm), those inside the picture only."""
        px = calibration.to_image(points) / self.scale
        ix, iy = px[:, 0].astype(int), px[:, 1].astype(int)
        inside = (ix >= 0) & (ix < size[1]) & (iy >= 0) & (iy < size[0])
        return ix[inside], iy[inside]
