"""The learned trick estimator: its inputs come from a seat's view and stay the same from the bid to
the end of the hand, any seat's estimate can be asked of any later view, the shipped weights load
and predict within the hand, and model files round-trip byte for byte."""

from __future__ import annotations

import io
import json
import random
import tomllib
import zipfile
from pathlib import Path

import numpy as np
import pytest

from israeli_whist.bots.judgement.learned import (
    FEATURE_NAMES,
    LearnedEstimator,
    ModelError,
    TrickModel,
    features,
    features_for,
    hand_at_bid,
    shipped_games,
)
from israeli_whist.bots.judgement.learned_features import contracts_before, first_bidder, suit_order
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import NO_TRUMP, SUIT_MASKS, SUITS
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view


def played_hands(game_name: str, deals: int) -> list[tuple[HandState, dict[int, SeatView], list[SeatView]]]:
    """Hands played by basic bots: the final state, each seat's view at its contract bid, and the
    views of every decision after the contracts."""
    game = make_game(game_name)
    hands = []
    for deal in range(deals):
        bots = {seat: make_bot("basic", f"learned/{deal}/{seat}") for seat in range(game.players)}
        state = game.new_hand(deal % game.players, f"learned/{deal}", deal)
        at_bid: dict[int, SeatView] = {}
        later: list[SeatView] = []
        while not state.is_terminal:
            view = seat_view(state, state.player)
            if state.phase == Phase.CONTRACT:
                at_bid[state.player] = view
            elif at_bid:
                later.append(view)
            state = state.apply(bots[state.player].choose(view))
        if at_bid:
            hands.append((state, at_bid, later))
    return hands


@pytest.fixture(scope="module")
def israeli_hands() -> list[tuple[HandState, dict[int, SeatView], list[SeatView]]]:
    return played_hands("israeli", 6)


def test_features_have_their_names_and_stay_small(israeli_hands: list[tuple[HandState, dict[int, SeatView],
                                                                               list[SeatView]]]) -> None:
    for _state, at_bid, _later in israeli_hands:
        for view in at_bid.values():
            row = features(view)
            assert row.shape == (len(FEATURE_NAMES),)
            assert row.min() >= 0 and row.max() <= 1.5
            assert row[:52].sum() == view.hand_size  # each card of the hand, once
            assert row[FEATURE_NAMES.index("players")] == 1.0
            order = [i for i in range(4) if row[FEATURE_NAMES.index(f"bid_order_{i}")]]
            assert order == [(view.seat - first_bidder(view)) % 4]
            assert sum(row[FEATURE_NAMES.index(f"bid_before_left_{k}")] for k in (1, 2, 3)) == order[0]


def test_a_seat_s_features_are_the_same_at_its_bid_and_during_play(
        israeli_hands: list[tuple[HandState, dict[int, SeatView], list[SeatView]]]) -> None:
    checked = 0
    for _state, at_bid, later in israeli_hands:
        for view in later:
            assert hand_at_bid(view) == at_bid[view.seat].hand
            np.testing.assert_array_equal(features(view), features(at_bid[view.seat]))
            checked += 1
    assert checked > 100


