# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True, initializedcheck=False
"""Compiled individual-contract search: the final score a player can guarantee when every other
player plays against them (paranoid per player), 2 to 7 seats, any strain, at a trick's start or
part-way through it. ``israeli_whist.bots.search.individual`` holds the Python reference and is the API to use.

How it works:

- The score is a function of the player's final trick count, passed as a table: ``scores[k]``
  is the final score if the player wins ``k`` more tricks, the current trick included.
- The value is found by tests over the distinct scores, from the top down: the largest ``v``
  such that the player can force their trick count into ``{k : scores[k] >= v}``. Each test is
  a two-sided boolean game on a *need set*: a bit mask over the tricks still to come.
- Partition search, as in the double-dummy solver: every search returns, besides its answer,
  the cards whose ranks the answer depended on (a card that won a trick by out-ranking a card of
  its suit, with the equal lower cards of its hand it was searched for; the top cards a bound
  counted). At a trick's start the answer is stored for the whole class of positions with the
  same leader, the same suit lengths in every hand and the same owners of each suit's top cards
  down to the lowest of those cards, ranks counted among the cards still out and seats relative
  to the player. An entry keeps need sets proven won and need sets proven lost: a won set wins
  for every superset, a lost set loses for every subset, so one entry answers later tests with
  other sets and other trick counts so far. Entries are facts about the game alone, not about a
  score table, so they stay valid across calls with the same number of seats and strain.
- Bounds at each trick's start: the player's top trumps win tricks whatever anyone does, the
  others' trumps above the player's highest win tricks the player cannot; the top cards the
  leader can cash bound what the leader's side can force, up or down.
- Move ordering by whether the player wants this trick (read from the need set); cards
  equivalent to one already tried (the same hand holds the next higher card still out or in the
  current trick) are not searched again.
- A node budget: a search that would visit more positions stops and answers "not proven"
  (None at the Python level) instead of running on; nothing it left half-done is stored. It
  counts the positions of the search that answers, not its helper's.
- Two threads where two cores are free: a search of ``HELPER_FROM_TRICKS`` tricks or more gets
  a helper thread (``individual_helper``, this search compiled again) that searches each test
  with the same table and another move order, and the thread that ends a test first answers it.

The search itself is in ``individual_search.pxi``. The module keeps its state in C globals, so
it is not re-entrant: a lock lets one search run at a time, and the search runs without the GIL,
so other threads (a server's) go on meanwhile.
"""

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager

try:
    from israeli_whist.bots.search import individual_helper
except ImportError:  # an optional extension, like this one: without it the search runs alone
    individual_helper = None

cdef bint helper = False  # this module's thread answers; see individual_search.pxi

include "individual_search.pxi"


cdef int load_scores(tuple scores, int left, int* table_out) except -1:
    if len(scores) != left + 1:
        raise ValueError(f"scores must give a score for 0 to {left} more tricks, not {len(scores)} values")
    for k in range(left + 1):
        table_out[k] = scores[k]
    return 0


SEARCHING = threading.Lock()
# Below this a whole search takes milliseconds, about what starting a thread costs.
HELPER_FROM_TRICKS = 9


def _default_threads() -> int:
    asked = os.environ.get("WHIST_SEARCH_THREADS", "")
    if asked in ("1", "2"):
        return int(asked)
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 if cores >= 2 else 1


_threads = _default_threads()


def set_threads(int threads) -> None:
    """Search on 1 thread, or on 2 (a helper thread joins searches of ``HELPER_FROM_TRICKS``
    tricks or more). The default is 2 where this process may use 2 cores or more, unless the
    environment variable ``WHIST_SEARCH_THREADS`` is 1."""
    global _threads
    if threads not in (1, 2):
        raise ValueError(f"the search runs on 1 or 2 threads, not {threads}")
    _threads = threads


def threads_in_use() -> int:
    """How many threads a long search runs on: 1, or 2 with the helper (see ``set_threads``)."""
    return _threads if individual_helper is not None else 1


