"""The event file is untrusted input: any JSON value in any field, numbers of any size, any Unicode, a
result that does not replay, gets one clear line (``EventFileError``, exit status 1) and never a traceback;
and a write cut short leaves the file as it was."""

from __future__ import annotations

import copy
import io
import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console
from typer.testing import CliRunner

from israeli_whist.cli import eventplay
from israeli_whist.cli.eventfile import (
    EVENT_FIELDS,
    RESULT_FIELDS,
    BoardResult,
    Event,
    EventFileError,
    check_event,
    check_result,
    load_event,
    new_event,
    save_event,
)
from israeli_whist.cli.eventplay import play_board, record_result
from israeli_whist.cli.main import app

Answer = Callable[[str], str]


@cache
def played_event(folder: Path, answer: Answer) -> dict[str, Any]:
    """A small event with one board played (by ``answer``), as its file holds it."""
    path = folder / "played.json"
    save_event(new_event("Club", "israeli", None, {}, "fuzz", 2, "medium"), path)
    assert play_board(path, load_event(path), "Ann", 1, Console(file=io.StringIO()), answer) == 0
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return document


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("events")


@pytest.fixture
def valid(folder: Path, answer: Answer) -> dict[str, Any]:
    return copy.deepcopy(played_event(folder, answer))


def played_result(document: dict[str, Any]) -> BoardResult:
    """The first result of an event's JSON, as read."""
    return check_result(check_event({**document, "results": []}, whole=True), document["results"][0], 1)


def write(path: Path, document: object) -> Path:
    # ensure_ascii: a lone surrogate is written as JSON's \ud800 escape, as a hostile file would hold it
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    """The one line ``load_event`` refuses the file with (the test fails if it reads it)."""
    with pytest.raises(EventFileError) as refused:
        load_event(path)
    message = str(refused.value)
    assert "\n" not in message and len(message) < 2000, message
    return message


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-10**120, 10**120) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(st.characters(exclude_categories=()), max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)
WHERE = st.sampled_from(["top", "result", "action", "action item"])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=WHERE, key=st.sampled_from([*EVENT_FIELDS, *RESULT_FIELDS, "extra"]), index=st.integers(0, 80),
       value=JSON | st.just(...))
def test_any_json_in_any_field_is_read_or_refused_in_one_line(folder: Path, valid: dict[str, Any], where: str,
                                                             key: str, index: int, value: Any) -> None:
    """``...`` removes the field instead of setting it. The file is either an event or refused
    with EventFileError; nothing else escapes."""
    document = copy.deepcopy(valid)
    result = document["results"][0]
    target: Any = {"top": document, "result": result, "action": result["actions"],
                   "action item": result["actions"][index % len(result["actions"])]}[where]
    if isinstance(target, list):
        key_or_index: Any = index % len(target)
    else:
        key_or_index = key
    if value is ...:
        if isinstance(target, dict):
            target.pop(key_or_index, None)
        else:
            del target[key_or_index]
    else:
        target[key_or_index] = value
    path = write(folder / "fuzzed.json", document)
    try:
        event = load_event(path)
    except EventFileError as error:
        assert "\n" not in str(error)
        return
    assert isinstance(event, Event)  # a change the file may take: another name, an option spelt out...


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda text: text.encode("utf-8", "surrogatepass")))
def test_any_bytes_are_read_or_refused(folder: Path, data: bytes) -> None:
    path = folder / "bytes.json"
    path.write_bytes(data)
    with pytest.raises(EventFileError):
        load_event(path)


@pytest.mark.parametrize(("change", "message"), [
    (lambda d: d.update(format="whist-record"), "not a whist event file"),
    (lambda d: d.update(version=2), "unsupported event file version 2"),
    (lambda d: d.update(version=1.0), "unsupported event file version 1.0"),
    (lambda d: d.update(boards=True), "'boards' must be a whole number from 1 to 24"),
    (lambda d: d.update(boards=0), "'boards' must be a whole number from 1 to 24"),
    (lambda d: d.update(bot_level="expert"), "'bot_level' must be one of easy, medium, hard"),
    (lambda d: d.update(game="classic", rules={}), "Classic Whist is not played in boards of one hand"),
    (lambda d: d.update(game="poker"), "Bad rules"),
    (lambda d: d.update(seed="\ud800"), "lone surrogate"),
    (lambda d: d.update(name="Ann\u202e"), "A name may not hold an invisible"),
    (lambda d: d["results"][0].update(points=d["results"][0]["points"] + 10), "'points'"),
    (lambda d: d["results"][0].update(tricks=99), "'tricks' 99 does not match the board replayed"),
    (lambda d: d["results"][0].update(seat=1), "'seat' must be 0"),
    (lambda d: d["results"][0].update(board=3), "'board' must be a board of the event, 1 to 2"),
    (lambda d: d["results"][0].update(player=" Ann"), "is not written as a name is kept"),
    (lambda d: d["results"][0]["actions"].pop(), "its actions stop before the board is over"),
    (lambda d: d["results"][0]["actions"].insert(0, d["results"][0]["actions"][1]), "turn"),
    (lambda d: d["results"].append(d["results"][0]), "Ann played board 1 twice"),
    (lambda d: d["results"][0]["actions"].append([0, "AS"]), "the board was already over"),
])
def test_a_file_that_is_no_event_is_refused_saying_why(folder: Path, valid: dict[str, Any],
                                                       change: Callable[[dict[str, Any]], None], message: str) -> None:
    change(valid)
    assert message in refusal(write(folder / "changed.json", valid))


