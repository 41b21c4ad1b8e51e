"""Fixtures shared by the server and end-to-end tests: a real ``whist serve`` in a subprocess,
and Debian's Chromium driven by Playwright (no browser download: the system's ``chromium``)."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import psycopg
import pytest
from e2e_kit import chromium_path
from playwright.sync_api import Browser, Playwright, expect, sync_playwright
from psycopg import sql
from sqlalchemy.engine import make_url

from israeli_whist.server.settings import Limit, RateLimits, ServerSettings

WHIST = [sys.executable, "-m", "israeli_whist.cli"]  # the whist command, from this checkout


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``whist serve`` on a free port with its own data folder; ``restart`` kills it hard.
    ``database_url`` None: the SQLite file in the data folder."""

    def __init__(self, data_dir: Path, grace: float = 2.0, bot_delay: float = 0.1,
                 database_url: str | None = None, lease_seconds: float | None = None) -> None:
        self.data_dir, self.grace, self.bot_delay = data_dir, grace, bot_delay
        self.database_url, self.lease_seconds = database_url, lease_seconds
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir / f"server-{self.port}.log"  # several servers may share the data folder

    def start(self) -> None:
        env = {**os.environ, "WHIST_DATA_DIR": str(self.data_dir)}
        # The same node name after a restart: on PostgreSQL it takes its tables' leases back at once
        # (a new name would wait for the killed process's leases to run out).
        command = [*WHIST, "serve", "--port", str(self.port), "--grace", str(self.grace),
                   "--bot-delay", str(self.bot_delay), "--node-name", f"test-{self.port}"]
        if self.database_url is not None:
            command += ["--database-url", self.database_url]
        if self.lease_seconds is not None:
            command += ["--lease-seconds", str(self.lease_seconds)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/health", timeout=1) as response:
                    if response.status == 200:
                        return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"whist serve did not start: {self.log.read_text()[-2000:]}")

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None

    def restart(self) -> None:
        self.kill()
        self.start()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    running = Server(tmp_path)
    running.start()
    yield running
    running.kill()


# A test on the daily event that spanned midnight UTC would meet the next day's event halfway.
DAILY_TEST_SECONDS = 180


@pytest.fixture
def same_utc_day() -> None:
    """Start a test of the daily event only with DAILY_TEST_SECONDS of the UTC day left, waiting
    out the day's end if need be (at most that long: the tests use the real clock, as the server
    makes its daily event by it)."""
    moment = datetime.now(UTC)
    left = (datetime.combine(moment.date() + timedelta(days=1), datetime.min.time(), UTC) - moment).total_seconds()
    if left < DAILY_TEST_SECONDS:
        time.sleep(left + 1)


@pytest.fixture
def make_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """``make_server(grace=..., bot_delay=..., database_url=...)``: a ``Server`` not yet started,
    in this test's folder; killed at the end of the test."""
    made: list[Server] = []

    def make(**options: Any) -> Server:
        made.append(Server(tmp_path, **options))
        return made[-1]

    yield make
    for running in made:
        running.kill()


# Per module: a live Playwright keeps an asyncio loop running in this thread, which would stop
# later tests from running their own (asyncio.run refuses to nest).
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


# Playwright's assertions wait 5 s by default: a loaded two-core machine has taken longer to lay
# out a page (seen as a flaky failure in a full run). The pages' own timeouts are raised the same
# way in e2e_kit.browser_page.
EXPECT_TIMEOUT_MS = 15_000


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
    yield browser
    browser.close()


@pytest.fixture
def app_settings(tmp_path: Path) -> ServerSettings:
    """Settings of an in-process app (for TestClient) with its own SQLite file; no bot delay.
    Every request of a TestClient comes from one address, and a test makes guests and tables
    faster than any person: the limits are on, but far above what a test asks for (the tests of
    the limits set their own). The grace period is long: a test seats its people, then connects
    them one by one, and on a busy machine a short grace ran out in between, so a stand-in moved
    for a seat before its person came (the tests of the grace period set their own)."""
    return ServerSettings(database_url=f"sqlite:///{tmp_path / 'whist.db'}", secret_key="test-secret-" + "x" * 20,
                          bot_delay=0.0, grace_seconds=30.0, rate_limits=TEST_LIMITS, max_open_tables=100)


TEST_LIMITS = RateLimits(**{kind: Limit(1000, 1000, 60) for kind in ("tables", "guests", "accounts", "logins",
                                                                      "analyses")})


POSTGRES_ENV = "WHIST_TEST_POSTGRES_URL"


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A new, empty PostgreSQL database for one test, made on the server that
    ``$WHIST_TEST_POSTGRES_URL`` names (its user may create databases) and dropped afterwards.
    Without the variable the test is skipped, and fails under CI, where it must run."""
    base = os.environ.get(POSTGRES_ENV)
    if not base:
        message = f"set {POSTGRES_ENV}, e.g. postgresql://whist:whist@127.0.0.1:5432/whist_test"
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the PostgreSQL tests: {message}")
        pytest.skip(message)
    name = f"whist_test_{secrets.token_hex(6)}"
    admin = make_url(base).set(drivername="postgresql").render_as_string(hide_password=False)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    try:
        yield make_url(base).set(database=name).render_as_string(hide_password=False)
    finally:
        with psycopg.connect(admin, autocommit=True) as connection:
            connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A database for a test that runs on both: a SQLite file, then a new PostgreSQL database."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'whist.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url
