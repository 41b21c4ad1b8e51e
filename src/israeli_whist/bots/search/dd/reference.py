"""Plain minimax double-dummy solver: every legal card, no pruning (positions are memoized). For tests on small endings.

It is the definition the compiled solver (``solver.pyx``) must agree with, written as simply as
possible; its cost grows as the product of the hand lengths, so keep it to a few tricks.

>>> from israeli_whist.core.cards import parse_card
>>> hands = [1 << parse_card(name) for name in ("AS", "KS", "2H", "3H")]
>>> reference_solve(hands, 4, 0)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.core.tricks import trick_winner

SUIT_MASK = 0x1FFF


def legal_cards(hand: int, trick: Sequence[int]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``: follow the suit led when able."""
    if trick:
        follow = hand & (SUIT_MASK << (13 * (trick[0] // 13)))
        if follow:
            hand = follow
    return [card for card in range(52) if hand >> card & 1]


def reference_solve(hands: Sequence[int], trump: int, leader: int, trick: Sequence[int] = ()) -> int:
    """Most tricks the side of the player on move takes from here, the current trick included."""
    seat = (leader + len(trick)) % 4
    left = hands[seat].bit_count()
    north_south = _north_south(tuple(hands), trump, leader, tuple(trick), {})
    return north_south if seat % 2 == 0 else left - north_south


Position = tuple[tuple[int, ...], int, tuple[int, ...]]


def _north_south(
    hands: tuple[int, ...], trump: int, leader: int, trick: tuple[int, ...], seen: dict[Position, int]
) -> int:
    """Tricks N/S take from here with best play by both sides (memoized, otherwise every line)."""
    seat = (leader + len(trick)) % 4
    if not trick and hands[seat] == 0:
        return 0
    position = (hands, leader, trick)
    if position in seen:
        return seen[position]
    values = []
    for card in legal_cards(hands[seat], trick):
        after = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1 :]
        played = (*trick, card)
        if len(played) == 4:
            winner = (leader + trick_winner(played, trump)) % 4
            value = (1 - winner % 2) + _north_south(after, trump, winner, (), seen)
        else:
            value = _north_south(after, trump, leader, played, seen)
        values.append(value)
    seen[position] = best = max(values) if seat % 2 == 0 else min(values)
    return best
