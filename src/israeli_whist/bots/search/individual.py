"""Perfect-information search for games where each player plays for their own contract
(Israeli Whist, Whistiti): the solution concept the expert bot evaluates sampled deals with.

The concept is *paranoid per player*: the value of a position for player ``p`` is the best
final score ``p`` can be sure of when every other player plays against ``p``. The other
players' real aims are ignored; that makes each player's problem a two-sided game, so that
alpha-beta applies, and its value is a guarantee, which matters when opponents are people.
Since the game has perfect information here, ``p``'s max-n value (every player maximising
their own score, the other concept usually proposed) is never below it: ``p``'s max-n
payoff is its best reply to the others' max-n strategies, which is at least what its
paranoid strategy earns against them. ``maxn_values`` computes that other concept by brute
force for the tests.

A player's score is a function of their final trick count alone (their contract and the
over/under of the hand are fixed once play starts), passed in as ``score``.

``paranoid_value`` and ``paranoid_card_values`` are served by the compiled search
(``individual_solver.pyx``) when the install could build it, and by the Python search here
otherwise; ``paranoid_value_python`` is that Python search, ``paranoid_value_exhaustive`` the
plain minimax the tests hold both to.

>>> from israeli_whist.core.cards import parse_hand, NO_TRUMP
>>> hands = tuple(parse_hand(h) for h in ("AS KS", "QS JS", "TS 9S", "8S 7S"))
>>> paranoid_value(hands, NO_TRUMP, leader=0, player=0, score=lambda tricks: 10 * tricks)
20
>>> values = paranoid_card_values(hands, NO_TRUMP, leader=1, score=lambda tricks: 10 * tricks)
>>> sorted(values.items())  # the JS and the QS: the player on move (East) takes no trick either way
[(48, 0), (49, 0)]
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from types import ModuleType

from israeli_whist.core.cards import SUIT_MASKS, CardSet, cards_in
from israeli_whist.core.tricks import trick_winner

Score = Callable[[int], int]

_solver: ModuleType | None
try:
    from israeli_whist.bots.search import individual_solver as _solver
except ImportError:  # built without a C compiler: the extension is optional in setup.py
    _solver = None

COMPILED_MAX_TRICKS = 17  # the compiled search's arrays hold 17 tricks: 52 cards among 3 seats


def compiled_search_available() -> bool:
    """Whether the compiled search was built (it serves ``paranoid_value`` when it was)."""
    return _solver is not None


def playable(hand: CardSet, trick: tuple[int, ...]) -> list[int]:
    """The cards of ``hand`` that may be played to ``trick``: follow suit if able."""
    if trick:
        follow = hand & SUIT_MASKS[trick[0] // 13]
        if follow:
            return cards_in(follow)
    return cards_in(hand)


Step = tuple[tuple[CardSet, ...], int, tuple[int, ...], int]


def play_card(hands: tuple[CardSet, ...], trump: int, leader: int, trick: tuple[int, ...], card: int) -> Step:
    """The position after the seat on move plays ``card``: the hands, the leader and the cards
    of the trick under way, and the seat that won the trick if the card completed it (else -1,
    so that ``winner == seat`` counts a trick only when one was won)."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    after = hands[:seat] + (hands[seat] & ~(1 << card),) + hands[seat + 1:]
    played = trick + (card,)
    if len(played) < n:
        return after, leader, played, -1
    winner = (leader + trick_winner(played, trump)) % n
    return after, winner, (), winner


def paranoid_value(hands: tuple[CardSet, ...], trump: int, leader: int, player: int, score: Score,
                   trick: tuple[int, ...] = (), taken: int = 0) -> int:
    """The final score ``player`` can guarantee from this position against all the others.

    ``hands`` are the cards each seat holds now, ``trick`` the cards already played to the
    current trick (led by ``leader``), ``taken`` the tricks ``player`` has won so far.
    """
    if _solver is None or _tricks_left(hands) > COMPILED_MAX_TRICKS:
        return paranoid_value_python(hands, trump, leader, player, score, trick, taken)
    value: int = _solver.paranoid_value(tuple(hands), trump, leader, player, tuple(trick),
                                        _score_table(hands, score, taken))
    return value


def paranoid_card_values(hands: tuple[CardSet, ...], trump: int, leader: int, score: Score,
                         trick: tuple[int, ...] = (), taken: int = 0) -> dict[int, int]:
    """The final score the player on move can guarantee after each of their legal cards.

    Arguments as for ``paranoid_value``, whose ``player`` is here the seat on move,
    ``(leader + len(trick)) % len(hands)``; ``taken`` counts that seat's tricks so far.
    """
    if _solver is None or _tricks_left(hands) > COMPILED_MAX_TRICKS:
        return _card_values_python(hands, trump, leader, score, trick, taken)
    values: dict[int, int] = _solver.paranoid_card_values(tuple(hands), trump, leader, tuple(trick),
                                                          _score_table(hands, score, taken))
    return values


def paranoid_value_within(hands: tuple[CardSet, ...], trump: int, leader: int, player: int, score: Score,
                          trick: tuple[int, ...] = (), taken: int = 0, *, nodes: int) -> int | None:
    """``paranoid_value``, or None ("not proven") if the compiled search would visit more than
    ``nodes`` positions. The Python search has no budget: it always answers."""
    if _solver is None or _tricks_left(hands) > COMPILED_MAX_TRICKS:
        return paranoid_value_python(hands, trump, leader, player, score, trick, taken)
    value: int | None = _solver.paranoid_value(tuple(hands), trump, leader, player, tuple(trick),
                                               _score_table(hands, score, taken), nodes)
    return value


