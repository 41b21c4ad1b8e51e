"""Our bots in OpenSpiel's own oh_hell (israeli_whist.rl.openspiel_ohhell): the cards, the seat's view
rebuilt from its information state only, and the conventions of the oh_hell preset."""

from __future__ import annotations

import random

import pyspiel
import pytest

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import contract_action
from israeli_whist.core.cards import card_name
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view
from israeli_whist.rl.openspiel_ohhell import (
    OhHellBot,
    oh_hell_action,
    oh_hell_card,
    oh_hell_view,
    our_action,
    our_card,
    read_information,
)

OH_HELL = "oh_hell(players=4,num_tricks_fixed=12,off_bid_penalty=true,points_per_trick=5)"


def chance(state: pyspiel.State, rng: random.Random) -> None:
    state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))


def full_whistiti(state: pyspiel.State) -> HandState:
    """The same hand in our engine from the oh_hell history, every card known (the test's
    oracle: the adapter itself never reads the history)."""
    history = state.history()
    tricks, dealer = history[0], history[1]
    n = state.get_game().num_players()
    deal = history[2:2 + n * tricks]
    hands = [0] * n
    for i, card in enumerate(deal):
        hands[i % n] |= 1 << our_card(card)  # oh_hell deals its first card to player 0
    turned = our_card(history[2 + n * tricks])
    game = make_game("whistiti", "oh_hell", {"players": n, "schedule": str(tricks)})
    unseen = ((1 << 52) - 1) & ~sum(hands) & ~(1 << turned)
    hand = game.start_hand(dealer, tuple(hands), unseen, turned, tricks)
    for action in history[3 + n * tricks:]:
        hand = hand.apply(our_action(action))
    return hand


def test_cards_map_both_ways_and_name_the_same_card() -> None:
    game = pyspiel.load_game(OH_HELL)
    state = game.new_initial_state()
    state.apply_action(12)
    state.apply_action(0)  # now dealing: action strings are card names, suit first
    for card in range(52):
        assert our_card(oh_hell_card(card)) == card and oh_hell_card(our_card(card)) == card
        name = state.action_to_string(card)  # e.g. "SQ"
        assert card_name(our_card(card)) == name[1] + name[0]


def test_bids_map_both_ways() -> None:
    assert oh_hell_action(contract_action(3)) == 55 and our_action(55) == contract_action(3)
    with pytest.raises(ValueError, match="only cards and bids"):
        oh_hell_action(52)  # our pass: oh_hell has no auction


@pytest.mark.parametrize(("players", "tricks"), [(3, ""), (4, "num_tricks_fixed=9,"), (5, "num_tricks_fixed=7,")])
def test_the_rebuilt_view_is_the_seats_view_of_the_whole_hand(players: int, tricks: str) -> None:
    """At every decision and for every seat, the view made from the seat's information state
    equals our engine's view of the same hand with every card known: nothing is missing and
    nothing hidden gets in. The adapter also checks the seat to act and its legal actions.
    (Without ``num_tricks_fixed`` oh_hell draws the number of tricks.)"""
    game = pyspiel.load_game(f"oh_hell(players={players},{tricks}off_bid_penalty=true,points_per_trick=5)")
    rng = random.Random(players)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance(state, rng)
                continue
            whole = full_whistiti(state)
            for seat in range(players):
                assert oh_hell_view(state, seat) == seat_view(whole, seat)
            state.apply_action(rng.choice(state.legal_actions()))


def test_oh_hell_scores_as_the_preset_does() -> None:
    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(9)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                chance(state, rng)
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        assert list(full_whistiti(state).scores()) == state.returns()


def test_the_view_does_not_depend_on_the_hidden_cards() -> None:
    """oh_hell's own resampler keeps the seat's information state and changes the others' cards:
    the view stays the same."""
    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(4)
    state = game.new_initial_state()
    while state.is_chance_node():
        chance(state, rng)
    for _ in range(10):
        state.apply_action(rng.choice(state.legal_actions()))
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.history() != state.history()
    assert oh_hell_view(other, seat) == oh_hell_view(state, seat)


def test_the_information_read_back() -> None:
    game = pyspiel.load_game(OH_HELL)
    rng = random.Random(2)
    state = game.new_initial_state()
    while state.is_chance_node():
        chance(state, rng)
    for _ in range(6):  # four bids and two cards
        state.apply_action(rng.choice(state.legal_actions()))
    info = read_information(state, 2)
    history = state.history()
    assert (info.tricks, info.dealer, info.trump_card) == (12, history[1], our_card(history[50]))
    assert info.dealt == sum(1 << our_card(c) for c in history[2:50][2::4])
    assert all(bid >= 0 for bid in info.bids)
    assert info.played == (((history[1] + 1) % 4, (our_card(history[55]), our_card(history[56]))),)


def test_the_adapter_refuses_other_scoring_and_packs() -> None:
    for text in ("oh_hell(players=4,num_tricks_fixed=5)", "oh_hell(players=4,num_suits=3,off_bid_penalty=true,"
                                                          "points_per_trick=5)"):
        state = pyspiel.load_game(text).new_initial_state()
        rng = random.Random(1)
        while state.is_chance_node():
            chance(state, rng)
        with pytest.raises(ValueError, match="oh_hell"):
            oh_hell_view(state, 0)


@pytest.mark.parametrize("level", ["basic", "expert"])
def test_our_bots_play_a_whole_oh_hell_hand(level: str) -> None:
    game = pyspiel.load_game(OH_HELL)
    bots = [OhHellBot(make_bot(level, seat)) for seat in range(4)]
    rng = random.Random(5)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            chance(state, rng)
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert len(state.returns()) == 4 and list(full_whistiti(state).scores()) == state.returns()
