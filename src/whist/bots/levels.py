"""Difficulty levels for tables with people: ``easy`` < ``medium`` < ``hard`` < ``expert``.

- ``easy`` plays as the basic bot but makes a random legal move a third of the time.
- ``medium`` is the basic bot's rules of thumb.
- ``hard`` searches as the expert does with a quarter of its budget.
- ``expert`` is ``whist.bots.expert.ExpertBot`` at its default budget.
"""

from __future__ import annotations

from whist.bots.basic import BasicBot
from whist.bots.expert import ExpertBot, ExpertSettings
from whist.core.actions import Action
from whist.core.views import SeatView

EASY_SLIP = 1 / 3  # chance that the easy bot plays any legal move instead of its rules' choice


class EasyBot(BasicBot):
    level = "easy"

    def choose(self, view: SeatView) -> Action:
        if self.rng.random() < EASY_SLIP:
            return self.rng.choice(view.legal_actions)
        return super().choose(view)


class MediumBot(BasicBot):
    level = "medium"


class HardBot(ExpertBot):
    level = "hard"
    settings = ExpertSettings(play_deals=4, bid_deals=6, frisch_deals=3)
