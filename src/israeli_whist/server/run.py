"""``whist serve``: the app on uvicorn, with JSON logs."""

from __future__ import annotations

import errno
import socket

import uvicorn

from israeli_whist.server.app import create_app
from israeli_whist.server.cluster import check_node_name
from israeli_whist.server.logs import log_config
from israeli_whist.server.settings import RateLimits, ServerSettings, shared_session_key
from israeli_whist.server.workers import default_worker_count


def run_server(host: str, port: int, database_url: str | None, grace: float, bot_delay: float,
               log_level: str = "info", secure_cookies: bool = False, rate_limits: RateLimits | None = None,
               max_open_tables: int | None = ServerSettings.max_open_tables, bot_workers: int | None = None,
               bot_deadline: float = ServerSettings.bot_deadline, ray_address: str | None = None,
               node_name: str | None = None, lease_seconds: float = ServerSettings.lease_seconds) -> None:
    """``bot_workers`` None: one worker process per core."""
    check_port(host, port)
    try:
        shared_session_key()
    except ValueError as error:
        raise CannotStart(str(error)) from None
    if bot_workers is None:
        bot_workers = default_worker_count()
    if ray_address:
        check_ray(ray_address)
    if node_name is not None:
        try:
            check_node_name(node_name)
        except ValueError as error:
            raise CannotStart(str(error)) from None
    settings = ServerSettings.default(database_url, grace_seconds=grace, bot_delay=bot_delay,
                                      https_only=secure_cookies, rate_limits=rate_limits or RateLimits(),
                                      max_open_tables=max_open_tables, bot_workers=bot_workers,
                                      bot_deadline=bot_deadline, ray_address=ray_address, node_name=node_name,
                                      lease_seconds=lease_seconds)
    thinking = (f"bots on the Ray cluster at {ray_address}" if ray_address else
                f"{bot_workers} bot worker processes" if bot_workers else "bots in threads of this process")
    print(f"whist: serving on http://{host}:{port}  (database: {safe_url(settings.database_url)}; {thinking})",
          flush=True)
    # uvicorn's own limit on a WebSocket message is the app's (its default, 16 MiB, would be read
    # whole before the app refused it): a larger frame closes the connection with code 1009.
    uvicorn.run(create_app(settings), host=host, port=port, log_config=log_config(log_level),
                ws_max_size=settings.max_message_bytes)


class CannotStart(Exception):
    """The server cannot start as asked: said in one line before anything starts."""


class CannotListen(CannotStart):
    """The address cannot be listened on (the port is taken, or needs privileges)."""


def check_port(host: str, port: int) -> None:
    """Bind the address once, as uvicorn will, so that a port in use is one clear line before anything
    starts, not a success line followed by uvicorn's error in the JSON log."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        with socket.create_server((host, port), family=family):  # SO_REUSEADDR, as uvicorn sets it
            pass
    except socket.gaierror as error:
        raise CannotListen(f"Cannot listen on {host}: {error.strerror}; give an address with --host") from None
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            raise CannotListen(f"Port {port} on {host} is already in use; choose another with --port "
                               f"(whist serve --port {port + 1 if port < 65535 else 8000})") from None
        raise CannotListen(f"Cannot listen on {host} port {port}: {error.strerror}; "
                           "choose another with --port or --host") from None


def check_ray(address: str) -> None:
    """A Ray address that is malformed or where nothing answers, refused before the server starts."""
    from israeli_whist.rl.raybackend import RayBackendError, check_reachable

    try:
        check_reachable(address, otherwise="leave out --ray-address for bot worker processes on this machine")
    except RayBackendError as error:
        raise CannotStart(str(error)) from None


def safe_url(url: str) -> str:
    """The database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url
