"""Ctrl-C stops a long ``whist tournament`` at once: the deals not begun are dropped, not played out
before the exit (as a pool of processes used as a context manager would), and no worker writes a
traceback."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

WHIST = [sys.executable, "-m", "israeli_whist.cli"]
PROMPTLY = 10.0  # seconds (it takes well under one); a run that plays every deal out takes minutes


def test_ctrl_c_stops_a_tournament_promptly(tmp_path: Path) -> None:
    run = subprocess.Popen([*WHIST, "tournament", "--bots", "expert,basic", "--deals", "200", "--workers", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                           cwd=tmp_path)
    try:
        assert run.stdout is not None
        assert "Israeli Whist: expert, basic; 200 deals" in run.stdout.readline()  # the deals are under way
        time.sleep(2)
        os.killpg(run.pid, signal.SIGINT)  # as a terminal sends Ctrl-C: to every process of the group
        stopped = time.monotonic()
        _, err = run.communicate(timeout=120)
        took = time.monotonic() - stopped
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    assert took < PROMPTLY, took
    assert run.returncode != 0 and "Traceback" not in err, err
