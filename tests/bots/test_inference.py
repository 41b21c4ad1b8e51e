"""Inference from the bids: the others' hands at their bid are rebuilt from the view alone, the
bid model prefers the true deal of basic bots to a uniform one, and the inferring sampler draws
only deals that fit the view, leaning towards hands that explain the bids."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.expert import ExpertBot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search import fastplayout
from israeli_whist.bots.search.deal_scoring import compiled_scoring_available, dealer_arguments
from israeli_whist.bots.search.inference import (
    BASIC_SHARE,
    BID_SPREAD,
    MAX_TRIES,
    SEARCHER_OFFSET,
    BidLikelihood,
    InferringSampler,
)
from israeli_whist.bots.search.sampling import DealSampler
from israeli_whist.core.actions import Phase
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view

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


# --- The same model in C: the deals the anytime expert draws with infer=1 ---------------------

needs_c = pytest.mark.skipif(not compiled_scoring_available(), reason="needs the compiled playout")


def compiled_dealer(view: SeatView, spread: float = BID_SPREAD) -> tuple[BidLikelihood, fastplayout.Dealer]:
    likelihood = BidLikelihood(view, spread)
    dealer = fastplayout.Dealer(*dealer_arguments(DealSampler(view)))
    bids = likelihood.compiled_arguments()
    assert bids is not None
    dealer.weigh_by_bids(*bids)
    return likelihood, dealer


@needs_c
@pytest.mark.parametrize("game_name", GAMES)
def test_the_compiled_model_gives_the_python_models_likelihood(game_name: str) -> None:
    rng = random.Random(3)
    checked = 0
    for state, view in play_views(game_name, 30, seed=21):
        likelihood, dealer = compiled_dealer(view)
        sampler = DealSampler(view)
        for deal in [state.hands] + [sampler.sample(rng) for _ in range(4)]:
            assert dealer.bids_likelihood(tuple(deal)) == pytest.approx(likelihood(deal), rel=1e-12, abs=1e-300)
            checked += 1
    assert checked >= 100


@needs_c
@pytest.mark.parametrize("game_name", GAMES)
def test_compiled_inferred_deals_fit_the_view_and_explain_the_bids_better(game_name: str) -> None:
    inferred_misses, uniform_misses = [], []
    for number, (_, view) in enumerate(play_views(game_name, 25, seed=8)):
        likelihood = BidLikelihood(view)
        arguments = dealer_arguments(DealSampler(view))
        constraints = DealSampler(view).constraints
        inferred = fastplayout.draw_deals(*arguments, 6, number, likelihood.compiled_arguments())
        uniform = fastplayout.draw_deals(*arguments, 6, number)
        for deal, drawn in zip(inferred, uniform, strict=True):
            assert constraints.is_consistent(deal)
            for seat in likelihood.bidders:
                bid, before = view.contracts[seat], likelihood.played[seat]
                inferred_misses.append(abs(bid - likelihood.expected_bid(seat, deal[seat] | before)))
                uniform_misses.append(abs(bid - likelihood.expected_bid(seat, drawn[seat] | before)))
    assert statistics.mean(inferred_misses) < 0.8 * statistics.mean(uniform_misses)


@needs_c
def test_compiled_bids_no_deal_explains_still_give_deals_that_fit_the_view() -> None:
    _, view = play_views("israeli", 1, seed=1)[0]
    likelihood, dealer = compiled_dealer(view, spread=1e-3)  # every draw's chance of being kept is nil
    deals = fastplayout.draw_deals(*dealer_arguments(DealSampler(view)), 5, 7, likelihood.compiled_arguments())
    assert all(DealSampler(view).constraints.is_consistent(deal) for deal in deals)
    assert all(dealer.bids_likelihood(tuple(deal)) < 1e-100 for deal in deals)


@needs_c
@pytest.mark.parametrize("bad", [
    {"spread": 0.0}, {"spread": math.nan}, {"max_tries": 0}, {"strain": 5}, {"hand_size": 53},
    {"pack": 1 << 52}, {"bidders": (9,)}, {"played": (1 << 60,)}, {"contracts": ()}, {"basic_share": 1.5},
    {"searcher_offset": math.inf},
])
def test_the_compiled_model_refuses_arguments_that_do_not_fit(bad: dict[str, Any]) -> None:
    _, view = play_views("whistiti", 6, seed=2)[0]
    dealer = fastplayout.Dealer(*dealer_arguments(DealSampler(view)))
    names = ("bidders", "contracts", "played", "bonuses", "pack", "strain", "hand_size", "zero_line", "spread",
             "max_tries", "searcher_offset", "basic_share")
    good = ((1,), (2,), (0,), (0.0,), (1 << 52) - 1, 0, 12, 0.5, 1.0, 4, 0.8, 0.5)
    arguments: dict[str, Any] = dict(zip(names, good, strict=True))
    dealer.weigh_by_bids(*arguments.values())  # these fit: each case below breaks one
    with pytest.raises(ValueError):
        dealer.weigh_by_bids(*{**arguments, **bad}.values())


@needs_c
def test_the_learned_model_and_a_view_before_the_bids_give_no_compiled_model() -> None:
    _, view = play_views("israeli", 6, seed=4)[0]
    assert BidLikelihood(view).compiled_arguments()
    assert BidLikelihood(view, learned=True).compiled_arguments() is None
    game = make_game("israeli")
    state = game.new_hand(0, 3)
    assert BidLikelihood(seat_view(state, state.player)).compiled_arguments() is None


@needs_c
def test_the_anytime_expert_with_infer_1_searches_the_card_play_in_c() -> None:
    bot = make_bot("expert@20ms:infer=1", seed=3)
    assert isinstance(bot, ExpertBot)
    for _, view in play_views("whistiti", 4, seed=6):
        assert bot._scores_in_c(view)
        assert bot.choose(view) in view.legal_actions
    assert not make_bot("expert@20ms:infer=2", seed=3)._scores_in_c(view)  # type: ignore[attr-defined]


@pytest.mark.parametrize("game_name", GAMES)
def test_the_model_expects_a_bid_like_the_basic_bots_or_a_searching_players(game_name: str) -> None:
    """The likelihood of a bid is the even mixture of two players': one that bids the basic
    estimate (0 under the zero line) and a searching player that bids ``SEARCHER_OFFSET`` above
    it. A bid at the basic centre is at least ``BASIC_SHARE`` as likely as a bid can be; one
    nearer the searching player's centre than the basic one is likelier under the mixture than
    under the basic model alone; one six tricks off both is all but ruled out."""
    checked = 0
    for state, view in play_views(game_name, 20, seed=9):
        model = BidLikelihood(view)
        for seat in model.bidders:
            hand = state.hands[seat] | model.played[seat]
            raw, basic = model.raw_estimate(seat, hand), model.expected_bid(seat, hand)

            def likelihood(bid: int, seat: int = seat, view: SeatView = view, state: HandState = state) -> float:
                contracts = tuple(bid if s == seat else c for s, c in enumerate(view.contracts))
                return BidLikelihood(replace(view, contracts=contracts)).seat_likelihood(seat, state.hands)

            if basic == round(basic):
                assert BASIC_SHARE <= likelihood(round(basic)) <= 1
            searcher = round(raw + SEARCHER_OFFSET)
            if abs(searcher - raw - SEARCHER_OFFSET) < abs(searcher - basic):
                miss = searcher - basic
                assert likelihood(searcher) > BASIC_SHARE * math.exp(-miss * miss / (2 * BID_SPREAD ** 2))
            assert likelihood(round(max(basic, raw + SEARCHER_OFFSET)) + 6) < 1e-3
            checked += 1
    assert checked >= 40
