"""The review engine (israeli_whist.bots.review): values from the seat's view only, costs and
verdicts, the hands merged as a whole game, where the points went, and hints."""

from __future__ import annotations

import random
from dataclasses import replace
from functools import cache
from typing import Any

import pytest

from israeli_whist.bots.matches.analysis import hand_states
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.review import (
    ReviewSettings,
    hand_numbers,
    hint_for,
    hint_json,
    merge_hands,
    review_hand,
    review_json,
    review_record,
    thresholds_for,
)
from israeli_whist.bots.review.hints import hinted_calls, sure_trick
from israeli_whist.bots.review.weighing import classic_net_points, weigh_choice, weigh_options
from israeli_whist.bots.search.determinize import state_for
from israeli_whist.bots.search.sampling import DealSampler
from israeli_whist.core.actions import Phase, bid_strain, is_bid
from israeli_whist.core.cards import NO_TRUMP, parse_card
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import replay, to_record
from israeli_whist.core.views import seat_view

LEVELS = ("random", "easy", "medium", "expert")
OPTIONS: dict[str, dict[str, str]] = {"israeli": {}, "classic": {}, "whistiti": {"schedule": "5,4"}}
QUICK = ReviewSettings(deals=24, par_playouts=2, par_deals=8)


@cache
def played(game: str, hands: int = 2, seed: int = 3) -> dict[str, Any]:
    """A game of ``hands`` hands by the four levels, one a seat."""
    match = Match.start(make_game(game, None, OPTIONS[game]), seed)
    bots = [make_bot(level, f"{seed}/{seat}") for seat, level in enumerate(LEVELS)]
    while not match.over and len(match.results) < hands:
        state = match.hand
        match = match.apply(bots[state.player].choose(seat_view(state, state.player)))
    return to_record(match)


@pytest.mark.parametrize("game", sorted(OPTIONS))
def test_hidden_cards_never_change_a_value(game: str) -> None:
    """The same view with the other seats' cards dealt differently gets the same options, values,
    cost and verdict: the review reads the seat's view, never the cards it could not see."""
    final = replay(played(game)).match.results[0].final
    rng = random.Random(5)
    checked = 0
    for step, state in enumerate(hand_states(final), start=1):
        if state.phase not in (Phase.PLAY, Phase.CONTRACT, Phase.AUCTION) or step % 3:
            continue
        view = seat_view(state, state.player)
        other = state_for(view, DealSampler(view).sample(rng))
        if other.hands == state.hands or seat_view(other, other.player) != view:
            continue  # the only deal there is, or a view the rebuild does not match exactly
        chosen = final.history[step - 1]
        real = weigh_choice(view, chosen, seed=f"t/{step}", deals=16)
        permuted = weigh_choice(seat_view(other, other.player), chosen, seed=f"t/{step}", deals=16)
        assert real == permuted
        checked += 1
    assert checked >= 5


def test_review_json_shape_and_identities() -> None:
    review = review_json(review_record(played("israeli"), seed=1, settings=QUICK))
    assert review["kind"] == "review" and review["budget"]["deals"] == QUICK.deals
    thresholds = thresholds_for("israeli")
    for hand in review["hands"]:
        for decision in hand["decisions"]:
            assert len(decision["options"]) >= 2  # forced decisions are left out
            values = [o["value"] for o in decision["options"]]
            assert values == sorted(values, reverse=True)
            assert decision["best"] == values[0] and decision["cost"] >= 0
            assert decision["chosen"] in [o["action"] for o in decision["options"]]
            if decision["verdict"] is not None:
                assert decision["cost"] >= thresholds.inaccuracy
                assert decision["cost"] > 2 * decision["cost_error"] - 0.02
            assert 0 <= decision["accuracy"] <= 100
        for seat, tally in enumerate(hand["seats"]):
            # score = par - the seat's decisions' cost + the rest
            assert tally["rest"] == pytest.approx(tally["score"] - tally["par"] + tally["decisions_cost"], abs=0.05)
            assert tally["score"] == hand["score"][seat]
    for seat, line in enumerate(review["timeline"]):
        ends = [point["expected"] for point in line if point["step"] is None]
        totals = [sum(h["score"][seat] for h in review["hands"][:n + 1]) for n in range(len(review["hands"]))]
        assert ends == totals


