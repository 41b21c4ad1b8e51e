"""Every ``whist`` command, with each class of bad input a new user meets, answers in one line with
the exit status the README documents: 2 for a command line that is wrong (a bad value, a number out
of range, an unknown bot level, an output path that cannot be written), 1 for one that cannot run
here (a missing extra, a database or Ray cluster that does not answer, an input file it refuses).
No traceback, and nothing on stdout but, with --json, the JSON error object.

Each case runs the real command as a new user would, in a process of its own; an extra that is
"not installed" is a module on the path that cannot be imported, as when pip never installed it.
``serve`` is stopped by its checks before it listens: it is given a free port where the check
that refuses it comes after the port's."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

WHIST = [sys.executable, "-m", "israeli_whist.cli"]
RECORD = Path(__file__).resolve().parents[1] / "golden" / "israeli_standard.json"
UNWRITABLE = "/proc/whist-test"  # no folder can be made there, even by root


@dataclass(frozen=True)
class Case:
    args: tuple[str, ...]
    status: int
    fragment: str
    missing: tuple[str, ...] = ()  # modules that cannot be imported: an extra not installed
    env: dict[str, str] = field(default_factory=dict)
    json: bool = False  # the error is a JSON object on stdout


def case(command: str, *args: str, status: int, says: str, missing: tuple[str, ...] = (),
         env: dict[str, str] | None = None, json_error: bool = False) -> Case:
    return Case((command, *args), status, says, missing, env or {}, json_error)


CASES = {
    # whist play
    "play: a value not among the choices": case("play", "--game", "poker", status=2,
                                                says="'poker' is not one of 'israeli', 'classic', 'whistiti'"),
    "play: a number out of range": case("play", "--delay", "1e9", status=2, says="--delay"),
    "play: an unknown bot level": case("play", "--bots", "genius", status=2, says="Unknown bot level 'genius'"),
    "play: an entry point with no module": case("play", "--bots", "no_such_researcher_module:make", status=2,
                                                says="Bot entry point 'no_such_researcher_module:make': no module"),
    "play: a bad rule option": case("play", "--option", "colour=blue", status=2, says="Unknown option 'colour'"),
    "play: a save file that cannot be written": case("play", "--watch", "--save", f"{UNWRITABLE}.json", status=2,
                                                     says=f"Cannot save to {UNWRITABLE}.json"),
    # whist rules
    "rules: an unknown game": case("rules", "poker", status=2, says="'poker' is not one of"),
    # whist check
    "check: no file given": case("check", status=2, says="Missing argument"),
    "check: a file that cannot be read": case("check", "{tmp}/none.json", status=1, says="Cannot read"),
    "check --json: a file that cannot be read": case("check", "--json", "{tmp}/none.json", status=1,
                                                     says="Cannot read", json_error=True),
    # whist analyze
    "analyze: an unknown bot level": case("analyze", str(RECORD), "--bot", "genius", status=2,
                                          says="Unknown bot level 'genius'"),
    "analyze: a number out of range": case("analyze", str(RECORD), "--max-tricks", "99", status=2,
                                           says="--max-tricks"),
    "analyze: a file that cannot be read": case("analyze", "{tmp}/none.json", status=1, says="Cannot read"),
    "analyze --json: a file that cannot be read": case("analyze", "--json", "{tmp}/none.json", status=1,
                                                       says="Cannot read", json_error=True),
    "analyze --review: a deal count out of range": case("analyze", str(RECORD), "--review", "--deals", "1",
                                                        status=2, says="--deals"),
    "analyze: a review option without --review": case("analyze", str(RECORD), "--seed", "3", status=2,
                                                      says="--seed is for --review"),
    "analyze --review --json: a file that cannot be read": case("analyze", "--review", "--json", "{tmp}/none.json",
                                                                status=1, says="Cannot read", json_error=True),
    # whist serve
    "serve: a log level not among the choices": case("serve", "--log-level", "loud", status=2,
                                                     says="'loud' is not one of 'debug', 'info', 'warning', 'error'"),
    "serve: a bad value in its environment variable": case("serve", status=2, says="--log-level",
                                                           env={"WHIST_LOG_LEVEL": "loud"}),
    "serve: a port out of range": case("serve", "--port", "0", status=2, says="--port"),
    "serve: bot workers out of range": case("serve", "--bot-workers", "100000000000", status=2,
                                            says="--bot-workers"),
    "serve: a bad rate limit": case("serve", "--limit", "tables=x", status=2, says="tables"),
    "serve: a database URL SQLAlchemy cannot read": case(
        "serve", "--port", "{port}", "--database-url", "nonsense", status=1,
        says="--database-url nonsense is not a database URL"),
    "serve: a database that does not answer": case(
        "serve", "--port", "{port}", "--database-url", "postgresql://whist:secret@127.0.0.1:{closed}/whist",
        status=1, says="Cannot open the database postgresql://whist:***@127.0.0.1:{closed}/whist"),
    "serve: PostgreSQL without the postgres extra": case(
        "serve", "--port", "{port}", "--database-url", "postgresql://whist@127.0.0.1:{closed}/whist", status=1,
        says="needs the postgres extra: pip install 'israeli-whist[postgres]'", missing=("psycopg",)),
    "serve: a Ray address where nothing answers": case("serve", "--port", "{port}", "--ray-address",
                                                       "127.0.0.1:{closed}", status=1, says="No Ray cluster answers"),
    "serve: --ray-address without the rl extra": case("serve", "--port", "{port}", "--ray-address", "auto", status=1,
                                                      says="--ray-address needs the rl extra: "
                                                           "pip install 'israeli-whist[rl]'", missing=("ray",)),
    "serve: a bad node name": case("serve", "--port", "{port}", "--node-name", "bad name!", status=1,
                                   says="A node's name is 1 to 48 letters"),
    "serve: a data folder that cannot be made": case("serve", "--port", "{port}", status=1,
                                                     says=f"Cannot use the data folder {UNWRITABLE}",
                                                     env={"WHIST_DATA_DIR": UNWRITABLE}),
    # whist tournament
    "tournament: an unknown bot level": case("tournament", "--bots", "genius,basic", status=2,
                                             says="Unknown bot level 'genius'"),
    "tournament: an entry point whose module has no such function": case(
        "tournament", "--bots", "israeli_whist.bots.players.levels:make,basic", status=2,
        says="Bot entry point 'israeli_whist.bots.players.levels:make': "
             "module israeli_whist.bots.players.levels has no make"),
    "tournament: deals out of range": case("tournament", "--deals", "10000000000000", status=2, says="--deals"),
    "tournament: workers out of range": case("tournament", "--workers", "100000", status=2, says="--workers"),
    "tournament: an output folder that cannot be made": case("tournament", "--out", UNWRITABLE, status=2,
                                                             says=f"Cannot make the folder {UNWRITABLE}"),
    "tournament: --ray-address without --backend ray": case("tournament", "--ray-address", "auto", status=2,
                                                            says="--ray-address needs --backend ray"),
    "tournament: --backend ray without the rl extra": case("tournament", "--backend", "ray", status=1,
                                                           says="--backend ray needs the rl extra: "
                                                                "pip install 'israeli-whist[rl]'", missing=("ray",)),
    # whist selfplay
    "selfplay: without the rl extra": case("selfplay", "--out", "{tmp}/data", status=1,
                                           says="whist selfplay needs the rl extra: pip install 'israeli-whist[rl]'",
                                           missing=("pyarrow",)),
    "selfplay: an unknown bot level": case("selfplay", "--out", "{tmp}/data", "--bots", "genius", status=2,
                                           says="Unknown bot level 'genius'"),
    "selfplay: hands out of range": case("selfplay", "--out", "{tmp}/data", "--hands", "10000000000", status=2,
                                         says="--hands"),
    "selfplay: an output folder that cannot be made": case("selfplay", "--out", UNWRITABLE, status=2,
                                                           says=f"Cannot make the folder {UNWRITABLE}"),
    # whist train
    "train: without the train extra": case("train", "--data", "{tmp}", "--out", "{tmp}/model.npz", status=1,
                                           says="whist train needs the train extra: "
                                                "pip install 'israeli-whist[train]'", missing=("sklearn",)),
    "train: data that is not there": case("train", "--data", "{tmp}/none", "--out", "{tmp}/model.npz", status=1,
                                          says="--data {tmp}/none does not exist"),
    "train: a bad layer width": case("train", "--data", "{tmp}", "--out", "{tmp}/model.npz", "--hidden", "x",
                                     status=2, says="--hidden takes widths"),
    "train: a seed out of range": case("train", "--data", "{tmp}", "--out", "{tmp}/model.npz", "--seed", "-1",
                                       status=2, says="--seed"),
    # whist event
    "event create: rules that make no board": case("event", "create", "{tmp}/club.json", "--seed", "s", "--game",
                                                   "classic", status=2, says="Classic Whist is not played in boards"),
    "event create: no seed": case("event", "create", "{tmp}/club.json", status=2, says="Missing option '--seed'"),
    "event play: a name that is none": case("event", "play", "{tmp}/club.json", "--player", " ", status=2,
                                            says="--player: A name is 1 to 40 characters"),
    "event standings: a file that cannot be read": case("event", "standings", "{tmp}/none.json", status=1,
                                                        says="Cannot read"),
    "train: a weight decay out of range": case("train", "--data", "{tmp}", "--out", "{tmp}/model.npz",
                                               "--alpha", "inf", status=2, says="--alpha is a weight decay"),
    "train: an output file that cannot be written": case("train", "--data", "{tmp}", "--out",
                                                         f"{UNWRITABLE}/model.npz", status=2,
                                                         says=f"Cannot make the folder {UNWRITABLE}"),
}


def unused_port() -> int:
    """A port nothing listens on (it was free a moment ago)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def missing_modules(folder: Path, names: tuple[str, ...]) -> str:
    """A folder of packages that fail to import as an absent one does, to go first on the path."""
    for name in names:
        package = folder / name
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(f'raise ModuleNotFoundError("No module named {name!r}", name={name!r})\n',
                                             encoding="utf-8")
    return str(folder)


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_line_with_the_documented_status(name: str, tmp_path: Path) -> None:
    bad = CASES[name]
    values = {"tmp": str(tmp_path), "port": str(unused_port()), "closed": str(unused_port())}
    args = [arg.format(**values) for arg in bad.args]
    path = [missing_modules(tmp_path / "absent", bad.missing)] if bad.missing else []
    path += [os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else []
    env = {**os.environ, "WHIST_DATA_DIR": str(tmp_path / "data"), "COLUMNS": "100", **bad.env,
           "PYTHONPATH": os.pathsep.join(path)}
    for variable in ("WHIST_DATABASE_URL", "WHIST_RAY_ADDRESS", "WHIST_PORT", "WHIST_NODE_NAME"):
        env.pop(variable, None)  # the machine's own settings would change the case
    done = subprocess.run([*WHIST, *args], capture_output=True, text=True, timeout=120, check=False, env=env,
                          cwd=tmp_path)
    assert "Traceback" not in done.stdout + done.stderr, done.stderr
    assert done.returncode == bad.status, (done.returncode, done.stdout, done.stderr)
    expected = bad.fragment.format(**values)
    if bad.json:
        assert done.stderr == ""
        assert done.stdout.count("\n") == 1, done.stdout
        assert expected in json.loads(done.stdout)["error"]
        return
    assert done.stdout == "", done.stdout
    assert done.stderr.count("\n") == 1, done.stderr  # one line, and nothing else
    assert done.stderr.startswith("Error: ") or done.stderr.startswith(f"whist {args[0]}: "), done.stderr
    assert expected in done.stderr, done.stderr
