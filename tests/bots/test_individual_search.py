"""The individual-contract search (paranoid per player) against plain minimax over every
line of play, and against max-n, on random small endings of every strain, mid-trick too; the
compiled search against both Python searches, against itself with its table in other states on
longer hands, its budget ("not proven"), and its helper thread."""

from __future__ import annotations

import random
import threading
from collections.abc import Callable, Iterator
from functools import partial

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.bots.search import individual
from israeli_whist.bots.search.individual import (
    compiled_search_available,
    maxn_values,
    paranoid_card_values,
    paranoid_card_values_within,
    paranoid_value,
    paranoid_value_exhaustive,
    paranoid_value_python,
    paranoid_value_within,
    play_card,
    playable,
)
from israeli_whist.core.cards import NO_TRUMP, SPADES, CardSet, parse_hand
from israeli_whist.core.games.israeli import israeli_score
from israeli_whist.core.games.whistiti import whistiti_score

if compiled_search_available():
    from israeli_whist.bots.search import individual_solver

needs_compiled = pytest.mark.skipif(not compiled_search_available(), reason="individual_solver is not built")


def random_ending(rng: random.Random, tricks: int, players: int = 4
                  ) -> tuple[tuple[CardSet, ...], int, tuple[int, ...]]:
    """Hands of ``tricks`` cards each from a shuffled pack, then 0 to players-1 cards played
    legally to the first trick. Returns (hands now, leader, trick so far)."""
    cards = rng.sample(range(52), tricks * players)
    hands = [sum(1 << c for c in cards[s::players]) for s in range(players)]
    leader = rng.randrange(players)
    trick: tuple[int, ...] = ()
    for offset in range(rng.randrange(players)):
        seat = (leader + offset) % players
        card = rng.choice(playable(hands[seat], trick))
        hands[seat] &= ~(1 << card)
        trick += (card,)
    return tuple(hands), leader, trick


def random_score(rng: random.Random, tricks: int) -> Callable[[int], int]:
    """A player's score by final tricks: Israeli Whist (under or over) or Whistiti, some contract."""
    contract = rng.randrange(tricks + 2)
    if rng.random() < 0.5:
        return partial(israeli_score, contract, over=rng.random() < 0.5)
    return partial(whistiti_score, contract)


def any_score(rng: random.Random, tricks: int) -> Callable[[int], int]:
    """A game's score (see ``random_score``) or, one time in three, arbitrary points for each
    count of tricks, so that no shape of the score is taken for granted."""
    if rng.random() < 1 / 3:
        return tuple(rng.randrange(-30, 30) for _ in range(tricks + 4)).__getitem__
    return random_score(rng, tricks)


@pytest.mark.parametrize("tricks", [1, 2, 3, 4])
def test_paranoid_search_equals_plain_minimax(tricks: int) -> None:
    rng = random.Random(tricks)
    for _ in range(60 if tricks < 4 else 25):
        hands, leader, trick = random_ending(rng, tricks)
        trump = rng.randrange(5)
        player = rng.randrange(4)
        score = random_score(rng, tricks)
        taken = rng.randrange(3)
        expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
        assert paranoid_value_python(hands, trump, leader, player, score, trick, taken) == expected
        assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


def test_five_trick_endings_and_three_players() -> None:
    rng = random.Random(5)
    for players, tricks, cases in ((4, 5, 3), (3, 5, 6)):
        for _ in range(cases):
            hands, leader, trick = random_ending(rng, tricks, players)
            trump, player, score = rng.randrange(5), rng.randrange(players), random_score(rng, tricks)
            expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick)
            assert paranoid_value_python(hands, trump, leader, player, score, trick) == expected
            assert paranoid_value(hands, trump, leader, player, score, trick) == expected


# (players, most tricks, endings per trick count): every table size the games use and more,
# kept to what plain minimax in Python answers in a few seconds.
COMPILED_CASES = [(2, 6, 30), (3, 5, 40), (4, 4, 40), (5, 4, 12), (6, 3, 10), (7, 3, 6)]


@needs_compiled
@pytest.mark.parametrize(("players", "most_tricks", "cases"), COMPILED_CASES)
def test_compiled_search_equals_plain_minimax(players: int, most_tricks: int, cases: int) -> None:
    rng = random.Random(100 + players)
    for tricks in range(1, most_tricks + 1):
        for _ in range(cases):
            hands, leader, trick = random_ending(rng, tricks, players)
            trump, player, score = rng.randrange(5), rng.randrange(players), any_score(rng, tricks)
            taken = rng.randrange(3)
            expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
            assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


