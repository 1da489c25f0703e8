"""The dashboard app factory: ``create_app(settings)``; nothing is opened at import."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from dashboard.hub import Hub
from dashboard.routes import adjudication, camera, ingest, pages, rounds, state
from dashboard.settings import Settings
from dashboard.storage import Store


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings.from_env()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        token = store.admin_token_first_start()
        if token is not None:
            app.state.first_token = token
            message = f"adjudicator token (shown once, stored hashed): {token}"
            if settings.token_file is not None:
                settings.token_file.write_text(token + "\n", encoding="utf-8")
            print(message, flush=True)
        app.state.hub = Hub(store)  # restores every table by replaying its log
        yield
        store.engine.dispose()

    app = FastAPI(title="demonref", version="0.1.0", lifespan=lifespan)
    for module in (state, ingest, camera, adjudication, rounds, pages):
        app.include_router(module.router)
    return app
