"""Hints used in a game record (version 2, ``hands[].hints``): written only when a hint was used, so
that every other record stays version 1; read back and checked strictly (a seat asks on its own turn,
at a step the hand has); refused in a version 1 record."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_records import golden

from israeli_whist.core.errors import RecordError
from israeli_whist.core.records import replay, to_record


def hinted(record: dict[str, Any], hints: Any, version: Any = 2) -> dict[str, Any]:
    changed = copy.deepcopy(record)
    changed["version"] = version
    changed["hands"][0]["hints"] = hints
    return changed


def refused(record: dict[str, Any], message: str) -> None:
    with pytest.raises(RecordError) as error:
        replay(record)
    assert re.search(message, str(error.value)), str(error.value)


def test_hints_are_written_only_where_one_was_used() -> None:
    match = replay(golden()).match
    plain = to_record(match)
    assert plain["version"] == 1 and all("hints" not in hand for hand in plain["hands"])
    assert to_record(match, hints={})["version"] == 1
    seat = golden()["hands"][0]["actions"][4][0]
    record = to_record(match, hints={1: [(4, seat)]})
    assert record["version"] == 2 and record["hands"][0]["hints"] == [[4, seat]]
    assert all("hints" not in hand for hand in record["hands"][1:])
    assert replay(record).complete  # checked, and read back


def test_a_hint_must_be_asked_at_a_step_of_the_hand_by_the_seat_on_turn() -> None:
    record = golden()
    actions = record["hands"][0]["actions"]
    seat = actions[4][0]
    assert replay(hinted(record, [[4, seat], [len(actions), 0]])).complete  # after the last action too
    other = (seat + 1) % len(record["players"])
    refused(hinted(record, [[4, other]]), rf"Hand 1, hint 1: seat {other} asked before action 5, which is seat "
                                          rf"{seat}'s")
    refused(hinted(record, [[len(actions) + 1, 0]]), r"Hand 1, hint 1: each hint is \[step, seat\]")
    for bad in ([[-1, 0]], [[0, 9]], [[True, 0]], [[0.0, 0]], [[0]], [[0, 0, 0]], ["0 0"], {"step": 0}, 3, None):
        refused(hinted(record, bad), r"Hand 1(, hint 1: each hint is|: 'hints' must be)")


def test_a_version_1_record_holds_no_hints() -> None:
    refused(hinted(golden(), [[0, golden()["hands"][0]["actions"][0][0]]], version=1),
            r"^Hand 1 has 'hints', which a record of version 2 holds, not one of version 1$")


@settings(max_examples=200, deadline=None, database=None, derandomize=True)
@given(hints=st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=5)),
                          lambda inner: st.lists(inner, max_size=4), max_leaves=12))
def test_hints_of_any_shape_are_read_or_refused_with_a_record_error(hints: Any) -> None:
    record = golden()
    actions = record["hands"][0]["actions"]
    try:
        replay(hinted(record, hints))
    except RecordError:  # any other exception fails the test
        return
    # Accepted only where each hint is [step, seat] of the hand, asked on the seat's own turn.
    assert isinstance(hints, list)
    for hint in hints:
        assert isinstance(hint, list) and len(hint) == 2 and all(type(n) is int for n in hint), hint
        step, seat = hint
        assert 0 <= step <= len(actions) and 0 <= seat < len(record["players"])
        assert step == len(actions) or actions[step][0] == seat
