"""Stopping ``whist serve`` (Ctrl-C in its terminal, or SIGTERM from a service manager) ends its bot
worker processes cleanly: nothing on stderr but the JSON log, no traceback from a worker that
Ctrl-C reached too, no "leaked semaphore objects" from the interpreter's exit, exit status 0."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from israeli_whist.server.workers import ProcessThinkers

WHIST = [sys.executable, "-m", "israeli_whist.cli"]
SIGINT_BIT = 1 << (signal.SIGINT - 1)  # in /proc/PID/status's SigIgn mask


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(child) for child in (task / "children").read_text().split()]
    return found


def ready_workers(pid: int) -> int:
    """The server's bot worker processes that have started (they then ignore Ctrl-C)."""
    ready = 0
    for child in children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
            status = Path(f"/proc/{child}/status").read_text()
        except OSError:  # gone meanwhile
            continue
        ignored = int(next(line.split()[1] for line in status.splitlines() if line.startswith("SigIgn:")), 16)
        ready += b"spawn_main" in command and bool(ignored & SIGINT_BIT)
    return ready


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the worker processes from /proc")
@pytest.mark.parametrize(("stop", "whole_group"), [(signal.SIGINT, True), (signal.SIGTERM, False)],
                         ids=["ctrl-c in the terminal", "sigterm"])
def test_stopping_the_server_ends_its_workers_cleanly(tmp_path: Path, stop: signal.Signals,
                                                      whole_group: bool) -> None:
    env = {**os.environ, "WHIST_DATA_DIR": str(tmp_path)}
    env.pop("WHIST_DATABASE_URL", None)
    server = subprocess.Popen([*WHIST, "serve", "--port", str(free_port()), "--bot-workers", "2"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert "serving on" in first and "2 bot worker processes" in first, first
        # The workers start with the app; a worker still starting would not yet ignore Ctrl-C (a
        # terminal's Ctrl-C reaches it too), so the signal waits until both have started.
        deadline = time.monotonic() + 60
        while ready_workers(server.pid) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        if whole_group:
            os.killpg(server.pid, stop)
        else:
            server.send_signal(stop)
        _, err = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.communicate()
    assert server.returncode == 0, err
    stray = [line for line in err.splitlines() if not line.startswith('{"time"')]  # the JSON log's lines
    assert stray == [], err
    assert "leaked semaphore" not in err and "Traceback" not in err
    assert "Finished server process" in err


def alive(pid: int) -> bool:
    """Running, and not a zombie that nobody waited for."""
    try:
        return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the processes from /proc")
def test_closing_the_workers_waits_for_them_but_not_for_a_long_job() -> None:
    thinkers = ProcessThinkers(2)
    pids = thinkers.pids()
    busy = thinkers.submit(time.sleep, 120)  # an analysis that would outlast any patience
    time.sleep(0.5)
    started = time.monotonic()
    thinkers.close()
    assert time.monotonic() - started < 30
    assert not any(alive(pid) for pid in pids)  # ended and waited for, before close returned
    assert busy.done()
