"""The event file of ``whist event``: a duplicate event kept in one JSON file, so that a club runs one
without the web app (``israeli_whist.core.duplicate`` deals its boards and scores them)::

    {"format": "whist-event", "version": 1, "name": "Thursday club",
     "game": "israeli", "rules": {...every option...}, "seed": "thursday-12",
     "boards": 8, "bot_level": "hard",
     "results": [{"player": "Dana", "board": 1, "seat": 0, "points": 25, "contract": 3, "tricks": 3,
                  "actions": [[1, "pass"], [2, "5S"], ...]}]}

The rules are written out whole, as a game record keeps them, so that the boards stay the same
when a later version changes a default. Each result holds the board's actions (``[seat, text]``
as in a game record, a deal thrown in and dealt again included), from which the board replays.

A file is untrusted input: it is read strictly (``core.recordshape``), every field's type and
size checked, and every result replayed from its actions; the points, contract and tricks it
states must be what the replay gives. A file is written whole to a temporary file that then
replaces it, so that a write cut short leaves the file as it was.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from israeli_whist.core.actions import parse_action
from israeli_whist.core.duplicate import EVENT_LEVELS, MAX_BOARDS, PLAYER_SEAT, board_game, board_match, board_seed
from israeli_whist.core.errors import RecordError, WhistError, quoted
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.core.names import normal_name
from israeli_whist.core.recordshape import (
    MAX_SEED,
    check_actions,
    check_any_list,
    check_fields,
    check_name,
    check_rules,
    check_text,
    is_integer,
    read_record_file,
    shown_path,
)

FORMAT = "whist-event"
VERSION = 1

# A board's game record is seeded with the event's seed and "/board/N" (``core.duplicate.board_seed``),
# which a record's seed must hold.
MAX_EVENT_SEED = MAX_SEED - len(f"/board/{MAX_BOARDS}")

EVENT_FIELDS = ("format", "version", "name", "game", "rules", "seed", "boards", "bot_level", "results")
RESULT_FIELDS = ("player", "board", "seat", "points", "contract", "tricks", "actions")


class EventFileError(WhistError):
    """An event file that cannot be read or is not an event; the message says why, for people."""


@dataclass(frozen=True)
class BoardResult:
    """One player's board, as the file keeps it."""

    player: str
    board: int
    seat: int
    points: int
    contract: int | None  # the tricks the player bid; None where the game has no contracts
    tricks: int  # tricks the player took
    actions: tuple[tuple[int, str], ...]  # every action of the board, [seat, text] in a record's notation

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "actions": [list(action) for action in self.actions]}


@dataclass(frozen=True)
class Event:
    name: str
    game: str
    rules: Mapping[str, Any]  # every option, as ``Rules.to_dict`` gives them
    seed: str
    boards: int
    bot_level: str
    results: tuple[BoardResult, ...] = ()

    def board_game(self, number: int) -> HandGame:
        return board_game(self.game, None, self.rules, number)

    def board_match(self, number: int) -> Match:
        """Board ``number`` as dealt: the same for every player of the event."""
        return board_match(self.board_game(number), self.seed, number)

    def table_seed(self, number: int) -> str:
        """The seed of board ``number``'s table, from which its bots are seeded (``bots.matches.boardbots``)."""
        return board_seed(self.seed, number)

    @property
    def title(self) -> str:
        return make_game(self.game, None, self.rules).title

    def played(self, player: str, number: int) -> bool:
        return any(result.player == player and result.board == number for result in self.results)

    def next_board(self, player: str) -> int | None:
        """The first board ``player`` has not played; None once they have played them all."""
        return next((n for n in range(1, self.boards + 1) if not self.played(player, n)), None)

    def field(self, number: int) -> list[BoardResult]:
        """Everyone's result of board ``number`` (all in the person's seat)."""
        return [result for result in self.results if result.board == number]

    def with_result(self, result: BoardResult) -> Event:
        return replace(self, results=(*self.results, result))

    def same_event(self, other: Event) -> bool:
        """The same boards and bots (its name and results aside): a result of one stands in the other."""
        return replace(self, name="", results=()) == replace(other, name="", results=())

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "name": self.name, "game": self.game, "rules": dict(self.rules),
                "seed": self.seed, "boards": self.boards, "bot_level": self.bot_level,
                "results": [result.to_json() for result in self.results]}


