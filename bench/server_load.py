"""Many tables at once on one ``whist serve``: actions per second, the latency from a client's
action to its acknowledgement, and a check that no action was lost or stored twice.

Each table has one simulated person, who connects over a WebSocket with their own guest
session and plays a random legal action after a short think, and three ``basic`` bots,
which the server paces with ``--bot-delay``. The latency is measured only on the people's
actions, from sending to the ``ack``: bot thinking is not part of it. At the end every
table's stored actions are read back from the database and replayed through the engine.

Run:  python bench/server_load.py [--tables 200] [--hands 1] [--bot-delay 1.0] [--think 0.5,1.5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from whist.core.games import make_game
from whist.core.match import Match


@dataclass
class Client:
    """One simulated person at one table."""

    table_id: str = ""
    cookie: str = ""
    latencies: list[float] = field(default_factory=list)
    acked_versions: list[int] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    finished: bool = False


def post(base: str, path: str, body: dict[str, Any], cookie: str = "") -> tuple[dict[str, Any], str]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "Cookie": cookie})
    with urllib.request.urlopen(request, timeout=30) as response:
        set_cookie = response.headers.get("Set-Cookie", "")
        return json.loads(response.read()), set_cookie.split(";", 1)[0] or cookie


def set_up(base: str, tables: int, hands: int) -> list[Client]:
    clients = []
    for number in range(tables):
        _, cookie = post(base, "/api/guest", {"name": f"load{number}"})
        seats = [{"kind": "human"}] + [{"kind": "bot", "level": "basic"}] * 3
        table, _ = post(base, "/api/tables", {"game": "israeli", "options": {"hands": hands}, "seats": seats,
                                              "take_seat": 0}, cookie)
        clients.append(Client(table["id"], cookie))
    return clients


async def play(client: Client, ws_base: str, think: tuple[float, float], rng: random.Random) -> None:
    """Read every message as it comes (so that an ack is timed when it arrives) and act in a
    separate task after thinking; return once the game is over and every action is acknowledged."""
    url = f"{ws_base}/ws/tables/{client.table_id}"
    async with websockets.connect(url, additional_headers={"Cookie": client.cookie}, max_size=2**22) as ws:
        sent_at: dict[str, float] = {}
        acted_on = -1  # the last version we decided to act on
        thinking: set[asyncio.Task[None]] = set()

        async def act_after_thinking(action: int, version: int) -> None:
            await asyncio.sleep(rng.uniform(*think))
            message_id = str(version)
            sent_at[message_id] = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action, "version": version, "id": message_id}))

        async for raw in ws:
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack":
                client.latencies.append(time.perf_counter() - sent_at.pop(message["id"]))
                client.acked_versions.append(message["version"])
            elif kind == "error":
                client.errors.append(f"{message['code']}: {message['message']}")
                sent_at.pop(str(message.get("id")), None)
            elif kind == "state":
                if message["score"]["over"]:
                    client.finished = True
                view, version = message["view"], message["version"]
                if view["player"] == message["you"] and view["legal"] and version != acted_on:
                    acted_on = version
                    task = asyncio.create_task(act_after_thinking(rng.choice(view["legal"])["action"], version))
                    thinking.add(task)
                    task.add_done_callback(thinking.discard)
            if client.finished and not sent_at and not thinking:
                return


def verify(db_path: Path, clients: list[Client], hands: int) -> tuple[int, list[str]]:
    """Every table: stored actions numbered 0..n-1, replaying to a finished game, with each
    acknowledged action of the person stored at its place. Returns (actions, problems)."""
    problems: list[str] = []
    total = 0
    game = make_game("israeli", None, {"hands": hands})
    with sqlite3.connect(db_path) as db:
        for client in clients:
            rows = db.execute("SELECT seq, seat, action, by_bot FROM actions WHERE table_id = ? ORDER BY seq",
                              (client.table_id,)).fetchall()
            seed, first_dealer = db.execute("SELECT seed, first_dealer FROM tables WHERE id = ?",
                                            (client.table_id,)).fetchone()
            total += len(rows)
            if [r[0] for r in rows] != list(range(len(rows))):
                problems.append(f"{client.table_id}: sequence numbers have gaps or repeats")
            match = Match.start(game, seed, first_dealer)
            for _, seat, action, _ in rows:
                if seat != match.current_player:
                    problems.append(f"{client.table_id}: stored action out of turn")
                    break
                match = match.apply(action)
            if not match.over:
                problems.append(f"{client.table_id}: the game did not finish")
            people = {seq + 1 for seq, seat, _, by_bot in rows if seat == 0 and not by_bot}
            if sorted(client.acked_versions) != sorted(people):
                problems.append(f"{client.table_id}: acknowledged actions {len(client.acked_versions)} "
                                f"vs stored {len(people)}")
            if not client.finished:
                problems.append(f"{client.table_id}: the client did not see the end")
    return total, problems


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data_dir: Path, port: int, bot_delay: float) -> subprocess.Popen[bytes]:
    env = {**os.environ, "WHIST_DATA_DIR": str(data_dir)}
    # Every simulated person comes from 127.0.0.1, hundreds of guests and tables at once: no rate limits.
    command = [sys.executable, "-m", "whist.cli", "serve", "--port", str(port), "--bot-delay", str(bot_delay),
               "--grace", "600", "--log-level", "warning", "--no-rate-limits"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=(data_dir / "server.log").open("wb"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=1):
                return process
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise RuntimeError("the server did not start")


async def run_clients(clients: list[Client], ws_base: str, think: tuple[float, float], seed: int) -> float:
    start = time.perf_counter()
    await asyncio.gather(*(play(c, ws_base, think, random.Random(f"{seed}/{i}")) for i, c in enumerate(clients)))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=1, help="Israeli Whist hands per table")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits before each move")
    parser.add_argument("--think", default="0.5,1.5", help="a person's think time range, seconds")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    with tempfile.TemporaryDirectory() as folder:
        data_dir = Path(folder)
        port = free_port()
        server = start_server(data_dir, port, args.bot_delay)
        try:
            base = f"http://127.0.0.1:{port}"
            clients = set_up(base, args.tables, args.hands)
            wall = asyncio.run(run_clients(clients, f"ws://127.0.0.1:{port}", (low, high), args.seed))
        finally:
            server.terminate()
            server.wait(timeout=30)
        actions, problems = verify(data_dir / "whist.db", clients, args.hands)
    latencies = sorted(x for c in clients for x in c.latencies)
    errors = [e for c in clients for e in c.errors]
    p50 = statistics.median(latencies) * 1000
    p99 = latencies[int(len(latencies) * 0.99) - 1] * 1000
    print(f"tables at once: {args.tables} (1 simulated person + 3 basic bots each, {args.hands} Israeli Whist "
          f"hand(s), bot delay {args.bot_delay:g} s, think {low:g}-{high:g} s)")
    print(f"wall time: {wall:.1f} s; actions stored: {actions}; actions per second: {actions / wall:.0f}")
    print(f"people's actions acknowledged: {len(latencies)}; latency action to ack: p50 {p50:.1f} ms, "
          f"p99 {p99:.1f} ms, max {latencies[-1] * 1000:.1f} ms")
    print(f"errors returned to clients: {len(errors)}")
    print(f"lost or duplicated actions, unfinished games: {len(problems)}")
    for problem in problems[:10]:
        print("  " + problem)
    if problems or errors:
        sys.exit(1)


if __name__ == "__main__":
    main()
