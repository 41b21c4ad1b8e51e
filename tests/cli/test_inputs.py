"""Reading typed input: cards by name or number, calls, contracts, several Frisch cards."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.cli.inputs import legal_summary, parse_choice, prompt_text
from israeli_whist.cli.table import display_order
from israeli_whist.core.actions import PASS, Phase, bid_action, contract_action
from israeli_whist.core.cards import HEARTS, SPADES, card_name, parse_card
from israeli_whist.core.errors import IllegalActionError, NotationError, WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view


def israeli_hand() -> HandState:
    return make_game("israeli").new_hand(0, "cli-test")


def to_phase(state: HandState, phase: Phase) -> HandState:
    """Take the first legal action until the hand reaches ``phase``."""
    while state.phase != phase:
        legal = state.legal_actions()
        # A bid ends the auction sooner than passes; then contracts; then cards.
        state = state.apply(legal[1] if state.phase == Phase.AUCTION and state.high_bid < 0 else legal[0])
    return state


def view_of_player(state: HandState) -> SeatView:
    return seat_view(state, state.player)


def test_auction_calls() -> None:
    view = view_of_player(israeli_hand())
    shown = display_order(view)
    assert parse_choice("pass", view, shown) == [PASS]
    assert parse_choice("5S", view, shown) == [bid_action(5, SPADES)]
    assert parse_choice("7 nt", view, shown) == [bid_action(7, 4)]
    assert parse_choice("6♥", view, shown) == [bid_action(6, HEARTS)]
    with pytest.raises(IllegalActionError, match="only 13 tricks"):
        parse_choice("14S", view, shown)
    with pytest.raises(NotationError, match="A call is 'pass'"):
        parse_choice("banana", view, shown)


def test_contracts() -> None:
    view = view_of_player(to_phase(israeli_hand(), Phase.CONTRACT))
    assert parse_choice("6", view, []) == [contract_action(6)]
    with pytest.raises(IllegalActionError, match="only 13 tricks"):
        parse_choice("20", view, [])
    with pytest.raises(NotationError, match="number of tricks"):
        parse_choice("six", view, [])


def test_cards_by_name_or_number() -> None:
    view = view_of_player(to_phase(israeli_hand(), Phase.PLAY))
    shown = display_order(view)
    first = shown[0]
    assert parse_choice("1", view, shown) == [first]
    assert parse_choice(card_name(first).lower(), view, shown) == [first]
    assert parse_choice("10c", view, shown) == [parse_card("TC")]
    assert parse_choice("Q♥", view, shown) == [parse_card("QH")]
    with pytest.raises(NotationError, match="numbered 1 to 13"):
        parse_choice("14", view, shown)
    with pytest.raises(NotationError, match="one card at a time"):
        parse_choice("QH KH", view, shown)
    with pytest.raises(WhistError):
        parse_choice("", view, shown)


def test_a_card_keeps_its_number_through_the_tricks() -> None:
    """The numbers typed for cards do not move as cards are played (10♣ was 6, then 1); the number of a
    card already played says so."""
    state = to_phase(israeli_hand(), Phase.PLAY)
    seat = state.player
    before = display_order(seat_view(state, seat))
    played = state.legal_actions()[0]
    state = state.apply(played)
    while state.player != seat:
        state = state.apply(state.legal_actions()[0])
    view = seat_view(state, seat)
    shown = display_order(view)
    assert shown == before  # the same card under each number
    for number, card in enumerate(shown, start=1):
        if card != played:
            assert parse_choice(str(number), view, shown) == [card]
    with pytest.raises(IllegalActionError, match=f"Card {before.index(played) + 1} was your .*, played already"):
        parse_choice(str(before.index(played) + 1), view, shown)


def test_frisch_cards_together_or_one_at_a_time() -> None:
    state = israeli_hand()
    while state.phase == Phase.AUCTION:
        state = state.apply(PASS)
    view = view_of_player(state)
    shown = display_order(view)
    assert parse_choice("1 2 3", view, shown) == shown[:3]
    assert parse_choice("1", view, shown) == shown[:1]
    with pytest.raises(NotationError, match="same card twice"):
        parse_choice("1 1", view, shown)
    with pytest.raises(NotationError, match="3 more cards"):
        parse_choice("1 2 3 4", view, shown)
    assert prompt_text(view, shown, "Bot 1").startswith("Choose 3 cards to pass to Bot 1 (legal: ")


def test_legal_summaries() -> None:
    view = view_of_player(israeli_hand())
    assert legal_summary(view, display_order(view)) == "pass, or 5C and higher; no-trump from 7NT"
    no_nt = view_of_player(make_game("israeli", "no_nt").new_hand(0, "cli-test"))
    assert legal_summary(no_nt, []) == "pass, or 5C and higher; no no-trump"
    declarer = view_of_player(to_phase(israeli_hand(), Phase.CONTRACT))
    assert prompt_text(declarer, []) == "Your contract (legal: 5-13): "


def views_of_every_phase() -> list[SeatView]:
    auction = israeli_hand()
    frisch = auction
    while frisch.phase == Phase.AUCTION:
        frisch = frisch.apply(PASS)
    return [view_of_player(s) for s in (auction, frisch, to_phase(auction, Phase.CONTRACT),
                                        to_phase(auction, Phase.PLAY))]


VIEWS = views_of_every_phase()


@pytest.mark.parametrize("text", ["²", "٣", "３", "1" * 5000, "5" + "0" * 5000 + "S", "²S", "٣NT", "-1", "+3", "1_0"])
def test_digits_are_ascii_digits_only(text: str) -> None:
    """Superscripts, other scripts' digits and numbers of thousands of digits are refused, not read."""
    for view in VIEWS:
        with pytest.raises(WhistError):
            parse_choice(text, view, display_order(view))


@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=40) | st.from_regex(r"\A[0-9²٣３ ]{0,12}[CDHSNTcdhsnt♥]{0,2}\Z"))
def test_any_typed_text_is_read_or_refused_with_a_message(text: str) -> None:
    for view in VIEWS:
        shown = display_order(view)
        try:
            actions = parse_choice(text, view, shown)
        except WhistError as error:
            assert str(error) and "\n" not in str(error)
        else:
            assert actions and all(isinstance(action, int) for action in actions)
