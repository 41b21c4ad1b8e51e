"""Drive a game with bots in some or all seats."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from whist.bots.base import Bot
from whist.core.match import Match
from whist.core.views import seat_view


def play_match(match: Match, bots: Mapping[int, Bot], until: Callable[[Match], bool] | None = None) -> Match:
    """Let the bots act while it is a bot's turn; stop at a human seat, the end, or when ``until`` says so."""
    while not match.over and match.current_player in bots:
        if until is not None and until(match):
            break
        seat = match.current_player
        match = match.apply(bots[seat].choose(seat_view(match.hand, seat)))
    return match


def play_to_end(match: Match, bots: Mapping[int, Bot]) -> Match:
    """A whole game with a bot in every seat."""
    missing = set(range(match.game.players)) - set(bots)
    if missing:
        raise ValueError(f"No bot for seats {sorted(missing)}")
    return play_match(match, bots)
