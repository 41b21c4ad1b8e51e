"""Drive a game with bots in some or all seats: the one loop that asks bots for their actions.

Every place that lets bots act uses it: the terminal game and ``whist watch`` (``play_match``
with a callback that narrates each action), the tournament (``play_hand``, one deal at a
time), and the server, which awaits between steps and so calls ``bot_to_act`` and
``bot_action`` itself. Each bot is asked exactly once for each of its turns, so its seeded
randomness is used the same way whoever drives it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.actions import Action
from israeli_whist.core.match import Match
from israeli_whist.core.state import HandState
from israeli_whist.core.views import seat_view

# The bot playing each seat that a bot plays now; a seat missing from it waits for a person.
BotSeats = Mapping[int, Bot]
# Or the bots as the match stands: an event board's are made afresh for each decision, seeded from
# the board, the seat and the step (``israeli_whist.bots.matches.boardbots``).
BotsAt = Callable[[Match], BotSeats]
# Told after each bot action: the seat that acted, its action, and the match it made.
OnAction = Callable[[int, Action, Match], None]


def bot_to_act(hand: HandState, bots: BotSeats) -> Bot | None:
    """The bot whose turn it is; None when the hand is over or a person is to act. (A finished
    ``Match`` keeps its last hand, which is over, so ``match.hand`` serves for a match too.)"""
    return None if hand.is_terminal else bots.get(hand.player)


def bot_action(hand: HandState, bots: BotSeats) -> Action | None:
    """The next bot action of ``hand``; None when the hand is over or a person is to act."""
    bot = bot_to_act(hand, bots)
    return None if bot is None else bot.choose(seat_view(hand, hand.player))


def play_hand(hand: HandState, bots: BotSeats) -> HandState:
    """Let the bots act while it is a bot's turn in this one hand."""
    while (action := bot_action(hand, bots)) is not None:
        hand = hand.apply(action)
    return hand


def bots_at(bots: BotSeats | BotsAt, match: Match) -> BotSeats:
    """The bots that play ``match`` as it stands."""
    return bots(match) if callable(bots) else bots


def play_match(match: Match, bots: BotSeats | BotsAt, until: Callable[[Match], bool] | None = None,
               on_action: OnAction | None = None) -> Match:
    """Let the bots act while it is a bot's turn; stop at a human seat, the end, or when ``until``
    (asked before each bot turn) says so.

    ``on_action`` is told each action once it is applied, so a caller that is interrupted
    (Ctrl-C, a player who leaves at the end of a hand) still knows the match as it stands.
    """
    while (bot := bot_to_act(match.hand, bots_at(bots, match))) is not None and (until is None or not until(match)):
        seat = match.hand.player
        action = bot.choose(seat_view(match.hand, seat))
        match = match.apply(action)
        if on_action is not None:
            on_action(seat, action, match)
    return match


def play_to_end(match: Match, bots: BotSeats) -> Match:
    """A whole game with a bot in every seat."""
    missing = set(range(match.game.players)) - set(bots)
    if missing:
        raise ValueError(f"No bot for seats {sorted(missing)}")
    return play_match(match, bots)
