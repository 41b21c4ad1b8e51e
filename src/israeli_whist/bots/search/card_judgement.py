"""One card of Israeli Whist or Whistiti judged for the analysis: the most the player can be sure
of with their best card, what the card played leaves them, and which cards reach that best.

A verdict needs only the first two exactly. So they are asked first, and the other cards only
whether they reach the best: one test each. Working out each card's own value instead (what
``individual.paranoid_card_values`` does) refutes every score above it, and for a poor card
those refutations are the costliest part of the search. All the questions share one budget of
positions; if it runs out while the other cards are being asked, the verdict stands (its value,
best and cost are proven) with the best cards found so far.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from israeli_whist.bots.search import individual
from israeli_whist.core.cards import SUIT_MASKS, Card, CardSet
from israeli_whist.core.state import HandState

Score = Callable[[int], int]


@dataclass(frozen=True)
class Judgement:
    value: int  # the points the player can be sure of after the card played
    best: int  # ... after their best card
    best_cards: tuple[Card, ...]  # cards proven to reach ``best``, in order
    all_best_cards: bool  # False: the budget ran out before every card was asked


def judge_card(state: HandState, card: Card, score: Score, budget: int) -> Judgement | None:
    """The card ``card`` of the player on move judged by the paranoid search (``score``: their
    points for each final trick count), visiting at most ``budget`` positions in all when the
    search is compiled; None ("not proven") if the best or the card's value could not be shown,
    or no card was yet shown to reach the best. The Python search has no budget: it always
    answers."""
    seat, taken = state.player, state.tricks_won[state.player]
    spent = 0

    def value_within(hands: tuple[CardSet, ...], leader: int, trick: tuple[Card, ...], won: int,
                     score: Score) -> int | None:
        """The player's value from that position, in what is left of the budget (None: out of it)."""
        nonlocal spent
        if spent >= budget:
            return None
        value = individual.paranoid_value_within(hands, state.trump, leader, seat, score, trick, won,
                                                 nodes=budget - spent)
        spent += individual.positions_visited()
        return value

    def value_after(group: list[Card], score: Score) -> int | None:
        """The value after the first card of ``group`` (they are all worth the same)."""
        hands, leader, trick, winner = individual.play_card(state.hands, state.trump, state.leader, state.trick,
                                                            group[0])
        return value_within(hands, leader, trick, taken + (winner == seat), score)

    best = value_within(state.hands, state.leader, state.trick, taken, score)
    if best is None:
        return None
    top = best  # an int for the lambdas below (mypy does not narrow ``best`` inside them)
    groups = equivalent_groups(state)
    [played] = [group for group in groups if card in group]
    # No card does better than the best: scores above it are the same to the search as the best.
    value = value_after(played, lambda tricks: min(score(tricks), top))
    if value is None:
        return None
    best_cards = list(played) if value == best else []
    asked_all = True
    for group in groups:
        if group is played:
            continue
        reaches = value_after(group, lambda tricks: int(score(tricks) >= top))
        if reaches is None:
            asked_all = False
            break
        if reaches:
            best_cards += group
    if not best_cards:
        return None
    return Judgement(value, best, tuple(sorted(best_cards)), asked_all)


def equivalent_groups(state: HandState) -> list[list[Card]]:
    """The legal cards in runs of one suit with no card between them still held by another
    seat or on the table (played earlier or never dealt does not separate them)."""
    others: CardSet = 0
    for seat, hand in enumerate(state.hands):
        if seat != state.player:
            others |= hand
    for played in state.trick:
        others |= 1 << played
    groups: list[list[Card]] = []
    last = -1
    for card in sorted(state.legal_actions()):
        if groups and card // 13 == last // 13 and not others & _between(last, card):
            groups[-1].append(card)
        else:
            groups.append([card])
        last = card
    return groups


def _between(low: Card, high: Card) -> int:
    return ((1 << high) - (1 << (low + 1))) & SUIT_MASKS[low // 13]
