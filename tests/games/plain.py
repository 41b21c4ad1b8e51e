"""Plain Tricks, a test-only fourth game: four players, thirteen cards, no trump, no bidding;
each seat scores one point a trick, and the game is a set number of hands. This module and one
``register_game(PlainTricks)`` call are all it takes (docs/architecture.md#adding-a-game); the
tests make that call themselves, and take it back, so that the other tests see three games.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import NO_TRUMP
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules, option
from israeli_whist.core.state import HandState
from israeli_whist.core.traits import GameTraits


@dataclass(frozen=True)
class PlainRules(Rules):
    GAME: ClassVar[str] = "plain"
    traits: ClassVar[GameTraits] = GameTraits(contracts=False, over_under=False, players_hint="four players")

    hands: int = option(4, "Hands in a game", low=1, high=100, common=True)

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {"standard": {}, "short": {"hands": 1}}

    @property
    def players(self) -> int:
        return 4


class PlainTricks(HandGame):
    title = "Plain Tricks"
    rules_type = PlainRules
    rules: PlainRules

    def hand_size(self, hand_number: int) -> int:
        return 13

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        leader = (dealer + 1) % 4
        return {"phase": Phase.PLAY, "player": leader, "leader": leader, "trump": NO_TRUMP}

    def legal_other(self, state: HandState) -> Sequence[Action]:
        return []

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        return state.tricks_won

    def hands_in_game(self) -> int | None:
        return self.rules.hands

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        return played >= self.rules.hands

    def hands_options(self, hands: int) -> dict[str, str]:
        return {"hands": str(hands)}
