"""The bots of an event board (``israeli_whist.core.duplicate``): the bot of seat s deciding at step k
(the actions taken so far in the game) is a fresh ``make_bot(level, decision_seed(table_seed, s, k))``.

A bot kept for the whole board would carry its randomness from one decision to the next, so its
answer would depend on what it was asked before; made afresh, its answer depends on the cards and
the play alone: the same play of a board gets the same answers in the terminal (``whist event
play``), on any server node, and at any time of the event.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass

from israeli_whist.bots.matches.runner import BotsAt, BotSeats
from israeli_whist.bots.players.base import Bot
from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.duplicate import actions_taken, decision_seed
from israeli_whist.core.match import Match


@dataclass(frozen=True)
class DecisionBots(Mapping[int, Bot]):
    """The bots of ``seats`` at one step of a table dealt from ``table_seed``; each is made when asked."""

    level: str
    table_seed: str
    seats: Set[int]
    step: int

    def __getitem__(self, seat: int) -> Bot:
        if seat not in self.seats:
            raise KeyError(seat)
        return make_bot(self.level, decision_seed(self.table_seed, seat, self.step))

    def __iter__(self) -> Iterator[int]:
        return iter(sorted(self.seats))

    def __len__(self) -> int:
        return len(self.seats)


def board_bots(level: str, table_seed: str, seats: Set[int]) -> BotsAt:
    """The bots of ``seats`` at a table dealt from ``table_seed`` (``core.duplicate.board_seed``), for
    ``runner.play_match``: at each state of the match, those of its step."""

    def at(match: Match) -> BotSeats:
        return DecisionBots(level, table_seed, frozenset(seats), actions_taken(match))

    return at
