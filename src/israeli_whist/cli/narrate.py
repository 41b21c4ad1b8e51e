"""Lines that tell a seat what just happened: calls, contracts, cards played, tricks taken.

Built from the seat's views before and after an action, so another seat's Frisch cards,
which its view does not hold, can never be told.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from israeli_whist.cli.cardtext import action_text, card_text, over_under_text, strain_text
from israeli_whist.cli.table import frisch_exchange_text
from israeli_whist.core.actions import PASS, Action, Phase, bid_level, contract_tricks
from israeli_whist.core.cards import NO_TRUMP
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.views import SeatView


def action_lines(before: SeatView, actor: int, action: Action, after: SeatView, names: Sequence[str]) -> list[Text]:
    """What ``actor`` did and what followed from it, as ``before.seat`` may know it."""
    lines: list[Text] = []
    if before.phase == Phase.AUCTION:
        subject = who(before, actor, names)
        if action == PASS:
            lines.append(Text(f"{subject} {said(before, actor, 'pass')}"))
        else:
            lines.append(Text(f"{subject} {said(before, actor, 'bid')} ") + action_text(action))
    elif before.phase == Phase.FRISCH and actor == before.seat:
        lines.append(Text("You chose ") + card_text(action) + Text(" to pass"))
    elif before.phase == Phase.CONTRACT:
        lines.append(Text(f"{who(before, actor, names)} {said(before, actor, 'bid')} {contract_tricks(action)}"))
    elif before.phase == Phase.PLAY:
        lines.append(Text(f"{who(before, actor, names)} {said(before, actor, 'play')} ") + card_text(action))
        if len(after.tricks) > len(before.tricks):
            winner = after.tricks[-1][2]
            lines.append(Text(f"{who(before, winner, names)} {said(before, winner, 'take')} trick "
                              f"{len(after.tricks)}\n", style="bold"))
    lines.extend(phase_change_lines(before, after, names))
    return lines


def who(view: SeatView, seat: int, names: Sequence[str]) -> str:
    """The seat's own actions are told to it as "You", whatever name it plays under."""
    return "You" if seat == view.seat else names[seat]


def said(view: SeatView, seat: int, verb: str) -> str:
    return verb if seat == view.seat else verb + "es" if verb.endswith("ss") else verb + "s"


def phase_change_lines(before: SeatView, after: SeatView, names: Sequence[str]) -> list[Text]:
    if before.phase == after.phase:
        return []
    if after.phase == Phase.CONTRACT and before.phase == Phase.AUCTION:
        declarer = who(after, after.declarer, names)
        trump = Text("no trump") if after.trump == NO_TRUMP else Text("trump ") + strain_text(after.trump)
        # One sentence a line: the log beside the table is narrow, and wraps inside a line only.
        return [Text(f"{declarer} {said(after, after.declarer, 'win')} the auction at ", style="bold")
                + action_text(after.high_bid) + Text(": ") + trump + Text("."),
                Text(f"{declarer} {said(after, after.declarer, 'name')} a contract first, at least "
                     f"{bid_level(after.high_bid)}.", style="bold")]
    if after.phase == Phase.FRISCH:
        return [Text(f"All pass: Frisch {after.frisch_round + 1}.", style="bold"),
                Text(f"Each player chooses 3 cards to pass {direction(after.frisch_offset, after.players)}.",
                     style="bold")]
    if before.phase == Phase.FRISCH and after.phase == Phase.AUCTION:
        # The view before the last card was chosen still knows where this Frisch's cards went.
        exchange = (frisch_exchange_text(after, names, before.frisch_offset) if after.seat >= 0
                    else Text("The cards change hands."))
        return [exchange, Text(f"A new trump auction; the minimum bid is now {minimum_bid(after)}.", style="bold")]
    if after.phase == Phase.PLAY and before.phase == Phase.CONTRACT:
        total = sum(after.contracts)
        return [Text(f"Contracts: {over_under_text(total, after.hand_size)}.", style="bold"),
                Text(f"{who(after, after.leader, names)} {said(after, after.leader, 'lead')}.", style="bold")]
    return []


def direction(offset: int, players: int) -> str:
    if offset == 1:
        return "to the left"
    return "to the right" if offset == players - 1 else "across"


def minimum_bid(view: SeatView) -> int:
    """The lowest level of a bid in this auction round (told, not enforced: the engine decides)."""
    return game_for_rules(view.rules).lowest_bid(view.frisch_round)
