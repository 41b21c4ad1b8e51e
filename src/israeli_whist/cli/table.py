"""The table as one seat sees it: what is known about the hand under way, and that seat's cards.

Everything here is drawn from a ``SeatView``, so nothing hidden from the seat can reach the screen.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from israeli_whist.cli.cardtext import action_text, card_text, cards_line, over_under_text, strain_text, suit_style
from israeli_whist.core.actions import PASS, Phase
from israeli_whist.core.cards import NO_TRUMP, SUIT_SYMBOLS, Card, CardSet, card_bit, sorted_for_display
from israeli_whist.core.games import game_for_rules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.views import SeatView
from israeli_whist.core.wording import count_text


def game_of(view: SeatView) -> HandGame:
    """The game the view's table plays, which says what its table shows."""
    return game_for_rules(view.rules)


def display_order(view: SeatView) -> list[Card]:
    """The seat's cards as numbered: by suit (trump first), high to low. The cards already played in
    this hand keep their places, so that a card's number does not change as the tricks go by: the
    numbers change only when the cards themselves do (a Frisch) or when the trump puts its suit first."""
    return sorted_for_display(view.hand | played_by(view), view.trump if view.trump >= 0 else NO_TRUMP)


def played_by(view: SeatView) -> CardSet:
    """The cards the seat has played in this hand: in the tricks taken and in the trick under way."""
    if view.seat < 0:
        return 0
    mask = 0
    for leader, cards, _winner in view.tricks:
        mask |= card_bit(cards[(view.seat - leader) % view.players])
    for seat, card in view.trick:
        if seat == view.seat:
            mask |= card_bit(card)
    return mask


def seat_tags(view: SeatView, seat: int) -> list[str]:
    rules = view.rules
    tags = []
    if seat == view.dealer:
        tags.append("dealer")
    if rules.traits.trump_auction and seat == view.declarer and view.phase >= Phase.CONTRACT:
        tags.append("declarer")
    if (rules.traits.partnerships and view.seat >= 0 and seat != view.seat
            and game_of(view).side_of(seat) == game_of(view).side_of(view.seat)):
        tags.append("partner")
    return tags


def header(view: SeatView, names: Sequence[str], seat: int) -> Text:
    name = Text(names[seat], style="bold" if seat == view.seat else "")
    if seat == view.player:
        name = Text("▶ ", style="bold yellow") + name
    # Always two lines, so that every name sits on the same line whether or not it has tags.
    return name + Text("\n" + ", ".join(seat_tags(view, seat)), style="dim")


def trump_line(view: SeatView, names: Sequence[str]) -> Text:
    """Trump, declarer and the state of the auction, in one line."""
    if view.rules.traits.trump_auction:
        return auction_line(view, names, game_of(view))
    if view.trump < 0:
        return Text("Trump not yet known")
    line = Text("Trump ") + strain_text(view.trump) if view.trump != NO_TRUMP else Text("No trump")
    if view.turned_card >= 0:
        line += Text(" (turned up: ") + card_text(view.turned_card) + Text(")")
    elif view.rules.traits.turned_card == "stock" and view.trump == NO_TRUMP:
        line += Text(" (no card left to turn up)")
    return line


def auction_line(view: SeatView, names: Sequence[str], game: HandGame) -> Text:
    after = f" after Frisch {view.frisch_round}" if view.frisch_round else ""
    if view.phase == Phase.AUCTION:
        line = Text(f"Trump auction{after}: ")
        if view.high_bid < 0:
            return line + Text("no bid yet")
        return line + Text("high bid ") + action_text(view.high_bid) + Text(f" by {names[view.declarer]}")
    if view.phase == Phase.FRISCH:
        return Text(f"All passed{after}: Frisch {view.frisch_round + 1} of {game.frisch_rounds}, "
                    "each player passes 3 cards")
    if view.declarer < 0:
        return Text("No bid: the hand is cancelled")
    line = Text("Trump ") + strain_text(view.trump) if view.trump != NO_TRUMP else Text("No trump")
    return line + Text(f" · declarer {names[view.declarer]} at ") + action_text(view.high_bid)


def contracts_line(view: SeatView) -> Text | None:
    if not view.rules.traits.contracts or not view.contracts:
        return None
    bid = [c for c in view.contracts if c >= 0]
    if not bid:
        return None
    total = sum(bid)
    if view.over_under is None:
        return Text(f"Contracts so far: {total} for {count_text(view.hand_size, 'trick')}")
    style = "bold magenta" if view.over_under == "over" else "bold cyan"
    start, _, word = over_under_text(total, view.hand_size).partition(": ")
    return Text(f"Contracts: {start}: ") + Text(word, style=style)  # said in colour, not in capitals


def sides_line(view: SeatView, names: Sequence[str]) -> Text | None:
    if not view.rules.traits.partnerships:
        return None
    won = view.tricks_won
    sides = [f"{names[0]} & {names[2]} {won[0] + won[2]}", f"{names[1]} & {names[3]} {won[1] + won[3]}"]
    return Text("Tricks by side: " + " · ".join(sides))


