"""Cards, rules and the event log: notation, round trips, the schema, and errors that name line and field."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from referee.cards import JOKER, STANDARD_52, Card, CardError, Colour, deck
from referee.events import EventError, dumps, parse_lines, read_log, to_json
from referee.rules import PRESETS, Rules, RulesError
from referee.simulate import simulate

SCHEMA = json.loads((Path(__file__).parents[2] / "referee" / "schema" / "event-log.schema.json").read_text())


@pytest.mark.parametrize(("text", "rank", "suit", "out"), [
    ("AS", 1, "S", "AS"), ("10D", 10, "D", "10D"), ("TD", 10, "D", "10D"), ("qh", 12, "H", "QH"),
    ("KC", 13, "C", "KC"), (" 7h ", 7, "H", "7H"),
])  # fmt: skip
def test_card_notation(text: str, rank: int, suit: str, out: str) -> None:
    c = Card.parse(text)
    assert (c.rank, c.suit.value if c.suit else None, str(c)) == (rank, suit, out)
    assert eval(repr(c)) == c  # the repr rebuilds the card


@pytest.mark.parametrize("bad", ["", "1", "ZZ", "11H", "AX", "10", "KKK", "0S"])
def test_bad_cards(bad: str) -> None:
    with pytest.raises(CardError, match="card"):
        Card.parse(bad)


def test_decks_and_colours() -> None:
    assert len(set(deck())) == 52 and deck(jokers=True)[-2:] == (JOKER, JOKER)
    assert Card.parse("JK").is_joker and str(JOKER) == "JK" and JOKER.colour is None
    assert Card.parse("3D").colour is Colour.RED and Card.parse("3S").colour is Colour.BLACK
    assert [str(c) for c in STANDARD_52[:3]] == ["AC", "2C", "3C"]


def test_presets_follow_rules_md() -> None:
    rd, nerts, bonus, alt, fly = (
        PRESETS[n] for n in ("racing-demon", "nerts", "nerts-bonus", "nerts-alt", "flying-demon")
    )
    assert (rd.points.per_card, rd.points.per_demon_card, rd.points.out_bonus, rd.points.king_bonus) == (1, -1, 10, 5)
    assert (nerts.points.per_demon_card, nerts.points.out_bonus, nerts.points.king_bonus) == (-2, 0, 0)
    assert (bonus.points.per_demon_card, bonus.points.out_bonus) == (-1, 25)
    assert (alt.points.per_demon_card, alt.refill.value, alt.ladder_move.value) == (-2, "demon", "single")
    assert (fly.demon_size, fly.foundation_mode.value) == (21, "flying-demon")
    assert (rd.demon_size, rd.line_size, rd.stock_draw, rd.conflict_window) == (13, 4, 3, 1.0)


def test_rule_options_round_trip() -> None:
    r = Rules.preset("nerts").with_options(
        {"demon_size": 11, "stock_draw": 1, "points": {"out_bonus": 5}, "jokers": True}
    )
    assert Rules.preset("nerts").with_options(r.to_options()) == r
    assert Rules.preset("racing-demon").to_options() == {}


@pytest.mark.parametrize(("options", "message"), [
    ({"demon_sise": 3}, "unknown rule option 'demon_sise'"),
    ({"refill": "hand"}, "bad value 'hand' for rule option 'refill' (one of demon, any)"),
    ({"demon_size": "13"}, "bad value '13'"),
    ({"line_size": 7}, "line_size must be 3, 4 or 5"),
    ({"jokers": 1}, "bad value 1"),
    ({"points": {"bonus": 1}}, "unknown points field"),
    (["demon_size"], "rule options must be an object of option: value, not list"),
])  # fmt: skip
def test_bad_rule_options(options: dict, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")):
        Rules.preset("racing-demon").with_options(options)


def test_unknown_preset() -> None:
    with pytest.raises(RulesError, match="unknown rules preset 'snap'; known: racing-demon, nerts"):
        Rules.preset("snap")


START = '{"type": "round_start", "t": 0, "rules": "racing-demon", "players": [{"id": "a", "demon": 13}]}'


@pytest.mark.parametrize(("line", "message"), [
    ("{not json", "line 2: not valid JSON"),
    ("[1, 2]", "line 2: expected a JSON object, got list"),
    ('{"t": 1}', "line 2: field 'type': missing"),
    ('{"type": "slap", "t": 1}', "line 2: field 'type': unknown event type 'slap'"),
    ('{"type": "play", "player": "a", "card": "AS", "pile": "1"}', "line 2: field 't': missing"),
    ('{"type": "play", "t": "soon", "player": "a", "card": "AS", "pile": "1"}', "line 2: field 't': expected a number"),
    ('{"type": "play", "t": 1, "player": "a", "card": "1Z", "pile": "1"}', "line 2: field 'card': unknown card '1Z'"),
    ('{"type": "play", "t": 1, "player": "a", "pile": "1"}', "line 2: field 'card': missing"),
    ('{"type": "play", "t": 1, "player": "a", "card": "AS"}', "line 2: field 'pile': missing"),
    ('{"type": "play", "t": 1, "player": "a", "card": "AS", "pile": "1", "from": "hand"}', "line 2: field 'from': expected"),
    ('{"type": "ladder", "t": 1, "player": "a", "card": "AS", "from": "demon", "to": "waste"}', "line 2: field 'to': expected 'line:N'"),
    ('{"type": "correction", "t": 1, "action": "undo", "by": "x"}', "line 2: field 'action': unknown correction 'undo'"),
    ('{"type": "correction", "t": 1, "action": "reject", "by": "x"}', "line 2: field 'target': missing"),
    ('{"type": "correction", "t": 1, "action": "reject", "by": "x", "target": 5}', "line 2: field 'target': must name an earlier"),
    ('{"type": "play", "t": 1, "seq": 0, "player": "a", "card": "AS", "pile": "1"}', "line 2: field 'seq': duplicate seq 0"),
])  # fmt: skip
def test_malformed_lines_name_line_and_field(line: str, message: str) -> None:
    with pytest.raises(EventError) as info:
        list(parse_lines([START, line]))
    assert str(info.value).startswith(message)


@pytest.mark.parametrize(("players", "message"), [
    ('[]', "field 'players': expected a non-empty list"),
    ('[{"id": "a"}]', "field 'players[0].demon': missing"),
    ('[{"id": "a", "demon": -1}]', "field 'players[0].demon': must be >= 0"),
    ('[{"id": "a", "demon": 1}, {"id": "a", "demon": 1}]', "field 'players[1].id': duplicate player id 'a'"),
])  # fmt: skip
def test_malformed_round_start(players: str, message: str) -> None:
    with pytest.raises(EventError, match=message.replace("[", r"\[").replace("]", r"\]")):
        list(parse_lines([f'{{"type": "round_start", "t": 0, "rules": "racing-demon", "players": {players}}}']))


def test_seq_defaults_to_line_index_and_extras_survive() -> None:
    lines = [
        START,
        "",
        '{"type": "play", "t": 1, "player": "a", "card": "TS", "pile": 7, "frame": 31, "confidence": 0.9}',
    ]
    events = list(parse_lines(lines))
    assert [e.seq for e in events] == [0, 2]
    out = to_json(events[1])
    assert out["card"] == "10S" and out["pile"] == "7" and out["frame"] == 31 and out["confidence"] == 0.9


def test_simulated_logs_round_trip_and_match_the_schema(tmp_path: Path) -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    for seed, preset in enumerate(PRESETS):
        rules = Rules.preset(preset).with_options({"jokers": seed % 2 == 0})
        result = simulate(players=2 if preset == "flying-demon" else 5, seed=seed, rules=rules, inject=("false-out",))
        path = tmp_path / f"{preset}.jsonl"
        path.write_text("".join(dumps(e) + "\n" for e in result.events))
        for line in path.read_text().splitlines():
            errors = list(validator.iter_errors(json.loads(line)))
            assert not errors, (line[:120], errors[0].message)
        again = read_log(path)
        assert [dumps(e) for e in again] == [dumps(e) for e in result.events]


def test_schema_rejects_what_the_parser_rejects() -> None:
    validator = jsonschema.Draft202012Validator(SCHEMA)
    assert list(validator.iter_errors({"type": "play", "t": 1, "card": "ZZ", "pile": "a"}))
    assert list(validator.iter_errors({"type": "ladder", "t": 1, "player": "a", "card": "AS", "from": "demon"}))
    assert not list(validator.iter_errors({"type": "play", "t": 1, "card": "td", "pile": 3, "frame": 9}))


def test_a_camera_log_with_unattributed_plays_and_its_own_corrections_matches_the_schema() -> None:
    # What `demonref review` writes: a play nobody could be credited with (player null, with its candidates), and
    # the camera's corrections of it and of misread cards.
    validator = jsonschema.Draft202012Validator(SCHEMA)
    lines = [
        '{"seq": 0, "t": 0, "type": "round_start", "rules": "racing-demon", "players": [{"id": "a", "demon": 13}]}',
        '{"seq": 1, "t": 1.5, "type": "play", "player": null, "card": "AS", "pile": "f1", "candidates": ["a", "b"]}',
        '{"seq": 2, "t": 2, "type": "correction", "action": "reassign", "by": "camera", "target": 1, "player": "a"}',
        '{"seq": 3, "t": 3, "type": "correction", "action": "fix-card", "by": "camera", "target": 1, "card": "AC"}',
        '{"seq": 4, "t": 4, "type": "correction", "action": "accept", "by": "camera", "target": 1}',
        '{"seq": 5, "t": 5, "type": "correction", "action": "unassign", "by": "camera", "target": 1}',
    ]
    events = list(parse_lines(lines))
    for e in events:
        errors = list(validator.iter_errors(to_json(e)))
        assert not errors, (dumps(e), errors[0].message)
    assert list(validator.iter_errors({"type": "play", "t": 1, "player": 3.5, "card": "AS", "pile": "f1"}))
