"""Events' results scored against their fields, kept between requests.

Scoring an event reads and sorts every finished play of it: a daily event holds a few thousand, and
the events' pages, every player's history and the ranking ask for them. A finished play never
changes and is never deleted, so an event's scores stand as long as its number of finished plays
and its latest finish do. Each request asks for that pair (one grouped query for any number of
events) and scores again only the events whose pair moved: the answers are always those of the
plays stored at the moment, on every node. Names are not kept: a guest who makes an account may
take another, so the pages read them as they show a row.
"""

from __future__ import annotations

import datetime as dt
import math
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sqlalchemy import ColumnElement, func, select

from israeli_whist.core.duplicate import FieldScore, Standing, places, score_field, standings
from israeli_whist.server.db import Store, now
from israeli_whist.server.eventstore import FINISHED, event_plays, events, finished_plays_of_events

KEPT_EVENTS: Final = 2048  # scored events kept in memory, the least recently asked for let go first
RANKING_DAYS: Final = 90  # the ranking counts the events that ended within this many days, or are open
RANKED_BOARDS: Final = 8  # fewer boards than this in the ranking's window: provisional, listed after
# The ranking is worked out at most this often on a node: its window is 90 days of every event (90
# daily fields of 500 are 180,000 plays, and merely asking whether any moved reads them all),
# while an event's page and a player's history ask only for their own events, each time.
RANKING_SECONDS: Final = 10.0

Stamp = tuple[int, dt.datetime | None]  # an event's finished plays: how many, and the latest finish


@dataclass(frozen=True)
class EventScores:
    """One event's finished plays scored against their fields."""

    stamp: Stamp
    boards: dict[tuple[int, int], FieldScore]  # by (board, player)
    percents: dict[int, list[float]]  # by player: each board's percentage, in board order
    above: dict[int, float]  # by player: points above the fields, summed
    standings: list[Standing]


NO_SCORES: Final = EventScores((0, None), {}, {}, {}, [])


@dataclass(frozen=True)
class Ranked:
    """A player in the events' ranking (``ScoreKeeper.ranking``)."""

    user: int
    standing: Standing
    provisional: bool
    place: int  # among the settled, or after them among the provisional; level players share one


class ScoreKeeper:
    """Scores events as their plays stand now, scoring each again only after a new finish."""

    def __init__(self, store: Store, kept: int = KEPT_EVENTS, days: int = RANKING_DAYS,
                 ranked_boards: int = RANKED_BOARDS, ranking_seconds: float = RANKING_SECONDS) -> None:
        self.store = store
        self.kept = kept
        self.days = days
        self.ranked_boards = ranked_boards
        self.ranking_seconds = ranking_seconds
        self._scored: OrderedDict[str, EventScores] = OrderedDict()
        self._ranking: tuple[tuple[tuple[str, Stamp], ...], list[Ranked]] | None = None
        self._ranked_at = -math.inf  # time.monotonic() of the ranking's last working out
        self._lock = threading.Lock()  # asked from the store's worker threads
        self._working_out = threading.Lock()  # the ranking

    def of_event(self, event_id: str) -> EventScores:
        return self.of_events([event_id]).get(event_id, NO_SCORES)

    def of_events(self, event_ids: list[str]) -> dict[str, EventScores]:
        """The scores of each of ``event_ids`` that has a finished play."""
        return self._scores_for(self._stamps(event_plays.c.event_id.in_(event_ids)) if event_ids else {})

    def ranking(self) -> list[Ranked]:
        """Every player of the events that ended within ``days`` or are open, by mean percentage
        over all their boards (then points above the fields); those with fewer than
        ``ranked_boards`` boards are provisional, after the others. At most ``ranking_seconds``
        old."""
        with self._working_out:  # one at a time: the others asking meanwhile take its answer
            if self._ranking is not None and time.monotonic() - self._ranked_at < self.ranking_seconds:
                return self._ranking[1]
            recent = event_plays.c.event_id.in_(select(events.c.id).where(
                events.c.ends_at >= now() - dt.timedelta(days=self.days)))
            stamps = self._stamps(recent)
            key = tuple(sorted(stamps.items()))
            if self._ranking is None or self._ranking[0] != key:
                self._ranking = (key, _ranked(self._scores_for(stamps).values(), self.ranked_boards))
            self._ranked_at = time.monotonic()
            return self._ranking[1]

    def _stamps(self, condition: ColumnElement[bool]) -> dict[str, Stamp]:
        with self.store.begin() as c:
            rows = c.execute(select(event_plays.c.event_id, func.count(), func.max(event_plays.c.finished_at))
                             .where(condition, event_plays.c.status == FINISHED)
                             .group_by(event_plays.c.event_id))
            return {event_id: (int(count), latest) for event_id, count, latest in rows}

    def _scores_for(self, stamps: dict[str, Stamp]) -> dict[str, EventScores]:
        found: dict[str, EventScores] = {}
        with self._lock:
            for event_id, stamp in stamps.items():
                kept = self._scored.get(event_id)
                if kept is not None and kept.stamp == stamp:
                    self._scored.move_to_end(event_id)
                    found[event_id] = kept
        stale = [event_id for event_id in stamps if event_id not in found]
        if stale:
            # Read after the stamps: a play finished in between is in the plays, and the stamp kept
            # is the older one, so the next request scores the event again. Never the reverse.
            plays = finished_plays_of_events(self.store, stale)
            by_event: dict[str, list[tuple[int, int, int, float]]] = defaultdict(list)
            for p in plays:
                if p.points is not None:
                    by_event[p.event_id].append((p.board, p.seat, p.user_id, p.points))
            for event_id in stale:
                found[event_id] = _scored(stamps[event_id], by_event[event_id])
            with self._lock:
                for event_id in stale:
                    self._scored[event_id] = found[event_id]
                    self._scored.move_to_end(event_id)
                while len(self._scored) > self.kept:
                    self._scored.popitem(last=False)
        return found


def _scored(stamp: Stamp, plays: list[tuple[int, int, int, float]]) -> EventScores:
    """``plays``: each finished play's board, seat, player and points."""
    fields: dict[tuple[int, int], dict[int, float]] = defaultdict(dict)  # by (board, seat)
    for board, seat, user, points in plays:
        fields[(board, seat)][user] = points
    boards: dict[tuple[int, int], FieldScore] = {}
    percents: dict[int, list[float]] = defaultdict(list)
    above: dict[int, float] = defaultdict(float)
    for (board, _seat), field in sorted(fields.items()):
        for user, score in score_field(field).items():
            boards[(board, user)] = score
            percents[user].append(score.percent)
            above[user] += score.above_average
    return EventScores(stamp, boards, dict(percents), dict(above), standings(fields))


def _ranked(scored: Iterable[EventScores], ranked_boards: int) -> list[Ranked]:
    percents: dict[int, list[float]] = defaultdict(list)
    above: dict[int, float] = defaultdict(float)
    for event in scored:
        for user, found in event.percents.items():
            percents[user].extend(found)
            above[user] += event.above[user]
    rows = sorted(((user, Standing(user, len(found), math.fsum(found) / len(found), above[user]))
                   for user, found in percents.items()),
                  key=lambda r: (r[1].boards < ranked_boards, -r[1].percent, -r[1].above_average, r[0]))
    shown: list[Ranked] = []
    for provisional in (False, True):
        group = [(user, row) for user, row in rows if (row.boards < ranked_boards) == provisional]
        after = len(shown)  # the provisional are placed after every settled player
        for (user, row), place in zip(group, places([row for _, row in group]), strict=True):
            shown.append(Ranked(user, row, provisional, after + place))
    return shown
