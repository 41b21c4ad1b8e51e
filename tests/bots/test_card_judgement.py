"""The analysis's verdict on one card (``judge_card``) against every card's value by plain
minimax, with the compiled search and without it, and when its budget runs out part-way."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from israeli_whist.bots.matches.analysis import contract_score
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.bots.search import individual
from israeli_whist.bots.search.card_judgement import Judgement, judge_card
from israeli_whist.bots.search.individual import paranoid_value_exhaustive
from israeli_whist.core.actions import Phase
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

ENDING = 3  # tricks left: small enough for plain minimax
GAMES = {"israeli": {}, "whistiti": {"schedule": "5"}}
BASIC = make_bot("basic")
PLENTY = 10**9


def ending_positions(game: str, seeds: range) -> Iterator[HandState]:
    """Every position of the last ``ENDING`` tricks of the first hand, the basic bot playing."""
    for seed in seeds:
        match = Match.start(make_game(game, None, GAMES[game]), seed)
        while not match.results:
            state = match.hand
            if state.phase == Phase.PLAY and state.hand_size - len(state.tricks) <= ENDING:
                yield state
            match = match.apply(BASIC.choose(seat_view(state, state.player)))


def minimax_values(state: HandState) -> dict[int, int]:
    seat, score = state.player, contract_score(state, state.player)
    values = {}
    for card in state.legal_actions():
        after = state.apply(card)
        values[card] = score(after.tricks_won[seat]) if after.is_terminal else paranoid_value_exhaustive(
            after.hands, after.trump, after.leader, seat, score, after.trick, after.tricks_won[seat])
    return values


def expected(state: HandState, card: int) -> Judgement:
    values = minimax_values(state)
    best = max(values.values())
    return Judgement(values[card], best, tuple(sorted(c for c in values if values[c] == best)), True)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("compiled", [True, False])
def test_every_card_is_judged_as_minimax_judges_it(game: str, compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if compiled and not individual.compiled_search_available():
        pytest.skip("individual_solver is not built")
    if not compiled:
        monkeypatch.setattr(individual, "_solver", None)
    checked = 0
    for state in ending_positions(game, range(3)):
        score = contract_score(state, state.player)
        for card in state.legal_actions():
            assert judge_card(state, card, score, PLENTY) == expected(state, card)
            checked += 1
    assert checked > 3 * ENDING * 4


@pytest.mark.skipif(not individual.compiled_search_available(), reason="individual_solver is not built")
@pytest.mark.parametrize("game", GAMES)
def test_a_budget_spent_part_way_keeps_what_was_proven(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Budgets from one position up to what the whole judgement took: every answer is either
    "not proven" or right, and when only the other cards' questions ran out, the value, the
    best and the cost stand with the best cards found so far."""
    partial = 0
    for state in ending_positions(game, range(6)):
        score = contract_score(state, state.player)
        for card in state.legal_actions():
            truth = expected(state, card)
            for budget in range(1, 60):
                judged = judge_card(state, card, score, budget)
                if judged is None:
                    continue
                assert (judged.value, judged.best) == (truth.value, truth.best)
                assert set(judged.best_cards) <= set(truth.best_cards) and judged.best_cards
                if judged.all_best_cards:
                    assert judged.best_cards == truth.best_cards
                else:
                    partial += 1
    assert partial  # some budgets ran out after the two questions a verdict needs


def test_a_card_is_not_judged_when_no_card_is_shown_to_reach_the_best(monkeypatch: pytest.MonkeyPatch) -> None:
    """The played card falls short and the budget runs out before any other card is asked: the
    verdict would have no best card to name, so it is "not proven"."""
    for state in ending_positions("israeli", range(6)):
        score = contract_score(state, state.player)
        values = minimax_values(state)
        worse = [c for c in values if values[c] < max(values.values())]
        if worse:
            break
    else:
        pytest.fail("no position with a worse card")
    calls = []
    real = individual.paranoid_value_within

    def two_questions_only(*args: object, **kwargs: int) -> int | None:
        calls.append(args)
        return real(*args, **kwargs) if len(calls) <= 2 else None  # type: ignore[arg-type]

    monkeypatch.setattr(individual, "paranoid_value_within", two_questions_only)
    assert judge_card(state, worse[0], score, PLENTY) is None


def test_the_json_says_when_the_best_cards_were_not_all_asked() -> None:
    from israeli_whist.bots.matches.analysis import CardVerdict, GameAnalysis, HandAnalysis, analysis_json

    cards = (CardVerdict(1, 1, 0, 12, -10, 10, (11,), all_best_cards=False), CardVerdict(2, 1, 1, 3, 5, 5, (3,)))
    hand = HandAnalysis(1, 0, False, cards, ())
    data = analysis_json(GameAnalysis("israeli", "Israeli Whist", ("A", "B", "C", "D"), "points", "basic", 13, (hand,)))
    assert [c["all_best_cards"] for c in data["hands"][0]["cards"]] == [False, True]
    assert [c["error"] for c in data["hands"][0]["cards"]] == [True, False]
