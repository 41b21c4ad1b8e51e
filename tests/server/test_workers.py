"""Bots thinking in worker processes (``israeli_whist.server.workers``): the same choices as in the web
process, a worker killed mid-decision costs the table nothing, and a decision that does not come
back by its deadline is made by the basic bot."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import os
import pickle
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from server_kit import SleepyBot, connect, create_table, live, sign_in, stored_actions

from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView, seat_view
from israeli_whist.server.app import create_app
from israeli_whist.server.live import LiveTable
from israeli_whist.server.settings import ServerSettings
from israeli_whist.server.thinking import make_thinkers
from israeli_whist.server.workers import (
    ANALYSIS_NICENESS,
    WORKER_NICENESS,
    Decided,
    Lane,
    ProcessThinkers,
    Thinkers,
    ThreadThinkers,
    Worker,
)

# An expert that searches a fixed 1,000 deals a decision: over two seconds for an Israeli Whist
# call, long enough to kill its worker in the middle, the same choice for its seed wherever it runs.
SLOW = dataclasses.replace(ExpertSettings().with_deals(1000), min_deals=1000)


@pytest.fixture(scope="module")
def pool() -> Iterator[ProcessThinkers]:
    thinkers = ProcessThinkers(2, deadline=60.0)
    thinkers.pids()  # started
    yield thinkers
    thinkers.close()


def first_views(game: str, count: int) -> list[SeatView]:
    """The views of a game's first ``count`` decisions with a choice, played by basic bots."""
    views: list[SeatView] = []
    match, basic = Match.start(make_game(game), "views", 0), BasicBot()
    while len(views) < count:
        view = seat_view(match.hand, match.current_player)
        if len(view.legal_actions) > 1:
            views.append(view)
        match = match.apply(basic.choose(view))
    return views