def test_hands_reviewed_apart_merge_to_the_whole() -> None:
    record = played("whistiti")
    whole = review_json(review_record(record, seed="s", settings=QUICK))
    apart = [review_hand(record, number, seed="s", settings=QUICK) for number in reversed(hand_numbers(record))]
    assert review_json(merge_hands(record, apart, QUICK, "s")) == whole


def test_levels_cost_in_order_on_a_game() -> None:
    """A coarse check (the bench measures it with intervals): the random seat loses the most a
    decision, the expert the least."""
    review = review_json(review_record(played("israeli", hands=4), seed=2, settings=QUICK, par=False))
    costs = [seat["mean_cost"] for seat in review["seats"]]
    assert costs[0] > costs[3] and costs[0] == max(costs) and costs[3] == min(costs)
    assert review["seats"][3]["accuracy"] > review["seats"][0]["accuracy"]
    assert all(hand["par"] is None for hand in review["hands"])


def test_classic_net_points() -> None:
    assert [classic_net_points(t) for t in (0, 6, 7, 13)] == [-7, -1, 1, 7]


def test_hint_names_no_hidden_card_and_ranks_options() -> None:
    final = replay(played("israeli")).match.results[0].final
    states = [s for s in hand_states(final) if s.phase == Phase.PLAY and len(s.legal_actions()) > 2]
    view = seat_view(states[0], states[0].player)
    hint = hint_json(hint_for(view, seed=1, settings=QUICK))
    actions = [o["action"] for o in hint["options"]]
    assert 1 <= len(actions) <= 3 and set(actions) <= set(view.legal_actions)
    assert [o["value"] for o in hint["options"]] == sorted((o["value"] for o in hint["options"]), reverse=True)
    if hint["reason"] is not None:
        assert hint["reason"]["key"] in {"sure_trick", "safe_discard", "trumps_out"}
    with pytest.raises(ValueError):
        hint_for(seat_view(states[0], (states[0].player + 1) % 4))


def test_auction_hint_weighs_a_bid_in_every_strain() -> None:
    """A hint in the trump auction compares pass with a bid in each strain, even where the
    expert would have weighed pass alone."""
    final = replay(played("israeli")).match.results[0].final
    state = next(s for s in hand_states(final) if s.phase == Phase.AUCTION)
    view = seat_view(state, state.player)
    weighed = weigh_options(view, hinted_calls(view), seed="h", deals=8)
    assert weighed is not None
    strains = {bid_strain(action) for action in weighed[0].candidates if is_bid(action)}
    assert len(strains) == len({bid_strain(a) for a in view.legal_actions if is_bid(a)}) >= 4
    assert len(hint_for(view, seed=1, settings=QUICK).options) == 3


def test_sure_trick() -> None:
    """The last seat to a trick wins it with a higher card of the suit led; an ace led in a
    no-trump hand is sure; a king led while the ace is out is not."""
    final = replay(played("israeli")).match.results[0].final
    state = next(s for s in hand_states(final) if s.phase == Phase.PLAY)
    view = seat_view(state, state.player)
    ace, king = parse_card("AS"), parse_card("KS")
    lead = replace(view, trick=(), hand=1 << king, trump=NO_TRUMP, tricks=(), turned_card=-1)
    assert not sure_trick(lead, king)
    assert sure_trick(replace(lead, hand=(1 << king) | (1 << ace)), ace)
    before = ((1, "2S"), (2, "AH"), (3, "3S"))  # spades led, a heart thrown, the king plays last
    last = replace(lead, trick=tuple(((view.seat + k) % 4, parse_card(c)) for k, c in before))
    assert sure_trick(last, king)
    assert not sure_trick(replace(last, trump=parse_card("AH") // 13), king)  # hearts trumps: the ace of hearts ruffed
