"""Dashboard settings (read once by the app factory; nothing is opened at import)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True, slots=True)
class Settings:
    database_url: str = "sqlite:///demonref.db"
    host: str = "127.0.0.1"
    port: int = 8000
    token_file: Path | None = None  # where the first-start adjudicator token is written (printed too)

    @staticmethod
    def from_env() -> Settings:
        return Settings(database_url=os.environ.get("DEMONREF_DATABASE_URL", "sqlite:///demonref.db"))
