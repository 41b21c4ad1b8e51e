"""What a seat may see (israeli_whist.core.views): the one place that hides cards."""

from __future__ import annotations

import random

import pytest
from helpers import CONFIGS, SUIT_DEAL, act, check_views, choose, config_id, frisch_exchange, game_of, israeli, start
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import cards_in, parse_card, parse_hand
from israeli_whist.core.state import HandState
from israeli_whist.core.views import hidden_cards, seat_view


def test_a_seat_sees_its_own_hand_only() -> None:
    state = start(israeli(), SUIT_DEAL)
    for seat in range(4):
        view = seat_view(state, seat)
        assert view.hand == parse_hand(SUIT_DEAL[seat])
        assert view.hand_size == 13 and view.players == 4 and view.seat == seat
        assert view.game == "israeli" and view.rules == israeli().rules
        assert hidden_cards(state, seat) == sum(parse_hand(SUIT_DEAL[s]) for s in range(4) if s != seat)
    for seat in (-1, 4, 9):
        view = seat_view(state, seat)
        assert view.seat == -1 and view.hand == 0 and view.legal_actions == ()


def test_only_the_seat_to_act_sees_legal_actions() -> None:
    state = start(israeli(), SUIT_DEAL)
    assert seat_view(state, 1).is_my_turn and seat_view(state, 1).legal_actions == tuple(state.legal_actions())
    assert not seat_view(state, 2).is_my_turn and seat_view(state, 2).legal_actions == ()
    assert not seat_view(state, -1).is_my_turn


def test_frisch_choices_are_private() -> None:
    state = act(start(israeli(), SUIT_DEAL), "pass pass pass pass 2D 3D")
    assert state.phase == Phase.FRISCH
    assert seat_view(state, 1).frisch_selected == parse_hand("2D 3D")
    for seat in (-1, 0, 2, 3):
        assert seat_view(state, seat).frisch_selected == 0
    check_views(state)


def test_frisch_passed_and_received() -> None:
    state = start(israeli(frisch_direction="right"), SUIT_DEAL)
    state = act(state, "pass pass pass pass")
    state = frisch_exchange(state, ("2C 3C 4C", "2D 3D 4D", "2H 3H 4H", "2S 3S 4S"))
    view = seat_view(state, 1)
    assert view.frisch_passed == (parse_hand("2D 3D 4D"),)
    assert view.frisch_received == (parse_hand("2H 3H 4H"),)
    assert seat_view(state, -1).frisch_passed == () and seat_view(state, -1).frisch_received == ()
    # Seat 1 knows where its three diamonds went: they are not hidden from it.
    assert not hidden_cards(state, 1) & parse_hand("2D 3D 4D")
    assert hidden_cards(state, 2) & parse_hand("2D 3D 4D") == parse_hand("2D 3D 4D")
    check_views(state)


def test_the_view_says_where_the_frisch_under_way_sends_the_cards() -> None:
    state = start(israeli(frisch_direction="rotating"), SUIT_DEAL)
    assert seat_view(state, 1).frisch_offset == 0  # no Frisch under way
    for offset in (1, 2, 3):  # rotating: left, across, right
        state = act(state, "pass pass pass pass")
        assert [seat_view(state, seat).frisch_to for seat in range(4)] == [(seat + offset) % 4 for seat in range(4)]
        assert seat_view(state, -1).frisch_offset == offset  # the direction is public
        passed = [cards_in(state.hands[seat])[:3] for seat in range(4)]  # what frisch_exchange chooses
        state = frisch_exchange(state)
        for seat in range(4):
            assert seat_view(state, (seat + offset) % 4).frisch_received[-1] == sum(1 << c for c in passed[seat])
    # After the last round there is no Frisch under way, and no direction to ask the game for.
    assert state.frisch_round == 3 and seat_view(state, 0).frisch_offset == 0


def test_the_trick_shows_who_played_what() -> None:
    state = act(start(israeli(), SUIT_DEAL), "pass pass 5S pass pass pass 13 0 0 1 AS 2C")
    view = seat_view(state, 1)
    assert view.trick == ((3, parse_card("AS")), (0, parse_card("2C")))
    assert view.last_trick is None
    state = act(state, "2D 2H")
    view = seat_view(state, 1)
    assert view.trick == () and view.last_trick == state.tricks[0] and view.tricks_won == (0, 0, 0, 1)


