"""Game analysis: card verdicts checked against the reference searches (plain minimax) on short
endings, the values against the public search functions, and the bot's bids beside the record's."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from israeli_whist.bots.matches.analysis import (
    CardVerdict,
    GameAnalysis,
    analysis_json,
    analyze_record,
    card_values,
    default_max_tricks,
)
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search import individual
from israeli_whist.bots.search.dd import solve
from israeli_whist.bots.search.dd.reference import reference_solve
from israeli_whist.bots.search.individual import paranoid_value, paranoid_value_exhaustive
from israeli_whist.core.actions import Action, Phase, contract_tricks, is_contract
from israeli_whist.core.errors import RecordError, WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.games.israeli import israeli_score
from israeli_whist.core.games.whistiti import whistiti_score
from israeli_whist.core.match import Match
from israeli_whist.core.records import to_record
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

ENDING = 3  # tricks left from which the tests play and analyse: small enough for plain minimax
GAMES = {"classic": {}, "israeli": {}, "whistiti": {"schedule": "5"}}
Policy = Callable[[HandState], Action]
BASIC = make_bot("basic")


def basic(state: HandState) -> Action:
    return BASIC.choose(seat_view(state, state.player))


def reference_score(state: HandState, seat: int) -> Callable[[int], int]:
    """The player's points by final trick count, from the scoring functions (not the analysis's)."""
    contract = state.contracts[seat]
    if state.game.name == "whistiti":
        return lambda taken: whistiti_score(contract, taken)
    over = sum(state.contracts) > state.hand_size
    return lambda taken: israeli_score(contract, taken, over=over)


def reference_values(state: HandState) -> dict[int, int]:
    """Each legal card's value for the player on move, by plain minimax."""
    seat, values = state.player, {}
    for card in state.legal_actions():
        after = state.apply(card)
        if state.game.name == "classic":
            won = after.tricks_won[seat % 2] + after.tricks_won[seat % 2 + 2]
            if not after.is_terminal:
                future = reference_solve(after.hands, after.trump, after.leader, after.trick)
                won += future if after.player % 2 == seat % 2 else after.hand_size - len(after.tricks) - future
            values[card] = won
        else:
            score = reference_score(state, seat)
            values[card] = score(after.tricks_won[seat]) if after.is_terminal else paranoid_value_exhaustive(
                after.hands, after.trump, after.leader, seat, score, after.trick, after.tricks_won[seat])
    return values


def first_hand_record(game: str, seed: int, ending: Policy, policy: Policy = basic) -> dict[str, Any]:
    """The record of a game stopped after its first hand: ``policy`` acts until ``ENDING`` tricks
    are left, ``ending`` plays the cards from there."""
    match = Match.start(make_game(game, None, GAMES[game]), seed)
    while not match.results:
        state = match.hand
        late = state.phase == Phase.PLAY and state.hand_size - len(state.tricks) <= ENDING
        match = match.apply(ending(state) if late else policy(state))
    return to_record(match)


def best_card(state: HandState) -> Action:
    values = reference_values(state)
    return max(values, key=lambda card: (values[card], -card))


def verdicts(analysis: GameAnalysis) -> list[CardVerdict]:
    return [v for hand in analysis.hands for v in hand.cards]


@pytest.mark.parametrize("game", GAMES)
def test_a_perfect_ending_has_no_errors(game: str) -> None:
    analysis = analyze_record(first_hand_record(game, 1, best_card), bot="basic", max_tricks=ENDING)
    cards = verdicts(analysis)
    late = [v for v in cards if v.analysed]
    assert len(late) == ENDING * len(analysis.players)  # every card of the ending, and no other
    assert all(v.trick > cards[-1].trick - ENDING for v in late)
    assert not any(v.is_error for v in cards)
    assert [analysis.errors(s) for s in range(len(analysis.players))] == [0] * len(analysis.players)
    assert all(v.card in v.best_cards and v.value == v.best for v in late)


