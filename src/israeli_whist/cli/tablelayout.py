"""The card table of the full-screen view: the seats around the trick, and beside it the auction
and the contracts. Plain ``rich`` renderables drawn from one ``SeatView``, like ``cli/table.py``,
so nothing hidden from the seat can reach the screen, and the layout is testable without a terminal.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from israeli_whist.cli.cardtext import action_text, card_text
from israeli_whist.cli.table import contracts_line, seat_tags, sides_line, tricks_cell, trump_line
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.views import SeatView

# Cells of a 3x3 grid, (row, column); the middle cell holds what the whole table shares.
BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT, TOP, TOP_RIGHT, RIGHT, BOTTOM_RIGHT = (
    (2, 1), (2, 0), (1, 0), (0, 0), (0, 1), (0, 2), (1, 2), (2, 2))
# Where each seat sits, counted from the viewer (at the bottom) in the order of play, clockwise:
# the next player sits on the left, as at a real table seen from one's own chair.
PLACES: dict[int, tuple[tuple[int, int], ...]] = {
    3: (BOTTOM, LEFT, RIGHT),
    4: (BOTTOM, LEFT, TOP, RIGHT),
    5: (BOTTOM, LEFT, TOP_LEFT, TOP_RIGHT, RIGHT),
    6: (BOTTOM, LEFT, TOP_LEFT, TOP, TOP_RIGHT, RIGHT),
    7: (BOTTOM, BOTTOM_LEFT, LEFT, TOP_LEFT, TOP_RIGHT, RIGHT, BOTTOM_RIGHT),
}


def place_of(view: SeatView, seat: int) -> tuple[int, int]:
    """The cell of ``seat``; a spectator (seat -1) sees seat 0 at the bottom."""
    return PLACES[view.players][(seat - max(view.seat, 0)) % view.players]


def shown_trick(view: SeatView) -> tuple[dict[int, int], str]:
    """The cards on the table by seat, and a caption. Between tricks the last one stays in view
    until the next card is led, so the fourth card of a trick is seen too (every rule allows that)."""
    if view.trick or view.phase not in (Phase.PLAY, Phase.OVER) or view.last_trick is None:
        return dict(view.trick), ""
    leader, cards, _winner = view.last_trick
    return {(leader + i) % view.players: card for i, card in enumerate(cards)}, f"trick {len(view.tricks)}"


def seat_box(view: SeatView, names: Sequence[str], seat: int, card: int | None,
             compact: bool = False) -> RenderableType:
    """A seat: its name (▶ when it is to act), its tags, its call or contract and tricks, its card.
    Compact, the tags follow the name on its line."""
    title = Text(names[seat], style="bold")
    if seat == view.player:
        title = Text("▶ ", style="bold yellow") + title
    lines = [title]
    tags = Text(", ".join(seat_tags(view, seat)), style="dim")
    if not compact:
        lines.append(tags)
    elif tags:
        title.append_text(Text(" · ", style="dim") + tags)
    lines.append(seat_status(view, seat, compact))
    lines.append(Text("[ ") + card_text(card, "bold") + Text(" ]") if card is not None else Text(""))
    return Group(*lines)


def seat_status(view: SeatView, seat: int, compact: bool = False) -> Text:
    """The seat's last call in the auction; then its contract and, in play, its tricks (compact,
    in play: ``tricks 2 of 4``, which fits the narrow column of a seat at 80 columns)."""
    if view.phase in (Phase.AUCTION, Phase.FRISCH) and view.rules.traits.trump_auction:
        last = [call for frisch_round, who, call in view.calls if who == seat and frisch_round == view.frisch_round]
        if not last:
            return Text("")
        return Text("pass", style="dim") if last[-1] == PASS else Text("bid ") + action_text(last[-1])
    status = Text("")
    if compact and view.phase >= Phase.PLAY:
        contract = view.contracts[seat] if view.rules.traits.contracts else -1
        return Text("tricks ") + tricks_cell(view, seat) + Text(f" of {contract}" if contract >= 0 else "")
    if view.rules.traits.contracts and view.phase >= Phase.CONTRACT:
        contract = view.contracts[seat]
        status += Text(f"{view.rules.traits.contract_word} ") + (Text(str(contract)) if contract >= 0
                                                            else Text("?", style="dim"))
    if view.phase >= Phase.PLAY:
        status += Text("  tricks " if status else "tricks ") + tricks_cell(view, seat)
    return status


def board(view: SeatView, names: Sequence[str], compact: bool = False) -> RenderableType:
    """The seats around the trick, with the trump and the contracts in the middle. Compact (a
    terminal of 24 rows), the seats take three lines with none between them, and the contracts'
    total is left to the auction panel beside, which shows it too."""
    cards, caption = shown_trick(view)
    cells: dict[tuple[int, int], RenderableType] = {}
    for seat in range(view.players):
        cells[place_of(view, seat)] = seat_box(view, names, seat, cards.get(seat), compact)
    middle = [trump_line(view, names)]
    if caption:
        _leader, _cards, winner = view.last_trick or (0, (), 0)
        middle.append(Text(f"{caption} won by {names[winner]}", style="dim"))
    middle.extend(line for line in (None if compact else contracts_line(view), sides_line(view, names)) if line)
    cells[(1, 1)] = Group(*middle)
    grid = Table.grid(expand=True, padding=(0, 1) if compact else (1, 2))
    for ratio in (2, 3, 2):  # the middle column holds the longest lines: the trump and the contracts
        grid.add_column(justify="center", ratio=ratio)
    for row in range(3):
        grid.add_row(*(cells.get((row, column), Text("")) for column in range(3)))
    return grid


def auction_panel(view: SeatView, names: Sequence[str]) -> RenderableType:
    """Beside the table: every call of the trump auction (by Frisch round), then the contracts."""
    lines: list[Text] = []
    if view.rules.traits.trump_auction:
        rounds = sorted({frisch_round for frisch_round, _seat, _call in view.calls})
        for frisch_round in rounds:
            if len(rounds) > 1 or frisch_round:
                lines.append(Text(f"after Frisch {frisch_round}" if frisch_round else "first round", style="dim"))
            for call_round, seat, call in view.calls:
                if call_round == frisch_round:
                    lines.append(Text(f"{names[seat]}: ") + (Text("pass", style="dim") if call == PASS
                                                            else action_text(call)))
        if not view.calls:
            lines.append(Text("no call yet", style="dim"))
    if view.rules.traits.contracts and view.phase >= Phase.CONTRACT and any(c >= 0 for c in view.contracts):
        lines.append(Text(""))
        lines.append(Text(view.rules.traits.contract_word.capitalize() + "s", style="bold"))
        for seat in range(view.players):
            contract = view.contracts[seat]
            if contract >= 0:
                lines.append(Text(f"{names[seat]}: {contract}"))
        total = contracts_line(view)
        if total is not None:
            lines.append(total)
    title = "Auction and contracts" if view.rules.traits.trump_auction else "The hand"
    if not lines:
        lines.append(trump_line(view, names))
    return Panel(Group(*lines), title=title, title_align="left")
