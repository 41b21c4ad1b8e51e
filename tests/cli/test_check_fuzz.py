"""``whist check`` against mutated records: any JSON type in any field, numbers of any size, any
Unicode (lone surrogates, bidi controls, digits of other scripts), truncated text, deep nesting.

Whatever the file holds, the check ends with exit status 1 and one line on stderr, or with 0 for
a record that is true. "True" is judged here by a second, plain replay through the engine (not
through ``israeli_whist.core.records``): a mutation may leave a record valid (a player renamed, an
unused rule changed, the last action of an unfinished game dropped), and then every fact the
record states must be what that replay derives. Most cases run in-process; a few run the real
``whist check`` command in a subprocess.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from helpers import classic, play_match
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from rich.console import Console

from israeli_whist.cli.check import run_check
from israeli_whist.core.actions import parse_action
from israeli_whist.core.cards import parse_card, parse_hand
from israeli_whist.core.errors import WhistError
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.records import to_record
from israeli_whist.core.recordshape import (
    MAX_ACTION_TEXT,
    MAX_CARD_TEXT,
    MAX_DEAL_TEXT,
    MAX_GAME_NAME,
    MAX_NAME,
    MAX_OPTION_NAME,
    MAX_OPTION_TEXT,
    MAX_SEED,
)

WHIST = [sys.executable, "-m", "israeli_whist.cli"]  # the whist command, from this checkout

GOLDEN_DIR = Path(__file__).parent.parent / "golden"
FIELDS = ("format", "version", "game", "rules", "seed", "first_dealer", "players", "seating", "hands", "totals",
          "finished")
HAND_FIELDS = ("number", "dealer", "deal", "turned_card", "actions", "points", "cancelled", "hints")


def base_records() -> dict[str, dict[str, Any]]:
    records = {name: json.loads((GOLDEN_DIR / f"{name}.json").read_text(encoding="utf-8"))
               for name in ("israeli_frisch", "classic_standard", "whistiti_7_up_down")}
    # A game saved in the middle of its third hand, and a Classic Whist game with partners cut
    # by cards from a text seed.
    golden = records["israeli_frisch"]
    match = Match.start(make_game("israeli", None, golden["rules"]), golden["seed"])
    for hand in golden["hands"][:2]:
        for _, text in hand["actions"]:
            match = match.apply(parse_action(text, match.hand.phase))
    for _, text in golden["hands"][2]["actions"][:20]:
        match = match.apply(parse_action(text, match.hand.phase))
    records["israeli_unfinished"] = to_record(match, ["Dana", "דנה", "Zoë", "Bot 3"])
    cut = play_match(Match.start(classic(cut_for_partners=True), "s€ed"), random.Random(5))
    records["classic_cut"] = to_record(cut, ["A", "B", "C", "D"])
    return records


RECORDS = base_records()
TEXTS = {name: json.dumps(record, ensure_ascii=False) for name, record in RECORDS.items()}


# The judge: a plain replay of what the mutated record says -------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Equality of JSON values with their types: true is not 1, and 1.0 is not 1."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


def unicode_text(value: Any, longest: int) -> bool:
    if not isinstance(value, str) or len(value) > longest:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def valid_name(value: Any) -> bool:
    return unicode_text(value, MAX_NAME) and not any(unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")
                                                     for c in value)


def is_int(value: Any) -> bool:
    return type(value) is int


def strict_json(data: bytes) -> Any:
    """The JSON value of a file, or None-in-a-list sentinel ``[]`` when it is not strict JSON."""
    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        if len({k for k, _ in items}) < len(items):
            raise ValueError("a key twice")
        return dict(items)

    def constant(name: str) -> Any:
        raise ValueError(name)

    return json.loads(data.decode("utf-8"), object_pairs_hook=pairs, parse_constant=constant)


def is_true_record(data: bytes) -> bool:
    """Whether a file is a record whose every stated fact the engine's own replay confirms."""
    try:
        record = strict_json(data)
    except (ValueError, RecursionError):
        return False
    if not isinstance(record, dict) or not set(record) <= set(FIELDS):
        return False
    if not (same(record.get("format"), "whist-record")
            and (same(record.get("version"), 1) or same(record.get("version"), 2))):
        return False
    if not all(name in record for name in ("game", "rules", "seed", "hands")):
        return False
    rules, seed = record["rules"], record["seed"]
    if not unicode_text(record["game"], MAX_GAME_NAME) or not isinstance(rules, dict):
        return False
    for option, value in rules.items():
        if not unicode_text(option, MAX_OPTION_NAME):
            return False
        if isinstance(value, str) and not unicode_text(value, MAX_OPTION_TEXT):
            return False
        if not (value is None or isinstance(value, bool | str) or is_int(value)):
            return False
    if not ((is_int(seed) and abs(seed) < 10**MAX_SEED) or unicode_text(seed, MAX_SEED)):
        return False
    try:
        game = make_game(record["game"], None, rules)
    except WhistError:
        return False
    players = game.players
    first_dealer = record.get("first_dealer", 0)
    if not (is_int(first_dealer) and 0 <= first_dealer < players):
        return False
    names = record.get("players", [f"Player {i + 1}" for i in range(players)])
    if not (isinstance(names, list) and len(names) == players and all(valid_name(n) for n in names)):
        return False
    hands = record["hands"]
    if not isinstance(hands, list):
        return False
    match = Match.start(game, seed, first_dealer)
    for index, hand in enumerate(hands):
        if match.over or not isinstance(hand, dict) or not set(hand) <= set(HAND_FIELDS) or "actions" not in hand:
            return False
        state = match.hand
        if not facts_of_deal_agree(hand, state, players):
            return False
        actions = hand["actions"]
        if not isinstance(actions, list):
            return False
        for item in actions:
            if not (isinstance(item, list) and len(item) == 2 and is_int(item[0])
                    and unicode_text(item[1], MAX_ACTION_TEXT)):
                return False
            if len(match.results) > index or item[0] != match.hand.player:
                return False  # an action after the end of its hand, or out of turn
            try:
                match = match.apply(parse_action(item[1], match.hand.phase))
            except WhistError:
                return False
        if "hints" in hand and not (same(record["version"], 2) and true_hints(hand["hints"], actions, players)):
            return False
        finished = len(match.results) > index
        if not finished and index < len(hands) - 1:
            return False
        result = match.results[index] if finished else None
        if "number" in hand and not same(hand["number"], index + 1):
            return False
        if "points" in hand and (result is None or not same(hand["points"], list(result.points))):
            return False
        if "cancelled" in hand and not same(hand["cancelled"], result is not None and result.cancelled):
            return False
    written = to_record(match, names, first_dealer)
    return all(same(record[name], written[name]) for name in ("seating", "totals", "finished") if name in record)