@pytest.mark.parametrize("game", GAMES)
def test_a_deliberate_error_is_marked_with_its_cost(game: str) -> None:
    """In the ending, the first player who has a worse card plays it; every other card is a best
    one. The analysis finds that one error and its cost, as plain minimax computes them."""
    for seed in range(20):
        blunder: dict[str, Any] = {}

        def ending(state: HandState, blunder: dict[str, Any] = blunder) -> Action:
            values = reference_values(state)
            if not blunder and len(set(values.values())) > 1:
                worst = min(values, key=lambda card: (values[card], card))
                best = max(values.values())
                blunder.update(seat=state.player, card=worst, cost=best - values[worst],
                               best_cards=tuple(sorted(c for c in values if values[c] == best)))
                return worst
            return best_card(state)

        record = first_hand_record(game, seed, ending)
        if blunder:
            break
    else:
        pytest.fail("no ending with a choice in 20 deals")
    analysis = analyze_record(record, bot="basic", max_tricks=ENDING)
    [error] = [v for v in verdicts(analysis) if v.is_error]
    assert (error.seat, error.card, error.cost, error.best_cards) == (
        blunder["seat"], blunder["card"], blunder["cost"], blunder["best_cards"])
    assert analysis.errors(error.seat) == 1 and analysis.cost(error.seat) == blunder["cost"] > 0
    unit = "tricks" if game == "classic" else "points"
    assert analysis.unit == unit
    hand = analysis_json(analysis)["hands"][0]
    assert hand["cost"][error.seat] == blunder["cost"] and hand["errors"][error.seat] == 1


@pytest.mark.parametrize("game", GAMES)
def test_values_agree_with_the_search_functions(game: str) -> None:
    """Every legal card's value, in positions of the basic bots' own play, is what ``solve`` or
    ``paranoid_value`` says of the position after it."""
    record = first_hand_record(game, 2, basic)
    match = Match.start(make_game(game, None, GAMES[game]), 2)
    checked = 0
    while not match.results:
        state = match.hand
        if state.phase == Phase.PLAY and state.hand_size - len(state.tricks) <= ENDING:
            assert card_values(state) == reference_values(state) == direct_values(state)
            checked += 1
        match = match.apply(basic(state))
    assert checked == ENDING * state.players
    analysis = analyze_record(record, bot="basic", max_tricks=ENDING)
    assert sum(v.analysed for v in verdicts(analysis)) == checked


