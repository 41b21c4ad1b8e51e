"""Inference from the bids: deals drawn in proportion to how likely each is to have produced
the contracts the other seats bid.

``israeli_whist.bots.search.sampling`` draws deals uniformly among those consistent with the cards seen, as if
a seat that bid 5 tricks could as well hold nothing. Here the others are modelled as bidding
by the basic bot's estimate of their hand (``israeli_whist.bots.judgement.basic_bidding.estimate_tricks``, with
its declarer bonus and its zero line), off by a normal error of ``BID_SPREAD`` tricks: a seat
whose imagined hand is worth ``e`` tricks bids ``b`` with a likelihood proportional to
``exp(-(b - e)^2 / (2 BID_SPREAD^2))``. The model is a prior over people's bids as much as a
description of the basic bot: the search bots bid within two tricks of the basic estimate,
people further. The learned trick estimator (``israeli_whist.bots.judgement.learned``, trained on expert
self-play) can stand in for the basic estimate: it guesses the tricks a hand takes in its
seat's place, with the contracts bid before it.

Rejection sampling turns the uniform draws into draws from the posterior: a deal is kept with
a chance equal to its likelihood (at most 1), so the kept deals are distributed as uniform x
likelihood, normalised. The likelihood is a product over the bidders, and each factor costs an
estimate of a hand (some 50 us, twice a uniform draw), so the coins are tossed one bidder at a
time and a deal is dropped at the first that says no. A view whose bids no deal explains well
(a player who bid wildly) would make that slow, so after ``MAX_TRIES`` draws the one that got
furthest is taken: the search then leans on the bids as far as its time allows and never
stalls.

Only what the seat saw is used: the contracts are public, the others' hands at their bid are
the imagined hands now plus the cards they have played since (nothing else moves between the
bids and the play).
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from israeli_whist.bots.judgement.basic_bidding import DECLARER_BONUS, ZERO_LINE, Outlook, estimate_tricks
from israeli_whist.bots.judgement.basic_knowledge import played_by_seat
from israeli_whist.bots.search.sampling import Deal, DealSampler, game_pack
from israeli_whist.core.cards import CardSet
from israeli_whist.core.views import SeatView

if TYPE_CHECKING:
    from israeli_whist.bots.judgement.learned import LearnedEstimator

NO_INFERENCE, BASIC_BIDS, LEARNED_BIDS = 0, 1, 2  # the expert's ``bid_inference``: off, or the model of bids
BID_SPREAD = 1.0  # tricks: the spread of the others' bids around the basic estimate of their hand
# Searching players (our expert, OpenSpiel's ISMCTS) bid some 0.8 tricks above the basic estimate
# and, in 12-card oh_hell, hardly ever zero; the basic bot bids its estimate with its zero line.
# The model is the even mixture of the two (docs/search.md has the measurements).
SEARCHER_OFFSET = 0.8
BASIC_SHARE = 0.5
MAX_TRIES = 24  # draws a deal may take before the one that got furthest is used


class CompiledBids(NamedTuple):
    """``BidLikelihood`` as the compiled dealer takes it (``fastplayout.Dealer.weigh_by_bids``)."""

    bidders: tuple[int, ...]
    contracts: tuple[int, ...]
    played: tuple[int, ...]
    bonuses: tuple[float, ...]
    pack: int
    strain: int
    hand_size: int
    zero_line: float
    spread: float
    max_tries: int
    searcher_offset: float
    basic_share: float


class BidLikelihood:
    """How likely a deal makes the contracts that the other seats of ``view`` have bid."""

    def __init__(self, view: SeatView, spread: float = BID_SPREAD, learned: bool = False) -> None:
        self.view = view
        self.pack = game_pack(view)
        self.spread = spread
        self.scale = -1 / (2 * spread * spread)
        # The declarer first, then the highest bids: the likeliest to turn a deal down early.
        bidders = [s for s, bid in enumerate(view.contracts) if bid >= 0 and s != view.seat]
        self.bidders = tuple(sorted(bidders, key=lambda s: (s != view.declarer, -view.contracts[s])))
        self.learned = learned_estimator(view) if learned and self.bidders else None
        self.played = played_by_seat(view)

    def __bool__(self) -> bool:
        return bool(self.bidders)

    def expected_bid(self, seat: int, hand: CardSet) -> float:
        """The contract the basic bot would aim at with ``hand`` (the seat's cards at its bid); with
        the learned estimator, the tricks it expects of ``hand`` in the seat's place (it knows who
        won the auction, so no declarer's bonus), zero below the basic bot's zero line."""
        if self.learned is not None:
            return self._zero_lined(self.learned.tricks_for(hand, self.view.trump, seat, self.view))
        return self._zero_lined(self.raw_estimate(seat, hand))

    def _zero_lined(self, tricks: float) -> float:
        """``tricks`` as the basic bot bids them: 0 under the zero line where zero bids score."""
        return 0.0 if self.view.rules.traits.rewards_zero_bids and tricks < ZERO_LINE else tricks

    def raw_estimate(self, seat: int, hand: CardSet) -> float:
        """The basic estimate of ``hand`` in ``seat``'s place, with the declarer's bonus."""
        view = self.view
        estimate = estimate_tricks(hand, view.trump, Outlook(view.players, view.hand_size, self.pack & ~hand))
        if seat == view.declarer and view.rules.traits.trump_auction:
            estimate += DECLARER_BONUS
        return estimate

    def compiled_arguments(self) -> CompiledBids | None:
        """The model as ``fastplayout.Dealer.weigh_by_bids`` takes it, so that deals drawn in C
        follow the bids the same way; None where there is nothing to weigh by, or where the
        learned estimator models the bids (it runs in numpy, not in C)."""
        view = self.view
        if not self.bidders or self.learned is not None:
            return None
        bonus = DECLARER_BONUS if view.rules.traits.trump_auction else 0.0
        zero_line = ZERO_LINE if view.rules.traits.rewards_zero_bids else -math.inf
        return CompiledBids(self.bidders, tuple(view.contracts[s] for s in self.bidders),
                tuple(self.played[s] for s in self.bidders),
                tuple(bonus if s == view.declarer else 0.0 for s in self.bidders),
                self.pack, view.trump, view.hand_size, zero_line, self.spread, MAX_TRIES, SEARCHER_OFFSET,
                BASIC_SHARE)

    def seat_likelihood(self, seat: int, deal: Deal) -> float:
        """How likely ``seat`` bid its contract with its cards of ``deal`` (and those it has played):
        with the learned estimator, by the miss from its guess; otherwise by the mixture of a
        basic bot's bid and a searching player's (``SEARCHER_OFFSET`` above the estimate)."""
        hand, bid = deal[seat] | self.played[seat], self.view.contracts[seat]
        if self.learned is not None:
            miss = bid - self.expected_bid(seat, hand)
            return math.exp(self.scale * miss * miss)
        raw = self.raw_estimate(seat, hand)
        basic_miss, searcher_miss = bid - self._zero_lined(raw), bid - raw - SEARCHER_OFFSET
        return (BASIC_SHARE * math.exp(self.scale * basic_miss * basic_miss)
                + (1 - BASIC_SHARE) * math.exp(self.scale * searcher_miss * searcher_miss))

    def __call__(self, deal: Deal) -> float:
        """The likelihood of the bids seen, given ``deal`` (each seat's cards now), at most 1."""
        return math.prod(self.seat_likelihood(seat, deal) for seat in self.bidders)

    def passes(self, deal: Deal, rng: random.Random) -> tuple[int, float]:
        """Keeps ``deal`` with a chance equal to its likelihood, one bidder at a time: a deal is
        dropped at the first bidder whose coin says no, so most are judged on one estimate, not
        on all of them, and the chance of passing every bidder is still the product. Returns
        how many bidders it passed and the product of their likelihoods."""
        weight = 1.0
        for passed, seat in enumerate(self.bidders):
            likelihood = self.seat_likelihood(seat, deal)
            weight *= likelihood
            if rng.random() >= likelihood:
                return passed, weight
        return len(self.bidders), weight


def learned_estimator(view: SeatView) -> LearnedEstimator | None:
    """The learned estimator for the view's table, or None where none serves it (a game without
    shipped weights, a Whistiti table of more players than it knows): the basic estimate then
    models the bids, so ``infer=2`` plays at any table."""
    # Imported here: the network needs numpy, half the expert's import time, and only infer=2 uses it.
    from israeli_whist.bots.judgement.learned import LearnedEstimator, shipped_games
    from israeli_whist.bots.judgement.learned_features import MAX_PLAYERS

    if view.game not in shipped_games() or view.players > MAX_PLAYERS:
        return None
    return LearnedEstimator.load(view.game)


class InferringSampler:
    """A ``DealSampler`` whose deals follow the bids: same ``sample(rng)``, posterior draws."""

    def __init__(self, view: SeatView, remembered: Mapping[int, CardSet] | None = None,
                 spread: float = BID_SPREAD, learned: bool = False) -> None:
        self.uniform = DealSampler(view, remembered)
        self.likelihood = BidLikelihood(view, spread, learned)
        self.tries = 0  # draws made, for the bench: ``tries / deals`` is the price of inference
        self.deals = 0

    def sample(self, rng: random.Random) -> Deal:
        self.deals += 1
        if not self.likelihood:
            self.tries += 1
            return self.uniform.sample(rng)
        best: Deal = ()
        best_mark = (-1, -1.0)
        for _ in range(MAX_TRIES):
            self.tries += 1
            deal = self.uniform.sample(rng)
            mark = self.likelihood.passes(deal, rng)
            if mark[0] == len(self.likelihood.bidders):
                return deal
            if mark > best_mark:
                best, best_mark = deal, mark
        return best