def true_hints(hints: Any, actions: list[Any], players: int) -> bool:
    """docs/record-format.md: version 2's ``[step, seat]`` of each hint, asked on the seat's own turn."""
    if not isinstance(hints, list):
        return False
    for hint in hints:
        if not (isinstance(hint, list) and len(hint) == 2 and all(is_int(n) for n in hint)):
            return False
        step, seat = hint
        if not (0 <= step <= len(actions) and 0 <= seat < players):
            return False
        if step < len(actions) and actions[step][0] != seat:
            return False
    return True


def facts_of_deal_agree(hand: dict[str, Any], state: Any, players: int) -> bool:
    if "dealer" in hand and not same(hand["dealer"], state.dealer):
        return False
    if "deal" in hand:
        deal = hand["deal"]
        if not (isinstance(deal, list) and len(deal) == players):
            return False
        for seat, text in enumerate(deal):
            try:
                if not unicode_text(text, MAX_DEAL_TEXT) or parse_hand(text) != state.deal[seat]:
                    return False
            except WhistError:
                return False
    if "turned_card" in hand:
        turned = hand["turned_card"]
        if turned is None:
            return bool(state.turned_card < 0)
        try:
            return unicode_text(turned, MAX_CARD_TEXT) and parse_card(turned) == state.turned_card
        except WhistError:
            return False
    return True


# Mutations ---------------------------------------------------------------------------------------------------

