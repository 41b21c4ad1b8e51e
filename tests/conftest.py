"""Fixtures shared by the server and end-to-end tests: a real ``whist serve`` in a subprocess,
and Debian's Chromium driven by Playwright (no browser download: the system's ``chromium``)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Playwright, sync_playwright

from whist.server.settings import ServerSettings


def chromium_path() -> str:
    path = os.environ.get("WHIST_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        raise RuntimeError("End-to-end tests need Debian's chromium package (apt-get install chromium)")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``whist serve`` on a free port with its own data folder; ``restart`` kills it hard."""

    def __init__(self, data_dir: Path, grace: float = 2.0, bot_delay: float = 0.1) -> None:
        self.data_dir, self.grace, self.bot_delay = data_dir, grace, bot_delay
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen[bytes] | None = None
        self.log = data_dir / "server.log"

    def start(self) -> None:
        env = {**os.environ, "WHIST_DATA_DIR": str(self.data_dir)}
        command = [sys.executable, "-m", "whist.cli", "serve", "--port", str(self.port), "--grace", str(self.grace),
                   "--bot-delay", str(self.bot_delay)]
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


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    browser = playwright.chromium.launch(executable_path=chromium_path(), args=["--no-sandbox"])
    yield browser
    browser.close()


@pytest.fixture
def app_settings(tmp_path: Path) -> ServerSettings:
    """Settings of an in-process app (for TestClient) with its own SQLite file; no bot delay."""
    return ServerSettings(database_url=f"sqlite:///{tmp_path / 'whist.db'}", secret_key="test-secret-" + "x" * 20,
                          bot_delay=0.0, grace_seconds=0.5)
