"""Every verdict code, table-driven: (log before, event, expected verdict), in both knowledge modes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from support import codes, log, play, start

from referee.cards import STANDARD_52
from referee.game import VERDICT_CODES, apply, replay
from referee.scoring import tally

A, B = ("a", 3), ("b", 3)

# Foundation-only logs (what a camera sees): players with demon sizes, no layout.
CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], str | None]] = [
    ("legal ace", [start(A, B)], play("a", "AH", "h", 1), None),
    ("not an ace", [start(A, B)], play("a", "2H", "h", 1), "not-an-ace"),
    ("legal follow", [start(A, B), play("a", "AH", "h", 1)], play("b", "2H", "h", 2), None),
    ("wrong suit", [start(A, B), play("a", "AH", "h", 1)], play("b", "2S", "h", 2), "wrong-suit"),
    ("wrong rank", [start(A, B), play("a", "AH", "h", 1)], play("b", "3H", "h", 2), "wrong-rank"),
    ("ace on a pile", [start(A, B), play("a", "AH", "h", 1)], play("b", "AS", "h", 2), "wrong-rank"),
    (
        "pile complete",
        [
            start(A, B),
            *[
                play("a" if r % 2 else "b", f"{n}H", "h", r)
                for r, n in enumerate(["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"], start=1)
            ],
        ],
        play("b", "AS", "h", 20),
        "pile-complete",
    ),
    ("late play", [start(A, ("b", 0)), {"type": "out", "t": 1, "player": "b"}], play("a", "AH", "h", 2), "late-play"),
    ("late after end", [start(A, B), {"type": "round_end", "t": 1}], play("a", "AH", "h", 2), "late-play"),
    ("false out", [start(A, B)], {"type": "out", "t": 1, "player": "a"}, "false-out"),
    ("true out", [start(("a", 1), B), play("a", "AH", "h", 1, "demon")], {"type": "out", "t": 2, "player": "a"}, None),
    ("duplicate", [start(A, B), play("a", "AH", "h", 1)], play("a", "AH", "h2", 2), "duplicate-card"),
    ("same card other deck", [start(A, B), play("a", "AH", "h", 1)], play("b", "AH", "h2", 2), None),
    (
        "conflict",
        [start(A, B), play("a", "AH", "h", 1), play("a", "2H", "h", 2)],
        play("b", "2H", "h", 2.6),
        "conflict",
    ),
    (
        "same card outside window",
        [start(A, B), play("a", "AH", "h", 1), play("a", "2H", "h", 2)],
        play("b", "2H", "h", 3.5),
        "wrong-rank",
    ),
    (
        "conflict logged late, under a newer top",  # b's copy was seen only when taken back, after 3H landed
        [start(A, B), play("a", "AH", "h", 1), play("a", "2H", "h", 2), play("a", "3H", "h", 4)],
        play("b", "2H", "h", 2.3, returned=True),
        "conflict",
    ),
    (
        "old card under a newer top, outside the window",
        [start(A, B), play("a", "AH", "h", 1), play("a", "2H", "h", 2), play("a", "3H", "h", 4)],
        play("b", "2H", "h", 4.5),
        "wrong-rank",
    ),
    ("demon empty", [start(("a", 0), B)], play("a", "AH", "h", 1, "demon"), "not-playable"),
    (
        "flip shows another card",
        [start(A, B), {"type": "flip", "t": 0.5, "player": "a", "card": "7C"}],
        play("a", "AH", "h", 1, "demon"),
        "not-playable",
    ),
    ("line outside", [start(A, B)], play("a", "AH", "h", 1, "line:6"), "not-playable"),
    ("unattributed", [start(A, B)], play(None, "AH", "h", 1, candidates=["a", "b"]), "unattributed"),
    ("jokers off", [start(A, B)], play("a", "JK", "h", 1, **{"as": "AH"}), "not-playable"),
]


@pytest.mark.parametrize(("before", "event", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_foundation_only_verdicts(before: list[dict[str, Any]], event: dict[str, Any], expected: str | None) -> None:
    state = replay(log(*before))
    seq = len(before)
    new, verdicts = apply(state, log(*before, event)[-1])
    assert codes(verdicts) == ([(seq, expected)] if expected else [])
    if expected and expected != "unattributed":
        # An illegal event leaves the round as it was and scores nothing.
        assert tally(new).to_json()["players"] == tally(state).to_json()["players"]
        assert {k: v.cards for k, v in new.foundations.items()} == {k: v.cards for k, v in state.foundations.items()}


def _layout_start(**options: Any) -> dict[str, Any]:
    """Player ``a`` with a known deal: demon 9C under 2S (top); line 7S | 8H | KD | 7D; the rest in the stock."""
    used = {"9C", "2S", "7S", "8H", "KD", "7D", "AH", "6H", "6D", "4C"}
    rest = [str(c) for c in STANDARD_52 if str(c) not in used]
    layout = {
        "demon": ["9C", "2S"],
        "line": [["7S"], ["8H"], ["KD"], ["7D"]],
        # The stock's top is last: drawing three shows 6D, with 6H below it and AH at the bottom of the three.
        "stock": [*rest, "4C", "6D", "6H", "AH"],
    }
    return {
        "type": "round_start", "t": 0, "rules": "racing-demon", "options": options,
        "players": [{"id": "a", "demon": 2, "layout": layout}, {"id": "b", "demon": 13}],
    }  # fmt: skip


DRAW = {"type": "draw", "t": 0.5, "player": "a"}
LAYOUT_CASES: list[tuple[str, list[dict[str, Any]], dict[str, Any], str | None]] = [
    ("ladder ok", [], {"type": "ladder", "t": 1, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"}, None),
    ("onto itself", [], {"type": "ladder", "t": 1, "player": "a", "card": "7S", "from": "line:1", "to": "line:1"}, "not-playable"),
    ("ladder rank", [], {"type": "ladder", "t": 1, "player": "a", "card": "7D", "from": "line:4", "to": "line:1"}, "ladder-rank"),
    ("ladder colour", [DRAW], {"type": "ladder", "t": 1, "player": "a", "card": "6D", "from": "waste", "to": "line:4"}, "ladder-colour"),
    ("ladder from waste rank", [DRAW], {"type": "ladder", "t": 1, "player": "a", "card": "6D", "from": "waste", "to": "line:2"}, "ladder-rank"),
    ("waste top ladders", [DRAW], {"type": "ladder", "t": 1, "player": "a", "card": "6D", "from": "waste", "to": "line:1"}, None),
    ("buried waste card", [DRAW], play("a", "AH", "h", 1, "waste"), "not-playable"),
    ("buried without source", [DRAW], play("a", "AH", "h", 1), "not-playable"),
    ("stock card", [], play("a", "6D", "h", 1), "not-playable"),
    ("demon top", [], play("a", "2S", "s", 1, "demon"), "not-an-ace"),
    ("demon under top", [], play("a", "9C", "s", 1, "demon"), "not-playable"),
    ("ladder card not exposed", [{"type": "ladder", "t": 0.5, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"}],
     play("a", "8H", "s", 1, "line:2"), "not-playable"),
    (
        "refill from waste forbidden",
        [DRAW, {"type": "ladder", "t": 0.6, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"}],
        {"type": "ladder", "t": 1, "player": "a", "card": "6D", "from": "waste", "to": "line:1"},
        "illegal-refill",
    ),
    (
        "refill from demon",
        [{"type": "ladder", "t": 0.6, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"}],
        {"type": "ladder", "t": 1, "player": "a", "card": "2S", "from": "demon", "to": "line:1"},
        None,
    ),
]  # fmt: skip


@pytest.mark.parametrize(
    ("before", "event", "expected"), [c[1:] for c in LAYOUT_CASES], ids=[c[0] for c in LAYOUT_CASES]
)
def test_layout_verdicts(before: list[dict[str, Any]], event: dict[str, Any], expected: str | None) -> None:
    events = log(_layout_start(), *before, event)
    state = replay(events[:-1])
    _, verdicts = apply(state, events[-1])
    assert codes(verdicts) == ([(len(events) - 1, expected)] if expected else [])


def test_refill_any_allows_the_waste() -> None:
    events = log(
        _layout_start(refill="any"),
        DRAW,
        {"type": "ladder", "t": 0.6, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"},
        {"type": "ladder", "t": 1, "player": "a", "card": "6D", "from": "waste", "to": "line:1"},
    )
    assert replay(events).flags == []


def test_sequence_moves_carry_the_cards_on_top() -> None:
    # 6D on 7S, then move the 7S with its 6D onto 8H: allowed only with sequence moves.
    base = [
        DRAW,
        {"type": "ladder", "t": 0.6, "player": "a", "card": "6D", "from": "waste", "to": "line:1"},
        {"type": "ladder", "t": 0.8, "player": "a", "card": "7S", "from": "line:1", "to": "line:2"},
    ]
    single = replay(log(_layout_start(), *base))
    assert codes(single.flags) == [(3, "not-playable")]
    seq = replay(log(_layout_start(ladder_move="sequence"), *base))
    assert seq.flags == []
    line = seq.players["a"].table.line  # type: ignore[union-attr]
    assert [str(c) for c in line[1]] == ["8H", "7S", "6D"] and line[0] == []


def test_every_code_is_exercised() -> None:
    seen = {c[3] for c in CASES} | {c[3] for c in LAYOUT_CASES}
    assert set(VERDICT_CODES) <= seen


def test_flying_demon_follows_any_suit_to_the_jack() -> None:
    names = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J"]
    suits = "HSDC"
    plays = [play("a" if i % 2 else "b", f"{n}{suits[i % 4]}", "f", i + 1) for i, n in enumerate(names)]
    jack_suit = suits[(len(names) - 1) % 4]
    other = "H" if jack_suit != "H" else "S"
    events = log(start(("a", 21), ("b", 21), rules="flying-demon"), *plays, play("a", f"Q{other}", "f", 30))
    assert codes(replay(events).flags) == [(len(events) - 1, "wrong-suit")]
    ok = log(start(("a", 21), ("b", 21), rules="flying-demon"), *plays, play("a", f"Q{jack_suit}", "f", 30))
    assert replay(ok).flags == []
    # Under same-suit rules the same log is flagged from the first 2 on.
    same = log(start(("a", 21), ("b", 21)), *plays)
    assert codes(replay(same).flags)[0] == (2, "wrong-suit")


def test_in_flight_out_lets_cards_land_within_the_grace() -> None:
    before = [start(("a", 3), ("b", 0), rules="nerts"), {"type": "out", "t": 1.0, "player": "b"}]
    _, landed = apply(replay(log(*before)), log(*before, play("a", "AH", "h", 1.4))[-1])
    assert landed == []
    _, late = apply(replay(log(*before)), log(*before, play("a", "AH", "h", 1.6))[-1])
    assert codes(late) == [(2, "late-play")]


def test_jokers_stand_for_the_declared_card() -> None:
    events = log(
        start(A, B, jokers=True),
        play("a", "AH", "h", 1),
        play("b", "JK", "h", 2, **{"as": "2H"}),
        play("a", "3H", "h", 3),
        play("b", "JK", "h2", 4),  # a joker starting a pile must say which Ace
        play("b", "JK", "s", 5, **{"as": "AS"}),
        play("b", "JK", "h", 6),  # the third joker of one deck
    )
    state = replay(events)
    assert codes(state.flags) == [(4, "not-an-ace"), (6, "duplicate-card")]
    assert [str(c) for c in state.foundations["h"].cards] == ["AH", "2H", "3H"]
    assert tally(state).by_id()["b"].played == 2


def test_apply_does_not_touch_its_input() -> None:
    events = log(start(A, B), play("a", "AH", "h", 1))
    state = replay(events[:1])
    before = json.dumps(tally(state).to_json())
    apply(state, events[1])
    assert json.dumps(tally(state).to_json()) == before and state.foundations == {}


def test_an_unattributed_play_says_whose_arm_the_camera_saw_over_the_pile() -> None:
    state = replay(log(start(A, B)))
    _, seen = apply(state, log(start(A, B), play(None, "AH", "h", 1, candidates=["a", "b"], reached=["a", "b"]))[-1])
    _, unseen = apply(state, log(start(A, B), play(None, "AH", "h", 1, candidates=["a", "b"]))[-1])
    assert seen[0].message.endswith("(an arm reached the pile from a, b)")
    assert unseen[0].message == "AH on h: who played it is not known"
