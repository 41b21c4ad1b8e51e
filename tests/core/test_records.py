"""Game records (israeli_whist.core.records): round trips, and corrupted records rejected with a
RecordError that names the hand, the action, the seat and the reason."""

from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from helpers import classic, israeli, play_match
from hypothesis import given, settings
from hypothesis import strategies as st

from israeli_whist.core.actions import Phase, parse_action
from israeli_whist.core.cards import SUIT_NAMES, card_name, cards_in
from israeli_whist.core.errors import RecordError
from israeli_whist.core.match import Match
from israeli_whist.core.records import dump_record, load_record, replay, to_record

GOLDEN_DIR = Path(__file__).parent.parent / "golden"


def golden(name: str = "israeli_standard") -> dict[str, Any]:
    return load_record(GOLDEN_DIR / f"{name}.json")


def rejected(record: dict[str, Any], message: str) -> str:
    with pytest.raises(RecordError) as error:
        replay(record)
    assert re.search(message, str(error.value)), str(error.value)
    return str(error.value)


def walk(record: dict[str, Any], hand: int = 1) -> list[tuple[int, int, Any]]:
    """(action number, seat, state before) for every action of a hand of a valid record."""
    before = {key: value for key, value in record.items() if key not in ("totals", "finished")}
    match = replay({**before, "hands": record["hands"][:hand - 1]}).match
    state = match.hand
    out = []
    for number, (seat, text) in enumerate(record["hands"][hand - 1]["actions"], start=1):
        out.append((number, seat, state))
        state = state.apply(parse_action(text, state.phase))
    return out


# Round trips --------------------------------------------------------------------------------------


def test_dump_and_load(tmp_path: Path) -> None:
    match = play_match(Match.start(israeli(hands=2), 3), random.Random(3))
    record = to_record(match, ["Ann", "Ben", "Cy", "Dov"])
    path = tmp_path / "game.json"
    dump_record(record, path)
    assert load_record(path) == record
    assert replay(load_record(path)).match.totals == match.totals
    assert record["finished"] is True and record["players"] == ["Ann", "Ben", "Cy", "Dov"]


def test_default_player_names_and_first_dealer() -> None:
    match = Match.start(israeli(), 5, first_dealer=2)
    record = to_record(match)
    assert record["players"] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    assert record["first_dealer"] == 2
    assert record["hands"] == [{"number": 1, "dealer": 2, "deal": record["hands"][0]["deal"], "turned_card": None,
                                "actions": []}]
    checked = replay(record)
    assert not checked.complete and checked.match.hand == match.hand


def test_an_unfinished_record_replays_without_error() -> None:
    record = golden()
    record["hands"] = record["hands"][:2]
    record["hands"][1]["actions"] = record["hands"][1]["actions"][:30]
    del record["hands"][1]["points"]
    record["totals"] = record["hands"][0]["points"]  # the totals of the finished hands
    record["finished"] = False
    checked = replay(record)
    assert not checked.complete and len(checked.match.results) == 1
    assert len(checked.match.hand.history) == 30


def test_a_record_without_optional_fields_replays() -> None:
    record = golden()
    for name in ("first_dealer", "players", "seating", "totals", "finished"):
        del record[name]
    for hand in record["hands"]:
        for name in ("number", "dealer", "deal", "turned_card", "points"):
            hand.pop(name, None)
    assert list(replay(record).match.totals) == golden()["totals"]


# Corrupted records ----------------------------------------------------------------------------------


def test_a_card_not_held() -> None:
    record = golden()
    steps = walk(record)
    number, seat, state = next(step for step in steps if step[2].phase == Phase.PLAY)
    other = cards_in(state.hands[(seat + 1) % 4])[0]
    text = card_name(other)
    record["hands"][0]["actions"][number - 1][1] = text
    rejected(record, rf"^Hand 1, action {number}, seat {seat}, '{text}': You don't hold the ")


