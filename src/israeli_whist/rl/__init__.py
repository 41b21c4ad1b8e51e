"""Research interfaces: the three games as PettingZoo, Gymnasium and OpenSpiel environments, and
self-play data for learners. Needs the optional extra: ``pip install 'israeli-whist[rl]'``."""
