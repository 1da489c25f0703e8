"""Storage: tables, rounds and the append-only event log (SQLAlchemy; SQLite by default, PostgreSQL by URL).

The log is the source of truth: a restart restores every table by replaying it.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    DateTime,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    UniqueConstraint,
    create_engine,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    name: Mapped[str] = mapped_column(String(200))
    rig_token_hash: Mapped[str] = mapped_column(String(64))
    created: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))


class RoundRow(Base):
    __tablename__ = "rounds"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    __table_args__ = (UniqueConstraint("table_id", "number"),)


class EventRow(Base):
    __tablename__ = "events"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    received: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=lambda: datetime.now(UTC))
    __table_args__ = (UniqueConstraint("round_id", "seq"),)


class ThumbRow(Base):
    """A rig's picture of the place a flagged event concerns (JPEG), kept with the round."""

    __tablename__ = "thumbs"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("rounds.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    jpeg: Mapped[bytes] = mapped_column(LargeBinary)
    __table_args__ = (UniqueConstraint("round_id", "seq"),)


class SecretRow(Base):
    __tablename__ = "secrets"
    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    hash: Mapped[str] = mapped_column(String(64))


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Store:
    """All database access."""

    def __init__(self, url: str) -> None:
        connect_args = {"check_same_thread": False} if url.startswith("sqlite") else {}
        self.engine: Engine = create_engine(url, connect_args=connect_args)
        Base.metadata.create_all(self.engine)
        self._session = sessionmaker(self.engine, expire_on_commit=False)

    @contextmanager
    def session(self) -> Iterator[Session]:
        with self._session() as s, s.begin():
            yield s

    def admin_token_first_start(self) -> str | None:
        """Makes the adjudicator token on first start (returned once, stored hashed); None afterwards."""
        with self.session() as s:
            if s.get(SecretRow, "adjudicator") is not None:
                return None
            token = secrets.token_urlsafe(24)
            s.add(SecretRow(name="adjudicator", hash=hash_token(token)))
            return token

    def check_admin(self, token: str) -> bool:
        with self.session() as s:
            row = s.get(SecretRow, "adjudicator")
            return row is not None and secrets.compare_digest(row.hash, hash_token(token))

    def create_table(self, table_id: str, name: str) -> str:
        token = secrets.token_urlsafe(24)
        with self.session() as s:
            s.add(TableRow(id=table_id, name=name, rig_token_hash=hash_token(token)))
        return token

    def check_rig(self, table_id: str, token: str) -> bool:
        with self.session() as s:
            row = s.get(TableRow, table_id)
            return row is not None and secrets.compare_digest(row.rig_token_hash, hash_token(token))

    def tables(self) -> list[tuple[str, str]]:
        with self.session() as s:
            return [(t.id, t.name) for t in s.scalars(select(TableRow).order_by(TableRow.created))]

    def current_round(self, table_id: str, *, new: bool = False) -> int:
        """The id of the table's latest round (a new one when ``new`` or when there is none)."""
        with self.session() as s:
            row = s.scalars(
                select(RoundRow).where(RoundRow.table_id == table_id).order_by(RoundRow.number.desc())
            ).first()
            if row is None or new:
                row = RoundRow(table_id=table_id, number=1 if row is None else row.number + 1)
                s.add(row)
                s.flush()
            return row.id

    def rounds(self, table_id: str) -> list[int]:
        with self.session() as s:
            return list(s.scalars(select(RoundRow.id).where(RoundRow.table_id == table_id).order_by(RoundRow.number)))

    def append(self, round_id: int, body: dict[str, Any]) -> bool:
        """Stores one event; False when that seq is already stored (ingest is idempotent)."""
        with self.session() as s:
            exists = s.scalars(
                select(EventRow.id).where(EventRow.round_id == round_id, EventRow.seq == body["seq"])
            ).first()
            if exists is not None:
                return False
            s.add(EventRow(round_id=round_id, seq=body["seq"], body=json.loads(json.dumps(body))))
            return True

    def event(self, round_id: int, seq: int) -> dict[str, Any] | None:
        with self.session() as s:
            row = s.scalars(select(EventRow).where(EventRow.round_id == round_id, EventRow.seq == seq)).first()
            return None if row is None else row.body

    def events(self, round_id: int) -> list[dict[str, Any]]:
        with self.session() as s:
            return [
                r.body for r in s.scalars(select(EventRow).where(EventRow.round_id == round_id).order_by(EventRow.seq))
            ]

    def put_thumb(self, round_id: int, seq: int, jpeg: bytes) -> None:
        """Stores (or replaces) the picture of event ``seq``."""
        with self.session() as s:
            row = s.scalars(select(ThumbRow).where(ThumbRow.round_id == round_id, ThumbRow.seq == seq)).first()
            if row is None:
                s.add(ThumbRow(round_id=round_id, seq=seq, jpeg=jpeg))
            else:
                row.jpeg = jpeg

    def thumb(self, round_id: int, seq: int) -> bytes | None:
        with self.session() as s:
            row = s.scalars(select(ThumbRow).where(ThumbRow.round_id == round_id, ThumbRow.seq == seq)).first()
            return None if row is None else row.jpeg

    def thumb_seqs(self, round_id: int) -> set[int]:
        with self.session() as s:
            return set(s.scalars(select(ThumbRow.seq).where(ThumbRow.round_id == round_id)))
