"""Scores: the running score sheet, the end-of-hand summary and the final places."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from israeli_whist.cli.cardtext import cards_line, over_under_text, strain_text
from israeli_whist.core.cards import NO_TRUMP, sorted_for_display
from israeli_whist.core.match import HandResult, Match
from israeli_whist.core.views import SeatView
from israeli_whist.core.wording import count_text


def points_text(points: int, style: str = "") -> Text:
    colour = "green" if points > 0 else "red" if points < 0 else ""
    return Text(f"{points:+d}" if points else "0", style=f"{colour} {style}".strip())


def side_names(names: Sequence[str]) -> tuple[str, str]:
    return f"{names[0]} & {names[2]}", f"{names[1]} & {names[3]}"


def score_sheet(match: Match, names: Sequence[str]) -> Table:
    """Points hand by hand and the totals."""
    if match.game.rules.traits.partnerships:
        return sides_sheet(match, names)
    contracts = match.game.rules.traits.contracts
    table = Table(title="Score sheet", title_justify="left",
                  caption="points (contract/tricks)" if contracts else "points (tricks)",
                  caption_justify="left", show_edge=False)
    table.add_column("Hand", justify="right")
    table.add_column("Dealer")
    for name in names:
        table.add_column(Text(name), justify="right")
    for result in match.results:
        final = result.final
        if result.cancelled:
            table.add_row(str(result.number), Text(names[final.dealer]), *[Text("cancelled", style="dim")] * len(names))
            continue
        taken = [f"{c}/{t}" for c, t in zip(final.contracts, final.tricks_won, strict=True)] if contracts else [
            str(t) for t in final.tricks_won]
        cells = [points_text(p) + Text(f" ({detail})", style="dim")
                 for p, detail in zip(result.points, taken, strict=True)]
        table.add_row(str(result.number), Text(names[final.dealer]), *cells)
    table.add_section()
    table.add_row("Total", "", *[points_text(t, "bold") for t in match.totals])
    return table


def sides_sheet(match: Match, names: Sequence[str]) -> Table:
    """The sheet of a partnership game (Classic Whist): points by side, games to a target."""
    game = match.game
    target, honours_on, rubber = game.game_target, game.counts_honours, game.games_to_win > 1
    assert target is not None  # partnership games here are played as games to a target
    side_a, side_b = side_names(names)
    # Sides are columns A and B, named in the caption: two names per header would not fit 80 columns.
    table = Table(title=f"Score sheet (a game is {target} points)", title_justify="left", show_edge=False,
                  caption=Text(f"A: {side_a} · B: {side_b}"), caption_justify="left")
    columns = ["Hand", "Dealer", "Trump", "Tricks", "A", "B", "Game"] + (["Honours"] if honours_on else [])
    for column in columns:
        table.add_column(column, justify="left" if column in ("Dealer", "Game") else "right")
    game_points = [0, 0]
    for result in match.results:
        final = result.final
        won = final.tricks_won
        game_points = [game_points[0] + result.points[0], game_points[1] + result.points[1]]
        note = f"{game_points[0]}–{game_points[1]}"
        if max(game_points) >= target:
            note += " (game)"  # the next hand starts a new game from 0–0
            game_points = [0, 0]
        honours = [f"{result.honours[0]}–{result.honours[1]}"] if honours_on else []
        table.add_row(str(result.number), Text(names[final.dealer]), strain_text(final.trump),
                      f"{won[0] + won[2]}–{won[1] + won[3]}", points_text(result.points[0]),
                      points_text(result.points[1]), note, *honours)
    table.add_section()
    games = f"games {match.games_won[0]}–{match.games_won[1]}" if rubber else ""
    table.add_row("Total", "", "", "", points_text(match.totals[0], "bold"), points_text(match.totals[1], "bold"),
                  games, *([""] if honours_on else []))
    return table


def hand_summary(view: SeatView, result: HandResult, totals: Sequence[int], names: Sequence[str]) -> RenderableType:
    """The end of a hand: contracts, tricks and points of each seat, and every hand as dealt."""
    if result.cancelled:
        return Text(f"Hand {result.number} is cancelled: no bid after the last Frisch. "
                    "The same dealer deals again.", style="bold")
    title = f"Hand {result.number} is over"
    if view.over_under:
        title += f" (contracts {over_under_text(sum(view.contracts), view.hand_size)})"
    rules = view.rules
    if rules.traits.partnerships:
        won = view.tricks_won
        side_a, side_b = side_names(names)
        title += f" (tricks: {side_a} {won[0] + won[2]}, {side_b} {won[1] + won[3]})"
        if any(result.honours):
            title += f"; honours {result.honours[0]}–{result.honours[1]}"
    bids = rules.traits.contracts
    table = Table(show_edge=False)
    for column in ("Player", "Contract", "Tricks", "Points", "Total") if bids else ("Player", "Tricks", "Points",
                                                                                   "Total"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for seat, name in enumerate(names):
        contract = [str(view.contracts[seat])] if bids else []
        table.add_row(Text(name), *contract, str(view.tricks_won[seat]), points_text(result.points[seat]),
                      points_text(totals[seat], "bold"))
    trump = view.trump if view.trump >= 0 else NO_TRUMP
    dealt = [Text(f"  {name}: ") + cards_line(sorted_for_display(view.revealed[seat], trump))
             for seat, name in enumerate(names)] if view.revealed else []
    if dealt and view.frisch_passed:
        dealt.insert(0, Text("As dealt, before the Frisch:", style="dim"))
    elif dealt:
        dealt.insert(0, Text("As dealt:", style="dim"))
    return Group(Text(title, style="bold"), table, *dealt)


def final_results(match: Match, names: Sequence[str]) -> RenderableType:
    """The final scores and places."""
    places = match.places()
    if match.game.rules.traits.partnerships:
        return sides_final(match, names)
    table = Table(title="Final scores", title_justify="left", title_style="bold", show_edge=False)
    table.add_column("Place", justify="right")
    table.add_column("Player")
    table.add_column("Total", justify="right")
    for seat in sorted(range(len(names)), key=lambda s: (places[s], s)):
        table.add_row(str(places[seat]), Text(names[seat]), points_text(match.totals[seat], "bold"))
    winners = [names[s] for s in range(len(names)) if places[s] == 1]
    line = f"Winner: {winners[0]}" if len(winners) == 1 else f"Shared first place: {', '.join(winners)}"
    return Group(table, Text(line, style="bold green"))


def sides_final(match: Match, names: Sequence[str]) -> RenderableType:
    places = match.places()  # seats 0 and 1 stand for their sides
    side_a, side_b = side_names(names)
    table = Table(title="Final scores", title_justify="left", title_style="bold", show_edge=False)
    for column in ("Place", "Side", "Games", "Points"):
        table.add_column(column, justify="left" if column == "Side" else "right")
    rows = sorted([(places[0], side_a, 0), (places[1], side_b, 1)])
    for place, name, side in rows:
        table.add_row(str(place), Text(name), str(match.games_won[side]), points_text(match.totals[side], "bold"))
    winner = side_a if places[0] < places[1] else side_b if places[1] < places[0] else None
    line = f"Winners: {winner}" if winner else "The sides are level"
    return Group(table, Text(line, style="bold green"))


def hand_heading(match: Match, names: Sequence[str]) -> str:
    """``Israeli Whist · hand 3 of 12 · dealer Bot 2`` for the hand under way."""
    hand = match.hand
    number = match.hands_played + 1
    total = match.hands_total
    parts = [match.game.title, f"hand {number}" + (f" of {total}" if total else "")]
    if match.results and match.results[-1].cancelled:
        parts[-1] += " (dealt again)"
    if match.game.rules.traits.hand_size_varies:
        parts.append(f"{count_text(hand.hand_size, 'card')} each")
    target = match.game.game_target
    if target is not None:
        a, b = side_names(names)
        parts.append(f"game {a} {match.game_points[0]}–{match.game_points[1]} {b} (to {target})")
    parts.append(f"dealer {names[hand.dealer]}")
    return " · ".join(parts)
