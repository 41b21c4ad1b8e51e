"""The Ray backend gives the local backend's results: the same Parquet bytes from ``whist selfplay``
and the same tournament, on a local Ray with two workers started by this module (loopback only)."""

from __future__ import annotations

import json
import operator
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray
from typer.testing import CliRunner

from israeli_whist.bots.matches.tournament import run_tournament, spec_from
from israeli_whist.cli.main import app
from israeli_whist.rl.raybackend import RayBackendError, RaySession, address_endpoint, check_reachable
from israeli_whist.rl.selfplay import MANIFEST, run_selfplay, selfplay_spec


@pytest.fixture(scope="module")
def session() -> Iterator[RaySession]:
    """Ray started here as ``--backend ray`` starts it; the commands run in this process find it
    connected and leave it so (``RaySession`` stops only a Ray it started)."""
    with RaySession(cpus=2) as started:
        assert started.owns_connection and ray.is_initialized()
        with RaySession() as found:
            assert not found.owns_connection
        assert ray.is_initialized()
        yield started
    assert not ray.is_initialized()


def test_every_item_comes_back_once(session: RaySession) -> None:
    assert sorted(session.map_unordered(operator.neg, range(12))) == sorted(-i for i in range(12))
    assert list(session.map_unordered(operator.neg, [])) == []


def test_selfplay_on_ray_writes_the_bytes_the_local_backend_writes(session: RaySession, tmp_path: Path) -> None:
    spec = selfplay_spec("israeli", ["basic", "random"], 9, seed=4, options={"hands": "8"}, chunk_hands=2)
    local = run_selfplay(spec, tmp_path / "local", workers=1)
    on_ray = run_selfplay(spec, tmp_path / "ray", map_chunks=session.map_unordered)
    assert local.files == on_ray.files and len(local.files) == 5
    for name in (*local.files, MANIFEST):
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes(), name


def test_whist_selfplay_backend_ray_equals_backend_local(session: RaySession, tmp_path: Path) -> None:
    args = ["selfplay", "--game", "whistiti", "--bots", "expert:deals=8,basic", "--hands", "5", "--chunk-hands", "2",
            "--seed", "21"]
    runner = CliRunner()
    local = runner.invoke(app, [*args, "--out", str(tmp_path / "local"), "--workers", "1"])
    on_ray = runner.invoke(app, [*args, "--out", str(tmp_path / "ray"), "--backend", "ray"])
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0, on_ray.output
    assert "on ray" in on_ray.output
    names = sorted(path.name for path in (tmp_path / "local").iterdir())
    assert names == sorted(["part-00000.parquet", "part-00001.parquet", "part-00002.parquet", MANIFEST])
    assert names == sorted(path.name for path in (tmp_path / "ray").iterdir())
    for name in names:
        assert (tmp_path / "local" / name).read_bytes() == (tmp_path / "ray" / name).read_bytes(), name


def test_a_tournament_on_ray_has_the_local_results(session: RaySession) -> None:
    spec = spec_from("classic", ["basic", "random"], 6, seed=8, options={"honours": "true"})
    local = run_tournament(spec, workers=1)
    progress: list[int] = []
    on_ray = run_tournament(spec, on_progress=lambda done, _total: progress.append(done),
                            map_deals=session.map_unordered)
    assert on_ray == local  # every row and summary; the decision times are wall-clock and not compared
    assert progress == [1, 2, 3, 4, 5, 6]


def test_whist_tournament_backend_ray_writes_the_local_files(session: RaySession, tmp_path: Path) -> None:
    args = ["tournament", "--bots", "basic,random", "--deals", "3", "--seed", "5"]
    runner = CliRunner()
    local = runner.invoke(app, [*args, "--out", str(tmp_path / "local"), "--workers", "1"])
    on_ray = runner.invoke(app, [*args, "--out", str(tmp_path / "ray"), "--backend", "ray"])
    assert local.exit_code == 0, local.output
    assert on_ray.exit_code == 0, on_ray.output
    assert (tmp_path / "local" / "results.csv").read_bytes() == (tmp_path / "ray" / "results.csv").read_bytes()
    summaries = [json.loads((tmp_path / side / "summary.json").read_text(encoding="utf-8"))
                 for side in ("local", "ray")]
    for summary in summaries:
        del summary["decision_time"]
    assert summaries[0] == summaries[1]


def test_an_address_where_no_ray_answers_is_reported_at_once() -> None:
    with pytest.raises(RayBackendError, match=r"No Ray cluster answers at 127\.0\.0\.1:1"):
        check_reachable("127.0.0.1:1", timeout=2)
    with pytest.raises(RayBackendError, match="No Ray cluster answers"):
        RaySession("127.0.0.1:1").connect()


@pytest.mark.parametrize(("address", "endpoint"), [
    ("10.1.2.3:6380", ("10.1.2.3", 6380)), ("head", ("head", 6379)), ("ray://head:10002", ("head", 10002)),
    ("ray://head", ("head", 10001)), ("[::1]:6379", ("::1", 6379)), ("auto", None), ("local", None),
])
def test_addresses_name_the_endpoint_to_check(address: str, endpoint: tuple[str, int] | None) -> None:
    assert address_endpoint(address) == endpoint


@pytest.mark.parametrize("address", ["http://head:6379", "head:port", "head:0", "head:70000", ":6379", "ray://"])
def test_a_malformed_address_is_refused(address: str) -> None:
    with pytest.raises(RayBackendError, match="Ray address"):
        address_endpoint(address)


@pytest.mark.parametrize(("args", "message", "code"), [
    (["--ray-address", "127.0.0.1:1"], "--ray-address needs --backend ray", 2),
    (["--backend", "ray", "--ray-address", "127.0.0.1:1", "--workers", "2"], "--workers sets the CPUs", 2),
    (["--backend", "ray", "--ray-address", "http://x:1"], "A Ray address is host:port", 2),
    (["--backend", "ray", "--ray-address", "127.0.0.1:1"], "No Ray cluster answers at 127.0.0.1:1", 1),
    (["--backend", "spark"], "'spark' is not one of 'local', 'ray'", 2),
])
@pytest.mark.parametrize("command", ["tournament", "selfplay"])
def test_backend_options_that_cannot_work_are_refused_without_a_traceback(
        command: str, args: list[str], message: str, code: int, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, [command, "--out", str(tmp_path / "out"), *args])
    assert result.exit_code == code, result.output
    assert message in result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "out" / "part-00000.parquet").exists()
