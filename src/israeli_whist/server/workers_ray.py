"""Bots and analyses on a Ray cluster (``whist serve --ray-address``): the thinking of several
web servers spread over the machines of one cluster.

The same contract as the local worker processes (``israeli_whist.server.workers``): the bot and the
view go out as a task, the action and the bot come back, so any Ray worker may answer and a
task asked again gives the same answer. Ray runs a task again by itself when the worker running
it dies (``max_retries``); past the deadline the basic bot moves, as with local workers. Every
machine of the cluster needs the same version of whist installed.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
from collections.abc import Callable
from typing import Any, TypeVar

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.views import SeatView
from israeli_whist.rl.raybackend import RaySession
from israeli_whist.server.workers import Decided, decide, stand_in_decision

T = TypeVar("T")

RETRIES = 3  # a task whose worker died is run again, up to this many times, by Ray itself


def _run(job: Callable[..., Any], *args: Any) -> Any:
    return job(*args)


class RayThinkers:
    """Decisions and jobs as Ray tasks on the cluster at ``address`` (``auto``: the one this
    machine belongs to). Connects at once: a wrong address is refused before the server starts."""

    def __init__(self, address: str, deadline: float, analysis_workers: int = 1) -> None:
        import ray

        self.deadline = deadline
        # Analyses are tasks of their own, at most this many at once from this node
        # (``israeli_whist.server.analyses`` keeps to it): the cluster's other CPUs stay the bots'.
        self.analysis_slots = analysis_workers
        self.session = RaySession(address)
        self.session.connect()  # RayBackendError (a ValueError) with the reason where it cannot
        self.task = ray.remote(max_retries=RETRIES, retry_exceptions=False)(_run)

    async def decide(self, bot: Bot, view: SeatView) -> Decided:
        reference = self.task.remote(decide, bot, view)
        try:
            action, after = await asyncio.wait_for(asyncio.wrap_future(reference.future()), self.deadline)
        except TimeoutError:
            self._cancel(reference)
            return stand_in_decision(bot, view, f"no decision from the Ray cluster in {self.deadline:g} s")
        except Exception as error:  # the cluster gave up: its workers died RETRIES times, or it went away
            return stand_in_decision(bot, view, f"the Ray cluster failed the decision ({type(error).__name__})")
        return Decided(action, after)

    def submit(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        future: concurrent.futures.Future[T] = self.task.remote(job, *args).future()
        return future

    def ask(self, job: Callable[..., T], *args: Any) -> concurrent.futures.Future[T]:
        return self.submit(job, *args)  # Ray's tasks have no lanes: the cluster's CPUs are shared alike

    @staticmethod
    def _cancel(reference: Any) -> None:
        import ray

        with contextlib.suppress(Exception):  # already finished or gone: nothing left to stop
            ray.cancel(reference)

    def close(self) -> None:
        self.session.close()