@pytest.mark.parametrize("text", [
    '{"format": "whist-event", "version": 1, "boards": ' + "9" * 5000 + "}",
    '{"format": "whist-event", "version": 1, "boards": NaN}',
    '{"format": "whist-event", "format": "whist-event"}',
    "[" * 100_000 + "]" * 100_000,
    "",
])
def test_unreadable_json_is_refused(folder: Path, text: str) -> None:
    path = folder / "text.json"
    path.write_text(text, encoding="utf-8")
    assert "text.json" in refusal(path)


def test_the_command_refuses_a_bad_file_in_one_line(folder: Path, valid: dict[str, Any]) -> None:
    valid["results"][0]["points"] = "many"
    path = write(folder / "bad.json", valid)
    for args in (["standings", str(path)], ["play", str(path), "--player", "Ben"]):
        result = CliRunner().invoke(app, ["event", *args])
        assert result.exit_code == 1
        assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
        assert "'points' must be a whole number" in result.output and "Traceback" not in result.output


@pytest.mark.parametrize("failure", [OSError(28, "No space left on device"), KeyboardInterrupt()])
def test_a_write_cut_short_leaves_the_file_as_it_was(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     valid: dict[str, Any], failure: BaseException) -> None:
    path = write(tmp_path / "club.json", valid)
    before = path.read_bytes()
    event = load_event(path)

    def cut(*args: object) -> None:
        raise failure

    monkeypatch.setattr(os, "fsync", cut)
    with pytest.raises(type(failure)):
        save_event(event.with_result(replace(event.results[0], board=2)), path)
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]  # the temporary file is gone too


def test_a_file_keeps_its_permissions(tmp_path: Path, valid: dict[str, Any]) -> None:
    path = write(tmp_path / "club.json", valid)
    path.chmod(0o640)
    save_event(load_event(path), path)
    assert path.stat().st_mode & 0o777 == 0o640
    assert json.loads(path.read_text(encoding="utf-8")) == valid  # written back as it was read


def test_results_recorded_at_the_same_moment_are_all_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          valid: dict[str, Any]) -> None:
    """Eight players' boards recorded at once (each write made slow, so that they overlap): every
    one is in the file, none written over by another's copy of the file as it was before."""
    path = write(tmp_path / "club.json", {**valid, "results": []})
    event, ann = load_event(path), played_result(valid)
    def save_slowly(*args: Any) -> None:
        time.sleep(0.05)
        save_event(*args)

    monkeypatch.setattr(eventplay, "save_event", save_slowly)
    names = [f"Player {n}" for n in range(8)]
    with ThreadPoolExecutor(len(names)) as pool:
        list(pool.map(lambda name: record_result(path, event, replace(ann, player=name)), names))
    assert sorted(r.player for r in load_event(path).results) == names


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(player=st.text(st.characters(exclude_categories=()), min_size=1, max_size=40),
       name=st.text(st.characters(exclude_categories=()), min_size=1, max_size=40))
def test_any_name_a_file_takes_is_shown(folder: Path, valid: dict[str, Any], player: str, name: str) -> None:
    """Whatever names the file holds (any Unicode its reader lets through), the tables show them."""
    document = copy.deepcopy(valid)
    document["name"], document["results"][0]["player"] = name, player
    path = write(folder / "names.json", document)
    try:
        load_event(path)
    except EventFileError:
        return  # a name that is no name: refused in one line (above)
    for extra in ([], ["--board", "1"]):
        shown = CliRunner().invoke(app, ["event", "standings", str(path), *extra])
        assert shown.exit_code == 0, shown.output
