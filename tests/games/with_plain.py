"""The ``whist`` command with Plain Tricks registered first, as a game from outside the package
is: ``python tests/games/with_plain.py rules plain``. The server's bots think in its own process
(``--bot-workers 0``), since bot workers start afresh, without this registration."""

from __future__ import annotations

import sys
from pathlib import Path

if __name__ == "__main__":  # not on import: pytest's doctest collection imports every module
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from plain import PlainTricks

    from israeli_whist.core.games import register_game

    register_game(PlainTricks)
    from israeli_whist.cli.main import main

    if "serve" in sys.argv and "--bot-workers" not in sys.argv:
        sys.argv += ["--bot-workers", "0"]
    main()