@needs_compiled
def test_compiled_search_equals_python_search_on_five_trick_endings() -> None:
    rng = random.Random(55)
    for players, cases in ((4, 20), (5, 3)):
        for _ in range(cases):
            hands, leader, trick = random_ending(rng, 5, players)
            trump, player, score = rng.randrange(5), rng.randrange(players), any_score(rng, 5)
            taken = rng.randrange(3)
            expected = paranoid_value_python(hands, trump, leader, player, score, trick, taken)
            assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


def card_values_by_minimax(hands: tuple[CardSet, ...], trump: int, leader: int, score: Callable[[int], int],
                           trick: tuple[int, ...], taken: int) -> dict[int, int]:
    """The value of each legal card of the seat on move: plain minimax after the card."""
    n = len(hands)
    seat = (leader + len(trick)) % n
    values = {}
    for card in playable(hands[seat], trick):
        after, next_leader, next_trick, winner = play_card(hands, trump, leader, trick, card)
        values[card] = paranoid_value_exhaustive(after, trump, next_leader, seat, score, next_trick,
                                                 taken + (winner == seat))
    return values


@pytest.mark.parametrize("compiled", [True, False])
def test_card_values_are_the_values_after_each_card(compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not compiled_search_available():
        pytest.skip("individual_solver is not built")
    if not compiled:
        monkeypatch.setattr(individual, "_solver", None)
    rng = random.Random(77)
    for players, tricks in ((3, 4), (4, 3), (4, 4), (5, 3)):
        for _ in range(12):
            hands, leader, trick = random_ending(rng, tricks, players)
            trump, score, taken = rng.randrange(5), any_score(rng, tricks), rng.randrange(2)
            expected = card_values_by_minimax(hands, trump, leader, score, trick, taken)
            assert paranoid_card_values(hands, trump, leader, score, trick, taken) == expected


@needs_compiled
def test_the_compiled_search_refuses_impossible_positions() -> None:
    hands = tuple(parse_hand(h) for h in ("AS KS", "QS JS", "TS 9S", "8S 7S"))
    with pytest.raises(ValueError, match="as many cards"):
        paranoid_value(hands[:3] + (parse_hand("8S"),), NO_TRUMP, 0, 0, lambda tricks: tricks)
    with pytest.raises(ValueError, match="disjoint"):
        paranoid_value(hands[:3] + (parse_hand("AS 7S"),), NO_TRUMP, 0, 0, lambda tricks: tricks)
    with pytest.raises(ValueError, match="2 to 7 hands"):
        paranoid_value(hands + (0,) * 4, NO_TRUMP, 0, 0, lambda tricks: tricks)


def test_max_n_never_gives_a_player_less_than_their_paranoid_value() -> None:
    rng = random.Random(11)
    for _ in range(40):
        hands, leader, trick = random_ending(rng, 3)
        trump = rng.randrange(5)
        scores = tuple(random_score(rng, 3) for _ in range(4))
        together = maxn_values(hands, trump, leader, scores, trick)
        for player in range(4):
            assert paranoid_value(hands, trump, leader, player, scores[player], trick) <= together[player]


def test_a_worked_ending() -> None:
    hands = tuple(parse_hand(h) for h in ("AS KS", "AH 2C", "KH QH", "3C 2D"))
    one_trick = partial(israeli_score, 1, over=False)
    # North (seat 0) leads two top spades, trumps or not: both win, and taking 2 tricks on a
    # contract of 1 scores -10.
    assert paranoid_value(hands, SPADES, 0, 0, one_trick) == -10
    assert paranoid_value(hands, NO_TRUMP, 0, 0, one_trick) == -10
    # East leads at no trump: the ace of hearts wins (North discards a spade), then the 2C is
    # won by South's 3C (North discards again). North takes nothing: a zero made scores 50 under.
    assert paranoid_value(hands, NO_TRUMP, 1, 0, partial(israeli_score, 0, over=False)) == 50
    # With spades trump, holding only spades, North must ruff the ace of hearts, then wins the
    # last trick too: -10 again, while a contract of 2 is made (4 + 10 = 14).
    assert paranoid_value(hands, SPADES, 1, 0, one_trick) == -10
    assert paranoid_value(hands, SPADES, 1, 0, partial(israeli_score, 2, over=False)) == 14


@needs_compiled
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2**32 - 1), tricks=st.integers(2, 4), game=st.sampled_from(["israeli", "whistiti"]))
def test_compiled_search_equals_plain_minimax_with_both_games_scores(seed: int, tricks: int, game: str) -> None:
    """Random endings, one after another with the compiled search's table kept between them (its
    entries stand for whole classes of positions, which this mixes), against plain minimax."""
    rng = random.Random(seed)
    hands, leader, trick = random_ending(rng, tricks)
    trump, player, taken = rng.randrange(5), rng.randrange(4), rng.randrange(3)
    contract = rng.randrange(tricks + 2)
    score = (partial(whistiti_score, contract) if game == "whistiti"
             else partial(israeli_score, contract, over=rng.random() < 0.5))
    expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
    assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


