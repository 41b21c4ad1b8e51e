"""The expert bot and its parts: the rebuilt states, the playout policy, the search."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from israeli_whist.bots.players.expert import (
    ExpertBot,
    ExpertSettings,
    basic_contract,
    distinct_cards,
    finish,
    position,
)
from israeli_whist.bots.players.registry import BOT_LEVELS, make_bot
from israeli_whist.bots.search.dd import solve
from israeli_whist.bots.search.determinize import state_for
from israeli_whist.bots.search.playout import compiled_playout_available, final_tricks, play_out, policy_card
from israeli_whist.bots.search.sampling import DealSampler
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import parse_card, parse_hand
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

GAMES = ("israeli", "classic", "whistiti")
SMALL = ExpertSettings(play_deals=3, bid_deals=3, frisch_deals=3)


def random_states(game_name: str, count: int, seed: int, options: dict[str, str] | None = None) -> list[HandState]:
    """States part-way through random hands (random legal actions), every phase."""
    rng = random.Random(seed)
    game = make_game(game_name, None, options)
    states = []
    for k in range(count):
        state = game.new_hand(k % game.players, rng.randrange(1 << 30), hand_number=rng.randrange(12))
        stop = rng.randrange(80)
        while not state.is_terminal and stop:
            state = state.apply(rng.choice(state.legal_actions()))
            stop -= 1
        if not state.is_terminal:
            states.append(state)
    return states


@pytest.mark.parametrize("game_name", GAMES)
def test_rebuilt_state_matches_the_real_one(game_name: str) -> None:
    """From a view and the true cards, the rebuilt state acts and scores as the real one."""
    checked = 0
    for state in random_states(game_name, 150, seed=1):
        if state.phase not in (Phase.AUCTION, Phase.CONTRACT, Phase.PLAY):
            continue
        view = seat_view(state, state.player)
        rebuilt = state_for(view, state.hands)
        assert tuple(rebuilt.legal_actions()) == tuple(state.legal_actions())
        for field in ("hands", "phase", "player", "contracts", "trick", "leader", "trump", "tricks_won", "passes"):
            assert getattr(rebuilt, field) == getattr(state, field), field
        # Played on identically by the same policy, both end with the same scores.
        assert finish(rebuilt).scores() == finish(state).scores()
        checked += 1
    assert checked > 50


@pytest.mark.parametrize("game_name", GAMES)
def test_policy_plays_legal_cards_to_the_end(game_name: str) -> None:
    for state in random_states(game_name, 60, seed=2):
        while state.phase == Phase.PLAY:
            card = policy_card(state)
            assert card in state.legal_actions()
            state = state.apply(card)


def play_position(game_name: str, hands: tuple[str, ...], trump: int, contracts: tuple[int, ...],
                  won: tuple[int, ...], leader: int, trick: tuple[str, ...] = ()) -> HandState:
    game = make_game(game_name)
    start = game.new_hand(0, 0)
    cards = tuple(parse_card(c) for c in trick)
    masks = tuple(parse_hand(h) for h in hands)
    return start._replace(hands=masks, phase=Phase.PLAY, player=(leader + len(cards)) % len(masks), trump=trump,
                          contracts=contracts, tricks_won=won, leader=leader, trick=cards,
                          hand_size=max(m.bit_count() for m in masks) + sum(won))


def test_policy_ducks_once_the_contract_is_made() -> None:
    # Seat 3 has made its contract and is last to play: it ducks under the queen with the jack.
    state = play_position("israeli", ("2C 3C", "QS 4C", "5S 6C", "JS KS"), trump=4,
                          contracts=(3, 3, 3, 1), won=(3, 3, 3, 1), leader=1, trick=("QS", "5S"))
    assert policy_card(state) == parse_card("JS")


def test_policy_takes_a_needed_trick_cheaply() -> None:
    # Seat 3 needs a trick and is last: the king wins, the ace is kept.
    state = play_position("israeli", ("2C 3C", "QS 4C", "5S 6C", "KS AS"), trump=4,
                          contracts=(3, 3, 3, 3), won=(3, 3, 3, 1), leader=1, trick=("QS", "5S"))
    assert policy_card(state) == parse_card("KS")


def test_policy_does_not_overtake_a_partner_who_holds_the_trick() -> None:
    # Classic: West leads, North's ace holds the trick; South, last, plays low under it.
    state = play_position("classic", ("2C", "5C", "KS 2S", "6C"), trump=1, contracts=(), won=(5, 3, 3, 0),
                          leader=3, trick=("3S", "AS", "4S"))
    assert policy_card(state) == parse_card("2S")


def test_distinct_cards_collapse_runs() -> None:
    state = play_position("israeli", ("KS QS 9S 2C", "AS 3C 4C 5C", "8S 6C 7C 8C", "JS 9C TC JC"), trump=4,
                          contracts=(1, 1, 1, 1), won=(2, 2, 3, 2), leader=0)
    view = seat_view(state, 0)
    # K and Q touch; 9 is apart (J and T are out), the club is its own suit.
    assert distinct_cards(view) == [parse_card("2C"), parse_card("9S"), parse_card("QS")]


def test_expert_finds_the_card_best_in_every_deal() -> None:
    """Classic Whist endings with few consistent deals: where one card is double-dummy best in
    all of them, the expert (solving endings exactly) plays a card as good in all of them."""
    rng = random.Random(3)
    checked = 0
    for state in random_states("classic", 1500, seed=4):
        if state.phase != Phase.PLAY or state.hand_size - len(state.tricks) > 4:
            continue
        view = seat_view(state, state.player)
        sampler = DealSampler(view)
        if sampler.count > 3 or len(view.legal_actions) < 2:
            continue
        deals = {sampler.sample(rng) for _ in range(100)}
        assert len(deals) == sampler.count
        values = {c: [_side_value(state_for(view, d).apply(c), state.player) for d in deals]
                  for c in view.legal_actions}
        best = [max(column) for column in zip(*values.values(), strict=True)]
        if not any(v == best for v in values.values()):
            continue  # no card is best everywhere: a guess, whichever is chosen
        card = ExpertBot(rng.randrange(1 << 30), ExpertSettings(play_deals=40)).choose(view)
        assert values[card] == best
        checked += 1
    assert checked >= 10


def _side_value(state: HandState, seat: int) -> int:
    won = state.tricks_won[seat] + state.tricks_won[(seat + 2) % 4]
    if state.is_terminal:
        return won
    on_move = solve(state.hands, state.trump, state.leader, state.trick)
    left = max(h.bit_count() for h in state.hands)
    return won + (on_move if state.player % 2 == seat % 2 else left - on_move)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_level_plays_whole_hands_legally_and_reproducibly(game_name: str) -> None:
    game = make_game(game_name)
    for level in BOT_LEVELS:
        histories = []
        for _ in range(2):
            bots = [make_bot(level, f"s{seat}") for seat in range(game.players)]
            for bot in bots:
                if isinstance(bot, ExpertBot):
                    bot.settings = SMALL
            state = game.new_hand(1, "deal", hand_number=5)
            while not state.is_terminal:
                view = seat_view(state, state.player)
                action = bots[state.player].choose(view)
                assert action in view.legal_actions
                state = state.apply(action)
            histories.append(state.history)
        assert histories[0] == histories[1], level


def test_play_out_finishes_the_hand() -> None:
    for state in random_states("whistiti", 40, seed=5):
        if state.phase == Phase.PLAY:
            assert play_out(state).is_terminal


@pytest.mark.skipif(not compiled_playout_available(), reason="fastplayout was not compiled (no C compiler)")
@pytest.mark.parametrize(("game_name", "options"), [
    ("israeli", None), ("israeli", {"form": "three_no_clubs"}), ("classic", None), ("whistiti", None),
    ("whistiti", {"players": "3"}), ("whistiti", {"players": "7"})])
def test_compiled_playout_makes_the_same_choices(game_name: str, options: dict[str, str] | None) -> None:
    checked = 0
    for state in random_states(game_name, 300, seed=6, options=options):
        if state.phase == Phase.PLAY:
            assert final_tricks(state, compiled=True) == final_tricks(state, compiled=False)
            checked += 1
    assert checked > 50


def test_frisch_position_is_rebuilt_at_this_seats_turn() -> None:
    """In a Frisch under way, the imagined state has this seat to choose, its own chosen
    cards chosen again, the same cards left to choose, and every other seat's hand intact."""
    rng = random.Random(7)
    game = make_game("israeli")
    checked = 0
    for k in range(40):
        state = game.new_hand(k % 4, k)
        while state.phase == Phase.AUCTION:  # everyone passes: a Frisch
            state = state.apply(PASS)
        for _ in range(rng.randrange(12)):
            state = state.apply(rng.choice(state.legal_actions()))
        view = seat_view(state, state.player)
        rebuilt = position(view, state.hands)
        assert rebuilt.player == state.player
        assert rebuilt.frisch_selected[state.player] == state.frisch_selected[state.player]
        assert tuple(rebuilt.legal_actions()) == tuple(state.legal_actions())
        assert rebuilt.hands == state.hands
        checked += 1
    assert checked > 10