def seat_rows(view: SeatView) -> list[tuple[str, list[Text]]]:
    """Rows of the seat table: the last call, contract, tricks and the card in the trick."""
    n = view.players
    rows: list[tuple[str, list[Text]]] = []
    if view.rules.traits.trump_auction and view.phase in (Phase.AUCTION, Phase.FRISCH):
        last: list[Text] = [Text("")] * n
        for frisch_round, seat, call in view.calls:
            if frisch_round == view.frisch_round:
                last[seat] = action_text(call) if call != PASS else Text("pass", style="dim")
        rows.append(("call", last))
    if view.rules.traits.contracts and view.phase >= Phase.CONTRACT:
        bids = [Text(str(c)) if c >= 0 else Text("?", style="dim") for c in view.contracts]
        rows.append((view.rules.traits.contract_word, bids))
    if view.phase >= Phase.PLAY:
        rows.append(("tricks", [tricks_cell(view, s) for s in range(n)]))
    if view.phase == Phase.PLAY:
        played: list[Text] = [Text("")] * n
        for seat, card in view.trick:
            played[seat] = card_text(card, "bold")
        rows.append(("trick", played))
    return rows


def tricks_cell(view: SeatView, seat: int) -> Text:
    """Tricks taken: green once the contract is made, red once it is overshot."""
    taken = view.tricks_won[seat]
    if not view.rules.traits.contracts or view.contracts[seat] < 0:
        return Text(str(taken))
    contract = view.contracts[seat]
    return Text(str(taken), style="" if taken < contract else "green" if taken == contract else "red")


def table_panel(view: SeatView, names: Sequence[str], heading: str) -> RenderableType:
    table = Table(show_edge=False, pad_edge=False)
    table.add_column("")
    for seat in range(view.players):
        table.add_column(header(view, names, seat), justify="center")
    for label, cells in seat_rows(view):
        table.add_row(Text(label, style="dim"), *cells)
    lines = [line for line in (trump_line(view, names), contracts_line(view), sides_line(view, names)) if line]
    return Group(Text(heading, style="bold"), table, *lines)


def numbering_note(view: SeatView) -> str:
    """How the cards are numbered, said beside the hand (the numbers of the cards played stay unused)."""
    if view.phase == Phase.PLAY:
        return "type a card or its number; numbers stay to the end of the hand"
    return "type a card or its number"


def hand_lines(view: SeatView, shown: Sequence[Card]) -> Text:
    """The seat's cards, one line per suit, each with the number that selects it (``shown`` is
    ``display_order``: the cards played are left out, and their numbers with them).

    In play the cards that may be played are bold and the others dim. In a Frisch the cards
    already chosen are struck through and starred (the star shows without colours too);
    cards just received in a Frisch are underlined.
    """
    legal = set(view.legal_actions) if view.phase == Phase.PLAY else None
    received = view.frisch_received[-1] if view.frisch_received and view.phase == Phase.AUCTION else 0
    out = Text()
    suit = -1
    for index, card in enumerate(shown, start=1):
        if not view.hand >> card & 1:  # played: its number stays unused until the next hand
            continue
        if card // 13 != suit:
            if suit >= 0:
                out.append("\n")
            suit = card // 13
            out.append(f"  {SUIT_SYMBOLS[suit]} ", style=suit_style(suit))
        style = ""
        if legal is not None:
            style = "bold" if card in legal else "dim"
        if received >> card & 1:
            style += " underline"
        out.append(f"  {index}:", style="dim")
        chosen = view.frisch_selected >> card & 1
        out.append(card_text(card, "strike dim" if chosen else style))
        if chosen:
            out.append("*", style="bold")
    if view.frisch_selected:
        out.append("\n  * chosen to pass", style="dim")
    return out


def last_trick_text(view: SeatView, names: Sequence[str]) -> Text:
    trick = view.last_trick
    if trick is None and view.tricks:
        return Text("In this game the last trick may be seen only before the next one is led.")
    if trick is None:
        return Text("No trick has been played yet in this hand.")
    leader, cards, winner = trick
    played = Text(", ").join(
        Text(f"{names[(leader + i) % view.players]} ") + card_text(card) for i, card in enumerate(cards))
    return Text(f"Last trick (trick {len(view.tricks)}): ") + played + Text(f" — won by {names[winner]}")


def frisch_exchange_text(view: SeatView, names: Sequence[str], offset: int) -> Text:
    """What the seat passed and received in the Frisch just completed."""
    n = view.players
    to, source = names[(view.seat + offset) % n], names[(view.seat - offset) % n]
    return (Text(f"Frisch {len(view.frisch_passed)}: you passed ") + cards_line(sorted_cards(view.frisch_passed[-1]))
            + Text(f" to {to} and received ") + cards_line(sorted_cards(view.frisch_received[-1]))
            + Text(f" from {source}."))


def sorted_cards(mask: int) -> list[Card]:
    return sorted_for_display(mask)
