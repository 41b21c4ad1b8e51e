"""Reviews for the browser tests of the replay page's review: the engine's own review of a real game
(``israeli_whist.bots.review``, at a test's budget: seconds a game), with the decisions a test
needs shaped in place: one seat's mistakes and blunders where the test wants them, the options
around each set so that one is as good as the best within the error and one clearly worse, and
that seat's other decisions made free of cost. The engine's values are tested with the engine; the
pages are tested here, on the engine's JSON."""

from __future__ import annotations

import math
from typing import Any

from israeli_whist.bots.review import ReviewSettings, review_json, review_record

SMALL = ReviewSettings(deals=8, par_playouts=2, par_deals=8)
MARKED = ("mistake", "blunder")


def game_review(record: dict[str, Any], seed: int = 1) -> dict[str, Any]:
    return review_json(review_record(record, seed=seed, settings=SMALL))


def find_decision(review: dict[str, Any], hand: int, step: int) -> dict[str, Any]:
    found: dict[str, Any] = next(d for h in review["hands"] if h["number"] == hand for d in h["decisions"]
                                 if d["step"] == step)
    return found


def shaped(review: dict[str, Any], seat: int, verdicts: list[str], phase: str = "play") -> list[tuple[int, int]]:
    """Give ``seat``'s first decisions of ``phase`` with four options or more (in the game's order,
    the first in each hand) the ``verdicts`` in turn, and every other decision of the seat no cost.
    Returns the (hand, step) of each decision shaped, in the order given."""
    mine = [(h, d) for h in review["hands"] for d in h["decisions"] if d["seat"] == seat]
    wide = [(h, d) for h, d in mine if len(d["options"]) >= 4 and d["phase"] == phase]
    firsts = [next((h, d) for h, d in wide if h["number"] == number)
              for number in sorted({h["number"] for h, _ in wide})]
    rest = [found for found in wide if found not in firsts]
    picked = (firsts + rest)[:len(verdicts)]
    assert len(picked) == len(verdicts), "the game has too few decisions with four options"
    for (_, decision), verdict in zip(picked, verdicts, strict=True):
        shape(review, decision, verdict)
    for _, decision in mine:
        if all(decision is not d for _, d in picked):
            free(review, decision)
    for hand in review["hands"]:
        hand["seats"][seat]["verdicts"] = counted(d for d in hand["decisions"] if d["seat"] == seat)
    review["seats"][seat]["verdicts"] = counted(d for _, d in mine)
    dearest = sorted(((h, d) for h, d in mine if d["verdict"]), key=lambda found: -found[1]["cost"])[:3]
    review["seats"][seat]["costliest"] = [
        {"hand": h["number"], "step": d["step"], "phase": d["phase"], "cost": d["cost"], "verdict": d["verdict"],
         "chosen_name": d["chosen_name"], "best_name": d["options"][0]["name"]} for h, d in dearest]
    before = {h["number"]: h["before"][seat] for h in review["hands"]}
    for entry in review["timeline"][seat]:
        if entry["step"] is not None:
            decision = find_decision(review, entry["hand"], entry["step"])
            entry.update(verdict=decision["verdict"], expected=before[entry["hand"]] + decision["value"])
    return [(h["number"], d["step"]) for h, d in picked]


def shape(review: dict[str, Any], decision: dict[str, Any], verdict: str) -> None:
    """The decision given ``verdict``, costing the middle of its range; its options, best first:
    the best, one 0.3 below it (as good within the error), one 6 below (clearly worse: more than
    1.96 standard errors of the difference), then the choice made and the others."""
    thresholds = review["thresholds"]
    cost = {"inaccuracy": (thresholds["inaccuracy"] + thresholds["mistake"]) / 2,
            "mistake": (thresholds["mistake"] + thresholds["blunder"]) / 2,
            "blunder": thresholds["blunder"] * 1.5}[verdict]
    chosen = next(o for o in decision["options"] if o["action"] == decision["chosen"])
    best, good, bad, *others = (o for o in decision["options"] if o is not chosen)
    best["value"] = chosen["value"] + cost
    good["value"], bad["value"] = best["value"] - 0.3, best["value"] - 6
    for option in (best, good, bad, chosen):
        option["error"] = 1.0
    for other in others:
        other["value"] = min(other["value"], chosen["value"] - 0.1)
    decision["options"].sort(key=lambda o: -o["value"])
    decision.update(best=best["value"], cost=cost, cost_error=1.0, verdict=verdict, proven=verdict == "blunder",
                    accuracy=100 * math.exp(-cost / thresholds["mistake"]))


def free(review: dict[str, Any], decision: dict[str, Any]) -> None:
    """The decision made as well as the best: no cost, no verdict."""
    chosen = next(o for o in decision["options"] if o["action"] == decision["chosen"])
    chosen["value"] = decision["best"] = max(o["value"] for o in decision["options"])
    decision["options"].sort(key=lambda o: (-o["value"], o is not chosen))
    decision.update(value=chosen["value"], cost=0.0, verdict=None, proven=False, accuracy=100.0)


def counted(decisions: Any) -> dict[str, int]:
    found = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    for decision in decisions:
        if decision["verdict"]:
            found[decision["verdict"]] += 1
    return found

