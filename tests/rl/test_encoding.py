"""The observation encoding: a fixed layout per rules, made from a seat's view only."""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np
import pytest

from israeli_whist.core.actions import CONTRACT_BASE, Phase
from israeli_whist.core.cards import card_set, parse_card, symbol_name
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view
from israeli_whist.rl.encoding import (
    action_mask,
    action_space_size,
    encode_observation,
    layout_markdown,
    observation_bounds,
    observation_layout,
    observation_size,
    observation_text,
)

CONFIGS = [
    ("israeli", {}),
    ("israeli", {"form": "three_random_card", "no_trump_allowed": False}),
    ("classic", {"honours": True}),
    ("whistiti", {}),
    ("whistiti", {"players": 7, "schedule": "down_up"}),
]


def part(vector: np.ndarray, game: HandGame, name: str) -> np.ndarray:
    (piece,) = [s for s in observation_layout(game.rules) if s.name == name]
    return vector[piece.offset:piece.offset + piece.length]


def random_states(game: HandGame, hands: int, seed: int = 0) -> list[HandState]:
    """Every state of a few hands played at random, the first of each a fresh deal."""
    rng = random.Random(seed)
    states = []
    for number in range(hands):
        hand = game.new_hand(number % game.players, f"enc/{number}", number)
        states.append(hand)
        while not hand.is_terminal:
            hand = hand.apply(rng.choice(hand.legal_actions()))
            states.append(hand)
    return states


@pytest.mark.parametrize(("name", "options"), CONFIGS)
def test_the_layout_covers_the_vector_once_and_every_view_fits_it(name: str, options: dict[str, object]) -> None:
    game = make_game(name, None, options)
    layout = observation_layout(game.rules)
    offset = 0
    for piece in layout:
        assert piece.offset == offset and piece.length > 0
        offset += piece.length
    assert offset == observation_size(game.rules)
    size = action_space_size(game.rules)
    low, high = observation_bounds(game.rules)
    for state in random_states(game, 3):
        for seat in range(game.players):
            view = seat_view(state, seat)
            vector = encode_observation(view)
            assert vector.shape == (offset,) and vector.dtype == np.float32
            assert np.isfinite(vector).all() and (low <= vector).all() and (vector <= high).all()
            mask = action_mask(view)
            assert mask.shape == (size,)
            assert sorted(np.flatnonzero(mask).tolist()) == sorted(view.legal_actions)
            assert (mask.sum() > 0) == (state.player == seat)
            assert part(vector, game, "hand").tolist() == [view.hand >> c & 1 for c in range(52)]


def test_games_without_an_auction_or_contracts_leave_those_slices_out() -> None:
    classic = {s.name for s in observation_layout(make_game("classic").rules)}
    whistiti = {s.name for s in observation_layout(make_game("whistiti").rules)}
    israeli = {s.name for s in observation_layout(make_game("israeli").rules)}
    assert "high_bid" not in classic and "contracts" not in classic and "turned_card" in classic
    assert "high_bid" not in whistiti and "contracts" in whistiti
    assert {"high_bid", "frisch_passed", "contracts"} <= israeli and "turned_card" not in israeli
    assert action_space_size(make_game("classic").rules) == 52
    # Whistiti with 4 players deals up to 13 cards: bids 0..13 are the last actions.
    assert action_space_size(make_game("whistiti").rules) == CONTRACT_BASE + 14


def test_hidden_cards_do_not_change_the_observation() -> None:
    """Two deals where seat 0 holds the same cards and the others' cards differ look the same to seat 0."""
    game = make_game("israeli")
    rng = random.Random(5)
    cards = list(range(52))
    rng.shuffle(cards)
    mine, rest = cards[:13], cards[13:]
    other = rest[:]
    rng.shuffle(other)
    first = game.start_hand(3, (card_set(mine), card_set(rest[:13]), card_set(rest[13:26]), card_set(rest[26:])), 0,
                            -1, 13)
    second = game.start_hand(3, (card_set(mine), card_set(other[:13]), card_set(other[13:26]),
                                 card_set(other[26:])), 0, -1, 13)
    assert first.hands != second.hands
    assert np.array_equal(encode_observation(seat_view(first, 0)), encode_observation(seat_view(second, 0)))
    assert not np.array_equal(encode_observation(seat_view(first, 1)), encode_observation(seat_view(second, 1)))


