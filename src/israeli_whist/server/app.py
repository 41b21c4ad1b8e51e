"""The web app: ``create_app(settings)`` wires the database, the live tables, the API and the pages."""

from __future__ import annotations

import os
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Scope

import israeli_whist
from israeli_whist.server import (
    api_events,
    api_history,
    api_levels,
    api_players,
    api_reviews,
    api_rules,
    api_sheets,
    api_tables,
)
from israeli_whist.server.analyses import AnalysisJobs
from israeli_whist.server.bodylimit import BodyLimit
from israeli_whist.server.cluster import Cluster
from israeli_whist.server.db import Store, is_postgresql
from israeli_whist.server.events import DailyRules
from israeli_whist.server.eventscores import ScoreKeeper
from israeli_whist.server.guard import BrowserGuard
from israeli_whist.server.headers import install_security_headers
from israeli_whist.server.hints import Hints
from israeli_whist.server.hub import Hub
from israeli_whist.server.limits import Clock, RateLimiter
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.rematch import Rematches
from israeli_whist.server.replies import JSONReply, Refused, install_error_handlers
from israeli_whist.server.reviews import ReviewJobs
from israeli_whist.server.sessions import Sessions, install_sessions
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.thinking import make_thinkers
from israeli_whist.server.webapp import install_webapp

STATIC = Path(__file__).with_name("static")
# Pages are static files; each reads what it shows from the API.
PAGES = {"/": "index.html", "/table/{table_id}": "table.html", "/replay/{table_id}": "replay.html",
         "/history": "history.html", "/leaderboard": "leaderboard.html", "/sheet": "sheet.html",
         "/sheet/{sheet_id}": "sheet.html", "/offline": "offline.html", "/events": "events.html",
         "/event/{event_id}": "event.html", "/event/{event_id}/board/{number}": "board.html"}

# Pages and static files keep their names from one version to the next: a browser asks again each
# time (a 304 while a static file's ETag still matches) rather than guess how long its copy is good
# for, which after an upgrade would run an old script against the new server.
REVALIDATE = "no-cache"

# The app's icon (static/icons), for browsers that ask for /favicon.ico whatever the page links.
FAVICON = STATIC / "icons" / "favicon-32.png"


def create_app(settings: ServerSettings, clock: Clock = time.monotonic) -> FastAPI:
    """The app; ``clock`` times the rate limits and how long a session is trusted unread (a test's
    own clock moves time without sleeping)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        store = Store(settings.database_url)
        cluster = None
        if is_postgresql(settings.database_url):  # several nodes may share it: leases and messages
            cluster = Cluster(store, settings.database_url, settings.node_name, settings.lease_seconds)
            await cluster.start()
        hub = Hub(store, settings.bot_delay, settings.grace_seconds,
                  make_thinkers(settings.bot_workers, settings.bot_deadline, settings.ray_address,
                                settings.analysis_workers), cluster)
        hub.resume()
        app.state.store, app.state.hub = store, hub
        app.state.rematches = Rematches(hub, settings.max_open_tables)
        app.state.hints = Hints()  # the hints being worked out, one per person (hints.py)
        app.state.daily_rules = DailyRules(bot_level=settings.daily_bot_level)  # the daily event (events.py)
        app.state.event_scores = ScoreKeeper(store)  # events scored against their fields, kept (eventscores.py)
        app.state.sessions = sessions = Sessions(store, clock)
        sessions.start_sweeping()
        hub.start_tables()
        # Analyses and reviews share the analyses' lane and its slots; the reviews left unfinished
        # by the last run are taken up again.
        app.state.analyses = analyses = AnalysisJobs(hub.thinkers)
        app.state.reviews = reviews = ReviewJobs(store, analyses)
        reviews.resume()
        if cluster is not None:
            cluster.run_every(settings.lease_seconds / 3, hub.upkeep)
        yield
        await sessions.stop()
        await reviews.close()  # before the workers stop: its rows stay unfinished, for the next start
        hub.close()
        if cluster is not None:
            await cluster.stop()
        store.close()

    app = FastAPI(title="whist", version=israeli_whist.__version__, lifespan=lifespan, default_response_class=JSONReply)
    install_error_handlers(app)
    app.state.settings = settings
    app.state.limiter = RateLimiter(settings.rate_limits, clock)
    install_sessions(app, settings.secret_key, settings.https_only)
    # Replays and score sheets are tens of kilobytes of JSON: compressed for phones.
    app.add_middleware(GZipMiddleware, minimum_size=2048)
    # Outside the sessions: a request from another site's page is refused before anything is looked up.
    app.add_middleware(BrowserGuard, allowed=settings.allowed_origins)
    # Outside the guard: a body past the limit is refused before anything else reads it.
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    install_security_headers(app, settings.https_only)  # last: the outermost, round every answer (a 413 too)
    for part in (api_players, api_tables, api_history, api_reviews, api_sheets, api_rules, api_levels, api_events):
        app.include_router(part.router)

    @app.get("/health")
    def health() -> Response:
        """200 while this node can serve; 503, naming what is down, while it cannot (the database does
        not answer, or, in a cluster, the node does not hear the others), so that a load balancer
        sends nobody to it meanwhile."""
        hub = app.state.hub
        down = []
        try:
            with app.state.store.begin() as connection:
                connection.execute(text("SELECT 1"))
        except SQLAlchemyError:
            down.append("database")
        if hub.cluster is not None and not hub.cluster.messaging:
            down.append("messaging")
        body = {"status": "down" if down else "ok", "down": down, "version": israeli_whist.__version__,
                "tables": len(hub.tables), "node": None if hub.cluster is None else hub.cluster.node}
        return JSONReply(body, status_code=503 if down else 200)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> Response:
        return FileResponse(FAVICON, media_type="image/png", headers={"Cache-Control": REVALIDATE})

    install_webapp(app, STATIC, REVALIDATE)

    for path, page in PAGES.items():
        app.add_api_route(path, _page(page), include_in_schema=False)
    app.mount("/static", RevalidatedFiles(directory=STATIC), name="static")
    return app


class RevalidatedFiles(StaticFiles):
    """Static files with ``Cache-Control: no-cache`` (``REVALIDATE``)."""

    def file_response(self, full_path: Any, stat_result: os.stat_result, scope: Scope,
                      status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = REVALIDATE
        return response


def _page(name: str) -> Any:
    async def page() -> FileResponse:
        path = STATIC / name
        if not path.exists():
            raise Refused(404, Refusal.NOT_FOUND, "No such page")
        return FileResponse(path, media_type="text/html", headers={"Cache-Control": REVALIDATE})

    return page
