"""Inference from the bids: the others' hands at their bid are rebuilt from the view alone, the
bid model prefers the true deal of basic bots to a uniform one, and the inferring sampler draws
only deals that fit the view, leaning towards hands that explain the bids."""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator

import pytest

from whist.bots.basic import BasicBot
from whist.bots.inference import MAX_TRIES, BidLikelihood, InferringSampler
from whist.bots.registry import make_bot
from whist.bots.sampling import DealSampler
from whist.core.actions import Phase
from whist.core.games import make_game
from whist.core.state import HandState
from whist.core.views import SeatView, seat_view

GAMES = ["israeli", "whistiti"]


def basic_hands(game_name: str, count: int, seed: int) -> Iterator[tuple[HandState, HandState]]:
    """(the state when the play starts, a state later in the play) of hands the basic bot plays."""
    game = make_game(game_name)
    bot, rng = BasicBot(seed), random.Random(seed)
    hand_numbers = len(game.rules.hand_sizes()) if game_name == "whistiti" else 1  # type: ignore[attr-defined]
    for n in range(count):
        state = game.new_hand(n % game.players, rng, rng.randrange(hand_numbers))
        first_play: HandState | None = None
        stop = rng.randrange(game.players * 8)
        while not state.is_terminal:
            if state.phase == Phase.PLAY:
                first_play = first_play or state
                if stop == 0:
                    break
                stop -= 1
            state = state.apply(bot.choose(seat_view(state, state.player)))
        if first_play is not None and not state.is_terminal:
            yield first_play, state


def play_views(game_name: str, count: int, seed: int) -> list[tuple[HandState, SeatView]]:
    return [(state, seat_view(state, state.player)) for _, state in basic_hands(game_name, count, seed)]


@pytest.mark.parametrize("game_name", GAMES)
def test_the_hands_at_the_bids_are_the_hands_now_and_the_cards_played_since(game_name: str) -> None:
    checked = 0
    for first_play, state in basic_hands(game_name, 12, seed=5):
        for viewer in range(state.players):
            likelihood = BidLikelihood(seat_view(state, viewer))
            for seat in range(state.players):
                assert state.hands[seat] | likelihood.played[seat] == first_play.hands[seat]
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("game_name", GAMES)
def test_the_model_finds_the_basic_bots_true_deals_likelier_than_uniform_ones(game_name: str) -> None:
    true_weights: list[float] = []
    uniform_weights: list[float] = []
    rng = random.Random(2)
    for state, view in play_views(game_name, 40, seed=3):
        likelihood = BidLikelihood(view)
        assert likelihood.bidders and view.seat not in likelihood.bidders
        true_weights.append(likelihood(state.hands))
        sampler = DealSampler(view)
        uniform_weights.extend(likelihood(sampler.sample(rng)) for _ in range(5))
    assert statistics.mean(true_weights) > 1.5 * statistics.mean(uniform_weights)
    assert all(0 < w <= 1 for w in true_weights + uniform_weights)


@pytest.mark.parametrize("game_name", GAMES)
def test_inferred_deals_fit_the_view_and_explain_the_bids_better(game_name: str) -> None:
    rng = random.Random(4)
    inferred_misses, uniform_misses = [], []
    for _, view in play_views(game_name, 25, seed=8):
        sampler = InferringSampler(view)
        uniform = DealSampler(view)
        likelihood = sampler.likelihood
        for _ in range(6):
            inferred, drawn = sampler.sample(rng), uniform.sample(rng)
            assert uniform.constraints.is_consistent(inferred)
            for seat in likelihood.bidders:
                bid, before = view.contracts[seat], likelihood.played[seat]
                inferred_misses.append(abs(bid - likelihood.expected_bid(seat, inferred[seat] | before)))
                uniform_misses.append(abs(bid - likelihood.expected_bid(seat, drawn[seat] | before)))
        assert sampler.deals == 6 and 6 <= sampler.tries <= 6 * MAX_TRIES
    assert statistics.mean(inferred_misses) < 0.8 * statistics.mean(uniform_misses)


def test_bids_no_deal_explains_take_the_likeliest_of_the_tries() -> None:
    _, view = play_views("israeli", 1, seed=1)[0]
    sampler = InferringSampler(view, spread=1e-3)  # every draw's chance of being kept is nil
    rng = random.Random(0)
    deal = sampler.sample(rng)
    assert sampler.tries == MAX_TRIES and sampler.uniform.constraints.is_consistent(deal)


def test_before_any_bid_the_draws_are_the_uniform_samplers() -> None:
    game = make_game("israeli")
    state = game.new_hand(0, 3)
    while state.phase != Phase.CONTRACT:
        state = state.apply(BasicBot().choose(seat_view(state, state.player)))
    view = seat_view(state, state.player)
    assert not any(bid >= 0 for bid in view.contracts)
    sampler = InferringSampler(view)
    assert [sampler.sample(random.Random(9)) for _ in range(3)] == \
        [DealSampler(view).sample(random.Random(9)) for _ in range(3)]


def test_the_learned_estimator_can_model_the_bids() -> None:
    rng = random.Random(6)
    for state, view in play_views("israeli", 6, seed=12):
        sampler = InferringSampler(view, learned=True)
        likelihood = sampler.likelihood
        assert likelihood.learned is not None
        for seat in likelihood.bidders:
            hand = state.hands[seat] | likelihood.played[seat]
            assert likelihood.expected_bid(seat, hand) == pytest.approx(
                likelihood.learned.tricks_for(hand, view.trump, seat, view)) or likelihood.expected_bid(seat, hand) == 0
        assert sampler.uniform.constraints.is_consistent(sampler.sample(rng))


@pytest.mark.parametrize(("game_name", "options"), [("whistiti", {"players": "5"}), ("classic", {})])
def test_where_no_learned_estimator_serves_the_table_the_basic_estimate_models_the_bids(
        game_name: str, options: dict[str, str]) -> None:
    bot = make_bot("expert:deals=4:infer=2", seed=1)
    game = make_game(game_name, options=options)
    state = game.new_hand(0, 7, len(game.rules.hand_sizes()) - 1 if game_name == "whistiti" else 0)  # type: ignore[attr-defined]
    checked = 0
    while not state.is_terminal:
        view = seat_view(state, state.player)
        if view.phase == Phase.PLAY and any(bid >= 0 for bid in view.contracts):
            assert InferringSampler(view, learned=True).likelihood.learned is None
            checked += 1
        state = state.apply(bot.choose(view))
    assert checked > 0 if game_name == "whistiti" else checked == 0  # Classic Whist has no contracts
