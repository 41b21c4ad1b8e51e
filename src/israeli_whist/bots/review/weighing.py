"""Every option of one decision valued in expected points from what the deciding seat knew.

The expert's own search (``israeli_whist.bots.players.expert.ExpertBot.weigh``) does the work:
deals are drawn uniformly among those consistent with the seat's view (``SeatView``: it never
holds a hidden card), every option is scored on the same deals (common random numbers), the
others' bids and calls by the basic bot's rules and the cards by the expert's playout policy, as
the expert imagines them when it plays. The review differs from the expert at the table only in
its budget: a fixed number of deals, every option kept to the end (no racing), no slope added to
contract bids, and the option actually chosen always weighed, even where the expert would not
have looked at it.

Values are the seat's points for the hand (Israeli Whist, Whistiti); in Classic Whist, its side's
net points for the hand (the side's points less the other side's: one a trick either way, two
across the seventh trick), honours left out, since no decision changes who holds them.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from israeli_whist.bots.matches.stats import mean_and_error
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings, card_runs
from israeli_whist.bots.search.budget import Race
from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.views import SeatView

# A time budget no decision reaches: it selects the expert's compiled paths (cards in C, deals
# drawn in C), while the deal count alone ends the search, so the values do not depend on the
# machine's speed.
UNBOUNDED_SECONDS = 1e9
CLASSIC_EXACT_TRICKS = 6  # Classic Whist: tricks left from which play is solved exactly
CLASSIC_TRICKS = 13


@dataclass(frozen=True)
class OptionValue:
    action: Action
    value: float  # mean expected points over the deals
    error: float  # its standard error


@dataclass(frozen=True)
class Weighing:
    """One decision weighed: its options best first, and the chosen one against the best."""

    options: tuple[OptionValue, ...]
    chosen: Action
    value: float
    best: float
    cost: float
    cost_error: float  # standard error of the paired difference best - chosen
    deals: int


def weighing_settings(deals: int) -> ExpertSettings:
    base = ExpertSettings().with_deals(deals)
    return replace(base, time_budget=UNBOUNDED_SECONDS, min_deals=deals, racing=False, bid_slope=0.0,
                   exact_tricks=CLASSIC_EXACT_TRICKS)


def classic_net_points(side_tricks: float) -> float:
    """A Classic Whist side's points for the hand less the other side's, from its tricks."""
    odd = side_tricks - CLASSIC_TRICKS // 2
    return odd if odd >= 1 else odd - 1


def weigh_options(view: SeatView, also: tuple[Action, ...], *, seed: str, deals: int,
                  primer: SeatView | None = None) -> tuple[Race, dict[Action, Action]] | None:
    """The expert's search of the decision ``view`` shows, its options and ``also`` each scored
    on the same ``deals`` deals, and (in card play) each legal card's run: the card weighed for
    it. None for a forced decision. ``primer``: the seat's view at the start of the hand, for what
    it saw then and remembers (Classic Whist's turned-up trump)."""
    bot = ExpertBot(seed, weighing_settings(deals))
    if primer is not None:
        bot.remembered(primer)
    runs = card_runs(view) if view.phase == Phase.PLAY else {}
    scale = classic_net_points if view.phase == Phase.PLAY and view.rules.traits.partnerships else None
    race = bot.weigh(view, also=tuple(runs.get(action, action) for action in also), scale=scale)
    if race is None:
        return None
    return race, runs or {action: action for action in race.candidates}


def option_values(race: Race, runs: dict[Action, Action], chosen: Action | None = None) -> list[OptionValue]:
    """Every option with its value, best first (``chosen`` first among equals, then by action)."""
    spreads = {action: mean_and_error(scores) for action, scores in race.scores.items()}
    return sorted((OptionValue(action, *spreads[weighed]) for action, weighed in runs.items()),
                  key=lambda option: (-option.value, option.action != chosen, option.action))


def weigh_choice(view: SeatView, chosen: Action, *, seed: str, deals: int,
                 primer: SeatView | None = None) -> Weighing | None:
    """The options of the decision ``view`` shows, ``chosen`` among them, and the chosen one
    against the best; None for a forced decision."""
    weighed = weigh_options(view, (chosen,), seed=seed, deals=deals, primer=primer)
    if weighed is None:
        return None
    race, runs = weighed
    options = option_values(race, runs, chosen)
    weighed_chosen, weighed_best = runs[chosen], runs[options[0].action]
    chosen_scores, best_scores = race.scores[weighed_chosen], race.scores[weighed_best]
    differences = [b - c for b, c in zip(best_scores, chosen_scores, strict=True)]
    value, best = mean_and_error(chosen_scores)[0], options[0].value
    return Weighing(tuple(options), chosen, value, best, best - value, mean_and_error(differences)[1], race.deals)
