"""Where the bots think and the analyses run: worker processes beside the web process
(``whist serve --bot-workers N``, the default), or threads of the web process (``--bot-workers 0``).

A decision is sent as the bot and the seat's view; the worker answers the action and the bot as
the decision left it (its seeded randomness moved on, what it remembers). The table keeps the
bot and the worker keeps nothing, so a decision can be asked again of any worker with the same
answer, and a worker that dies loses no table's state. Threads get a copy of the bot for the
same reason: a decision given up on may still be running, and must not touch the table's bot.

A decision goes to the worker with the least work in hand. If its worker dies (killed, out of
memory), it is asked again of another, a new worker replacing the dead one. If no answer comes
by the deadline (every worker busy with long analyses, or dying one after another), the
stand-in bot (``basic``, a few milliseconds) decides in the web process and the table goes on:
a table never hangs on a bot. Each of these is logged.

Why processes: the bots' Python holds the GIL, so threads of one process think one at a time
on one core, and a few dozen searching bots slow every table of that process. Processes use
every core and leave the web process free to answer people.

Analyses (``israeli_whist.server.analyses``) take minutes, so they have a lane of their own: a
decision never waits behind one. With processes, their own workers (started at the first
analysis), at the lowest priority, so that they run on what the bots and the web process leave;
with threads, their own threads; on Ray, tasks of their own (``israeli_whist.server.workers_ray``).
``analysis_slots`` says how many run at once; ``israeli_whist.server.analyses`` keeps to it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import copy
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.core.actions import Action
from israeli_whist.core.views import SeatView
from israeli_whist.server.settings import ServerSettings

log = logging.getLogger("whist.server")

T = TypeVar("T")

# Seconds a decision may take before the stand-in moves instead (``ServerSettings.bot_deadline``):
# the expert's budget is 0.1 s, so this is only reached when the workers are swamped or dying.
DEFAULT_DEADLINE = ServerSettings.bot_deadline


def default_worker_count() -> int:
    """One worker process per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def decide(bot: Bot, view: SeatView) -> tuple[Action, Bot]:
    """A decision, where it runs: the action, and the bot as it left the bot."""
    return bot.choose(view), bot


# How much a worker process yields the CPU to the web process (os.nice): when the bots keep
# every core busy, people's actions are still answered at once and the bots fall behind instead.
WORKER_NICENESS = 10
# An analysis worker's: the most there is, so that the bots' workers come first too.
ANALYSIS_NICENESS = 19


