"""``whist analyze --review``: every decision of a saved game valued in expected points from what
its seat knew (``israeli_whist.bots.review``), printed as tables or as the review's JSON.

The tables are drawn from the JSON (``review_json``), the same document ``--json`` prints and
the replay page reads, so the two cannot say different things: per player the accuracy, the
points lost in each kind of decision, the verdict counts and the costliest decisions; per hand
the decisions with a verdict (the best options and the chosen one, with their values; the JSON
has every option), and where each seat's points went:
its score beside the deal's par for its cards, split into what the decisions cost and the rest.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from rich.console import Console, Group, RenderableType
from rich.table import Table
from rich.text import Text

from israeli_whist.bots.review import ReviewSettings, review_json, review_record
from israeli_whist.cli.cardtext import action_text
from israeli_whist.cli.errors import refused_input
from israeli_whist.cli.progress import progress
from israeli_whist.core.errors import WhistError
from israeli_whist.core.records import load_record, replay
from israeli_whist.core.recordshape import shown_path
from israeli_whist.core.wording import count_text

VERDICT_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}
VERDICTS = tuple(VERDICT_STYLES)
PHASE_TITLES = {"auction": "Auction", "frisch": "Frisch", "contract": "Contract", "play": "Play"}
COSTLIEST = 3  # decisions listed per player
SHOWN_OPTIONS = 3  # of a decision with a verdict, beside the chosen one
Review = dict[str, Any]  # review_json's document
DEFAULT_REVIEW = ReviewSettings()
# The budget's bounds, as ``ReviewSettings`` checks them, so the command line refuses the same.
DEALS_RANGE = (2, 10_000)
PAR_PLAYOUTS_RANGE = (0, 1_000)  # and never 1: ReviewSettings refuses a par without an error


def review_settings(deals: int | None = None, par_playouts: int | None = None) -> ReviewSettings:
    """The default budget with what the command line changed."""
    changed = {name: value for name, value in (("deals", deals), ("par_playouts", par_playouts)) if value is not None}
    return replace(DEFAULT_REVIEW, **changed)


def run_review(path: Path, hand: int | None, settings: ReviewSettings, seed: int, as_json: bool,
               console: Console) -> int:
    """Review the record at ``path`` (only hand ``hand`` where given) and print it; exit status 1
    and one line for a record that cannot be read or replayed, as ``whist analyze`` gives."""
    try:
        record = load_record(path)
        partnerships = replay(record).match.game.rules.traits.partnerships
        with progress("Reviewing", "actions", after=1.0) as on_step:
            review = review_json(review_record(record, seed=seed, settings=settings,
                                               hands=None if hand is None else {hand}, on_step=on_step))
    except WhistError as error:
        return refused_input("whist analyze", str(error), as_json)
    if hand is not None and not review["hands"]:
        return refused_input("whist analyze", f"{shown_path(path)} has no hand {hand} that is over", as_json)
    if as_json:
        print(json.dumps(review, ensure_ascii=False))
        return 0
    console.print(heading(shown_path(path), review, partnerships), markup=False, highlight=False)
    console.print(players_table(review))
    console.print(costs_table(review))
    console.print(costliest_table(review))
    for reviewed in review["hands"]:
        console.print(hand_report(reviewed, review))
    return 0


def heading(shown: str, review: Review, partnerships: bool) -> str:
    """What was reviewed, how a decision is valued (``partnerships``: by its side's net points),
    the budget and the thresholds."""
    budget = review["budget"]
    measure = ("its side could expect from the hand (its points less the other side's)" if partnerships
               else "its player could expect from the hand")
    text = (f"{shown}: {review['title']}, {count_text(len(review['hands']), 'hand')} reviewed. Each decision is "
            f"valued by the points {measure}, given what the player knew then: "
            f"{count_text(budget['deals'], 'deal')} drawn a decision (seed {budget['seed']})")
    if budget["par_playouts"]:
        times = "once" if budget["par_playouts"] == 1 else f"{budget['par_playouts']} times"
        text += f"; a hand's par: the deal played {times} by expert bots from every seat"
    marks = ", ".join(f"{points:g} ({name})" for name, points in review["thresholds"].items())
    return (text + ". A decision's cost is the best option's value less the chosen one's; verdicts from a cost of "
            f"{marks}, where the cost is clearly more than the sampling error.")


def players_table(review: Review) -> Table:
    """Per player: decisions, accuracy, mean cost and the verdicts' counts."""
    table = Table(title=Text("Players", style="bold"), title_justify="left", show_edge=False,
                  caption="Accuracy: 0 to 100 a decision, averaged; cost: the mean of the points lost against the best "
                          "option", caption_justify="left")
    for column in ("Player", "Decisions", "Accuracy", "Cost", "Inaccuracies", "Mistakes", "Blunders"):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for seat in review["seats"]:
        verdicts = seat["verdicts"]
        table.add_row(Text(seat["name"]), str(seat["decisions"]), _figure(seat["accuracy"], 1),
                      _figure(seat["mean_cost"], 2),
                      *(Text(str(verdicts[v]), style=VERDICT_STYLES[v] if verdicts[v] else "") for v in VERDICTS))
    return table


def costs_table(review: Review) -> Table:
    """Per player: the points lost in each kind of decision, and the game's score beside its par."""
    phases = _phases(review)
    table = Table(title=Text("Points lost by kind of decision; score and par", style="bold"), title_justify="left",
                  show_edge=False, caption_justify="left")
    par = all(seat["par"] is not None for seat in review["seats"])
    table.caption = "Par: the sum of the hands' pars, ± its error" if par else "No par was asked for"
    for column in ("Player", *(PHASE_TITLES[p] for p in phases), "Score", *(["Par"] * par)):
        table.add_column(column, justify="left" if column == "Player" else "right")
    points = Points.of(review)
    for seat in review["seats"]:
        table.add_row(Text(seat["name"]), *(points.amount(seat["cost_by_phase"][p]) for p in phases),
                      points.amount(seat["score"]), *([points.par(seat["par"], seat["par_error"])] * par))
    return table


def costliest_table(review: Review) -> Table:
    """Each player's costliest decisions (at most ``COSTLIEST``), costliest first."""
    table = Table(title=Text("Costliest decisions", style="bold"), title_justify="left", show_edge=False)
    for column in ("Player", "Hand", "Decision", "Chosen", "Best", "Cost", "Verdict"):
        table.add_column(column, justify="right" if column in ("Hand", "Cost") else "left")
    decisions = {(h["number"], d["step"]): d for h in review["hands"] for d in h["decisions"]}
    points = Points.of(review)
    for seat in review["seats"]:
        for costly in seat["costliest"][:COSTLIEST]:
            decision = decisions[costly["hand"], costly["step"]]
            table.add_row(Text(seat["name"]), str(costly["hand"]), _when(decision), action_text(decision["chosen"]),
                          action_text(decision["options"][0]["action"]),
                          points.cost(costly["cost"], costly["verdict"]), _verdict(decision))
    if not table.rows:
        table.caption = "None: no decision was costly enough for a verdict"
        table.caption_justify = "left"
    return table


def hand_report(hand: dict[str, Any], review: Review) -> Group:
    """One hand: its decisions with a verdict (each option's value) and where each seat's points went."""
    names = review["players"]
    title = f"Hand {hand['number']} (dealer {names[hand['dealer']]})" + (": cancelled" if hand["cancelled"] else "")
    parts: list[RenderableType] = [Text(title, style="bold")]
    judged = [d for d in hand["decisions"] if d["verdict"]]
    points = Points.of(review)
    if judged:
        table = Table(show_edge=False, caption_justify="left",
                      caption="Options: the best three and the one chosen, with the points expected after each")
        for column in ("Decision", "Player", "Chosen", "Options", "Cost", "Verdict"):
            table.add_column(column, justify="right" if column == "Cost" else "left", no_wrap=True)
        for d in judged:
            table.add_row(_when(d), Text(names[d["seat"]]), action_text(d["chosen"]),
                          options_text(d["options"], d["chosen"], points),
                          points.cost(d["cost"], d["verdict"], d["cost_error"]), _verdict(d))
        parts.append(table)
    parts.append(points_table(hand, names, points))
    decisions = len(hand["decisions"])
    parts.append(Text(f"{count_text(decisions, 'decision')} reviewed, {len(judged)} with a verdict.", style="dim"))
    return Group(*parts)


def points_table(hand: dict[str, Any], names: Sequence[str], points: Points) -> Table:
    """Where each seat's points went: score = par - decisions' cost + the rest (the others' play
    and how the cards lay); without a par (``--par-playouts 0``) the score and the cost alone."""
    par = hand["par"] is not None
    caption = ("Score = par - decisions' cost + the rest (the others' play and how the cards lay)" if par
               else "No par was asked for (--par-playouts 0)")
    table = Table(title="Where the points went", title_justify="left", show_edge=False, caption=caption,
                  caption_justify="left")
    for column in ("Player", "Score", *(["Par"] * par), "Decisions' cost", *(["Rest"] * par)):
        table.add_column(column, justify="left" if column == "Player" else "right")
    for name, seat in zip(names, hand["seats"], strict=True):
        score, cost = points.amount(seat["score"]), points.amount(seat["decisions_cost"])
        if par:
            table.add_row(Text(name), score, points.par(seat["par"], seat["par_error"]), cost,
                          points.amount(seat["rest"], "+"))
        else:
            table.add_row(Text(name), score, cost)
    return table


def options_text(options: Sequence[dict[str, Any]], chosen: int, points: Points) -> Text:
    """The best options (``SHOWN_OPTIONS``) and the chosen one, a line each with its value
    (every option is in the JSON)::

        A♠ 6.0
        10♠ 4.2
        2♠ 4.0
        … 5♥ -10.0
    """
    lines = [action_text(o["action"]) + f" {points.amount(o['value'])}" for o in options[:SHOWN_OPTIONS]]
    if all(o["action"] != chosen for o in options[:SHOWN_OPTIONS]):
        picked = next(o for o in options if o["action"] == chosen)
        lines.append(Text("… ") + action_text(chosen) + f" {points.amount(picked['value'])}")
    return Text("\n").join(lines)


def _phases(review: Review) -> list[str]:
    """The kinds of decision the reviewed hands held (Classic Whist has no bidding; a Frisch
    happens only when everyone passes), in the order of a hand."""
    present = {d["phase"] for hand in review["hands"] for d in hand["decisions"]}
    return [p for p in PHASE_TITLES if p in present]


def _when(decision: dict[str, Any]) -> str:
    """``trick 4`` for a card played, else the kind of decision (``contract``)."""
    return f"trick {decision['trick']}" if decision["phase"] == "play" else decision["phase"]


def _verdict(decision: dict[str, Any]) -> Text:
    verdict = decision["verdict"]
    return Text(("proven " if decision["proven"] else "") + verdict, style=VERDICT_STYLES[verdict])


def _figure(value: float | None, digits: int) -> str:
    """A number as the JSON gives it (a whole number stays whole), or a dash for none."""
    if value is None:
        return "-"
    return str(value) if isinstance(value, int) else f"{value:.{digits}f}"


@dataclass(frozen=True)
class Points:
    """Points as the tables write them: to a tenth, or a hundredth in a game whose thresholds are
    fractions of a point (Classic Whist's net points move by one a trick)."""

    digits: int

    @classmethod
    def of(cls, review: Review) -> Points:
        return cls(2 if min(review["thresholds"].values()) < 1 else 1)

    def amount(self, value: float, sign: str = "") -> str:
        """``12.5``; a whole number as the JSON gives it (a score: ``-10``); ``sign="+"``: ``+2.5``."""
        if isinstance(value, int):
            return f"{value:{sign}}"
        return f"{value:{sign}.{self.digits}f}" if value else "0"

    def par(self, par: float | None, error: float | None) -> str:
        return "" if par is None else f"{self.amount(par)} ± {self.amount(error or 0.0)}"

    def cost(self, cost: float, verdict: str | None, error: float | None = None) -> Text:
        text = f"-{self.amount(cost)}" + ("" if error is None else f" ± {self.amount(error)}")
        return Text(text, style=VERDICT_STYLES.get(verdict or "", ""))
