"""The bots: every bot sees only its seat's view (``israeli_whist.core.views``). It imports
``core`` alone; ``rl`` and the front ends import it."""

from israeli_whist.bots.base import Bot, RandomBot
from israeli_whist.bots.registry import BOT_LEVELS, make_bot
from israeli_whist.bots.runner import play_match, play_to_end

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "play_match", "play_to_end"]
