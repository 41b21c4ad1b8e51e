"""Reviews of games as background jobs (issue 45): one job per game whoever asks, its hands reviewed
one by one in the analyses' lane of the bot workers, each kept as it finishes, the progress and
then the review stored with the game (``israeli_whist.server.reviewstore``).

They follow the analyses' jobs (``israeli_whist.server.analyses``) and share their lane and slots:

- A hand's review is a job of its own (the engine's ``review_hand``): with two analysis workers two
  hands are reviewed at once, on two cores, and at most ``Thinkers.analysis_slots`` hands (of
  reviews and analyses together) are in the workers at a time, so a review does not shut the
  analyses out for minutes, nor they it. Once every hand is done, ``merge_hands`` makes the game's
  review, in a worker too. Nothing of it runs on the event loop, its database work neither
  (in threads: a game's review is hundreds of kilobytes of JSON).
- The job runs in the server, not for a request: asking starts it (or finds it) and answers at once;
  asking again reads its state and progress. A restart takes up the reviews left queued or running,
  keeping the hands already stored; so does a server asked for a review that has not moved for
  ``STALLED_SECONDS`` (another node of a cluster that died with it).
- Past ``REVIEWS_WAITING`` jobs in hand (game reviews and lone hands together) a new one is refused
  (503, ``analyses_busy``, with ``Retry-After``).
- A hand that is over, at a table still in play, can be reviewed alone for the table's hand summary
  (``hand_review``): kept like the others, so that the game's review later finds it done.

Who may see which review, and how often one may ask, is the routes' (``israeli_whist.server.api_reviews``).
"""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import TypeAdapter

from israeli_whist.bots.review import HandReview, ReviewSettings, hand_numbers, merge_hands, review_hand, review_json
from israeli_whist.server import history, reviewstore
from israeli_whist.server.analyses import AnalysisJobs, refuse_busy
from israeli_whist.server.db import Store, now
from israeli_whist.server.reviewstore import DONE, FAILED, NONE, QUEUED, RUNNING, ReviewRow

log = logging.getLogger("whist.server")

Record = dict[str, Any]
Answer = dict[str, Any]
ReadRecord = Callable[[], Awaitable[Record]]

# The budget of the server's reviews (deals drawn per decision, playouts for the par): the engine's own.
REVIEW_SETTINGS = ReviewSettings()
REVIEWS_WAITING = 32
# A review queued or running whose row has not moved for this long is taken up by the next asker.
STALLED_SECONDS = 600.0

HAND_JSON: TypeAdapter[HandReview] = TypeAdapter(HandReview)


def budget_of(settings: ReviewSettings) -> dict[str, Any]:
    return dataclasses.asdict(settings)


def settings_of(budget: dict[str, Any]) -> ReviewSettings:
    return ReviewSettings(**budget)


# The jobs a worker runs (module functions: a worker process imports them by name) -----------------

def reviewed_hand(record: Record, number: int, seed: str, budget: dict[str, Any]) -> dict[str, Any]:
    """One hand's review, as JSON to store."""
    hand = review_hand(record, number, seed=seed, settings=settings_of(budget), par=True)
    return HAND_JSON.dump_python(hand, mode="json")  # type: ignore[no-any-return]


def merged_review(record: Record, hands: list[dict[str, Any]], seed: str, budget: dict[str, Any]) -> Answer:
    """The review of a game (or of some of its hands) from its hands' stored reviews, as the pages read it."""
    return review_json(merge_hands(record, [HAND_JSON.validate_python(h) for h in hands], settings_of(budget), seed))


def finished_record(store: Store, table_id: str) -> Record | None:
    """A finished game's record (None: no such finished game)."""
    with store.begin() as c:
        row = history.table_row(c, table_id)
        return None if row is None or row["status"] != "finished" else history.game_record(c, row)


def status_json(state: str, done: int, total: int, review: Answer | None = None) -> Answer:
    return {"state": state, "done": done, "total": total, "review": review}