def test_any_seat_s_estimate_can_be_asked_of_another_seat_s_later_view(
        israeli_hands: list[tuple[HandState, dict[int, SeatView], list[SeatView]]]) -> None:
    for _state, at_bid, later in israeli_hands:
        observer = later[len(later) // 2]  # in the middle of the play, of whichever seat
        for seat, view in at_bid.items():
            np.testing.assert_array_equal(features_for(view.hand, view.trump, seat, observer), features(view))


def test_contracts_before_are_only_those_bid_earlier(
        israeli_hands: list[tuple[HandState, dict[int, SeatView], list[SeatView]]]) -> None:
    _state, at_bid, later = israeli_hands[0]
    last = later[-1]
    start = first_bidder(last)
    assert start == last.declarer  # Israeli Whist: the auction's winner bids first
    assert contracts_before(start, last) == {}
    second = (start + 1) % 4
    assert contracts_before(second, last) == {start: last.contracts[start]}
    assert len(contracts_before((start + 3) % 4, last)) == 3
    assert at_bid[start].contracts == (-1, -1, -1, -1)


def test_whistiti_starts_the_bidding_left_of_the_dealer_and_has_no_auction_winner() -> None:
    for _state, at_bid, _later in played_hands("whistiti", 3):
        for seat, view in at_bid.items():
            row = features(view)
            assert first_bidder(view) == (view.dealer + 1) % view.players
            assert not any(row[FEATURE_NAMES.index(f"auction_winner_left_{i}")] for i in range(4))
            assert row[FEATURE_NAMES.index("hand_size")] == view.hand_size / 13
            assert (seat - view.dealer) % view.players == int(np.argmax(
                [row[FEATURE_NAMES.index(f"left_of_dealer_{i}")] for i in range(4)]))


def test_side_suits_swapped_give_the_same_input() -> None:
    rng = random.Random(5)
    cards = rng.sample(range(52), 13)
    hand = sum(1 << c for c in cards)
    trump = 0
    swapped = 0
    for card in cards:  # diamonds <-> hearts
        suit, rank = divmod(card, 13)
        swapped |= 1 << ({1: 2, 2: 1}.get(suit, suit) * 13 + rank)
    view = israeli_view()
    np.testing.assert_array_equal(features_for(hand, trump, 1, view), features_for(swapped, trump, 1, view))
    assert suit_order(hand, NO_TRUMP) == sorted(SUITS, key=lambda s: (-(hand & SUIT_MASKS[s]).bit_count(),
                                                                       -(hand >> 13 * s & 8191)))


def israeli_view() -> SeatView:
    return next(iter(played_hands("israeli", 1)[0][1].values()))


def test_the_shipped_israeli_estimator_predicts_within_the_hand(
        israeli_hands: list[tuple[HandState, dict[int, SeatView], list[SeatView]]]) -> None:
    assert "israeli" in shipped_games()
    estimator = LearnedEstimator.load("israeli")
    assert estimator is LearnedEstimator.load("israeli")  # read once
    assert estimator.model.training["game"] == "israeli"
    for state, at_bid, _later in israeli_hands:
        hands = [view.hand for view in at_bid.values()]
        seats = list(at_bid)
        some = next(iter(at_bid.values()))
        for seat, view in at_bid.items():
            estimate = estimator.tricks(view)
            assert 0 <= estimate <= 13
            assert estimate == pytest.approx(estimator.tricks_for(view.hand, view.trump, seat, view), abs=1e-12)
        many = estimator.tricks_for_hands(hands, some.trump, seats[0], some)
        assert many.shape == (len(hands),) and np.all((many >= 0) & (many <= 13))
        assert state.phase == Phase.OVER


def test_the_shipped_estimator_ranks_a_strong_hand_above_a_weak_one() -> None:
    view = israeli_view()
    estimator = LearnedEstimator.load("israeli")
    trump = 3  # spades
    # AKQJT98 of spades, the three side aces and kings; then the 2-3-4 of every suit and the 5 of clubs
    strong = sum(1 << c for c in (51, 50, 49, 48, 47, 46, 45, 12, 25, 38, 11, 24, 37))
    weak = sum(1 << c for c in (0, 1, 2, 3, 13, 14, 15, 26, 27, 28, 39, 40, 41))
    assert estimator.tricks_for(strong, trump, view.seat, view) > 8
    assert estimator.tricks_for(weak, trump, view.seat, view) < 2


def test_no_model_for_a_game_is_a_clear_error() -> None:
    with pytest.raises(ModelError, match="No learned trick estimator ships for 'classic'"):
        LearnedEstimator.load("classic")


def small_model(seed: int = 0) -> TrickModel:
    rng = np.random.default_rng(seed)
    width = len(FEATURE_NAMES)
    return TrickModel("israeli", rng.normal(size=width), rng.uniform(0.5, 2, size=width),
                      (rng.normal(size=(width, 5)), rng.normal(size=(5, 1))), (rng.normal(size=5), rng.normal(size=1)),
                      json.dumps({"game": "israeli"}))


def test_a_model_file_round_trips_and_its_bytes_do_not_depend_on_the_time() -> None:
    model = small_model()
    data = model.to_bytes()
    assert data == small_model().to_bytes()
    back = TrickModel.from_bytes(data, "test")
    rows = np.random.default_rng(1).uniform(size=(7, len(FEATURE_NAMES)))
    np.testing.assert_array_equal(back.share(rows), model.share(rows))
    assert back.training == {"game": "israeli"}


def test_the_network_is_relu_layers_then_a_linear_output() -> None:
    model = small_model()
    rows = np.random.default_rng(2).uniform(size=(4, len(FEATURE_NAMES)))
    hidden = np.maximum((rows - model.mean) / model.scale @ model.weights[0] + model.biases[0], 0)
    np.testing.assert_allclose(model.share(rows), (hidden @ model.weights[1] + model.biases[1])[:, 0], atol=1e-12)


def npz_bytes(**arrays: object) -> bytes:
    sink = io.BytesIO()
    with zipfile.ZipFile(sink, "w") as archive:
        for name, value in arrays.items():
            entry = io.BytesIO()
            np.save(entry, np.asarray(value))
            archive.writestr(f"{name}.npy", entry.getvalue())
    return sink.getvalue()


def test_bad_model_files_are_refused() -> None:
    with pytest.raises(ModelError, match=r"not a trick estimator's \.npz file"):
        TrickModel.from_bytes(b"not a zip", "junk.npz")
    with pytest.raises(ModelError, match="no format 'whist-trick-estimator'"):
        TrickModel.from_bytes(npz_bytes(format="something else"), "other.npz")
    with pytest.raises(ModelError, match="version 99"):
        TrickModel.from_bytes(npz_bytes(format="whist-trick-estimator", version=99), "future.npz")
    with pytest.raises(ModelError, match="other features"):
        TrickModel.from_bytes(npz_bytes(format="whist-trick-estimator", version=1, feature_names=["a", "b"]), "old.npz")


def test_a_spectator_has_no_hand_to_estimate() -> None:
    state = make_game("israeli").new_hand(0, "spectator")
    with pytest.raises(ValueError, match="spectator"):
        features(seat_view(state, -1))


def test_the_shipped_weights_are_package_data() -> None:
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert "bots/judgement/models/*.npz" in pyproject["tool"]["setuptools"]["package-data"]["israeli_whist"]
    assert "numpy" in " ".join(pyproject["project"]["dependencies"])  # a plain install runs the network


@pytest.mark.parametrize("game", [game for game in shipped_games() if game != "israeli"])
def test_every_other_shipped_estimator_predicts_within_the_hand(game: str) -> None:
    estimator = LearnedEstimator.load(game)
    assert estimator.model.game == game and estimator.model.training["game"] == game
    for _state, at_bid, later in played_hands(game, 4):
        for view in [*at_bid.values(), *later]:
            assert 0 <= estimator.tricks(view) <= view.hand_size
