"""A short human-readable text form of one hand, for logs, replays and bug reports."""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.core.actions import PASS, Phase, action_display
from israeli_whist.core.cards import NO_TRUMP, sorted_for_display, strain_symbol, symbol_name
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view


def seat_names(players: int, names: Sequence[str] | None = None) -> list[str]:
    return list(names) if names else [f"Seat {i}" for i in range(players)]


def hand_text(state: HandState, names: Sequence[str] | None = None, number: int | None = None) -> str:
    """The deal, the calls, the contracts, every trick and the score of a hand."""
    game = state.game
    who = seat_names(state.players, names)
    trump = state.trump
    title = f"{game.title}, hand {number}" if number is not None else game.title
    lines = [f"{title} — dealer {who[state.dealer]}"]
    for seat, dealt in enumerate(state.deal):
        shown = " ".join(symbol_name(c) for c in sorted_for_display(dealt, trump if trump >= 0 else NO_TRUMP))
        lines.append(f"  {who[seat]:>10}: {shown}")
    if state.turned_card >= 0:
        lines.append(f"  Turned up: {symbol_name(state.turned_card)}")
    if state.calls:
        rounds: dict[int, list[str]] = {}
        for frisch_round, seat, call in state.calls:
            said = "pass" if call == PASS else action_display(call)
            rounds.setdefault(frisch_round, []).append(f"{who[seat]} {said}")
        for frisch_round, calls in rounds.items():
            label = "Auction" if frisch_round == 0 else f"Auction after Frisch {frisch_round}"
            lines.append(f"  {label}: " + ", ".join(calls))
    if state.phase == Phase.CANCELLED:
        lines.append("  Cancelled: no bid after the last Frisch; the same dealer deals again")
        return "\n".join(lines)
    if state.declarer >= 0 and game.rules.traits.trump_auction:
        lines.append(f"  Declarer {who[state.declarer]}, trump {strain_symbol(trump)}")
    elif trump >= 0:
        lines.append(f"  Trump {strain_symbol(trump)}")
    if state.contracts and -1 not in state.contracts:
        bids = ", ".join(f"{who[s]} {c}" for s, c in enumerate(state.contracts))
        lines.append(f"  Contracts: {bids} ({sum(state.contracts)}: {state.over_under})")
    for trick_number, (leader, cards, winner) in enumerate(state.tricks, start=1):
        played = " ".join(f"{who[(leader + i) % state.players]} {symbol_name(c)}" for i, c in enumerate(cards))
        lines.append(f"  {trick_number:>2}. {played}  -> {who[winner]}")
    if state.phase == Phase.OVER:
        view = seat_view(state, -1)
        lines.append("  Tricks: " + ", ".join(f"{who[s]} {t}" for s, t in enumerate(state.tricks_won)))
        lines.append("  Points: " + ", ".join(f"{who[s]} {p:+d}" if p else f"{who[s]} 0"
                                              for s, p in enumerate(view.scores)))
    return "\n".join(lines)
