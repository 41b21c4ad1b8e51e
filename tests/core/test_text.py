"""The text form of a hand (israeli_whist.core.text), for logs and bug reports."""

from __future__ import annotations

from helpers import EXAMPLE_DEAL, SUIT_DEAL, act, classic, frisch_exchange, israeli, pass_round, start

from israeli_whist.core.text import hand_text

NAMES = ["Ann", "Ben", "Cy", "Dov"]


def test_a_hand_in_play() -> None:
    state = act(start(israeli(), EXAMPLE_DEAL), "5D pass pass pass 5 3 4 0 9C QC 7D 8C")
    lines = hand_text(state, NAMES, 3).splitlines()
    assert lines[0] == "Israeli Whist, hand 3 — dealer Ann"
    assert lines[2].split(":")[0].strip() == "Ben" and "9♣" in lines[2]
    assert "  Auction: Ben 5♦, Cy pass, Dov pass, Ann pass" in lines
    assert "  Declarer Ben, trump ♦" in lines
    assert "  Contracts: Ann 0, Ben 5, Cy 3, Dov 4 (12: under)" in lines
    assert "   1. Ben 9♣ Cy Q♣ Dov 7♦ Ann 8♣  -> Dov" in lines


def test_a_finished_hand_shows_tricks_and_points() -> None:
    state = act(start(israeli(), SUIT_DEAL), "pass pass 5S pass pass pass 13 0 0 1")
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[-1])
    text = hand_text(state)
    assert "  Tricks: Seat 0 0, Seat 1 0, Seat 2 0, Seat 3 13" in text
    assert "  Points: Seat 0 +25, Seat 1 +25, Seat 2 -10, Seat 3 +179" in text


def test_a_cancelled_hand() -> None:
    state = pass_round(frisch_exchange(pass_round(start(israeli(frisch_rounds=1), SUIT_DEAL))))
    text = hand_text(state)
    assert "Auction after Frisch 1: Seat 1 pass" in text
    assert text.endswith("Cancelled: no bid after the last Frisch; the same dealer deals again")


def test_classic_shows_the_turned_card_and_trump() -> None:
    text = hand_text(start(classic(), SUIT_DEAL, turned="5C"))
    assert "  Turned up: 5♣" in text and "  Trump ♣" in text