class ReviewJobs:
    """The review jobs in hand of one app, in its event loop."""

    def __init__(self, store: Store, analyses: AnalysisJobs, waiting: int = REVIEWS_WAITING) -> None:
        self.store, self.thinkers, self.slots = store, analyses.thinkers, analyses.slots
        self.waiting_at_most = waiting
        self.games: dict[str, asyncio.Task[None]] = {}
        self.hands: dict[tuple[str, int], asyncio.Task[dict[str, Any]]] = {}  # of games and lone hands
        self.lone: set[tuple[str, int]] = set()  # hands asked for alone, counted against the bound
        self.in_workers: set[tuple[str, int]] = set()  # hands a worker is reviewing now (else waiting for a slot)
        self.failed_hands: dict[tuple[str, int], str] = {}
        self.closing = False
        self.resuming: asyncio.Task[None] | None = None

    @property
    def budget(self) -> dict[str, Any]:
        return budget_of(REVIEW_SETTINGS)

    @staticmethod
    async def off_loop(work: Callable[..., Any], *args: Any) -> Any:
        # In a thread on SQLite too, where ``Store.off_loop`` would run it at once.
        return await asyncio.to_thread(work, *args)

    def check_room(self) -> None:
        """503 (``analyses_busy``) when a new job would be one past the bound."""
        in_hand = len(self.games) + len(self.lone)
        if in_hand >= self.waiting_at_most:
            refuse_busy(f"The server is reviewing {in_hand} games and hands already")

    # A game's review ---------------------------------------------------------------------------

    async def game_status(self, table_id: str) -> Answer:
        row: ReviewRow | None = await self.off_loop(reviewstore.review_row, self.store, table_id)
        if row is None or (row.state in (NONE, FAILED) and table_id in self.games):
            # Started, its row not queued yet.
            return status_json(QUEUED if table_id in self.games else NONE, 0, 0)
        if row.state == NONE:
            return status_json(NONE, 0, 0)
        return status_json(row.state, row.hands_done, row.hands_total, row.review if row.state == DONE else None)

    def needs_starting(self, row: ReviewRow | None, table_id: str, resumed: bool) -> bool:
        """Whether asking for ``table_id``'s review starts a job here: none is in hand here, and its row
        holds no review yet, or a failed one, or an unfinished one that is taken up (``resumed``) or was
        left by a node that stopped (``STALLED_SECONDS``)."""
        if table_id in self.games or self.closing:
            return False
        if row is None or row.state in (NONE, FAILED):
            return True
        stalled = now() - dt.timedelta(seconds=STALLED_SECONDS)
        return row.state in (QUEUED, RUNNING) and (resumed or row.updated_at < stalled)

    async def start_game(self, table_id: str, record: ReadRecord, on_start: Callable[[], None] | None = None,
                         resumed: bool = False) -> Answer:
        """Start the game's review job (unless ``resumed``, within the bound, then ``on_start`` is
        called), or leave the one in hand or stored; its status either way. ``record`` is read only
        when a job starts."""
        row: ReviewRow | None = await self.off_loop(reviewstore.review_row, self.store, table_id)
        if self.needs_starting(row, table_id, resumed):
            if not resumed:
                self.check_room()
            if on_start is not None:
                on_start()
            game = await record()
            if table_id not in self.games:  # not started by another request while the record was read
                loop = asyncio.get_running_loop()
                queued: asyncio.Future[None] = loop.create_future()
                task = self.games[table_id] = loop.create_task(self._run_game(table_id, game, queued))
                task.add_done_callback(lambda done: self._forget(self.games, table_id, done))
                await asyncio.wait([queued, task], return_when=asyncio.FIRST_COMPLETED)
        return await self.game_status(table_id)

    async def _run_game(self, table_id: str, record: Record, queued: asyncio.Future[None]) -> None:
        try:
            numbers: list[int] = await asyncio.to_thread(hand_numbers, record)  # a replay: off the loop
            await self.off_loop(reviewstore.queue_review, self.store, table_id, len(numbers), self.budget)
            queued.set_result(None)
            await self.off_loop(reviewstore.set_running, self.store, table_id)
            row: ReviewRow | None = await self.off_loop(reviewstore.review_row, self.store, table_id)
            assert row is not None
            done = await self.off_loop(reviewstore.stored_hands, self.store, table_id, row.seed, row.budget)
            await asyncio.gather(*(asyncio.shield(self._hand(table_id, number, record, row.seed, row.budget))
                                   for number in numbers if number not in done))
            hands = await self.off_loop(reviewstore.stored_hands, self.store, table_id, row.seed, row.budget)
            async with self.slots:
                review = await asyncio.wrap_future(self.thinkers.submit(
                    merged_review, record, [hands[number] for number in numbers], row.seed, row.budget))
            await self.off_loop(reviewstore.finish, self.store, table_id, review)
        except Exception as error:
            if self.closing:  # the workers were stopped under it: the next start takes it up again
                return
            log.exception("table %s: its review failed", table_id)
            await self.off_loop(reviewstore.fail, self.store, table_id, f"{type(error).__name__}: {error}")

    def resume(self) -> asyncio.Task[None]:
        """Take up the reviews left queued or running (at startup): in the background, the hands
        already stored kept."""

        async def take_up() -> None:
            for table_id in await self.off_loop(reviewstore.unfinished_reviews, self.store):
                game = await self.off_loop(finished_record, self.store, table_id)
                if game is None:
                    await self.off_loop(reviewstore.fail, self.store, table_id, "The game is not over, or gone")
                    continue

                async def read(game: Record = game) -> Record:
                    return game

                log.info("table %s: its review is taken up again", table_id)
                await self.start_game(table_id, read, resumed=True)

        self.resuming = asyncio.get_running_loop().create_task(take_up())
        return self.resuming

    # One hand ----------------------------------------------------------------------------------

    def _hand(self, table_id: str, number: int, record: Record, seed: str,
              budget: dict[str, Any]) -> asyncio.Task[dict[str, Any]]:
        """The job in hand for one hand's review, or a new one. Awaited shielded, so that an asker
        that goes away leaves it running for the others."""
        key = (table_id, number)
        task = self.hands.get(key)
        if task is None:
            self.failed_hands.pop(key, None)
            task = self.hands[key] = asyncio.get_running_loop().create_task(
                self._review_hand(key, record, seed, budget))
            task.add_done_callback(lambda done: self._hand_finished(key, done))
        return task

    async def _review_hand(self, key: tuple[str, int], record: Record, seed: str,
                           budget: dict[str, Any]) -> dict[str, Any]:
        table_id, number = key
        async with self.slots:
            self.in_workers.add(key)
            try:
                hand: dict[str, Any] = await asyncio.wrap_future(
                    self.thinkers.submit(reviewed_hand, record, number, seed, budget))
            finally:
                self.in_workers.discard(key)
        await self.off_loop(reviewstore.store_hand, self.store, table_id, number, seed, budget, hand)
        return hand

    def _hand_finished(self, key: tuple[str, int], task: asyncio.Task[dict[str, Any]]) -> None:
        self._forget(self.hands, key, task)
        self.lone.discard(key)
        if not task.cancelled() and (error := task.exception()) is not None and not self.closing:
            log.error("table %s: the review of hand %d failed", key[0], key[1], exc_info=error)
            self.failed_hands[key] = f"{type(error).__name__}: {error}"

    async def hand_review(self, table_id: str, number: int, record: ReadRecord,
                          on_start: Callable[[], None] | None = None, start: bool = True) -> Answer:
        """The status of hand ``number``'s review (``start``: the job started, within the bound and
        after ``on_start``, if none is in hand or done) and, once done, the review of that hand alone
        (``review_json`` of it).
        ``record`` holds the hands that are over, and is read only where it is needed."""
        key = (table_id, number)
        seed: str = await self.off_loop(reviewstore.table_seed, self.store, table_id, self.budget)
        stored = await self.off_loop(reviewstore.stored_hands, self.store, table_id, seed, self.budget)
        if number in stored:
            # A merge of one hand is quick: in a thread, rather than behind the reviews in the workers.
            review = await asyncio.to_thread(merged_review, await record(), [stored[number]], seed, self.budget)
            return status_json(DONE, 1, 1, review)
        if key not in self.hands and start and not self.closing:
            self.check_room()
            if on_start is not None:
                on_start()
            self.lone.add(key)
            self._hand(table_id, number, await record(), seed, self.budget)
        if key in self.hands:
            return status_json(RUNNING if key in self.in_workers else QUEUED, 0, 1)
        return status_json(FAILED if key in self.failed_hands else NONE, 0, 1)

    # ------------------------------------------------------------------------------------------

    @staticmethod
    def _forget(jobs: dict[Any, Any], key: Any, task: asyncio.Task[Any]) -> None:
        if jobs.get(key) is task:
            del jobs[key]
        if not task.cancelled():
            task.exception()  # seen here: a job nobody waits for must not warn that nobody read it

    async def close(self) -> None:
        """Stop the jobs before the workers stop (at the server's exit): their rows stay queued or
        running, for the next start to take up."""
        self.closing = True
        jobs = [*self.games.values(), *self.hands.values(), *([self.resuming] if self.resuming else [])]
        for job in jobs:
            job.cancel()
        await asyncio.gather(*jobs, return_exceptions=True)