def busy_worker(pool: Lane, timeout: float = 30.0) -> Worker:
    """The worker that has a decision in hand, once it has one."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        for worker in pool.workers:
            if worker.in_hand:
                return worker
        time.sleep(0.01)
    raise AssertionError("no worker took the decision")


def slow_bot_thinking(pool: ProcessThinkers, table: LiveTable, still: float = 1.0,
                      timeout: float = 60.0) -> tuple[Worker, int, int]:
    """The busy worker, the table's version and the seat on move, once the same worker has held
    the same position's decision for ``still`` seconds: a slow bot's, not a decision a quicker
    bot was already making (a table's first bot may start before the test swaps in slow ones),
    whose move would change the version between reading it and the kill."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        worker = busy_worker(pool)
        before = (table.version, table.match.current_player)
        time.sleep(still)
        if worker.in_hand and (table.version, table.match.current_player) == before:
            return worker, *before
    raise AssertionError("no decision was held long enough to be a slow bot's")


@pytest.mark.parametrize("game", ["israeli", "whistiti", "classic"])
def test_workers_choose_what_the_bot_chooses_here_and_hand_back_its_state(pool: ProcessThinkers, game: str) -> None:
    here, sent = make_bot("expert:deals=16", "same"), make_bot("expert:deals=16", "same")
    for view in first_views(game, 6):
        decided = asyncio.run(pool.decide(sent, view))
        assert not decided.stand_in
        assert decided.action == here.choose(view)
        sent = decided.bot  # the bot comes back with its randomness moved on, as the one here
        assert sent.rng.getstate() == here.rng.getstate()


def test_a_worker_killed_mid_decision_is_replaced_and_the_decision_asked_again(pool: ProcessThinkers) -> None:
    view = first_views("israeli", 1)[0]
    bot = ExpertBot("slow", SLOW)
    expected = ExpertBot("slow", SLOW).choose(view)
    replaced = pool.replaced

    async def decide_while_killing() -> tuple[int, Decided]:
        decision = asyncio.ensure_future(pool.decide(bot, view))
        worker = await asyncio.to_thread(busy_worker, pool)
        pid = worker.pid()
        os.kill(pid, signal.SIGKILL)
        return pid, await decision

    killed, decided = asyncio.run(decide_while_killing())
    assert not decided.stand_in and decided.action == expected  # the same answer, from the other worker
    assert pool.replaced == replaced + 1
    assert killed not in pool.pids()  # the dead one was replaced by a new process
    again = asyncio.run(pool.decide(make_bot("basic"), view))  # and the pool goes on deciding
    assert not again.stand_in


def test_a_decision_past_its_deadline_is_made_by_the_basic_bot() -> None:
    view = first_views("israeli", 1)[0]
    for thinkers in (ProcessThinkers(1, deadline=0.3), ThreadThinkers(deadline=0.3)):
        try:
            bot = ExpertBot("slow", SLOW)
            state = pickle.dumps(bot)

            decided, took = asyncio.run(timed_decision(thinkers, bot, view))
            assert took < 3
            assert decided.stand_in and decided.action == BasicBot().choose(view)
            assert decided.bot is bot and pickle.dumps(bot) == state  # the table's bot untouched
        finally:
            thinkers.close()


async def timed_decision(thinkers: Thinkers, bot: Bot, view: SeatView) -> tuple[Decided, float]:
    """The decision and its seconds, timed inside the loop: the end of ``asyncio.run`` waits for a
    thread still thinking."""
    began = time.monotonic()
    return await thinkers.decide(bot, view), time.monotonic() - began


def test_a_job_whose_worker_dies_runs_on_another(pool: ProcessThinkers) -> None:
    view = first_views("israeli", 1)[0]
    future = pool.submit(ExpertBot("slow", SLOW).choose, view)
    worker = busy_worker(pool.analyses)
    os.kill(worker.pid(), signal.SIGKILL)
    assert future.result(timeout=120) == ExpertBot("slow", SLOW).choose(view)


def test_a_decision_never_waits_behind_an_analysis() -> None:
    """Analyses have their own lane: with the one analysis worker (or thread) busy for a minute and
    another job waiting, a decision of the one bot worker answers at once; the analysis worker
    runs at the lowest priority, below the bots'."""
    view = first_views("classic", 1)[0]
    for thinkers in (ProcessThinkers(1, deadline=5.0, analysis_workers=1), ThreadThinkers(5.0, analysis_workers=1)):
        try:
            assert thinkers.analysis_slots == 1
            analyses = [thinkers.submit(time.sleep, 60), thinkers.submit(time.sleep, 60)]
            if isinstance(thinkers, ProcessThinkers):
                thinkers.pids()
                (pid,) = thinkers.analyses.pids()  # one, started by the first job
                assert os.getpriority(os.PRIO_PROCESS, pid) == min(19, os.getpriority(os.PRIO_PROCESS, 0)
                                                                   + ANALYSIS_NICENESS)
            decided, took = asyncio.run(timed_decision(thinkers, make_bot("basic"), view))
            assert not decided.stand_in and took < 2.5, (type(thinkers).__name__, took)
            assert not any(future.done() for future in analyses)
        finally:
            if isinstance(thinkers, ProcessThinkers):
                for pid in thinkers.analyses.pids():
                    os.kill(pid, signal.SIGKILL)  # it would sleep on
            thinkers.close()


def test_a_slow_worker_is_backed_by_an_idle_one() -> None:
    """Worker 0 is busy for 20 s, worker 1 for 1 s: the decision goes to worker 0 (as busy as the
    other when it is sent), and at half its deadline worker 1, idle by then, is asked too."""
    view = first_views("classic", 1)[0]
    thinkers = ProcessThinkers(2, deadline=6.0)
    try:
        thinkers.pids()
        thinkers.workers[0].submit(time.sleep, 20)
        thinkers.workers[1].submit(time.sleep, 1)
        decided, took = asyncio.run(timed_decision(thinkers, make_bot("basic"), view))
        assert not decided.stand_in and decided.action == BasicBot().choose(view)
        assert 3 <= took < 6
    finally:
        for worker in thinkers.workers:
            os.kill(worker.pid(), signal.SIGKILL)  # worker 0 would sleep on
        thinkers.close()


class FaultyBot(Bot):
    """A bot with a bug."""

    def choose(self, view: SeatView) -> int:
        raise RuntimeError("a bug")


def test_a_bot_that_fails_is_stood_in_for(pool: ProcessThinkers) -> None:
    view = first_views("classic", 1)[0]
    for thinkers in (pool, ThreadThinkers()):
        decided = asyncio.run(thinkers.decide(FaultyBot(), view))
        assert decided.stand_in and decided.action == BasicBot().choose(view)


def test_workers_yield_the_cpu_to_the_web_process(pool: ProcessThinkers) -> None:
    for pid in pool.pids():
        assert os.getpriority(os.PRIO_PROCESS, pid) == os.getpriority(os.PRIO_PROCESS, 0) + WORKER_NICENESS


ORPHAN_SCRIPT = """
import sys, time
if __name__ == "__main__":
    from israeli_whist.server.workers import ProcessThinkers
    print(" ".join(str(pid) for pid in ProcessThinkers(2).pids()), flush=True)
    time.sleep(120)
"""


def test_workers_end_when_the_web_process_is_killed(tmp_path: Path) -> None:
    script = tmp_path / "web.py"
    script.write_text(ORPHAN_SCRIPT)
    web = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, text=True)
    try:
        assert web.stdout is not None
        workers = [int(pid) for pid in web.stdout.readline().split()]
        assert len(workers) == 2
    finally:
        web.kill()
        web.wait()
    end = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < end, "a worker outlived the web process"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie (ended, not yet reaped by its new parent) counts as gone.
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/stat").read_text().split(") ")[-1][0] != "Z"
    return True


