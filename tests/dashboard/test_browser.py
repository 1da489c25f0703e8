"""The live page in a real browser (Playwright driving Debian's chromium; no browser download): a play appears,
the tally shows when the round ends, an authenticated correction changes the score, a reload gets the full
state again, and an adjudicator corrects the record from the page itself."""

from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from support import free_port

from dashboard.app import create_app
from dashboard.settings import Settings

CHROMIUM = "/usr/bin/chromium"


def _jpeg() -> bytes:
    import cv2
    import numpy as np

    return bytes(cv2.imencode(".jpg", np.full((6, 8, 3), 90, np.uint8))[1].tobytes())


JPEG = _jpeg()  # an 8x6 picture


def chromium() -> str:
    """Debian's chromium, installed here when missing (root only); else the test is skipped."""
    if not Path(CHROMIUM).exists() and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-qq", "chromium"], env=env, capture_output=True, timeout=900)
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed and could not be installed here")
    return CHROMIUM


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, Settings]]:
    import uvicorn

    settings = Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", token_file=tmp_path / "token")
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(create_app(settings), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if srv.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", settings
    srv.should_exit = True
    thread.join(timeout=10)


def test_live_page_play_tally_and_correction(server: tuple[str, Settings]) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    url, settings = server
    admin = {"Authorization": f"Bearer {settings.token_file.read_text().strip()}"}  # type: ignore[union-attr]
    api = httpx.Client(base_url=url, timeout=10)
    rig_token = api.post("/api/tables", json={"id": "t1", "name": "Kitchen"}, headers=admin).json()["rig_token"]
    rig = {"Authorization": f"Bearer {rig_token}"}
    start = {"seq": 0, "t": 0, "type": "round_start", "rules": "racing-demon",
             "players": [{"id": "ann", "name": "Ann", "back": "red", "demon": 13},
                         {"id": "bob", "name": "Bob", "back": "blue", "demon": 13}]}  # fmt: skip
    assert api.post("/api/tables/t1/events", json=[start], headers=rig).status_code == 200
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(f"{url}/tables/t1")
        page.wait_for_selector("text=Kitchen")
        play = {"seq": 1, "t": 1.0, "type": "play", "player": "ann", "card": "AS", "pile": "p1", "from": "line:1"}
        api.post("/api/tables/t1/events", json=[play], headers=rig)
        page.wait_for_selector("[data-pile='p1']:has-text('AS')", timeout=5000)  # within a blink
        assert page.inner_text("[data-player='ann'] .score") != ""
        bad = {"seq": 2, "t": 2.0, "type": "play", "player": "bob", "card": "3H", "pile": "p2", "from": "waste"}
        api.post("/api/tables/t1/events", json=[bad, {"seq": 3, "t": 3.0, "type": "round_end"}], headers=rig)
        page.wait_for_selector("#tally.shown", timeout=5000)
        page.wait_for_selector("#flags li:has-text('not-an-ace')", timeout=5000)
        # The rig's camera view and the flag's picture appear on the page.
        jpeg = {**rig, "Content-Type": "image/jpeg"}
        assert api.put("/api/tables/t1/frame", content=JPEG, headers=jpeg).status_code == 204
        assert api.put("/api/tables/t1/flags/2/thumb", content=JPEG, headers=jpeg).status_code == 204
        page.wait_for_selector("#camera-box.shown", timeout=5000)
        page.wait_for_function("document.querySelector('#camera').naturalWidth === 8", timeout=5000)
        page.wait_for_function(
            "document.querySelector(\"#flags li[data-seq='2'] img.thumb\")?.naturalWidth === 8", timeout=5000
        )
        before = page.inner_text("[data-player='ann'] .score")
        fix = {
            "action": "reassign",
            "target": 1,
            "player": "bob",
            "by": "adjudicator",
            "reason": "video shows Bob's hand",
        }
        assert api.post("/api/tables/t1/corrections", json=fix).status_code == 401  # spectators cannot
        assert api.post("/api/tables/t1/corrections", json=fix, headers=admin).status_code == 200
        page.wait_for_function(
            f"document.querySelector(\"[data-player='ann'] .score\").textContent !== '{before}'", timeout=5000
        )
        page.reload()  # a client that reconnects gets the full snapshot
        page.wait_for_selector("[data-pile='p1']:has-text('AS')", timeout=5000)
        page.wait_for_selector("#tally.shown", timeout=5000)
        # The tournament page shows every table; the match page the round's totals.
        page.goto(f"{url}/")
        page.wait_for_selector("[data-table='t1']:has-text('Kitchen')", timeout=5000)
        page.goto(f"{url}/tables/t1/match")
        page.wait_for_selector("th.total[data-player='bob']", timeout=5000)
        browser.close()


def test_review_page_scrubs_a_log(server: tuple[str, Settings], tmp_path: Path) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    from referee.events import dumps
    from referee.simulate import simulate

    url, _ = server
    log = tmp_path / "events.jsonl"
    log.write_text("".join(dumps(e) + "\n" for e in simulate(players=3, seed=5).events))
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(f"{url}/review")
        page.set_input_files("#log", str(log))
        page.wait_for_selector("#where:has-text('ended')", timeout=5000)  # the whole round at first
        end_piles = page.locator(".pile").count()
        page.eval_on_selector("#scrub", "el => { el.value = 1; el.dispatchEvent(new Event('input')); }")
        page.wait_for_selector("#where:has-text('event 1 ')", timeout=5000)
        assert page.locator(".pile").count() < end_piles
        browser.close()


def test_setup_page_makes_a_table_and_the_rig_command(server: tuple[str, Settings]) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    url, settings = server
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(f"{url}/setup")
        page.wait_for_selector("[data-option='demon_size']")
        page.select_option("#preset", "nerts")
        page.fill("[data-option='demon_size']", "11")
        page.fill("#token", "wrong")
        page.click("button[type=submit]")
        page.wait_for_selector("#error:has-text('adjudicator token is wrong')", timeout=5000)
        page.fill("#token", settings.token_file.read_text().strip())  # type: ignore[union-attr]
        page.click("button[type=submit]")
        page.wait_for_selector("#done:not([hidden])", timeout=5000)
        command = page.inner_text("#command")
        assert '--players "Ann:red,Bob:blue,Cat:green,Dan:black"' in command
        assert "--rules nerts" in command and "-o demon_size=11" in command
        assert httpx.get(f"{url}/api/tables").json()[0]["id"] == "table1"
        browser.close()


def test_an_adjudicator_corrects_the_record_from_the_live_page(server: tuple[str, Settings]) -> None:
    playwright = pytest.importorskip("playwright.sync_api")
    url, settings = server
    admin = {"Authorization": f"Bearer {settings.token_file.read_text().strip()}"}  # type: ignore[union-attr]
    api = httpx.Client(base_url=url, timeout=10)
    made = api.post("/api/tables", json={"id": "t1", "name": "Final"}, headers=admin).json()
    rig = {"Authorization": f"Bearer {made['rig_token']}"}
    events = [
        {"seq": 0, "t": 0, "type": "round_start", "rules": "racing-demon",
         "players": [{"id": "ann", "name": "Ann", "back": "red", "demon": 13},
                     {"id": "bob", "name": "Bob", "back": "blue", "demon": 13}]},
        # the camera could not tell whose Ace this was: Ann's or Bob's
        {"seq": 1, "t": 1.0, "type": "play", "player": None, "card": "AS", "pile": "p1", "candidates": ["bob", "ann"]},
        {"seq": 2, "t": 2.0, "type": "play", "player": "ann", "card": "3H", "pile": "p2", "from": "waste"},
    ]  # fmt: skip
    assert api.post("/api/tables/t1/events", json=events, headers=rig).status_code == 200
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=["--no-sandbox"])
        page = browser.new_page()
        page.goto(f"{url}/tables/t1")
        page.wait_for_selector("#flags li[data-seq='1']:has-text('unattributed')", timeout=5000)
        assert not page.is_visible("#flags li[data-seq='1'] .fix")  # a spectator sees no controls
        page.click("#adjudicate summary")
        page.fill("#token", "not the token")
        page.click("#flags li[data-seq='2'] button[data-act='reject']")
        page.wait_for_selector("#adj-error:has-text('adjudicator token is wrong')", timeout=5000)
        assert page.is_visible("#flags li[data-seq='2']")  # nothing changed
        page.fill("#token", settings.token_file.read_text().strip())  # type: ignore[union-attr]
        page.fill("#by", "desk")
        # The candidates are offered first; Bob is picked and the flag goes, the play scoring for him.
        assert page.locator("#flags li[data-seq='1'] .who option").first.get_attribute("value") == "bob"
        page.fill("#reason", "the video shows Bob's hand")
        page.click("#flags li[data-seq='1'] button[data-act='reassign']")
        page.wait_for_selector("#flags li[data-seq='1']", state="detached", timeout=5000)
        page.wait_for_selector(
            "#audit li:has-text(\"desk: event 1 is Bob's (the video shows Bob's hand)\")", timeout=5000
        )
        assert page.inner_text("[data-player='bob'] td:nth-child(2)") == "1"
        # A card that is no card is refused with the referee's reason, and the flag stays.
        page.fill("#flags li[data-seq='2'] input.card", "ZZ")
        page.click("#flags li[data-seq='2'] button[data-act='fix-card']")
        page.wait_for_selector("#adj-error:has-text('ZZ')", timeout=5000)
        page.click("#flags li[data-seq='2'] button[data-act='reject']")
        page.wait_for_selector("#flags li[data-seq='2']", state="detached", timeout=5000)
        # A demon counted at the table.
        page.select_option("#demon-player", "ann")
        page.fill("#demon-count", "5")
        page.click("#demon-form button")
        page.wait_for_selector("[data-player='ann'] td:nth-child(4):text-is('5')", timeout=5000)
        audit = api.get("/api/tables/t1/audit").json()
        assert [(c["action"], c["by"]) for c in audit] == [
            ("reassign", "desk"),
            ("reject", "desk"),
            ("set-demon", "desk"),
        ]
        browser.close()