@pytest.mark.parametrize("config", [c for c in CONFIGS if c[0] in ("classic", "israeli")], ids=config_id)
def test_the_last_trick_is_seen_again_only_as_long_as_the_rules_allow(
        config: tuple[str, str | None, dict[str, object]]) -> None:
    """Classic Whist closes the last trick once the next one is led; Israeli Whist keeps it open.
    Every seat's view says so, the spectator's too, at every step of whole hands."""
    game = game_of(config)
    rng = random.Random(11)
    closed_seen = 0
    for dealer in range(game.players):
        state = game.new_hand(dealer, rng.randrange(1000))
        while not state.is_terminal:
            state = state.apply(choose(state, rng, 0.5))
            for seat in (-1, *range(game.players)):
                view = seat_view(state, seat)
                if not state.tricks:
                    assert view.last_trick is None
                elif state.trick and not game.rules.traits.last_trick_open:
                    assert view.last_trick is None and view.tricks == state.tricks
                    closed_seen += 1
                else:
                    assert view.last_trick == state.tricks[-1]
    assert closed_seen > 0 or game.rules.traits.last_trick_open


def test_the_deal_is_revealed_only_when_the_hand_is_over() -> None:
    state = act(start(israeli(), SUIT_DEAL), "pass pass 5S pass pass pass 13 0 0 1")
    while not state.is_terminal:
        assert all(seat_view(state, s).revealed == () for s in (-1, 0, 1, 2, 3))
        state = state.apply(state.legal_actions()[-1])
    for seat in (-1, 0, 2):
        view = seat_view(state, seat)
        assert view.revealed == state.deal
        assert view.scores == state.scores() == (25, 25, -10, 179)
        assert view.over_under == "over"


def test_a_cancelled_hand_reveals_nothing() -> None:
    state = pass_all(start(israeli(frisch_rounds=0), SUIT_DEAL))
    assert state.phase == Phase.CANCELLED
    assert seat_view(state, 0).revealed == ()
    check_views(state)


def pass_all(state: HandState) -> HandState:
    return act(state, "pass pass pass pass")


def swap_hidden(state: HandState, seat: int, rng: random.Random) -> HandState | None:
    """The same position with one hidden card of two other seats swapped; None if there is none."""
    hidden = hidden_cards(state, seat)
    pool = [s for s in range(state.players)
            if s != seat and state.hands[s] & hidden & ~state.frisch_selected[s]]
    if len(pool) < 2:
        return None
    a, b = rng.sample(pool, 2)
    card_a = rng.choice(cards_in(state.hands[a] & hidden & ~state.frisch_selected[a]))
    card_b = rng.choice(cards_in(state.hands[b] & hidden & ~state.frisch_selected[b]))
    if card_a == state.turned_card or card_b == state.turned_card:
        return None
    swap = 1 << card_a | 1 << card_b
    hands = list(state.hands)
    hands[a] ^= swap
    hands[b] ^= swap
    deal = list(state.deal)
    if deal[a] >> card_a & 1 and deal[b] >> card_b & 1:
        deal[a] ^= swap
        deal[b] ^= swap
    return state._replace(hands=tuple(hands), deal=tuple(deal))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(CONFIGS), st.randoms(use_true_random=False), st.integers(0, 200))
def test_a_view_does_not_depend_on_hidden_cards(config: tuple[str, str | None, dict[str, object]],
                                               rng: random.Random, steps: int) -> None:
    """Swapping hidden cards between two other seats changes nothing that a seat sees."""
    game = game_of(config)
    state = game.new_hand(rng.randrange(game.players), rng.randrange(1000))
    for _ in range(steps):
        if state.is_terminal:
            break
        state = state.apply(choose(state, rng, 0.5))
    for seat in (-1, *range(game.players)):
        other = swap_hidden(state, seat, rng)
        if other is not None:
            assert other != state
            assert seat_view(other, seat) == seat_view(state, seat), config_id(config)
