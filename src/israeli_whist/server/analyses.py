"""Analyses of finished games as shared jobs: one job per game and hand, whoever asks and however
many ask, run in the analyses' own lane of the bot workers (``israeli_whist.server.workers``), and
its answer kept.

An analysis takes the search seconds a hand (about two minutes for a 12-hand Israeli Whist game),
and its answer never changes, so:

- A request waits for the job as a coroutine (``asyncio.wrap_future``): it holds no thread, so
  the thread pool that every plain route shares stays free, and the event loop too (the job runs
  in another process, or another thread with ``--bot-workers 0``).
- A second request for the same game and hand waits for the same job, and a request that goes
  away leaves the job running for the others (and for the answer to be kept).
- At most ``Thinkers.analysis_slots`` jobs run at once; the others wait for a slot, and past
  ``ANALYSES_WAITING`` jobs in hand a new one is refused (503, ``analyses_busy``, with
  ``Retry-After``): a crowd of requests for new analyses cannot queue work without end.
- Answers are kept in memory, on each node of a cluster its own: the last ``ANALYSES_KEPT``
  games' and hands' (tens of kilobytes each), so a second look at a replay costs no search.
  A restart forgets them.

Who may see a game, and how often one may ask, is the route's (``israeli_whist.server.api_history``).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn

from israeli_whist.bots.matches.analysis import analysis_json, analyze_record
from israeli_whist.server.refusals import Refusal
from israeli_whist.server.replies import Refused
from israeli_whist.server.workers import Thinkers

# A table's id and a hand's number (None: the whole game).
Key = tuple[str, int | None]
Answer = dict[str, Any]

ANALYSIS_BOT = "expert"
ANALYSIS_MAX_TRICKS: int | None = None  # None: the analysis's default for the game's search
ANALYSES_KEPT = 512
ANALYSES_WAITING = 64
BUSY_RETRY_SECONDS = 10


def analysis_of(record: dict[str, Any], hands: set[int] | None, bot: str, max_tricks: int | None) -> Answer:
    """The analysis of a game record as the page reads it: the job a worker runs."""
    return analysis_json(analyze_record(record, bot=bot, max_tricks=max_tricks, hands=hands))


def refuse_busy(detail: str) -> NoReturn:
    """The refusal of a job past its bound (analyses here, reviews in ``israeli_whist.server.reviews``):
    503, ``analyses_busy``, with ``Retry-After``."""
    raise Refused(503, Refusal.ANALYSES_BUSY, f"{detail}: try again in {BUSY_RETRY_SECONDS} seconds",
                  headers={"Retry-After": str(BUSY_RETRY_SECONDS)})


class AnalysisJobs:
    """The jobs in hand and the answers kept, of one app in its event loop."""

    def __init__(self, thinkers: Thinkers, kept: int = ANALYSES_KEPT, waiting: int = ANALYSES_WAITING) -> None:
        self.thinkers = thinkers
        self.slots = asyncio.Semaphore(thinkers.analysis_slots)
        self.kept_at_most, self.waiting_at_most = kept, waiting
        self.kept: OrderedDict[Key, Answer] = OrderedDict()
        self.jobs: dict[Key, asyncio.Task[Answer]] = {}
        self.started = 0  # jobs started, for the tests

    def known(self, key: Key) -> Answer | None:
        """The kept answer for ``key``, or a hand cut from its game's whole answer; None if neither is kept."""
        found = self._kept(key)
        table_id, hand = key
        if found is None and hand is not None and (whole := self._kept((table_id, None))) is not None:
            hands = [h for h in whole["hands"] if h["number"] == hand]
            found = {**whole, "hands": hands} if hands else None
        return found

    def _kept(self, key: Key) -> Answer | None:
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
        return found

    def check_room(self, key: Key) -> None:
        """503 (``analyses_busy``, with ``Retry-After``) if ``key`` would be a new job past the bound."""
        if key not in self.jobs and len(self.jobs) >= self.waiting_at_most:
            refuse_busy(f"The server is analysing {len(self.jobs)} games already")

    async def answer(self, key: Key, record: Callable[[], Awaitable[dict[str, Any]]]) -> Answer:
        """The analysis of ``key``'s game (or hand), from the job in hand for it or a new one, whose
        ``record`` is read when it starts. A job's error is every asker's."""
        job = self.jobs.get(key)
        if job is None:
            self.check_room(key)
            job = self.jobs[key] = asyncio.get_running_loop().create_task(self._run(key, record))
            job.add_done_callback(lambda done: self._finished(key, done))
            self.started += 1
        # Shielded: a request that goes away (the page closed) cancels its own wait, not the job.
        return await asyncio.shield(job)

    async def _run(self, key: Key, record: Callable[[], Awaitable[dict[str, Any]]]) -> Answer:
        hands = None if key[1] is None else {key[1]}
        game = await record()
        async with self.slots:
            found = await asyncio.wrap_future(self.thinkers.submit(analysis_of, game, hands, ANALYSIS_BOT,
                                                                   ANALYSIS_MAX_TRICKS))
        if found["hands"]:  # not a hand the game does not have: that one is quick to find again
            self.kept[key] = found
            while len(self.kept) > self.kept_at_most:
                self.kept.popitem(last=False)
        return found

    def _finished(self, key: Key, job: asyncio.Task[Answer]) -> None:
        if self.jobs.get(key) is job:
            del self.jobs[key]
        if not job.cancelled():
            job.exception()  # seen here: a job whose askers have all gone must not warn that nobody read it
