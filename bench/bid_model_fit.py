"""How well the bid inference's model of the others' bids fits the bids players make.

Bids are collected with the true hands behind them: from hands of our games played by four bots
of one level (``--level``, the anytime expert by default), and from OpenSpiel's C++ ISMCTS
bidding in ``oh_hell`` (4 players, 12 cards, scored as Whistiti), where the [rl] extra is
installed. For each bid, the miss is the contract less a model's expected bid for the bidder's
hand at the bid (``israeli_whist.bots.search.inference``): the basic bot's estimate with its zero line (the
model before the mixture), the estimate plus ``SEARCHER_OFFSET`` (a searching player), and,
for the mixture the inference uses, the mean log-likelihood of the bids (higher fits better).
It prints the mean, spread and root mean square of each model's misses.

Run:  python bench/bid_model_fit.py [--hands 200] [--seed 5] [--level expert@20ms] [--ismcts-deals 150]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
from collections.abc import Iterator

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search.inference import BID_SPREAD, SEARCHER_OFFSET, BidLikelihood
from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import CardSet
from israeli_whist.core.games import make_game
from israeli_whist.core.views import SeatView, seat_view

Bid = tuple[SeatView, int, CardSet]  # a view with every bid in, a bidder, the bidder's hand now


def table_bids(game_name: str, preset: str, hands: int, seed: int, level: str) -> Iterator[Bid]:
    game, rng = make_game(game_name, preset), random.Random(seed)
    bots = [make_bot(level, seed=f"{seed}-{seat}") for seat in range(game.players)]
    for number in range(hands):
        state = game.new_hand(number % game.players, rng)
        while not state.is_terminal and not (state.phase == Phase.PLAY and min(state.contracts) >= 0):
            state = state.apply(bots[state.player].choose(seat_view(state, state.player)))
        if not state.is_terminal:
            view = seat_view(state, state.player)
            for seat in BidLikelihood(view).bidders:
                yield view, seat, state.hands[seat]


def ismcts_bids(deals: int, seed: int) -> Iterator[Bid]:
    # Imported here: OpenSpiel and the bench's match come with the [rl] extra.
    from israeli_whist.rl.openspiel_ohhell import oh_hell_view, our_card
    from vs_openspiel_ismcts import OhHellMatch, draw_deals

    match = OhHellMatch(10.0)
    for number, deal in enumerate(draw_deals(deals, random.Random(seed))):
        step, state = match.ismcts(700, seed + number), match.deal(deal)
        while min(state.legal_actions()) >= 52:  # the bids (oh_hell numbers them above the cards)
            state.apply_action(step(state))
        view = oh_hell_view(state, state.current_player())
        hands = [0] * 4
        for index, card in enumerate(deal.cards[:48]):  # oh_hell deals player 0 first, a card at a time
            hands[index % 4] |= 1 << our_card(card)
        for seat in BidLikelihood(view).bidders:
            yield view, seat, hands[seat]


def report(name: str, bids: list[Bid]) -> None:
    basic_misses, searcher_misses, log_likelihoods, zeros = [], [], [], 0
    for view, seat, hand in bids:
        model = BidLikelihood(view)
        at_bid = hand | model.played[seat]
        contract = view.contracts[seat]
        zeros += contract == 0
        basic_misses.append(contract - model.expected_bid(seat, at_bid))
        searcher_misses.append(contract - model.raw_estimate(seat, at_bid) - SEARCHER_OFFSET)
        hands = tuple(hand if s == seat else 0 for s in range(view.players))
        log_likelihoods.append(math.log(max(model.seat_likelihood(seat, hands), 1e-300)))
    print(f"{name}: {len(bids)} bids, {zeros} of them zero")
    for label, misses in (("basic estimate, zero line", basic_misses),
                          (f"estimate + {SEARCHER_OFFSET}", searcher_misses)):
        rms = math.sqrt(statistics.fmean(m * m for m in misses))
        alone = statistics.fmean(-m * m / (2 * BID_SPREAD**2) for m in misses)
        print(f"  {label:<27} miss mean {statistics.fmean(misses):+.2f}, spread {statistics.pstdev(misses):.2f}, "
              f"rms {rms:.2f}; as the only model, mean log-likelihood {alone:.3f}")
    print(f"  the mixture (the model used), mean log-likelihood {statistics.fmean(log_likelihoods):.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--level", default="expert@20ms")
    parser.add_argument("--ismcts-deals", type=int, default=150, help="0: leave ISMCTS out")
    args = parser.parse_args()
    for game_name, preset in (("israeli", "standard"), ("whistiti", "standard"), ("whistiti", "oh_hell")):
        report(f"{game_name} ({preset}), {args.level}",
               list(table_bids(game_name, preset, args.hands, args.seed, args.level)))
    if args.ismcts_deals:
        report("oh_hell, OpenSpiel's C++ ISMCTS (700 simulations)", list(ismcts_bids(args.ismcts_deals, args.seed)))


if __name__ == "__main__":
    main()
