"""The deal sampler: every deal it draws fits what the seat has seen, the true deal always fits
the constraints, the draws are uniform over all fitting deals (checked against an independent
brute-force enumeration), and it reads nothing but the seat's view."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import Any

import pytest

from israeli_whist.bots.search.sampling import DealConstraints, DealSampler, deal_constraints, sample_deals
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import card_set, iter_cards
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.state import HandState
from israeli_whist.core.views import hidden_cards, seat_view

GAMES: list[tuple[str, str, Mapping[str, Any]]] = [
    ("israeli", "standard", {}),
    ("israeli", "standard", {"frisch_direction": "rotating"}),
    ("israeli", "standard", {"frisch_direction": "right"}),
    ("israeli", "three_no_clubs", {}),
    ("israeli", "three_short_deck", {"frisch_direction": "right"}),
    ("israeli", "three_short_deck_40", {}),
    ("israeli", "three_random_card", {}),
    ("classic", "standard", {}),
    *[("whistiti", "standard", {"players": players}) for players in range(3, 8)],
]
GAME_IDS = ["-".join([name, preset, *(f"{k}={v}" for k, v in opts.items())]) for name, preset, opts in GAMES]


def playout(game: HandGame, seed: int) -> Iterator[HandState]:
    """Every state of one random hand. Auction calls pass three times in four, so that Frisch
    rounds (and their bookkeeping) come up often."""
    rng = random.Random(seed)
    hands = len(game.rules.hand_sizes()) if game.name == "whistiti" else 1  # type: ignore[attr-defined]
    state = game.new_hand(seed % game.players, rng, rng.randrange(hands))
    yield state
    while not state.is_terminal:
        actions = state.legal_actions()
        action = PASS if state.phase == Phase.AUCTION and rng.random() < 0.75 else rng.choice(actions)
        state = state.apply(action)
        yield state


def played_by(state: HandState, seat: int) -> int:
    cards = 0
    n = state.players
    for leader, trick, _ in state.tricks:
        cards |= 1 << trick[(seat - leader) % n]
    for i, card in enumerate(state.trick):
        if (state.leader + i) % n == seat:
            cards |= 1 << card
    return cards


def brute_force_deals(c: DealConstraints) -> list[tuple[int, ...]]:
    """Every consistent deal, by trying every way to hand out the unseen cards (no shared code
    with the sampler's counting)."""
    others = c.others()
    found: list[tuple[int, ...]] = []

    def place(i: int, left: int, hands: list[int]) -> None:
        if i == len(others):
            if c.is_consistent(hands):
                found.append(tuple(hands))
            return
        seat = others[i]
        pool = [card for card in iter_cards(left) if c.candidates[seat] >> card & 1]
        for chosen in itertools.combinations(pool, c.free(seat)):
            mask = card_set(chosen)
            hands[seat] = c.known[seat] | mask
            place(i + 1, left & ~mask, hands)
        hands[seat] = 0

    start = [0] * c.players
    if c.seat >= 0:
        start[c.seat] = c.hand
    place(0, c.unseen, start)
    return found


@pytest.mark.parametrize(("name", "preset", "options"), GAMES, ids=GAME_IDS)
def test_samples_fit_the_view_and_the_true_deal_fits(name: str, preset: str, options: Mapping[str, Any]) -> None:
    game = make_game(name, preset, options)
    rng = random.Random(7)
    frisch_seen = 0
    for seed in range(4):
        for step, state in enumerate(playout(game, seed)):
            if step % 3 and not state.frisch_passes:
                continue
            frisch_seen += bool(state.frisch_passes)
            for seat in range(-1, state.players):
                view = seat_view(state, seat)
                c = deal_constraints(view)
                assert c.is_consistent(state.hands, state.unseen), (seed, step, seat)
                if seat >= 0:
                    # Only hidden cards are unseen (or this seat's own Frisch cards, which may
                    # have moved on), and every hidden card is unseen or known to be somewhere.
                    hidden = hidden_cards(state, seat)
                    passed = sum(p[seat] for p in state.frisch_passes)
                    assert c.unseen & ~(hidden | passed) == 0
                    assert hidden & ~(c.unseen | sum(c.known)) == 0
                sampler = DealSampler(view)
                assert sampler.count >= 1
                for deal in (sampler.sample(rng) for _ in range(3)):
                    assert c.is_consistent(deal)
                    assert [h.bit_count() for h in deal] == [h.bit_count() for h in state.hands]
                    if seat >= 0:
                        assert deal[seat] == state.hands[seat]
                    for s, hand in enumerate(deal):
                        assert hand & c.known[s] == c.known[s]
                        for suit in range(4):
                            if c.voids[s] >> suit & 1:
                                assert not any(card // 13 == suit for card in iter_cards(hand))
    if name == "israeli":
        assert frisch_seen, "the playouts should reach a Frisch"


def test_frisch_cards_are_tracked_to_their_holder() -> None:
    """Cards passed in the last Frisch are known to be with the receiver; cards passed in an
    earlier round may have moved on, so they are restricted to the seats they could reach."""
    game = make_game("israeli", "standard", {})
    checked_known = checked_moved = 0
    for seed in range(40):
        for state in playout(game, seed):
            if state.phase != Phase.AUCTION or not state.frisch_passes:
                continue
            for seat in range(4):
                c = deal_constraints(seat_view(state, seat))
                last = state.frisch_passes[-1][seat]
                target = (seat + 1) % 4
                assert c.known[target] & last == last
                assert state.hands[target] & last == last
                checked_known += 1
                if len(state.frisch_passes) >= 2:
                    earlier = state.frisch_passes[-2][seat] & ~state.hands[seat]
                    for card in iter_cards(earlier):
                        holders = {s for s in range(4) if c.candidates[s] >> card & 1 or c.known[s] >> card & 1}
                        assert seat not in holders and holders <= {target, (target + 1) % 4}
                        assert not c.stock_candidates >> card & 1
                        checked_moved += 1
    assert checked_known and checked_moved


def small_positions(limit: int) -> Iterator[tuple[str, HandState, int]]:
    """Positions in the last tricks of random hands, with more than one and at most ``limit``
    consistent deals for the seat to play: one per game and seed."""
    for index, (name, preset, options) in enumerate(GAMES):
        game = make_game(name, preset, options)
        for seed in range(100 * index, 100 * index + 3):
            states = [s for s in playout(game, seed) if s.phase == Phase.PLAY]
            for state in states[-4 * game.players:]:
                if 1 < DealSampler(seat_view(state, state.player)).count <= limit:
                    yield name, state, state.player
                    break


def test_counts_and_chances_match_brute_force() -> None:
    """The sampler's count of consistent deals is the enumeration's, and following its own steps
    it draws each of them with the chance exactly ``1 / count``: the proof of uniformity."""
    checked = 0
    for _, state, seat in small_positions(3000):
        for viewer in (seat, (seat + 1) % state.players):
            view = seat_view(state, viewer)
            deals = brute_force_deals(deal_constraints(view))
            sampler = DealSampler(view)
            assert sampler.count == len(deals)
            assert tuple(state.hands) in deals
            if len(deals) <= 300:
                assert all(sampler.chance(deal) == Fraction(1, len(deals)) for deal in deals)
            checked += 1
    assert checked >= 20


def chi_square(observed: Mapping[tuple[int, ...], int], cells: list[tuple[int, ...]], draws: int) -> float:
    expected = draws / len(cells)
    return sum((observed.get(cell, 0) - expected) ** 2 / expected for cell in cells)


def test_draws_are_uniform_over_consistent_deals() -> None:
    """Pearson's statistic over every consistent deal stays within about five standard
    deviations of its mean (seeds are fixed, so the test is deterministic)."""
    positions = list(small_positions(60))[::3]  # one per game
    assert len(positions) >= 10
    rng = random.Random(2024)
    for _, state, seat in positions:
        view = seat_view(state, seat)
        cells = brute_force_deals(deal_constraints(view))
        draws = 40 * len(cells)
        observed: dict[tuple[int, ...], int] = {}
        for deal in sample_deals(view, draws, rng):
            observed[deal] = observed.get(deal, 0) + 1
        assert set(observed) <= set(cells)
        df = len(cells) - 1
        assert chi_square(observed, cells, draws) < df + 5 * (2 * df) ** 0.5 + 10


def test_uniform_with_voids_and_a_stock() -> None:
    """A hand-made ending of three-player Israeli Whist (one card left out) where two seats
    have shown voids: the draws match the exact enumeration."""
    game = make_game("israeli", "three_random_card", {})
    rng = random.Random(11)
    for seed in range(60):
        states = [s for s in playout(game, seed) if s.phase == Phase.PLAY]
        state = states[-7] if len(states) >= 7 else None
        if state is None:
            continue
        view = seat_view(state, state.player)
        c = deal_constraints(view)
        if not any(c.voids) or c.stock_count != 1:
            continue
        cells = brute_force_deals(c)
        if not 2 <= len(cells) <= 200:
            continue
        draws = 80 * len(cells)
        observed: dict[tuple[int, ...], int] = {}
        for deal in sample_deals(view, draws, rng):
            observed[deal] = observed.get(deal, 0) + 1
        assert set(observed) <= set(cells)
        df = len(cells) - 1
        assert chi_square(observed, cells, draws) < df + 5 * (2 * df) ** 0.5 + 10
        return
    pytest.fail("no ending with a void and a left-out card among the seeds")


def swapped_state(state: HandState, deal: tuple[int, ...], stock: int) -> HandState:
    """``state`` with other hands (and stock) as in ``deal``: another true state that the
    viewer cannot tell apart from ``state``."""
    dealt = tuple(hand | played_by(state, s) for s, hand in enumerate(deal))
    if state.game.name == "classic":
        dealt = state.deal  # the turned card's place in the deal decides when it is on show
    return state._replace(hands=deal, unseen=stock, deal=dealt)


@pytest.mark.parametrize(("name", "preset", "options"), GAMES, ids=GAME_IDS)
def test_sampler_reads_only_the_view(name: str, preset: str, options: Mapping[str, Any]) -> None:
    game = make_game(name, preset, options)
    compared = 0
    for seed in range(3):
        for step, state in enumerate(playout(game, seed)):
            if state.is_terminal or step % 5:
                continue
            seat = step % state.players
            view = seat_view(state, seat)
            sampler = DealSampler(view)
            other = next((d for d in (sampler.sample(random.Random(i)) for i in range(20))
                          if d != state.hands), None)
            if other is None:
                continue
            c = sampler.constraints
            stock = c.unseen & ~card_set(iter_cards(sum(other)))
            twin = swapped_state(state, other, stock)
            assert twin.hands != state.hands
            assert seat_view(twin, seat) == view
            assert sample_deals(seat_view(twin, seat), 5, random.Random(seed)) == sample_deals(
                view, 5, random.Random(seed))
            compared += 1
    assert compared
