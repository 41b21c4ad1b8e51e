"""The strict record reader (israeli_whist.core.recordshape) and the facts replay compares: one test for
each fault an outside audit found, each of which the old reader let through or crashed on.

Every fault must be a RecordError with a one-line message, never another exception, and no
record that states something false may replay.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import israeli

from israeli_whist.core.actions import Phase, parse_action
from israeli_whist.core.errors import NotationError, RecordError, RulesError, quoted
from israeli_whist.core.games import make_rules
from israeli_whist.core.match import Match
from israeli_whist.core.records import load_record, replay, to_record
from israeli_whist.core.recordshape import MAX_RECORD_BYTES, parse_record_text

GOLDEN_DIR = Path(__file__).parent.parent / "golden"
HUGE = "7" * 5000  # more digits than int() converts (4300)


def golden(name: str = "israeli_standard") -> dict[str, Any]:
    return load_record(GOLDEN_DIR / f"{name}.json")


def rejected(record: Any, message: str) -> str:
    with pytest.raises(RecordError) as error:
        replay(record)
    text = str(error.value)
    assert re.search(message, text), text
    assert "\n" not in text and len(text) < 400, text
    return text


def rejected_text(text: str, message: str) -> str:
    """A record given as JSON text: read strictly, then replayed."""
    with pytest.raises(RecordError) as error:
        replay(parse_record_text(text))
    found = str(error.value)
    assert re.search(message, found), found
    assert "\n" not in found and len(found) < 400, found
    return found


def with_raw(record: dict[str, Any], path: tuple[Any, ...], raw: str) -> str:
    """The JSON text of ``record`` with the value at ``path`` written as ``raw`` (JSON that no
    Python value dumps to: a number of 5000 digits, NaN, nesting a million deep)."""
    record = copy.deepcopy(record)
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = "@@raw@@"
    return json.dumps(record).replace('"@@raw@@"', raw, 1)


def first_contract(record: dict[str, Any]) -> tuple[int, int]:
    """(hand index, action index) of the first contract (Israeli Whist phase 2) in a record."""
    match = replay({**record, "hands": [], "totals": [0] * 4, "finished": False}).match
    for hand_index, hand in enumerate(record["hands"]):
        state = match.hand
        for action_index, (_, text) in enumerate(hand["actions"]):
            if state.phase == Phase.CONTRACT:
                return hand_index, action_index
            match = match.apply(parse_action(text, state.phase))
            state = match.hand if len(match.results) <= hand_index else match.results[hand_index].final
    raise AssertionError("no contract in the record")


# Numbers: thousands of digits, and digits that are not ASCII ------------------------------------------


@pytest.mark.parametrize("field", ["seed", "first_dealer", "version"])
def test_a_json_number_of_thousands_of_digits(field: str) -> None:
    rejected_text(with_raw(golden(), (field,), HUGE), r"(, not|version) <a number of 5000 digits>")


def test_huge_numbers_where_seats_and_points_stand() -> None:
    record = golden()
    rejected_text(with_raw(record, ("hands", 0, "actions", 0, 0), HUGE),
                  r'^Hand 1, action 1: each action is \[seat, "text"\] with a seat from 0 to 3, '
                  r"not \[<a number of 5000 digits>, '12S'\]$")
    record["hands"][0]["points"][0] = 10**5000  # a Python int of 5000 digits: str() refuses it
    rejected(record, r"^Hand 1: 'points' \[<a number of about 5000 digits>, .* do not match the replayed ")


def test_a_bid_or_contract_of_thousands_of_digits() -> None:
    with pytest.raises(NotationError, match=r"^A call is 'pass' or a level and strain, like 5S or 7NT, not '7777"):
        parse_action(HUGE + "S", Phase.AUCTION)
    with pytest.raises(NotationError, match=r"^A contract is a number of tricks, like 3, not '7777.*\.\.\.$"):
        parse_action(HUGE, Phase.CONTRACT)
    record = golden()
    hand, action = first_contract(record)
    record["hands"][hand]["actions"][action][1] = HUGE
    rejected(record, rf"^Hand {hand + 1}, action {action + 1}, seat \d, '7777.*\.\.\.: an action is text of at most "
                     r"20 characters, in Unicode$")
    record["hands"][hand]["actions"][action][1] = "9" * 15  # fits the record, and is still no contract
    rejected(record, rf"^Hand {hand + 1}, action {action + 1}, seat \d, '9{{15}}': A contract is a number of tricks")


@pytest.mark.parametrize("digit", ["²", "٣", "３", "³", "߃"])
def test_digits_of_other_scripts_are_not_numbers(digit: str) -> None:
    """str.isdigit() takes all of these; int() reads "٣" and "３" as 3 and crashes on "²"."""
    with pytest.raises(NotationError, match="A contract is a number of tricks"):
        parse_action(digit, Phase.CONTRACT)
    with pytest.raises(NotationError, match="A call is 'pass' or a level and strain"):
        parse_action(digit + "S", Phase.AUCTION)
    record = golden()
    hand, action = first_contract(record)
    record["hands"][hand]["actions"][action][1] = digit
    rejected(record, rf"^Hand {hand + 1}, action {action + 1}, seat \d, '{digit}': A contract is a number of tricks")


def test_option_numbers_are_ascii_digits() -> None:
    with pytest.raises(RulesError, match=r"^Option hands is a whole number, not '١٢'$"):
        make_rules("israeli", None, {"hands": "١٢"})
    with pytest.raises(RulesError, match=r"^schedule: each hand deals 1 to 13 cards to 4 players, not '²'"):
        make_rules("whistiti", None, {"schedule": "1,²"})
    with pytest.raises(RulesError, match=r"^Option hands is a whole number, not '1111"):
        make_rules("israeli", None, {"hands": "1" * 5000})
    record = golden()
    record["rules"]["hands"] = "١٢"
    rejected(record, r"^Bad rules: Option hands is a whole number, not '١٢'$")


# Nesting, and JSON that Python reads but a record must not hold -------------------------------------------


@pytest.mark.parametrize("depth", [50, 5_000, 1_000_000])
def test_deep_nesting(depth: int) -> None:
    rejected_text("[" * depth + "]" * depth, r"^(A record is a JSON object, not \[\[\[|The record is not a game "
                                             r"record: its lists and objects nest too deeply$)")
    rejected_text(with_raw(golden(), ("seed",), "[" * depth + "]" * depth),
                  r"^(The record's 'seed' must be an integer .*, not \[\[\[|The record is not a game "
                  r"record: its lists and objects nest too deeply$)")


def test_nan_and_repeated_keys() -> None:
    rejected_text(with_raw(golden(), ("seed",), "NaN"),
                  r"^The record's 'seed' must be .*, not <NaN, which JSON does not have>$")
    rejected_text(json.dumps(golden()).replace('"seed": ', '"seed": 2, "seed": ', 1),
                  r"^The record is not valid JSON: the key 'seed' appears twice in one object$")


def test_a_file_larger_than_a_record_can_be(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    with pytest.raises(RecordError, match=r"big.json is larger than 16 MB: not a game record$"):
        load_record(path)


def test_a_directory_and_odd_file_names(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match=r"^Cannot read .*: Is a directory$"):
        load_record(tmp_path)
    odd = tmp_path / "two\nlines.json"
    odd.write_text("{", encoding="utf-8")
    with pytest.raises(RecordError) as error:
        load_record(odd)
    assert "\n" not in str(error.value) and "two\\nlines.json" in str(error.value)


# Types: a bool is not a seat, a float is not a version --------------------------------------------------------


def test_a_seat_written_as_true() -> None:
    record = golden()
    assert record["hands"][0]["actions"][0][0] == 1
    record["hands"][0]["actions"][0][0] = True
    rejected(record, r'^Hand 1, action 1: each action is \[seat, "text"\] with a seat from 0 to 3, not \[True, '
                     r"'12S'\]$")


def test_a_dealer_written_as_true() -> None:
    record = golden()
    assert record["hands"][1]["dealer"] == 1
    record["hands"][1]["dealer"] = True
    rejected(record, r"^Hand 2: 'dealer' must be a seat from 0 to 3, not True$")
    match = Match.start(israeli(), 5, first_dealer=1)
    record = to_record(match)
    record["first_dealer"] = True
    rejected(record, r"^The record's 'first_dealer' must be a seat from 0 to 3, not True$")


@pytest.mark.parametrize(("field", "value", "message"), [
    ("version", True, r"^Unsupported record version True; this program reads 1 and 2$"),
    ("version", 1.0, r"^Unsupported record version 1.0; this program reads 1 and 2$"),
    ("finished", 1, r"^The record's 'finished' must be true or false, not 1$"),
    ("seating", [0, True, 2, 3], r"^The record's 'seating' must be a list of 4 integers, not \[0, True, 2, 3\]$"),
    ("totals", [1.0, 2, 3, 4], r"^The record's 'totals' must be a list of 4 integers, not \[1.0, 2, 3, 4\]$"),
    ("seed", True, r"^The record's 'seed' must be an integer of at most 100 digits or text"),
    ("seed", 10**100, r"^The record's 'seed' must be an integer of at most 100 digits or text"),
    ("rules", {"hands": [12]}, r"^The record's rule 'hands' must be text, a whole number, true, false or null, "
                               r"not \[12\]$"),
    ("players", ["Ann", "Ben", "Cy", 4], r"^The record's 'players' entry 4 must be text of at most 100 "
                                         r"characters, not 4$"),
    ("players", ["Ann", "Ben", "Cy", "Dov\nEve"], r"^The record's 'players' entry 4 holds a control character or a "
                                                  r"line break: 'Dov\\nEve'$"),
    ("players", ["Ann", "Ben", "Cy", "\ud800"], r"^The record's 'players' entry 4 is not valid Unicode: '\\ud800' "
                                                r"holds a lone surrogate$"),
    ("players", ["Ann", "Ben", "Cy", "x" * 101], r"^The record's 'players' entry 4 must be text of at most 100 "
                                                 r"characters, not 'xxxx"),
])
def test_exact_types(field: str, value: Any, message: str) -> None:
    record = golden()
    record[field] = value
    rejected(record, message)


def test_a_text_seed_with_a_lone_surrogate() -> None:
    """random.Random("\\ud800") raises UnicodeEncodeError: the seed is refused before any shuffle."""
    record = to_record(Match.start(israeli(), "ab"))
    record["seed"] = "a\ud800"
    rejected(record, r"^The record's 'seed' is not valid Unicode: 'a\\ud800' holds a lone surrogate$")


def test_unknown_fields() -> None:
    record = golden()
    record["finshed"] = True  # misspelt: it would check nothing
    rejected(record, r"^The record has an unknown field 'finshed'$")
    record = golden()
    record["hands"][2]["pionts"] = [0, 0, 0, 0]
    rejected(record, r"^Hand 3 has an unknown field 'pionts'$")


# Stated facts that contradict the replay ------------------------------------------------------------------------------


def test_a_wrong_hand_number() -> None:
    record = golden()
    record["hands"][3]["number"] = 7
    rejected(record, r"^Hand 4: 'number' must be 4 \(hands are numbered in order, cancelled ones included\), not 7$")
    record["hands"][3]["number"] = "4"
    rejected(record, r"^Hand 4: 'number' must be 4 .*, not '4'$")


def test_finished_must_agree_with_the_replay() -> None:
    record = golden()
    record["finished"] = False
    rejected(record, r"^'finished' is false, but the game is over after hand 12$")
    record = golden()
    record["hands"] = record["hands"][:3]
    record["totals"] = [sum(hand["points"][seat] for hand in record["hands"]) for seat in range(4)]
    del record["finished"]
    assert not replay(record).complete  # the totals so far, and no 'finished': a game saved midway
    record["finished"] = True
    rejected(record, r"^'finished' is true, but the game goes on after the last hand of the record$")


def test_totals_are_checked_in_an_unfinished_game_too() -> None:
    record = golden()
    record["hands"] = record["hands"][:3]
    record["finished"] = False
    rejected(record, r"^'totals' \[.*\] do not match the replayed totals \[")


def test_cancelled_must_agree_with_the_replay() -> None:
    record = golden("israeli_frisch")
    assert record["hands"][2]["cancelled"] is True
    record["hands"][1]["cancelled"] = True
    rejected(record, r"^Hand 2: 'cancelled' is true, but the hand was played$")
    record = golden("israeli_frisch")
    record["hands"][2]["cancelled"] = False
    rejected(record, r"^Hand 3: 'cancelled' is false, but nobody bid after the last Frisch: the hand was cancelled$")
    record = golden("israeli_frisch")
    record["hands"][1]["cancelled"] = False  # true of a played hand
    del record["hands"][2]["cancelled"]  # like 'points', a statement a record may leave out
    replay(record)


def test_a_cancelled_or_scored_hand_that_is_not_over() -> None:
    record = golden("israeli_frisch")
    record["hands"] = record["hands"][:3]
    record["hands"][2]["actions"] = record["hands"][2]["actions"][:-1]
    del record["totals"], record["finished"]
    rejected(record, r"^Hand 3: 'points' are given, but the hand is not over$")
    del record["hands"][2]["points"]
    rejected(record, r"^Hand 3: 'cancelled' is true, but the hand is not over$")
    del record["hands"][2]["cancelled"]
    assert not replay(record).complete


def test_a_turned_card_left_out_as_null() -> None:
    record = golden("classic_standard")
    turned = record["hands"][0]["turned_card"]
    record["hands"][0]["turned_card"] = None
    rejected(record, rf"^Hand 1: 'turned_card' is null, but the deal of this seed turns up {turned}$")


# Messages: one line, the seat named, values cut short ----------------------------------------------------------------


def test_an_action_after_the_hand_names_its_seat() -> None:
    record = golden()
    record["hands"][0]["actions"].append([3, "KH"])
    number = len(record["hands"][0]["actions"])
    rejected(record, rf"^Hand 1, action {number}, seat 3, 'KH': the hand was already over$")


@pytest.mark.parametrize("text", ["Q\nH", "Q\u2028H", "\u202eHQ", "x" * 1_000_000, "Q\ud800"],
                         ids=["newline", "line-separator", "bidi-override", "a-megabyte", "lone-surrogate"])
def test_echoed_values_stay_on_one_line_and_short(text: str) -> None:
    record = golden()
    record["hands"][0]["deal"][0] = text
    message = rejected(record, r"^Hand 1: seat 0's (deal|deal must be text of at most 200 characters|deal is not "
                               r"valid Unicode)")
    assert message.isprintable() and len(message) < 200
    record = golden()
    record["hands"][0]["actions"][0][1] = text
    message = rejected(record, r"^Hand 1, action 1, seat 1, ")
    assert message.isprintable() and len(message) < 200


def test_quoted_is_one_line_and_bounded() -> None:
    deep: Any = []
    for _ in range(10_000):
        deep = [deep]
    for value in (deep, "\n" * 10**6, 10**10_000, {"a\nb": [None, True, 1.5]}, object()):
        shown = quoted(value)
        assert shown.isprintable() and len(shown) <= 63, shown


def test_replay_refuses_what_is_not_a_record() -> None:
    values: list[Any] = [None, [], "record", 3, {"format": "whist-record", "version": 1}]
    for value in values:
        rejected(value, r"^(A record is a JSON object|The record has no 'game' field)")
    record = golden()
    record[3] = "x"  # type: ignore[index]  # a dict built in Python may have any keys
    rejected(record, r"^The record has an unknown field 3$")
    record = copy.deepcopy(golden())
    record["rules"][("a",)] = 1
    rejected(record, r"^The name of a rule must be text of at most 100 characters, not \('a',\)$")
