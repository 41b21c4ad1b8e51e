"""Each game's traits (``israeli_whist.core.traits``) are true to its engine: what the record says
of a game is what random hands of it do, so the pages and the bots, which read only the traits,
read the truth (docs/server-protocol.md#game-traits)."""

from __future__ import annotations

import random

import pytest

from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.games import GAMES, make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.scoresheet import entry_type
from israeli_whist.core.state import HandState


def random_hands(game: HandGame, count: int) -> list[HandState]:
    """``count`` finished hands of ``game`` played at random, passing in most auctions so that
    some reach a Frisch."""
    rng = random.Random(7)
    hands = []
    for number in range(count):
        state = game.new_hand(number % game.players, rng, hand_number=number)
        while not state.is_terminal:
            legal = list(state.legal_actions())
            state = state.apply(PASS if PASS in legal and rng.random() < 0.8 else rng.choice(legal))
        hands.append(state)
    return hands


def phases(final: HandState) -> set[Phase]:
    """The phases a hand went through, read back from its history."""
    state = final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                  checked=False)
    seen = {state.phase}
    for action in final.history:
        state = state.apply(action)
        seen.add(state.phase)
    return seen


@pytest.mark.parametrize("name", list(GAMES))
def test_the_traits_say_what_the_engine_does(name: str) -> None:
    game = make_game(name)
    traits = game.rules.traits
    hands = random_hands(game, 40)
    went_through = set().union(*(phases(hand) for hand in hands))
    assert (Phase.AUCTION in went_through) == traits.trump_auction
    assert (Phase.FRISCH in went_through) == traits.frisch
    assert (Phase.CONTRACT in went_through) == traits.contracts
    played = [hand for hand in hands if hand.phase == Phase.OVER]
    assert all((hand.over_under is not None) == traits.over_under for hand in played)
    turned = {"none": 0, "dealer": 0, "stock": 0}
    for hand in hands:
        if hand.turned_card >= 0:
            turned["dealer" if hand.deal[hand.dealer] >> hand.turned_card & 1 else "stock"] += 1
    assert {kind for kind, count in turned.items() if count} == ({traits.turned_card} - {"none"})
    assert (game.side_of(2) == game.side_of(0)) == traits.partnerships
    sizes = {game.hand_size(number) for number in range(20)}
    assert (len(sizes) > 1) == traits.hand_size_varies
    assert (game.game_target is not None) == traits.games_to_target


@pytest.mark.parametrize("name", list(GAMES))
def test_the_sheet_fields_are_the_sheets_entry(name: str) -> None:
    kind = entry_type(name)
    assert kind is not None and GAMES[name].rules_type.traits.sheet_fields == kind.FIELDS


def test_traits_travel_as_json_with_snake_case_keys() -> None:
    traits = make_game("whistiti").rules.traits
    data = traits.to_json()
    assert data["contract_word"] == "bid" and data["turned_card"] == "stock" and data["hand_size_varies"]
    assert data["sheet_fields"] == ["contracts", "tricks"]
    assert all(key == key.lower() for key in data)
