"""Game records: a JSON document from which a whole game replays exactly.

The format (``docs/record-format.md`` describes every field)::

    {"format": "whist-record", "version": 1, "game": "israeli",
     "rules": {...every option...}, "seed": 7, "first_dealer": 0,
     "players": ["Ann", "Bot 2", "Bot 3", "Bot 4"], "seating": [0, 1, 2, 3],
     "hands": [{"number": 1, "dealer": 0, "deal": ["AS KS ...", ...],
                "actions": [[1, "pass"], [2, "5S"], ...], "points": [19, -10, 25, -20]}],
     "totals": [19, -10, 25, -20]}

Actions are written ``[seat, text]`` in the notation of ``action_name``; the deal and
points are there for people and for cross-checks: replay derives them from the seed.
A record is untrusted input: ``recordshape`` reads it strictly and checks the type of every
field first, then ``replay`` compares every fact it states with what the replay derives.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from israeli_whist.core.actions import Phase, action_name, parse_action
from israeli_whist.core.cards import card_name, hand_name, parse_card, parse_hand
from israeli_whist.core.errors import RecordError, WhistError, quoted
from israeli_whist.core.match import HandResult, Match
from israeli_whist.core.recordshape import (
    FORMAT,
    HINTS_VERSION,
    VERSION,
    check_shape,
    read_record_file,
    shown_path,
)
from israeli_whist.core.state import HandState

__all__ = ["FORMAT", "VERSION", "CheckedGame", "dump_record", "load_record", "replay", "to_record"]


def to_record(match: Match, players: Sequence[str] | None = None, first_dealer: int | None = None,
              hints: Mapping[int, Sequence[tuple[int, int]]] | None = None) -> dict[str, Any]:
    """The record of a game so far (finished hands and the hand under way); ``hints`` are the hints
    used, per hand number its (step, seat) pairs: a hand with any lists them."""
    game = match.game
    if first_dealer is None:  # the dealer of the first deal: a cancelled deal keeps its dealer
        first_dealer = match.results[0].final.dealer if match.results else match.hand.dealer
    hands = [hand_entry(r.number, r.final, r.points) for r in match.results]
    if not match.over:
        hands.append(hand_entry(len(match.results) + 1, match.hand, None))
    for entry in hands:
        used = (hints or {}).get(entry["number"])
        if used:
            entry["hints"] = [[step, seat] for step, seat in used]
    hinted = any("hints" in entry for entry in hands)
    names = list(players) if players is not None else [f"Player {i + 1}" for i in range(game.players)]
    return {
        "format": FORMAT,
        "version": HINTS_VERSION if hinted else VERSION,
        "game": game.name,
        "rules": game.rules.to_dict(),
        "seed": match.seed,
        "first_dealer": first_dealer,
        "players": names,
        "seating": list(match.seating),
        "hands": hands,
        "totals": list(match.totals),
        "finished": match.over,
    }


def hand_entry(number: int, state: Any, points: Sequence[int] | None) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "number": number,
        "dealer": state.dealer,
        "deal": [hand_name(h) for h in state.deal],
        "turned_card": card_name(state.turned_card) if state.turned_card >= 0 else None,
        "actions": [[seat, action_name(a)] for seat, a in seats_and_actions(state)],
    }
    if points is not None:
        entry["points"] = list(points)
    if state.phase == Phase.CANCELLED:
        entry["cancelled"] = True
    return entry


def seats_and_actions(final: Any) -> list[tuple[int, int]]:
    """Who took each action of a hand, found by replaying it from its deal."""
    state = final.game.start_hand(final.dealer, final.deal, final.unseen, final.turned_card, final.hand_size,
                                  checked=False)
    out = []
    for action in final.history:
        out.append((state.player, action))
        state = state.apply(action)
    return out


def dump_record(record: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def load_record(path: str | Path) -> dict[str, Any]:
    """The JSON object in a record file, read strictly (``recordshape.read_record_file``); ``replay``
    checks the rest."""
    record = read_record_file(path)
    if not isinstance(record, dict):
        raise RecordError(f"{shown_path(path)}: a record is a JSON object, not {quoted(record)}")
    return record


@dataclass(frozen=True)
class CheckedGame:
    """The outcome of replaying a record with full validation."""

    match: Match
    players: list[str]
    complete: bool  # False when the record stops in the middle of the game


def replay(record: object) -> CheckedGame:
    """Replay a record, checking its shape, every action and every fact it states; raises
    RecordError naming the first fault (and nothing else, whatever the record holds)."""
    shape = check_shape(record)
    fields = shape.fields
    match = Match.start(shape.game, shape.seed, shape.first_dealer)
    if "seating" in fields and fields["seating"] != list(match.seating):
        raise RecordError(f"'seating' {quoted(fields['seating'])} does not match the cut for partners of seed "
                          f"{quoted(shape.seed)}")
    hands = shape.hands
    for index, entry in enumerate(hands, start=1):
        if match.over:
            raise RecordError(f"Hand {index}: the game was already over after hand {index - 1}")
        match = _replay_hand(match, entry, index, last=index == len(hands))
    if "totals" in fields and fields["totals"] != list(match.totals):
        raise RecordError(f"'totals' {quoted(fields['totals'])} do not match the replayed totals "
                          f"{list(match.totals)}")
    if "finished" in fields and fields["finished"] != match.over:
        raise RecordError(f"'finished' is {str(fields['finished']).lower()}, but the game "
                          + (f"is over after hand {len(match.results)}" if match.over else
                             "goes on after the last hand of the record"))
    return CheckedGame(match, shape.players, match.over)


def _replay_hand(match: Match, entry: dict[str, Any], index: int, last: bool) -> Match:
    """Replay one hand whose shape is checked; every fact it states must be what the replay derives.
    Only the ``last`` hand of a record may stop before its end (a game saved in the middle)."""
    state = match.hand
    if "dealer" in entry and entry["dealer"] != state.dealer:
        raise RecordError(f"Hand {index}: the dealer is seat {state.dealer}, not {entry['dealer']}")
    if "deal" in entry:
        _check_deal(entry["deal"], state, index)
    if "turned_card" in entry:
        _check_turned_card(entry["turned_card"], state, index)
    for number, (seat, text) in enumerate(entry["actions"], start=1):
        where = f"Hand {index}, action {number}, seat {seat}, {quoted(text)}"
        if match.over or match.hand is not state:
            raise RecordError(f"{where}: the hand was already over")
        if seat != state.player:
            raise RecordError(f"{where}: it is seat {state.player}'s turn, not seat {seat}'s")
        try:
            action = parse_action(text, state.phase)
            match = match.apply(action)
        except WhistError as error:
            raise RecordError(f"{where}: {error}") from None
        state = match.hand
        if match.results and match.results[-1].number == index:
            state = match.results[-1].final
    result = match.results[index - 1] if len(match.results) >= index else None
    if result is None and not last:
        raise RecordError(f"Hand {index}: its actions stop before the hand is over, but hand {index + 1} follows")
    if "points" in entry:
        if result is None:
            raise RecordError(f"Hand {index}: 'points' are given, but the hand is not over")
        if entry["points"] != list(result.points):
            raise RecordError(f"Hand {index}: 'points' {quoted(entry['points'])} do not match the replayed "
                              f"{list(result.points)}")
    if "cancelled" in entry:
        _check_cancelled(entry["cancelled"], result, index)
    return match


def _check_cancelled(stated: bool, result: HandResult | None, index: int) -> None:
    cancelled = result is not None and result.cancelled
    if stated and not cancelled:
        raise RecordError(f"Hand {index}: 'cancelled' is true, but the hand "
                          + ("was played" if result is not None else "is not over"))
    if cancelled and not stated:
        raise RecordError(f"Hand {index}: 'cancelled' is false, but nobody bid after the last Frisch: "
                          "the hand was cancelled")


def _card_or_none(text: str) -> int:
    try:
        return parse_card(text)
    except WhistError:
        return -2


def _check_turned_card(turned: str | None, state: HandState, index: int) -> None:
    if turned is None:
        if state.turned_card >= 0:
            raise RecordError(f"Hand {index}: 'turned_card' is null, but the deal of this seed turns up "
                              f"{card_name(state.turned_card)}")
    elif _card_or_none(turned) != state.turned_card:
        raise RecordError(f"Hand {index}: the turned card is not {quoted(turned)} in the deal of this seed")


def _check_deal(deal: list[str], state: HandState, index: int) -> None:
    for seat, text in enumerate(deal):
        try:
            cards = parse_hand(text)
        except WhistError as error:
            raise RecordError(f"Hand {index}: seat {seat}'s deal: {error}") from None
        if cards != state.deal[seat]:
            raise RecordError(f"Hand {index}: seat {seat}'s deal {quoted(text)} is not the deal of this seed")
