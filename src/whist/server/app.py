"""The web app: ``create_app(settings)`` wires the database, the live tables, the API and the pages."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from starlette.middleware.sessions import SessionMiddleware

import whist
from whist.server import api_players, api_tables
from whist.server.db import Store
from whist.server.hub import Hub
from whist.server.settings import ServerSettings

STATIC = Path(__file__).with_name("static")
# Pages are static files; each reads what it shows from the API.
PAGES = {"/": "index.html", "/table/{table_id}": "table.html", "/replay/{table_id}": "replay.html",
         "/history": "history.html", "/leaderboard": "leaderboard.html", "/sheet": "sheet.html",
         "/sheet/{sheet_id}": "sheet.html"}


def create_app(settings: ServerSettings) -> FastAPI:
    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        hub = Hub(store, settings.bot_delay, settings.grace_seconds)
        hub.resume()
        app.state.store, app.state.hub = store, hub
        hub.start_tables()
        yield
        hub.close()
        store.close()

    app = FastAPI(title="whist", version=whist.__version__, lifespan=lifespan)
    app.state.settings = settings
    app.add_middleware(SessionMiddleware, secret_key=settings.secret_key, session_cookie="whist_session",
                       same_site="lax", https_only=settings.https_only, max_age=180 * 24 * 3600)
    app.include_router(api_players.router)
    app.include_router(api_tables.router)
    for extra in _optional_routers():
        app.include_router(extra)

    @app.get("/health")
    def health() -> dict[str, Any]:
        with app.state.store.begin() as connection:
            connection.execute(text("SELECT 1"))
        return {"status": "ok", "version": whist.__version__, "tables": len(app.state.hub.tables)}

    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        path = STATIC / name
        if not path.exists():
            raise HTTPException(404, "No such page")
        return FileResponse(path, media_type="text/html")

    return page


def _optional_routers() -> list[Any]:
    """Routers of the history and score-sheet parts (kept in their own modules)."""
    import importlib

    routers = []
    for name in ("whist.server.api_history", "whist.server.api_sheets"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as missing:
            if missing.name != name:
                raise
            continue
        routers.append(module.router)
    return routers
