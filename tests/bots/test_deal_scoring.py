"""The expert's compiled card search (``israeli_whist.bots.search.deal_scoring``, ``fastplayout.score_deals``):
its deals are the sampler's, uniform over the deals consistent with the view, and its scores are
the Python path's, deal for deal."""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

import pytest

from israeli_whist.bots.players.expert import distinct_cards
from israeli_whist.bots.search import fastplayout
from israeli_whist.bots.search.budget import Clock, Pacer, Race
from israeli_whist.bots.search.deal_scoring import CardScorer, DealBatches, compiled_scoring_available
from israeli_whist.bots.search.determinize import own_points, state_for
from israeli_whist.bots.search.playout import final_tricks
from israeli_whist.bots.search.sampling import DealSampler, deal_constraints
from israeli_whist.core.actions import Phase
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view

pytestmark = pytest.mark.skipif(not compiled_scoring_available(), reason="needs the compiled playout")

GAMES = [("israeli", "standard", {}), ("israeli", "three_random_card", {}), ("whistiti", "standard", {}),
         ("whistiti", "oh_hell", {}), ("whistiti", "standard", {"players": 5})]


def play_positions(seed: int, every: int = 1) -> Iterator[tuple[HandState, SeatView]]:
    """States of the card play of random hands (random cards after random bids), with the view of
    the seat on move, for each game."""
    rng = random.Random(seed)
    for name, preset, options in GAMES:
        game = make_game(name, preset, options)
        state = game.new_hand(rng.randrange(game.players), rng)
        step = 0
        while not state.is_terminal:
            if state.phase == Phase.PLAY and step % every == 0:
                yield state, seat_view(state, state.player)
            state = state.apply(rng.choice(state.legal_actions()))
            step += 1


def scorer_inputs(view: SeatView) -> tuple[DealSampler, CardScorer]:
    sampler = DealSampler(view)
    return sampler, CardScorer(view, sampler, state_for(view, sampler.sample(random.Random(0))))


def test_every_compiled_deal_fits_the_view() -> None:
    checked = 0
    for _, view in play_positions(seed=1, every=3):
        sampler, scorer = scorer_inputs(view)
        constraints = deal_constraints(view)
        deals = fastplayout.draw_deals(scorer.base, scorer.groups, scorer.places, scorer.split, 50, checked)
        assert all(constraints.is_consistent(deal) for deal in deals)
        assert deals[0] != deals[-1] or sampler.count == 1
        checked += 1
    assert checked >= 40


def test_compiled_deals_are_uniform_over_the_consistent_deals() -> None:
    """Late in the hand, with voids shown, the draws are spread evenly over every deal the
    sampler counts (Pearson's statistic within about five standard deviations of its mean;
    the seeds are fixed, so the test is deterministic)."""
    tested = 0
    for seed in range(40):
        for _, view in play_positions(seed):
            sampler = DealSampler(view)
            if not 3 <= sampler.count <= 60 or len(sampler.groups) < 2:
                continue
            _, scorer = scorer_inputs(view)
            draws = 200 * sampler.count
            seen = Counter(fastplayout.draw_deals(scorer.base, scorer.groups, scorer.places, scorer.split, draws,
                                                  seed))
            assert len(seen) == sampler.count  # every deal comes up, and no other
            expected = draws / sampler.count
            statistic = sum((k - expected) ** 2 / expected for k in seen.values())
            df = sampler.count - 1
            assert statistic < df + 5 * math.sqrt(2 * df) + 10
            tested += 1
            break
    assert tested >= 10


def test_compiled_scores_are_the_python_paths() -> None:
    """On the deals it draws, each candidate's score is the game's own score for the seat after
    that card and the policy's playout (``state.apply`` and ``final_tricks``)."""
    checked = 0
    for _, view in play_positions(seed=2, every=2):
        _, scorer = scorer_inputs(view)
        candidates = tuple(distinct_cards(view))
        deals = fastplayout.draw_deals(scorer.base, scorer.groups, scorer.places, scorer.split, 6, 99)
        scores = fastplayout.score_deals(scorer.base, scorer.groups, scorer.places, scorer.split, 6, 99, candidates,
                                         view.trump, view.leader, scorer.trick, view.tricks_won, view.contracts,
                                         scorer.points)
        for deal, row in zip(deals, scores, strict=True):
            imagined = state_for(view, deal)
            points = own_points(imagined, view.seat)
            expected = []
            for card in candidates:
                after = imagined.apply(card)
                won = after.tricks_won if after.is_terminal else final_tricks(after)
                expected.append(points[won[view.seat]])
            assert list(row) == expected
            checked += 1
    assert checked >= 100


def test_the_seat_points_are_the_games_scores() -> None:
    for state, view in play_positions(seed=3, every=5):
        points = own_points(state, view.seat)
        for tricks in range(state.hand_size + 1):
            won = tuple(tricks if seat == view.seat else 0 for seat in range(state.players))
            assert points[tricks] == state.game.hand_scores(state._replace(tricks_won=won))[view.seat]