def test_bad_worker_counts_are_refused() -> None:
    with pytest.raises(ValueError, match="at least one"):
        ProcessThinkers(0)
    with pytest.raises(ValueError, match="count of processes"):
        make_thinkers(-1)
    assert isinstance(make_thinkers(0), ThreadThinkers)


def test_a_table_goes_on_when_a_bot_worker_is_killed_mid_decision(app_settings: ServerSettings) -> None:
    settings = dataclasses.replace(app_settings, bot_workers=2, bot_deadline=60.0)
    with TestClient(create_app(settings)) as client:
        thinkers = client.app.state.hub.thinkers  # type: ignore[attr-defined]
        assert isinstance(thinkers, ProcessThinkers)
        ann = sign_in(client, "Ann")
        table_id = create_table(client, ann, "hbbb", options={"hands": 1})["id"]
        table = live(client.app, table_id)
        # Bots that sleep, not search: still thinking when their worker is killed and done well
        # within the deadline when asked again, on a loaded machine too (a search of a fixed size
        # was once over too soon and once too late).
        slow: dict[int, Bot] = {seat: SleepyBot(f"{table.row.seed}/{seat}") for seat in (1, 2, 3)}
        table.bots.update(slow)
        with connect(client, ann, table_id) as a:
            if a.state["view"]["player"] == 0:  # Ann first: then a slow bot thinks
                a.act(a.state["view"]["legal"][0]["action"])
            worker, version, thinking = slow_bot_thinking(thinkers, table)
            assert thinking != 0 and table.bots[thinking] is slow[thinking]
            os.kill(worker.pid(), signal.SIGKILL)
            a.until(lambda m: m["type"] == "state" and m["version"] > version, timeout=120)
        assert thinkers.replaced >= 1
        _, seat, _, by_bot = stored_actions(settings.database_url, table_id)[version]
        assert seat == thinking and by_bot  # the slow bot's own move, asked again of the other worker
        assert table.bots[thinking] is not slow[thinking]  # its state came back from there
