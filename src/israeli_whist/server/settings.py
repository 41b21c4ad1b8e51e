"""Settings of the web app, with defaults for one person running it on a laptop."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from israeli_whist.server.origins import normal_origin


def data_dir() -> Path:
    """Where the database and the session key live: ``$WHIST_DATA_DIR``, else the XDG data folder."""
    explicit = os.environ.get("WHIST_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "whist"


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'whist.db'}"


LOG_LEVELS = ("debug", "info", "warning", "error")  # whist serve --log-level

SESSION_KEY_ENV = "WHIST_SESSION_KEY"
MIN_SESSION_KEY = 32


def shared_session_key() -> str | None:
    """``$WHIST_SESSION_KEY``: the key every node of a site signs cookies with, so that a session
    made on one node is good on the others (None where it is not set)."""
    key = os.environ.get(SESSION_KEY_ENV)
    if not key:
        return None
    if len(key) < MIN_SESSION_KEY:
        raise ValueError(f"{SESSION_KEY_ENV} is at least {MIN_SESSION_KEY} characters (e.g. the output of "
                         "python3 -c 'import secrets; print(secrets.token_urlsafe(32))')")
    return key


def session_secret(folder: Path) -> str:
    """The key that signs session cookies, made once and kept, so that sessions outlive restarts."""
    path = folder / "session.key"
    if path.exists():
        return path.read_text().strip()
    folder.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(32)
    path.write_text(key)
    path.chmod(0o600)
    return key


@dataclass(frozen=True)
class Limit:
    """At most ``per_session`` requests from one session, and ``per_address`` from one address,
    in any ``seconds``."""

    per_session: int
    per_address: int
    seconds: int

    def __post_init__(self) -> None:
        if min(self.per_session, self.per_address, self.seconds) < 1:
            raise ValueError("A limit is a count of at least 1 per session and per address, in at least 1 second")


@dataclass(frozen=True)
class RateLimits:
    """How fast new things may be asked for; None: no limit. Each guards what costs the server:
    a table is a live game in memory, and a password is checked with scrypt (memory-hard, on purpose slow).
    The address limits are higher than the session limits, as several people may share one address."""

    # A table every few minutes is a busy player; 10 a minute leaves room for mistakes.
    tables: Limit | None = Limit(10, 30, 60)
    # Five new names in ten minutes for one browser; thirty for a club on one network.
    guests: Limit | None = Limit(5, 30, 600)
    # Accounts are made once: a handful an hour is plenty, and each costs a scrypt hash.
    accounts: Limit | None = Limit(3, 10, 3600)
    # Ten tries in five minutes for a forgotten password; slows guessing to a crawl.
    logins: Limit | None = Limit(10, 30, 300)
    # Analyses not yet known (a known one is free): the replay page asks for one hand at a time,
    # each seconds of search, so a minute of a page is a dozen; 20 leaves room for a second tab.
    analyses: Limit | None = Limit(20, 60, 60)
    # Chat messages and reactions at a table (server/chat.py), per user rather than per session:
    # a lively table says a few words a trick; ten in half a minute stops a flood, not a friend.
    chat: Limit | None = Limit(10, 60, 30)

    @classmethod
    def off(cls) -> RateLimits:
        return cls(**{f.name: None for f in fields(cls)})

    def specs(self) -> str:
        """These limits as ``changed`` reads them.

        >>> RateLimits(accounts=None).specs()
        'tables=10,30,60 guests=5,30,600 accounts=off logins=10,30,300 analyses=20,60,60 chat=10,60,30'
        """
        return " ".join(f"{f.name}=" + ("off" if (limit := getattr(self, f.name)) is None else
                                        f"{limit.per_session},{limit.per_address},{limit.seconds}")
                        for f in fields(self))

    def changed(self, specs: Iterable[str]) -> RateLimits:
        """These limits with some changed by ``KIND=SESSION,ADDRESS,SECONDS`` or ``KIND=off``.

        >>> RateLimits().changed(["tables=2,5,60", "logins=off"]).tables
        Limit(per_session=2, per_address=5, seconds=60)
        """
        kinds = [f.name for f in fields(self)]
        changes: dict[str, Limit | None] = {}
        for spec in specs:
            kind, _, value = spec.partition("=")
            if kind not in kinds:
                raise ValueError(f"Unknown limit {kind!r}; limits: {', '.join(kinds)}")
            if value == "off":
                changes[kind] = None
                continue
            try:
                per_session, per_address, seconds = (int(part) for part in value.split(","))
            except ValueError:
                raise ValueError(f"{spec!r}: a limit is KIND=SESSION,ADDRESS,SECONDS (e.g. tables=10,30,60) "
                                 "or KIND=off") from None
            changes[kind] = Limit(per_session, per_address, seconds)
        return replace(self, **changes)


def allowed_origins(values: Iterable[str]) -> tuple[str, ...]:
    """The origins of ``--allowed-origin`` (each may list several, separated by commas, as
    ``$WHIST_ALLOWED_ORIGINS`` does), checked and in ``normal_origin``'s spelling (for
    ``ServerSettings.allowed_origins``); ValueError names a bad one.

    >>> allowed_origins(["https://whist.example, https://WWW.whist.example:443", ""])
    ('https://whist.example', 'https://www.whist.example')
    """
    found: list[str] = []
    for value in values:
        for part in value.split(","):
            text = part.strip()
            if not text:
                continue
            origin = normal_origin(text.rstrip("/"))
            if origin is None:
                raise ValueError(f"{text!r} is not an origin: give a page's scheme, host and port, such as "
                                 "https://whist.example or http://192.168.1.5:8000")
            if origin not in found:
                found.append(origin)
    return tuple(found)




@dataclass(frozen=True)
class ServerSettings:
    database_url: str
    secret_key: str
    # A seat whose player has gone is played by a bot after this many seconds, until they return.
    grace_seconds: float = 30.0
    # Bots wait this long before acting, so that people can follow the play; 0 in tests and benchmarks.
    bot_delay: float = 0.8
    # Session cookies only over HTTPS; off by default because the default address is plain http.
    https_only: bool = False
    # The largest WebSocket message (a client's message is an action, a sync or a ping: tens of bytes).
    max_message_bytes: int = 4096
    # The largest request body (israeli_whist.server.bodylimit). The largest legitimate one is a few
    # kilobytes: a Whistiti sheet or table of seven players with 40-character names, written as
    # JSON escapes, and its own schedule of a thousand hands, about 5.4 KB (tests/server/test_bodylimit.py).
    max_body_bytes: int = 16 * 1024
    rate_limits: RateLimits = field(default_factory=RateLimits)
    # Unfinished tables one user may have made; None: no cap. A table counts until its game ends.
    max_open_tables: int | None = 10
    # Processes the bots think in (israeli_whist.server.workers); 0: threads of the web process, as an
    # embedded or test server wants (``whist serve`` starts one per core by default).
    bot_workers: int = 0
    # Seconds a bot decision may take before the basic bot moves instead.
    bot_deadline: float = 5.0
    # Game analyses that run at once, in a lane of their own beside the bots' (israeli_whist.server.workers);
    # None: a quarter of the bot workers, at least two from two on (workers.default_analysis_workers).
    analysis_workers: int | None = None
    # A Ray cluster's address (``ray://host:10001`` or ``auto``): the bots think on its workers,
    # on other machines too, instead of in ``bot_workers`` local processes.
    ray_address: str | None = None
    # Several servers on one PostgreSQL (israeli_whist.server.cluster): this node's name (None: the host's
    # name, the process id and a random tail), and the seconds a node holds a table without renewing.
    node_name: str | None = None
    lease_seconds: float = 10.0
    # Origins of pages that may change things and open tables' sockets, besides the server's own
    # (its scheme and Host header): a proxy's public origin where it rewrites the Host or ends TLS
    # (the rule: israeli_whist.server.origins; the function ``allowed_origins`` above spells them).
    allowed_origins: tuple[str, ...] = ()
    # The bots of the daily duplicate event (israeli_whist.server.events): a level whose answers do not
    # depend on the machine's speed, so that everyone's board meets the same play.
    daily_bot_level: str = "hard"

    @classmethod
    def default(cls, database_url: str | None = None, **changes: object) -> ServerSettings:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return cls(database_url=database_url or default_database_url(),
                   secret_key=shared_session_key() or session_secret(folder), **changes)  # type: ignore[arg-type]
