"""The score sheet for games played with real cards (docs/rules.md#score-sheet-for-real-cards).

The scorer enters each hand as it ends at the table; the sheet has the entry check and score
itself (each game's entry type is in its module, ``israeli_whist.core.games``, with the game's own
scoring, hand sizes and auction minimums) and keeps the running totals, the end of the game and
the history. Everything is an immutable value: ``Sheet.add`` returns a new sheet.

>>> from israeli_whist.core.cards import HEARTS, SPADES
>>> from israeli_whist.core.games.israeli import IsraeliEntry
>>> sheet = Sheet.start("israeli", ["Ann", "Ben", "Dan", "Eve"])
>>> entry = IsraeliEntry(declarer=1, level=5, strain=SPADES, contracts=(3, 5, 0, 4), tricks=(3, 6, 0, 4))
>>> sheet = sheet.add(entry)
>>> sheet.scores[0].points, sheet.scores[0].over_under
((19, -10, 50, 26), 'under')
>>> sheet.add(IsraeliEntry(declarer=2, level=5, strain=HEARTS, contracts=(3, 4, 5, 1), tricks=(3, 4, 5, 1)))
Traceback (most recent call last):
...
israeli_whist.core.sheetentry.SheetError: The contracts add up to 13, the number of tricks, so someone must fail: \
the last bidder, Ben, may not bid 4
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from israeli_whist.core.errors import quoted
from israeli_whist.core.games import GAMES, game_for_rules, make_rules
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.names import NameRefused, normal_name
from israeli_whist.core.rules import Rules
from israeli_whist.core.sheetentry import EntryScore, SheetEntry, SheetError, SheetHand

__all__ = ["HandScore", "Sheet", "SheetEntry", "SheetError", "entry_from_dict", "entry_type"]


# What the scorer enters for a hand of each game: its game's ``sheet_entry`` (none: no score sheet yet).


def entry_type(game: str) -> type[SheetEntry] | None:
    """The entry type of a hand of ``game`` on a score sheet, None where the game has no sheet."""
    return GAMES[game].sheet_entry


def entry_from_dict(game: str, data: Any) -> SheetEntry:
    """The entry of a hand of ``game`` from its JSON form; SheetError if it is malformed."""
    if not isinstance(data, Mapping):
        raise SheetError(f"A hand is a JSON object, not {quoted(data)}")
    kind = entry_type(game)
    if kind is None:
        raise SheetError(f"There is no score sheet for {GAMES[game].title} yet")
    return kind.from_dict(data)


# Scored hands -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class HandScore:
    """A hand as the sheet keeps it: the entry and what the sheet computed from it."""

    number: int  # 1-based line of the sheet, cancelled hands included
    entry: SheetEntry
    dealer: int
    hand_size: int  # tricks in the hand
    points: tuple[int, ...]  # each player's points for the hand, penalties included
    penalties: tuple[int, ...]  # the part of ``points`` that revokes cost (or earned, in Classic Whist)
    totals: tuple[int, ...]  # running totals after this hand
    over_under: str | None = None  # games with contracts: "over" or "under"
    honours: tuple[int, int] = (0, 0)  # games with honours: honour points of each side
    game_won: int | None = None  # a match made of games: the side (0 or 1) that won a game with this hand

    @property
    def cancelled(self) -> bool:
        return self.entry.cancelled

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "entry": self.entry.to_dict(), "cancelled": self.cancelled,
                "dealer": self.dealer, "hand_size": self.hand_size, "points": list(self.points),
                "penalties": list(self.penalties), "totals": list(self.totals), "over_under": self.over_under,
                "honours": list(self.honours), "game_won": self.game_won}


# The sheet --------------------------------------------------------------------------------------


def _check_names(players: Sequence[str], game: HandGame) -> tuple[str, ...]:
    if isinstance(players, str) or not isinstance(players, Sequence):
        raise SheetError("The players are a list of names")
    count = game.players
    if len(players) != count:
        raise SheetError(f"{game.title} with these rules needs {count} players, not {len(players)}: "
                         f"{game.rules.traits.players_hint}")
    names = []
    for name in players:
        if not isinstance(name, str):
            raise SheetError(f"A player's name is a text, not {quoted(name)}")
        try:
            names.append(normal_name(name))
        except NameRefused as refused:
            raise SheetError(str(refused)) from None
    seen: set[str] = set()
    for name in names:
        if name.casefold() in seen:
            raise SheetError(f"Two players are called {quoted(name)}: give each a different name")
        seen.add(name.casefold())
    return tuple(names)


@dataclass(frozen=True)
class Sheet:
    """A game's score sheet: rules, players in seating order (the first deals first), hands."""

    rules: Rules
    players: tuple[str, ...]
    scores: tuple[HandScore, ...] = ()
    totals: tuple[int, ...] = ()
    game_points: tuple[int, int] = (0, 0)  # a match made of games: points of each side in the game under way
    games_won: tuple[int, int] = (0, 0)  # a match made of games: games won by each side
    dealer: int = 0  # the dealer of the next hand
    hands_played: int = 0  # hands scored, cancelled ones not counted
    over: bool = False

    @classmethod
    def start(cls, game: str, players: Sequence[str], preset: str | None = None,
              options: Mapping[str, Any] | None = None) -> Sheet:
        """A new sheet; RulesError for unknown games, presets or options, SheetError for bad names."""
        rules = make_rules(game, preset, options)
        hand_game = game_for_rules(rules)
        if hand_game.sheet_entry is None:
            raise SheetError(f"There is no score sheet for {hand_game.title} yet")
        return cls(rules, _check_names(players, hand_game), totals=(0,) * rules.players)

    @classmethod
    def replay(cls, game: str, options: Mapping[str, Any], players: Sequence[str],
               entries: Sequence[SheetEntry | Mapping[str, Any]]) -> Sheet:
        """A sheet from its stored parts: every entry is checked and scored again."""
        sheet = cls.start(game, players, None, options)
        for entry in entries:
            sheet = sheet.add(entry if isinstance(entry, SheetEntry) else entry_from_dict(game, entry))
        return sheet

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Sheet:
        return cls.replay(data["game"], data.get("options", {}), data["players"], data.get("hands", []))

    def to_dict(self) -> dict[str, Any]:
        """What is stored: the rest is computed again from it."""
        return {"game": self.game, "options": self.rules.changed_options(), "players": list(self.players),
                "hands": [s.entry.to_dict() for s in self.scores]}

    # What the sheet shows -------------------------------------------------------------------

    @property
    def game(self) -> str:
        return self.rules.GAME

    @property
    def hand_game(self) -> HandGame:
        """The game these rules play, which answers what differs between the games."""
        return game_for_rules(self.rules)

    @property
    def entries(self) -> tuple[SheetEntry, ...]:
        return tuple(s.entry for s in self.scores)

    @property
    def hand_size(self) -> int:
        """Tricks in the next hand (in Whistiti, from the deal schedule)."""
        return self.hand_game.hand_size(self.hands_played)

    @property
    def hands_total(self) -> int | None:
        """How many hands the game lasts, where that is known in advance."""
        return self.hand_game.hands_in_game()

    def places(self) -> tuple[int, ...]:
        """Place of each player (1 = first); equal results share a place. In Classic Whist
        partners share their side's place, by games won and then points."""
        return self.hand_game.places(self.totals, self.games_won)

    # Entering hands -------------------------------------------------------------------------

    def add(self, entry: SheetEntry) -> Sheet:
        """The sheet with one more hand; SheetError, with the reason, if the rules refuse it."""
        if self.over:
            raise SheetError("The game is over: no more hands")
        game = self.hand_game
        if game.sheet_entry is None or not isinstance(entry, game.sheet_entry):
            raise SheetError(f"This is a sheet of {self.game}, not a hand of another game")
        # The entry's type is the sheet's game's, so it checks and scores itself by its own rules.
        hand = SheetHand(self.rules, game, self.players, self.dealer, self.hand_size, self.game_points)
        return self._record(entry, entry.score(hand))

    def undo(self) -> Sheet:
        """The sheet without its last hand."""
        if not self.scores:
            raise SheetError("There is no hand to take back")
        return Sheet.replay(self.game, self.rules.changed_options(), self.players, self.entries[:-1])

    def _record(self, entry: SheetEntry, score: EntryScore) -> Sheet:
        """Append a scored hand and move the game on: dealer, totals, the end."""
        n = len(self.players)
        points = tuple(p + q for p, q in zip(score.points, score.penalties, strict=True))
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        played = self.hands_played + (0 if entry.cancelled else 1)
        game = self.hand_game
        game_points: tuple[int, ...] = self.game_points
        if game.game_target is not None:
            # Sides 0 and 1 score as seats 0 and 1; the game ends one of the match's games as Match does.
            game_points = (game_points[0] + points[0], game_points[1] + points[1])
        game_points, games_won, game_won = game.close_game(game_points, self.games_won)
        over = game.is_over(played, totals, games_won)
        scored = HandScore(len(self.scores) + 1, entry, self.dealer, self.hand_size, points, score.penalties, totals,
                           score.over_under, score.honours, game_won)
        dealer = self.dealer if entry.cancelled else (self.dealer + 1) % n
        return replace(self, scores=self.scores + (scored,), totals=totals,
                       game_points=(game_points[0], game_points[1]), games_won=(games_won[0], games_won[1]),
                       dealer=dealer, hands_played=played, over=over)
