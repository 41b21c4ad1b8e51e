"""The strict reader of game records: the JSON text, then the type and size of every field, all
checked before a single action is replayed (``docs/record-format.md``, "What is checked").

A record is untrusted input. The JSON reader refuses what Python's ``json`` would take or choke
on: NaN, a key given twice, numbers of thousands of digits (``int`` refuses more than 4300),
nesting deeper than the interpreter's stack. The shape check wants exact JSON types, so ``true``
is not seat 1 and ``1.0`` is not version 1, and it bounds every text, so that a message never
repeats a megabyte (``israeli_whist.core.errors.quoted`` cuts what it does repeat). Whether the facts a
record states are true (the dealer, the deal, the points) is for the replay in ``records``.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from israeli_whist.core.errors import RecordError, WhistError, quoted
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame

FORMAT = "whist-record"
VERSION = 1
# Version 2 is version 1 with the hints used in each hand (``hands[].hints``): a record is written
# as version 2 only when a hint was used, so that a game without one reads with older programs.
HINTS_VERSION = 2
VERSIONS = (VERSION, HINTS_VERSION)

MAX_RECORD_BYTES = 16 * 2**20  # a 1000-hand game is about 2 MB
MAX_NUMBER_CHARS = 100  # longer JSON numbers are not converted: no field needs one
MAX_SEED = 100  # characters of a text seed, digits of a number seed
MAX_NAME = 100
MAX_GAME_NAME = 40
MAX_OPTION_NAME = 100
MAX_OPTION_TEXT = 1000  # a Whistiti schedule may list many hands
MAX_DEAL_TEXT = 200  # 17 cards of up to 3 characters, with spaces
MAX_CARD_TEXT = 10
MAX_ACTION_TEXT = 20  # "7 no trump" and friends; what the program writes is at most 4

RECORD_FIELDS = ("format", "version", "game", "rules", "seed", "first_dealer", "players", "seating", "hands",
                 "totals", "finished")
REQUIRED_FIELDS = ("game", "rules", "seed", "hands")  # format and version have their own messages
HAND_FIELDS = ("number", "dealer", "deal", "turned_card", "actions", "points", "cancelled", "hints")
# Control characters and line breaks: a name is shown in tables, where they would move the
# cursor or split a row. Format characters (bidi marks, joiners) are kept: names need them.
NAME_FAULTS = frozenset({"Cc", "Zl", "Zp"})
SEED_LIMIT = 10**MAX_SEED


class Unreadable:
    """A JSON value the reader does not convert (a number of thousands of digits, NaN). It keeps
    its place, so that the shape check reports it with its field, hand and action."""

    def __init__(self, description: str) -> None:
        self.description = description

    def __repr__(self) -> str:
        return f"<{self.description}>"


def shown_path(path: str | Path) -> str:
    """A file name for a message: as it is, unless it holds line breaks or undecodable bytes."""
    name = str(path)
    return name if name.isprintable() else ascii(name)


def read_record_file(path: str | Path) -> Any:
    """The JSON value in a file; RecordError if it cannot be read or is not strict JSON."""
    name = shown_path(path)
    try:
        with open(path, "rb") as file:
            data = file.read(MAX_RECORD_BYTES + 1)
    except OSError as error:
        raise RecordError(f"Cannot read {name}: {error.strerror or type(error).__name__}") from None
    except ValueError:  # a path with a NUL character
        raise RecordError(f"Cannot read {name}: not a file name") from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError(f"{name} is larger than {MAX_RECORD_BYTES // 2**20} MB: not a game record")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RecordError(f"{name} is not a text file: byte {error.start + 1} is not UTF-8") from None
    return parse_record_text(text, name)


def parse_record_text(text: str, source: str = "The record") -> Any:
    """The JSON value of ``text``, read strictly; ``source`` names it in messages."""
    try:
        return json.loads(text, parse_int=_read_int, parse_float=_read_float, parse_constant=_read_constant,
                          object_pairs_hook=_read_object)
    except json.JSONDecodeError as error:
        raise RecordError(f"{source} is not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}") \
            from None
    except RecursionError:  # json recurses once per level; the stack ends long before the text
        raise RecordError(f"{source} is not a game record: its lists and objects nest too deeply") from None
    except RecordError as error:
        raise RecordError(f"{source} is not valid JSON: {error}") from None


def _read_int(text: str) -> int | Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return Unreadable(f"a number of {len(text.lstrip('-'))} digits")
    return int(text)


def _read_float(text: str) -> float | Unreadable:
    if len(text) > MAX_NUMBER_CHARS:
        return Unreadable(f"a number of {len(text)} characters")
    return float(text)


def _read_constant(name: str) -> Unreadable:
    return Unreadable(f"{name}, which JSON does not have")


def _read_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    value = dict(pairs)
    if len(value) < len(pairs):  # json keeps the last of repeated keys; a record must not be ambiguous
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RecordError(f"the key {quoted(key)} appears twice in one object")
            seen.add(key)
    return value


# The shape of a record ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RecordShape:
    """A record whose every field has its type and size: what the replay starts from."""

    fields: dict[str, Any]  # the record itself, for the facts it states (seating, totals, finished)
    game: HandGame
    seed: int | str
    first_dealer: int
    players: list[str]
    hands: list[dict[str, Any]]


def is_integer(value: object) -> bool:
    """A JSON integer: Python's bool is an int, but ``true`` is not a number in a record."""
    return isinstance(value, int) and not isinstance(value, bool)


