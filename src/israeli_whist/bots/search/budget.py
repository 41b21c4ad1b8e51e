"""How long the expert thinks, and where the time goes: a decision's clock, and a race among
its candidates over deals drawn one at a time.

Every candidate still in the race is scored on every deal drawn (common random numbers), so
two candidates are compared by their differences deal by deal, whose spread is far smaller
than that of their values. With racing on, from ``RACE_MIN_DEALS`` deals on, at checkpoints
a quarter of the deals apart, a candidate whose mean difference to the leader is below zero by
more than ``PRUNE_Z`` standard errors is dropped (racing, as in successive halving): the
deals still to come go to the candidates that are close. The race is settled once one
candidate is left, or once every rival has scored exactly what the leader scored on every one
of at least ``2 * RACE_MIN_DEALS`` deals: more deals would most likely not tell them apart.

>>> race = Race([1, 2, 3], preferred=2, racing=True)
>>> for deal in range(8):
...     race.add({1: 5.0 + deal % 3, 2: 5.0 + deal % 3, 3: 0.0})
>>> race.alive, race.leader(), race.settled()
([1, 2], 2, False)
>>> for deal in range(8):
...     race.add({1: 5.0, 2: 5.0})
>>> race.settled()
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from israeli_whist.core.actions import Action

RACE_MIN_DEALS = 8  # deals before any candidate is dropped: a few deals say little
PRUNE_Z = 2.5  # standard errors below the leader that drop a candidate


@dataclass
class Clock:
    """The CPU time a decision has taken, against its budget (None: no limit). The time is the
    thread's own (``time.thread_time``): the server runs its bots in threads, and time spent by
    another thread is not this decision's."""

    budget: float | None
    start: float = field(default_factory=time.thread_time)

    def spent(self) -> float:
        return time.thread_time() - self.start


class Pacer:
    """A search's steps against its clock, the clock read once a step (in a sandbox a read of
    the thread's CPU time may cost tens of microseconds): whether one more step as dear as the
    last still fits in the budget. Without a budget the clock is never read."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.last = clock.spent() if clock.budget is not None else 0.0
        self.cost = 0.0

    def step_done(self) -> None:
        if self.clock.budget is not None:
            now = self.clock.spent()
            self.cost, self.last = now - self.last, now

    def another_fits(self) -> bool:
        return self.clock.budget is None or self.last + self.cost <= self.clock.budget


class Race:
    """Candidates scored deal by deal; see the module's docstring. Without racing, every
    candidate stays in to the end and the race is never settled early: the search draws all
    the deals it was given."""

    def __init__(self, candidates: Sequence[Action], preferred: Action, racing: bool) -> None:
        self.candidates = list(candidates)
        self.preferred = preferred  # wins ties: the basic bot's choice
        self.racing = racing
        self.alive = list(candidates)
        self.scores: dict[Action, list[float]] = {action: [] for action in candidates}
        self.totals = dict.fromkeys(candidates, 0.0)
        self.deals = 0
        self._next_check = RACE_MIN_DEALS

    def add(self, scores: Mapping[Action, float]) -> None:
        """One more deal: the score of every candidate still in the race."""
        for action in self.alive:
            value = scores[action]
            self.scores[action].append(value)
            self.totals[action] += value
        self.deals += 1
        if self.racing and self.deals >= self._next_check:
            self._next_check = self.deals + max(1, self.deals // 4)
            self._prune()

    def add_many(self, candidates: Sequence[Action], rows: Sequence[Sequence[float]]) -> None:
        """Deals in bulk: ``rows[d][i]`` is ``candidates[i]``'s score on deal ``d`` (the
        candidates alive when the deals were drawn). The race is checked at the same deals as
        with ``add``, one at a time; only ``settled`` is left to the caller, after the batch."""
        done = 0
        while done < len(rows):
            take = len(rows) - done
            if self.racing:  # up to the next checkpoint exactly
                take = max(1, min(take, self._next_check - self.deals))
            columns = list(zip(*rows[done:done + take], strict=True))
            alive = set(self.alive)
            for action, column in zip(candidates, columns, strict=True):
                if action in alive:
                    self.scores[action].extend(column)
                    self.totals[action] += math.fsum(column)
            self.deals += take
            done += take
            if self.racing and self.deals >= self._next_check:
                self._next_check = self.deals + max(1, self.deals // 4)
                self._prune()

    def leader(self) -> Action:
        """The candidate with the best total, the preferred one on a tie, else the first listed.
        All candidates in the race have the same number of deals, so totals rank as means do."""
        best = max(self.totals[action] for action in self.alive)
        if self.preferred in self.alive and self.totals[self.preferred] >= best:
            return self.preferred
        return next(action for action in self.alive if self.totals[action] >= best)

    def settled(self) -> bool:
        if not self.racing:
            return False
        if len(self.alive) == 1:
            return True
        if self.deals < 2 * RACE_MIN_DEALS:
            return False
        leader = self.leader()
        total = self.totals[leader]
        if any(self.totals[action] != total for action in self.alive):
            return False  # cheap first: lists of equal values have equal totals
        leading = self.scores[leader]
        return all(self.scores[action] == leading for action in self.alive)

    def _prune(self) -> None:
        leader = self.leader()
        self.alive = [action for action in self.alive
                      if action == leader or not self._clearly_worse(action, leader)]

    def _clearly_worse(self, action: Action, leader: Action) -> bool:
        differences = [a - b for a, b in zip(self.scores[action], self.scores[leader], strict=True)]
        count = len(differences)
        mean = math.fsum(differences) / count
        # The sample variance in floats: ``statistics.stdev`` works in exact fractions, and at
        # the checkpoints of a race of hundreds of deals it took a tenth of a decision's time.
        variance = math.fsum((d - mean) ** 2 for d in differences) / (count - 1)
        return mean + PRUNE_Z * math.sqrt(variance / count) < 0

    def means(self) -> dict[Action, float]:
        """Each candidate's value: its mean over the deals drawn. A candidate dropped early is
        valued by its difference to the leader over the deals it was scored on, added to the
        leader's mean over them all, and never above it (it was dropped as worse)."""
        leader = self.leader()
        full = self.totals[leader] / self.deals
        values = {}
        for action in self.candidates:
            scores = self.scores[action]
            if len(scores) == self.deals:
                values[action] = self.totals[action] / self.deals
                continue
            paired = self.scores[leader][:len(scores)]
            values[action] = min(full, full + (math.fsum(scores) - math.fsum(paired)) / len(scores))
        return values
