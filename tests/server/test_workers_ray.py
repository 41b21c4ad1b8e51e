"""Bots thinking on a Ray cluster (``whist serve --ray-address``), on a local Ray of two workers
started here: the choices of the bot in this process, a task whose worker is killed run again,
the basic bot past the deadline, an address where nothing answers refused at once, and the
analyses kept to their slots beside the decisions."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_workers import SLOW, first_views
from typer.testing import CliRunner

from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.expert import ExpertBot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.cli.main import app
from israeli_whist.core.views import SeatView
from israeli_whist.rl.raybackend import RayBackendError, RaySession
from israeli_whist.server import analyses
from israeli_whist.server.analyses import AnalysisJobs
from israeli_whist.server.thinking import make_thinkers
from israeli_whist.server.workers_ray import RayThinkers


@pytest.fixture(scope="module")
def thinkers() -> Iterator[RayThinkers]:
    import ray.cloudpickle

    # The workers cannot import this test module: its functions travel by value.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])  # type: ignore[no-untyped-call]
    with RaySession(cpus=2):
        found = make_thinkers(0, deadline=60.0, ray_address="auto")  # the Ray this process started
        assert isinstance(found, RayThinkers)
        yield found
        found.close()  # leaves the module's Ray to the session, which stops it


def test_ray_workers_choose_what_the_bot_chooses_here(thinkers: RayThinkers) -> None:
    here, sent = make_bot("expert:deals=16", "ray"), make_bot("expert:deals=16", "ray")
    for view in first_views("whistiti", 5):
        decided = asyncio.run(thinkers.decide(sent, view))
        assert not decided.stand_in and decided.action == here.choose(view)
        sent = decided.bot
        assert sent.rng.getstate() == here.rng.getstate()


def slow_choice_telling_pid(path: Path, view: SeatView) -> int:
    path.write_text(str(os.getpid()))
    return ExpertBot("slow", SLOW).choose(view)


def test_a_task_whose_ray_worker_is_killed_runs_again(thinkers: RayThinkers, tmp_path: Path) -> None:
    view = first_views("israeli", 1)[0]
    marker = tmp_path / "pid"
    future = thinkers.submit(slow_choice_telling_pid, marker, view)
    end = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < end:
        time.sleep(0.02)
    first = int(marker.read_text())
    marker.unlink()
    os.kill(first, signal.SIGKILL)
    assert future.result(timeout=180) == ExpertBot("slow", SLOW).choose(view)
    assert int(marker.read_text()) != first  # run again, by another worker process


def test_past_the_deadline_the_basic_bot_moves(thinkers: RayThinkers) -> None:
    view = first_views("israeli", 1)[0]
    hurried = RayThinkers("auto", deadline=0.3)
    bot = ExpertBot("slow", SLOW)
    decided = asyncio.run(hurried.decide(bot, view))
    hurried.close()  # leaves the module's Ray running: it did not start it
    assert decided.stand_in and decided.bot is bot and decided.action == BasicBot().choose(view)


def test_an_address_where_no_cluster_answers_is_refused() -> None:
    with pytest.raises(RayBackendError, match="No Ray cluster answers"):
        RayThinkers("127.0.0.1:9", deadline=1.0)


def test_whist_serve_refuses_a_ray_address_where_no_cluster_answers() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--ray-address", "127.0.0.1:9"])
    assert result.exit_code == 1
    assert "No Ray cluster answers at 127.0.0.1:9" in result.output and "bot worker processes" in result.output
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port())], env={"WHIST_RAY_ADDRESS": "http://x"})
    assert result.exit_code == 1 and "A Ray address is host:port" in result.output


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def sleepy_analysis(record: dict[str, Any], hands: set[int] | None, bot: str, max_tricks: int | None) -> dict[str, Any]:
    """An analysis that takes two seconds of a worker, whatever the game."""
    time.sleep(2.0)
    return {"hands": [{"number": number} for number in sorted(hands or {0})]}


def test_analyses_run_a_slot_at_a_time_beside_the_decisions(thinkers: RayThinkers,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """On Ray the analyses' lane is their bound (one here, of the cluster's two CPUs): two analyses
    run one after the other, and a decision asked meanwhile has the other CPU at once."""
    assert thinkers.analysis_slots == 1
    monkeypatch.setattr(analyses, "analysis_of", sleepy_analysis)
    view = first_views("israeli", 1)[0]

    async def record() -> dict[str, Any]:
        return {}

    async def run() -> tuple[float, float]:
        jobs = AnalysisJobs(thinkers)
        began = time.monotonic()
        both = asyncio.gather(jobs.answer(("game", 1), record), jobs.answer(("game", 2), record))
        await asyncio.sleep(0.5)
        asked = time.monotonic()
        decided = await thinkers.decide(make_bot("basic"), view)
        assert not decided.stand_in
        decision = time.monotonic() - asked
        assert list(await both) == [{"hands": [{"number": 1}]}, {"hands": [{"number": 2}]}]
        return decision, time.monotonic() - began

    decision, analysed = asyncio.run(run())
    assert analysed >= 4.0, f"the two analyses took {analysed:.1f} s: they ran at once"
    assert decision < 1.5, f"the decision took {decision:.1f} s beside the analyses"