@needs_compiled
def test_a_set_whose_floor_the_player_cannot_force_is_lost() -> None:
    """A Whistiti score asks for sets with a floor and a ceiling ("2 to 4 tricks"). The compiled
    search first asks whether the player can force the floor alone, and where they cannot, takes
    the set, and every later set with as high a floor, as lost without searching it. On endings
    where the player cannot force their contract's floor, and on the others, the value is still
    plain minimax's."""
    rng = random.Random(12)
    floors_lost = 0
    for _ in range(120):
        tricks = rng.randrange(3, 5)
        hands, leader, trick = random_ending(rng, tricks)
        trump, player, taken = rng.randrange(5), rng.randrange(4), rng.randrange(2)
        contract = taken + rng.randrange(1, tricks + 1)
        score = partial(whistiti_score, contract)
        most = paranoid_value_exhaustive(hands, trump, leader, player, lambda won: won, trick, taken)
        floors_lost += most < contract
        expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
        assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected
    assert floors_lost >= 20  # the cases the floor test settles are among them


@needs_compiled
def test_a_position_is_worth_its_best_card_on_longer_hands() -> None:
    """Where plain minimax is out of reach (7 to 9 tricks): the value of a position for the seat
    on move is the best of its cards' values, each found with the table in another state (cold,
    and warmed by the other cards), so that a wrongly shared table entry would show."""
    rng = random.Random(9)
    for tricks in (7, 8, 9):
        for _ in range(4):
            hands, leader, trick = random_ending(rng, tricks)
            trump, score, taken = rng.randrange(5), random_score(rng, tricks), rng.randrange(2)
            seat = (leader + len(trick)) % 4
            individual_solver.clear_table()
            value = paranoid_value(hands, trump, leader, seat, score, trick, taken)
            assert max(paranoid_card_values(hands, trump, leader, score, trick, taken).values()) == value
            individual_solver.clear_table()
            assert max(paranoid_card_values(hands, trump, leader, score, trick, taken).values()) == value


@needs_compiled
def test_a_search_over_its_budget_answers_not_proven() -> None:
    rng = random.Random(13)
    hands, leader, trick = random_ending(rng, 8)
    score = partial(whistiti_score, 2)
    individual_solver.clear_table()
    exact = paranoid_value(hands, NO_TRUMP, leader, 0, score, trick)
    individual_solver.clear_table()
    assert paranoid_value_within(hands, NO_TRUMP, leader, 0, score, trick, nodes=10) is None
    assert individual_solver.last_node_count() <= 11  # it stopped: nothing half-done was kept either
    assert paranoid_value_within(hands, NO_TRUMP, leader, 0, score, trick, nodes=10**9) == exact
    values = paranoid_card_values(hands, NO_TRUMP, leader, score, trick)
    individual_solver.clear_table()
    within = paranoid_card_values_within(hands, NO_TRUMP, leader, score, trick, nodes=10)
    assert within.keys() == values.keys() and None in within.values()
    assert all(v is None or v == values[card] for card, v in within.items())


def test_without_the_compiled_search_a_budget_changes_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(individual, "_solver", None)
    rng = random.Random(14)
    hands, leader, trick = random_ending(rng, 3)
    score = partial(israeli_score, 1, over=True)
    assert paranoid_value_within(hands, 0, leader, 1, score, trick, nodes=1) == paranoid_value_exhaustive(
        hands, 0, leader, 1, score, trick)
    assert paranoid_card_values_within(hands, 0, leader, score, trick, nodes=1) == card_values_by_minimax(
        hands, 0, leader, score, trick, 0)


# --- The helper thread --------------------------------------------------------------------------

def helper_module_built() -> bool:
    try:
        from israeli_whist.bots.search import individual_helper  # noqa: F401
    except ImportError:
        return False
    return compiled_search_available()


needs_helper = pytest.mark.skipif(not helper_module_built(), reason="individual_helper is not built")


