"""The bots: every bot sees only its seat's view (``israeli_whist.core.views``).

The public path for code outside this package (a researcher's script, a notebook, an entry
point's bot) is this package itself::

    from israeli_whist.bots import BOT_LEVELS, Bot, make_bot

``make_bot(level, seed)`` builds a bot of any level (``BOT_LEVELS``, budgets such as
``expert@100ms``, settings, entry points: ``players.registry``), ``Bot`` is the interface a
bot of one's own implements, and ``play_match``/``play_to_end`` drive a game with bots.

Inside, five floors, each importing only the floors below it (an import-linter layers contract
in pyproject.toml holds them):

- ``review``: a finished game's review, every decision valued in expected points from what its
  seat knew, the deal's par, and hints at the table (docs/review.md);
- ``matches``: whole games and many of them: the runner, tournaments, the analysis of a saved
  game, statistics, the ladder's ratings, the worker processes;
- ``players``: the bots themselves: the interface, the random and basic bots, the levels, the
  expert, and the registry that finds a bot by its level;
- ``search``: searching deals: sampling, determinizing, inference from the bids, playouts, the
  time budget, the individual (paranoid) search, the double-dummy solver, the expert's deal
  scoring and the analysis's card judgement;
- ``judgement``: what a player reads from a hand and a view without searching: basic
  knowledge, the basic bot's bidding and play (and its compiled estimate), the learned trick
  estimator and its features.

It imports ``core`` alone; ``rl`` and the front ends import it. Modules of this tree import from
the module that defines a name, never from this package: its imports load every floor.
"""

from israeli_whist.bots.matches.runner import play_match, play_to_end
from israeli_whist.bots.players.base import Bot, RandomBot
from israeli_whist.bots.players.registry import BOT_LEVELS, make_bot

__all__ = ["BOT_LEVELS", "Bot", "RandomBot", "make_bot", "play_match", "play_to_end"]
