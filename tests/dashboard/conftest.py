"""The dashboard's storage under test: a SQLite file always, and PostgreSQL too when
``DEMONREF_TEST_POSTGRES`` names a server (e.g. postgresql+psycopg://demonref:demonref@127.0.0.1/demonref_test;
the role needs CREATEDB: each test gets a database of its own, dropped afterwards)."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from dashboard.settings import Settings

POSTGRES = os.environ.get("DEMONREF_TEST_POSTGRES")


@pytest.fixture(params=["sqlite", *(["postgresql"] if POSTGRES else [])])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Settings]:
    if request.param == "sqlite":
        yield Settings(database_url=f"sqlite:///{tmp_path / 'db.sqlite'}", token_file=tmp_path / "token")
        return
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    assert POSTGRES is not None
    name = f"demonref_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as c:
        c.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        url = make_url(POSTGRES).set(database=name).render_as_string(hide_password=False)
        yield Settings(database_url=url, token_file=tmp_path / "token")
    finally:
        with admin.connect() as c:
            c.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
