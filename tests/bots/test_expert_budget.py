"""The anytime expert: the race among candidates, the deal cap and the time budget, the level
strings that set them. Nothing here depends on how fast the machine is: a budget is either
far too small (the search draws its minimum) or absent (the deal cap decides)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from israeli_whist.bots.matches.tournament import TournamentError, run_tournament, spec_from
from israeli_whist.bots.players.expert import (
    BID_SLOPES,
    DEAL_CAP,
    DEFAULT_BUDGET,
    ExpertBot,
    ExpertSettings,
    budget_settings,
)
from israeli_whist.bots.players.registry import BOT_LEVELS, UnknownLevelError, check_level, make_bot, parse_level
from israeli_whist.bots.search.budget import RACE_MIN_DEALS, Race
from israeli_whist.bots.search.individual import paranoid_value_exhaustive
from israeli_whist.core.actions import Phase, contract_tricks
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view

CAPPED = ExpertSettings(racing=True).with_deals(24)


def test_a_candidate_worse_on_every_deal_is_dropped_once_the_race_may_drop() -> None:
    race = Race([7, 8, 9], preferred=8, racing=True)
    for deal in range(RACE_MIN_DEALS - 1):
        race.add({7: float(deal), 8: deal + 1.0, 9: deal + 1.5})
    assert race.alive == [7, 8, 9]  # too few deals to judge
    race.add({7: 0.0, 8: 1.0, 9: 1.5})
    assert race.alive == [9]  # 7 and 8 trail 9 on every deal
    assert race.settled() and race.leader() == 9


def test_a_noisy_difference_keeps_both_in_the_race() -> None:
    rng = random.Random(1)
    race = Race([1, 2], preferred=1, racing=True)
    for _ in range(40):
        common = rng.gauss(0, 10)
        race.add({1: common + rng.gauss(0, 5), 2: common + rng.gauss(0.5, 5)})
    assert race.alive == [1, 2] and not race.settled()


def test_without_racing_no_one_is_dropped_and_ties_go_to_the_preferred() -> None:
    race = Race([3, 4, 5], preferred=5, racing=False)
    for _ in range(50):
        race.add({3: 0.0, 4: 2.0, 5: 2.0})
    assert race.alive == [3, 4, 5] and not race.settled()
    assert race.leader() == 5
    assert race.means() == {3: 0.0, 4: 2.0, 5: 2.0}
    race = Race([3, 4, 5], preferred=6, racing=False)  # the basic bot's choice was not tried
    race.add({3: 1.0, 4: 2.0, 5: 2.0})
    assert race.leader() == 4


def test_a_dropped_candidate_is_valued_below_the_leader() -> None:
    race = Race([1, 2], preferred=1, racing=True)
    for deal in range(RACE_MIN_DEALS):
        race.add({1: 10.0 + deal, 2: 4.0 + deal})
    assert race.alive == [1]
    means = race.means()
    assert means[1] == pytest.approx(13.5) and means[2] == pytest.approx(7.5)


def search_positions(game_name: str, count: int, seed: int) -> list[tuple[HandState, SeatView]]:
    """Positions of real choice (two or more distinct candidates), played there by basic bots."""
    rng = random.Random(seed)
    game = make_game(game_name)
    basic = make_bot("basic")
    found: list[tuple[HandState, SeatView]] = []
    while len(found) < count:
        state = game.new_hand(rng.randrange(game.players), rng.randrange(1 << 30), hand_number=rng.randrange(12))
        for _ in range(rng.randrange(50)):
            if state.is_terminal:
                break
            state = state.apply(basic.choose(seat_view(state, state.player)))
        if not state.is_terminal and len(state.legal_actions()) > 2 and state.phase in (Phase.PLAY, Phase.CONTRACT):
            found.append((state, seat_view(state, state.player)))
    return found


@pytest.mark.parametrize("game_name", ["israeli", "classic", "whistiti"])
def test_the_deal_cap_bounds_the_search_and_racing_only_shortens_it(game_name: str) -> None:
    searched = 0
    for k, (_, view) in enumerate(search_positions(game_name, 8, seed=len(game_name))):
        fixed = ExpertBot(k, replace(CAPPED, racing=False))
        raced = ExpertBot(k, CAPPED)
        fixed.choose(view)
        raced.choose(view)
        if fixed.last_search is None:  # one candidate after all (equivalent cards): nothing to search
            assert raced.last_search is None
            continue
        assert raced.last_search is not None
        assert fixed.last_search.deals == 24 and fixed.last_search.left == fixed.last_search.candidates
        assert RACE_MIN_DEALS <= raced.last_search.deals <= 24
        assert 1 <= raced.last_search.left <= raced.last_search.candidates
        searched += 1
    assert searched >= 3


def test_with_a_cap_and_no_time_the_same_seed_makes_the_same_choices() -> None:
    game = make_game("whistiti")
    histories = []
    for _ in range(2):
        bots = [make_bot("expert:deals=12", f"same/{seat}") for seat in range(game.players)]
        state = game.new_hand(2, "same", hand_number=4)
        while not state.is_terminal:
            state = state.apply(bots[state.player].choose(seat_view(state, state.player)))
        histories.append(state.history)
    assert histories[0] == histories[1]


def test_a_budget_too_small_for_one_deal_still_draws_the_minimum() -> None:
    tiny = replace(budget_settings(1e-9), min_deals=5)
    for k, (_, view) in enumerate(search_positions("israeli", 4, seed=3)):
        bot = ExpertBot(k, tiny)
        action = bot.choose(view)
        assert action in view.legal_actions
        assert bot.last_search is not None and bot.last_search.deals == 5


def test_a_budget_that_is_never_reached_leaves_the_cap_to_decide() -> None:
    ample = replace(CAPPED, time_budget=1000.0, racing=False)
    for k, (_, view) in enumerate(search_positions("classic", 3, seed=4)):
        bot = ExpertBot(k, ample)
        bot.choose(view)
        assert bot.last_search is not None and bot.last_search.deals == 24


def test_the_chosen_action_has_the_best_value_even_after_the_race_dropped_some() -> None:
    for k, (_, view) in enumerate(search_positions("israeli", 8, seed=5)):
        action, values = ExpertBot(k, CAPPED).choose_with_values(view)
        assert values is not None and values[action] == max(values.values())


def test_more_time_solves_classic_whist_from_further_out() -> None:
    exact = [budget_settings(seconds).exact_tricks for seconds in (0.001, 0.01, 0.1, 1.0, 10.0)]
    assert exact == sorted(exact) and exact[0] < exact[-1]
    assert budget_settings(0.5).play_deals == DEAL_CAP
    with pytest.raises(ValueError, match="positive"):
        budget_settings(0)


def test_the_levels_keep_their_order_and_the_reference_is_fixed() -> None:
    hard, expert, reference = (_settings(name) for name in ("hard", "expert", "expert-2026"))
    assert expert.time_budget == DEFAULT_BUDGET <= 0.3
    assert hard == reference  # hard plays as the reference: fast and the same on any machine
    assert reference == ExpertSettings()  # 16, 24 and 10 deals, exact from 4 tricks, no time, no racing
    assert (reference.play_deals, reference.bid_deals, reference.frisch_deals) == (16, 24, 10)
    assert reference.time_budget is None and not reference.racing


def _settings(level: str) -> ExpertSettings:
    bot = make_bot(level)
    assert isinstance(bot, ExpertBot)
    return bot.settings


@pytest.mark.parametrize(("level", "budget", "deals", "exact"), [
    ("expert@250ms", 0.25, DEAL_CAP, budget_settings(0.25).exact_tricks),
    ("hard@2s", 2.0, DEAL_CAP, budget_settings(2.0).exact_tricks),
    ("expert:deals=64", None, 64, budget_settings(DEFAULT_BUDGET).exact_tricks),
    ("expert@1.5s:deals=500:exact=9", 1.5, 500, 9),
    ("expert:exact=0", None, DEAL_CAP, 0),
])
def test_level_strings_set_the_budget(level: str, budget: float | None, deals: int, exact: int) -> None:
    bot = make_bot(level, 1)
    assert isinstance(bot, ExpertBot)
    assert check_level(level) == level
    settings = bot.settings
    assert (settings.time_budget, settings.play_deals, settings.bid_deals, settings.exact_tricks) == \
        (budget, deals, deals, exact)
    assert settings.racing


@pytest.mark.parametrize(("level", "message"), [
    ("genius", "levels: random, basic"), ("expert@", "number of ms or s"), ("expert@100", "number of ms or s"),
    ("expert@0s", "more than 0"), ("expert@1h", "number of ms or s"), ("expert:deals=0", "deals is a whole number"),
    ("expert:deals=5,exact=3", "deals is a whole number"),
    ("expert:deals=1e3", "deals is a whole number"), ("expert:exact=14", "exact is a whole number"),
    ("expert:", r"deals=N, exact=N, ending=N, infer=0\|1\|2 and bidslope=N"),
    ("expert:speed=3", r"deals=N, exact=N, ending=N, infer=0\|1\|2 and bidslope=N"),
    ("expert:infer=3", "infer is a whole number from 0 to 2"),
    ("basic@1s", "only hard and expert"), ("expert-2026@1s", "a fixed reference"),
])
def test_bad_level_strings_are_refused_with_the_forms_there_are(level: str, message: str) -> None:
    with pytest.raises(UnknownLevelError, match=message) as refused:
        make_bot(level)
    assert str(refused.value).startswith(f"Unknown bot level {level!r}")
    assert parse_level("expert") == (BOT_LEVELS["expert"], None)


def test_a_tournament_takes_levels_with_budgets() -> None:
    spec = spec_from("classic", ["expert:deals=4:exact=6", "expert-2026"], 1, seed=3)
    result = run_tournament(spec, workers=1)
    assert result.spec.labels == ("expert:deals=4:exact=6", "expert-2026") and len(result.rows) == 2
    with pytest.raises(UnknownLevelError, match="number of ms or s"):
        run_tournament(spec_from("classic", ["expert@soon", "basic"], 1), workers=1)
    with pytest.raises(TournamentError):
        run_tournament(spec_from("classic", ["expert:deals=4", "basic"], 0), workers=1)


@pytest.mark.parametrize("game_name", ["israeli", "whistiti"])
def test_an_ending_searched_is_valued_at_what_the_seat_can_be_sure_of(game_name: str) -> None:
    """``ending_tricks``: from that few tricks out, a card's value is the seat's paranoid value
    (the best score it can be sure of against all the others), as plain minimax finds it."""
    game, basic, checked = make_game(game_name), make_bot("basic"), 0
    for k in range(12):
        state = game.new_hand(k % game.players, f"ending/{k}", hand_number=k + 3)
        stop = random.Random(k).randrange(4, 12)  # cards left to play
        while not state.is_terminal and (state.phase != Phase.PLAY or sum(h.bit_count() for h in state.hands) > stop):
            state = state.apply(basic.choose(seat_view(state, state.player)))
        if state.is_terminal:
            continue
        view, seat = seat_view(state, state.player), state.player
        value = ExpertBot(0, ExpertSettings(ending_tricks=3))._own_points(view)
        for card in view.legal_actions:
            after = state.apply(card)

            def score(tricks: int, after: HandState = after, seat: int = seat) -> int:
                won = after.tricks_won[:seat] + (tricks,) + after.tricks_won[seat + 1:]
                return after._replace(tricks_won=won, phase=Phase.OVER, is_terminal=True).scores()[seat]

            expected = after.scores()[seat] if after.is_terminal else paranoid_value_exhaustive(
                after.hands, after.trump, after.leader, seat, score, after.trick, after.tricks_won[seat])
            assert value(after) == expected
            checked += 1
    assert checked >= 5


def contract_views(game_name: str, count: int, seed: int) -> list[SeatView]:
    """Contract decisions with two or more legal bids, the bids before them the basic bot's."""
    rng = random.Random(seed)
    game = make_game(game_name, "oh_hell" if game_name == "whistiti" else "standard", {})
    basic = make_bot("basic")
    views: list[SeatView] = []
    while len(views) < count:
        state = game.new_hand(rng.randrange(game.players), rng, 0)
        while not state.is_terminal and state.phase != Phase.PLAY:
            view = seat_view(state, state.player)
            if state.phase == Phase.CONTRACT and len(state.legal_actions()) > 2:
                views.append(view)
                break
            state = state.apply(basic.choose(view))
    return views


