"""The one loop that lets bots act (israeli_whist.bots.matches.runner): steps, loops and the callback."""

from __future__ import annotations

from israeli_whist.bots.matches.runner import bot_action, bot_to_act, play_hand, play_match, play_to_end
from israeli_whist.bots.players.base import Bot, RandomBot
from israeli_whist.core.actions import Action
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.views import SeatView, seat_view


def random_bots(players: int, seed: int) -> dict[int, Bot]:
    return {seat: RandomBot(f"{seed}/{seat}") for seat in range(players)}


def test_a_step_is_none_at_a_person_s_turn_and_at_the_end() -> None:
    game = make_game("israeli", None, {"hands": "1"})
    match = Match.start(game, 3)
    bots = random_bots(4, 3)
    assert bot_to_act(match.hand, bots) is bots[match.current_player]
    assert bot_action(match.hand, {}) is None  # nobody plays the seat to act: a person's turn
    over = play_to_end(match, bots)
    assert over.over and bot_to_act(over.hand, bots) is None and bot_action(over.hand, bots) is None


def test_play_match_stops_at_a_person_and_tells_each_action() -> None:
    game = make_game("israeli", None, {"hands": "1"})
    start = Match.start(game, 4)
    person = (start.current_player + 2) % 4
    bots = {seat: bot for seat, bot in random_bots(4, 4).items() if seat != person}
    told: list[tuple[int, Action, Match]] = []
    stopped = play_match(start, bots, on_action=lambda seat, action, after: told.append((seat, action, after)))
    assert stopped.current_player == person
    assert len(told) == 2 and told[-1][2] is stopped
    replayed = start
    for seat, action, after in told:  # each action is told once, by the seat that took it, with the match it made
        assert replayed.current_player == seat
        replayed = replayed.apply(action)
        assert replayed == after


def test_play_match_asks_until_before_each_bot_turn() -> None:
    game = make_game("whistiti", None, {})
    start = Match.start(game, 5)
    stopped = play_match(start, random_bots(4, 5), until=lambda match: len(match.hand.history) >= 3)
    assert len(stopped.hand.history) == 3


class CountingBot(RandomBot):
    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.views: list[SeatView] = []

    def choose(self, view: SeatView) -> Action:
        self.views.append(view)
        return super().choose(view)


def test_play_hand_asks_each_bot_once_a_turn_with_its_own_view() -> None:
    game = make_game("classic", None, {})
    hand = game.new_hand(0, "runner", 0)
    bots = {seat: CountingBot(f"r/{seat}") for seat in range(4)}
    final = play_hand(hand, bots)
    assert final.is_terminal
    assert sum(len(bot.views) for bot in bots.values()) == len(final.history)
    replayed = hand
    for action in final.history:
        seat = replayed.player
        assert bots[seat].views.pop(0) == seat_view(replayed, seat)
        replayed = replayed.apply(action)
