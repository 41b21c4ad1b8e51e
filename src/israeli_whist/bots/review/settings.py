"""The review's budget, and how a decision's cost in expected points becomes a verdict and an
accuracy (docs/review.md says how the thresholds were calibrated).

A decision's **cost** is the best option's expected points less the chosen option's, both from
what the seat knew (``israeli_whist.bots.review.weighing``). A cost is given a **verdict** only
when it is both large enough (the game's thresholds below, in the points of that game) and
clearly more than the sampling error: at least ``SURE_Z`` standard errors of the paired
difference. So a choice the deals drawn cannot tell from the best is never called a mistake.

A decision's **accuracy** is ``100 * exp(-cost / scale)``, the game's ``scale`` being its
mistake threshold: a free choice scores 100, a mistake's cost about 37, a blunder's about 15.
A seat's accuracy over a hand or a game is the mean over its decisions (forced ones, with one
legal choice, are not counted): the share of the best play it found, with big losses weighing
more than small ones but never more than a whole decision.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["inaccuracy", "mistake", "blunder"]
VERDICTS: tuple[Verdict, ...] = ("inaccuracy", "mistake", "blunder")
PHASES = ("auction", "frisch", "contract", "play")

SURE_Z = 2.0  # standard errors of the paired difference a cost must exceed to get a verdict


@dataclass(frozen=True)
class Thresholds:
    """Costs (in the game's points for the hand) from which a decision is an inaccuracy, a
    mistake or a blunder."""

    inaccuracy: float
    mistake: float
    blunder: float

    def verdict(self, cost: float, error: float) -> Verdict | None:
        if cost <= SURE_Z * error:
            return None
        for name, least in (("blunder", self.blunder), ("mistake", self.mistake), ("inaccuracy", self.inaccuracy)):
            if cost >= least:
                return name  # type: ignore[return-value]
        return None

    def accuracy(self, cost: float) -> float:
        return 100.0 * math.exp(-max(cost, 0.0) / self.mistake)


# By game, in its own points for the hand: about a sixth, a third and two thirds of what one
# trick too few or too many usually changes in a hand's score. Israeli Whist: a contract of 3 made
# scores 19 and a trick short -10; Whistiti: an exact bid of 2 scores 20 and a trick off -5; in
# Classic Whist a side's net points move by one a trick (net: its points less the other side's).
# Calibrated on the costs of the four levels (docs/review.md).
THRESHOLDS = {
    "israeli": Thresholds(4.0, 8.0, 16.0),
    "whistiti": Thresholds(4.0, 8.0, 16.0),
    "classic": Thresholds(0.25, 0.5, 1.0),
}


def thresholds_for(game: str) -> Thresholds:
    return THRESHOLDS[game]


@dataclass(frozen=True)
class ReviewSettings:
    """The review's budget: ``deals`` drawn for each decision (every option is scored on the
    same deals), ``par_playouts`` times the deal is played by expert bots for its par, each of
    their decisions drawing at most ``par_deals`` deals (a count, not a time: the same review on
    any machine), and the positions the exact search may
    visit to prove a mistaken card (``proven_nodes``)."""

    deals: int = 300
    par_playouts: int = 8
    par_deals: int = 16
    proven_nodes: int = 2_000_000

    def __post_init__(self) -> None:
        if not 2 <= self.deals <= 10_000:
            raise ValueError(f"A review draws 2 to 10000 deals a decision, not {self.deals}")
        if not (self.par_playouts == 0 or 2 <= self.par_playouts <= 1000):
            # One playout would give a par with no error to state.
            raise ValueError(f"A par takes 2 to 1000 playouts (0: no par), not {self.par_playouts}")
        if not 8 <= self.par_deals <= 10_000:
            raise ValueError(f"The par's bots draw 8 to 10000 deals a decision, not {self.par_deals}")


DEFAULT_SETTINGS = ReviewSettings()
