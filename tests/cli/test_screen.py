"""What the table shows: the seat's own cards and public facts, never another seat's cards."""

from __future__ import annotations

import io
import re

from rich.console import Console, RenderableType

from israeli_whist.cli.table import display_order, hand_lines, table_panel
from israeli_whist.cli.tablelayout import PLACES, auction_panel, board, place_of
from israeli_whist.core.actions import Phase
from israeli_whist.core.cards import card_bit, parse_card
from israeli_whist.core.games import make_game
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

NAMES = ["Ann", "Bot 1", "Bot 2", "Bot 3"]
CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]")


def render(*items: RenderableType) -> str:
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    for item in items:
        console.print(item)
    return out.getvalue()


def screen(state: HandState, seat: int) -> str:
    view = seat_view(state, seat)
    # The plain view's table and the full-screen card table with the auction beside it.
    return render(table_panel(view, NAMES, "heading"), hand_lines(view, display_order(view)),
                  board(view, NAMES), auction_panel(view, NAMES))


def shown_cards(text: str) -> int:
    mask = 0
    for name in CARD.findall(text):
        mask |= card_bit(parse_card(name))
    return mask


def test_no_other_seat_cards_reach_the_screen() -> None:
    for game in ("israeli", "classic", "whistiti"):
        state = make_game(game).new_hand(0, f"screen-{game}", 5)
        while not state.is_terminal:
            for seat in (state.player, (state.player + 1) % state.players):
                view = seat_view(state, seat)
                public = view.hand | sum(card_bit(c) for _, c in view.trick)
                if view.last_trick is not None:  # shown on the card table until the next lead: all saw it
                    public |= sum(card_bit(c) for c in view.last_trick[1])
                if view.turned_card >= 0:
                    public |= card_bit(view.turned_card)
                if view.high_bid >= 0:
                    public |= shown_cards(screen(state, -1))  # bids like 5♠ read as cards; no hidden card
                assert shown_cards(screen(state, seat)) & ~public == 0, (game, seat)
            state = state.apply(state.legal_actions()[-1])


def test_contracts_tricks_and_over_under_are_shown() -> None:
    state = make_game("israeli").new_hand(0, "screen")
    while state.phase != Phase.PLAY:
        legal = state.legal_actions()
        state = state.apply(legal[1] if state.phase == Phase.AUCTION and state.high_bid < 0 else legal[0])
    text = screen(state, 0)
    assert "contract" in text and "tricks" in text
    assert re.search(r"Contracts: \d+ for 13 tricks: (over|under) by \d+", text), text
    assert not re.search(r"OVER|UNDER", text)  # said in colour, not shouted in capitals
    assert "declarer" in text


def test_the_card_table_seats_everyone_once_with_the_viewer_at_the_bottom() -> None:
    for players, places in PLACES.items():
        assert len(set(places)) == players and places[0] == (2, 1) and (1, 1) not in places
    state = make_game("israeli").new_hand(0, "places")
    for seat in range(4):
        view = seat_view(state, seat)
        assert place_of(view, seat) == (2, 1)  # oneself at the bottom
        assert place_of(view, (seat + 1) % 4) == (1, 0)  # the next to play on the left
        assert place_of(view, (seat + 2) % 4) == (0, 1)  # opposite at the top
