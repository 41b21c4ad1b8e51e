"""The players, above the search: the ``Bot`` interface, the random and basic bots, the levels,
the expert, and the registry (``make_bot``, ``check_level``), the one gate for every level a
person or a program names."""