def test_a_revoke() -> None:
    record = golden()
    number, seat, state = next(step for step in walk(record) if step[2].phase == Phase.PLAY
                               and len(step[2].legal_actions()) < step[2].hands[step[1]].bit_count())
    wrong = next(c for c in cards_in(state.hands[seat]) if c not in state.legal_actions())
    text = card_name(wrong)
    record["hands"][0]["actions"][number - 1][1] = text
    suit = SUIT_NAMES[state.trick[0] // 13]
    rejected(record, rf"^Hand 1, action {number}, seat {seat}, '{text}': You must follow {suit}: you hold the ")


def test_an_illegal_bid() -> None:
    record = golden()
    record["hands"][0]["actions"][0][1] = "4S"
    seat = record["hands"][0]["actions"][0][0]
    rejected(record, rf"^Hand 1, action 1, seat {seat}, '4S': The minimum bid in spades is now 5$")


def test_bad_notation() -> None:
    record = golden()
    record["hands"][0]["actions"][0][1] = "5Z"
    rejected(record, r"^Hand 1, action 1, seat 1, '5Z': Not a suit")


def test_a_wrong_seat() -> None:
    record = golden()
    action = record["hands"][2]["actions"][4]
    right = action[0]
    action[0] = (right + 1) % 4
    rejected(record, rf"^Hand 3, action 5, seat {(right + 1) % 4}, '.*': it is seat {right}'s turn, "
                     rf"not seat {(right + 1) % 4}'s$")


def test_a_malformed_action() -> None:
    record = golden()
    record["hands"][1]["actions"][3] = [1]
    rejected(record, r"^Hand 2, action 4: each action is \[seat, \"text\"\] with a seat from 0 to 3, not \[1\]$")


@pytest.mark.parametrize(("path", "message"), [
    (("format",), r"^Not a whist record: 'format' must be 'whist-record'$"),
    (("game",), r"^The record has no 'game' field$"),
    (("rules",), r"^The record has no 'rules' field$"),
    (("seed",), r"^The record has no 'seed' field$"),
    (("hands",), r"^The record has no 'hands' field$"),
    (("hands", 0, "actions"), r"^Hand 1 has no 'actions' field$"),
    (("version",), r"^The record has no 'version' field$"),
])
def test_a_missing_field(path: tuple[Any, ...], message: str) -> None:
    record = golden()
    target: Any = record
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]
    rejected(record, message)


@pytest.mark.parametrize(("field", "value", "message"), [
    ("version", 3, r"^Unsupported record version 3; this program reads 1 and 2$"),
    ("game", "bridge", r"^Bad rules: Unknown game 'bridge'"),
    ("game", 3, r"^The record's 'game' must be text of at most 40 characters, not 3$"),
    ("seed", 1.5, r"^The record's 'seed' must be an integer of at most 100 digits or text of at most 100 "
                  r"characters, not 1.5$"),
    ("hands", {}, r"^The record's 'hands' must be a list, not \{\}$"),
    ("first_dealer", 4, r"^The record's 'first_dealer' must be a seat from 0 to 3, not 4$"),
    ("players", ["a", "b"], r"^The record's 'players' must be a list of 4 names, not \['a', 'b'\]$"),
])
def test_a_bad_field(field: str, value: Any, message: str) -> None:
    record = golden()
    record[field] = value
    rejected(record, message)


def test_a_wrong_deal() -> None:
    record = golden()
    deal = record["hands"][1]["deal"]
    first, second = deal[0].split(), deal[1].split()
    first[0], second[0] = second[0], first[0]
    deal[0], deal[1] = " ".join(first), " ".join(second)
    rejected(record, rf"^Hand 2: seat 0's deal '{re.escape(deal[0])}' is not the deal of this seed$")


def test_a_deal_with_a_bad_card() -> None:
    record = golden()
    record["hands"][0]["deal"][2] = "AS XX"
    rejected(record, r"^Hand 1: seat 2's deal: Not a card: 'XX'")


def test_a_wrong_dealer() -> None:
    record = golden()
    record["hands"][3]["dealer"] = 0
    rejected(record, r"^Hand 4: the dealer is seat 3, not 0$")


def test_a_wrong_seed() -> None:
    record = golden()
    record["seed"] = record["seed"] + 1
    rejected(record, r"^Hand 1: seat 0's deal '.*' is not the deal of this seed$")


def test_wrong_points() -> None:
    record = golden()
    points = record["hands"][2]["points"]
    right = list(points)
    points[0] += 1
    rejected(record, rf"^Hand 3: 'points' {re.escape(str(points))} do not match the replayed {re.escape(str(right))}$")


def test_wrong_totals() -> None:
    record = golden()
    record["totals"][1] -= 10
    rejected(record, r"^'totals' .* do not match the replayed totals ")


def test_truncated_json(tmp_path: Path) -> None:
    text = (GOLDEN_DIR / "israeli_standard.json").read_text(encoding="utf-8")
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2], encoding="utf-8")
    with pytest.raises(RecordError, match=r"cut.json is not valid JSON: .* at line \d+, column \d+"):
        load_record(path)


def test_not_a_record_file(tmp_path: Path) -> None:
    path = tmp_path / "list.json"
    path.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(RecordError, match=r"list.json: a record is a JSON object, not \[1, 2\]$"):
        load_record(path)
    with pytest.raises(RecordError, match="Cannot read"):
        load_record(tmp_path / "missing.json")
    path.write_bytes(b"\xff\xfe\xfa")
    with pytest.raises(RecordError, match=r"is not a text file: byte 1 is not UTF-8$"):
        load_record(path)


