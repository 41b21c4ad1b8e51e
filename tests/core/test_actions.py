"""The flat action space: cards, pass, bids and contracts (israeli_whist.core.actions)."""

from __future__ import annotations

import pytest

from israeli_whist.core.actions import (
    BID_BASE,
    CONTRACT_BASE,
    MAX_TRICKS,
    NUM_ACTIONS,
    PASS,
    Phase,
    action_display,
    action_name,
    bid_action,
    bid_level,
    bid_strain,
    contract_action,
    contract_tricks,
    is_bid,
    is_card,
    is_contract,
    parse_action,
)
from israeli_whist.core.cards import CLUBS, DIAMONDS, HEARTS, NO_TRUMP, SPADES, parse_card
from israeli_whist.core.errors import NotationError


def test_action_ranges_do_not_overlap() -> None:
    kinds = [(is_card(a), a == PASS, is_bid(a), is_contract(a)) for a in range(NUM_ACTIONS)]
    assert all(sum(kind) == 1 for kind in kinds)
    assert PASS == 52 and BID_BASE == 53
    assert bid_action(MAX_TRICKS, NO_TRUMP) == CONTRACT_BASE - 1
    assert contract_action(MAX_TRICKS) == NUM_ACTIONS - 1


def test_a_higher_bid_is_a_larger_action() -> None:
    order = [(5, CLUBS), (5, DIAMONDS), (5, SPADES), (5, NO_TRUMP), (6, CLUBS), (6, HEARTS), (13, NO_TRUMP)]
    actions = [bid_action(level, strain) for level, strain in order]
    assert actions == sorted(actions)
    assert bid_action(5, SPADES) > bid_action(5, DIAMONDS)
    assert bid_action(6, HEARTS) > bid_action(5, SPADES)


@pytest.mark.parametrize(("level", "strain"), [(1, CLUBS), (7, NO_TRUMP), (13, SPADES), (17, HEARTS)])
def test_bid_round_trip(level: int, strain: int) -> None:
    action = bid_action(level, strain)
    assert (bid_level(action), bid_strain(action)) == (level, strain)


@pytest.mark.parametrize(("level", "strain"), [(0, CLUBS), (18, CLUBS), (5, 5), (5, -1)])
def test_no_such_bid(level: int, strain: int) -> None:
    with pytest.raises(NotationError, match=r"A bid's (level|strain)"):
        bid_action(level, strain)


def test_contracts() -> None:
    assert contract_tricks(contract_action(0)) == 0
    assert contract_tricks(contract_action(13)) == 13
    with pytest.raises(NotationError, match="A contract is a number of tricks from 0 to 17, not 18"):
        contract_action(18)
    with pytest.raises(NotationError):
        contract_action(-1)


@pytest.mark.parametrize(("text", "phase", "expected"), [
    ("QH", Phase.PLAY, parse_card("QH")),
    ("10c", Phase.FRISCH, parse_card("TC")),
    ("pass", Phase.AUCTION, PASS),
    ("P", Phase.AUCTION, PASS),
    ("-", Phase.AUCTION, PASS),
    ("5S", Phase.AUCTION, bid_action(5, SPADES)),
    ("7NT", Phase.AUCTION, bid_action(7, NO_TRUMP)),
    ("7nt", Phase.AUCTION, bid_action(7, NO_TRUMP)),
    ("12♥", Phase.AUCTION, bid_action(12, HEARTS)),
    ("0", Phase.CONTRACT, contract_action(0)),
    ("13", Phase.CONTRACT, contract_action(13)),
])
def test_parse_action(text: str, phase: Phase, expected: int) -> None:
    assert parse_action(text, phase) == expected


@pytest.mark.parametrize(("text", "phase", "message"), [
    ("5S", Phase.CONTRACT, "A contract is a number of tricks"),
    ("S", Phase.AUCTION, "A call is 'pass' or a level and strain"),
    ("5", Phase.AUCTION, "A call is 'pass' or a level and strain"),
    ("5X", Phase.AUCTION, "Not a suit"),
    ("0S", Phase.AUCTION, "A bid's level is a number of tricks, at most 17, not 0"),
    ("pass", Phase.PLAY, "Not a card"),
    ("QH", Phase.OVER, "No action can be taken once the hand is over"),
    ("pass", Phase.CANCELLED, "cancelled"),
])
def test_parse_action_errors(text: str, phase: Phase, message: str) -> None:
    with pytest.raises(NotationError, match=message):
        parse_action(text, phase)


def test_action_names_round_trip_in_their_phase() -> None:
    for action in range(NUM_ACTIONS):
        name = action_name(action)
        phase = Phase.PLAY if is_card(action) else Phase.CONTRACT if is_contract(action) else Phase.AUCTION
        assert parse_action(name, phase) == action
    assert action_name(PASS) == "pass"
    assert action_name(bid_action(7, NO_TRUMP)) == "7NT"
    assert action_name(contract_action(3)) == "3"
    assert action_display(bid_action(6, HEARTS)) == "6♥"
    assert action_display(parse_card("TC")) == "10♣"
    with pytest.raises(NotationError, match="Not an action"):
        action_name(NUM_ACTIONS)
