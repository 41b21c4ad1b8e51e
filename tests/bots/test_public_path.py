"""``israeli_whist.bots`` is the public path for code outside the project (its docstring says so):
it hands on the names a researcher's script or entry point uses, as the floors define them."""

from __future__ import annotations

import israeli_whist.bots as bots
from israeli_whist.bots.matches import runner
from israeli_whist.bots.players import base, registry


def test_the_package_hands_on_the_names_the_floors_define() -> None:
    assert (bots.make_bot, bots.BOT_LEVELS, bots.Bot, bots.RandomBot) == (
        registry.make_bot, registry.BOT_LEVELS, base.Bot, base.RandomBot)
    assert (bots.play_match, bots.play_to_end) == (runner.play_match, runner.play_to_end)
    assert sorted(bots.__all__) == ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "play_match", "play_to_end"]


def test_a_bot_made_by_the_public_path_is_of_its_level() -> None:
    bot = bots.make_bot("basic", 3)
    assert isinstance(bot, bots.Bot) and type(bot) is bots.BOT_LEVELS["basic"]
