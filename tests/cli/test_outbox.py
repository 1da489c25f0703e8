"""The rig's outbox: nothing is lost while the network is down, nothing is sent twice once it is back, and
a restarted rig resumes from the server's last acknowledgement; the dashboard's ingest accepts the batches."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from demonref.outbox import Outbox
from referee.simulate import simulate


class Server:
    def __init__(self) -> None:
        self.up = True
        self.stored: list[int] = []

    def __call__(self, events: list[dict[str, Any]]) -> None:
        if not self.up:
            raise ConnectionError("network unreachable")
        self.stored.extend(e["seq"] for e in events)


def test_network_loss_then_replay(tmp_path: Path) -> None:
    events = simulate(players=3, seed=2).events[:40]
    server = Server()
    box = Outbox(tmp_path, server, batch=7)
    for e in events[:10]:
        box.put(e)
    assert box.flush(now=0) == 10
    server.up = False
    for e in events[10:25]:
        box.put(e)
    assert box.flush(now=1) == 0 and box.last_error and "unreachable" in box.last_error
    assert box.flush(now=1.5) == 0  # backing off: not even tried
    server.up = True
    assert box.flush(now=100) == 15
    # A new rig process on the same folder sends only what was never acknowledged.
    again = Outbox(tmp_path, server)
    for e in events[25:]:
        again.put(e)
    again.flush(now=0)
    assert server.stored == [e.seq for e in events]


def test_ingest_accepts_outbox_batches(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from dashboard.app import create_app
    from dashboard.settings import Settings

    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'd.db'}", token_file=tmp_path / "admin.txt"))
    with TestClient(app) as client:
        admin = (tmp_path / "admin.txt").read_text().strip()
        made = client.post(
            "/api/tables", json={"id": "t1", "name": "Table 1"}, headers={"Authorization": f"Bearer {admin}"}
        )
        rig = made.json()["rig_token"]

        def post(events: list[dict[str, Any]]) -> None:
            r = client.post("/api/tables/t1/events", json=events, headers={"Authorization": f"Bearer {rig}"})
            if r.status_code >= 400:
                raise RuntimeError(r.text)

        box = Outbox(tmp_path / "rig", post, batch=5)
        result = simulate(players=2, seed=4)
        for e in result.events[:12]:
            box.put(e)
        assert box.flush(now=0) == 12
        box.acked_path.write_text("-1")  # as if the acknowledgement had been lost: everything goes again
        assert box.flush(now=1) == 12
        state = client.get("/api/tables/t1/state").json()
        assert len(state["players"]) == 2
