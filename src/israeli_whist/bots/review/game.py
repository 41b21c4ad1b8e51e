"""The review of a whole game: each hand's review (``israeli_whist.bots.review.hand``), and what
they add up to for each seat.

Each hand is reviewed on its own, from its own seed (``{seed}/{number}``), so the hands of a game
can be reviewed in parallel processes and merged (``review_hand``, ``merge_hands``): the merge is
the same as ``review_record``'s whole answer.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from israeli_whist.bots.review.hand import HandReview, review_final
from israeli_whist.bots.review.par import hand_points
from israeli_whist.bots.review.settings import DEFAULT_SETTINGS, ReviewSettings
from israeli_whist.core.records import CheckedGame, replay
from israeli_whist.core.state import HandState

Progress = Callable[[int, int], None]  # (actions reviewed, actions in all) after each one


@dataclass(frozen=True)
class GameReview:
    game: str
    title: str
    players: tuple[str, ...]  # names by seat
    settings: ReviewSettings
    seed: str
    hands: tuple[HandReview, ...]


@dataclass(frozen=True)
class _Hand:
    number: int
    final: HandState
    before: tuple[float, ...]


def _hands(checked: CheckedGame) -> list[_Hand]:
    """The game's hands with what each seat had before each one, a hand still in play left out
    (a review judges hands that are over)."""
    found, totals = [], (0.0,) * checked.match.game.players
    for result in checked.match.results:
        found.append(_Hand(result.number, result.final, totals))
        totals = tuple(t + p for t, p in zip(totals, hand_points(result.final), strict=True))
    return found


def hand_numbers(record: dict[str, Any]) -> list[int]:
    """The numbers of the hands a review of ``record`` covers (a job's units of work)."""
    return [hand.number for hand in _hands(replay(record))]


def review_record(record: dict[str, Any], *, seed: str | int = 0, settings: ReviewSettings = DEFAULT_SETTINGS,
                  hands: Collection[int] | None = None, on_step: Progress | None = None,
                  par: bool = True) -> GameReview:
    """The review of a game record (``hands``: only these hand numbers). Raises RecordError for a
    record that does not replay. ``on_step(done, total)`` is told after each action reviewed."""
    checked = replay(record)
    chosen = [hand for hand in _hands(checked) if hands is None or hand.number in hands]
    total, done = sum(len(hand.final.history) for hand in chosen), 0

    def step() -> None:
        nonlocal done
        done += 1
        if on_step is not None:
            on_step(done, total)

    reviewed = [review_final(hand.final, hand.number, hand.before, seed=f"{seed}/{hand.number}", settings=settings,
                             par=par, after_each=step) for hand in chosen]
    return merge_hands(record, reviewed, settings, seed, checked)


def review_hand(record: dict[str, Any], number: int, *, seed: str | int = 0,
                settings: ReviewSettings = DEFAULT_SETTINGS, par: bool = True) -> HandReview:
    """The review of hand ``number`` of a game record alone (KeyError: no such hand over)."""
    for hand in _hands(replay(record)):
        if hand.number == number:
            return review_final(hand.final, number, hand.before, seed=f"{seed}/{number}", settings=settings, par=par)
    raise KeyError(f"The game has no hand {number} that is over")


def merge_hands(record: dict[str, Any], hands: Collection[HandReview], settings: ReviewSettings,
                seed: str | int = 0, checked: CheckedGame | None = None) -> GameReview:
    """The game's review from its hands' reviews (in any order)."""
    checked = checked or replay(record)
    match = checked.match
    names = tuple(checked.players[match.seating[seat]] for seat in range(match.game.players))
    ordered = tuple(sorted(hands, key=lambda hand: hand.number))
    return GameReview(match.game.name, match.game.title, names, settings, str(seed), ordered)
