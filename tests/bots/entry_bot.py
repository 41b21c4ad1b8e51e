"""A researcher's own bot, outside the package, entered by its entry point ``entry_bot:make``
(``tests/bots/test_entry_points.py`` runs the commands from this folder, as a researcher would
from theirs)."""

from __future__ import annotations

from israeli_whist.bots.players.base import Bot
from israeli_whist.core.actions import Action
from israeli_whist.core.views import SeatView

MADE: list[int | str] = []  # the seeds this process made bots with, for the tests to read


class FirstOrAnyBot(Bot):
    """The first legal action half of the time, else any: weak, and it uses its seed."""

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions
        return legal[0] if self.rng.random() < 0.5 else self.rng.choice(legal)


def make(seed: int | str) -> Bot:
    MADE.append(seed)
    return FirstOrAnyBot(seed)