def test_actions_after_the_end_of_a_hand() -> None:
    record = golden()
    last = record["hands"][-1]
    last["actions"].append([0, "AS"])
    rejected(record, rf"^Hand 12, action {len(last['actions'])}, seat 0, 'AS': the hand was already over$")
    record = golden()
    record["hands"][0]["actions"].append([2, "AS"])
    rejected(record, rf"^Hand 1, action {len(record['hands'][0]['actions'])}, seat 2, 'AS': "
                     r"the hand was already over$")


def test_a_hand_after_the_end_of_the_game() -> None:
    record = golden()
    record["hands"].append({**copy.deepcopy(record["hands"][-1]), "number": 13})
    rejected(record, r"^Hand 13: the game was already over after hand 12$")


def test_a_hand_that_stops_early_followed_by_another() -> None:
    record = golden()
    record["hands"][0]["actions"].pop()
    rejected(record, r"^Hand 1: its actions stop before the hand is over, but hand 2 follows$")


@pytest.mark.parametrize(("option", "value", "message"), [
    ("nt_minimum", 4, r"^Bad rules: Option nt_minimum must be between 5 and 13, not 4$"),
    ("hands", 1.5, r"^The record's rule 'hands' must be text, a whole number, true, false or null, not 1.5$"),
    ("hands", "-3", r"^Bad rules: Option hands is a whole number, not '-3'$"),
    ("no_trump_allowed", "perhaps", r"^Bad rules: Option no_trump_allowed is true or false, not 'perhaps'$"),
    ("frisch_direction", "up", r"^Bad rules: Option frisch_direction must be one of left, rotating, right"),
    ("form", None, r"^Bad rules: Option form is text, not None$"),
    ("speed", "fast", r"^Bad rules: Unknown option 'speed' for israeli"),
])
def test_a_bad_option_value(option: str, value: Any, message: str) -> None:
    record = golden()
    record["rules"][option] = value
    rejected(record, message)


def test_changed_rules_do_not_replay() -> None:
    record = golden()
    record["rules"]["auction_end"] = "four_passes"  # the auction goes on where the record bids contracts
    rejected(record, r"^Hand 1, action \d+, seat \d, '\d+': A call is 'pass' or a level and strain")


def test_an_illegal_frisch_card() -> None:
    record = golden("israeli_frisch")
    steps = walk(record)
    number, seat, state = next(step for step in steps if step[2].phase == Phase.FRISCH)
    held_elsewhere = cards_in(state.hands[(seat + 2) % 4])[0]
    text = card_name(held_elsewhere)
    record["hands"][0]["actions"][number - 1][1] = text
    rejected(record, rf"^Hand 1, action {number}, seat {seat}, '{text}': You don't hold the ")


def test_classic_turned_card_and_seating() -> None:
    record = golden("classic_standard")
    record["hands"][0]["turned_card"] = "QQ"
    rejected(record, r"^Hand 1: the turned card is not 'QQ' in the deal of this seed$")
    match = Match.start(classic(cut_for_partners=True), 11)
    record = to_record(match)
    assert replay(json.loads(json.dumps(record))).match.seating == match.seating
    record["seating"] = [3, 2, 1, 0] if match.seating != (3, 2, 1, 0) else [0, 1, 2, 3]
    rejected(record, r"^'seating' \[.*\] does not match the cut for partners of seed 11$")


def json_paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    paths = [prefix] if prefix else []
    if isinstance(value, dict):
        for key, item in value.items():
            paths += json_paths(item, (*prefix, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            paths += json_paths(item, (*prefix, index))
    return paths


JSON_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from([1.5, 2**70]),
                        st.sampled_from(["", "x", "AS", "pass", "5S", "7NT", "13", "1,2"]),
                        st.lists(st.integers(0, 3), max_size=2), st.just({}))
FUZZ_RECORDS = {name: golden(name) for name in ("classic_honours_rubber", "israeli_frisch", "whistiti_7_up_down")}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(FUZZ_RECORDS)), st.data(), JSON_VALUES, st.booleans())
def test_any_corruption_is_a_record_error_or_harmless(name: str, data: st.DataObject, value: Any,
                                                      delete: bool) -> None:
    """Whatever field is changed or removed, replay either succeeds or raises RecordError."""
    record = copy.deepcopy(FUZZ_RECORDS[name])
    path = data.draw(st.sampled_from(json_paths(record)))
    parent: Any = record
    for key in path[:-1]:
        parent = parent[key]
    if delete:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    try:
        replay(record)
    except RecordError as error:
        assert str(error) and "\n" not in str(error)