def is_unicode(text: str) -> bool:
    """False for text with a lone surrogate: JSON's ``"\\ud800"`` escape makes one, and it is no
    character (it cannot be written out as UTF-8, nor seed a shuffle)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_text(value: object, longest: int, what: str) -> str:
    if not isinstance(value, str) or len(value) > longest:
        raise RecordError(f"{what} must be text of at most {longest} characters, not {quoted(value)}")
    if not is_unicode(value):
        raise RecordError(f"{what} is not valid Unicode: {quoted(value)} holds a lone surrogate")
    return value


def check_seat(value: object, players: int, what: str) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < players:
        return value
    raise RecordError(f"{what} must be a seat from 0 to {players - 1}, not {quoted(value)}")


def check_list(value: object, length: int, what: str, items: str) -> list[Any]:
    if not isinstance(value, list) or len(value) != length:
        raise RecordError(f"{what} must be a list of {length} {items}, not {quoted(value)}")
    return value


def check_any_list(value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list, not {quoted(value)}")
    return value


def check_flag(mapping: dict[str, Any], key: str, what: str) -> None:
    """An optional true or false: a 0 or a 1 is not one."""
    if key in mapping and not isinstance(mapping[key], bool):
        raise RecordError(f"{what} must be true or false, not {quoted(mapping[key])}")


def check_integers(value: object, length: int, what: str) -> list[int]:
    numbers = check_list(value, length, what, "integers")
    if not all(is_integer(n) for n in numbers):
        raise RecordError(f"{what} must be a list of {length} integers, not {quoted(value)}")
    return numbers


def check_name(value: object, what: str) -> str:
    name = check_text(value, MAX_NAME, what)
    if any(unicodedata.category(c) in NAME_FAULTS for c in name):
        raise RecordError(f"{what} holds a control character or a line break: {quoted(name)}")
    return name


def check_shape(record: object) -> RecordShape:
    """Check the type and size of every field of a record, and its rules; RecordError names the
    first fault. Nothing is replayed here, so a fault is found wherever it stands."""
    if not isinstance(record, dict):
        raise RecordError(f"A record is a JSON object, not {quoted(record)}")
    if not isinstance(record.get("format"), str) or record["format"] != FORMAT:
        raise RecordError(f"Not a whist record: 'format' must be {FORMAT!r}")
    if "version" not in record:
        raise RecordError("The record has no 'version' field")
    if not is_integer(record["version"]) or record["version"] not in VERSIONS:
        raise RecordError(f"Unsupported record version {quoted(record['version'])}; this program reads "
                          f"{' and '.join(map(str, VERSIONS))}")
    for key in record:
        if key not in RECORD_FIELDS:  # a misspelt optional field would otherwise go unchecked
            raise RecordError(f"The record has an unknown field {quoted(key)}")
    for name in REQUIRED_FIELDS:
        if name not in record:
            raise RecordError(f"The record has no {name!r} field")
    game = check_rules(record)
    seed = record["seed"]
    small_number = is_integer(seed) and -SEED_LIMIT < seed < SEED_LIMIT
    if not (small_number or (isinstance(seed, str) and len(seed) <= MAX_SEED)):
        raise RecordError(f"The record's 'seed' must be an integer of at most {MAX_SEED} digits or text of at most "
                          f"{MAX_SEED} characters, not {quoted(seed)}")
    if isinstance(seed, str):
        check_text(seed, MAX_SEED, "The record's 'seed'")
    players = game.players
    first_dealer = check_seat(record.get("first_dealer", 0), players, "The record's 'first_dealer'")
    names = [f"Player {i + 1}" for i in range(players)]
    if "players" in record:
        listed = check_list(record["players"], players, "The record's 'players'", "names")
        names = [check_name(name, f"The record's 'players' entry {i + 1}") for i, name in enumerate(listed)]
    if "seating" in record:
        check_integers(record["seating"], players, "The record's 'seating'")
    if "totals" in record:
        check_integers(record["totals"], players, "The record's 'totals'")
    check_flag(record, "finished", "The record's 'finished'")
    hands = check_any_list(record["hands"], "The record's 'hands'")
    for index, entry in enumerate(hands, start=1):
        _check_hand(entry, index, players)
        if "hints" in entry and record["version"] < HINTS_VERSION:
            raise RecordError(f"Hand {index} has 'hints', which a record of version {HINTS_VERSION} holds, "
                              f"not one of version {record['version']}")
    return RecordShape(record, game, seed, first_dealer, names, hands)


def check_rules(record: dict[str, Any], whose: str = "The record's") -> HandGame:
    """The game of a document's ``game`` and ``rules`` fields (a record's, an event file's)."""
    name = check_text(record["game"], MAX_GAME_NAME, f"{whose} 'game'")
    rules = record["rules"]
    if not isinstance(rules, dict):
        raise RecordError(f"{whose} 'rules' must be an object, not {quoted(rules)}")
    for option, value in rules.items():
        what = f"{whose} rule {quoted(option)}"
        check_text(option, MAX_OPTION_NAME, "The name of a rule")
        if isinstance(value, str):
            check_text(value, MAX_OPTION_TEXT, what)
        elif not (value is None or isinstance(value, bool) or is_integer(value)):
            raise RecordError(f"{what} must be text, a whole number, true, false or null, not {quoted(value)}")
    try:
        return make_game(name, None, rules)
    except WhistError as error:
        raise RecordError(f"Bad rules: {error}") from None


