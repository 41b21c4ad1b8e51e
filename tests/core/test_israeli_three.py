"""Israeli Whist for three players: the four deck forms (docs/rules.md#israeli-whist-three-players)."""

from __future__ import annotations

import pytest
from helpers import act, check_state, expect_illegal, israeli, pass_round

from israeli_whist.core.actions import PASS, Phase, action_name, bid_action, bid_strain, contract_action
from israeli_whist.core.cards import CLUBS, SPADES, SUIT_MASKS, card_set, cards_in
from israeli_whist.core.errors import RulesError
from israeli_whist.core.games.israeli import IsraeliRules
from israeli_whist.core.views import hidden_cards, seat_view

FORMS = [
    # form, deck size, cards each, unseen cards each hand
    ("four_players", 52, 13, 0),
    ("three_no_clubs", 39, 13, 0),
    ("three_short_deck", 36, 12, 0),
    ("three_short_deck_40", 40, 12, 4),
    ("three_random_card", 52, 17, 1),
]


@pytest.mark.parametrize(("form", "deck", "size", "unseen"), FORMS)
def test_deck_and_hand_sizes(form: str, deck: int, size: int, unseen: int) -> None:
    game = israeli(form=form)
    assert len(game.deck()) == deck
    players = 4 if form == "four_players" else 3
    assert game.players == players
    for seed in range(3):
        state = game.new_hand(seed % players, seed)
        assert state.players == players and state.hand_size == size
        assert all(h.bit_count() == size for h in state.hands)
        assert state.unseen.bit_count() == unseen
        assert card_set(game.deck()) == state.unseen | sum(state.hands)
        check_state(state)


def test_no_clubs_form_has_no_clubs() -> None:
    state = israeli(form="three_no_clubs").new_hand(0, 1)
    assert not any(h & SUIT_MASKS[CLUBS] for h in state.hands)


@pytest.mark.parametrize(("form", "lowest"), [("three_short_deck", 4), ("three_short_deck_40", 3)])
def test_short_decks_remove_low_ranks(form: str, lowest: int) -> None:
    deck = israeli(form=form).deck()
    assert min(c % 13 for c in deck) == lowest
    assert all(sum(1 for c in deck if c // 13 == s) == 13 - lowest for s in range(4))


def test_the_random_card_changes_and_stays_unseen() -> None:
    game = israeli(form="three_random_card")
    removed = {cards_in(game.new_hand(0, seed).unseen)[0] for seed in range(12)}
    assert len(removed) > 1
    state = game.new_hand(0, 3)
    for seat in range(3):
        assert state.unseen & hidden_cards(state, seat) == state.unseen
        assert not state.unseen & seat_view(state, seat).hand


def test_the_short_deck_40_leftovers_stay_unseen() -> None:
    state = israeli(form="three_short_deck_40").new_hand(1, 8)
    for seat in (-1, 0, 1, 2):
        assert state.unseen & hidden_cards(state, seat) == state.unseen


@pytest.mark.parametrize("form", ["three_no_clubs", "three_short_deck", "three_short_deck_40", "three_random_card"])
def test_rotating_frisch_is_refused(form: str) -> None:
    with pytest.raises(RulesError, match="rotating needs four players"):
        IsraeliRules(form=form, frisch_direction="rotating")


@pytest.mark.parametrize(("form", "tricks"), [("three_no_clubs", 13), ("three_short_deck", 12),
                                              ("three_random_card", 17)])
def test_the_last_bidder_may_not_make_the_tricks(form: str, tricks: int) -> None:
    state = act(israeli(form=form).new_hand(0, 4), "5S pass pass")
    assert state.phase == Phase.CONTRACT and state.player == 1
    state = act(state, "6 2")
    assert state.player == 0
    legal = [a - contract_action(0) for a in state.legal_actions()]
    assert tricks - 8 not in legal and legal == [n for n in range(tricks + 1) if n != tricks - 8]
    expect_illegal(state, contract_action(tricks - 8), f"would add up to {tricks}")


def test_three_players_the_highest_level_is_the_hand_size() -> None:
    state = israeli(form="three_random_card").new_hand(0, 1)
    assert action_name(state.legal_actions()[-1]) == "17NT"
    state = israeli(form="three_short_deck").new_hand(0, 1)
    assert action_name(state.legal_actions()[-1]) == "12NT"
    expect_illegal(state, bid_action(13, SPADES), "There are only 12 tricks")


def test_three_players_a_bid_and_two_passes_end_the_auction() -> None:
    state = act(israeli(form="three_no_clubs").new_hand(2, 1), "pass 6H pass")
    assert state.phase == Phase.AUCTION
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 1


def test_three_players_four_passes_means_every_player_passes() -> None:
    state = act(israeli(form="three_no_clubs", auction_end="four_passes").new_hand(2, 1), "6H pass pass")
    assert state.phase == Phase.AUCTION and state.player == 0
    state = act(state, "pass")
    assert state.phase == Phase.CONTRACT and state.declarer == 0


@pytest.mark.parametrize(("direction", "offset"), [("left", 1), ("right", 2)])
def test_three_players_frisch_left_or_right(direction: str, offset: int) -> None:
    state = pass_round(israeli(form="three_short_deck", frisch_direction=direction).new_hand(0, 2))
    assert state.phase == Phase.FRISCH
    chosen = []
    for _ in range(3):
        seat = state.player
        cards = cards_in(state.hands[seat])[:3]
        chosen.append((seat, card_set(cards)))
        for card in cards:
            state = state.apply(card)
    assert state.phase == Phase.AUCTION and state.frisch_round == 1
    for giver, passed in chosen:
        assert state.hands[(giver + offset) % 3] & passed == passed
        assert not state.hands[giver] & passed
    assert list(state.legal_actions()[:2]) == [PASS, bid_action(6, 0)]


@pytest.mark.parametrize("no_trump_allowed", [True, False])
def test_no_clubs_form_cannot_bid_clubs(no_trump_allowed: bool) -> None:
    """Without clubs in the pack a clubs "trump" would be a no-trump hand below the NT minimum."""
    game = israeli(form="three_no_clubs", no_trump_allowed=no_trump_allowed)
    state = game.new_hand(0, 5)
    for _ in range(3):  # every call of three Frisch rounds: clubs never on offer
        while state.phase == Phase.AUCTION:
            calls = state.legal_actions()
            assert PASS in calls and calls[1] == bid_action(5 + state.frisch_round, 1)  # diamonds are lowest
            assert CLUBS not in {bid_strain(c) for c in calls if c != PASS}
            expect_illegal(state, bid_action(13, CLUBS), "no clubs in this pack", "cannot be bid")
            state = state.apply(PASS)
        if state.phase != Phase.FRISCH:
            break
        for _ in range(9):
            state = state.apply(state.legal_actions()[0])
    assert game.bids_allowed(0, 13)[0] == bid_action(5, 1)
    assert CLUBS not in {bid_strain(bid) for bid in game.bids_allowed(2, 13)}


@pytest.mark.parametrize("form", ["three_short_deck", "three_short_deck_40", "three_random_card"])
def test_other_three_player_forms_bid_clubs(form: str) -> None:
    state = israeli(form=form).new_hand(0, 5)
    assert state.legal_actions()[1] == bid_action(5, CLUBS)
