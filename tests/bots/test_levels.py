"""The difficulty levels: what each level is, and the ratings the ladder measured for them."""

from __future__ import annotations

import pytest

from israeli_whist.bots.matches.ladder_ratings import LADDER_RATINGS
from israeli_whist.bots.players.expert import DEFAULT_BUDGET, ExpertBot, ExpertSettings
from israeli_whist.bots.players.levels import Expert2026Bot, HardBot
from israeli_whist.bots.players.registry import BOT_LEVELS, make_bot
from israeli_whist.core.games import GAMES


def test_hard_plays_with_the_settings_of_expert_2026() -> None:
    # The step from hard to expert is measured by the expert-vs-expert-2026 runs
    # (docs/benchmarks.md), which holds only while the two are the same: changing hard means
    # measuring that step again (bench/ladder.py --pairs hard-expert).
    assert HardBot.settings == Expert2026Bot.settings == ExpertSettings()
    assert not issubclass(Expert2026Bot, HardBot)  # the level may be retuned; the yardstick may not
    hard = make_bot("hard", 3)
    assert isinstance(hard, ExpertBot) and hard.settings.time_budget is None  # the same on any machine


def test_the_levels_are_the_bots_they_say() -> None:
    assert BOT_LEVELS["hard"] is HardBot and BOT_LEVELS["expert-2026"] is Expert2026Bot
    expert = make_bot("expert")
    assert isinstance(expert, ExpertBot) and expert.settings.time_budget == DEFAULT_BUDGET


def test_hard_with_a_budget_is_the_anytime_expert_at_that_budget() -> None:
    bot = make_bot("hard@50ms")
    assert isinstance(bot, HardBot) and bot.settings.time_budget == 0.05




@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_has_a_measured_rating_for_every_level(game: str) -> None:
    levels = LADDER_RATINGS[game]
    assert list(levels) == ["random", "easy", "medium", "hard", "expert"]
    assert levels["medium"][0] == 25.0  # the anchor: where a new player starts
    assert all(0 < sigma < 25 / 3 for _, sigma in levels.values())  # surer than a new player
    mu = {level: rating[0] for level, rating in levels.items()}
    # The ratings follow the ladder's order in every game (docs/benchmarks.md, "The ladder").
    assert mu["random"] < mu["easy"] < mu["medium"] < mu["hard"] < mu["expert"]
