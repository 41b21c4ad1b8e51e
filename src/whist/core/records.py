"""Game records: a JSON document from which a whole game replays exactly.

The format (``docs/record-format.md`` describes every field)::

    {"format": "whist-record", "version": 1, "game": "israeli",
     "rules": {...every option...}, "seed": 7, "first_dealer": 0,
     "players": ["Ann", "Bot 1", "Bot 2", "Bot 3"], "seating": [0, 1, 2, 3],
     "hands": [{"number": 1, "dealer": 0, "deal": ["AS KS ...", ...],
                "actions": [[1, "pass"], [2, "5S"], ...], "points": [19, -10, 25, -20]}],
     "totals": [19, -10, 25, -20]}

Actions are written ``[seat, text]`` in the notation of ``action_name``; the deal and
points are there for people and for cross-checks: replay derives them from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from whist.core.actions import Phase, action_name, parse_action
from whist.core.cards import card_name, hand_name, parse_card, parse_hand
from whist.core.errors import RecordError, WhistError
from whist.core.game import HandGame
from whist.core.games import make_game
from whist.core.match import Match

FORMAT = "whist-record"
VERSION = 1


def to_record(match: Match, players: Sequence[str] | None = None, first_dealer: int | None = None) -> dict[str, Any]:
    """The record of a game so far (finished hands and the hand under way)."""
    game = match.game
    if first_dealer is None:  # the dealer of the first deal: a cancelled deal keeps its dealer
        first_dealer = match.results[0].final.dealer if match.results else match.hand.dealer
    hands = [hand_entry(r.number, r.final, r.points) for r in match.results]
    if not match.over:
        hands.append(hand_entry(len(match.results) + 1, match.hand, None))
    names = list(players) if players is not None else [f"Player {i + 1}" for i in range(game.players)]
    return {
        "format": FORMAT,
        "version": VERSION,
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
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise RecordError(f"Cannot read {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a text file") from None
    try:
        record = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") \
            from None
    if not isinstance(record, dict):
        raise RecordError(f"{path}: a record is a JSON object, not {type(record).__name__}")
    return record


@dataclass(frozen=True)
class CheckedGame:
    """The outcome of replaying a record with full validation."""

    match: Match
    players: list[str]
    complete: bool  # False when the record stops in the middle of the game


def _field(record: dict[str, Any], name: str, kind: type | tuple[type, ...], where: str = "record") -> Any:
    if name not in record:
        raise RecordError(f"The {where} has no {name!r} field")
    value = record[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        kinds = kind if isinstance(kind, tuple) else (kind,)
        raise RecordError(f"The {where}'s {name!r} must be {' or '.join(k.__name__ for k in kinds)}, "
                          f"not {type(value).__name__}")
    return value


def replay(record: dict[str, Any]) -> CheckedGame:
    """Replay a record, checking every field and action; raises RecordError naming the first fault."""
    if record.get("format") != FORMAT:
        raise RecordError(f"Not a whist record: 'format' must be {FORMAT!r}")
    if record.get("version") != VERSION:
        raise RecordError(f"Unsupported record version {record.get('version')!r}; this program reads {VERSION}")
    name = _field(record, "game", str)
    rules = _field(record, "rules", dict)
    seed = _field(record, "seed", (int, str))
    first_dealer = record.get("first_dealer", 0)
    try:
        game = make_game(name, None, rules)
    except WhistError as error:
        raise RecordError(f"Bad rules: {error}") from None
    if not isinstance(first_dealer, int) or not 0 <= first_dealer < game.players:
        raise RecordError(f"'first_dealer' must be a seat from 0 to {game.players - 1}")
    players = record.get("players", [f"Player {i + 1}" for i in range(game.players)])
    if not isinstance(players, list) or len(players) != game.players or not all(isinstance(p, str) for p in players):
        raise RecordError(f"'players' must list {game.players} names")
    hands = _field(record, "hands", list)
    match = Match.start(game, seed, first_dealer)
    if "seating" in record and record["seating"] != list(match.seating):
        raise RecordError(f"'seating' {record['seating']} does not match the cut for partners of seed {seed!r}")
    for index, entry in enumerate(hands, start=1):
        if match.over:
            raise RecordError(f"Hand {index}: the game was already over after hand {index - 1}")
        if not isinstance(entry, dict):
            raise RecordError(f"Hand {index} must be a JSON object")
        match = _replay_hand(match, entry, index, game)
        if index < len(hands) and len(match.results) < index:
            raise RecordError(f"Hand {index}: its actions stop before the hand is over, but hand {index + 1} follows")
    complete = match.over
    if complete and "totals" in record and record["totals"] != list(match.totals):
        raise RecordError(f"'totals' {record['totals']} do not match the replayed totals {list(match.totals)}")
    return CheckedGame(match, players, complete)


def _replay_hand(match: Match, entry: dict[str, Any], index: int, game: HandGame) -> Match:
    where = f"hand {index}"
    state = match.hand
    dealer = entry.get("dealer", state.dealer)
    if dealer != state.dealer:
        raise RecordError(f"Hand {index}: the dealer is seat {state.dealer}, not {dealer!r}")
    if "deal" in entry:
        _check_deal(entry["deal"], state, index)
    turned = entry.get("turned_card")
    if turned is not None and (not isinstance(turned, str) or _card_or_none(turned) != state.turned_card):
        raise RecordError(f"Hand {index}: the turned card is not {turned!r} in the deal of this seed")
    actions = _field(entry, "actions", list, where)
    for number, item in enumerate(actions, start=1):
        if match.over or match.hand is not state:
            raise RecordError(f"Hand {index}, action {number}: the hand was already over")
        if (not isinstance(item, list) or len(item) != 2 or not isinstance(item[0], int)
                or not isinstance(item[1], str)):
            raise RecordError(f"Hand {index}, action {number}: each action is [seat, \"text\"], not {item!r}")
        seat, text = item
        if seat != state.player:
            raise RecordError(f"Hand {index}, action {number}, seat {seat}, {text!r}: "
                              f"it is seat {state.player}'s turn, not seat {seat}'s")
        try:
            action = parse_action(text, state.phase)
            match = match.apply(action)
        except WhistError as error:
            raise RecordError(f"Hand {index}, action {number}, seat {seat}, {text!r}: {error}") from None
        state = match.hand
        if match.results and match.results[-1].number == index:
            state = match.results[-1].final
    finished = len(match.results) >= index
    if finished and "points" in entry and entry["points"] != list(match.results[index - 1].points):
        raise RecordError(f"Hand {index}: 'points' {entry['points']} do not match the replayed "
                          f"{list(match.results[index - 1].points)}")
    return match


def _card_or_none(text: str) -> int:
    try:
        return parse_card(text)
    except WhistError:
        return -2


def _check_deal(deal: Any, state: Any, index: int) -> None:
    if not isinstance(deal, list) or len(deal) != state.players:
        raise RecordError(f"Hand {index}: 'deal' must list {state.players} hands")
    for seat, text in enumerate(deal):
        try:
            cards = parse_hand(text) if isinstance(text, str) else None
        except WhistError as error:
            raise RecordError(f"Hand {index}: seat {seat}'s deal: {error}") from None
        if cards != state.deal[seat]:
            raise RecordError(f"Hand {index}: seat {seat}'s deal {text!r} is not the deal of this seed")