@contextmanager
def _helper_thread(tuple hands, int strain, int first, int player_seat, tuple trick, int left) -> Iterator[None]:
    """A helper thread for the searches made inside, when it pays; called with ``SEARCHING``
    held and the position loaded. Where no thread can be started the search runs alone."""
    global helped
    control.helper_nodes = 0
    if threads_in_use() < 2 or left < HELPER_FROM_TRICKS:
        yield
        return
    store_release(&control.stop, 0)
    tables = (<size_t>table, <size_t>tags, <size_t>patterns, <size_t>control, generation, table_layout())
    thread = threading.Thread(target=individual_helper.help_search, name="individual search helper",
                              args=(tables, hands, strain, first, player_seat, trick), daemon=True)
    try:
        thread.start()
    except RuntimeError:  # the process may start no more threads
        yield
        return
    helped = True
    try:
        yield
    finally:
        helped = False
        store_release(&control.stop, 1)
        thread.join()


def paranoid_value(tuple hands, int strain, int first, int player_seat, tuple trick, tuple scores,
                   long long budget=0):
    """The score ``player_seat`` can guarantee; ``scores[k]`` is their final score if they win
    ``k`` more tricks, the current one included (``len(scores)`` is the tricks left + 1).
    None if ``budget`` > 0 and the search would visit more positions than that."""
    global total_nodes, nodes
    cdef int table_scores[MAX_TRICKS + 2]
    cdef int left
    cdef int value = 0
    with SEARCHING:
        left = load(hands, strain, first, player_seat, trick)
        load_scores(scores, left, table_scores)
        total_nodes = nodes = 0
        start_count(budget)
        if left == 0:
            return table_scores[0]
        with _helper_thread(hands, strain, first, player_seat, trick, left):
            with nogil:
                value = best_score(table_scores, left, 0, -1)
    return None if value == NOT_PROVEN else value


def paranoid_card_values(tuple hands, int strain, int first, tuple trick, tuple scores,
                         long long budget=0) -> dict:
    """The score the player on move can guarantee after each of their legal cards (equivalent
    cards are searched once); ``scores`` as for ``paranoid_value``. With ``budget`` > 0 the
    searches of all the cards together visit at most that many positions: the card whose search
    runs out, and those after it, have the value None (not proven)."""
    global total_nodes, nodes
    cdef int table_scores[MAX_TRICKS + 2]
    cdef int seat = (first + len(trick)) % len(hands)
    cdef int left
    cdef int moves[MAX_MOVES]
    cdef int count, i, card, value
    cdef Mask legal = 0, out = 0, above
    with SEARCHING:
        left = load(hands, strain, first, seat, trick)
        load_scores(scores, left, table_scores)
        total_nodes = nodes = 0
        values = {}
        count = order_moves(seat, moves, True)
        start_count(budget)
        with _helper_thread(hands, strain, first, seat, trick, left):
            for i in range(count):
                with nogil:
                    value = NOT_PROVEN if aborted else best_score(table_scores, left, seat, moves[i])
                values[moves[i]] = None if value == NOT_PROVEN else value
        # A card left out as equivalent takes the value of the next higher card still out, which is ours.
        legal = hand[seat]
        if played_count and hand[seat] & (SUIT << (13 * (cards[0] // 13))):
            legal = hand[seat] & (SUIT << (13 * (cards[0] // 13)))
        out = remaining | played
    while legal:
        card = highest(legal)
        legal &= ~bit(card)
        if card not in values:
            above = out & (SUIT << (13 * (card // 13))) & ~(((<Mask>2) << card) - 1)
            values[card] = values[lowest_bit(above)]
    return values


def last_node_count() -> int:
    """Positions visited by the last call (for benchmarks): the search's, not its helper's."""
    return total_nodes + nodes


def last_helper_node_count() -> int:
    """Positions the helper thread visited during the last call (0 if none ran)."""
    return control.helper_nodes


def clear_table() -> None:
    """Forget every result kept between calls (for benchmarks that time cold searches)."""
    with SEARCHING:
        clear()


def can_force(tuple hands, int strain, int first, int player_seat, tuple trick, int need) -> bool:
    """Whether ``player_seat`` can force their count of further tricks (the current one included)
    into the set ``need``, a bit mask: bit ``k`` set when ``k`` more tricks will do."""
    global total_nodes, nodes
    cdef Mask used
    cdef bint result = False
    with SEARCHING:
        load(hands, strain, first, player_seat, trick)
        total_nodes = nodes = 0
        start_count(0)
        with nogil:
            result = search(<Mask>need, &used)
    return result