def check_fields(value: object, where: str, known: Sequence[str], required: Sequence[str] = ()) -> dict[str, Any]:
    """A JSON object with no key but the ``known`` ones (a misspelt optional field would otherwise go
    unchecked), and every one of the ``required``; ``where`` names it in messages."""
    if not isinstance(value, dict):
        raise RecordError(f"{where} must be a JSON object, not {quoted(value)}")
    for key in value:
        if key not in known:
            raise RecordError(f"{where} has an unknown field {quoted(key)}")
    for key in required:
        if key not in value:
            raise RecordError(f"{where} has no {key!r} field")
    return value


def _check_hand(value: object, index: int, players: int) -> None:
    where = f"Hand {index}"
    entry = check_fields(value, where, HAND_FIELDS, ("actions",))
    if "number" in entry and not (is_integer(entry["number"]) and entry["number"] == index):
        raise RecordError(f"{where}: 'number' must be {index} (hands are numbered in order, cancelled ones "
                          f"included), not {quoted(entry['number'])}")
    if "dealer" in entry:
        check_seat(entry["dealer"], players, f"{where}: 'dealer'")
    if "deal" in entry:
        deal = check_list(entry["deal"], players, f"{where}: 'deal'", "hands of cards as text")
        for seat, cards in enumerate(deal):
            check_text(cards, MAX_DEAL_TEXT, f"{where}: seat {seat}'s deal")
    if entry.get("turned_card") is not None:
        check_text(entry["turned_card"], MAX_CARD_TEXT, f"{where}: 'turned_card' (a card or null)")
    if "points" in entry:
        check_integers(entry["points"], players, f"{where}: 'points'")
    check_flag(entry, "cancelled", f"{where}: 'cancelled'")
    actions = check_actions(entry["actions"], where, players)
    if "hints" in entry:
        _check_hints(entry["hints"], actions, where, players)


def check_actions(value: object, where: str, players: int) -> list[Any]:
    """A list of actions as a record writes them, each ``[seat, "text"]``; ``where`` names the list's owner."""
    actions = check_any_list(value, f"{where}: 'actions'")
    for number, item in enumerate(actions, start=1):
        if not (isinstance(item, list) and len(item) == 2 and is_integer(item[0]) and 0 <= item[0] < players
                and isinstance(item[1], str)):
            raise RecordError(f"{where}, action {number}: each action is [seat, \"text\"] with a seat from 0 to "
                              f"{players - 1}, not {quoted(item)}")
        seat, text = item
        if len(text) > MAX_ACTION_TEXT or not is_unicode(text):
            raise RecordError(f"{where}, action {number}, seat {seat}, {quoted(text)}: an action is text of at most "
                              f"{MAX_ACTION_TEXT} characters, in Unicode")
    return actions


def _check_hints(hints: object, actions: list[Any], where: str, players: int) -> None:
    """A hand's hints used: each ``[step, seat]``, asked by the seat whose turn it was after ``step``
    actions of the hand (the action that follows is that seat's, where the record goes on)."""
    for number, item in enumerate(check_any_list(hints, f"{where}: 'hints'"), start=1):
        if not (isinstance(item, list) and len(item) == 2 and is_integer(item[0]) and 0 <= item[0] <= len(actions)
                and is_integer(item[1]) and 0 <= item[1] < players):
            raise RecordError(f"{where}, hint {number}: each hint is [step, seat] with a step from 0 to "
                              f"{len(actions)} (the actions taken before it) and a seat from 0 to {players - 1}, "
                              f"not {quoted(item)}")
        step, seat = item
        if step < len(actions) and actions[step][0] != seat:
            raise RecordError(f"{where}, hint {number}: seat {seat} asked before action {step + 1}, "
                              f"which is seat {actions[step][0]}'s: a hint is asked on one's own turn")
