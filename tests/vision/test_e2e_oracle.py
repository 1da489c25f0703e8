"""The camera chain on the committed rendered game with the oracle detector (the renderer's truth): every
filmed play recovered and attributed, the outputs written, and a camera outage mid-game loses no event."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.events import Correction, Event, RoundEnd, RoundStart, read_log
from referee.game import replay
from vision.e2e import compare, evaluate_game
from vision.oracle import oracle_detections
from vision.pipeline import Chain
from vision.review import review

SAMPLE = Path(__file__).parents[2] / "datasets" / "sample" / "game"


def test_oracle_chain_recovers_the_sample_game(tmp_path: Path) -> None:
    game = tmp_path / "game"
    game.mkdir()
    for name in ("game.mp4", "truth.jsonl", "events.jsonl", "render.json"):
        (game / name).write_bytes((SAMPLE / name).read_bytes())
    r = evaluate_game(game)
    assert r["plays"] >= 3
    assert r["recall"] == 1.0 and r["precision"] == 1.0 and r["attribution"] == 1.0
    assert r["scores_exact"] == r["player_rounds"]
    assert r["flags_false"] == []


def test_review_writes_the_log_the_report_and_the_video(tmp_path: Path) -> None:
    start = read_log(SAMPLE / "events.jsonl")[0]
    assert isinstance(start, RoundStart)
    players = [(p.id, p.back) for p in start.players]
    result = review(SAMPLE / "game.mp4", tmp_path, players=players, truth=SAMPLE / "truth.jsonl", process_fps=15)
    log = read_log(tmp_path / "events.jsonl")
    assert isinstance(log[0], RoundStart) and isinstance(log[-1], RoundEnd)
    assert [p.id for p in log[0].players] == [p for p, _ in players]
    assert replay(log).status.value == "ended"
    page = (tmp_path / "report.html").read_text()
    assert "Tally" in page and "Timeline" in page
    cap = cv2.VideoCapture(str(tmp_path / "annotated.mp4"))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == result.processed
    cal = json.loads((tmp_path / "calibration.json").read_text())
    assert cal["source"] == "markers" and len(cal["seats"]) == len(players)


@pytest.mark.parametrize("gap", [(0.8, 2.2)])
def test_a_camera_outage_mid_game_loses_no_play(gap: tuple[float, float]) -> None:
    truth = read_log(SAMPLE / "events.jsonl")
    start = truth[0]
    assert isinstance(start, RoundStart)
    chain = Chain(start.rules, dict(start.options), [(p.id, p.back) for p in start.players])
    cap = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    lines = (SAMPLE / "truth.jsonl").read_text().splitlines()
    t = 0.0
    for k, line in enumerate(lines):
        ok, image = cap.read()
        assert ok
        t = k / 15
        if gap[0] <= t < gap[1]:
            continue  # no picture: the camera was unplugged
        chain.feed(image, t, k, oracle_detections(json.loads(line)))
    chain.finish(t)
    filmed = json.loads((SAMPLE / "render.json").read_text())["seconds"]
    r = compare(truth, chain.events, until=filmed)
    assert r["recall"] == 1.0 and r["precision"] == 1.0


START = '{"type":"round_start","t":0,"rules":"racing-demon","players":[{"id":"a","demon":13},{"id":"b","demon":13}]}'


def test_what_happened_just_before_the_film_was_cut_is_out_of_scope_on_both_sides() -> None:
    from referee.events import parse_lines

    start = START
    truth = list(parse_lines([start,
        '{"type":"play","t":5.0,"player":"a","card":"AS","pile":"f1","from":"demon"}',
        '{"type":"flip","t":5.0,"player":"a","card":"9D"}',
        '{"type":"play","t":59.7,"player":"b","card":"AH","pile":"f2","from":"demon"}']))  # fmt: skip
    chain = list(parse_lines([start,
        '{"type":"play","t":5.3,"player":"a","card":"AS","pile":"f1","from":"demon"}',
        '{"type":"flip","t":5.3,"player":"a","card":"9D"}',
        '{"type":"play","t":59.9,"player":"a","card":"2S","pile":"f1","from":"line:1"}']))  # fmt: skip
    r = compare(truth, chain, until=60.0)
    assert r["plays"] == 1 and r["recall"] == 1.0  # b's Ace at 59.7 could not have settled on camera yet
    assert r["precision"] == 0.5  # but a play the chain made up near the cut still counts against it
    assert compare(truth, chain[:3], until=60.0)["scores_exact"] == 2

    # A play that landed before the tail, logged in it, counts, though another copy of its card came in the tail.
    def played(*rows: tuple[float, str, str, str, str]) -> list[Event]:
        keys = ("t", "player", "card", "pile", "from")
        return list(
            parse_lines([start, *(json.dumps({"type": "play", **dict(zip(keys, r, strict=True))}) for r in rows)])
        )

    landed = played(
        (5.0, "a", "AS", "f1", "demon"), (58.8, "b", "AH", "f2", "demon"), (59.3, "a", "AH", "f2", "line:1")
    )
    logged = played(
        (5.3, "a", "AS", "f1", "demon"), (59.4, "b", "AH", "f2", "demon"), (59.4, "a", "AH", "f2", "line:1")
    )
    r = compare(landed, logged, until=60.0)
    assert r["plays"] == 2 and r["recall"] == 1.0 and r["attribution"] == 1.0 and r["flags_false"] == []
    # A correction of a play left out near the cut goes with it (the log would not replay otherwise).
    fixed = list(parse_lines([start,
        '{"type":"play","t":59.8,"player":null,"card":"AH","pile":"f2","candidates":["a","b"]}',
        '{"type":"correction","t":59.9,"action":"reassign","by":"camera","target":1,"player":"b"}']))  # fmt: skip
    assert compare(truth, fixed, until=60.0)["plays"] == 1
    # An Out called after the cut: the camera saw the demon empty a moment earlier, and that Out goes too.
    empty = start.replace('"demon":13}', '"demon":0}', 1)  # a has played out their demon
    called = list(parse_lines([empty, '{"type":"out","t":59.5,"player":"a"}']))
    inferred = list(parse_lines([empty, '{"type":"out","t":58.8,"player":"a","inferred":true}']))
    assert compare(called, inferred, until=60.0)["scores_exact"] == 2
    # So does one called just after the film ends (the camera saw the demon emptied before the cut).
    after = list(parse_lines([empty, '{"type":"out","t":60.4,"player":"a"}']))
    assert compare(after, inferred, until=60.0)["scores_exact"] == 2


def test_a_demon_seen_empty_as_the_film_ends_is_no_out_while_cards_are_counted_in_it() -> None:
    from dataclasses import replace

    from referee.events import Out

    start = read_log(SAMPLE / "events.jsonl")[0]
    assert isinstance(start, RoundStart)
    chain = Chain(start.rules, dict(start.options), [(p.id, p.back) for p in start.players])
    cap = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    for k, line in enumerate((SAMPLE / "truth.jsonl").read_text().splitlines()):
        ok, image = cap.read()
        assert ok
        chain.feed(image, k / 15, k, oracle_detections(json.loads(line)))
    assert chain.last_view is not None
    # The last frame: the first player's demon top is in their hand, the demon's place empty.
    first = chain.last_view.players[0]
    assert chain.state.players[first.id].demon_left > 0
    chain.last_view = replace(
        chain.last_view, players=(replace(first, demon_top=None, occluded=False), *chain.last_view.players[1:])
    )
    events = chain.finish(chain.last_view.t)
    assert not any(isinstance(e, Out) for e in events)
    assert isinstance(events[-1], RoundEnd)
    assert not [f for f in chain.flags if f.verdict.code == "false-out"]


def _oracle_run(players: list[tuple[str, str | None]], hide_backs_until: float, of: str | None = None) -> Chain:
    """The sample game through the chain with the oracle, its backs (``of`` one player's only) unseen until
    ``hide_backs_until`` seconds (stocks the detector misses at the start)."""
    start = read_log(SAMPLE / "events.jsonl")[0]
    assert isinstance(start, RoundStart)
    chain = Chain(start.rules, dict(start.options), players)
    cap = cv2.VideoCapture(str(SAMPLE / "game.mp4"))
    t = 0.0
    for k, line in enumerate((SAMPLE / "truth.jsonl").read_text().splitlines()):
        ok, image = cap.read()
        assert ok
        t = k / 15
        frame = json.loads(line)
        if t < hide_backs_until:
            frame["cards"] = [c for c in frame["cards"] if c["card"] != "back" or of not in (None, c.get("owner"))]
        chain.feed(image, t, k, oracle_detections(frame))
    chain.finish(t)
    return chain


def test_seats_whose_stocks_are_unseen_at_the_start_are_named_by_the_backs_seen_there_later() -> None:
    truth = read_log(SAMPLE / "events.jsonl")
    start = truth[0]
    assert isinstance(start, RoundStart)
    # Listed against the order round the table: naming unseen seats by that order would swap players.
    players = [(p.id, p.back) for p in reversed(start.players)]
    chain = _oracle_run(players, hide_backs_until=1.0)
    first = chain.events[0]
    assert isinstance(first, RoundStart) and first.t < 1.0  # the round started on the dealt table, not later
    assert {p.id: p.back for p in first.players} == {p.id: p.back for p in start.players}
    filmed = json.loads((SAMPLE / "render.json").read_text())["seconds"]
    r = compare(truth, chain.events, until=filmed)
    assert r["recall"] == 1.0 and r["precision"] == 1.0 and r["attribution"] == 1.0
    assert chain.calibration is not None
    assert {s.player: s.back for s in chain.calibration.seats} == {p.id: p.back for p in start.players}


def test_one_seat_unseen_at_the_start_is_named_by_its_own_backs_not_by_what_the_others_leave(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """p3's stock is unseen at the start and p2's blue back measures a blue-green a shade nearer green (e2e-s49/game00,
    real models: a black lattice measured a grey-blue, nearer blue, and the one seat with no back took black by
    elimination: two players' rounds swapped). p3's seat waits for its own backs, and green goes to the seat whose
    back is plainly green."""
    import vision.track
    from vision.synth.faces import BACK_COLOURS
    from vision.table import colour_cost, colour_name

    measure = vision.track.back_colour
    green = np.array(BACK_COLOURS["green"], np.float64)

    def ambiguous(image: np.ndarray, quad: np.ndarray) -> tuple[float, float, float]:
        bgr = measure(image, quad)
        if colour_name(bgr) != "blue":
            return bgr
        for share in np.linspace(0.0, 1.0, 101):  # the least blend with green that costs green less than blue
            mixed = tuple(float(v) for v in (1 - share) * np.asarray(bgr) + share * green)
            if colour_cost(mixed, "green") < colour_cost(mixed, "blue"):
                return mixed  # type: ignore[return-value]
        raise AssertionError("no blend of the blue back with green reads green")

    monkeypatch.setattr(vision.track, "back_colour", ambiguous)
    truth = read_log(SAMPLE / "events.jsonl")
    start = truth[0]
    assert isinstance(start, RoundStart)
    chain = _oracle_run([(p.id, p.back) for p in start.players], hide_backs_until=1.0, of="p3")
    filmed = json.loads((SAMPLE / "render.json").read_text())["seconds"]
    assert compare(truth, chain.events, until=filmed)["attribution"] == 1.0


def test_seats_with_no_back_seen_before_the_film_ends_are_named_in_table_order_and_the_review_says_so() -> None:
    start = read_log(SAMPLE / "events.jsonl")[0]
    assert isinstance(start, RoundStart)
    chain = _oracle_run([(p.id, p.back) for p in start.players], hide_backs_until=99.0)
    assert isinstance(chain.events[0], RoundStart) and isinstance(chain.events[-1], RoundEnd)
    assert any("named by their order at the table" in n for n in chain.notes)
    # The log says so too, as the round starts (the dashboard shows it live), and the referee takes it as it is.
    # (The sample's cards, 21 px wide at 640x360, get the round's other note, that they are small.)
    notes = [e for e in chain.events if isinstance(e, Correction) and (e.action, e.by) == ("note", "camera")]
    note = next(e for e in notes if "named by their order at the table" in e.reason)
    assert note.t == chain.events[0].t and all(p.id in note.reason for p in start.players)
    seqs = [e.seq for e in chain.events]
    assert seqs == sorted(set(seqs))
    assert replay(chain.events).flags == replay([e for e in chain.events if e not in notes]).flags


def test_a_score_not_exact_says_which_of_its_parts_is_off() -> None:
    from referee.events import parse_lines

    start = (
        '{"type":"round_start","t":0,"rules":"racing-demon","players":[{"id":"a","demon":13},{"id":"b","demon":13}]}'
    )
    truth = list(parse_lines([start, '{"type":"play","t":5.0,"player":"a","card":"AS","pile":"f1","from":"demon"}']))
    chain = list(parse_lines([start, '{"type":"play","t":5.3,"player":"b","card":"AS","pile":"f1","from":"line:2"}']))
    r = compare(truth, chain)
    assert r["scores_exact"] == 0
    assert r["score_misses"] == {"a": {"played": -1, "demon_left": 1}, "b": {"played": 1}}
    assert compare(truth, truth)["score_misses"] == {}


def test_injected_illegal_plays_are_scored_apart_from_conflicts_between_players() -> None:
    from referee.events import parse_lines

    truth = list(parse_lines([START,
        '{"type":"play","t":5.0,"player":"a","card":"AS","pile":"f1","from":"demon"}',
        '{"type":"play","t":5.2,"player":"b","card":"AS","pile":"f1","from":"demon"}',
        '{"type":"play","t":9.0,"player":"a","card":"3S","pile":"f1","from":"line:1"}']))  # fmt: skip
    wrong_rank = truth[3].seq  # injected; b's Ace is a conflict that arose between the players
    chain = list(parse_lines([START,
        '{"type":"play","t":5.3,"player":"a","card":"AS","pile":"f1","from":"demon"}',
        '{"type":"play","t":9.2,"player":"a","card":"3S","pile":"f1","from":"line:1"}']))  # fmt: skip
    r = compare(truth, chain, injected=[wrong_rank])
    assert (r["truth_flags"], r["flags_found"], r["flags_missed"]) == (2, 1, ["conflict AS"])
    assert (r["injected"], r["injected_flagged"], r["injected_missed"]) == (1, 1, [])
    r = compare(truth, chain[:2], injected=[wrong_rank])
    assert (r["injected"], r["injected_flagged"], r["injected_missed"]) == (1, 0, ["wrong-rank 3S"])
    assert compare(truth, chain)["injected"] == 0
