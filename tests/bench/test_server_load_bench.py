"""bench/server_load.py: the bots' delay over their pacing, the exactly-once check of a table's
stored actions, the person's reconnecting, and the bench itself at a tiny size (SQLite, then
PostgreSQL, then two nodes behind nginx with one killed), which must store every action it saw
taken, once. Also the deployment the bench runs (deploy/): its nginx configuration and the
environment variables of its compose files."""

from __future__ import annotations

import asyncio
import json
import random
import re
import socket
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from bench_kit import load_bench, needs_nginx, nginx_path

from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "bench" / "server_load.py"
NGINX = nginx_path()


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    return load_bench("server_load")


def test_a_bot_move_is_timed_from_the_state_before_it_less_the_pacing(bench: ModuleType) -> None:
    arrival = bench.Arrival
    arrivals = {0: arrival(10.0, 1), 1: arrival(11.5, 1), 2: arrival(11.6, 1), 3: arrival(13.0, 1)}
    delays, skipped = bench.bot_delays_over_pacing(arrivals, [0, 2], pacing=1.0)
    assert delays == pytest.approx([0.5, 0.4])  # 11.5 - 10.0 - 1.0 and 13.0 - 11.6 - 1.0
    assert skipped == 0


def test_moves_seen_across_a_reconnect_a_gap_or_the_kill_are_skipped(bench: ModuleType) -> None:
    arrival = bench.Arrival
    arrivals = {0: arrival(0.0, 1), 1: arrival(1.1, 1), 2: arrival(5.0, 2), 3: arrival(6.2, 2),
                5: arrival(9.0, 2), 6: arrival(12.0, 2)}
    # 1 -> 2 spans a reconnect, 3 -> 4 misses version 4, 5 -> 6 spans the kill at 10.0.
    delays, skipped = bench.bot_delays_over_pacing(arrivals, [0, 1, 2, 3, 5], pacing=1.0, cut_at=10.0)
    assert delays == pytest.approx([0.1, 0.2])
    assert skipped == 3


def test_a_bot_move_after_a_tricks_last_card_is_timed_less_the_servers_longer_pause(bench: ModuleType) -> None:
    person = bench.Person(bench.Client("t1"), "ws://unused", (0.0, 0.0), random.Random(1), stall=5.0, give_up=5.0)
    person.on_state(state(4, my_turn=False, tricks_played=1, trick=(7,)))
    person.on_state(state(5, my_turn=False, tricks_played=2, trick=()))  # the trick's last card: two delays
    arrivals = person.client.arrivals
    assert (arrivals[4].pause, arrivals[5].pause) == (1, bench.TRICK_OVER_DELAYS)
    arrivals[6] = bench.Arrival(arrivals[5].at + 2.1, arrivals[5].connection)
    delays, _ = bench.bot_delays_over_pacing(arrivals, [5], pacing=1.0)
    assert delays == pytest.approx([0.1])


def test_spread_is_nearest_rank(bench: ModuleType) -> None:
    figures = bench.spread(float(n) for n in range(100, 0, -1))
    assert figures == {"count": 100, "median": 50.0, "p90": 90.0, "p99": 99.0, "max": 100.0}
    assert bench.spread([]) is None


def played_rows(seed: str) -> list[tuple[int, int, int, bool]]:
    """A whole one-hand Israeli game as stored rows (seq, seat, action, by_bot): random legal actions
    (always the first would pass every deal, and deal again for ever)."""
    rng = random.Random(seed)
    match = Match.start(make_game("israeli", None, {"hands": 1}), seed, 0)
    rows: list[tuple[int, int, int, bool]] = []
    while not match.over:
        seat, action = match.current_player, rng.choice(match.legal_actions())
        rows.append((len(rows), seat, action, seat != 0))
        match = match.apply(action)
    return rows


def client_that_saw(bench: ModuleType, rows: list[tuple[int, int, int, bool]]) -> Any:
    """A client who sent each of seat 0's stored actions and saw each acknowledged."""
    client = bench.Client("t1", finished=True)
    for seq, seat, action, by_bot in rows:
        if seat == 0 and not by_bot:
            client.sent[seq] = action
            client.acked_versions.append(seq + 1)
    return client


def test_the_table_check_passes_a_game_stored_as_the_client_saw_it(bench: ModuleType) -> None:
    rows = played_rows("s1")
    client = client_that_saw(bench, rows)
    game = make_game("israeli", None, {"hands": 1})
    assert bench.check_table(client, game, "s1", 0, rows) == []
    lost_ack = client.acked_versions.pop()  # its ack lost with the connection, seen in the next state
    client.inferred_versions.append(lost_ack)
    assert bench.check_table(client, game, "s1", 0, rows) == []


