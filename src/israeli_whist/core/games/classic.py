"""Classic Whist (docs/rules.md#classic-whist): partnerships, a turned-up trump, odd tricks to a
target, honours and rubbers: its rules and presets, its hooks, its scoring and its score sheet's
entry; ``israeli_whist.core.games`` registers it."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, cast

from israeli_whist.core.actions import Action, Phase
from israeli_whist.core.cards import ACE, JACK, KING, QUEEN, make_card
from israeli_whist.core.errors import IllegalActionError, RulesError
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.rules import Rules, option
from israeli_whist.core.sheetentry import (
    EntryScore,
    SheetEntry,
    SheetError,
    SheetHand,
    check_range,
    check_tricks,
    no_unknown_keys,
    numbers,
    revokes_of,
)
from israeli_whist.core.state import HandState
from israeli_whist.core.traits import GameTraits

HONOUR_RANKS = (ACE, KING, QUEEN, JACK)
CLASSIC_REVOKE_POINTS = 3  # docs/rules-notes.md: the other side adds three points for each revoke
HONOURS = 4  # A K Q J of trumps, all dealt in Classic Whist


# Scoring --------------------------------------------------------------------------------------


def classic_trick_points(tricks_by_side: Sequence[int]) -> tuple[int, int]:
    """Points of sides (0+2, 1+3): the side with more tricks scores one per trick over six."""
    a, b = tricks_by_side
    return (max(0, a - 6), max(0, b - 6))


def classic_honour_points(honours_held: int) -> int:
    """A side holding all four of A K Q J of trumps scores 4, three of them 2."""
    return {4: 4, 3: 2}.get(honours_held, 0)


# The score sheet's entry ---------------------------------------------------------------------


@dataclass(frozen=True)
class ClassicEntry(SheetEntry):
    """One hand of Classic Whist: tricks of each side (seats 0+2, 1+3), the honours each side
    held (only when the sheet counts honours), and revokes by each side.

    >>> ClassicEntry.from_dict({"tricks": [8, 5]}).to_dict()
    {'tricks': [8, 5]}
    """

    tricks: tuple[int, ...]
    honours: tuple[int, ...] | None = None
    revokes: tuple[int, ...] = ()

    FIELDS: ClassVar[tuple[str, ...]] = ("tricks", "honours", "revokes")

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"tricks": list(self.tricks)}
        if self.honours is not None:
            data["honours"] = list(self.honours)
        if any(self.revokes):
            data["revokes"] = list(self.revokes)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ClassicEntry:
        no_unknown_keys(data, cls.FIELDS)
        honours = numbers(data, "honours", 2, required=False)
        return cls(tricks=numbers(data, "tricks", 2), honours=honours or None,
                   revokes=numbers(data, "revokes", 2, required=False))

    def score(self, hand: SheetHand) -> EntryScore:
        game = cast(ClassicWhist, hand.game)  # a sheet scores an entry of its own game only
        players = hand.players
        sides = (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")
        size = hand.hand_size
        check_tricks(self.tricks, size, sides)
        revokes = revokes_of(self.revokes, size, sides)
        trick_points = classic_trick_points(self.tricks)
        honours = (0, 0)
        if game.counts_honours:
            if self.honours is None:
                raise SheetError("This sheet counts honours: enter how many of A K Q J of trumps each side held")
            if len(self.honours) != 2:
                raise SheetError("Enter the honours of each of the 2 sides")
            check_range(self.honours, 0, HONOURS, "The honours", sides)
            if sum(self.honours) != HONOURS:
                raise SheetError(f"All four honours are dealt: the sides hold {HONOURS} between them, "
                                 f"not {sum(self.honours)}")
            honours = game.side_honours(trick_points, self.honours, hand.game_points)
        elif self.honours is not None:
            raise SheetError("This sheet does not count honours (the honours option is off)")
        side_points = (trick_points[0] + honours[0], trick_points[1] + honours[1])
        # Each revoke gives the other side three points.
        bonus = (CLASSIC_REVOKE_POINTS * revokes[1], CLASSIC_REVOKE_POINTS * revokes[0])
        points = tuple(side_points[seat % 2] for seat in range(4))
        return EntryScore(points, tuple(bonus[seat % 2] for seat in range(4)), honours=honours)


# Rules ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClassicRules(Rules):
    GAME: ClassVar[str] = "classic"
    traits: ClassVar[GameTraits] = GameTraits(
        partnerships=True, contracts=False, over_under=False, turned_card="dealer",
        last_trick_open=False,  # docs/rules.md#classic-whist-play: seen only until the next trick
        honours=True, games_to_target=True, sheet_fields=ClassicEntry.FIELDS,
        players_hint="two sides of two")

    target: int = option(5, "Points a side needs to win a game", low=1, high=100, common=True)
    honours: bool = option(False, "Score honours: all four of A K Q J of trumps 4, three of them 2")
    rubber: bool = option(False, "Play a rubber: best of three games")
    cut_for_partners: bool = option(False, "Draw partnerships by cutting cards: the two highest play together")

    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {
        "standard": {},
        "honours": {"honours": True},
        "rubber": {"rubber": True},
        "long": {"target": 10, "honours": True},
    }

    @property
    def players(self) -> int:
        return 4


# The game -------------------------------------------------------------------------------------


def side_of(seat: int) -> int:
    """Partners sit opposite: seats 0 and 2 are side 0, seats 1 and 3 side 1."""
    return seat % 2


def cut_for_partners(seed: int | str) -> tuple[int, ...]:
    """Each of the four players cuts a card; the two highest play together (seats 0 and 2).

    Ranks decide and suits break ties (clubs lowest), so a cut is never tied.
    The highest cut takes seat 0, its partner seat 2; the higher of the others seat 1.
    """
    cards = random.Random(f"{seed}/cut").sample(range(52), 4)
    order = sorted(range(4), key=lambda p: (cards[p] % 13, cards[p] // 13), reverse=True)
    seating = [0] * 4
    for seat, player in zip((0, 2, 1, 3), order, strict=True):
        seating[seat] = player
    return tuple(seating)


class ClassicWhist(HandGame):
    title = "Classic Whist"
    rules_type = ClassicRules
    sheet_entry = ClassicEntry
    rules: ClassicRules

    def hand_size(self, hand_number: int) -> int:
        return 13

    def turned_position(self, dealt: int, pack: int) -> int:
        return dealt - 1  # the last card dealt, which is the dealer's own

    def opening(self, dealer: int, turned_card: int) -> dict[str, Any]:
        leader = (dealer + 1) % 4
        return {"phase": Phase.PLAY, "player": leader, "leader": leader, "trump": turned_card // 13}

    def check_deal(self, dealer: int, hands: tuple[int, ...], unseen: int, turned_card: int,
                   hand_size: int) -> None:
        super().check_deal(dealer, hands, unseen, turned_card, hand_size)
        if turned_card < 0 or not hands[dealer] >> turned_card & 1:
            raise IllegalActionError("The turned-up trump card must be one of the dealer's cards")

    def legal_other(self, state: HandState) -> Sequence[Action]:
        return []

    def side_tricks(self, state: HandState) -> tuple[int, int]:
        won = state.tricks_won
        return (won[0] + won[2], won[1] + won[3])

    def hand_scores(self, state: HandState) -> tuple[int, ...]:
        """Trick points of each seat's side; honours depend on the game score, see ``honour_points``."""
        points = classic_trick_points(self.side_tricks(state))
        return tuple(points[side_of(seat)] for seat in range(4))

    def honours_held(self, state: HandState) -> tuple[int, int]:
        """How many of A K Q J of trumps each side was dealt."""
        held = [0, 0]
        for rank in HONOUR_RANKS:
            card = make_card(state.trump, rank)
            for seat in range(4):
                if state.deal[seat] >> card & 1:
                    held[side_of(seat)] += 1
        return (held[0], held[1])

    def honour_points(self, state: HandState, game_points: Sequence[int]) -> tuple[int, int]:
        """Honour points of each side in a finished hand (see ``side_honours``)."""
        if not self.rules.honours:
            return (0, 0)
        tricks = classic_trick_points(self.side_tricks(state))
        return self.side_honours(tricks, self.honours_held(state), game_points)

    def side_honours(self, trick_points: Sequence[int], held: Sequence[int],
                     game_points: Sequence[int]) -> tuple[int, int]:
        """Honour points of each side from the honours it held; a side one point short of the
        target may not count them, and none count when the tricks of this hand have already won
        the game (tricks score first). The score sheet counts them from the same rule."""
        target = self.rules.target
        if any(game_points[side] + trick_points[side] >= target for side in (0, 1)):
            return (0, 0)
        a, b = (0 if game_points[side] >= target - 1 else classic_honour_points(held[side]) for side in (0, 1))
        return (a, b)

    # The whole game: partnerships, games to a target, a rubber ------------------------------------

    def side_of(self, seat: int) -> int:
        return side_of(seat)

    def seating(self, seed: int | str) -> tuple[int, ...]:
        return cut_for_partners(seed) if self.rules.cut_for_partners else super().seating(seed)

    @property
    def game_target(self) -> int | None:
        return self.rules.target

    @property
    def games_to_win(self) -> int:
        return 2 if self.rules.rubber else 1

    @property
    def counts_honours(self) -> bool:
        return self.rules.honours

    def match_points(self, hand: HandState, game_points: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
        points = hand.scores()
        if hand.phase != Phase.OVER:
            return points, (0, 0)
        honours = self.honour_points(hand, game_points)
        return tuple(points[s] + honours[side_of(s)] for s in range(4)), honours

    def close_game(self, game_points: tuple[int, ...], games_won: tuple[int, ...]
                   ) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
        target = self.rules.target
        if max(game_points) < target:
            return game_points, games_won, None
        won = tuple(g + (p >= target) for g, p in zip(games_won, game_points, strict=True))
        return (0,) * len(game_points), won, 0 if game_points[0] >= target else 1

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        # Games won only grow when a game ends, so this is true exactly after the deciding game.
        return max(games_won) >= self.games_to_win

    def places(self, totals: Sequence[int], games_won: Sequence[int]) -> tuple[int, ...]:
        """Partners share their side's place, by games won and then points: 1 and 2, or 1 and 1
        when the sides are level."""
        keys = [(games_won[side_of(s)], totals[s]) for s in range(4)]
        return tuple(1 + len({other for other in keys if other > key}) for key in keys)

    def hands_options(self, hands: int) -> dict[str, str]:
        raise RulesError("Classic Whist is played to a target score, not a number of hands: "
                         "use --option target=N or --preset long")
