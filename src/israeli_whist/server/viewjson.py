"""Seat views and finished hands as JSON for the browser. Cards are ints (suit * 13 + rank,
as in the core) so the page can sort and draw them; actions carry their names too."""

from __future__ import annotations

from typing import Any

from israeli_whist.core.actions import action_name
from israeli_whist.core.cards import cards_in
from israeli_whist.core.match import HandResult, Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import SeatView, seat_view


def view_json(view: SeatView) -> dict[str, Any]:
    """Everything one seat may see, and nothing more: built from ``seat_view`` only."""
    return {
        "game": view.game,
        "traits": view.rules.traits.to_json(),
        "seat": view.seat,
        "players": view.players,
        "dealer": view.dealer,
        "phase": view.phase.name.lower(),
        "player": view.player,
        "hand": cards_in(view.hand),
        "hand_size": view.hand_size,
        "legal": [{"action": a, "name": action_name(a)} for a in view.legal_actions],
        "calls": [[round_, seat, action_name(call)] for round_, seat, call in view.calls],
        "high_bid": action_name(view.high_bid) if view.high_bid >= 0 else None,
        "declarer": view.declarer,
        "trump": view.trump,
        "frisch_round": view.frisch_round,
        "frisch_selected": cards_in(view.frisch_selected),
        "frisch_passed": [cards_in(cards) for cards in view.frisch_passed],
        "frisch_received": [cards_in(cards) for cards in view.frisch_received],
        # The seat this seat's Frisch cards go to (no secret: the rules say it); -1 outside a Frisch.
        "frisch_to": view.frisch_to if view.seat >= 0 and view.frisch_offset else -1,
        "contracts": list(view.contracts),
        "leader": view.leader,
        "trick": [list(play) for play in view.trick],
        "last_trick": trick_json(view.last_trick) if view.last_trick else None,
        "tricks_played": len(view.tricks),
        "tricks_won": list(view.tricks_won),
        "turned_card": view.turned_card,
        "revealed": [cards_in(cards) for cards in view.revealed],
        "scores": list(view.scores),
        "over_under": view.over_under,
    }


def trick_json(trick: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
    leader, cards, winner = trick
    return {"leader": leader, "cards": list(cards), "winner": winner}


def result_json(result: HandResult) -> dict[str, Any]:
    """A finished hand for the score sheet and the end-of-hand summary: all public by then."""
    final = result.final
    return {
        "number": result.number,
        "cancelled": result.cancelled,
        "points": list(result.points),
        "contracts": list(final.contracts),
        "tricks_won": list(final.tricks_won),
        "trump": final.trump,
        "declarer": final.declarer,
        "dealer": final.dealer,
        "over_under": final.over_under,
        "deal": [cards_in(cards) for cards in final.deal],
        "tricks": len(final.tricks),
    }


def hand_replay_json(final: HandState) -> list[dict[str, Any]]:
    """Every step of a finished hand with all hands shown, for the replay viewer."""
    state = final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                  checked=False)
    steps = [_step(state, None)]
    for action in final.history:
        seat = state.player
        state = state.apply(action)
        steps.append(_step(state, (seat, action)))
    return steps


def _step(state: HandState, last: tuple[int, int] | None) -> dict[str, Any]:
    public = view_json(seat_view(state, -1))
    public["hands"] = [cards_in(cards) for cards in state.hands]
    public["action"] = None if last is None else {"seat": last[0], "name": action_name(last[1])}
    return public


def scoreboard_json(match: Match) -> dict[str, Any]:
    return {
        "totals": list(match.totals),
        "hands": [result_json(r) for r in match.results],
        "hands_total": match.hands_total,
        "over": match.over,
        "places": list(match.places()) if match.over else None,
        "games_won": list(match.games_won),
    }
