"""The simulator against the referee: property tests over hundreds of rounds, injected plays, determinism."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.events import Draw, Flip, Ladder, Play, Rotate, Turnover, dumps
from referee.game import replay
from referee.rules import PRESETS, Rules
from referee.scoring import tally
from referee.simulate import INJECTABLE, SimulationError, simulate

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "stock_draw": st.sampled_from([1, 3]),
        "stock_order": st.sampled_from(["normal", "reversed"]),
        "line_size": st.sampled_from([4, 5]),
        "refill": st.sampled_from(["demon", "any"]),
        "ladder_move": st.sampled_from(["single", "sequence"]),
        "blocked": st.sampled_from(["rotate", "end"]),
        "out_stop": st.sampled_from(["immediate", "in-flight"]),
        "jokers": st.booleans(),
        "demon_size": st.integers(0, 21),
    },
)


@st.composite
def rounds(draw: st.DrawFn) -> tuple[int, Rules, int]:
    preset = draw(st.sampled_from(list(PRESETS)))
    options = draw(OPTIONS)
    if draw(st.booleans()) and draw(st.integers(0, 3)) == 0:
        options["partnerships"] = True
    rules = Rules.preset(preset).with_options(options)
    if rules.partnerships:
        players = draw(st.sampled_from([4, 6, 8]))
    else:
        players = 2 if preset == "flying-demon" else draw(st.integers(2, 8))
    return players, rules, draw(st.integers(0, 2**31))


def check_round(players: int, rules: Rules, seed: int, inject: tuple[str, ...] = ()) -> None:
    result = simulate(players=players, seed=seed, rules=rules, inject=inject)
    state = replay(result.events)
    # Replay flags exactly what the simulator staged (conflicts) and injected, each with its own code.
    assert sorted(v.seq for v in state.flags) == result.expected_flags
    by_seq = {v.seq: v.code for v in state.flags}
    assert all(by_seq[s] == "conflict" for s in result.staged_conflicts)
    assert all(by_seq[s] == kind for kind, s in result.injected.items())
    # Every card is conserved, in the simulator and in the referee's own tracking of the layouts.
    assert result.conserved
    deck_size = 54 if rules.jokers else 52
    for p in state.players.values():
        assert p.table is not None and p.table.cards() + p.played_cards == deck_size
    # The simulator's own count equals the referee's tally.
    mine = tally(state).by_id()
    for pid, s in result.scores.items():
        t = mine[pid]
        assert (t.played, t.kings, t.out, t.demon_left, t.score) == (s.played, s.kings, s.out, s.demon_left, s.score)
    # Times never go backwards.
    assert all(a.t <= b.t for a, b in zip(result.events, result.events[1:], strict=False))


@settings(max_examples=520, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)
@given(rounds())
def test_simulated_rounds_replay_cleanly(case: tuple[int, Rules, int]) -> None:
    check_round(*case)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(rounds(), st.sets(st.sampled_from(INJECTABLE), min_size=1, max_size=4))
def test_injected_plays_get_exactly_their_flag(case: tuple[int, Rules, int], kinds: set[str]) -> None:
    check_round(*case, inject=tuple(sorted(kinds)))


@pytest.mark.parametrize("kind", INJECTABLE)
def test_each_injection_happens_and_is_flagged(kind: str) -> None:
    for seed in range(40):
        result = simulate(players=4, seed=seed, inject=(kind,))
        if kind in result.injected:
            state = replay(result.events)
            flagged = [v for v in state.flags if v.seq == result.injected[kind]]
            assert [v.code for v in flagged] == [kind]
            return
    pytest.fail(f"no chance to inject {kind} in 40 rounds")


def test_same_seed_same_bytes() -> None:
    a = simulate(players=5, seed=11, inject=("wrong-suit",)).events
    b = simulate(players=5, seed=11, inject=("wrong-suit",)).events
    c = simulate(players=5, seed=12).events
    assert [dumps(e) for e in a] == [dumps(e) for e in b] != [dumps(e) for e in c]


def test_the_log_holds_a_whole_game() -> None:
    result = simulate(players=4, seed=3)
    kinds = {type(e) for e in result.events}
    assert {Play, Ladder, Flip, Draw, Turnover} <= kinds
    assert result.players[0].layout is not None and result.players[0].back
    assert len(result.motions) >= sum(isinstance(e, Play | Ladder) for e in result.events)
    assert all(m.t1 > m.t0 for m in result.motions)


def test_conflicts_happen_at_a_realistic_rate() -> None:
    conflicts = plays = 0
    for seed in range(20):
        result = simulate(players=5, seed=seed)
        conflicts += len(result.staged_conflicts)
        plays += sum(isinstance(e, Play) for e in result.events)
    assert 0.005 < conflicts / plays < 0.2


def test_blocked_tables_rotate_or_end() -> None:
    rules = Rules().with_options({"demon_size": 30, "line_size": 3})
    ended = simulate(players=2, seed=1, rules=rules.with_options({"blocked": "end"}))
    rotated = simulate(players=2, seed=1, rules=rules)
    assert ended.finished_by in ("blocked", "out")
    assert any(isinstance(e, Rotate) for e in rotated.events) or rotated.finished_by == "out"


def test_bad_settings() -> None:
    with pytest.raises(SimulationError, match="cannot inject"):
        simulate(inject=("cheating",))
    with pytest.raises(SimulationError, match="even number"):
        simulate(players=5, rules=Rules().with_options({"partnerships": True}))


def test_table_at_any_moment() -> None:
    result = simulate(players=3, seed=4)
    middle = result.duration / 2
    state = result.table_at(middle)
    for p in state.players.values():
        assert p.table is not None and p.table.cards() + p.played_cards == 52
    landed = sum(isinstance(e, Play) and e.t <= middle for e in result.events)
    on_piles = sum(len(f.cards) for f in state.foundations.values())
    assert 0 < on_piles <= landed
    assert all(m.t0 <= middle < m.t1 for m in result.in_hand(middle))