@pytest.mark.parametrize("game_name", ["whistiti", "israeli"])
def test_the_bid_slope_adds_its_points_for_each_trick_bid(game_name: str) -> None:
    """On the same deals (same seed), each candidate bid's value with the slope is its value
    without it plus the slope times the tricks it bids, and a steep slope makes the highest
    candidate the choice."""
    settings = ExpertSettings().with_deals(12)
    for k, view in enumerate(contract_views(game_name, 4, seed=5)):
        plain_choice, plain = ExpertBot(k, settings).choose_with_values(view)
        steep_choice, steep = ExpertBot(k, replace(settings, bid_slope=40.0)).choose_with_values(view)
        assert plain is not None and steep is not None and plain.keys() == steep.keys()
        for action, value in plain.items():
            assert steep[action] == pytest.approx(value + 40.0 * contract_tricks(action))
        assert steep_choice == max(steep, key=lambda action: contract_tricks(action))
        assert contract_tricks(steep_choice) >= contract_tricks(plain_choice)


def test_the_bid_slope_level_setting() -> None:
    settings = parse_level("expert@100ms:bidslope=15")[1]
    assert settings is not None and settings.bid_slope == pytest.approx(1.5)
    assert ExpertBot.settings.bid_slope is None  # the game's own (BID_SLOPES)
    plain = parse_level("expert:deals=8")[1]
    assert plain is not None and plain.bid_slope is None
    for fixed in ("expert-2026", "hard"):
        bot = make_bot(fixed)
        assert isinstance(bot, ExpertBot) and bot.settings.bid_slope == 0.0  # the fixed references keep none
    for bad in ("bidslope=101", "bidslope=-1", "bidslope=1.5", "bidslope="):
        with pytest.raises(UnknownLevelError, match="bidslope"):
            make_bot(f"expert@100ms:{bad}")


@pytest.mark.parametrize(("game_name", "slope"), [("whistiti", BID_SLOPES["whistiti"]), ("israeli", 0.0)])
def test_the_default_expert_bids_with_its_games_slope(game_name: str, slope: float) -> None:
    """The default (``bid_slope`` None) values each contract bid as the game's own slope does."""
    settings = replace(ExpertSettings(), bid_slope=None).with_deals(10)
    for k, view in enumerate(contract_views(game_name, 3, seed=9)):
        default = ExpertBot(k, settings).choose_with_values(view)
        explicit = ExpertBot(k, replace(settings, bid_slope=slope)).choose_with_values(view)
        assert default == explicit
