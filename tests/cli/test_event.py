"""``whist event``: an event file created, its boards played in the terminal by several players with
scripted input, the standings scored against the field as worked out by hand, the bots' answers the
same for the same play (and those of a fresh ``make_bot`` for each decision), each board played once."""

from __future__ import annotations

import builtins
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.cli.eventfile import load_event, new_event, replay_board
from israeli_whist.cli.eventplay import board_actions
from israeli_whist.cli.main import app
from israeli_whist.core.actions import PASS, Phase, parse_action
from israeli_whist.core.duplicate import actions_taken, board_seed, decision_seed
from israeli_whist.core.records import load_record, replay
from israeli_whist.core.views import seat_view

Answer = Callable[[str], str]
SEED = "club-0"


def other_player(first: Answer) -> Answer:
    """Another way to play: the last card listed and the highest contract; the rest as ``first``."""
    def other(prompt: str) -> str:
        legal = prompt.partition("(legal: ")[2].rpartition("): ")[0]
        if prompt.startswith("Your play"):
            return legal.split()[-1]
        if prompt.startswith("Your contract"):
            return legal.replace(",", " ").split()[-1].split("-")[-1]
        return first(prompt)
    return other


def create(runner: CliRunner, path: Path, *extra: str) -> None:
    result = runner.invoke(app, ["event", "create", str(path), "--seed", SEED, "--boards", "2", *extra])
    assert result.exit_code == 0, result.output


def play(runner: CliRunner, monkeypatch: pytest.MonkeyPatch, path: Path, player: str, answer: Answer,
         *extra: str) -> Any:
    """``whist event play`` with ``answer`` typing at every prompt (the command reads with ``input``)."""
    monkeypatch.setattr(builtins, "input", answer)
    return runner.invoke(app, ["event", "play", str(path), "--player", player, *extra])


