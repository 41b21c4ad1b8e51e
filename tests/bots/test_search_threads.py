"""The compiled searches release the GIL while they search (so a server's other threads go on),
and a lock keeps their C globals to one search at a time (so threads get right answers)."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from israeli_whist.bots.search import dd
from israeli_whist.core.cards import DECK_SIZE

solver = pytest.importorskip("israeli_whist.bots.search.dd.solver", reason="built without a C compiler")
individual_solver = pytest.importorskip("israeli_whist.bots.search.individual_solver",
                                        reason="built without a C compiler")

# Spades trump, North to lead: about half a second of search here (the slowest of the DDS bench).
SLOW_DEAL = ("N:AJ432.T.KT972.T8 .KJ865.43.AK9764 Q875.4.J65.QJ532 KT96.AQ9732.AQ8.", 3, 0)


def masks(pbn: str) -> list[int]:
    hands = [0, 0, 0, 0]
    for seat, hand in enumerate(pbn.removeprefix("N:").split()):
        for pbn_suit, ranks in enumerate(hand.split(".")):
            for rank in ranks:
                hands[seat] |= 1 << (13 * (3 - pbn_suit) + "23456789TJQKA".index(rank))
    return hands


def random_deal(seed: int, cards: int = 13) -> tuple[int, ...]:
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return tuple(sum(1 << card for card in deck[cards * seat:cards * seat + cards]) for seat in range(4))


def longest_pause_while(search: Callable[[], object]) -> tuple[float, float]:
    """The search's seconds in another thread, and the longest this thread waited meanwhile
    between two of its millisecond sleeps (the whole search, if the search held the GIL)."""
    finished = threading.Event()
    took: list[float] = []

    def run() -> None:
        began = time.perf_counter()
        search()
        took.append(time.perf_counter() - began)
        finished.set()

    worker = threading.Thread(target=run)
    last, longest = time.perf_counter(), 0.0
    worker.start()
    while not finished.is_set():
        time.sleep(0.001)
        now = time.perf_counter()
        longest, last = max(longest, now - last), now
    worker.join()
    return took[0], longest


@pytest.mark.parametrize("which", ["double dummy", "individual"])
def test_a_long_search_lets_other_threads_run(which: str) -> None:
    if which == "double dummy":
        pbn, trump, leader = SLOW_DEAL
        hands = masks(pbn)
        search: Callable[[], object] = lambda: dd.solve(hands, trump, leader)  # noqa: E731
    else:  # a whole 13-trick hand, Israeli Whist scores, a budget that bounds it to a fraction of a second here
        deal = random_deal(3)
        search = lambda: individual_solver.paranoid_value(deal, 0, 0, 0, (), tuple(range(14)), 3_000_000)  # noqa: E731
    took, longest = longest_pause_while(search)
    assert took > 0.05, "the search is too short to tell"
    assert longest < took / 3  # holding the GIL, the pause would be the whole search


def test_searches_from_many_threads_give_the_answers_of_one() -> None:
    deals = [random_deal(seed) for seed in range(12)]
    alone = [dd.solve(deal, seed % 5, seed % 4) for seed, deal in enumerate(deals)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda seed: dd.solve(deals[seed], seed % 5, seed % 4), range(12)))
    assert together == alone
    # Seven-card endings: searched to the end, so a table kept from another thread's search only
    # makes them faster, never changes the answer.
    endings, scores = [random_deal(seed, 7) for seed in range(12)], (5, -1, 10, -2, 0, 3, 1, 4)
    alone_values = [individual_solver.paranoid_value(deal, 1, 1, 2, (), scores) for deal in endings]
    with ThreadPoolExecutor(4) as pool:
        together_values = list(pool.map(
            lambda deal: individual_solver.paranoid_value(deal, 1, 1, 2, (), scores), endings))
    assert together_values == alone_values