def new_event(name: str, game: str, preset: str | None, options: Mapping[str, str], seed: str, boards: int,
              bot_level: str) -> Event:
    """An event with no results yet; WhistError says what is wrong with its settings (rules that
    make no board of one hand, such as Classic Whist's rubbers, among them)."""
    rules = make_game(game, preset, options).rules.to_dict()
    try:
        name = normal_name(name)
    except WhistError as error:
        raise RecordError(f"The event's name {quoted(name)}: {error}") from None
    return check_event({"name": name, "game": game, "rules": rules, "seed": seed, "boards": boards,
                        "bot_level": bot_level, "results": []})


def result_of(match: Match, player: str, number: int, seat: int, actions: tuple[tuple[int, str], ...]) -> BoardResult:
    """The result of a finished board ``match`` for the player in ``seat``."""
    final = match.results[-1].final
    contract = final.contracts[seat] if final.contracts and final.contracts[seat] >= 0 else None
    return BoardResult(player, number, seat, match.totals[seat], contract, final.tricks_won[seat], actions)


# Reading ------------------------------------------------------------------------------------------


def load_event(path: Path) -> Event:
    """The event in the file at ``path``; EventFileError naming the first fault."""
    try:
        return check_event(read_record_file(path), whole=True)
    except RecordError as error:
        message = str(error)
        if shown_path(path) not in message:
            message = f"{shown_path(path)}: {message}"
        raise EventFileError(message) from None


def check_event(document: object, whole: bool = False) -> Event:
    """An event from its JSON, every field checked and every result replayed; ``whole``: the
    document as a file holds it, its format and version included. RecordError names the first fault."""
    if not isinstance(document, dict):
        raise RecordError(f"an event file holds a JSON object, not {quoted(document)}")
    if whole:
        if document.get("format") != FORMAT:
            raise RecordError(f"not a whist event file: 'format' must be {FORMAT!r}")
        if not is_integer(document.get("version")) or document["version"] != VERSION:
            raise RecordError(f"unsupported event file version {quoted(document.get('version'))}; this program "
                              f"reads version {VERSION}")
    check_fields(document, "The event", EVENT_FIELDS, EVENT_FIELDS[2:])  # the format and version were checked
    name = kept_name(document["name"], "The event's 'name'")
    seed = check_text(document["seed"], MAX_EVENT_SEED, "The event's 'seed'")
    if not seed.strip() or not seed.isprintable():  # shown as it is: no line break, no bidi control
        raise RecordError(f"The event's 'seed' must be text of 1 to {MAX_EVENT_SEED} printable characters, "
                          f"not {quoted(seed)}")
    rules = check_rules(document, "The event's").rules.to_dict()  # an option left out takes its default
    boards = document["boards"]
    if not (is_integer(boards) and 1 <= boards <= MAX_BOARDS):
        raise RecordError(f"The event's 'boards' must be a whole number from 1 to {MAX_BOARDS}, not {quoted(boards)}")
    level = document["bot_level"]
    if level not in EVENT_LEVELS:
        raise RecordError(f"The event's 'bot_level' must be one of {', '.join(EVENT_LEVELS)}, not {quoted(level)}")
    event = Event(name, document["game"], rules, seed, boards, level)
    try:
        for number in range(1, boards + 1):
            event.board_game(number)
    except WhistError:  # what the game says (Classic Whist: "use --option target=N") would not help here
        raise RecordError(f"{event.title} is not played in boards of one hand, so it makes no event") from None
    results: list[BoardResult] = []
    played: set[tuple[str, int]] = set()
    for index, entry in enumerate(check_any_list(document["results"], "The event's 'results'"), start=1):
        result = check_result(event, entry, index)
        if (result.player, result.board) in played:
            raise RecordError(f"Result {index}: {result.player} played board {result.board} twice")
        played.add((result.player, result.board))
        results.append(result)
    return replace(event, results=tuple(results))


