"""The same questions asked of DDS (Bo Haglund's double-dummy solver) through ``endplay``.

For tests and benchmarks only: ``endplay`` is in the ``test`` and ``bench`` extras, not a
dependency. endplay numbers seats as we do (north 0, east 1, south 2, west 3) but its
denominations run spades 0, hearts 1, diamonds 2, clubs 3, no trump 4, so suit ``s`` is
denomination ``3 - s``. A DDS table is indexed by declarer, whose left-hand opponent leads.

>>> from israeli_whist.core.cards import parse_card
>>> hands = [1 << parse_card(name) for name in ("AS", "KS", "2H", "3H")]
>>> dds_solve(hands, 2, 1)
1
"""

from __future__ import annotations

from collections.abc import Sequence

from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

from israeli_whist.core.cards import RANK_LETTERS, SUIT_LETTERS

from . import SEATS, STRAINS


def denomination(strain: int) -> Denom:
    """endplay's denomination for our strain (0-3 clubs to spades, 4 no trump)."""
    return Denom(4 if strain == 4 else 3 - strain)


def to_deal(hands: Sequence[int], trump: int, leader: int, trick: Sequence[int] = ()) -> Deal:
    """An endplay ``Deal`` of the position: the trick's cards go back to their hands, then are played."""
    full = list(hands)
    for position, card in enumerate(trick):
        full[(leader + position) % 4] |= 1 << card
    deal = Deal.from_pbn("N:" + " ".join(_pbn_hand(mask) for mask in full))
    deal.first = Player(leader)
    deal.trump = denomination(trump)
    for card in trick:
        deal.play(SUIT_LETTERS[card // 13] + RANK_LETTERS[card % 13])
    return deal


def dds_solve(hands: Sequence[int], trump: int, leader: int, trick: Sequence[int] = ()) -> int:
    """DDS's answer to ``israeli_whist.bots.search.dd.solve``: the best card's tricks for the side on move."""
    return max(tricks for _card, tricks in solve_board(to_deal(hands, trump, leader, trick)))


def dds_table(hands: Sequence[int]) -> dict[tuple[int, int], int]:
    """DDS's answer to ``israeli_whist.bots.search.dd.dd_table``: leader's side tricks by (strain, leader).

    DDS's table call wants 13 cards a hand; smaller endings ask ``solve_board`` for each entry.
    """
    left = max(mask.bit_count() for mask in hands)
    if left != 13:
        return {(strain, leader): dds_solve(hands, strain, leader) for strain in STRAINS for leader in SEATS}
    rows = calc_dd_table(to_deal(hands, 4, 0)).to_list()  # rows[denomination][declarer]
    return {
        (strain, leader): left - rows[denomination(strain).value][(leader + 3) % 4]
        for strain in STRAINS
        for leader in SEATS
    }


def _pbn_hand(mask: int) -> str:
    suits = []
    for suit in (3, 2, 1, 0):
        ranks = [RANK_LETTERS[rank] for rank in range(12, -1, -1) if mask >> (13 * suit + rank) & 1]
        suits.append("".join(ranks))
    return ".".join(suits)