def test_the_table_check_finds_an_action_lost_stored_twice_or_not_the_one_sent(bench: ModuleType) -> None:
    rows = played_rows("s2")
    game = make_game("israeli", None, {"hands": 1})
    people = [seq for seq, seat, _, by_bot in rows if seat == 0 and not by_bot]
    assert len(people) >= 3

    acked_not_stored = client_that_saw(bench, rows)
    stored = [r if r[0] != people[0] else (r[0], r[1], r[2], True) for r in rows]  # stored as a bot's
    assert any("seen taken" in p for p in bench.check_table(acked_not_stored, game, "s2", 0, stored))

    twice = client_that_saw(bench, rows)
    twice.inferred_versions.append(people[1] + 1)  # acked and also counted as inferred
    assert any("twice" in p for p in bench.check_table(twice, game, "s2", 0, rows))

    other = client_that_saw(bench, rows)
    other.sent[people[2]] = -1
    assert any("did not send" in p for p in bench.check_table(other, game, "s2", 0, rows))

    unfinished = client_that_saw(bench, rows[:-1])
    problems = bench.check_table(unfinished, game, "s2", 0, rows[:-1])
    assert any("did not finish" in p for p in problems)


class FakeSocket:
    """A connection that keeps what the person sends."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def send(self, text: str) -> None:
        self.sent.append(json.loads(text))


def state(version: int, my_turn: bool, tricks_played: int = 0, trick: tuple[int, ...] = (1,)) -> dict[str, Any]:
    return {"type": "state", "version": version, "you": 0, "score": {"over": False, "hands": []},
            "view": {"player": 0 if my_turn else 1, "legal": [{"action": 40}] if my_turn else [],
                     "tricks_played": tricks_played, "trick": list(trick)}}


async def act_then_lose_the_connection(bench: ModuleType) -> tuple[Any, Any]:
    """A person acts at version 7 on their first connection, which drops before any answer; they
    connect again. Returns the person and the new connection."""
    person = bench.Person(bench.Client("t1"), "ws://unused", (0.0, 0.0), random.Random(1), stall=5.0, give_up=5.0)
    first = FakeSocket()
    await person.opened(first, "direct")
    person.on_state(state(7, my_turn=True))
    await person.thinking
    await asyncio.sleep(0)  # the send
    assert first.sent == [{"type": "act", "action": 40, "version": 7, "id": "7"}]
    person.ws = None
    second = FakeSocket()
    await person.opened(second, "direct")
    assert second.sent == [{"type": "sync"}]
    return person, second


def test_an_action_whose_answer_was_lost_is_seen_taken_in_the_next_state_and_not_sent_again(
        bench: ModuleType) -> None:
    async def scenario() -> None:
        person, second = await act_then_lose_the_connection(bench)
        person.on_state(state(8, my_turn=False))
        await asyncio.sleep(0)
        assert second.sent == [{"type": "sync"}]
        assert person.client.inferred_versions == [8] and person.client.acked_versions == []
        assert person.pending is None

    asyncio.run(scenario())


def test_an_action_not_taken_is_sent_again_and_its_ack_counts(bench: ModuleType) -> None:
    async def scenario() -> None:
        person, second = await act_then_lose_the_connection(bench)
        person.on_state(state(7, my_turn=True))  # the table still waits for it
        await asyncio.sleep(0)
        assert second.sent[-1] == {"type": "act", "action": 40, "version": 7, "id": "7"}
        assert person.thinking.done() and person.decided == 7  # sent again, not thought over
        person.on_state(state(8, my_turn=False))  # on the same connection: the ack is still to come
        assert person.client.inferred_versions == []
        person.on_ack({"type": "ack", "id": "7", "version": 8})
        assert person.client.acked_versions == [8] and len(person.client.latencies) == 1
        assert person.pending is None and person.client.errors == []

    asyncio.run(scenario())


def test_a_stale_refusal_of_an_action_sent_again_means_the_first_was_taken(bench: ModuleType) -> None:
    async def scenario() -> None:
        person, second = await act_then_lose_the_connection(bench)
        person.on_state(state(7, my_turn=True))  # the connection's state was behind: sent again
        await asyncio.sleep(0)
        assert second.sent[-1]["type"] == "act"
        await person.on_error({"type": "error", "id": "7", "code": "stale", "message": "moved on",
                               "state": state(8, my_turn=False)})
        assert person.client.inferred_versions == [8] and person.client.errors == []

        fresh = bench.Person(bench.Client("t2"), "ws://unused", (0.0, 0.0), random.Random(2), 5.0, 5.0)
        await fresh.opened(FakeSocket(), "direct")
        fresh.on_state(state(3, my_turn=True))
        await fresh.thinking
        await fresh.on_error({"type": "error", "id": "3", "code": "stale", "message": "moved on",
                              "state": state(4, my_turn=False)})
        assert fresh.client.inferred_versions == [] and fresh.client.errors == ["stale: moved on"]

    asyncio.run(scenario())


def test_a_connection_that_fails_is_counted_with_why_until_the_person_gives_up(bench: ModuleType) -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    person = bench.Person(bench.Client("t1"), f"ws://127.0.0.1:{port}/ws/tables/t1", (0.0, 0.0), random.Random(1),
                          stall=5.0, give_up=0.3)
    asyncio.run(person.play())
    assert person.client.drops and set(person.client.drops) == {"ConnectionRefusedError"}
    assert person.client.errors == ["could not reconnect for 0.3 s"]


def run_bench(tmp_path: Path, *options: str) -> dict[str, Any]:
    report = tmp_path / "report.json"
    command = [sys.executable, str(BENCH), "--tables", "3", "--bot-delay", "0.05", "--think", "0.01,0.05",
               "--bot-workers", "0", "--stall-timeout", "20", "--report", str(report), *options]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    figures: dict[str, Any] = json.loads(report.read_text())
    return figures


def check_figures(figures: dict[str, Any], tables: int, kill: bool = False) -> None:
    assert figures["problems"] == [] and figures["errors"] == [] and figures["refusals"] == []
    assert not figures["failed"]
    assert figures["actions"] >= tables * 60  # a hand of Israeli Whist is some 60 actions
    seen = figures["ack_latency_s"]["count"] + figures["acks_lost_but_stored"]
    timed = figures["bot_delay_over_pacing_s"]
    # Every action is the person's (seen taken) or a bot's (timed, or skipped across a reconnect).
    assert seen + timed["count"] + figures["bot_moves_skipped"] == figures["actions"]
    if not kill:
        assert figures["bot_moves_skipped"] == 0 and figures["drops"] == 0
    assert -0.05 < timed["median"] < 1.0


def test_the_bench_at_tiny_size_loses_no_action(tmp_path: Path) -> None:
    figures = run_bench(tmp_path)
    assert figures["database"] == "sqlite"
    check_figures(figures, 3)


def test_the_bench_on_postgresql(tmp_path: Path, postgres_url: str) -> None:
    figures = run_bench(tmp_path, "--tables", "2", "--database-url", postgres_url)
    assert figures["database"] == "postgresql"
    check_figures(figures, 2)


def test_two_nodes_behind_nginx_lose_no_action_when_one_is_killed(tmp_path: Path, postgres_url: str) -> None:
    needs_nginx()
    figures = run_bench(tmp_path, "--tables", "2", "--database-url", postgres_url, "--nodes", "2",
                        "--lease-seconds", "1", "--kill-node-after", "1")
    check_figures(figures, 2, kill=True)
    assert set(figures["connections_per_node"]) == {"node1", "node2"}
    assert figures["tables_per_node"] == {"node1": 1, "node2": 1}  # the round robin spreads the tables
    kill = figures["kill"]
    assert kill["tables"]
    assert kill["not_resumed"] == [] and kill["late"] == {}
    assert set(kill["resumed_s"]) | set(kill["over_before_kill"]) == set(kill["tables"])


def test_the_bench_runs_the_deployed_nginx_configuration_with_its_own_nodes(bench: ModuleType,
                                                                            tmp_path: Path) -> None:
    config = bench.nginx_config(tmp_path, 8123, ["127.0.0.1:1001", "127.0.0.1:1002"])
    assert "listen 127.0.0.1:8123;" in config and "listen 8080" not in config
    assert "node1:8000" not in config and "node2:8000" not in config
    assert "server 127.0.0.1:1001 max_fails=1" in config and "server 127.0.0.1:1002 max_fails=1" in config
    assert "proxy_set_header Upgrade $http_upgrade;" in config  # deploy/nginx.conf's proxying, kept
    if NGINX is not None:
        path = tmp_path / "nginx.conf"
        path.write_text(config)
        checked = subprocess.run([NGINX, "-t", "-c", str(path), "-p", str(tmp_path), "-e", str(tmp_path / "log"),
                                  "-g", f"pid {tmp_path / 'pid'};"], capture_output=True, text=True)
        assert checked.returncode == 0, checked.stderr


def test_the_deployment_sets_only_variables_that_serve_reads_and_documents_them_all() -> None:
    import typer.main

    from israeli_whist.cli.main import app

    serve = typer.main.get_command(app).commands["serve"]  # type: ignore[attr-defined]
    read = {param.envvar for param in serve.params if param.envvar}
    assert {"WHIST_NODE_NAME", "WHIST_LEASE_SECONDS", "WHIST_DATABASE_URL"} <= read
    for name in ("compose.yaml", "compose.ray.yaml"):
        text = (ROOT / "deploy" / name).read_text()
        set_there = set(re.findall(r"^\s+(WHIST_[A-Z_]+):", text, re.MULTILINE))
        assert set_there and set_there <= read, (name, set_there - read)
    documented = set(re.findall(r"`(WHIST_[A-Z_]+)`", (ROOT / "docs" / "deploy.md").read_text()))
    assert read <= documented, read - documented