def kept_name(value: object, what: str) -> str:
    """A name as ``core.names.normal_name`` keeps it: a player's, the event's."""
    name = check_name(value, what)
    try:
        kept = normal_name(name)
    except WhistError as error:
        raise RecordError(f"{what}: {error}") from None
    if kept != name:
        raise RecordError(f"{what} {quoted(name)} is not written as a name is kept ({quoted(kept)})")
    return name


def check_result(event: Event, value: object, index: int) -> BoardResult:
    """One result of ``event``: its fields, then its board replayed from its actions."""
    where = f"Result {index}"
    entry = check_fields(value, where, RESULT_FIELDS, RESULT_FIELDS)
    player = kept_name(entry["player"], f"{where}: 'player'")
    number = entry["board"]
    if not (is_integer(number) and 1 <= number <= event.boards):
        raise RecordError(f"{where}: 'board' must be a board of the event, 1 to {event.boards}, not {quoted(number)}")
    if entry["seat"] != PLAYER_SEAT or not is_integer(entry["seat"]):
        raise RecordError(f"{where}: 'seat' must be {PLAYER_SEAT}, where a player sits at every board, "
                          f"not {quoted(entry['seat'])}")
    for key in ("points", "tricks"):
        if not is_integer(entry[key]):
            raise RecordError(f"{where}: {key!r} must be a whole number, not {quoted(entry[key])}")
    if entry["contract"] is not None and not is_integer(entry["contract"]):
        raise RecordError(f"{where}: 'contract' must be a whole number or null, not {quoted(entry['contract'])}")
    match = event.board_match(number)
    actions = tuple((seat, text) for seat, text in check_actions(entry["actions"], where, match.game.players))
    replayed = result_of(replay_board(match, actions, where), player, number, PLAYER_SEAT, actions)
    stated = BoardResult(player, number, PLAYER_SEAT, entry["points"], entry["contract"], entry["tricks"], actions)
    for key in ("points", "contract", "tricks"):
        if getattr(stated, key) != getattr(replayed, key):
            raise RecordError(f"{where}: {key!r} {quoted(entry[key])} does not match the board replayed from its "
                              f"actions ({getattr(replayed, key)})")
    return replayed


def replay_board(match: Match, actions: tuple[tuple[int, str], ...], where: str) -> Match:
    """The board played to its end by ``actions``; RecordError at the first that cannot be taken."""
    for number, (seat, text) in enumerate(actions, start=1):
        at = f"{where}, action {number}, seat {seat}, {quoted(text)}"
        if match.over:
            raise RecordError(f"{at}: the board was already over")
        if seat != match.hand.player:
            raise RecordError(f"{at}: it is seat {match.hand.player}'s turn, not seat {seat}'s")
        try:
            match = match.apply(parse_action(text, match.hand.phase))
        except WhistError as error:
            raise RecordError(f"{at}: {error}") from None
    if not match.over:
        raise RecordError(f"{where}: its actions stop before the board is over")
    return match


# Writing ------------------------------------------------------------------------------------------


def save_event(event: Event, path: Path) -> None:
    """Write the file whole, then put it in the place of the old one: a write cut short (Ctrl-C, a
    full disk) leaves the file as it was. OSError if it cannot be written."""
    text = json.dumps(event.to_json(), indent=1, ensure_ascii=False) + "\n"
    mode = path.stat().st_mode & 0o777 if path.exists() else _new_file_mode()
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _new_file_mode() -> int:
    """What ``open`` would give a new file (``mkstemp`` makes it readable by its owner alone)."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
