"""A researcher's own bot by its Python entry point, ``package.module:factory``: accepted by every
command a person runs on their own machine (here ``whist tournament`` and ``whist play``, the
ladder's round robin), each fault of the module said in one line, and refused by the web app,
which never imports what a client names."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from bench_kit import load_bench
from fastapi.testclient import TestClient
from server_kit import sign_in, use
from typer.testing import CliRunner

from israeli_whist.bots.matches.tournament import run_tournament, spec_from
from israeli_whist.bots.players.registry import UnknownLevelError, check_level, is_entry_point, make_bot
from israeli_whist.cli.main import app
from israeli_whist.server.app import create_app
from israeli_whist.server.settings import ServerSettings

HERE = Path(__file__).resolve().parent
WHIST = [sys.executable, "-m", "israeli_whist.cli"]


@pytest.fixture
def entry_bot(monkeypatch: pytest.MonkeyPatch) -> Iterator[ModuleType]:
    """``tests/bots`` on the Python path, and its ``entry_bot`` module as the registry imports it."""
    monkeypatch.syspath_prepend(str(HERE))
    module = importlib.import_module("entry_bot")  # by name, as the registry imports it
    module.MADE.clear()
    yield module


def test_a_tournament_with_an_entry_point_bot_names_it_in_its_results(tmp_path: Path, entry_bot: ModuleType) -> None:
    """The command run from the researcher's folder, against a reference level with duplicate seats
    on two worker processes; the same tournament in this process on one worker gives the same
    results, so the factory is given the tournament's seeds."""
    out = tmp_path / "results"
    done = subprocess.run([*WHIST, "tournament", "--bots", "entry_bot:make,basic", "--deals", "3", "--seed", "4",
                           "--workers", "2", "--out", str(out)],
                          cwd=HERE, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "entry_bot:make - basic:" in done.stdout
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["bots"] == ["entry_bot:make", "basic"]
    assert summary["arrangements"] == ["AABB", "ABAB", "ABBA", "BAAB", "BABA", "BBAA"]
    assert summary["hands_played"] == 18
    assert [row["bot"] for row in summary["results"]] == ["entry_bot:make", "basic"]
    here = run_tournament(spec_from("israeli", ["entry_bot:make", "basic"], 3, seed=4), workers=1).summary()
    assert here["results"] == summary["results"] and here["differences"] == summary["differences"]
    assert "4/0/0/0" in entry_bot.MADE  # deal 0, arrangement 0, seat 0


def test_make_bot_calls_the_factory_with_the_seed(entry_bot: ModuleType) -> None:
    bot = make_bot("entry_bot:make", "7/bot/1")
    assert isinstance(bot, entry_bot.FirstOrAnyBot) and entry_bot.MADE == ["7/bot/1"]
    assert check_level("entry_bot:make") == "entry_bot:make"


def test_whist_play_takes_an_entry_point_and_a_budget(entry_bot: ModuleType) -> None:
    runner = CliRunner()
    for level in ("entry_bot:make", "expert@20ms", "expert:deals=4"):
        result = runner.invoke(app, ["play", "--watch", "--game", "whistiti", "--hands", "1", "--view", "plain",
                                     "--seed", "2", "--bots", level])
        assert result.exit_code == 0, result.output
    assert entry_bot.MADE  # the watched game's bots were the module's


def test_whist_selfplay_takes_an_entry_point(tmp_path: Path, entry_bot: ModuleType) -> None:
    out = tmp_path / "data"
    result = CliRunner().invoke(app, ["selfplay", "--game", "whistiti", "--bots", "entry_bot:make,basic",
                                      "--hands", "2", "--workers", "1", "--out", str(out)])
    assert result.exit_code == 0, result.output
    manifest = json.loads((out / "_selfplay.json").read_text(encoding="utf-8"))
    assert manifest["bots"] == ["entry_bot:make", "basic"] and manifest["decisions"] > 0


def test_a_level_name_before_the_colon_keeps_meaning_settings() -> None:
    assert not is_entry_point("expert:deals") and not is_entry_point("hard:make")
    with pytest.raises(UnknownLevelError, match="the settings after ':' are deals=N"):
        make_bot("expert:make")
    with pytest.raises(UnknownLevelError, match="only hard and expert take a budget or settings"):
        make_bot("basic:make")


MODULES = {
    "raises": 'raise RuntimeError("boom\\nand a second line")\n',
    "imports_missing": "import whist_test_module_that_is_not_there  # noqa: F401\n",
    "plain": ("x = 5\n"
              "def fails(seed):\n    raise ValueError('no bot today')\n"
              "def number(seed):\n    return 3\n"),
}


@pytest.fixture
def researcher_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Modules with names of their own in this test (the registry remembers factories by level)."""
    monkeypatch.syspath_prepend(str(tmp_path))
    names = {}
    for role, text in MODULES.items():
        names[role] = f"researcher_{role}_{uuid.uuid4().hex[:8]}"
        (tmp_path / f"{names[role]}.py").write_text(text, encoding="utf-8")
    return names


@pytest.mark.parametrize(("role", "factory", "message"), [
    (None, "make", "no module named {module} on the Python path or in the current folder"),
    ("raises", "make", "importing {module} raised RuntimeError: boom and a second line"),
    ("imports_missing", "make",
     "importing {module} raised ModuleNotFoundError: No module named 'whist_test_module_that_is_not_there'"),
    ("plain", "make", "module {module} has no make"),
    ("plain", "x", "{module}.x is not a function of the seed (int)"),
    ("plain", "fails", "{module}:fails(0) raised ValueError: no bot today"),
    ("plain", "number", "{module}:number(0) returned int, not an israeli_whist.bots.Bot"),
])
def test_each_fault_of_an_entry_point_is_one_line(researcher_modules: dict[str, str], role: str | None,
                                                 factory: str, message: str) -> None:
    module = researcher_modules[role] if role else f"researcher_absent_{uuid.uuid4().hex[:8]}"
    level = f"{module}:{factory}"
    with pytest.raises(UnknownLevelError) as refused:
        check_level(level)
    text = str(refused.value)
    assert text == f"Bot entry point {level!r}: {message.format(module=module)}"
    assert "\n" not in text


def test_the_command_line_says_a_faulty_entry_point_in_one_line(researcher_modules: dict[str, str]) -> None:
    done = subprocess.run([*WHIST, "tournament", "--bots", f"{researcher_modules['plain']}:fails,basic"],
                          capture_output=True, text=True, timeout=120, check=False,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "raised ValueError: no bot today" in done.stderr, done.stderr


def test_a_web_client_cannot_seat_an_entry_point_nor_a_budget(app_settings: ServerSettings, tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """The lobby offers level names: a seat's level that is anything else is refused, and a
    module it names is never imported (this one would leave a file behind)."""
    module = f"seat_probe_{uuid.uuid4().hex[:8]}"
    marker = tmp_path / "imported"
    (tmp_path / f"{module}.py").write_text(
        f"from pathlib import Path\nPath({str(marker)!r}).write_text('imported')\n"
        "from israeli_whist.bots.players.base import RandomBot\ndef make(seed):\n    return RandomBot(seed)\n",
        encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    with TestClient(create_app(app_settings)) as client:
        player = sign_in(client, "Eve")
        for level in (f"{module}:make", "expert@100ms", "expert:deals=8", "os:getcwd"):
            seats = [{"kind": "human"}, *[{"kind": "bot", "level": level}] * 3]
            response = use(client, player).post("/api/tables", json={"game": "israeli", "options": {"hands": 1},
                                                                     "seats": seats})
            assert response.status_code == 422, response.text
            assert response.json()["code"] == "rules"
            assert response.json()["detail"].startswith(f"Unknown bot level {level!r}; a table's seat takes one of")
    assert not marker.exists() and module not in sys.modules


@pytest.fixture(scope="module")
def ladder() -> ModuleType:
    return load_bench("ladder")


def test_the_ladder_rates_an_entry_point_but_does_not_write_it(ladder: ModuleType, tmp_path: Path,
                                                               entry_bot: ModuleType) -> None:
    import argparse

    args = argparse.Namespace(levels="medium,entry_bot:make", games="whistiti", hands=6, seed=1, workers=1,
                              rows=None, from_rows=None, json=None, write=False)
    [hands] = list(ladder.play_round_robin(args))
    assert {level for hand in hands for level in hand.levels} == {"medium", "entry_bot:make"}
    assert set(ladder.rate_games(hands)["whistiti"]) == {"medium", "entry_bot:make"}
    with pytest.raises(SystemExit, match="--write keeps the ratings of the shipped levels only"):
        ladder.run_round_robin(argparse.Namespace(**{**vars(args), "write": True}))
    with pytest.raises(SystemExit, match="--levels: Bot entry point 'entry_bot:nothing': module entry_bot has no"):
        ladder.run_round_robin(argparse.Namespace(**{**vars(args), "levels": "medium,entry_bot:nothing"}))
