"""Players: every bot sees only its seat's view (``whist.core.views``)."""

from whist.bots.base import Bot, RandomBot
from whist.bots.registry import BOT_LEVELS, make_bot
from whist.bots.runner import play_match, play_to_end

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "play_match", "play_to_end"]
