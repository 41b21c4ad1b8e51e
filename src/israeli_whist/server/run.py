"""``whist serve``: the app on uvicorn, with JSON logs."""

from __future__ import annotations

import errno
import fcntl
import signal
import socket
from types import FrameType
from typing import IO

import uvicorn
from fastapi import FastAPI

from israeli_whist.core.wording import count_text, needs_extra
from israeli_whist.server.app import create_app
from israeli_whist.server.cluster import check_node_name
from israeli_whist.server.db import is_postgresql, make_engine
from israeli_whist.server.logs import log_config
from israeli_whist.server.settings import RateLimits, ServerSettings, data_dir, shared_session_key
from israeli_whist.server.workers import default_worker_count

DATABASE_TIMEOUT = 10  # seconds to wait for the database's first answer


def run_server(host: str, port: int, database_url: str | None, grace: float, bot_delay: float,
               log_level: str = "info", secure_cookies: bool = False, rate_limits: RateLimits | None = None,
               max_open_tables: int | None = ServerSettings.max_open_tables, bot_workers: int | None = None,
               bot_deadline: float = ServerSettings.bot_deadline, ray_address: str | None = None,
               node_name: str | None = None, lease_seconds: float = ServerSettings.lease_seconds,
               allowed_origins: tuple[str, ...] = (), daily_bot_level: str = ServerSettings.daily_bot_level) -> None:
    """``bot_workers`` None: one worker process per core. Every option is checked before the line
    that says the server is serving: what cannot work is ``CannotStart``, said in one line."""
    if node_name is not None:
        try:
            check_node_name(node_name)
        except ValueError as error:
            raise CannotStart(str(error)) from None
    try:
        shared_session_key()
    except ValueError as error:
        raise CannotStart(str(error)) from None
    if bot_workers is None:
        bot_workers = default_worker_count()
    if ray_address:
        check_ray(ray_address)
    check_port(host, port)
    try:
        settings = ServerSettings.default(database_url, grace_seconds=grace, bot_delay=bot_delay,
                                          https_only=secure_cookies, rate_limits=rate_limits or RateLimits(),
                                          max_open_tables=max_open_tables, bot_workers=bot_workers,
                                          bot_deadline=bot_deadline, ray_address=ray_address, node_name=node_name,
                                          lease_seconds=lease_seconds, allowed_origins=allowed_origins,
                                          daily_bot_level=daily_bot_level)
    except OSError as error:  # the data folder, where the session key is kept
        raise CannotStart(f"Cannot use the data folder {data_dir()}: {error.strerror or error}; "
                          "set WHIST_DATA_DIR to a folder this user can write") from None
    check_database(settings.database_url)
    lock = hold_sqlite_file(settings.database_url)  # noqa: F841  (held until the process ends)
    thinking = (f"bots on the Ray cluster at {ray_address}" if ray_address else
                count_text(bot_workers, "bot worker process", "bot worker processes") if bot_workers else
                "bots in threads of this process")
    print(f"whist: serving on http://{host}:{port}  (database: {safe_url(settings.database_url)}; {thinking})",
          flush=True)
    serve_until_stopped(create_app(settings), host, port, log_level, settings.max_message_bytes)


def serve_until_stopped(app: FastAPI, host: str, port: int, log_level: str, max_message_bytes: int) -> None:
    """uvicorn, until Ctrl-C or SIGTERM. uvicorn stops gracefully on either, then raises the signal
    again under the handler it found: SIGTERM's default would end the process there, before its
    exit's clean-up (the bot workers' semaphores are then reported leaked). Here SIGTERM ends it
    as a normal exit does, with status 0, as Ctrl-C does.

    uvicorn's own limit on a WebSocket message is the app's (its default, 16 MiB, would be read
    whole before the app refused it): a larger frame closes the connection with code 1009."""
    previous = signal.signal(signal.SIGTERM, _exit_now)
    try:
        uvicorn.run(app, host=host, port=port, log_config=log_config(log_level), ws_max_size=max_message_bytes)
    finally:
        signal.signal(signal.SIGTERM, previous)


def _exit_now(_signal: int, _frame: FrameType | None) -> None:
    raise SystemExit(0)


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


def hold_sqlite_file(url: str) -> IO[bytes] | None:
    """A SQLite file is one server's: each process would play its tables from its own memory and
    store the same actions beside the other's. The second ``whist serve`` on a file is refused in
    one line, while the first runs (an advisory lock on a file beside it, which the system lets go
    of when the process ends, even killed). Several servers share one PostgreSQL database instead."""
    if is_postgresql(url):
        return None
    path = url.split("///", 1)[-1]
    if not path or path == ":memory:":
        return None
    lock = open(f"{path}.serving", "wb")  # noqa: SIM115  (open for the process's life)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        raise CannotStart(f"Another whist serve already uses the database {path}: one SQLite file serves one "
                          "server. Stop that one first, or run several servers on one PostgreSQL database "
                          "(--database-url postgresql://...; docs/deploy.md)") from None
    return lock


def check_ray(address: str) -> None:
    """Ray installed, and a cluster where ``address`` points, before the server starts: a malformed
    address, a missing extra or a cluster that does not answer is one line, not a failed start."""
    from israeli_whist.rl.raybackend import RayBackendError, RaySession, address_endpoint, check_reachable, require_ray

    try:
        require_ray("--ray-address")
        if address_endpoint(address) is not None:
            check_reachable(address, otherwise="leave out --ray-address for bot worker processes on this machine")
        else:  # auto or local: Ray finds the cluster itself, so only connecting tells
            session = RaySession(address)
            session.connect()
            session.close()
    except RayBackendError as error:
        raise CannotStart(str(error)) from None


def check_database(url: str, timeout: int = DATABASE_TIMEOUT) -> None:
    """The database URL read by SQLAlchemy, its driver installed and the database answering
    within ``timeout`` seconds, before the server starts."""
    from sqlalchemy import text
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    try:
        parsed = make_url(url)
        parsed.get_dialect()
    except (ArgumentError, NoSuchModuleError, ValueError):
        raise CannotStart(f"--database-url {safe_url(url)} is not a database URL that SQLAlchemy reads "
                          "(postgresql://user:pass@host/whist, or sqlite:////path/to/whist.db)") from None
    tried = url
    if is_postgresql(url):
        try:
            import psycopg  # noqa: F401  (the driver make_engine uses)
        except ImportError:
            raise CannotStart(needs_extra("A PostgreSQL --database-url", "postgres")) from None
        # libpq's own parameter: a host that never answers is a wait of seconds, not of minutes.
        if parsed.host and "connect_timeout" not in parsed.query:
            tried = parsed.update_query_dict({"connect_timeout": str(timeout)}).render_as_string(hide_password=False)
    try:
        engine = make_engine(tried)
        try:
            with engine.connect() as connection:
                connection.execute(text("SELECT 1"))
        finally:
            engine.dispose()
    except ImportError as error:  # another database's driver
        raise CannotStart(f"The driver of --database-url {safe_url(url)} is not installed ({error})") from None
    except (SQLAlchemyError, OSError) as error:
        reason = " ".join(str(getattr(error, "orig", None) or error).split())
        raise CannotStart(f"Cannot open the database {safe_url(url)}: {reason}") from None


def safe_url(url: str) -> str:
    """The database URL without its password, for the log."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        credentials, host = rest.rsplit("@", 1)
        return f"{scheme}://{credentials.split(':', 1)[0]}:***@{host}"
    return url
