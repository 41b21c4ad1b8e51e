"""The review as JSON: what ``whist analyze --review --json`` prints and the replay page reads
(its fields: docs/review.md)."""

from __future__ import annotations

import math
from typing import Any

from israeli_whist.bots.review.game import GameReview
from israeli_whist.bots.review.hand import DecisionReview, HandReview
from israeli_whist.bots.review.settings import thresholds_for
from israeli_whist.bots.review.summary import SeatTally, all_decisions, costliest, tally
from israeli_whist.core.actions import action_name

VERSION = 1


def review_json(review: GameReview) -> dict[str, Any]:
    seats = range(len(review.players))
    thresholds = thresholds_for(review.game)
    return {
        "kind": "review", "version": VERSION, "game": review.game, "title": review.title,
        "players": list(review.players),
        "budget": {"deals": review.settings.deals, "par_playouts": review.settings.par_playouts,
                   "par_deals": review.settings.par_deals, "seed": review.seed},
        "thresholds": {"inaccuracy": thresholds.inaccuracy, "mistake": thresholds.mistake,
                       "blunder": thresholds.blunder},
        "hands": [hand_json(hand) for hand in review.hands],
        "seats": [game_seat_json(review, seat) for seat in seats],
        "timeline": [timeline(review, seat) for seat in seats],
    }


def hand_json(hand: HandReview) -> dict[str, Any]:
    par = hand.par
    return {
        "number": hand.number, "dealer": hand.dealer, "cancelled": hand.cancelled,
        "before": [_number(t) for t in hand.before], "score": [_number(s) for s in hand.score],
        "par": None if par is None else {"mean": [_round(m) for m in par.mean], "error": [_round(e) for e in par.error],
                                         "playouts": par.playouts},
        "decisions": [decision_json(d) for d in hand.decisions],
        "seats": [hand_seat_json(hand, seat) for seat in range(len(hand.score))],
    }


def decision_json(decision: DecisionReview) -> dict[str, Any]:
    w = decision.weighing
    return {
        "step": decision.step, "seat": decision.seat, "phase": decision.phase, "trick": decision.trick,
        "chosen": w.chosen, "chosen_name": action_name(w.chosen),
        "options": [{"action": o.action, "name": action_name(o.action), "value": _round(o.value),
                     "error": _round(o.error)} for o in w.options],
        "value": _round(w.value), "best": _round(w.best), "cost": _round(w.cost), "cost_error": _round(w.cost_error),
        "deals": w.deals, "verdict": decision.verdict, "proven": decision.proven,
        "accuracy": _round(decision.accuracy),
    }


def _tally_json(counted: SeatTally) -> dict[str, Any]:
    return {"decisions": counted.decisions, "cost": _round(counted.cost),
            "mean_cost": None if counted.mean_cost is None else _round(counted.mean_cost),
            "cost_by_phase": {phase: _round(cost) for phase, cost in counted.cost_by_phase.items()},
            "accuracy": None if counted.accuracy is None else _round(counted.accuracy),
            "verdicts": counted.verdicts}


def hand_seat_json(hand: HandReview, seat: int) -> dict[str, Any]:
    counted = tally(hand.decisions, seat)
    found: dict[str, Any] = {**_tally_json(counted), "score": _number(hand.score[seat]),
                             "decisions_cost": _round(counted.cost)}
    if hand.par is None:
        return {**found, "par": None, "par_error": None, "rest": None}
    par = hand.par.mean[seat]
    return {**found, "par": _round(par), "par_error": _round(hand.par.error[seat]),
            "rest": _round(hand.score[seat] - par + counted.cost)}


def game_seat_json(review: GameReview, seat: int) -> dict[str, Any]:
    counted = tally(all_decisions(review.hands), seat)
    pars = [hand.par for hand in review.hands]
    has_par = bool(pars) and all(par is not None for par in pars)
    par = math.fsum(p.mean[seat] for p in pars if p is not None) if has_par else None
    par_error = math.sqrt(math.fsum(p.error[seat] ** 2 for p in pars if p is not None)) if has_par else None
    return {
        "name": review.players[seat], **_tally_json(counted),
        "costliest": [{"hand": hand.number, "step": d.step, "phase": d.phase, "cost": _round(d.weighing.cost),
                       "verdict": d.verdict, "chosen_name": action_name(d.weighing.chosen),
                       "best_name": action_name(d.weighing.options[0].action)}
                      for hand, d in costliest(review.hands, seat)],
        "score": _number(math.fsum(hand.score[seat] for hand in review.hands)),
        "par": None if par is None else _round(par), "par_error": None if par_error is None else _round(par_error),
    }


def timeline(review: GameReview, seat: int) -> list[dict[str, Any]]:
    """The seat's expected total at the end of the hand, at each of its decisions (its total
    before the hand and the chosen option's value), then its real total once the hand is over."""
    points: list[dict[str, Any]] = []
    for hand in review.hands:
        before = hand.before[seat]
        points += [{"hand": hand.number, "step": d.step, "expected": _round(before + d.weighing.value),
                    "verdict": d.verdict} for d in hand.decisions if d.seat == seat]
        points.append({"hand": hand.number, "step": None, "expected": _number(before + hand.score[seat]),
                       "verdict": None})
    return points


def _round(value: float) -> float:
    return round(value, 2)


def _number(value: float) -> float | int:
    return int(value) if float(value).is_integer() else _round(value)
