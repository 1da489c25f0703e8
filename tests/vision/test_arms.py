"""Arms over the table: which player's arm reached a place, on hand-drawn frames (1 px = 1 mm)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.arms import Arms
from vision.calibrate import Calibration, Seat

SEATS = (
    Seat("ann", (500.0, 120.0), (0.0, -1.0), -150.0, (-75.0, 0.0, 75.0, 150.0), 300.0),
    Seat("bob", (500.0, 880.0), (0.0, 1.0), -150.0, (-75.0, 0.0, 75.0, 150.0), 300.0),
    Seat("cy", (880.0, 500.0), (1.0, 0.0), -150.0, (-75.0, 0.0, 75.0, 150.0), 300.0),
)
TABLE = Calibration(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), (1000, 1000), "test", (1000.0, 1000.0), SEATS)
PILE = np.array([500.0, 500.0])


def table(seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = np.full((1000, 1000, 3), (40, 110, 50), np.uint8)  # green cloth
    return cv2.add(image, rng.integers(0, 6, image.shape, dtype=np.uint8))  # camera noise


def arm(image: np.ndarray, hand: tuple[int, int], towards: tuple[int, int], colour=(160, 60, 30)) -> np.ndarray:
    """A sleeve from ``hand`` to ``towards`` (off the picture), a hand at its end."""
    out = image.copy()
    cv2.line(out, hand, towards, colour, 52)
    cv2.circle(out, hand, 30, (120, 160, 210), -1)
    return out


def watched(frames: list[np.ndarray], fps: float = 15.0) -> Arms:
    arms = Arms()
    for k in range(20):  # the table as it lies
        arms.update(table(k), k / fps)
    for k, image in enumerate(frames):
        arms.update(image, (20 + k) / fps)
    return arms


def test_the_arm_that_ends_at_a_pile_is_the_player_who_reached_it() -> None:
    arms = watched([arm(table(100), (500, 530), (500, 1400))])  # bob's hand over the pile, his sleeve to his side
    t = 20 / 15
    assert arms.reaching(TABLE, PILE, t - 0.5, t) == ("bob",)
    arms = watched([arm(table(100), (530, 500), (1400, 500))])
    assert arms.reaching(TABLE, PILE, t - 0.5, t) == ("cy",)


def test_an_arm_reaching_a_pile_further_along_the_same_line_did_not_reach_this_one() -> None:
    beyond = arm(table(100), (500, 610), (500, 1400))  # bob's hand on the pile nearer him, 110 mm from this one
    t = 20 / 15
    assert watched([beyond]).reaching(TABLE, PILE, t - 0.5, t) == ()
    assert watched([beyond]).reaching(TABLE, np.array([500.0, 600.0]), t - 0.5, t) == ("bob",)


def test_only_the_frames_asked_about_count_and_an_empty_table_reached_by_nobody() -> None:
    frames = [arm(table(100), (500, 530), (500, 1400))] + [table(101 + k) for k in range(5)]
    arms = watched(frames)
    assert arms.reaching(TABLE, PILE, 21 / 15, 25 / 15) == ()  # the arm had gone by then
    assert arms.reaching(TABLE, PILE, 19 / 15, 25 / 15) == ("bob",)
    assert watched([table(100)]).reaching(TABLE, PILE, 0, 2) == ()


def test_a_card_put_down_becomes_table_and_grey_frames_are_watched_too() -> None:
    card = table(100)
    cv2.rectangle(card, (470, 455), (530, 545), (250, 250, 250), -1)
    arms = watched([card] * 150)  # ten seconds
    mask = arms.mask()
    assert mask is not None and mask[125, 125] == 0  # the card's centre (1/4 scale) is table now
    grey = Arms()
    for k in range(20):
        grey.update(cv2.cvtColor(table(k), cv2.COLOR_BGR2GRAY), k / 15)
    grey.update(cv2.cvtColor(arm(table(100), (500, 530), (500, 1400)), cv2.COLOR_BGR2GRAY), 20 / 15)
    assert grey.reaching(TABLE, PILE, 1.0, 20 / 15) == ("bob",)


def test_of_two_arms_over_a_pile_the_one_seen_first_is_told_and_a_tie_is_not() -> None:
    bob = arm(table(100), (500, 530), (500, 1400))
    both = arm(bob, (530, 500), (1400, 500))  # cy's hand arrives while bob's is still there
    arms = watched([bob, both])
    t0, t1 = 20 / 15, 21 / 15
    assert arms.reaching(TABLE, PILE, t0, t1) == ("bob", "cy")  # seat order
    assert arms.first_reached(TABLE, PILE, t0, t1) == {"bob": t0, "cy": t1}
    assert watched([both]).first_reached(TABLE, PILE, t0, t1) == {"bob": t0, "cy": t0}
