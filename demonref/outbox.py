"""The rig's outbox: events are written to disk before they are sent, and sent again after a network loss.

The dashboard's ingest is idempotent by ``seq``, so re-sending is always safe. ``Outbox.put`` appends to
``outbox.jsonl`` (flushed); ``Outbox.flush`` posts everything after the last acknowledged ``seq`` and records
the new acknowledgement in ``outbox.acked`` only once the server has stored it. A rig restarted after a crash
picks up where the acknowledgements stop.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee.events import Event, dumps

Post = Callable[[list[dict[str, Any]]], None]  # raises on failure


class Outbox:
    def __init__(self, folder: Path, post: Post, *, batch: int = 200) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.path = folder / "outbox.jsonl"
        self.acked_path = folder / "outbox.acked"
        self.post = post
        self.batch = batch
        self.failures = 0
        self.last_error: str | None = None
        self._next_try = 0.0

    @property
    def acked(self) -> int:
        """The highest ``seq`` the server has stored (-1: none)."""
        try:
            return int(self.acked_path.read_text().strip() or -1)
        except (FileNotFoundError, ValueError):
            return -1

    def put(self, event: Event) -> None:
        with self.path.open("a", encoding="utf-8") as fh:
            fh.write(dumps(event) + "\n")
            fh.flush()

    def pending(self) -> list[dict[str, Any]]:
        if not self.path.exists():
            return []
        acked = self.acked
        out = []
        for line in self.path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                body = json.loads(line)
                if body["seq"] > acked:
                    out.append(body)
        return out

    def flush(self, now: float | None = None) -> int:
        """Sends what is pending (in batches); returns how many were acknowledged. A failure backs off
        (1, 2, 4 … 30 s) and keeps everything for the next call."""
        now = time.monotonic() if now is None else now
        if now < self._next_try:
            return 0
        sent = 0
        pending = self.pending()
        for i in range(0, len(pending), self.batch):
            chunk = pending[i : i + self.batch]
            try:
                self.post(chunk)
            except Exception as exc:  # any network or server failure: keep it and retry later
                self.failures += 1
                self.last_error = f"{type(exc).__name__}: {exc}"
                self._next_try = now + min(30.0, 2.0 ** min(self.failures - 1, 5))
                return sent
            tmp = self.acked_path.with_suffix(".tmp")
            tmp.write_text(str(chunk[-1]["seq"]))
            tmp.replace(self.acked_path)
            sent += len(chunk)
        self.failures = 0
        self.last_error = None
        return sent


def http_poster(server: str, table: str, token: str, timeout: float = 5.0) -> Post:
    """Posts event batches to ``server``'s ingest endpoint with the table's rig token."""
    import httpx

    url = f"{server.rstrip('/')}/api/tables/{table}/events"
    client = httpx.Client(timeout=timeout, headers={"Authorization": f"Bearer {token}"})

    def post(events: list[dict[str, Any]]) -> None:
        response = client.post(url, json=events)
        if response.status_code >= 400:
            raise RuntimeError(f"{url} answered {response.status_code}: {response.text[:200]}")

    return post


class PictureSender:
    """Sends the rig's pictures beside its events, from a thread of its own so the camera never waits: the
    latest annotated frame (only the newest is worth sending; a failed one is dropped) and a picture per
    flagged event (kept and retried until the server has it, as it is also saved on the rig's disk)."""

    def __init__(self, server: str, table: str, token: str, *, timeout: float = 3.0, retries: int = 20) -> None:
        import threading

        import httpx

        self.base = f"{server.rstrip('/')}/api/tables/{table}"
        self.client = httpx.Client(timeout=timeout, headers={"Authorization": f"Bearer {token}",
                                                             "Content-Type": "image/jpeg"})  # fmt: skip
        self.retries = retries
        self._latest: bytes | None = None
        self._thumbs: list[tuple[int, bytes, int]] = []  # (seq, jpeg, tries)
        self._wake = threading.Condition()
        self._closing = False
        self.sent_frames = 0
        self.sent_thumbs = 0
        self.last_error: str | None = None
        self._thread = threading.Thread(target=self._run, name="pictures", daemon=True)
        self._thread.start()

    def frame(self, jpeg: bytes) -> None:
        with self._wake:
            self._latest = jpeg
            self._wake.notify()

    def thumb(self, seq: int, jpeg: bytes) -> None:
        with self._wake:
            self._thumbs.append((seq, jpeg, 0))
            self._wake.notify()

    def close(self, timeout: float = 5.0) -> None:
        """Stops after a last try at the pictures still waiting (at most ``timeout`` seconds)."""
        with self._wake:
            self._closing = True
            self._wake.notify()
        self._thread.join(timeout)
        self.client.close()

    def _put(self, path: str, jpeg: bytes) -> bool:
        try:
            response = self.client.put(f"{self.base}/{path}", content=jpeg)
        except Exception as exc:  # the network is down: the caller keeps or drops the picture
            self.last_error = f"{type(exc).__name__}: {exc}"
            return False
        if response.status_code >= 400:
            self.last_error = f"{path}: {response.status_code} {response.text[:120]}"
            return False
        return True

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._closing and self._latest is None and not self._thumbs:
                    self._wake.wait()
                thumbs, self._thumbs = self._thumbs, []
                latest, self._latest = self._latest, None
                closing = self._closing
            failed = []
            for seq, jpeg, tries in thumbs:
                if self._put(f"flags/{seq}/thumb", jpeg):
                    self.sent_thumbs += 1
                elif tries + 1 < self.retries and not closing:
                    failed.append((seq, jpeg, tries + 1))
            if latest is not None and not closing and self._put("frame", latest):
                self.sent_frames += 1
            if closing:
                return
            if failed:
                with self._wake:
                    self._thumbs = failed + self._thumbs
                    self._wake.wait(1.0)  # give the outbox time to deliver the flagged events
