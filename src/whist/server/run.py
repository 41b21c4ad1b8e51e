"""``whist serve``: the app on uvicorn, with JSON logs."""

from __future__ import annotations

import uvicorn

from whist.server.app import create_app
from whist.server.logs import log_config
from whist.server.settings import RateLimits, ServerSettings


def run_server(host: str, port: int, database_url: str | None, grace: float, bot_delay: float,
               log_level: str = "info", secure_cookies: bool = False, rate_limits: RateLimits | None = None,
               max_open_tables: int | None = 10) -> None:
    settings = ServerSettings.default(database_url, grace_seconds=grace, bot_delay=bot_delay,
                                      https_only=secure_cookies, rate_limits=rate_limits or RateLimits(),
                                      max_open_tables=max_open_tables)
    print(f"whist: serving on http://{host}:{port}  (database: {safe_url(settings.database_url)})", flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, log_config=log_config(log_level))


def safe_url(url: str) -> str:
    """The database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url