def standings(runner: CliRunner, path: Path, *extra: str) -> Any:
    result = runner.invoke(app, ["event", "standings", str(path), "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_an_event_played_by_three_is_scored_against_the_field(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                              tmp_path: Path, answer: Answer) -> None:
    path = tmp_path / "club.json"
    create(runner, path, "--name", "Thursday club")
    written = json.loads(path.read_text(encoding="utf-8"))
    assert (written["format"], written["version"], written["name"], written["seed"], written["boards"],
            written["bot_level"], written["results"]) == ("whist-event", 1, "Thursday club", SEED, 2, "hard", [])
    for player, way in (("Ann", answer), ("Ben", other_player(answer)), ("Ann", answer)):
        result = play(runner, monkeypatch, path, player, way)
        assert result.exit_code == 0, result.output
        assert "recorded for" in result.output
    result = play(runner, monkeypatch, path, "Cy", other_player(answer), "--board", "1")
    assert result.exit_code == 0, result.output

    results = json.loads(path.read_text(encoding="utf-8"))["results"]
    assert [(r["player"], r["board"], r["seat"]) for r in results] == [("Ann", 1, 0), ("Ben", 1, 0), ("Ann", 2, 0),
                                                                      ("Cy", 1, 0)]
    points = {r["player"]: r["points"] for r in results if r["board"] == 1}
    assert points["Ben"] == points["Cy"]  # the same play of the board: the same bots' answers, the same result
    assert points["Ann"] != points["Ben"]  # so that beating and tying are both worked out below

    # By hand: on board 1 a result scores 1 for each of the 2 others it beats and 1/2 for each it ties;
    # Ann's board 2 is hers alone (50%). Above the field: points less board 1's average (board 2's is hers).
    def board_1_percent(name: str) -> float:
        others = [points[other] for other in points if other != name]
        return 100 * sum(1 if points[name] > p else 0.5 if points[name] == p else 0 for p in others) / 2

    average = sum(points.values()) / 3
    by_hand = {"Ann": ((board_1_percent("Ann") + 50) / 2, points["Ann"] - average),
               "Ben": (board_1_percent("Ben"), points["Ben"] - average),
               "Cy": (board_1_percent("Cy"), points["Cy"] - average)}
    table = standings(runner, path)["standings"]
    assert {row["player"]: (row["percent"], row["above_average"]) for row in table} == {
        name: (pytest.approx(p, abs=0.005), pytest.approx(a, abs=0.005)) for name, (p, a) in by_hand.items()}
    assert {row["player"]: row["boards"] for row in table} == {"Ann": 2, "Ben": 1, "Cy": 1}
    ann_first = by_hand["Ann"] > by_hand["Ben"]
    assert [(row["place"], row["player"]) for row in table] == (
        [(1, "Ann"), (2, "Ben"), (2, "Cy")] if ann_first else [(1, "Ben"), (1, "Cy"), (3, "Ann")])

    field = standings(runner, path, "--board", "1")["field"]
    assert {row["player"]: (row["points"], row["percent"]) for row in field} == {
        name: (points[name], pytest.approx(board_1_percent(name), abs=0.005)) for name in points}
    assert [row["points"] for row in field] == sorted(points.values(), reverse=True)
    assert all(row["contract"] is not None and 0 <= row["tricks"] <= 13 for row in field)

    shown = runner.invoke(app, ["event", "standings", str(path)])
    assert shown.exit_code == 0 and "Thursday club: standings" in shown.output
    assert all(name in shown.output for name in points)


@pytest.mark.parametrize("level", ["easy", "hard"])  # both draw on their seed: slips, sampled deals
def test_the_bots_answer_as_a_fresh_bot_seeded_for_each_decision(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                                 tmp_path: Path, answer: Answer, level: str) -> None:
    """Every bot action recorded is what ``make_bot(level, decision_seed(board_seed(seed, N), seat, step))``
    chooses, asked alone, at that point of the board; and the same play again gets the same answers."""
    path = tmp_path / "club.json"
    create(runner, path, "--bot-level", level)
    for player in ("Ann", "Ben"):
        assert play(runner, monkeypatch, path, player, answer, "--board", "2").exit_code == 0
    event = load_event(path)
    first, again = event.results
    assert first.actions == again.actions
    match = event.board_match(2)
    asked = 0
    for step, (seat, text) in enumerate(first.actions):
        action = parse_action(text, match.hand.phase)
        if seat != 0:
            bot = make_bot(level, decision_seed(board_seed(SEED, 2), seat, step))
            assert bot.choose(seat_view(match.hand, seat)) == action, (step, seat, text)
            asked += 1
        match = match.apply(action)
    assert match.over and asked > 20
    assert match.hand.dealer == 1  # board 2 is dealt by the second seat


def test_a_board_played_is_written_as_a_game_record(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, answer: Answer) -> None:
    path, saved = tmp_path / "club.json", tmp_path / "board.json"
    create(runner, path)
    assert play(runner, monkeypatch, path, "Ann", answer, "--board", "2").exit_code == 0
    result = runner.invoke(app, ["event", "record", str(path), "--player", "Ann", "--board", "2", "--save", str(saved)])
    assert result.exit_code == 0, result.output
    checked = replay(load_record(saved))  # what whist check does
    board = load_event(path).results[0]
    assert checked.complete and checked.players == ["Ann", "Bot 2", "Bot 3", "Bot 4"]
    assert checked.match.totals[0] == board.points and checked.match.results[0].final.dealer == 1
    assert runner.invoke(app, ["check", str(saved)]).exit_code == 0
    unplayed = runner.invoke(app, ["event", "record", str(path), "--player", "Ann", "--board", "1", "--save",
                                   str(saved)])
    assert unplayed.exit_code == 2 and "Ann has not played board 1" in unplayed.output


def test_a_board_is_played_once(runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                answer: Answer) -> None:
    path = tmp_path / "club.json"
    create(runner, path)
    assert play(runner, monkeypatch, path, "Ann", answer, "--board", "2").exit_code == 0
    before = path.read_bytes()
    again = play(runner, monkeypatch, path, " Ann ", answer, "--board", "2")  # the same name, kept trimmed
    assert again.exit_code == 2
    assert "Ann has played board 2 already" in again.output and "Traceback" not in again.output
    assert path.read_bytes() == before
    assert play(runner, monkeypatch, path, "Ann", answer).exit_code == 0  # her next board: board 1
    assert [r.board for r in load_event(path).results] == [2, 1]
    done = play(runner, monkeypatch, path, "Ann", answer)
    assert done.exit_code == 2 and "Ann has played all 2 boards" in done.output


@pytest.mark.parametrize(("leave", "code"), [("quit", 0), (EOFError, 1), (KeyboardInterrupt, 130)])
def test_leaving_mid_board_records_nothing(runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                           answer: Answer, leave: str | type[BaseException], code: int) -> None:
    path = tmp_path / "club.json"
    create(runner, path)
    before = path.read_bytes()
    prompts = 0

    def leaving(prompt: str) -> str:
        nonlocal prompts
        prompts += 1
        if prompts < 6:  # into the board first
            return answer(prompt)
        if isinstance(leave, str):
            return leave
        raise leave

    result = play(runner, monkeypatch, path, "Ann", leaving)
    assert result.exit_code == code, result.output
    assert "Board 1 is not recorded: Ann may play it again." in result.output
    assert path.read_bytes() == before
    assert list(tmp_path.iterdir()) == [path]  # no temporary file left behind


def test_hints_are_off_on_an_event_board(runner: CliRunner, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    create(runner, path)
    typed = iter(["hint", "quit"])
    result = play(runner, monkeypatch, path, "Ann", lambda prompt: next(typed))
    assert "Hints are off on an event's boards: everyone plays them on their own." in result.output
    assert "Hint:" not in result.output and result.exit_code == 0


def test_a_whistiti_event_deals_each_board_its_size(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, answer: Answer) -> None:
    path = tmp_path / "whistiti.json"
    create(runner, path, "--game", "whistiti", "--option", "players=3", "--bot-level", "easy")
    for board in ("1", "2"):
        assert play(runner, monkeypatch, path, "Ann", answer, "--board", board).exit_code == 0
    event = load_event(path)
    sizes = [event.board_match(r.board).hand.hand_size for r in event.results]
    assert sizes == [1, 2]
    assert all(r.tricks <= size for r, size in zip(event.results, sizes, strict=True))


@pytest.mark.parametrize(("args", "message"), [
    (["create", "{path}.new", "--seed", "s", "--game", "classic"], "Classic Whist is not played in boards of one hand"),
    (["create", "{path}", "--seed", "s"], "exists: an event file is never written over"),
    (["create", "{path}.new", "--seed", "s", "--boards", "25"], "--boards"),
    (["create", "{path}.new", "--seed", "s", "--bot-level", "expert"], "--bot-level"),
    (["create", "{path}.new", "--seed", "a\u202eb"], "The event's 'seed' must be text of 1 to 91 printable"),
    (["create", "{path}.new", "--seed", "s", "--name", "a\u202eb"], "A name may not hold an invisible"),
    (["create", "{path}<2>.json", "--seed", "s"], "The event's name 'club.json<2>': A name is written without <"),
    (["create", "{path}.new", "--seed", "s", "--option", "nt_minimum=99"], "nt_minimum"),
    (["create", "{path}.new", "--seed", " "], "The event's 'seed' must be text of 1 to 91 printable"),
    (["play", "{path}", "--player", "A\u202eB"], "--player"),
    (["play", "{path}", "--player", "Ann", "--board", "3"], "The event has 2 boards: there is no board 3"),
    (["play", "{path}", "--player", "Ann", "--board", "0"], "--board"),
    (["standings", "{path}", "--board", "-1"], "--board"),
])
def test_bad_command_lines_are_refused_in_one_line(runner: CliRunner, tmp_path: Path, args: list[str],
                                                   message: str) -> None:
    path = tmp_path / "club.json"
    create(runner, path)
    result = runner.invoke(app, ["event", *(arg.format(path=path) for arg in args)])
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert result.output.startswith("Error: ") and result.output.count("\n") == 1, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["club.json"]


def test_a_file_that_cannot_be_read_stops_the_command(runner: CliRunner, tmp_path: Path) -> None:
    """Exit status 1, as for a record that ``whist check`` refuses: the command line is right, the file is not."""
    for command in (["standings"], ["play", "--player", "Ann"]):
        result = runner.invoke(app, ["event", command[0], str(tmp_path / "none.json"), *command[1:]])
        assert result.exit_code == 1
        assert result.output == f"Error: Cannot read {tmp_path / 'none.json'}: No such file or directory\n"


def test_names_are_shown_as_they_are_never_as_markup(runner: CliRunner, monkeypatch: pytest.MonkeyPatch,
                                                     tmp_path: Path, answer: Answer) -> None:
    path = tmp_path / "club.json"
    create(runner, path, "--name", "a[/]b [bold]c")
    played = play(runner, monkeypatch, path, "x[/]y [red]", answer)
    assert played.exit_code == 0, played.output
    assert "Board 1 recorded for x[/]y [red]." in played.output and "a[/]b [bold]c: board 1" in played.output
    for extra in ([], ["--board", "1"]):
        shown = runner.invoke(app, ["event", "standings", str(path), *extra])
        assert shown.exit_code == 0, shown.output
        assert "a[/]b [bold]c: " in shown.output and "x[/]y [red]" in shown.output


def test_standings_before_any_board(runner: CliRunner, tmp_path: Path) -> None:
    path = tmp_path / "club.json"
    create(runner, path)
    assert standings(runner, path) == {"event": {"name": "club", "game": "israeli", "seed": SEED, "boards": 2,
                                                 "bot_level": "hard"}, "standings": []}
    shown = runner.invoke(app, ["event", "standings", str(path), "--board", "1"])
    assert "no one has played board 1 yet" in shown.output


def test_the_step_counts_every_action_of_a_board_a_deal_thrown_in_included() -> None:
    """The bots' step is the table's count of actions (``actions_taken``): after a deal everyone passed
    (thrown in and dealt again) it goes on from there, and the file's actions replay the whole board."""
    event = new_event("Club", "israeli", None, {}, SEED, 1, "easy")
    match, taken = event.board_match(1), 0
    while not match.over:
        assert actions_taken(match) == taken
        legal = match.legal_actions()
        thrown_in = match.results and match.results[0].cancelled
        action = (legal[-1] if match.hand.phase == Phase.AUCTION else legal[0]) if thrown_in else \
            PASS if PASS in legal else legal[0]
        match, taken = match.apply(action), taken + 1
    assert actions_taken(match) == taken
    assert match.results[0].cancelled and not match.results[-1].cancelled
    actions = board_actions(match)
    assert len(actions) == taken
    assert replay_board(event.board_match(1), actions, "Board 1").totals == match.totals
