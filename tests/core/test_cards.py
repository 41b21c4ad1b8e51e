"""Cards as ints, hands as masks: parsing and printing (israeli_whist.core.cards)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    NO_TRUMP,
    QUEEN,
    SPADES,
    card_name,
    card_rank,
    card_set,
    card_suit,
    cards_in,
    cards_tuple,
    count,
    hand_name,
    iter_cards,
    long_name,
    make_card,
    parse_card,
    parse_hand,
    parse_strain,
    parse_suit,
    sorted_for_display,
    strain_name,
    strain_symbol,
    suit_cards,
    symbol_name,
)
from israeli_whist.core.errors import NotationError, WhistError

QH = make_card(HEARTS, QUEEN)
TC = make_card(CLUBS, 8)


@pytest.mark.parametrize("text", ["QH", "qh", "Q♥", "Q♡", "HQ", "h q", " QH "])
def test_queen_of_hearts_in_every_notation(text: str) -> None:
    assert parse_card(text) == QH


@pytest.mark.parametrize("text", ["TC", "10C", "10c", "tc", "10♣", "C10", "♣T"])
def test_ten_of_clubs_in_every_notation(text: str) -> None:
    assert parse_card(text) == TC


def test_card_layout_suit_times_13_plus_rank() -> None:
    assert parse_card("2C") == 0
    assert parse_card("AC") == 12
    assert parse_card("2D") == 13
    assert parse_card("AS") == 51
    assert card_suit(QH) == HEARTS and card_rank(QH) == QUEEN
    assert make_card(SPADES, ACE) == 51


def test_card_names() -> None:
    assert card_name(TC) == "TC"
    assert symbol_name(TC) == "10♣"
    assert symbol_name(QH) == "Q♥"
    assert long_name(parse_card("9H")) == "the 9 of hearts"
    assert long_name(parse_card("AS")) == "the ace of spades"
    assert long_name(TC) == "the 10 of clubs"


@pytest.mark.parametrize("text", ["", "Q", "1H", "11H", "QX", "ZZ", "Q♥♥", "XH", "0C", "H"])
def test_bad_cards_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError, match="Not a card"):
        parse_card(text)


def test_notation_error_is_a_whist_error_and_value_error() -> None:
    with pytest.raises(WhistError):
        parse_card("ZZ")
    with pytest.raises(ValueError):
        parse_card("ZZ")


def test_suits_and_strains() -> None:
    assert [parse_suit(s) for s in ("c", "♦", "Hearts", "spade", "♤")] == [CLUBS, DIAMONDS, HEARTS, SPADES, SPADES]
    assert parse_strain("NT") == NO_TRUMP and parse_strain("no trump") == NO_TRUMP
    assert parse_strain("s") == SPADES
    assert strain_name(NO_TRUMP) == "NT" and strain_name(DIAMONDS) == "D"
    assert strain_symbol(NO_TRUMP) == "NT" and strain_symbol(HEARTS) == "♥"
    with pytest.raises(NotationError, match="Not a suit"):
        parse_suit("x")


def test_parse_hand_and_hand_name() -> None:
    mask = parse_hand("AS KS, 10c 2d Q♥")
    assert count(mask) == 5
    assert hand_name(mask) == "AS KS QH 2D TC"
    assert parse_hand(hand_name(mask)) == mask
    assert parse_hand("") == 0


def test_parse_hand_refuses_duplicates() -> None:
    with pytest.raises(NotationError, match="QH is listed twice"):
        parse_hand("QH AS Q♥")


def test_set_helpers() -> None:
    mask = parse_hand("AS 2C 9H")
    assert cards_in(mask) == [0, parse_card("9H"), 51]
    assert cards_tuple(mask) == (0, parse_card("9H"), 51)
    assert list(iter_cards(mask)) == cards_in(mask)
    assert card_set(cards_in(mask)) == mask
    assert suit_cards(mask, HEARTS) == parse_hand("9H")
    assert count(FULL_DECK) == 52


def test_display_order_puts_trump_first_high_to_low() -> None:
    mask = parse_hand("AS 2C 9H KH 3D")
    assert [card_name(c) for c in sorted_for_display(mask)] == ["AS", "KH", "9H", "2C", "3D"]
    assert [card_name(c) for c in sorted_for_display(mask, DIAMONDS)] == ["3D", "AS", "KH", "9H", "2C"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, FULL_DECK))
def test_hand_name_round_trip(mask: int) -> None:
    assert parse_hand(hand_name(mask)) == mask
    assert cards_tuple(mask) == tuple(iter_cards(mask))
    assert all(parse_card(symbol_name(c)) == c == parse_card(card_name(c)) for c in iter_cards(mask))
