"""A PostgreSQL server of one test's own, which the test may stop and start again: a database
restart, or an outage longer than the nodes' leases. Made as ``scripts/test`` makes the suite's
(initdb in a new folder, trust on loopback only, as the ``postgres`` user when run as root)."""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import psycopg
import pytest


def postgres_bin() -> Path | None:
    found = [Path(path).parent for path in glob.glob("/usr/lib/postgresql/*/bin/initdb")]
    return max(found, key=lambda folder: int(folder.parent.name)) if found else None  # the newest version


class OwnPostgres:
    """``url`` names its ``postgres`` database; ``stop`` and ``start`` take it down and up again."""

    def __init__(self) -> None:
        bin_dir = postgres_bin()
        if bin_dir is None:
            message = "PostgreSQL's programs (Debian's postgresql package) are not installed"
            if os.environ.get("CI"):
                pytest.fail(f"CI runs the PostgreSQL tests: {message}")
            pytest.skip(message)
        self.bin = bin_dir
        self.root = os.getuid() == 0
        self.user = "postgres" if self.root else os.environ.get("USER", "postgres")
        # Not under pytest's tmp_path: its folders are the test user's alone, and the server runs as postgres.
        self.folder = Path(tempfile.mkdtemp(prefix="whist-own-pg-"))
        if self.root:
            shutil.chown(self.folder, "postgres")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.data = self.folder / "data"
        self._run(f"{self.bin}/initdb -D {self.data} -A trust -U {self.user}")
        self.url = f"postgresql://{self.user}@127.0.0.1:{self.port}/postgres"

    def _run(self, command: str) -> None:
        full = ["su", "postgres", "-s", "/bin/sh", "-c", command] if self.root else ["sh", "-c", command]
        subprocess.run(full, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=60)

    def start(self) -> None:
        self._run(f"{self.bin}/pg_ctl -D {self.data} -l {self.folder}/server.log "
                  f"-o '-p {self.port} -h 127.0.0.1 -k {self.folder}' -w start")

    def stop(self) -> None:
        """Down at once, as ``pg_ctl stop -m fast`` (what a restart does first): every connection is cut."""
        self._run(f"{self.bin}/pg_ctl -D {self.data} -m fast -w stop")

    def answers(self) -> bool:
        try:
            with psycopg.connect(self.url, connect_timeout=2):
                return True
        except psycopg.OperationalError:
            return False

    def remove(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already down
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