def default_analysis_workers(bot_workers: int) -> int:
    """Analyses (and hands of reviews) that run at once beside ``bot_workers``: a quarter as many,
    but two from two bot workers on, so that a game's review uses two cores (its hands are reviewed
    two at a time, ``israeli_whist.server.reviews``), and one for threads (``--bot-workers 0``),
    which share the web process's core. At the lowest priority, they slow no table's bots.

    >>> [default_analysis_workers(n) for n in (0, 1, 2, 8, 16)]
    [1, 1, 2, 2, 4]
    """
    return max(1, min(bot_workers, 2), bot_workers // 4)


def warm_up(web_process: int, niceness: int = WORKER_NICENESS) -> int:
    """Run once in each new worker: the bots' modules imported before the first decision waits for
    them, the process put ``niceness`` below the web process in the CPU's queue, and a watch that
    ends it with the web process."""
    import israeli_whist.bots.players.expert  # imported for its cost now, rather than during the first decision
    import israeli_whist.bots.players.registry  # noqa: F401

    if hasattr(os, "nice"):
        os.nice(niceness)
    threading.Thread(target=exit_with, args=(web_process,), name="whist-parent-watch", daemon=True).start()
    return os.getpid()


def ignore_interrupts() -> None:
    """A worker ignores Ctrl-C, which a terminal sends to the whole process group: the web process
    stops its workers itself (``Lane.close``), and a worker interrupted would print a traceback
    from the middle of its wait for work."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def exit_with(web_process: int, every: float = 1.0) -> None:
    """A worker's watch: once its parent, the web process, is gone (killed, out of memory), the
    worker is another process's child and ends too, rather than linger with nobody to serve."""
    while True:
        time.sleep(every)
        if os.getppid() != web_process:
            os._exit(0)


@dataclass(frozen=True)
class Decided:
    """A decision's answer. ``bot`` is the bot to keep for the seat; ``stand_in`` says the stand-in
    decided because the bot's answer did not come by the deadline (the bot is then the one sent)."""

    action: Action
    bot: Bot
    stand_in: bool = False


class Thinkers(Protocol):
    """The bots' and the analyses' place to run."""

    # Analyses that may run at once, each in its own worker of the analyses' lane.
    analysis_slots: int

    async def decide(self, bot: Bot, view: SeatView) -> Decided: ...

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        """A long job (an analysis) in the analyses' lane, never ahead of a decision."""
        ...

    def ask(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        """A short job a person waits for (a hint, ``israeli_whist.server.hints``) beside the
        decisions, never behind an analysis."""
        ...

    def close(self) -> None: ...


def stand_in_decision(bot: Bot, view: SeatView, why: str) -> Decided:
    log.warning("seat %d: %s; the basic bot moves instead", view.seat, why)
    return Decided(BasicBot().choose(view), bot, stand_in=True)


class ThreadThinkers:
    """Decisions in threads of the web process (``--bot-workers 0``): no processes to start, and
    the bots' Python shares the web process's core."""

    def __init__(self, deadline: float = DEFAULT_DEADLINE, analysis_workers: int = 1) -> None:
        self.deadline = deadline
        self.analysis_slots = analysis_workers
        # The analyses' own threads: decisions run in the event loop's default executor, never behind them.
        self.jobs = concurrent.futures.ThreadPoolExecutor(analysis_workers, thread_name_prefix="whist-analysis")
        # Hints: threads of their own too, so that a person's hint never waits behind an analysis.
        self.asked = concurrent.futures.ThreadPoolExecutor(2, thread_name_prefix="whist-hint")

    async def decide(self, bot: Bot, view: SeatView) -> Decided:
        try:
            action, after = await asyncio.wait_for(asyncio.to_thread(decide, copy.deepcopy(bot), view), self.deadline)
        except TimeoutError:
            return stand_in_decision(bot, view, f"no decision in {self.deadline:g} s")
        except Exception as error:  # a fault of the bot's: the table goes on
            log.exception("seat %d: the bot failed", view.seat)
            return stand_in_decision(bot, view, f"the bot failed ({type(error).__name__})")
        return Decided(action, after)

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return self.jobs.submit(job, *args)

    def ask(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return self.asked.submit(job, *args)

    def close(self) -> None:
        self.jobs.shutdown(wait=False, cancel_futures=True)
        self.asked.shutdown(wait=False, cancel_futures=True)


class Worker:
    """One worker process (an executor of one process, so that its death breaks only its own work)."""

    def __init__(self, number: int, niceness: int = WORKER_NICENESS) -> None:
        self.number = number
        # Spawned, so that the worker is the web process's own child (its watch sees the web process
        # die), and starts clean of the web process's threads and connections.
        context = multiprocessing.get_context("spawn")
        self.executor = concurrent.futures.ProcessPoolExecutor(max_workers=1, mp_context=context,
                                                               initializer=ignore_interrupts)
        self.in_hand = 0  # decisions and jobs sent and not yet answered
        self.counting = threading.Lock()  # answers are counted in the executor's own thread
        self.started = self.executor.submit(warm_up, os.getpid(), niceness)

    def pid(self, timeout: float = 30.0) -> int:
        """The worker's process id (waits for it to have started)."""
        return self.started.result(timeout)

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        future = self.executor.submit(job, *args)
        with self.counting:
            self.in_hand += 1
        future.add_done_callback(self._answered)
        return future

    def _answered(self, _: concurrent.futures.Future[Any]) -> None:
        with self.counting:
            self.in_hand -= 1

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


class Lane:
    """``count`` worker processes at one priority (``niceness``), each sent work while it has the
    least in hand; started at once, or (``lazy``) one at a time, as the work finds the others busy."""

    def __init__(self, count: int, niceness: int = WORKER_NICENESS, lazy: bool = False, name: str = "bot") -> None:
        if count < 1:
            raise ValueError(f"A pool of {name} workers has at least one process, not {count}")
        self.count, self.niceness, self.name = count, niceness, name
        self.lock = threading.Lock()  # work is sent from the event loop and from the executors' threads
        self.workers = [] if lazy else [Worker(number, niceness) for number in range(count)]
        self.replaced = 0  # workers found dead and started again
        self.closed = False  # set by close: the server is stopping

    def pids(self) -> list[int]:
        return [worker.pid() for worker in self.workers]

    def _least_busy(self, avoid: set[int]) -> Worker:
        with self.lock:
            pool = [w for w in self.workers if w.number not in avoid] or self.workers
            if not self.closed and len(self.workers) < self.count and all(w.in_hand for w in pool):
                self.workers.append(Worker(len(self.workers), self.niceness))
                return self.workers[-1]
            return min(pool, key=lambda worker: worker.in_hand)

    def _replace(self, dead: Worker) -> None:
        with self.lock:
            if self.closed or self.workers[dead.number] is not dead:  # stopping, or replaced already
                return
            dead.close()
            self.workers[dead.number] = Worker(dead.number, self.niceness)
            self.replaced += 1
        log.warning("%s worker %d died; a new one is started", self.name, dead.number)

    def _send(self, avoid: set[int], job: Callable[..., T], *args: Any) -> tuple[Worker, concurrent.futures.Future[T]]:
        """The job sent to the least busy worker not in ``avoid``; a worker already found broken is
        replaced and the next one tried."""
        while True:
            worker = self._least_busy(avoid)
            try:
                return worker, worker.submit(job, *args)
            except BrokenProcessPool:
                self._replace(worker)

    def _idle_beyond(self, tried: set[int]) -> bool:
        with self.lock:
            return any(w.in_hand == 0 and w.number not in tried for w in self.workers)

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        """A job for the least busy worker; if that worker dies, the job is sent again once to
        another. The caller waits on the future's result."""
        answer: concurrent.futures.Future[T] = concurrent.futures.Future()

        def send(avoid: set[int], again: bool) -> None:
            worker, future = self._send(avoid, job, *args)

            def relay(done: concurrent.futures.Future[T]) -> None:
                error = done.exception()
                if isinstance(error, BrokenProcessPool) and again and not self.closed:
                    self._replace(worker)
                    send(avoid | {worker.number}, False)
                elif error is not None:
                    answer.set_exception(error)
                else:
                    answer.set_result(done.result())

            future.add_done_callback(relay)

        send(set(), True)
        return answer

    def close(self) -> None:
        """Stop every worker process and wait for it to end (at the server's exit): a pool left to
        the interpreter's exit makes it warn of leaked semaphores, or write to a closed pipe. Work
        not begun is dropped; a worker still thinking is ended at once, as workers hold no table's
        state, so that stopping the server never waits for a long analysis. (One shutdown that
        waits: a first one that does not would let go of the executor's thread, and a second one
        would then have nothing to wait for.)"""
        with self.lock:
            self.closed = True  # a worker ended here is not replaced, nor its job sent again
            workers = list(self.workers)
        for worker in workers:
            started = worker.started
            if worker.in_hand and started.done() and not started.cancelled() and started.exception() is None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(started.result(), signal.SIGTERM)
        for worker in workers:
            worker.executor.shutdown(wait=True, cancel_futures=True)


class ProcessThinkers(Lane):
    """Decisions in ``count`` worker processes (this lane), and jobs in ``analysis_workers`` processes
    of their own at the lowest priority (``analyses``), started at the first job."""

    def __init__(self, count: int, deadline: float = DEFAULT_DEADLINE, analysis_workers: int = 1) -> None:
        super().__init__(count)
        self.deadline = deadline
        self.analyses = Lane(analysis_workers, ANALYSIS_NICENESS, lazy=True, name="analysis")
        self.analysis_slots = analysis_workers

    async def decide(self, bot: Bot, view: SeatView) -> Decided:
        """The decision from the least busy worker. If it has not answered by half the deadline and
        another worker is idle, that one is asked too (the same bot and view: the same answer), and
        the first answer counts; a worker that dies is replaced and another asked."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.deadline
        tried: set[int] = set()
        asked: dict[asyncio.Future[tuple[Action, Bot]], Worker] = {}

        def ask(avoid: set[int]) -> None:
            worker, future = self._send(avoid, decide, bot, view)
            tried.add(worker.number)
            asked[asyncio.wrap_future(future)] = worker

        ask(tried)
        try:
            while (left := give_up - loop.time()) > 0:
                hedge_at = self.deadline / 2 - (self.deadline - left)
                done, _ = await asyncio.wait(asked, timeout=hedge_at if hedge_at > 0 else left,
                                             return_when=asyncio.FIRST_COMPLETED)
                if not done:
                    idle = self._idle_beyond(tried)
                    if hedge_at > 0 and idle:
                        log.info("seat %d: the bot's worker is slow; another worker is asked too", view.seat)
                        ask(tried)
                    continue
                for answer in done:
                    worker = asked.pop(answer)
                    error = answer.exception()
                    if error is None:
                        action, after = answer.result()
                        return Decided(action, after)
                    if not isinstance(error, BrokenProcessPool):  # a fault of the bot's, the same anywhere
                        log.error("seat %d: the bot failed", view.seat, exc_info=error)
                        return stand_in_decision(bot, view, f"the bot failed ({type(error).__name__})")
                    self._replace(worker)  # it died while it thought: ask another
                    if not asked:
                        ask(tried)
        finally:
            for answer in asked:
                answer.cancel()
        return stand_in_decision(bot, view, f"no decision from the bot workers in {self.deadline:g} s")

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return self.analyses.submit(job, *args)

    def ask(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return Lane.submit(self, job, *args)  # the bots' own lane: a person waits for it

    def close(self) -> None:
        super().close()
        self.analyses.close()
