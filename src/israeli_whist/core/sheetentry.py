"""What every game's score-sheet entry shares (docs/rules.md#score-sheet-for-real-cards): reading
a hand from JSON, the checks of contracts, tricks and revokes, and what an entry is scored against.

Each game's entry type lives in its own module (``israeli_whist.core.games``) and is named by its
game (``HandGame.sheet_entry``); the sheet (``israeli_whist.core.scoresheet``) asks the entry to
check and score itself, never which game it is.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from israeli_whist.core.cards import STRAIN_LETTERS
from israeli_whist.core.errors import WhistError, quoted
from israeli_whist.core.rules import Rules
from israeli_whist.core.wholegame import WholeGame
from israeli_whist.core.wording import count_text


class SheetError(WhistError):
    """An entry or a sheet that the rules do not allow; the message says why, for the scorer."""


# Reading JSON ----------------------------------------------------------------------------------


def whole(data: Mapping[str, Any], key: str, default: int | None = None) -> int:
    value = data.get(key, default)
    if value is None or isinstance(value, bool) or not isinstance(value, int):
        raise SheetError(f"'{key}' must be a whole number, not {quoted(value)}")
    return value


def numbers(data: Mapping[str, Any], key: str, length: int | None = None, *, required: bool = True) -> tuple[int, ...]:
    value = data.get(key)
    if value is None and not required:
        return ()
    if not isinstance(value, list | tuple) or any(isinstance(v, bool) or not isinstance(v, int) for v in value):
        raise SheetError(f"'{key}' must be a list of whole numbers, not {quoted(value)}")
    if length is not None and len(value) != length:
        raise SheetError(f"'{key}' must have {length} numbers, not {len(value)}")
    return tuple(value)


def no_unknown_keys(data: Mapping[str, Any], known: Sequence[str]) -> None:
    if not isinstance(data, Mapping):
        raise SheetError(f"A hand is a JSON object, not {quoted(data)}")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise SheetError(f"Unknown field {quoted(unknown[0])} in a hand; the fields are {', '.join(known)}")


def strain_of(value: Any) -> int:
    if isinstance(value, str) and value.upper() in STRAIN_LETTERS:
        return STRAIN_LETTERS.index(value.upper())
    raise SheetError(f"The trump strain is one of {', '.join(STRAIN_LETTERS)}, not {quoted(value)}")


# Checks ----------------------------------------------------------------------------------------


def check_range(values: Sequence[int], low: int, high: int, what: str, names: Sequence[str]) -> None:
    for name, value in zip(names, values, strict=True):
        if not low <= value <= high:
            raise SheetError(f"{what} of {name} must be from {low} to {high}, not {value}")


def check_contracts(contracts: Sequence[int], size: int, last_bidder: int, names: Sequence[str]) -> str:
    """Checks of every game whose players bid a number of tricks; returns 'over' or 'under'."""
    if len(contracts) != len(names):
        raise SheetError(f"Enter a contract for each of the {len(names)} players")
    check_range(contracts, 0, size, "The contract", names)
    if sum(contracts) == size:
        forbidden = contracts[last_bidder]
        raise SheetError(f"The contracts add up to {size}, the number of tricks, so someone must fail: "
                         f"the last bidder, {names[last_bidder]}, may not bid {forbidden}")
    return "over" if sum(contracts) > size else "under"


def _who(names: Sequence[str]) -> str:
    return "sides" if len(names) == 2 else "players"


def check_tricks(tricks: Sequence[int], size: int, names: Sequence[str]) -> None:
    if len(tricks) != len(names):
        raise SheetError(f"Enter the tricks of each of the {len(names)} {_who(names)}")
    check_range(tricks, 0, size, "The tricks", names)
    if sum(tricks) != size:
        raise SheetError(f"The tricks add up to {sum(tricks)}, but the hand has {count_text(size, 'trick')}: "
                         "every trick is won by someone")


def revokes_of(revokes: Sequence[int], size: int, names: Sequence[str]) -> tuple[int, ...]:
    """Each player's (or side's) revokes, none where nobody entered any."""
    if not revokes:
        return (0,) * len(names)
    if len(revokes) != len(names):
        raise SheetError(f"Enter the revokes of each of the {len(names)} {_who(names)}")
    check_range(revokes, 0, size, "The number of revokes", names)
    return tuple(revokes)


# An entry and its score ------------------------------------------------------------------------


@dataclass(frozen=True)
class SheetHand:
    """Where the sheet stands as a hand is entered: what the entry is checked and scored against."""

    rules: Rules
    game: WholeGame  # the game these rules play (``israeli_whist.core.games.game_for_rules``)
    players: tuple[str, ...]  # in seating order
    dealer: int
    hand_size: int  # tricks in the hand
    game_points: tuple[int, int]  # points of each side in the game under way (a match made of games)


@dataclass(frozen=True)
class EntryScore:
    """What an entry scores: each player's points, the part that revokes cost (or earned), and
    what the sheet shows beside them."""

    points: tuple[int, ...]
    penalties: tuple[int, ...]
    over_under: str | None = None  # games with contracts: "over" or "under"
    honours: tuple[int, int] = (0, 0)  # honour points of each side


class SheetEntry:
    """One hand of a game as the scorer enters it; each game's entry is a frozen dataclass that
    subclasses this and names its JSON ``FIELDS`` (which its game's traits list as ``sheet_fields``)."""

    FIELDS: ClassVar[tuple[str, ...]] = ()

    @property
    def cancelled(self) -> bool:
        """A hand that was not played (everyone passed): it scores nothing and the dealer deals again."""
        return False

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Self:
        """The entry from its JSON form; SheetError if it is malformed."""
        raise NotImplementedError

    def score(self, hand: SheetHand) -> EntryScore:
        """Check the entry against the rules and score it; SheetError, with the reason, if refused."""
        raise NotImplementedError