def paranoid_card_values_within(hands: tuple[CardSet, ...], trump: int, leader: int, score: Score,
                                trick: tuple[int, ...] = (), taken: int = 0, *, nodes: int
                                ) -> dict[int, int | None]:
    """``paranoid_card_values`` with a budget: the compiled searches of all the cards together
    visit at most ``nodes`` positions, and the card whose search runs out, with those searched
    after it, have the value None ("not proven"). The Python search has no budget: it always
    answers."""
    if _solver is None or _tricks_left(hands) > COMPILED_MAX_TRICKS:
        return dict(_card_values_python(hands, trump, leader, score, trick, taken))
    values: dict[int, int | None] = _solver.paranoid_card_values(
        tuple(hands), trump, leader, tuple(trick), _score_table(hands, score, taken), nodes)
    return values


def positions_visited() -> int:
    """Positions the last compiled search visited (what a budget counts); 0 without the
    compiled search, which is the only one with a budget."""
    return 0 if _solver is None else _solver.last_node_count()


def _score_table(hands: tuple[CardSet, ...], score: Score, taken: int) -> tuple[int, ...]:
    """The compiled search's form of ``score``: the final score for each count of tricks still
    to be won, the current trick included."""
    return tuple(score(taken + more) for more in range(_tricks_left(hands) + 1))


def _card_values_python(hands: tuple[CardSet, ...], trump: int, leader: int, score: Score,
                        trick: tuple[int, ...], taken: int) -> dict[int, int]:
    """``paranoid_card_values`` in Python: the Python search after each legal card."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    values = {}
    for card in playable(hands[seat], trick):
        after, next_leader, next_trick, winner = play_card(hands, trump, leader, trick, card)
        won = taken + (winner == seat)
        values[card] = paranoid_value_python(after, trump, next_leader, seat, score, next_trick, won)
    return values


def paranoid_value_python(hands: tuple[CardSet, ...], trump: int, leader: int, player: int, score: Score,
                          trick: tuple[int, ...] = (), taken: int = 0) -> int:
    """``paranoid_value`` in Python: alpha-beta with a transposition table of exact values and
    of bounds. The reference for the compiled search, and the fallback where it is not built."""
    n = len(hands)
    table: dict[tuple[tuple[CardSet, ...], int, tuple[int, ...], int], tuple[int, int]] = {}
    scores = {t: score(t) for t in range(taken, taken + _tricks_left(hands) + 1)}
    low_all, high_all = min(scores.values()), max(scores.values())

    def search(hands: tuple[CardSet, ...], leader: int, trick: tuple[int, ...], taken: int, alpha: int,
               beta: int) -> int:
        if not any(hands):
            return scores[taken]
        key = (hands, leader, trick, taken)
        low, high = table.get(key, (low_all, high_all))
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        seat = (leader + len(trick)) % n
        maximising = seat == player
        best = low_all if maximising else high_all
        a, b = alpha, beta
        for card in playable(hands[seat], trick):
            after, next_leader, next_trick, winner = play_card(hands, trump, leader, trick, card)
            value = search(after, next_leader, next_trick, taken + (winner == player), a, b)
            if maximising:
                best = max(best, value)
                a = max(a, best)
            else:
                best = min(best, value)
                b = min(b, best)
            if a >= b:
                break
        # What the search proved: an exact value inside the window, a bound outside it.
        if best <= alpha:
            table[key] = (low, min(high, best))
        elif best >= beta:
            table[key] = (max(low, best), high)
        else:
            table[key] = (best, best)
        return best

    return search(hands, leader, trick, taken, low_all - 1, high_all + 1)


def paranoid_value_exhaustive(hands: tuple[CardSet, ...], trump: int, leader: int, player: int, score: Score,
                              trick: tuple[int, ...] = (), taken: int = 0) -> int:
    """The same value by plain minimax over every line of play: the tests' reference."""
    n = len(hands)

    @cache
    def value(hands: tuple[CardSet, ...], leader: int, trick: tuple[int, ...], taken: int) -> int:
        if not any(hands):
            return score(taken)
        seat = (leader + len(trick)) % n
        results = []
        for card in playable(hands[seat], trick):
            after, next_leader, next_trick, winner = play_card(hands, trump, leader, trick, card)
            results.append(value(after, next_leader, next_trick, taken + (winner == player)))
        return max(results) if seat == player else min(results)

    return value(hands, leader, trick, taken)


def maxn_values(hands: tuple[CardSet, ...], trump: int, leader: int, scores: tuple[Score, ...],
                trick: tuple[int, ...] = (), taken: tuple[int, ...] | None = None) -> tuple[int, ...]:
    """Every player's final score when each maximises their own (max-n); ties go to the
    lowest card. Brute force, for small endings."""
    n = len(hands)
    start = taken if taken is not None else (0,) * n

    @cache
    def value(hands: tuple[CardSet, ...], leader: int, trick: tuple[int, ...], won: tuple[int, ...]
              ) -> tuple[int, ...]:
        if not any(hands):
            return tuple(scores[s](won[s]) for s in range(n))
        seat = (leader + len(trick)) % n
        best: tuple[int, ...] | None = None
        for card in playable(hands[seat], trick):
            after, next_leader, next_trick, winner = play_card(hands, trump, leader, trick, card)
            result = value(after, next_leader, next_trick, tuple(w + (s == winner) for s, w in enumerate(won)))
            if best is None or result[seat] > best[seat]:
                best = result
        assert best is not None
        return best

    return value(hands, leader, trick, start)


def _tricks_left(hands: tuple[CardSet, ...]) -> int:
    """Tricks still to be won, the current one included: the seats yet to play to it hold
    one card more than those who have played."""
    return max(hand.bit_count() for hand in hands)
