"""What a review adds up to for each seat, in a hand and over the game: decisions counted,
points lost by kind of decision, accuracy, verdicts, the costliest decisions, and where the
hand's points went (its score = par - the seat's decisions' cost + the rest: the others' play
and how the hidden cards lay)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from israeli_whist.bots.review.hand import DecisionReview, HandReview
from israeli_whist.bots.review.settings import PHASES, VERDICTS

COSTLIEST = 3


@dataclass(frozen=True)
class SeatTally:
    decisions: int
    cost: float
    cost_by_phase: dict[str, float]
    accuracy: float | None  # None without a decision
    verdicts: dict[str, int]

    @property
    def mean_cost(self) -> float | None:
        return self.cost / self.decisions if self.decisions else None


def tally(decisions: Sequence[DecisionReview], seat: int) -> SeatTally:
    own = [d for d in decisions if d.seat == seat]
    by_phase = {phase: math.fsum(d.weighing.cost for d in own if d.phase == phase) for phase in PHASES}
    accuracy = math.fsum(d.accuracy for d in own) / len(own) if own else None
    verdicts: dict[str, int] = {name: sum(1 for d in own if d.verdict == name) for name in VERDICTS}
    return SeatTally(len(own), math.fsum(d.weighing.cost for d in own), by_phase, accuracy, verdicts)


def costliest(hands: Sequence[HandReview], seat: int) -> list[tuple[HandReview, DecisionReview]]:
    """The seat's ``COSTLIEST`` costliest decisions with a verdict, dearest first."""
    found = [(hand, d) for hand in hands for d in hand.decisions if d.seat == seat and d.verdict is not None]
    found.sort(key=lambda pair: (-pair[1].weighing.cost, pair[0].number, pair[1].step))
    return found[:COSTLIEST]


def all_decisions(hands: Sequence[HandReview]) -> list[DecisionReview]:
    return [d for hand in hands for d in hand.decisions]