def test_expert_remembers_the_turned_trump_in_the_dealers_hand() -> None:
    """Classic Whist: after the first trick the turned card is no longer on show, but the
    expert still knows the dealer holds it until it is played, and samples accordingly."""
    game = make_game("classic")
    checked = 0
    for k in range(20):
        state = game.new_hand(k % 4, k)
        card, dealer = state.turned_card, state.dealer
        seat = (dealer + 1) % 4
        bot = ExpertBot(k, SMALL)
        while not state.is_terminal:
            view = seat_view(state, state.player)
            if state.player == seat:
                remembered = bot.remembered(view)
                still_held = bool(state.hands[dealer] >> card & 1)
                if view.turned_card < 0 and state.tricks and still_held:
                    assert remembered == {dealer: 1 << card}
                    deals = [DealSampler(view, remembered).sample(random.Random(i)) for i in range(5)]
                    assert all(deal[dealer] >> card & 1 for deal in deals)
                    checked += 1
                else:
                    assert remembered == {}
            state = state.apply(policy_card(state))
    assert checked > 20


GOLDEN = json.loads((Path(__file__).parent / "expert_2026_choices.json").read_text())


def _replayed(case: dict[str, Any]) -> HandState:
    state = make_game(case["game"], None, case["options"]).new_hand(case["dealer"], case["seed"], case["hand_number"])
    for action in case.get("actions", ()):
        state = state.apply(action)
    return state


