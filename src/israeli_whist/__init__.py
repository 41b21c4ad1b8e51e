"""whist: Israeli Whist, Classic Whist and Whistiti: the rules, bots, research interfaces, a
terminal and a web app, in layers whose imports point one way (docs/architecture.md)::

    core  <-  bots  <-  rl  <-  cli | server

- ``core``: the rules (cards, rule options and each game's traits, states, scoring, views,
  records, the games' registry), on the standard library alone;
- ``bots``: the bots, from the judgement a player uses through the search to the players and
  the matches they play;
- ``rl``: research interfaces (PettingZoo, Gymnasium, OpenSpiel), self-play, training, and Ray
  as a backend;
- ``cli`` and ``server``: the front ends, the ``whist`` command and the web app, which never
  import each other but for ``whist serve``.

import-linter's contracts in pyproject.toml hold the layers (``tests/test_architecture.py``).
"""

__version__ = "0.1.0"
