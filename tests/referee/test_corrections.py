"""Adjudicators' corrections: accept, reject, reassign, fix a card, set a demon, end a round."""

from __future__ import annotations

from typing import Any

import pytest
from support import codes, log, play, start

from referee.events import EventError
from referee.game import Status, apply, audit, replay
from referee.scoring import tally

BASE = [
    start(("a", 2), ("b", 3)),
    play("a", "AH", "h", 1, "demon"),  # 1
    play("b", "3H", "h", 2),  # 2: wrong rank
    play(None, "2H", "h", 3, candidates=["a", "b"]),  # 3: unattributed
    play("a", "3H", "h", 4),  # 4
]


def fix(t: float, action: str, **fields: Any) -> dict[str, Any]:
    return {"type": "correction", "t": t, "action": action, "by": "desk", "reason": "video review", **fields}


def scores(state: Any) -> dict[str, int]:
    return {p.id: p.played for p in tally(state).players}


def test_base_log() -> None:
    state = replay(log(*BASE))
    assert codes(state.flags) == [(2, "wrong-rank"), (3, "unattributed")]
    assert scores(state) == {"a": 2, "b": 0}


def test_reassign_an_unattributed_play() -> None:
    state = replay(log(*BASE, fix(10, "reassign", target=3, player="b")))
    assert codes(state.flags) == [(2, "wrong-rank")]
    assert scores(state) == {"a": 2, "b": 1}


def test_unassign_a_play_credited_to_the_wrong_player() -> None:
    state = replay(log(*BASE, fix(10, "unassign", target=4)))
    # a's 3H scores for nobody now, flagged as a play nobody is credited with, until it is reassigned.
    assert codes(state.flags) == [(2, "wrong-rank"), (3, "unattributed"), (4, "unattributed")]
    assert scores(state) == {"a": 1, "b": 0}
    state = replay(log(*BASE, fix(10, "unassign", target=4), fix(11, "reassign", target=4, player="b")))
    assert scores(state) == {"a": 1, "b": 1}
    with pytest.raises(EventError, match=r"target.: missing"):
        replay(log(*BASE, fix(10, "unassign")))


def test_accept_a_flagged_play_forces_it() -> None:
    state = replay(log(*BASE[:3], fix(10, "accept", target=2)))
    assert state.flags == [] and scores(state) == {"a": 1, "b": 1}
    assert [str(c) for c in state.foundations["h"].cards] == ["AH", "3H"]


def test_reject_removes_a_play_and_its_consequences() -> None:
    state = replay(log(*BASE, fix(10, "reject", target=1)))
    # Without the AH, the unattributed 2H and a's 3H cannot start the pile: the record is re-judged.
    assert codes(state.flags) == [(2, "not-an-ace"), (3, "not-an-ace"), (4, "not-an-ace")]
    assert state.players["a"].demon_left == 2


def test_fix_card_then_flags_follow() -> None:
    state = replay(log(*BASE, fix(10, "fix-card", target=2, card="2H"), fix(11, "reject", target=3)))
    assert state.flags == [] and scores(state) == {"a": 2, "b": 1}


def test_set_demon_and_end_round() -> None:
    state = replay(log(*BASE, fix(10, "set-demon", player="b", demon=1), fix(11, "end-round")))
    assert state.players["b"].demon_left == 1 and state.status is Status.ENDED
    assert tally(state).by_id()["b"].score == -1


def test_apply_with_a_correction_rederives_and_keeps_the_audit() -> None:
    events = log(*BASE, fix(10, "reassign", target=3, player="a"))
    state = replay(events[:-1])
    new, verdicts = apply(state, events[-1])
    assert verdicts == [] and scores(new) == {"a": 3, "b": 0} and scores(state) == {"a": 2, "b": 0}
    assert len(new.history) == len(events) and [c.action for c in audit(new.history)] == ["reassign"]


def test_corrections_must_name_a_real_earlier_event() -> None:
    with pytest.raises(EventError, match="round_start cannot be corrected"):
        replay(log(*BASE, fix(10, "reject", target=0)))
    with pytest.raises(EventError, match="field 'player'"):
        replay(log(*BASE, fix(10, "reassign", target=3, player="zed")))


def test_accept_a_false_out() -> None:
    events = log(start(("a", 2), ("b", 3)), {"type": "out", "t": 1, "player": "a"})
    assert codes(replay(events).flags) == [(1, "false-out")]
    state = replay(log(start(("a", 2), ("b", 3)), {"type": "out", "t": 1, "player": "a"}, fix(2, "accept", target=1)))
    assert state.flags == [] and state.out_by == "a"


def test_unknown_player_and_missing_start() -> None:
    with pytest.raises(EventError, match="unknown player 'zed'"):
        replay(log(start(("a", 2)), play("zed", "AH", "h", 1)))
    with pytest.raises(EventError, match="no round_start"):
        replay(log(play("a", "AH", "h", 1)))
    with pytest.raises(EventError, match="a second round_start"):
        replay(log(start(("a", 2)), start(("a", 2))))
    with pytest.raises(EventError, match="unknown rules preset"):
        replay(log(start(("a", 2), rules="snap")))
