"""What differs between the games above a single hand: sides, the end of a game, places,
honours, and what the table and the score sheet show.

``HandGame`` inherits these hooks and each game overrides the few that differ, so the match,
the score sheet, the terminal and the bots ask the game instead of asking which game it is.
The defaults describe a game of individual players. What kind of game it is (is it a partnership
game? is there an auction?) is the game's traits (``israeli_whist.core.traits``), carried by its
rules type, which every view carries.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from israeli_whist.core.errors import RulesError

if TYPE_CHECKING:
    from israeli_whist.core.state import HandState


class WholeGame:
    """Whole-game hooks with their defaults; see the module docstring."""

    title: ClassVar[str]
    players: int

    # The table -------------------------------------------------------------------------------
    # Kinds of game that a seat's view must tell (partnerships, an auction...) are the traits of the
    # rules type instead (``Rules.traits``): the bots see the rules, never the game.

    def side_of(self, seat: int) -> int:
        """The side a seat plays for; without partnerships each seat is its own side."""
        return seat

    @property
    def frisch_rounds(self) -> int:
        """Frisch rounds before a redeal, in games with a trump auction."""
        return 0

    def lowest_bid(self, frisch_round: int) -> int:
        """The lowest level of a trump bid after ``frisch_round`` Frisch rounds (auction games)."""
        raise NotImplementedError(f"{self.title} has no trump auction")

    # The length of the game ----------------------------------------------------------------

    def seating(self, seed: int | str) -> tuple[int, ...]:
        """The player index that sits in each seat at the start of a match."""
        return tuple(range(self.players))

    def hands_in_game(self) -> int | None:
        """How many hands the game lasts, where that is known in advance."""
        return None

    @property
    def game_target(self) -> int | None:
        """Points a side needs to win one game of a match made of games (a rubber); None otherwise."""
        return None

    @property
    def games_to_win(self) -> int:
        """Games a side must win to win the match, where the match is made of games."""
        return 1

    @property
    def counts_honours(self) -> bool:
        return False

    def match_points(self, hand: HandState, game_points: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, int]]:
        """Each seat's points for a finished hand, and the honours of each side included in them.

        ``game_points`` are the points of the game under way, by side (a tuple by seat serves as
        well: seats 0 and 1 sit on sides 0 and 1)."""
        return hand.scores(), (0, 0)

    def close_game(self, game_points: tuple[int, ...], games_won: tuple[int, ...]
                   ) -> tuple[tuple[int, ...], tuple[int, ...], int | None]:
        """In a match made of games: once a side reaches the target, the game points start again,
        each side that reached it wins a game, and the first such side is named. Returns (game
        points, games won, winning side or None); both tuples may be by side or by seat."""
        return game_points, games_won, None

    def is_over(self, played: int, totals: Sequence[int], games_won: Sequence[int]) -> bool:
        """Whether the match ends after ``played`` hands (cancelled ones not counted)."""
        raise NotImplementedError

    def places(self, totals: Sequence[int], games_won: Sequence[int]) -> tuple[int, ...]:
        """Place of each seat (1 = first); equal results share a place. ``games_won`` is by side."""
        return tuple(1 + sum(1 for other in totals if other > total) for total in totals)

    def entry_choices(self) -> dict[str, Any]:
        """What a score sheet's page offers for entering a hand of this game, beyond the rules."""
        return {}

    # Command-line shortcuts ------------------------------------------------------------------

    def players_options(self, players: int, options: Mapping[str, str]) -> dict[str, str]:
        """The rule options that ``--players N`` stands for in this game."""
        if players != self.players:
            raise RulesError(f"{self.title} is for {self.players} players, not {players}")
        return {}

    def hands_options(self, hands: int) -> dict[str, str]:
        """The rule options that ``--hands N`` stands for in this game."""
        raise RulesError(f"{self.title} has no set number of hands")

    def board_options(self, number: int) -> dict[str, str]:
        """The rule options that make board ``number`` (from 1) of a duplicate event a game of one
        hand (``israeli_whist.core.duplicate``); a game that cannot end after one hand refuses."""
        return self.hands_options(1)

    def options_set_by_boards(self) -> tuple[str, ...]:
        """The rule options that an event's boards set themselves, or make moot: an event's own rules
        leave them out. A game that cannot end after one hand refuses, as ``board_options`` does."""
        return tuple(self.board_options(1))
