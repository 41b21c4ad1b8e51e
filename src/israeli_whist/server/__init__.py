"""The web app: tables where people and bots play together, over HTTP and WebSockets.

It imports ``core``, ``bots`` and ``rl`` (Ray as a backend, for bots that think on a cluster);
nothing imports it but ``whist serve``. The engine decides every rule; this package checks who
may act, stores every action before anyone hears of it, and sends each seat only its own view.
"""
