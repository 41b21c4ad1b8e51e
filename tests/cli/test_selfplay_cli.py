"""``whist selfplay``: the files in --out and what it prints, the same files from the same seed
with any number of workers, and bad input refused with one line and no traceback. (``--backend ray``
is tested against the local backend in tests/rl/test_ray_backend.py.)"""

from __future__ import annotations

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from typer.testing import CliRunner

from israeli_whist.cli.main import app


def test_writes_a_parquet_file_per_chunk_and_the_manifest(runner: CliRunner, tmp_path: Path) -> None:
    out = tmp_path / "data" / "run"  # made with its parents
    result = runner.invoke(app, ["selfplay", "--game", "classic", "--bots", "random", "--hands", "5",
                                 "--chunk-hands", "2", "--seed", "7", "--option", "honours=true", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "Classic Whist: random; 5 hands in 3 files, seed 7, on local" in result.output
    manifest = json.loads((out / "_selfplay.json").read_text(encoding="utf-8"))
    assert manifest["options"] == {"honours": "true"} and manifest["rules"]["honours"] is True
    assert [entry["file"] for entry in manifest["files"]] == ["part-00000.parquet", "part-00001.parquet",
                                                            "part-00002.parquet"]
    tables = [pq.read_table(out / entry["file"]) for entry in manifest["files"]]
    assert [table.num_rows for table in tables] == [entry["decisions"] for entry in manifest["files"]]
    assert sum(table.num_rows for table in tables) == manifest["decisions"] == 5 * 52  # 13 tricks, 4 cards each
    assert f"Wrote {5 * 52} decisions in 3 files to {out}" in " ".join(result.output.split())
    assert tables[2].column("hand").to_pylist() == [4] * 52


def test_the_same_seed_gives_the_same_files_with_any_number_of_workers(runner: CliRunner, tmp_path: Path) -> None:
    args = ["selfplay", "--bots", "basic,random", "--hands", "4", "--chunk-hands", "2", "--seed", "3"]
    for folder, workers in (("one", "1"), ("two", "2")):
        result = runner.invoke(app, [*args, "--workers", workers, "--out", str(tmp_path / folder)])
        assert result.exit_code == 0, result.output
    for name in ("part-00000.parquet", "part-00001.parquet", "_selfplay.json"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


@pytest.mark.parametrize(("args", "message"), [
    (["--hands", "0"], "Invalid value for '--hands'"),
    (["--hands", "-5"], "Invalid value for '--hands'"),
    (["--chunk-hands", "0"], "Invalid value for '--chunk-hands'"),
    (["--bots", "basic,clever"], "Unknown bot level 'clever'"),
    (["--bots", " , "], "at least one bot level"),
    (["--game", "poker"], "Unknown game 'poker'"),
    (["--option", "colour=red"], "Unknown option 'colour' for israeli"),
    (["--option", "hands=lots"], "Option hands is a whole number, not 'lots'"),
    (["--option", "hands"], "--option takes NAME=VALUE"),
    (["--preset", "nonesuch"], "No preset 'nonesuch' for israeli"),
])
def test_bad_input_is_refused_on_one_line(runner: CliRunner, tmp_path: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["selfplay", "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == 2, result.output
    assert message in result.output
    assert "(see: whist selfplay --help)" in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "_selfplay.json").exists()


def test_an_out_that_cannot_take_the_files_is_refused(runner: CliRunner, tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    for out, message in ((file, "is a file, not a folder"), (file / "below", "Cannot make the folder")):
        result = runner.invoke(app, ["selfplay", "--hands", "1", "--out", str(out)])
        assert result.exit_code == 2 and message in result.output, result.output
    done = runner.invoke(app, ["selfplay", "--hands", "1", "--bots", "random", "--out", str(tmp_path / "d")])
    assert done.exit_code == 0, done.output
    again = runner.invoke(app, ["selfplay", "--hands", "1", "--bots", "random", "--out", str(tmp_path / "d")])
    assert again.exit_code == 2 and "already holds self-play files" in again.output
    assert "Traceback" not in again.output


def test_out_is_required(runner: CliRunner) -> None:
    result = runner.invoke(app, ["selfplay", "--hands", "1"])
    assert result.exit_code == 2
    assert "Missing option '--out'" in result.output


def test_a_level_that_searches_by_time_is_noted_as_depending_on_the_machine(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["selfplay", "--game", "whistiti", "--bots", "expert@5ms,basic", "--hands", "1",
                                      "--out", str(tmp_path / "out"), "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert "Note: expert@5ms searches for a time a decision" in result.output
    assert "expert:deals=N gives the same rows" in result.output
    quiet = CliRunner().invoke(app, ["selfplay", "--game", "whistiti", "--bots", "expert:deals=4,basic", "--hands", "1",
                                     "--out", str(tmp_path / "capped"), "--workers", "1"])
    assert quiet.exit_code == 0, quiet.output
    assert "Note:" not in quiet.output
