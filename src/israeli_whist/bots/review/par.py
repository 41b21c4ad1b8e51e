"""A deal's par: the points each seat's cards are worth when expert bots play the deal from
every seat, from the same deal, dealer and face-up card, ``playouts`` times with other seeds,
given with the standard error of their mean. A seat's score against its par says what its
cards gave and what the table's play (its own decisions among it) took or added."""

from __future__ import annotations

from dataclasses import dataclass, replace

from israeli_whist.bots.matches.stats import mean_and_error
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings, budget_settings
from israeli_whist.bots.review.weighing import UNBOUNDED_SECONDS
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view


@dataclass(frozen=True)
class Par:
    mean: tuple[float, ...]  # by seat
    error: tuple[float, ...]
    playouts: int


def hand_points(final: HandState) -> tuple[float, ...]:
    """Each seat's points in a finished hand, as the review counts them: its own (Israeli Whist,
    Whistiti), or its side's less the other side's (Classic Whist, honours left out)."""
    points = final.scores()
    if not final.game.rules.traits.partnerships:
        return tuple(float(p) for p in points)
    players = len(points)
    return tuple(float(points[seat] - points[(seat + 1) % players]) for seat in range(players))


def deal_start(final: HandState) -> HandState:
    """The hand as dealt, before its first action."""
    return final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                 checked=False)


def hand_par(final: HandState, *, seed: str, playouts: int, deals: int) -> Par:
    """The deal of ``final`` played ``playouts`` times by expert bots drawing at most ``deals``
    deals a decision."""
    start = deal_start(final)
    rows = [hand_points(_played(start, f"{seed}/{n}", deals)) for n in range(playouts)]
    seats = range(start.players)
    spreads = [mean_and_error([row[seat] for row in rows]) for seat in seats]
    return Par(tuple(m for m, _ in spreads), tuple(e for _, e in spreads), playouts)


def par_settings(deals: int) -> ExpertSettings:
    """The anytime expert (racing, exact endings) with a deal cap instead of a clock: its
    choices depend on the seed alone."""
    settings = budget_settings(UNBOUNDED_SECONDS).with_deals(deals)
    return replace(settings, min_deals=min(settings.min_deals, deals))


def _played(start: HandState, seed: str, deals: int) -> HandState:
    settings = par_settings(deals)
    bots = [ExpertBot(f"{seed}/{seat}", settings) for seat in range(start.players)]
    state = start
    while not state.is_terminal:
        state = state.apply(bots[state.player].choose(seat_view(state, state.player)))
    return state
