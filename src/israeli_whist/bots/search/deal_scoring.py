"""The expert's card play in Israeli Whist and Whistiti, a batch of deals at a time in C.

For each deal the search draws, it plays the hand out from every candidate card and scores the
seat's points. In Python each deal cost about 230 microseconds, of which the compiled playouts
were under a tenth: drawing the deal, building a state for it, applying the card and scoring
took the rest. ``fastplayout.score_deals`` does all of that in C for a batch of deals, from the
split of each group of unseen cards between the places (``DealSampler.split_table``, the
choices ``DealSampler.draw_counts`` makes) and one seed for its random numbers; the scores come from the seat's table of
points by its final tricks (``determinize.own_points``). The deals are drawn from the same
distribution as ``DealSampler.sample``'s (up to the rounding of the split's chances to
doubles), the playouts are the same policy's, so only the random numbers differ.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from israeli_whist.bots.search.determinize import own_points
from israeli_whist.bots.search.inference import CompiledBids
from israeli_whist.bots.search.playout import _compiled
from israeli_whist.bots.search.sampling import DealSampler, SplitTable
from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView


def compiled_scoring_available() -> bool:
    return _compiled is not None and hasattr(_compiled, "score_deals")


def dealer_arguments(sampler: DealSampler) -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...], tuple[int, ...],
                                                    SplitTable]:
    """What ``fastplayout.Dealer`` deals from: each seat's known cards (the viewer's whole hand),
    the groups of unseen cards, the places they go to, and the table of how many go where."""
    constraints = sampler.constraints
    base = list(constraints.known)
    if constraints.seat >= 0:
        base[constraints.seat] = constraints.hand
    return tuple(base), tuple(tuple(cards) for _, cards in sampler.groups), sampler.places, sampler.split_table()


class DealBatches:
    """``sampler``'s deals drawn in C (``fastplayout.draw_deals``) a batch at a time and handed
    out one by one: ``sample`` as ``DealSampler.sample``, for the expert's bids, calls and Frisch
    passes, whose scoring stays in Python. ``bids`` (``BidLikelihood.compiled_arguments``)
    draws them by how likely they make the bids, as ``InferringSampler.sample`` does."""

    def __init__(self, sampler: DealSampler, batch: int = 16, bids: CompiledBids | None = None) -> None:
        if not compiled_scoring_available():
            raise ValueError("deals in batches need the compiled playout module")
        self.arguments = dealer_arguments(sampler)
        self.batch = batch
        self.bids = bids
        self.waiting: list[tuple[int, ...]] = []

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        if not self.waiting:
            assert _compiled is not None  # the constructor checked
            self.waiting = _compiled.draw_deals(*self.arguments, self.batch, rng.getrandbits(64), self.bids)
        return self.waiting.pop()


class CardScorer:
    """Scores candidate cards of ``view`` (the play phase of an individual game) on deals from
    ``sampler``, weighed by the bids where ``bids`` gives them (as for ``DealBatches``);
    ``state`` is any one deal's state for the view, for the table of points."""

    def __init__(self, view: SeatView, sampler: DealSampler, state: HandState,
                 bids: CompiledBids | None = None) -> None:
        if (view.phase != Phase.PLAY or view.rules.traits.partnerships or not view.rules.traits.contracts
                or not compiled_scoring_available()):
            raise ValueError("compiled deal scoring is for the card play of the individual games")
        self.base, self.groups, self.places, self.split = dealer_arguments(sampler)
        self.trump, self.leader = view.trump, view.leader
        self.trick = tuple(card for _, card in view.trick)
        self.won, self.contracts = view.tricks_won, view.contracts
        self.points = own_points(state, view.seat)
        self.bids = bids

    def score(self, candidates: Sequence[Action], deals: int, rng: random.Random) -> list[tuple[int, ...]]:
        """For each of ``deals`` new deals, the seat's points after each candidate, in order."""
        assert _compiled is not None  # the constructor checked
        scores: list[tuple[int, ...]] = _compiled.score_deals(
            self.base, self.groups, self.places, self.split, deals, rng.getrandbits(64), tuple(candidates),
            self.trump, self.leader, self.trick, self.won, self.contracts, self.points, self.bids)
        return scores
