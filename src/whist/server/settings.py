"""Settings of the web app, with defaults for one person running it on a laptop."""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass
from pathlib import Path


def data_dir() -> Path:
    """Where the database and the session key live: ``$WHIST_DATA_DIR``, else the XDG data folder."""
    explicit = os.environ.get("WHIST_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "whist"


def default_database_url() -> str:
    return f"sqlite:///{data_dir() / 'whist.db'}"


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
class ServerSettings:
    database_url: str
    secret_key: str
    # A seat whose player has gone is played by a bot after this many seconds, until they return.
    grace_seconds: float = 30.0
    # Bots wait this long before acting, so that people can follow the play; 0 in tests and benchmarks.
    bot_delay: float = 0.8
    # Session cookies only over HTTPS; off by default because the default address is plain http.
    https_only: bool = False
    max_message_bytes: int = 4096

    @classmethod
    def default(cls, database_url: str | None = None, **changes: object) -> ServerSettings:
        folder = data_dir()
        folder.mkdir(parents=True, exist_ok=True)
        return cls(database_url=database_url or default_database_url(), secret_key=session_secret(folder),
                   **changes)  # type: ignore[arg-type]
