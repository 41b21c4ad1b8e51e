"""The terminal front end, the ``whist`` command (``cli/main.py``): play, rules, check, analyze,
serve, tournament, selfplay and train. It imports ``core``, ``bots`` and ``rl`` (Ray, self-play
and training, inside the commands that use them), and ``server`` for ``whist serve`` alone: the
one crossing between the two front ends, which the import-linter contract names."""