ODD_CHARACTERS = ["\ud800", "\udfff", "\u202e", "\u2066", "\u200f", "\n", "\r", "\x00", "\x85", "\u2028", "²",
                  "٣", "３", "߃", "\ufeff", "\U0001f0a1", "♥", "NT", " ", "\t", "10", "0"]
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-3, 20),
    st.sampled_from([10**100 - 1, 10**100, -(10**100), 2**63, 1.0, 0.0, -0.0, 1.5, 1e308]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(st.characters(exclude_categories=()), max_size=12),
    st.sampled_from(["", "AS", "QH", "qh", "10H", "Q♥", "pass", "p", "5S", "7NT", "3", "٣", "²", "١٢", "whist-record",
                     "israeli", "classic", "whistiti", "x" * 101, "x" * 2000, "up_down", "1,2,3"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
    st.sampled_from([*FIELDS, *HAND_FIELDS, "x", ""]), inner, max_size=3), max_leaves=8)
RAW_VALUES = st.one_of(
    st.integers(101, 20_000).map(lambda n: "9" * n),
    st.integers(101, 5_000).map(lambda n: "-1." + "0" * n),
    st.sampled_from(["NaN", "Infinity", "-Infinity", "1e99999", "-0", "[]", "{}", '"\\ud800"', '"\\udc80x"']),
    st.integers(2, 300_000).map(lambda n: "[" * n + "]" * n),
    st.integers(2, 100_000).map(lambda n: '{"a": ' * n + "1" + "}" * n),
)


def pick_path(data: st.DataObject, record: Any) -> list[Any]:
    """A path into the record, descending a random number of levels: every field is as likely
    as the next, not only the many actions."""
    path: list[Any] = []
    node = record
    while isinstance(node, dict | list) and node:
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        key = data.draw(st.sampled_from(keys))
        path.append(key)
        node = node[key]
        if not data.draw(st.booleans()):
            break
    return path


def at(record: Any, path: list[Any]) -> Any:
    for key in path:
        record = record[key]
    return record


def edit_text(data: st.DataObject, text: str) -> str:
    """A small change to a text: a character replaced, inserted or deleted, a case changed, or
    the text made very long."""
    how = data.draw(st.sampled_from(["replace", "insert", "delete", "case", "long", "digits"]))
    place = data.draw(st.integers(0, len(text)))
    odd = data.draw(st.sampled_from(ODD_CHARACTERS) | st.characters(exclude_categories=()))
    if how == "replace":
        return text[:place] + odd + text[place + 1:]
    if how == "insert":
        return text[:place] + odd + text[place:]
    if how == "delete":
        return text[:place] + text[place + 1:]
    if how == "case":
        return text.swapcase()
    if how == "long":  # up to a megabyte
        return ((text or "x") * data.draw(st.sampled_from([50, 5_000, 1_000_000])))[:1_000_000]
    script = data.draw(st.sampled_from([0x660, 0xFF10, 0x6F0, 0x966]))  # Arabic-Indic, fullwidth, ...
    return "".join(chr(ord(c) - ord("0") + script) if c in "0123456789" else c for c in text)


def mutate(data: st.DataObject, name: str) -> bytes:
    """The bytes of a record file: one record changed in one way."""
    record = copy.deepcopy(RECORDS[name])
    kind = data.draw(st.sampled_from(["set", "set", "delete", "insert", "text", "raw", "truncate", "bytes",
                                      "twice", "same"]))
    event(f"mutation: {kind}")
    if kind == "truncate":
        text = TEXTS[name]
        return text[:data.draw(st.integers(0, len(text)))].encode("utf-8")
    if kind == "bytes":
        raw = TEXTS[name].encode("utf-8")
        place = data.draw(st.integers(0, len(raw)))
        return raw[:place] + data.draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00"])) + raw[place:]
    if kind == "twice":
        field = data.draw(st.sampled_from(list(record)))
        return TEXTS[name].replace(f'"{field}": ', f'"{field}": 0, "{field}": ', 1).encode("utf-8")
    path = pick_path(data, record)
    parent: Any = at(record, path[:-1]) if path else None
    if kind == "same" or not path:
        pass
    elif kind == "set":
        parent[path[-1]] = data.draw(VALUES)
    elif kind == "delete":
        del parent[path[-1]]
    elif kind == "insert":
        if isinstance(parent, dict):
            parent[data.draw(st.sampled_from([*FIELDS, *HAND_FIELDS, "x", "Finished"]))] = data.draw(VALUES)
        else:
            parent.insert(data.draw(st.integers(0, len(parent))), data.draw(VALUES))
    elif kind == "text":
        value = at(record, path)
        parent[path[-1]] = edit_text(data, value) if isinstance(value, str) else data.draw(VALUES)
    elif kind == "raw":
        parent[path[-1]] = "@@raw@@"
        return json.dumps(record).replace('"@@raw@@"', data.draw(RAW_VALUES), 1).encode("utf-8")
    return json.dumps(record, ensure_ascii=data.draw(st.booleans()) or not_utf8(record)).encode("utf-8")


def not_utf8(record: Any) -> bool:
    """Whether writing the record as raw UTF-8 would fail (a lone surrogate): then escape it."""
    try:
        json.dumps(record, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


# The checks ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def folder() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def check_in_process(path: Path, as_json: bool) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = run_check(path, as_json, Console(file=out, width=100))
    return status, out.getvalue(), err.getvalue()


def assert_outcome(status: int, out: str, err: str, data: bytes, as_json: bool) -> None:
    assert "Traceback" not in out + err
    if status == 1 and as_json:  # the error as a JSON object on stdout
        assert err == "" and out.endswith("\n") and out.count("\n") == 1, out
        line = json.loads(out)["error"]
        assert line.isprintable() and len(line) < 600, line
    elif status == 1:
        assert out == ""
        assert err.startswith("whist check: ") and err.endswith("\n") and err.count("\n") == 1, err
        line = err[:-1]
        assert line.isprintable() and len(line) < 600, line
    else:
        assert status == 0 and err == "", (status, err)
        assert is_true_record(data), f"accepted a record that is not true: {out[:200]}"


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(name=st.sampled_from(sorted(RECORDS)), data=st.data(), as_json=st.booleans())
def test_a_mutated_record_is_refused_in_one_line_or_is_true(folder: Path, name: str, data: st.DataObject,
                                                           as_json: bool) -> None:
    content = mutate(data, name)
    path = folder / "record.json"
    path.write_bytes(content)
    status, out, err = check_in_process(path, as_json)
    event(f"exit status {status}")
    assert_outcome(status, out, err, content, as_json)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_the_originals_are_true_and_pass(folder: Path, name: str) -> None:
    """The judge and the check agree on the records the program writes."""
    content = TEXTS[name].encode("utf-8")
    assert is_true_record(content)
    path = folder / f"{name}.json"
    path.write_bytes(content)
    assert check_in_process(path, True)[0] == 0


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(name=st.sampled_from(sorted(RECORDS)), data=st.data())
def test_the_whist_check_command(folder: Path, name: str, data: st.DataObject) -> None:
    """The real command in a subprocess: the same outcome, with no traceback on stderr."""
    content = mutate(data, name)
    path = folder / "command.json"
    path.write_bytes(content)
    done = subprocess.run([*WHIST, "check", str(path), "--json"], capture_output=True,
                          text=True, encoding="utf-8", errors="backslashreplace", timeout=60, check=False)
    assert_outcome(done.returncode, done.stdout, done.stderr, content, True)


@pytest.mark.parametrize("content", [
    b"[" * 300_000 + b"]" * 300_000,
    b'{"format": "whist-record", "version": 1, "seed": ' + b"9" * 10_000 + b"}",
    b"\xff\xfe{}",
    TEXTS["israeli_frisch"].replace('"version": 1', '"version": true').encode("utf-8"),
], ids=["deep", "huge-number", "not-utf-8", "version-true"])
def test_the_command_refuses_hostile_files(folder: Path, content: bytes) -> None:
    path = folder / "hostile.json"
    path.write_bytes(content)
    done = subprocess.run([*WHIST, "check", str(path)], capture_output=True, text=True,
                          encoding="utf-8", errors="backslashreplace", timeout=60, check=False)
    assert done.returncode == 1
    assert_outcome(done.returncode, done.stdout, done.stderr, content, False)


def test_the_judge_is_not_fooled_by_the_audit_examples() -> None:
    """The judge must itself refuse what the audit found the old check accepting, or the fuzz
    test above could pass without looking."""
    def changed(name: str, path: list[Any], value: Any) -> bytes:
        record = copy.deepcopy(RECORDS[name])
        at(record, path[:-1])[path[-1]] = value
        return json.dumps(record).encode("utf-8")

    first_seat = RECORDS["israeli_frisch"]["hands"][0]["actions"][0][0]
    assert first_seat == 1
    assert not is_true_record(changed("israeli_frisch", ["hands", 0, "actions", 0, 0], True))
    assert not is_true_record(changed("israeli_frisch", ["hands", 1, "dealer"], True))
    assert not is_true_record(changed("israeli_frisch", ["hands", 1, "number"], 3))
    assert not is_true_record(changed("israeli_frisch", ["finished"], False))
    assert not is_true_record(changed("israeli_unfinished", ["finished"], True))
    assert not is_true_record(changed("israeli_frisch", ["hands", 1, "cancelled"], True))
    assert not is_true_record(changed("israeli_frisch", ["hands", 2, "cancelled"], False))
    assert not is_true_record(changed("israeli_frisch", ["version"], True))
    assert not is_true_record(changed("classic_standard", ["hands", 0, "turned_card"], None))
    assert not is_true_record(changed("israeli_frisch", ["players", 0], "a\ud800"))
    assert not is_true_record(TEXTS["israeli_frisch"].replace('"seed": ', '"seed": 1, "seed": ', 1).encode())
