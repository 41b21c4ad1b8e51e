"""A review in the engine's JSON shape (docs/server-protocol.md, "Game reviews") for the browser
tests of the replay page's review, made from a real game record in a moment: every decision of the
game with its real legal options, the values drawn from a seeded generator, and a few mistakes and
blunders placed where the test wants them. The pages are tested here; the engine's values are
tested with the engine."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any

from israeli_whist.core.actions import Phase, action_display
from israeli_whist.core.records import replay
from israeli_whist.core.state import HandState

THRESHOLDS = {"inaccuracy": 3, "mistake": 8, "blunder": 15}
PHASES = {Phase.AUCTION: "auction", Phase.FRISCH: "frisch", Phase.CONTRACT: "contract", Phase.PLAY: "play"}


def verdict_of(cost: float) -> str | None:
    found = [name for name, least in THRESHOLDS.items() if cost >= least]
    return found[-1] if found else None


def accuracy_of(cost: float) -> float:
    return round(100 * 2 ** (-cost / 8), 1)


def states(final: HandState) -> list[HandState]:
    """The state before each action of the hand."""
    state = final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                  checked=False)
    found = []
    for action in final.history:
        found.append(state)
        state = state.apply(action)
    return found


def seat_decisions(record: dict[str, Any], seat: int, least: int = 2) -> list[tuple[int, int, str]]:
    """(hand number, step, phase) of each decision of ``seat`` with ``least`` options or more, in the game's order."""
    found = []
    for result in replay(record).match.results:
        for step, state in enumerate(states(result.final), start=1):
            if state.player == seat and len(state.legal_actions()) >= least:
                found.append((result.number, step, PHASES[state.phase]))
    return found


def made_review(record: dict[str, Any], *, seed: int = 1, costs: dict[tuple[int, int], float] | None = None,
                proven: Collection[tuple[int, int]] = ()) -> dict[str, Any]:
    """The review of ``record``: ``costs`` maps (hand number, step) to the cost given to that
    decision (the others cost 0 or a little, by the seeded generator); ``proven`` marks decisions proven."""
    rng = random.Random(seed)
    chosen_costs = costs or {}
    match = replay(record).match
    players = match.game.players
    names = [str(n) for n in record.get("players", [f"Seat {s + 1}" for s in range(players)])]
    totals = [0] * players
    hands: list[dict[str, Any]] = []
    timeline: list[list[dict[str, Any]]] = [[] for _ in range(players)]
    for result in match.results:
        before = list(totals)
        decisions = []
        for step, state in enumerate(states(result.final), start=1):
            legal = list(state.legal_actions())
            if len(legal) < 2:
                continue
            action = result.final.history[step - 1]
            cost = chosen_costs.get((result.number, step), rng.choice([0, 0, 0, 0, 0.4, 1.2]))
            best_value = round(rng.uniform(-5, 20), 1)
            options: list[dict[str, Any]] = []
            for option in legal:
                value = best_value - cost if option == action else best_value - round(rng.uniform(0, 12), 1)
                options.append({"action": option, "name": action_display(option), "value": round(value, 1),
                                "error": round(rng.uniform(0.3, 1.5), 1)})
            if cost > 0:  # another option is the best
                best = next(o for o in options if o["action"] != action)
                best["value"] = best_value
            options.sort(key=lambda o: -o["value"])
            chosen = next(o for o in options if o["action"] == action)
            real_cost = round(options[0]["value"] - chosen["value"], 1)
            decisions.append({
                "step": step, "seat": state.player, "phase": PHASES[state.phase],
                "trick": len(state.tricks) + 1 if state.phase == Phase.PLAY else None,
                "chosen": action, "chosen_name": action_display(action), "options": options,
                "value": chosen["value"], "best": options[0]["value"], "cost": real_cost, "cost_error": 0.6,
                "verdict": verdict_of(real_cost), "proven": (result.number, step) in proven,
                "accuracy": accuracy_of(real_cost)})
            timeline[state.player].append({"hand": result.number, "step": step,
                                           "expected": round(before[state.player] + chosen["value"], 1),
                                           "verdict": verdict_of(real_cost)})
        score = list(result.points)
        seats = []
        for seat in range(players):
            mine = [d for d in decisions if d["seat"] == seat]
            cost = round(sum(d["cost"] for d in mine), 1)
            par = round(score[seat] + cost - rng.uniform(-6, 6), 1)
            seats.append({"decisions": len(mine), "cost": cost,
                          "cost_by_phase": {p: round(sum(d["cost"] for d in mine if d["phase"] == p), 1)
                                            for p in PHASES.values()},
                          "accuracy": round(sum(d["accuracy"] for d in mine) / len(mine), 1) if mine else None,
                          "score": score[seat], "par": par, "par_error": 1.8, "decisions_cost": cost,
                          "rest": round(score[seat] - par + cost, 1)})
        hands.append({"number": result.number, "dealer": result.final.dealer, "cancelled": result.cancelled,
                      "before": before, "score": score,
                      "par": {"mean": [s["par"] for s in seats], "error": [1.8] * players, "playouts": 6},
                      "decisions": decisions, "seats": seats})
        totals = [t + p for t, p in zip(totals, score, strict=True)]
    return {"kind": "review", "version": 1, "game": match.game.name, "title": match.game.title, "players": names,
            "budget": {"deals": 48, "par_playouts": 6, "seed": str(seed)}, "thresholds": THRESHOLDS,
            "hands": hands, "seats": game_seats(hands, names), "timeline": timeline}


def game_seats(hands: list[dict[str, Any]], names: list[str]) -> list[dict[str, Any]]:
    found = []
    for seat, name in enumerate(names):
        mine = [d for h in hands for d in h["decisions"] if d["seat"] == seat]
        costliest = sorted(((h["number"], d) for h in hands for d in h["decisions"] if d["seat"] == seat),
                           key=lambda found: -found[1]["cost"])[:3]
        found.append({
            "name": name, "decisions": len(mine),
            "mean_cost": round(sum(d["cost"] for d in mine) / len(mine), 2) if mine else 0,
            "accuracy": round(sum(d["accuracy"] for d in mine) / len(mine), 1) if mine else None,
            "cost_by_phase": {p: round(sum(d["cost"] for d in mine if d["phase"] == p), 1) for p in PHASES.values()},
            "verdicts": {v: sum(d["verdict"] == v for d in mine) for v in THRESHOLDS},
            "costliest": [{"hand": number, "step": d["step"], "phase": d["phase"], "cost": d["cost"],
                           "chosen_name": d["chosen_name"], "best_name": d["options"][0]["name"]}
                          for number, d in costliest],
            "score": sum(h["score"][seat] for h in hands),
            "par": round(sum(h["seats"][seat]["par"] for h in hands), 1), "par_error": 6.0})
    return found
