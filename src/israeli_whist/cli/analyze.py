"""``whist analyze``: what the search says of every card of a saved game, and what a bot would
have called and bid, printed hand by hand with each player's totals (or as JSON)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from israeli_whist.bots.matches.analysis import GameAnalysis, HandAnalysis, analysis_json, analyze_record
from israeli_whist.bots.players.registry import check_level
from israeli_whist.bots.search.dd import SolverUnavailableError
from israeli_whist.cli.cardtext import action_text, card_text, cards_line
from israeli_whist.cli.errors import refused_input, usage_error
from israeli_whist.cli.progress import progress
from israeli_whist.core.errors import WhistError
from israeli_whist.core.records import load_record
from israeli_whist.core.wording import count_text

ERROR = "bold red"


def run_analyze(path: Path, hand: int | None, max_tricks: int | None, bot: str, as_json: bool,
                console: Console) -> int:
    try:
        check_level(bot)
    except WhistError as error:  # a command line refused, in the style of every other (exit 2)
        usage_error(str(error), "whist analyze")
    try:
        with progress("Analysing", "actions", after=1.0) as on_step:
            analysis = analyze_record(load_record(path), bot=bot, max_tricks=max_tricks,
                                      hands=None if hand is None else {hand}, on_step=on_step)
    except (WhistError, SolverUnavailableError) as error:
        return refused_input("whist analyze", str(error), as_json)
    if hand is not None and not analysis.hands:
        return refused_input("whist analyze", f"{path} has no hand {hand}", as_json)
    if as_json:
        print(json.dumps(analysis_json(analysis), ensure_ascii=False))
        return 0
    console.print(heading(path, analysis), markup=False, highlight=False)
    for analysed in analysis.hands:
        console.print(hand_report(analysed, analysis))
    console.print(totals_table(analysis))
    return 0


def heading(path: Path, analysis: GameAnalysis) -> str:
    measure = ("tricks the player's side takes" if analysis.unit == "tricks"
               else "points the player can be sure of, the others playing against them")
    hands = len(analysis.hands)
    text = f"{path}: {analysis.title}, {count_text(hands, 'hand')}. Cards are judged by {measure}"
    if any(not v.analysed and v.proven for h in analysis.hands for v in h.cards):
        depth = analysis.max_tricks
        text += f", with at most {count_text(depth, 'trick')} left (earlier cards are not analysed)"
    if analysis.not_proven:
        text += (f"; {count_text(analysis.not_proven, 'card')} not proven (the search ran out of its budget"
                 " before it knew every legal card's value): those are not judged")
    if any(h.bids for h in analysis.hands):  # Classic Whist has no bidding
        text += f"; calls and bids beside the {analysis.bot} bot's"
    return text + "."


def hand_report(hand: HandAnalysis, analysis: GameAnalysis) -> Group:
    """One hand: its errors (card, value, the best cards, cost) and the bids where the bot differs."""
    names = analysis.players
    title = f"Hand {hand.number} (dealer {names[hand.dealer]})" + (": cancelled" if hand.cancelled else "")
    parts: list[RenderableType] = [Text(title, style="bold")]
    errors = [v for v in hand.cards if v.is_error]
    if errors:
        caption = f"Value: of the card played / of the best card, in {analysis.unit}"
        if not all(v.all_best_cards for v in errors):
            caption += "; …: more cards may reach the best (the search ran out before asking them all)"
        table = Table(show_edge=False, caption=caption, caption_justify="left")
        for column in ("Trick", "Player", "Played", "Value", "Best", "Cost"):
            table.add_column(column, justify="right" if column in ("Trick", "Value", "Cost") else "left")
        for v in errors:
            table.add_row(str(v.trick), Text(names[v.seat]), card_text(v.card, ERROR), f"{v.value} / {v.best}",
                          cards_line(v.best_cards) + ("" if v.all_best_cards else " …"),
                          Text(f"-{amount(v.cost, analysis.unit)}", style=ERROR))
        parts.append(table)
    differing = [b for b in hand.bids if not b.agrees]
    if differing:
        table = Table(show_edge=False)
        for column in ("Bidding", "Player", "Actual", analysis.bot.capitalize()):
            table.add_column(column)
        for b in differing:
            table.add_row(b.phase, Text(names[b.seat]), bid_text(b.actual), bid_text(b.suggested))
        parts.append(table)
    analysed = sum(1 for v in hand.cards if v.analysed)
    summary = f"{analysed} of {len(hand.cards)} cards analysed, "
    if hand.not_proven:
        summary += f"{hand.not_proven} not proven, "
    summary += count_text(len(errors), 'error')
    if hand.bids:
        summary += f"; the {analysis.bot} bot agrees with {len(hand.bids) - len(differing)} of {len(hand.bids)} bids"
    parts.append(Text(summary + ".", style="dim"))
    return Group(*parts)


def amount(value: int, unit: str) -> str:
    """``1 trick``, ``2 tricks``, ``10 points``."""
    return f"{value} {unit if value != 1 else unit[:-1]}"


def bid_text(actions: Sequence[int]) -> Text:
    return Text(" ").join(action_text(a) for a in actions)


def totals_table(analysis: GameAnalysis) -> Table:
    table = Table(title=Text("Totals", style="bold"), title_justify="left", show_edge=False)
    bids = any(h.bids for h in analysis.hands)  # Classic Whist has no bidding
    columns = ["Player", "Errors", f"{analysis.unit.capitalize()} lost"] + ([f"Bids unlike {analysis.bot}"] * bids)
    for column in columns:
        table.add_column(column, justify="left" if column == "Player" else "right")
    for seat, name in enumerate(analysis.players):
        lost = analysis.cost(seat)
        row: list[RenderableType] = [Text(name), str(analysis.errors(seat)),
                                     Text(str(lost), style=ERROR if lost else "")]
        if bids:
            row.append(f"{analysis.bids_differing(seat)} of {_bids(analysis, seat)}")
        table.add_row(*row)
    return table


def _bids(analysis: GameAnalysis, seat: int) -> int:
    return sum(1 for h in analysis.hands for b in h.bids if b.seat == seat)