@pytest.fixture
def helper_always(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Two threads on every search, however short (the helper normally joins 9 tricks or more)."""
    monkeypatch.setattr(individual_solver, "HELPER_FROM_TRICKS", 1)
    before = individual_solver.threads_in_use()
    individual_solver.set_threads(2)
    yield
    individual_solver.set_threads(before)


@needs_helper
@pytest.mark.usefixtures("helper_always")
def test_with_a_helper_the_search_equals_plain_minimax() -> None:
    rng = random.Random(31)
    for tricks in range(1, 6):
        for _ in range(25):
            hands, leader, trick = random_ending(rng, tricks)
            trump, player, score = rng.randrange(5), rng.randrange(4), any_score(rng, tricks)
            taken = rng.randrange(3)
            individual_solver.clear_table()
            expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick, taken)
            assert paranoid_value(hands, trump, leader, player, score, trick, taken) == expected


@needs_helper
@pytest.mark.usefixtures("helper_always")
def test_with_a_helper_each_card_is_worth_the_minimax_value_after_it() -> None:
    rng = random.Random(32)
    for _ in range(20):
        hands, leader, trick = random_ending(rng, 4)
        trump, score = rng.randrange(5), any_score(rng, 4)
        assert paranoid_card_values(hands, trump, leader, score, trick) == card_values_by_minimax(
            hands, trump, leader, score, trick, 0)


@needs_helper
def test_whole_hands_are_worth_the_same_on_one_thread_and_two() -> None:
    """13-trick hands, both games, a cold table each time: the helper's entries and answers
    change how fast the value is found, never the value."""
    rng = random.Random(33)
    before = individual_solver.threads_in_use()
    helped = 0
    try:
        for game in range(6):
            cards = rng.sample(range(52), 52)
            hands = tuple(sum(1 << card for card in cards[seat::4]) for seat in range(4))
            trump, leader, player, contract = rng.randrange(5), rng.randrange(4), rng.randrange(4), rng.randrange(5)
            score = partial(whistiti_score, contract) if game % 2 else partial(israeli_score, contract, over=True)
            scores = tuple(score(more) for more in range(14))
            values = []
            for threads in (1, 2):
                individual_solver.set_threads(threads)
                individual_solver.clear_table()
                values.append(individual_solver.paranoid_value(hands, trump, leader, player, (), scores, 3_000_000))
                helped += threads == 2 and individual_solver.last_helper_node_count() > 0
            assert values[0] is None or values[1] is None or values[0] == values[1]
    finally:
        individual_solver.set_threads(before)
    if individual_solver.threads_in_use() == 2 or before == 2:
        assert helped > 0  # the helper did search


@needs_helper
def test_a_search_alone_after_a_helped_one_is_not_cut_short(helper_always: None) -> None:
    """The test count the helper answers by is left over after a helped search; a search that
    runs no tests of its own (``can_force``) must not take it as answered."""
    rng = random.Random(34)
    hands, leader, trick = random_ending(rng, 5)
    paranoid_value(hands, 0, leader, 0, partial(whistiti_score, 2), trick)
    def in_set(counts: set[int], tricks: int) -> int:
        return int(tricks in counts)

    for need in range(1, 64):
        want = {more for more in range(6) if need >> more & 1}
        expected = paranoid_value_python(hands, 0, leader, 0, partial(in_set, want), trick) == 1
        individual_solver.clear_table()
        assert individual_solver.can_force(hands, 0, leader, 0, trick, need) == expected


@needs_compiled
def test_the_thread_count_is_one_or_two() -> None:
    with pytest.raises(ValueError, match="1 or 2 threads"):
        individual_solver.set_threads(3)


@needs_helper
def test_without_a_thread_to_spare_the_search_runs_alone(helper_always: None,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    def no_thread(self: object) -> None:
        raise RuntimeError("can't start new thread")

    monkeypatch.setattr(threading.Thread, "start", no_thread)
    rng = random.Random(35)
    for _ in range(5):
        hands, leader, trick = random_ending(rng, 4)
        trump, player, score = rng.randrange(5), rng.randrange(4), any_score(rng, 4)
        expected = paranoid_value_exhaustive(hands, trump, leader, player, score, trick)
        assert paranoid_value(hands, trump, leader, player, score, trick) == expected
        assert individual_solver.last_helper_node_count() == 0


@needs_helper
def test_a_helper_built_from_other_sources_returns_at_once() -> None:
    """Its structures' sizes differ from the search's: it must not touch the tables it is given
    (null addresses here, which it would crash on)."""
    from israeli_whist.bots.search import individual_helper

    other_layout = (1, 2, 3, 4)
    hands = (0b1, 0b10, 0b100, 0b1000)
    done = threading.Event()

    def help_and_return() -> None:
        individual_helper.help_search((0, 0, 0, 0, 1, other_layout), hands, 4, 0, 0, ())
        done.set()

    thread = threading.Thread(target=help_and_return, daemon=True)
    thread.start()
    assert done.wait(timeout=10)  # a helper that went on would wait for a stop that never comes
