"""Write the golden records in ``tests/golden``: whole games played by seeded random bots.

Run from the repository root: ``python tests/golden/make_golden.py``. The records are checked
in and ``tests/core/test_golden.py`` replays them. Run this again only when a change to the
engine is meant to change games (a new shuffle, a rule fix), and review the diff.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, NamedTuple

from israeli_whist.bots.matches.runner import play_to_end
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.actions import PASS, Action
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import dump_record, to_record
from israeli_whist.core.views import SeatView

HERE = Path(__file__).parent


class Golden(NamedTuple):
    name: str
    game: str
    preset: str | None
    options: dict[str, Any]
    seed: int
    pass_bias: float = 0.0  # above 0: bots pass that often in the trump auction, to reach a Frisch


GOLDEN = [
    Golden("israeli_standard", "israeli", "standard", {}, 101),
    Golden("israeli_achim", "israeli", "achim", {}, 102),
    Golden("israeli_pagat", "israeli", "pagat", {}, 103),
    Golden("israeli_three_random_card", "israeli", "three_random_card", {}, 104),
    Golden("israeli_three_short_deck_40", "israeli", "three_short_deck_40", {}, 105),
    Golden("israeli_frisch", "israeli", None, {"hands": 4, "frisch_direction": "rotating"}, 106, 0.8),
    Golden("classic_standard", "classic", "standard", {}, 107),
    Golden("classic_honours_rubber", "classic", None, {"honours": True, "rubber": True}, 108),
    Golden("whistiti_4", "whistiti", "standard", {}, 109),
    Golden("whistiti_7_up_down", "whistiti", None, {"players": 7, "schedule": "up_down"}, 110),
]


class PassingBot(Bot):
    """A random bot that passes in the trump auction with a given probability."""

    level = "passing"

    def __init__(self, seed: int | str, pass_bias: float) -> None:
        super().__init__(seed)
        self.random = make_bot("random", seed)
        self.pass_bias = pass_bias

    def choose(self, view: SeatView) -> Action:
        if PASS in view.legal_actions and self.rng.random() < self.pass_bias:
            return PASS
        return self.random.choose(view)


def play(golden: Golden, seed: int) -> Match:
    game = make_game(golden.game, golden.preset, golden.options)
    bots: dict[int, Bot] = {
        seat: PassingBot(f"{seed}/bot/{seat}", golden.pass_bias) if golden.pass_bias
        else make_bot("random", f"{seed}/bot/{seat}")
        for seat in range(game.players)}
    return play_to_end(Match.start(game, seed), bots)


def has_frisch_and_cancel(match: Match) -> bool:
    return any(r.final.frisch_round > 0 for r in match.results) and any(r.cancelled for r in match.results)


def main() -> None:
    for golden in GOLDEN:
        seed = golden.seed
        match = play(golden, seed)
        while golden.pass_bias and not has_frisch_and_cancel(match):
            seed += 1000
            match = play(golden, seed)
        players = [f"Random {i + 1}" for i in range(match.game.players)]
        path = HERE / f"{golden.name}.json"
        dump_record(to_record(match, players), path)
        print(f"{path.name}: seed {seed}, {len(match.results)} hands, totals {list(match.totals)}")


if __name__ == "__main__":
    main()
