"""Find a bot by its level name."""

from __future__ import annotations

from whist.bots.base import Bot, RandomBot
from whist.bots.basic import BasicBot
from whist.bots.expert import ExpertBot
from whist.bots.levels import EasyBot, HardBot, MediumBot
from whist.core.errors import WhistError

# ``random`` and ``basic`` are the baselines; the other four are the levels offered at tables.
BOT_LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot, "basic": BasicBot,
    "easy": EasyBot, "medium": MediumBot, "hard": HardBot, "expert": ExpertBot,
}


def make_bot(level: str, seed: int | str = 0) -> Bot:
    if level not in BOT_LEVELS:
        raise WhistError(f"Unknown bot level {level!r}; levels: {', '.join(BOT_LEVELS)}")
    return BOT_LEVELS[level](seed)
