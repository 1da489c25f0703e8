"""The dashboard API inside TestClient: tables, ingest (idempotent, rig token), state, corrections (adjudicator
token), restart restores from the log."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from dashboard.app import create_app
from dashboard.settings import Settings
from referee.events import to_json
from referee.simulate import simulate


def bodies(seed: int = 3, inject: tuple[str, ...] = ()) -> list[dict]:  # type: ignore[type-arg]
    events = simulate(players=3, seed=seed, inject=inject).events
    out = []
    for e in events:
        body = to_json(e)
        if body["type"] == "round_start":  # a camera knows no deal
            for p in body["players"]:
                p.pop("layout", None)
        out.append(body)
    return out


def start(client: TestClient, settings: Settings, table: str = "t1") -> tuple[dict[str, str], dict[str, str]]:
    admin = {"Authorization": f"Bearer {settings.token_file.read_text().strip()}"}  # type: ignore[union-attr]
    r = client.post("/api/tables", json={"id": table, "name": "Table one"}, headers=admin)
    assert r.status_code == 201, r.text
    return admin, {"Authorization": f"Bearer {r.json()['rig_token']}"}


def test_ingest_state_and_tally(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        _admin, rig = start(client, settings)
        events = bodies(inject=("wrong-suit",))
        r = client.post("/api/tables/t1/events", json=events, headers=rig)
        assert r.status_code == 200 and r.json()["stored"] == len(events)
        state = client.get("/api/tables/t1/state").json()
        assert state["status"] in ("out", "ended") and len(state["players"]) == 3
        assert "wrong-suit" in {f["code"] for f in state["flags"]}
        # Sending the same events again stores nothing (idempotent by seq).
        again = client.post("/api/tables/t1/events", json=events, headers=rig).json()
        assert again == {"stored": 0, "skipped": len(events), "verdicts": []}
        assert client.get("/api/tables").json()[0]["events"] == len(events)


def test_tokens_are_required(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        admin, rig = start(client, settings)
        events = bodies()
        assert client.post("/api/tables/t1/events", json=events).status_code == 401
        assert (
            client.post("/api/tables/t1/events", json=events, headers={"Authorization": "Bearer nope"}).status_code
            == 403
        )
        assert client.post("/api/tables/t1/events", json=events, headers=admin).status_code == 403  # not the rig's
        assert client.post("/api/tables", json={"id": "t2", "name": "x"}, headers=rig).status_code == 403
        client.post("/api/tables/t1/events", json=events, headers=rig)
        fix = {"action": "end-round", "by": "desk", "reason": "test"}
        assert client.post("/api/tables/t1/corrections", json=fix).status_code == 401
        assert client.post("/api/tables/t1/corrections", json=fix, headers=rig).status_code == 403


@pytest.mark.parametrize("action", ["reject", "unassign"])
def test_correction_changes_the_score_and_is_audited(settings: Settings, action: str) -> None:
    with TestClient(create_app(settings)) as client:
        admin, rig = start(client, settings)
        events = bodies(seed=5)
        client.post("/api/tables/t1/events", json=events, headers=rig)
        before = {p["id"]: p for p in client.get("/api/tables/t1/state").json()["players"]}
        flagged = {f["seq"] for f in client.get("/api/tables/t1/state").json()["flags"]}
        play = [e for e in events if e["type"] == "play" and e["seq"] not in flagged][-1]  # nothing lies on it
        r = client.post("/api/tables/t1/corrections", headers=admin,
                        json={"action": action, "target": play["seq"], "by": "desk", "reason": "not theirs"})  # fmt: skip
        assert r.status_code == 200, r.text
        state = client.get("/api/tables/t1/state").json()
        after = {p["id"]: p for p in state["players"]}
        assert after[play["player"]]["played"] == before[play["player"]]["played"] - 1
        # Unassigned, the play is still on its pile, scored for nobody and flagged for the desk to give to someone.
        assert (play["seq"] in {f["seq"] for f in state["flags"]}) == (action == "unassign")
        audit = client.get("/api/tables/t1/audit").json()
        assert audit[0]["action"] == action and audit[0]["by"] == "desk"


def test_bad_events_are_refused_and_nothing_is_lost(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        _, rig = start(client, settings)
        events = bodies()
        client.post("/api/tables/t1/events", json=events[:5], headers=rig)
        bad = dict(events[5], card="ZZ")
        r = client.post("/api/tables/t1/events", json=[bad], headers=rig)
        assert r.status_code == 422 and "card" in r.json()["detail"]
        r = client.post("/api/tables/t1/events", json=[{"type": "play", "t": 1}], headers=rig)
        assert r.status_code == 422 and "seq" in r.json()["detail"]
        assert client.get("/api/tables/t1/state").json()["events"] == 5


def test_restart_restores_every_table_from_the_log(settings: Settings) -> None:
    events = bodies(seed=7, inject=("wrong-rank",))
    with TestClient(create_app(settings)) as client:
        _, rig = start(client, settings)
        client.post("/api/tables/t1/events", json=events, headers=rig)
        before = client.get("/api/tables/t1/state").json()
    with TestClient(create_app(settings)) as client:
        assert client.get("/api/tables/t1/state").json() == before
        assert client.get("/api/tables/zz/state").status_code == 404


def test_pages_and_stream(settings: Settings) -> None:
    with TestClient(create_app(settings)) as client:
        _, rig = start(client, settings)
        assert "EventSource" in client.get("/").text  # the tournament page follows every table
        assert [t["name"] for t in client.get("/api/tables").json()] == ["Table one"]
        assert "EventSource" in client.get("/tables/t1").text
        client.post("/api/tables/t1/events", json=bodies()[:3], headers=rig)
        with client.stream("GET", "/api/tables/t1/stream") as stream:
            first = next(line for line in stream.iter_lines() if line.startswith("data:"))
        assert '"table": "t1"' in first and '"events": 3' in first


def test_match_totals_across_rounds_and_replay_of_any_log(settings: Settings) -> None:
    from referee.game import replay
    from referee.scoring import tally
    from referee.simulate import simulate

    with TestClient(create_app(settings)) as client:
        _, rig = start(client, settings)
        first, second = bodies(seed=3), bodies(seed=4)
        offset = len(first)
        for b in second:
            b["seq"] += offset  # the rig keeps counting across rounds
        assert client.post("/api/tables/t1/events", json=first + second, headers=rig).status_code == 200
        m = client.get("/api/tables/t1/match").json()
        assert [r["round"] for r in m["rounds"]] == [1, 2]
        expected = {p.id: p.score for p in tally(replay(simulate(players=3, seed=3).events)).players}
        assert m["rounds"][0]["scores"] == expected
        assert m["totals"] == {p: m["rounds"][0]["scores"][p] + m["rounds"][1]["scores"][p] for p in expected}
        assert client.get("/tables/t1/match").status_code == 200 and client.get("/review").status_code == 200
        # The review scrubber: the table after any event of an uploaded log.
        log = bodies(seed=6)
        whole = client.post("/api/replay", json=log).json()
        early = client.post("/api/replay?upto=2", json=log).json()
        assert early["seq"] == 2 and len(early["foundations"]) <= len(whole["foundations"])
        bad = client.post("/api/replay", json=[{"type": "play", "t": 0}])
        assert bad.status_code == 422 and "event 0" in bad.json()["detail"]


def test_a_seq_past_what_the_database_holds_is_refused_not_a_server_error(settings: Settings) -> None:
    """Found by the schema test: a flag picture asked for by seq 2**63 was a 500 (SQLite's integers are 64-bit)."""
    with TestClient(create_app(settings)) as client:
        _admin, rig = start(client, settings)
        assert client.get(f"/api/tables/t1/flags/{2**63}/thumb.jpg").status_code == 422
        assert client.get("/api/tables/t1/flags/-1/thumb.jpg").status_code == 422
        body = {**bodies()[0], "seq": 2**63}
        r = client.post("/api/tables/t1/events", json=[body], headers=rig)
        assert r.status_code == 422 and "field 'seq'" in r.json()["detail"]


def test_camera_frame_and_flag_pictures(settings: Settings) -> None:
    import cv2
    import numpy as np

    jpeg = bytes(cv2.imencode(".jpg", np.zeros((4, 4, 3), np.uint8))[1].tobytes())
    with TestClient(create_app(settings)) as client:
        _admin, rig = start(client, settings)
        pic = {**rig, "Content-Type": "image/jpeg"}
        assert client.get("/api/tables/t1/frame.jpg").status_code == 404  # no camera yet
        assert client.get("/api/tables/t1/state").json()["camera"] is None
        assert client.put("/api/tables/t1/frame", content=jpeg).status_code == 401
        r = client.put("/api/tables/t1/frame", content=b"GIF89a", headers=pic)
        assert r.status_code == 415 and "JPEG" in r.json()["detail"]
        assert client.put("/api/tables/t1/frame", content=jpeg, headers=pic).status_code == 204
        got = client.get("/api/tables/t1/frame.jpg")
        assert got.content == jpeg and got.headers["content-type"] == "image/jpeg"
        assert client.get("/api/tables/t1/state").json()["camera"] == "/api/tables/t1/frame.jpg"
        events = bodies(inject=("wrong-suit",))
        flagged = None
        for body in events:
            r = client.post("/api/tables/t1/events", json=[body], headers=rig).json()
            flagged = flagged if flagged is not None or not r["verdicts"] else r["verdicts"][0]["seq"]
        assert flagged is not None
        # A picture of an event not stored yet waits (the rig retries); then it is shown with the flag.
        assert client.put(f"/api/tables/t1/flags/{len(events) + 5}/thumb", content=jpeg, headers=pic).status_code == 409
        assert client.put(f"/api/tables/t1/flags/{flagged}/thumb", content=jpeg, headers=pic).status_code == 204
        flags = {f["seq"]: f for f in client.get("/api/tables/t1/state").json()["flags"]}
        assert flags[flagged]["thumb"] == f"/api/tables/t1/flags/{flagged}/thumb.jpg"
        assert client.get(flags[flagged]["thumb"]).content == jpeg
    with TestClient(create_app(settings)) as client:  # after a restart: the picture is kept, the live frame not
        state = client.get("/api/tables/t1/state").json()
        assert state["camera"] is None
        assert {f["seq"]: f["thumb"] for f in state["flags"]}[flagged] is not None
