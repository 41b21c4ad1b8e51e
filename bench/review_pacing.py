"""A game's review on a real ``whist serve`` while tables of bots play (issue 45: "a 12-hand
Israeli Whist game reviewed on the two cores in under 5 minutes with progress; tables in play
meanwhile keep their bots' pacing").

The server runs with its defaults (a bot worker per core, the analysis workers that follow from
them, the default bot delay), on a SQLite file in a temporary folder, which holds a finished
12-hand Israeli Whist game before the server starts (played here by ``--game-level`` bots; a
review costs the same whoever played). ``--tables`` tables of four ``--level`` bots play at the
server's pace, each watched by a spectator's WebSocket, for ``--baseline`` seconds; then the
game's review is started (``POST /api/history/{id}/review``) and followed (``GET``, every second)
to its end, the tables still playing. Printed: the review's wall time and its progress (hands
done over time), and the bots' moves as the spectators saw them, before and during the review:
the time between a move and the one before it, less the pacing the server adds on purpose (a
bot delay, two after a trick's last card, four at a new hand: ``live.py``), as median, p90 and max.

Run:  python bench/review_pacing.py [--tables 4] [--level expert] [--baseline 60] [--report out.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets

from israeli_whist.bots.players.registry import make_bot
from israeli_whist.core.games import make_game
from israeli_whist.core.match import Match
from israeli_whist.core.views import seat_view
from israeli_whist.server.db import SeatRow, Store, TableRow
from israeli_whist.server.settings import ServerSettings
from server_load import NO_PROXY, cpu_seconds_by_niceness, free_port, pause_after, spread, stop, wait_for_health

GAME_HANDS = 12


def store_finished_game(database_url: str, level: str, seed: str) -> str:
    """A finished Israeli Whist game of ``GAME_HANDS`` hands by ``level`` bots, stored as the server
    stores a game it played; its table's id."""
    game = make_game("israeli", None, {"hands": GAME_HANDS})
    match = Match.start(game, seed, 0)
    bots = [make_bot(level, f"{seed}/{seat}") for seat in range(4)]
    store = Store(database_url)
    table_id = "bench" + secrets.token_hex(8)
    try:
        store.add_table(TableRow(table_id, "israeli", None, {"hands": GAME_HANDS}, seed, 0, True, secrets.token_hex(8),
                                 "playing", None, None, None),
                        [SeatRow(seat, "bot", level, None) for seat in range(4)])
        seq = 0
        while not match.over:
            state = match.hand
            seat = state.player
            action = bots[seat].choose(seat_view(state, seat))
            match = match.apply(action)
            store.append_action(table_id, seq, seat, action, True,
                                finished_totals=list(match.totals) if match.over else None)
            seq += 1
    finally:
        store.close()
    return table_id


@dataclass
class Watched:
    """One table as its spectator saw it: when each bot move arrived, and its pause in bot delays."""

    table_id: str
    moves: list[tuple[float, float]] = field(default_factory=list)  # (arrival, gap less the pacing)
    last_at: float | None = None
    last_version: int = -1
    pause_next: int = 1
    hands_seen: int = 0


async def watch(base_ws: str, watched: Watched, delay: float, stop_at: asyncio.Event) -> None:
    async with websockets.connect(f"{base_ws}/ws/tables/{watched.table_id}", max_size=None) as socket:
        while not stop_at.is_set():
            try:
                text = await asyncio.wait_for(socket.recv(), 1.0)
            except TimeoutError:
                continue
            message = json.loads(text)
            if message.get("type") != "state" or message["version"] <= watched.last_version:
                continue
            now = time.monotonic()
            if watched.last_at is not None and message["version"] == watched.last_version + 1:
                watched.moves.append((now, now - watched.last_at - watched.pause_next * delay))
            watched.pause_next = pause_after(message, watched.hands_seen)
            watched.hands_seen = len(message["score"]["hands"])
            watched.last_at, watched.last_version = now, message["version"]


