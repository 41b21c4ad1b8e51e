"""Difficulty levels for tables with people: ``easy`` < ``medium`` < ``hard`` < ``expert``,
and ``expert-2026``, the fixed reference the expert is measured against.

- ``easy`` plays as the basic bot but makes a random legal move a third of the time.
- ``medium`` is the basic bot's rules of thumb.
- ``hard`` is the anytime expert with a tenth of the expert's time.
- ``expert`` is ``whist.bots.expert.ExpertBot`` at its default time budget
  (``whist.bots.expert.DEFAULT_BUDGET`` CPU seconds a decision).
- ``expert-2026`` is the expert as it was before it had a time budget: 16 deals a card, 24 a
  bid or call, 10 a Frisch card, Classic Whist solved exactly from 4 tricks out. It makes the
  same choices for the same seed on any machine, and it does not change: a yardstick.
"""

from __future__ import annotations

from whist.bots.basic import BasicBot
from whist.bots.expert import DEFAULT_BUDGET, ExpertBot, ExpertSettings, budget_settings
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
    settings = budget_settings(DEFAULT_BUDGET / 10)


class Expert2026Bot(ExpertBot):
    level = "expert-2026"
    settings = ExpertSettings()