def test_bad_arguments_are_refused() -> None:
    state, view = next(play_positions(seed=4))
    _, scorer = scorer_inputs(view)
    args = (scorer.base, scorer.groups, scorer.places, scorer.split, 2, 1)
    rest = (view.trump, view.leader, scorer.trick, view.tricks_won, view.contracts, scorer.points)
    not_held = next(card for card in range(52) if not view.hand >> card & 1)
    with pytest.raises(ValueError, match="not in the hand"):
        fastplayout.score_deals(*args, (not_held,), *rest)
    with pytest.raises(ValueError, match="1 to 52 candidates"):
        fastplayout.score_deals(*args, (), *rest)
    with pytest.raises(ValueError, match="every count of tricks"):
        fastplayout.score_deals(*args, tuple(distinct_cards(view)), *rest[:-1], scorer.points[:2])
    broken = type(scorer.split)(scorer.split.by_group, scorer.split.width, scorer.split.rows, scorer.split.first[:-1],
                                scorer.split.cumulative, scorer.split.next_node, scorer.split.values)
    with pytest.raises(ValueError, match="malformed"):
        fastplayout.draw_deals(scorer.base, scorer.groups, scorer.places, broken, 1, 1)
    split = scorer.split
    looping = replace(split, next_node=(0,) * len(split.next_node))  # back to the first node: no end
    far = replace(split, rows=(99,) + split.rows[1:])  # a row that is not a group or a place
    negative = replace(split, values=(-1,) + split.values[1:])
    for bad in (looping, far, negative):
        with pytest.raises(ValueError, match="malformed"):
            fastplayout.draw_deals(scorer.base, scorer.groups, scorer.places, bad, 1, 1)
    with pytest.raises(ValueError, match="strain 0-4"):
        fastplayout.score_deals(*args, tuple(distinct_cards(view)), 7, *rest[1:])
    with pytest.raises(ValueError, match="cards 0-51"):
        fastplayout.score_deals(*args, tuple(distinct_cards(view)), view.trump, view.leader, (60,), *rest[3:])
    with pytest.raises(ValueError, match="not a seat"):
        fastplayout.draw_deals(scorer.base, scorer.groups, (9,) * len(scorer.places), scorer.split, 1, 1)
    with pytest.raises(ValueError, match="individual games"):
        CardScorer(replace(view, phase=Phase.CONTRACT), DealSampler(view), state)


@pytest.mark.parametrize("racing", [True, False])
def test_adding_deals_in_bulk_is_adding_them_one_by_one(racing: bool) -> None:
    rng = random.Random(5)
    for _ in range(30):
        candidates = list(range(rng.randrange(2, 6)))
        one, bulk = Race(candidates, 0, racing), Race(candidates, 0, racing)
        drift = [rng.uniform(-1, 1) for _ in candidates]
        for _ in range(rng.randrange(1, 12)):
            alive = list(bulk.alive)
            rows = [[round(drift[a] + rng.gauss(0, 3)) for a in alive] for _ in range(rng.randrange(1, 20))]
            for row in rows:
                one.add(dict(zip(alive, row, strict=True)))
            bulk.add_many(alive, rows)
            assert bulk.alive == one.alive and bulk.deals == one.deals
        assert bulk.means() == one.means() and bulk.leader() == one.leader()


def test_deals_in_batches_fit_the_view() -> None:
    rng = random.Random(8)
    for _, view in play_positions(seed=6, every=4):
        sampler = DealSampler(view)
        batches = DealBatches(sampler, batch=5)
        deals = [batches.sample(rng) for _ in range(12)]  # across three batches
        constraints = deal_constraints(view)
        assert all(constraints.is_consistent(deal) for deal in deals)
        assert len(set(deals)) > 1 or sampler.count == 1


class ScriptedClock(Clock):
    """A clock whose readings are given: the pacer's arithmetic without the machine's timing."""

    def __init__(self, budget: float | None, readings: list[float]) -> None:
        super().__init__(budget)
        self.readings = readings

    def spent(self) -> float:
        return self.readings.pop(0)


def test_the_pacer_lets_a_step_in_while_one_as_dear_as_the_last_fits() -> None:
    pacer = Pacer(ScriptedClock(1.0, [0.0, 0.3, 0.5, 0.8]))
    assert pacer.another_fits()
    pacer.step_done()  # at 0.3, a step of 0.3: one more ends at 0.6
    assert pacer.another_fits()
    pacer.step_done()  # at 0.5, a step of 0.2: 0.7
    assert pacer.another_fits()
    pacer.step_done()  # at 0.8, a step of 0.3: 1.1 is over the budget
    assert not pacer.another_fits()
    unlimited = Pacer(ScriptedClock(None, []))  # never reads the clock (its script is empty)
    unlimited.step_done()
    assert unlimited.another_fits()