@pytest.mark.parametrize("game", ["israeli", "whistiti"])
def test_the_grouped_search_without_the_compiled_one(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the compiled search the analysis searches one card of each run of equal cards."""
    monkeypatch.setattr(individual, "compiled_search_available", lambda: False)
    match = Match.start(make_game(game, None, GAMES[game]), 4)
    while not match.results:
        state = match.hand
        if state.phase == Phase.PLAY and state.hand_size - len(state.tricks) <= ENDING:
            assert card_values(state) == reference_values(state)
        match = match.apply(basic(state))


def direct_values(state: HandState) -> dict[int, int]:
    seat, values = state.player, {}
    for card in state.legal_actions():
        after = state.apply(card)
        if after.is_terminal:
            values[card] = reference_values(state)[card]
        elif state.game.name == "classic":
            future = solve(after.hands, after.trump, after.leader, after.trick)
            if after.player % 2 != seat % 2:
                future = after.hand_size - len(after.tricks) - future
            values[card] = after.tricks_won[seat % 2] + after.tricks_won[seat % 2 + 2] + future
        else:
            values[card] = paranoid_value(after.hands, after.trump, after.leader, seat, reference_score(state, seat),
                                          after.trick, after.tricks_won[seat])
    return values


def test_the_bots_bids_stand_beside_the_players() -> None:
    """One contract bid unlike the basic bot's: the analysis with the basic bot marks that one."""
    changed: dict[str, Action] = {}

    def policy(state: HandState) -> Action:
        choice = basic(state)
        if state.phase == Phase.CONTRACT and not changed:
            other = next(a for a in state.legal_actions() if a != choice)
            changed.update(seat=state.player, actual=other, basic=choice)
            return other
        return choice

    analysis = analyze_record(first_hand_record("israeli", 3, basic, policy), bot="basic", max_tricks=0)
    [hand] = analysis.hands
    assert not any(v.analysed for v in hand.cards)
    contracts = [b for b in hand.bids if b.phase == "contract"]
    assert len(contracts) == 4 and all(is_contract(b.actual[0]) for b in contracts)
    [differs] = [b for b in hand.bids if not b.agrees]
    assert (differs.seat, differs.actual, differs.suggested) == (changed["seat"], (changed["actual"],),
                                                                (changed["basic"],))
    assert contract_tricks(differs.suggested[0]) != contract_tricks(differs.actual[0])
    assert hand.bids[0].phase == "auction" and hand.bids[0].steps == (1,)


def test_a_frisch_pass_is_judged_as_a_set_of_three_cards() -> None:
    """Seed 8: the basic bots pass all round, so there is a Frisch. Each seat picks the basic bot's
    three cards, but in the reverse order: still the same pass."""

    planned: list[Action] = []

    def reversed_frisch(state: HandState) -> Action:
        if state.phase != Phase.FRISCH:
            return basic(state)
        if not planned:  # the seat's first pick: the basic bot's three, to be played last first
            trial = state
            for _ in range(3):
                planned.insert(0, basic(trial))
                trial = trial.apply(planned[0])
        return planned.pop(0)

    analysis = analyze_record(first_hand_record("israeli", 8, basic, reversed_frisch), bot="basic", max_tricks=0)
    frisch = [b for b in analysis.hands[0].bids if b.phase == "frisch"]
    assert len(frisch) % 4 == 0 and frisch
    assert all(b.agrees and len(b.actual) == 3 and b.actual != b.suggested for b in frisch)
    assert all(b.steps == (b.steps[0], b.steps[0] + 1, b.steps[0] + 2) for b in frisch)


def test_the_json_form() -> None:
    record = first_hand_record("israeli", 1, basic)
    data = analysis_json(analyze_record(record, bot="basic", max_tricks=2))
    json.dumps(data)
    assert data["game"] == "israeli" and data["unit"] == "points" and data["max_tricks"] == 2
    assert data["players"] == record["players"]
    [hand] = data["hands"]
    first, last = hand["cards"][0], hand["cards"][-1]
    assert first["analysed"] is False and first["value"] is None and first["cost"] == 0
    assert last["analysed"] is True and last["trick"] == 13 and last["value"] == last["best"]
    assert last["name"] == record["hands"][0]["actions"][-1][1]
    assert hand["bids"][0]["actual"] == [record["hands"][0]["actions"][0][1]]
    assert all(b["agrees"] for b in hand["bids"])


def test_only_the_hands_asked_for() -> None:
    record = first_hand_record("whistiti", 1, basic)
    assert analyze_record(record, bot="basic", max_tricks=0, hands={2}).hands == ()
    assert [h.number for h in analyze_record(record, bot="basic", max_tricks=0, hands={1}).hands] == [1]


def test_bad_input() -> None:
    with pytest.raises(RecordError):
        analyze_record({"format": "whist-record", "version": 1, "game": "israeli"}, bot="basic")
    with pytest.raises(WhistError, match="Unknown bot level"):
        analyze_record(first_hand_record("classic", 1, basic), bot="nobody")


@pytest.mark.parametrize("game", GAMES)
def test_progress_is_told_after_every_action_of_every_hand(game: str) -> None:
    record = first_hand_record(game, 1, best_card)
    steps: list[tuple[int, int]] = []
    analysis = analyze_record(record, bot="basic", max_tricks=2,
                              on_step=lambda done, total: steps.append((done, total)))
    total = sum(len(hand["actions"]) for hand in record["hands"])
    assert steps == [(done, total) for done in range(1, total + 1)]
    assert len(verdicts(analysis)) <= total


def test_a_depth_taking_minutes_without_the_compiled_search_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from israeli_whist.bots.matches import analysis
    from israeli_whist.bots.search import individual

    monkeypatch.setattr(individual, "compiled_search_available", lambda: False)
    record = first_hand_record("israeli", 1, best_card)
    with pytest.raises(analysis.AnalysisTooSlow, match="ask for 6 or fewer"):
        analyze_record(record, bot="basic", max_tricks=9)
    assert analyze_record(record, bot="basic", max_tricks=2).hands  # a shallow one still runs
    assert analyze_record(first_hand_record("classic", 1, best_card), bot="basic", max_tricks=13).hands  # no paranoid


needs_compiled = pytest.mark.skipif(not individual.compiled_search_available(), reason="individual_solver is not built")


@needs_compiled
@pytest.mark.parametrize("game", ["israeli", "whistiti"])
def test_cards_whose_search_ran_out_are_not_proven_and_not_judged(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from israeli_whist.bots.matches import analysis as analysis_module

    monkeypatch.setattr(analysis_module, "PARANOID_NODE_BUDGET", 5)
    analysis = analyze_record(first_hand_record(game, 1, best_card), bot="basic", max_tricks=ENDING)
    cards = verdicts(analysis)
    unproven = [v for v in cards if not v.proven]
    assert unproven and analysis.not_proven == len(unproven)
    assert all(not v.analysed and v.value is None and v.best is None and not v.is_error for v in unproven)
    assert all(v.trick > cards[-1].trick - ENDING for v in unproven)  # only in the depth asked for
    data = analysis_json(analysis)
    assert data["not_proven"] == data["hands"][0]["not_proven"] == len(unproven)
    assert sum(not c["proven"] for c in data["hands"][0]["cards"]) == len(unproven)


@needs_compiled
def test_the_whole_hand_is_analysed_by_default() -> None:
    assert default_max_tricks("points") >= 13 and default_max_tricks("tricks") == 13
