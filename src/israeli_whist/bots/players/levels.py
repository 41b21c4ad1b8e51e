"""Difficulty levels for tables with people: ``easy`` < ``medium`` < ``hard`` < ``expert``,
and ``expert-2026``, the fixed reference the expert is measured against.

- ``easy`` plays as the basic bot but makes a random legal move a third of the time.
- ``medium`` is the basic bot's rules of thumb.
- ``hard`` searches a fixed number of deals, with the settings of ``expert-2026`` (below):
  fast (about 2 ms a decision at the median) and the same on any machine.
- ``expert`` is ``israeli_whist.bots.players.expert.ExpertBot`` at its default time budget
  (``israeli_whist.bots.players.expert.DEFAULT_BUDGET`` CPU seconds a decision).
- ``expert-2026`` is the expert as it was before it had a time budget: 16 deals a card, 24 a
  bid or call, 10 a Frisch card, Classic Whist solved exactly from 4 tricks out. It makes the
  same choices for the same seed on any machine, and it does not change: a yardstick.

``hard`` and ``expert-2026`` play alike today, but they are two classes: ``hard`` is a level
that may be retuned (and its step measured again, ``bench/ladder.py``), ``expert-2026`` is not.
"""

from __future__ import annotations

from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings
from israeli_whist.core.actions import Action
from israeli_whist.core.views import SeatView

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
    settings = ExpertSettings()


class Expert2026Bot(ExpertBot):
    level = "expert-2026"
    settings = ExpertSettings()