def call(base: str, method: str, path: str, body: dict[str, Any] | None = None, cookie: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    headers = {"X-Whist-Request": "1", "Cookie": cookie}
    if data is not None:
        headers["Content-Type"] = "application/json"
    request = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with NO_PROXY.open(request, timeout=30) as answer:
        cookies = answer.headers.get_all("Set-Cookie") or []
        found = json.loads(answer.read())
    return found, "; ".join(c.split(";", 1)[0] for c in cookies)


async def run(args: argparse.Namespace, base: str, server: int, table_to_review: str, delay: float) -> dict[str, Any]:
    _, cookie = call(base, "POST", "/api/guest", {"name": "Bench"})
    bots = [{"kind": "bot", "level": args.level}] * 4
    tables = [call(base, "POST", "/api/tables", {"game": "israeli", "options": {"hands": 50}, "seats": bots,
                                                  "take_seat": None}, cookie)[0]["id"] for _ in range(args.tables)]
    watched = [Watched(table_id) for table_id in tables]
    stop_at = asyncio.Event()
    base_ws = base.replace("http://", "ws://")
    watchers = [asyncio.create_task(watch(base_ws, w, delay, stop_at)) for w in watched]
    await asyncio.sleep(args.warm_up)
    baseline_from = time.monotonic()
    await asyncio.sleep(args.baseline)
    started, cpu_before = time.monotonic(), cpu_seconds_by_niceness(server)
    answer, _ = await asyncio.to_thread(call, base, "POST", f"/api/history/{table_to_review}/review")
    progress = [(0.0, answer["state"], answer["done"], answer["total"])]
    print(f"review started: {answer['state']}, {answer['done']}/{answer['total']} hands", flush=True)
    while answer["state"] not in ("done", "failed"):
        await asyncio.sleep(1.0)
        answer, _ = await asyncio.to_thread(call, base, "GET", f"/api/history/{table_to_review}/review")
        if answer["done"] != progress[-1][2] or answer["state"] != progress[-1][1]:
            at = time.monotonic() - started
            progress.append((at, answer["state"], answer["done"], answer["total"]))
            print(f"  {at:6.1f} s  {answer['state']:8} {answer['done']}/{answer['total']} hands", flush=True)
    finished, cpu_after = time.monotonic(), cpu_seconds_by_niceness(server)
    stop_at.set()
    await asyncio.gather(*watchers, return_exceptions=True)
    before = [late for w in watched for at, late in w.moves if baseline_from <= at < started]
    during = [late for w in watched for at, late in w.moves if started <= at <= finished]
    review = answer.get("review") or {}
    return {"load_average": os.getloadavg(), "tables": args.tables, "level": args.level, "bot_delay": delay,
            "state": answer["state"],
            "review_seconds": finished - started, "hands": answer["total"], "progress": progress,
            "cpu_seconds_during_review": {f"nice {nice}": round(cpu_after[nice] - cpu_before.get(nice, 0.0), 1)
                                          for nice in sorted(cpu_after)},
            "budget": review.get("budget"), "decisions": sum(len(h["decisions"]) for h in review.get("hands", [])),
            "review_bytes": len(json.dumps(review)),
            "late_without_review": spread(before), "late_during_review": spread(during)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4, help="tables of bots playing meanwhile")
    parser.add_argument("--level", default="expert", help="their bots' level")
    parser.add_argument("--game-level", default="medium", help="the level of the bots that played the game reviewed")
    parser.add_argument("--baseline", type=float, default=60.0, help="seconds of play measured before the review")
    parser.add_argument("--warm-up", type=float, default=10.0, help="seconds of play not measured, first")
    parser.add_argument("--report", type=Path, help="write the figures as JSON here")
    args = parser.parse_args()
    delay = ServerSettings.bot_delay
    with tempfile.TemporaryDirectory(prefix="review-pacing-") as folder:
        database_url = f"sqlite:///{folder}/whist.db"
        table_to_review = store_finished_game(database_url, args.game_level, "review-pacing")
        port = free_port()
        log = Path(folder) / "server.log"
        command = [sys.executable, "-m", "israeli_whist.cli", "serve", "--port", str(port), "--database-url",
                   database_url, "--log-level", "warning", "--no-rate-limits"]
        with log.open("wb") as errors:
            process = subprocess.Popen(command, env={**os.environ, "WHIST_DATA_DIR": folder}, stdout=subprocess.DEVNULL,
                                       stderr=errors, start_new_session=True)
        try:
            base = f"http://127.0.0.1:{port}"
            wait_for_health(base, process, "the server", log)
            report = asyncio.run(run(args, base, process.pid, table_to_review, delay))
        finally:
            stop(process)
    print(f"\n{len(os.sched_getaffinity(0))} cores (load average at the end, the machine's other work included: "
          f"{', '.join(f'{load:.1f}' for load in report['load_average'])}); the server's defaults; {args.tables} "
          f"tables of {args.level} bots at a bot delay of {delay:g} s")
    print(f"review of a {report['hands']}-hand Israeli Whist game ({report['decisions']} decisions, budget "
          f"{report['budget']}, {report['review_bytes'] // 1000} kB of JSON): {report['state']} in "
          f"{report['review_seconds']:.1f} s")
    print(f"CPU seconds of the server's workers meanwhile, by niceness (10: bots, 19: analyses and reviews): "
          f"{report['cpu_seconds_during_review']}")
    for name in ("late_without_review", "late_during_review"):
        figures = report[name]
        shown = "no moves" if figures is None else (
            f"{figures['count']} moves, median {figures['median']:.3f} s, p90 {figures['p90']:.3f} s, "
            f"max {figures['max']:.3f} s")
        print(f"bots' moves past their pacing, {name.removeprefix('late_').replace('_', ' ')}: {shown}")
    if args.report:
        args.report.write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