@pytest.mark.parametrize("case", GOLDEN["positions"], ids=lambda c: f"{c['game']}-{c['phase']}-{c['bot_seed']}")
def test_expert_2026_chooses_as_the_expert_did_before_it_had_a_time_budget(case: dict[str, Any]) -> None:
    """Choices and values recorded from the expert at commit 011eff7 (16 deals a card, 24 a bid,
    10 a Frisch card), before the anytime search: ``expert-2026`` must keep them exactly."""
    state = _replayed(case)
    action, values = make_bot("expert-2026", case["bot_seed"]).choose_with_values(seat_view(state, state.player))
    assert action == case["choice"]
    assert values is not None
    assert sorted(values.items()) == [tuple(pair) for pair in case["values"]]


@pytest.mark.parametrize("case", GOLDEN["hands"], ids=lambda c: f"{c['game']}-{c['seed']}")
def test_expert_2026_plays_whole_hands_as_the_expert_did(case: dict[str, Any]) -> None:
    state = _replayed(case)
    bots = [make_bot("expert-2026", seed) for seed in case["bot_seeds"]]
    while not state.is_terminal:
        state = state.apply(bots[state.player].choose(seat_view(state, state.player)))
    assert list(state.history) == case["history"]


@pytest.mark.parametrize(("name", "preset"), [("israeli", "standard"), ("israeli", "three_random_card"),
                                              ("whistiti", "standard"), ("whistiti", "oh_hell")])
def test_imagined_bids_are_the_basic_bots(name: str, preset: str) -> None:
    """The search bids for imagined seats from the state (``basic_contract``), without their
    views: the same bid as the basic bot given the seat's view, at every contract decision of
    random hands (the declarer's, the last bidder's, a face-up stock card included)."""
    game = make_game(name, preset, {})
    basic = make_bot("basic")
    rng = random.Random(3)
    asked = 0
    for _ in range(60):
        state = game.new_hand(rng.randrange(game.players), rng, rng.randrange(4))
        while not state.is_terminal and state.phase != Phase.PLAY:
            view = seat_view(state, state.player)
            if state.phase == Phase.CONTRACT:
                assert basic_contract(state) == basic.choose(view)
                asked += 1
            action = basic.choose(view) if rng.random() < 0.7 else rng.choice(state.legal_actions())
            state = state.apply(action)
    assert asked >= 150
