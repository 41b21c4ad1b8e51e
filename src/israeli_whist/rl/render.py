"""The text an environment renders (``render_mode="ansi"``): the whole table, every hand shown.

A rendering is for the person watching a run, like a board game's board, so it shows every
seat's cards; what an agent may see is its observation, made from its seat's view.
"""

from __future__ import annotations

from collections.abc import Sequence

from israeli_whist.core.actions import PASS, Phase, action_display
from israeli_whist.core.cards import NO_TRUMP, sorted_for_display, strain_symbol, symbol_name
from israeli_whist.core.state import HandState


def table_text(hand: HandState, number: int, totals: Sequence[int] | None = None) -> str:
    """The hand under way (or just ended), with every seat's cards now; ``number`` counts the
    deals of the game from 1, and ``totals`` are the game's points where a game is kept."""
    game = hand.game
    trump = hand.trump if hand.trump >= 0 else NO_TRUMP
    status = f"phase {hand.phase.name.lower()}" + (f", seat {hand.player} to act" if hand.player >= 0 else "")
    lines = [f"{game.title}, deal {number}, dealer seat {hand.dealer}; {status}"]
    for seat, cards in enumerate(hand.hands):
        shown = " ".join(symbol_name(c) for c in sorted_for_display(cards, trump)) or "-"
        lines.append(f"  seat {seat}: {shown}")
    if hand.turned_card >= 0:
        lines.append(f"  turned up: {symbol_name(hand.turned_card)}")
    if hand.calls:
        calls = [f"{seat} {'pass' if call == PASS else action_display(call)}"
                 for frisch_round, seat, call in hand.calls if frisch_round == hand.frisch_round]
        lines.append(f"  auction {hand.frisch_round + 1} (seat call): " + ", ".join(calls))
    if hand.trump >= 0:
        lines.append(f"  trump {strain_symbol(hand.trump)}")
    if hand.contracts:
        lines.append("  contracts: " + ", ".join(f"seat {s} {c if c >= 0 else '-'}"
                                                 for s, c in enumerate(hand.contracts)))
    if hand.trick:
        n = hand.players
        lines.append("  trick: " + ", ".join(f"seat {(hand.leader + i) % n} {symbol_name(c)}"
                                             for i, c in enumerate(hand.trick)))
    lines.append("  tricks won: " + ", ".join(f"seat {s} {t}" for s, t in enumerate(hand.tricks_won)))
    if hand.phase == Phase.OVER:
        lines.append("  points: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(hand.scores())))
    elif hand.phase == Phase.CANCELLED:
        lines.append("  cancelled: no bid after the last Frisch")
    if totals is not None:
        lines.append("  game: " + ", ".join(f"seat {s} {p:+d}" for s, p in enumerate(totals)))
    return "\n".join(lines)
