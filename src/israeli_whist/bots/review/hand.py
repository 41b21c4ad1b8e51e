"""The review of one hand: every decision that was not forced, weighed from its seat's view
(``israeli_whist.bots.review.weighing``), its cost given a verdict and an accuracy
(``israeli_whist.bots.review.settings``), and the deal's par (``israeli_whist.bots.review.par``).

Only a ``SeatView`` of the deciding seat reaches the weighing, so a hidden card can never change
a value or a verdict. ``proven`` alone looks at the whole deal, after the fact, as the game's
analysis does (``israeli_whist.bots.matches.analysis``): for a card already judged a mistake or
a blunder, the exact search on the real cards shows that it loses points for sure.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from israeli_whist.bots.matches.analysis import BID_PHASES, card_values, contract_score, hand_states
from israeli_whist.bots.review.par import Par, deal_start, hand_par, hand_points
from israeli_whist.bots.review.settings import ReviewSettings, Verdict, thresholds_for
from israeli_whist.bots.review.weighing import Weighing, weigh_choice
from israeli_whist.bots.search import individual
from israeli_whist.bots.search.card_judgement import judge_card
from israeli_whist.core.actions import Phase
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

PHASE_NAMES = {**BID_PHASES, Phase.PLAY: "play"}
PROVEN_VERDICTS = ("mistake", "blunder")
# Tricks left from which the Python paranoid search (an install without the compiled one) is
# still quick enough to prove a card (``analysis.PARANOID_PYTHON_MAX_TRICKS``).
PYTHON_PROOF_TRICKS = 5


@dataclass(frozen=True)
class DecisionReview:
    step: int  # the action's number in the hand, from 1
    seat: int
    phase: str  # "auction", "frisch", "contract" or "play"
    trick: int | None  # the trick's number in play
    weighing: Weighing
    verdict: Verdict | None
    proven: bool
    accuracy: float


@dataclass(frozen=True)
class HandReview:
    number: int
    dealer: int
    cancelled: bool
    before: tuple[float, ...]  # each seat's total before the hand (``hand_points`` of the hands before)
    score: tuple[float, ...]  # each seat's points in the hand
    decisions: tuple[DecisionReview, ...]
    par: Par | None


def review_final(final: HandState, number: int, before: tuple[float, ...], *, seed: str,
                 settings: ReviewSettings, par: bool = True,
                 after_each: Callable[[], None] | None = None) -> HandReview:
    """The review of the hand that ended in ``final`` (``before``: the totals it started from).
    ``after_each()`` is called once per action of the hand, when it has been reviewed."""
    thresholds = thresholds_for(final.game.name)
    start = deal_start(final)
    primers = [seat_view(start, seat) for seat in range(start.players)]
    decisions = []
    for step, state in enumerate(hand_states(final), start=1):
        chosen, seat = final.history[step - 1], state.player
        weighing = None
        if state.phase in PHASE_NAMES:
            weighing = weigh_choice(seat_view(state, seat), chosen, seed=f"{seed}/{step}", deals=settings.deals,
                                    primer=primers[seat])
        if weighing is not None:
            verdict = thresholds.verdict(weighing.cost, weighing.cost_error)
            play = state.phase == Phase.PLAY
            proven = play and verdict in PROVEN_VERDICTS and _proven(state, weighing, settings)
            decisions.append(DecisionReview(step, seat, PHASE_NAMES[state.phase],
                                            len(state.tricks) + 1 if play else None, weighing, verdict, proven,
                                            thresholds.accuracy(weighing.cost)))
        if after_each is not None:
            after_each()
    found_par = hand_par(final, seed=f"{seed}/par", playouts=settings.par_playouts,
                         deals=settings.par_deals) if par and settings.par_playouts else None
    return HandReview(number, final.dealer, final.phase == Phase.CANCELLED, before, hand_points(final),
                      tuple(decisions), found_par)


def _proven(state: HandState, weighing: Weighing, settings: ReviewSettings) -> bool:
    """Whether the exact search on the real cards shows the chosen card loses points for sure."""
    card = weighing.chosen
    if state.game.rules.traits.partnerships:
        values = card_values(state)  # double dummy: the side's tricks
        return values[card] < max(values.values())
    tricks_left = state.hand_size - len(state.tricks)
    if not individual.compiled_search_available() and tricks_left > PYTHON_PROOF_TRICKS:
        return False
    judged = judge_card(state, card, contract_score(state, state.player), settings.proven_nodes)
    return judged is not None and judged.value < judged.best
