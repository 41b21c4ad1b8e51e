"""The one interface every bot implements: it sees a seat's view, never the full state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar

from israeli_whist.core.actions import Action
from israeli_whist.core.views import SeatView

# A bot's value of some of its legal actions, in its own units (see ``Bot.choose_with_values``).
ActionValues = Mapping[Action, float]


class Bot(ABC):
    """A player program. ``choose`` is called only when ``view.is_my_turn``; it returns one
    of ``view.legal_actions``. Randomness comes only from the seed given at creation."""

    level: ClassVar[str] = ""

    def __init__(self, seed: int | str = 0) -> None:
        self.rng = random.Random(seed)

    @abstractmethod
    def choose(self, view: SeatView) -> Action:
        """The action to take in ``view``."""

    def choose_with_values(self, view: SeatView) -> tuple[Action, ActionValues | None]:
        """``choose``, and the bot's own value of each choice it weighed where it has them (the
        expert's search averages); None for a bot that chooses without valuing (the default).
        It uses the bot's randomness as ``choose`` does, so either gives the same action."""
        return self.choose(view), None


class RandomBot(Bot):
    """Any legal action, uniformly: a baseline, and a fuzzer for the engine."""

    level = "random"

    def choose(self, view: SeatView) -> Action:
        return self.rng.choice(view.legal_actions)