def test_seats_are_relative_to_the_observer() -> None:
    game = make_game("classic")
    hand = game.new_hand(2, "relative")  # dealer 2: seat 3 leads
    lead = hand.legal_actions()[0]
    after = hand.apply(lead)
    for seat in range(4):
        vector = encode_observation(seat_view(after, seat))
        relative_leader = (3 - seat) % 4
        played = part(vector, game, "played_by").reshape(4, 52)
        assert played[relative_leader, lead] == 1 and played.sum() == 1
        assert part(vector, game, "trick").reshape(4, 52)[relative_leader, lead] == 1
        assert part(vector, game, "dealer").tolist() == [1.0 if r == (2 - seat) % 4 else 0.0 for r in range(4)]
        assert part(vector, game, "to_act")[(0 - seat) % 4] == 1  # seat 0 plays next


def test_a_seat_that_does_not_follow_has_shown_a_void() -> None:
    game = make_game("classic")
    hands = tuple(card_set(range(13 * s, 13 * s + 13)) for s in range(4))  # seat s holds all of suit s
    hand = game.start_hand(3, hands, 0, parse_card("KS"), 13)  # seat 0 leads a club
    hand = hand.apply(parse_card("AC")).apply(parse_card("2D"))
    vector = encode_observation(seat_view(hand, 0))
    voids = part(vector, game, "shown_void").reshape(4, 4)
    assert voids[1].tolist() == [1, 0, 0, 0] and voids.sum() == 1


def test_auction_contracts_and_options_are_written() -> None:
    game = make_game("israeli", None, {"no_trump_allowed": False})
    hand = game.new_hand(0, "auction")  # seat 1 calls first
    bid = next(a for a in hand.legal_actions() if a != 52)  # the lowest bid: 5 clubs
    hand = hand.apply(bid).apply(52).apply(52).apply(52)
    assert hand.phase == Phase.CONTRACT and hand.declarer == 1
    vector = encode_observation(seat_view(hand, 1))
    assert part(vector, game, "declarer")[0] == 1
    assert part(vector, game, "high_bid").tolist() == pytest.approx([1, 5 / 17, 1, 0, 0, 0, 0])
    assert part(vector, game, "last_calls").reshape(4, 7)[1].tolist() == [1, 0, 0, 0, 0, 0, 0]  # seat 2 passed
    assert part(vector, game, "option:no_trump_allowed").tolist() == [0.0]
    hand = hand.apply(hand.legal_actions()[0])  # the declarer's contract: 5
    contracts = part(encode_observation(seat_view(hand, 2)), game, "contracts").reshape(4, 19)
    assert contracts[3, 6] == 1 and contracts[0, 0] == 1  # seat 1 is 3 to the left of seat 2


def test_game_points_and_spectators() -> None:
    game = make_game("whistiti")
    hand = game.new_hand(0, "x")
    vector = encode_observation(seat_view(hand, 1), totals=(10, 20, 30, 40))
    assert part(vector, game, "game_points").tolist() == pytest.approx([0.2, 0.3, 0.4, 0.1])
    with pytest.raises(ValueError, match="spectator"):
        encode_observation(seat_view(hand, -1))
    with pytest.raises(ValueError, match="entries"):
        encode_observation(seat_view(hand, 1), totals=(1, 2))


def test_the_text_names_only_what_the_seat_sees() -> None:
    game = make_game("israeli")
    hand = game.new_hand(0, "text")
    text = observation_text(seat_view(hand, 2))
    assert "seat 2 (you)" in text and "phase auction" in text
    for card in range(52):
        shown = symbol_name(card) in text.split()
        assert shown == bool(hand.hands[2] >> card & 1)


def test_the_docs_show_the_layout_of_the_code(rl_doc_section: Callable[[str], str]) -> None:
    tables = [("Israeli", make_game("israeli").rules), ("Classic", make_game("classic").rules),
              ("Whistiti (4 players)", make_game("whistiti").rules)]
    section = rl_doc_section("Observation encoding")
    marker = "<!-- layout: israeli_whist.rl.encoding.layout_markdown -->\n"
    shown = section.split(marker)[1].split("\n<!-- /layout -->")[0]
    assert shown == layout_markdown(tables)


def test_the_docs_example_runs(rl_doc_examples: Callable[[str], list[str]], capsys: pytest.CaptureFixture[str]
                               ) -> None:
    (example,) = rl_doc_examples("Observation encoding")
    exec(compile(example, "docs/rl.md", "exec"), {})
    assert "legal calls" in capsys.readouterr().out
