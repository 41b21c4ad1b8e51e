"""Many tables at once on ``whist serve``: actions per second, the latency from a client's action
to its acknowledgement, how late the bots move past their pacing, and a check that no action
was lost or stored twice. Optionally several nodes behind nginx, and one of them killed.

Each table has one simulated person, who connects over a WebSocket with their own guest
session and plays a random legal action after a short think, and three bots (``--bot-level``),
which the server paces with ``--bot-delay``. The latency is measured only on the people's
actions, from sending to the ``ack``: bot thinking is not part of it. The bots' moves are timed
as the person's client sees them: from the state message of the action before a bot's move to
the state message of that move, less the pacing. At the end every table's stored actions are
read back from the database (SQLite or PostgreSQL, through SQLAlchemy) and replayed through
the engine. All the people start at once, or one after another over ``--ramp`` seconds.

With ``--nodes N`` (or ``--nginx``) the clients reach the nodes only through nginx, run here as
a child process with ``deploy/nginx.conf`` (round robin, WebSocket upgrade), its upstream block
naming the bench's nodes. The nodes share one PostgreSQL database. A client whose
WebSocket drops reconnects through nginx, with a short backoff, and makes sure its last action
is taken exactly once: an action acknowledged is stored; one sent without an answer is sent
again only if the state after reconnecting shows the table still waiting for it. With
``--kill-node-after S`` the node that owns the most tables (``table_owners``) is killed with
SIGKILL S seconds into the load; each of its tables must go on within the lease + 5 s.

With ``--event`` the simulated people are players of the daily duplicate event instead, each
playing its first ``--boards`` boards one after another, each board a table as above (one hand,
the event's bots at the daily event's level, ``--bot-level`` setting it on the server), and the
checks go on to the event's plays, results and standings (``server_load_events.py``).

Run:  python bench/server_load.py [--tables 200] [--hands 1] [--bot-delay 1.0] [--think 0.5,1.5] [--ramp 0]
          [--bot-level basic] [--bot-workers N] [--database-url postgresql://...]
          [--nodes 2 [--kill-node-after 20] [--lease-seconds 10]] [--report out.json]
      python bench/server_load.py --event [--players 500] [--boards 2] [--ramp 0] [--bot-level hard] [--nodes 2 ...]
      python bench/server_load.py --capacity [--bot-level expert] [--capacity-start 16] [--capacity-max 256]
          [--database-url postgresql://...] [--report out.json]

With ``--capacity`` the bench finds the most tables one core keeps on time, then two nodes on two
cores, and their ratio (``server_capacity.py``): a search of runs of growing size, each on fresh
nodes pinned to their cores, on a PostgreSQL of its own pinned to the other core.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import grp
import json
import math
import os
import pwd
import random
import re
import resource
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import websockets
from sqlalchemy import Engine, bindparam, text
from sqlalchemy.exc import SQLAlchemyError

from israeli_whist.bots.players.registry import BOT_LEVELS
from israeli_whist.core.duplicate import EVENT_LEVELS
from israeli_whist.core.games import make_game
from israeli_whist.core.handgame import HandGame
from israeli_whist.core.match import Match
from israeli_whist.server.db import make_engine
from israeli_whist.server.live import HAND_OVER_DELAYS, TRICK_OVER_DELAYS

# The server's WebSocket close codes that refuse a table: no such table (on this node), private.
REFUSING_CODES = {4404, 4403}
DEPLOY_NGINX = Path(__file__).resolve().parents[1] / "deploy" / "nginx.conf"
NO_PROXY = urllib.request.build_opener(urllib.request.ProxyHandler({}))


# What the figures are made of ---------------------------------------------------------------------

@dataclass(frozen=True)
class Arrival:
    """The first state message of a version, as the person's client received it."""

    at: float  # time.perf_counter()
    connection: int  # which of the client's connections (1, 2, ...) it came on
    pause: int = 1  # the bot delays the server waits after this state before a bot moves (``pause_after``)


def pause_after(message: dict[str, Any], hands_before: int) -> int:
    """The bot delays the server waits before the move that follows this state (``live.py``): more
    after a trick's last card and at a new hand, which the pages show first. ``hands_before``: the
    hands the state before it had scored."""
    hands = len(message["score"]["hands"])
    if hands > hands_before:
        return HAND_OVER_DELAYS
    view = message["view"]
    if view["tricks_played"] and not view["trick"]:
        return TRICK_OVER_DELAYS
    return 1


def bot_delays_over_pacing(arrivals: Mapping[int, Arrival], bot_seqs: Iterable[int], pacing: float,
                           cut_at: float | None = None) -> tuple[list[float], int]:
    """How late each bot move came, past its pacing: for the stored action ``seq`` made by a bot,
    the time from the state of version ``seq`` (the table before the move) to the state of version
    ``seq + 1`` (after it), less the pause the server makes there (``pacing`` times the state's
    ``pause``). Returns (delays, skipped): a move is skipped when the client did not see both states
    on one connection (it was reconnecting), or when the two states straddle ``cut_at`` (a node
    killed in between: that wait is measured as the resume time).

    >>> arrivals = {0: Arrival(0.0, 1), 1: Arrival(1.25, 1, pause=2), 2: Arrival(2.5, 1), 3: Arrival(9.0, 2)}
    >>> bot_delays_over_pacing(arrivals, [0, 1, 2], pacing=0.5)
    ([0.75, 0.25], 1)
    """
    delays, skipped = [], 0
    for seq in bot_seqs:
        before, after = arrivals.get(seq), arrivals.get(seq + 1)
        if (before is None or after is None or before.connection != after.connection
                or (cut_at is not None and before.at < cut_at <= after.at)):
            skipped += 1
            continue
        delays.append(after.at - before.at - pacing * before.pause)
    return delays, skipped


def percentile(ordered: list[float], fraction: float) -> float:
    """The nearest-rank percentile of sorted values.

    >>> percentile([1.0, 2.0, 3.0, 4.0], 0.5), percentile([1.0, 2.0, 3.0, 4.0], 0.99)
    (2.0, 4.0)
    """
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]


def spread(values: Iterable[float]) -> dict[str, float] | None:
    """Median, p90, p99 and max of ``values`` (None if there are none)."""
    ordered = sorted(values)
    if not ordered:
        return None
    return {"count": len(ordered), "median": percentile(ordered, 0.5), "p90": percentile(ordered, 0.9),
            "p99": percentile(ordered, 0.99), "max": ordered[-1]}


def answering_node(headers: Mapping[str, str]) -> str:
    """The node that answered a request or a socket through nginx (the address in the header the
    bench's nginx adds); "direct" without nginx."""
    # nginx names every node it tried, the one that answered last.
    return headers.get("X-Whist-Upstream", "direct").split(", ")[-1]


# The simulated person ---------------------------------------------------------------------------

@dataclass
class Client:
    """One simulated person at one table, and what they saw."""

    table_id: str = ""
    cookie: str = ""
    latencies: list[float] = field(default_factory=list)
    acked_versions: list[int] = field(default_factory=list)  # the versions the acks named
    # Actions sent whose ack was lost with the connection, seen taken in the state after reconnecting.
    inferred_versions: list[int] = field(default_factory=list)
    sent: dict[int, int] = field(default_factory=dict)  # version acted on -> the action sent
    arrivals: dict[int, Arrival] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)  # connections a node closed at once (4404, 4403)
    retried: int = 0  # actions refused as "unavailable" (not stored) and sent again
    drops: list[str] = field(default_factory=list)  # why each connection failed or dropped before the end
    upstreams: list[str] = field(default_factory=list)  # the node each connection reached (nginx)
    finished: bool = False


@dataclass
class Pending:
    """An action sent and not yet answered."""

    version: int
    action: int
    sent_at: float
    connection: int  # the connection it was last sent on; 0: none yet
    first_sent: float
    sends: int = 0


class Person:
    """Plays one client's seat over as many connections as it takes."""

    def __init__(self, client: Client, url: str, think: tuple[float, float], rng: random.Random,
                 stall: float, give_up: float) -> None:
        self.client, self.url, self.think, self.rng = client, url, think, rng
        self.stall, self.give_up = stall, give_up
        self.ws: Any = None  # the open connection, if any
        self.connection = 0
        self.pending: Pending | None = None
        self.thinking: asyncio.Task[None] | None = None
        self.decided = -1  # the last version we started thinking on
        self.version = -1  # the newest version seen
        self.latest: dict[str, Any] | None = None  # the state message of that version

    @property
    def done(self) -> bool:
        return self.client.finished and self.pending is None and (self.thinking is None or self.thinking.done())

    async def play(self) -> None:
        failing_since: float | None = None
        backoff = 0.1
        while True:
            reason = "closed"
            try:
                async with websockets.connect(self.url, additional_headers={"Cookie": self.client.cookie},
                                              max_size=2**22, open_timeout=5, proxy=None) as ws:
                    await self.opened(ws, answering_node(ws.response.headers if ws.response is not None else {}))
                    failing_since, backoff = None, 0.1
                    if await self.converse(ws):
                        return
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                reason = f"closed {code}"
                if code in REFUSING_CODES:
                    self.client.refusals.append(f"{code} {closed.rcvd.reason if closed.rcvd else ''}")
            except (OSError, TimeoutError, websockets.InvalidHandshake) as failed:
                reason = type(failed).__name__
            finally:
                self.ws = None
            if self.done:
                return
            self.client.drops.append(reason)
            now = time.perf_counter()
            failing_since = failing_since or now
            if now - failing_since > self.give_up:
                self.client.errors.append(f"could not reconnect for {self.give_up:g} s")
                return
            await asyncio.sleep(backoff * self.rng.uniform(1, 1.5))
            backoff = min(2 * backoff, 1.0)

    async def opened(self, ws: Any, upstream: str) -> None:
        """A new connection: an action sent on the last one and not answered waits for its state."""
        self.connection += 1
        self.client.upstreams.append(upstream)
        self.ws = ws
        if self.pending is not None:
            await ws.send(json.dumps({"type": "sync"}))

    async def converse(self, ws: Any) -> bool:
        """Read every message as it comes (so that an ack is timed when it arrives); True once
        the game is over for this client, or it gave up waiting."""
        while True:
            try:
                raw = await asyncio.wait_for(ws.recv(), self.stall)
            except TimeoutError:
                self.client.errors.append(f"no message for {self.stall:g} s")
                return True
            message = json.loads(raw)
            kind = message["type"]
            if kind == "ack":
                self.on_ack(message)
            elif kind == "error":
                await self.on_error(message)
            elif kind == "state":
                self.on_state(message)
            if self.done:
                return True

    def on_ack(self, message: dict[str, Any]) -> None:
        pending = self.pending
        if pending is None or message["id"] != str(pending.version) or pending.connection != self.connection:
            self.client.errors.append(f"an ack for no action in flight: {message}")
            return
        self.client.latencies.append(time.perf_counter() - pending.sent_at)
        self.client.acked_versions.append(message["version"])
        self.pending = None
        self.maybe_decide()

    async def on_error(self, message: dict[str, Any]) -> None:
        pending = self.pending
        if pending is not None and message.get("id") == str(pending.version):
            code, state = message["code"], message.get("state")
            if code == "stale" and pending.sends > 1 and state is not None and state["version"] > pending.version:
                # Sent again after a lost answer, and refused: the first send was taken (no one
                # else acts for this seat), and the state says so.
                self.pending = None
                self.client.inferred_versions.append(pending.version + 1)
                self.on_state(state)
                return
            if code == "unavailable" and time.perf_counter() - pending.first_sent < self.give_up:
                # The table is moving between nodes, or the owner did not answer in time: maybe
                # stored, maybe not. The state tells (``on_state``), then it is sent again if need be.
                self.client.retried += 1
                pending.connection = 0
                await asyncio.sleep(0.2)
                await self.ws.send(json.dumps({"type": "sync"}))
                return
            self.pending = None
        self.client.errors.append(f"{message['code']}: {message['message']}")
        if "state" in message:
            self.on_state(message["state"])

    def on_state(self, message: dict[str, Any]) -> None:
        version, view = message["version"], message["view"]
        hands_before = len(self.latest["score"]["hands"]) if self.latest is not None else 0
        self.client.arrivals.setdefault(version, Arrival(time.perf_counter(), self.connection,
                                                         pause_after(message, hands_before)))
        if message["score"]["over"]:
            self.client.finished = True
        pending = self.pending
        if pending is not None and pending.connection != self.connection:
            # Sent on a connection that is gone (or refused as unavailable): taken if the table moved past it.
            if version > pending.version:
                self.client.inferred_versions.append(pending.version + 1)
                self.pending = None
            elif version == pending.version and view["player"] == message["you"]:
                self.send(pending)
        if version >= self.version:
            self.version, self.latest = version, message
        self.maybe_decide()

    def maybe_decide(self) -> None:
        """Start thinking on the newest state if it is our turn and nothing of ours is in flight (the
        person may act twice running, as in the frisch: the second turn waits for the first ack)."""
        message = self.latest
        if (message is None or self.pending is not None or (self.thinking is not None and not self.thinking.done())
                or message["version"] <= self.decided):
            return
        view, version = message["view"], message["version"]
        if view["player"] == message["you"] and view["legal"]:
            self.decided = version
            self.thinking = asyncio.create_task(self.act_after_thinking(self.rng.choice(view["legal"])["action"],
                                                                        version))

    async def act_after_thinking(self, action: int, version: int) -> None:
        await asyncio.sleep(self.rng.uniform(*self.think))
        if self.version != version:  # the table moved on without us (a stand-in): nothing to send
            return
        self.client.sent[version] = action
        now = time.perf_counter()
        self.pending = Pending(version, action, now, 0, now)
        self.send(self.pending)

    def send(self, pending: Pending) -> None:
        """Send (or send again) ``pending`` on the open connection; without one, the state after
        reconnecting sends it."""
        if self.ws is None:
            return
        pending.connection, pending.sent_at = self.connection, time.perf_counter()
        pending.sends += 1
        message = {"type": "act", "action": pending.action, "version": pending.version, "id": str(pending.version)}
        task = asyncio.create_task(self.ws.send(json.dumps(message)))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())  # a dropped connection: seen by recv


# Setting up and checking the tables ---------------------------------------------------------------

@dataclass(frozen=True)
class Reply:
    """A server's answer to one request: its status, its JSON (a refusal's too), and the node that
    answered (nginx's ``X-Whist-Upstream``; "direct" without nginx)."""

    status: int
    body: dict[str, Any]
    upstream: str
    set_cookie: str = ""


def call(base: str, method: str, path: str, body: Any = None, cookie: str = "") -> Reply:
    """One request, without a proxy; a refusal (4xx, 5xx) is answered, not raised."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json", "Cookie": cookie})
    try:
        response = NO_PROXY.open(request, timeout=60)
    except urllib.error.HTTPError as refused:
        response = refused
    with response:
        raw = response.read()
        headers = response.headers
        try:
            answer = json.loads(raw) if raw else {}
        except ValueError:  # nginx's own page, say
            answer = {"detail": raw[:200].decode(errors="replace")}
        return Reply(response.status, answer, answering_node(headers), headers.get("Set-Cookie", "").split(";", 1)[0])


def post(base: str, path: str, body: dict[str, Any], cookie: str = "") -> tuple[dict[str, Any], str]:
    """A POST that must succeed: its JSON, and the session cookie (a new one if the server set it)."""
    reply = call(base, "POST", path, body, cookie)
    if reply.status >= 300:
        raise RuntimeError(f"POST {path}: {reply.status} {reply.body}")
    return reply.body, reply.set_cookie or cookie


def set_up(base: str, tables: int, hands: int, bot_level: str) -> list[Client]:
    """A guest and a table for each client. All the guests first, then all the tables: behind a
    round robin, the node that takes a table's request plays it, and two requests a client in turn
    would put every table on the same node."""
    cookies = [post(base, "/api/guest", {"name": f"load{number}"})[1] for number in range(tables)]
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": bot_level}] * 3
    body = {"game": "israeli", "options": {"hands": hands}, "seats": seats, "take_seat": 0}
    return [Client(post(base, "/api/tables", body, cookie)[0]["id"], cookie) for cookie in cookies]


@dataclass
class Stored:
    """What the database holds of the clients' tables."""

    actions: int
    bot_seqs: dict[str, list[int]]  # table -> the sequence numbers of the bots' actions
    problems: list[str]
    totals: dict[str, tuple[int, ...]] = field(default_factory=dict)  # table -> each seat's points, replayed


def verify(engine: Engine, clients: list[Client], game_of: Callable[[Client], HandGame]) -> Stored:
    """Every table: stored actions numbered 0..n-1, replaying to a finished game of ``game_of``
    its client; the person's stored actions are exactly those they sent and saw taken
    (acknowledged, or seen in the state after a lost ack), each once, each the action they sent."""
    stored = Stored(0, {}, [])
    with engine.connect() as db:
        for client in clients:
            rows = db.execute(text("SELECT seq, seat, action, by_bot FROM actions WHERE table_id = :t ORDER BY seq"),
                              {"t": client.table_id}).all()
            seed, first_dealer = db.execute(text("SELECT seed, first_dealer FROM tables WHERE id = :t"),
                                            {"t": client.table_id}).one()
            stored.actions += len(rows)
            match, problems = replay_table(client, game_of(client), seed, first_dealer, [tuple(r) for r in rows])
            stored.problems += problems
            stored.bot_seqs[client.table_id] = [seq for seq, _, _, by_bot in rows if by_bot]
            stored.totals[client.table_id] = match.totals
    return stored


def check_table(client: Client, game: HandGame, seed: str, first_dealer: int,
                rows: list[tuple[Any, ...]]) -> list[str]:
    return replay_table(client, game, seed, first_dealer, rows)[1]


def replay_table(client: Client, game: HandGame, seed: str, first_dealer: int,
                 rows: list[tuple[Any, ...]]) -> tuple[Match, list[str]]:
    """The table's stored actions replayed, and what is wrong with them (``verify``)."""
    problems = []
    name = client.table_id
    if [r[0] for r in rows] != list(range(len(rows))):
        problems.append(f"{name}: sequence numbers have gaps or repeats")
    match = Match.start(game, seed, first_dealer)
    for _, seat, action, _ in rows:
        if seat != match.current_player:
            problems.append(f"{name}: stored action out of turn")
            break
        match = match.apply(action)
    if not match.over:
        problems.append(f"{name}: the game did not finish")
    people = {seq + 1: action for seq, seat, action, by_bot in rows if seat == 0 and not by_bot}
    acked, inferred = Counter(client.acked_versions), Counter(client.inferred_versions)
    if any(n > 1 for n in (acked + inferred).values()):
        problems.append(f"{name}: an action seen taken twice")
    if set(acked) | set(inferred) != set(people):
        problems.append(f"{name}: actions seen taken {sorted(set(acked) | set(inferred))} "
                        f"vs stored {sorted(people)}")
    wrong = [v for v, action in people.items() if client.sent.get(v - 1) != action]
    if wrong:
        problems.append(f"{name}: stored actions the person did not send, at versions {wrong}")
    if not client.finished:
        problems.append(f"{name}: the client did not see the end")
    return match, problems


# Processes: the nodes and nginx ----------------------------------------------------------------------

@dataclass
class Node:
    name: str
    port: int
    process: subprocess.Popen[bytes]

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"


def cpu_seconds_by_niceness(parent: int) -> dict[int, float]:
    """CPU seconds used so far by ``parent``'s child processes, by their niceness (Linux's /proc):
    the bot workers run at 10, the analysis workers at 19 (``israeli_whist.server.workers``)."""
    found: dict[int, float] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        fields = stat_fields(stat)
        if fields is not None and int(fields[1]) == parent:
            nice = int(fields[16])
            found[nice] = found.get(nice, 0.0) + cpu_seconds_in(fields)
    return found


def cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by the process ``pid`` itself (0 if it is gone)."""
    fields = stat_fields(Path(f"/proc/{pid}/stat"))
    return 0.0 if fields is None else cpu_seconds_in(fields)


def stat_fields(stat: Path) -> list[str] | None:
    """A process's /proc stat line after its command's name: state, ppid, ..., utime (12th), stime
    (13th), ..., nice (17th); None if it is gone."""
    try:
        return stat.read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def cpu_seconds_in(fields: list[str]) -> float:
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_health(base: str, process: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        try:
            with NO_PROXY.open(f"{base}/health", timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    tail = log.read_text(errors="replace").splitlines()[-5:] if log.exists() else []
    raise RuntimeError(f"{what} did not start: " + " | ".join(tail))


def start_node(name: str, folder: Path, database_url: str, args: argparse.Namespace,
               cpus: set[int] | None = None) -> Node:
    """One ``whist serve``, in its own process group, so that killing the node kills its bot workers
    too, as when its machine dies; with ``cpus``, pinned to those cores (as ``taskset -c`` does: its
    bot workers inherit the affinity, and start one per core it may use). It may not answer yet:
    ``wait_for_nodes``."""
    port = free_port()
    env = {**os.environ, "WHIST_DATA_DIR": str(folder)}
    # Every simulated person comes from 127.0.0.1, hundreds of guests and tables at once: no rate limits.
    command = [sys.executable, "-m", "israeli_whist.cli", "serve", "--port", str(port), "--database-url", database_url,
               "--bot-delay", str(args.bot_delay), "--grace", "600", "--log-level", "warning", "--no-rate-limits",
               "--node-name", name, "--lease-seconds", f"{args.lease_seconds:g}"]
    if args.bot_workers is not None:
        command += ["--bot-workers", str(args.bot_workers)]
    if args.event and args.bot_level is not None:
        command += ["--daily-level", args.bot_level]
    niceness = args.node_niceness

    def prepared() -> None:  # in the child, before it runs the node; its bot workers go 10 below it
        if niceness:
            os.setpriority(os.PRIO_PROCESS, 0, niceness)
        if cpus:
            os.sched_setaffinity(0, cpus)

    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=(folder / f"{name}.log").open("wb"),
                               start_new_session=True, preexec_fn=prepared if niceness or cpus else None)
    return Node(name, port, process)


def wait_for_nodes(nodes: list[Node], folder: Path) -> None:
    for node in nodes:
        wait_for_health(f"http://{node.address}", node.process, f"node {node.name}", folder / f"{node.name}.log")


def stop(process: subprocess.Popen[bytes], hard: bool = False) -> None:
    """Stop a process that we started in its own group, and whatever it started."""
    if process.poll() is None:
        if hard:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # bot workers left behind by the leader


def nginx_config(folder: Path, port: int, upstreams: list[str]) -> str:
    """``deploy/nginx.conf`` as the bench runs it: these upstream servers, a loopback port, temporary
    files in ``folder``, and a header naming the node that answered (for the connections per node)."""
    config = DEPLOY_NGINX.read_text()
    theirs = re.search(r"\n\s*server [\w.-]+:\d+([^;]*);", config)
    if theirs is None:
        raise RuntimeError(f"{DEPLOY_NGINX} has changed shape: no upstream server in it")
    servers = "".join(f"\n        server {address}{theirs.group(1)};" for address in upstreams)
    temp = "".join(f"\n    {kind}_temp_path {folder / kind};" for kind in ("client_body", "proxy", "fastcgi",
                                                                              "uwsgi", "scgi"))
    changes = [(r"\n\s*server [\w.-]+:\d+[^;]*;", ""),  # its own nodes out
               (r"upstream whist \{", "upstream whist {" + servers.replace("\\", "\\\\")),
               (r"listen \d+;", f"listen 127.0.0.1:{port};"),
               (r"\nhttp \{", "\nhttp {" + temp.replace("\\", "\\\\")),
               (r"proxy_pass http://whist;", "proxy_pass http://whist;\n            "
                                             "add_header X-Whist-Upstream $upstream_addr always;")]
    for pattern, replacement in changes:
        config, count = re.subn(pattern, replacement, config)
        if not count:
            raise RuntimeError(f"{DEPLOY_NGINX} has changed shape: no {pattern!r} in it")
    return config


def start_nginx(folder: Path, upstreams: list[str]) -> tuple[subprocess.Popen[bytes], int]:
    nginx = shutil.which("nginx") or "/usr/sbin/nginx"
    if not Path(nginx).exists():
        raise RuntimeError("nginx is not installed (Debian: apt-get install -y nginx)")
    port = free_port()
    config = folder / "nginx.conf"
    config.write_text(nginx_config(folder, port, upstreams))
    log = folder / "nginx.log"
    user, group = pwd.getpwuid(os.geteuid()).pw_name, grp.getgrgid(os.getegid()).gr_name
    command = [nginx, "-c", str(config), "-p", str(folder), "-e", str(log),
               "-g", f"daemon off; pid {folder / 'nginx.pid'}; user {user} {group};"]
    checked = subprocess.run([*command, "-t"], capture_output=True, text=True)
    if checked.returncode != 0:
        raise RuntimeError(f"nginx -t refused the generated configuration: {checked.stderr.strip()}")
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for_health(f"http://127.0.0.1:{port}", process, "nginx", log)
    except RuntimeError:
        stop(process)
        raise
    return process, port


# The node killed --------------------------------------------------------------------------------------

@dataclass
class Kill:
    node: str
    at: float  # time.perf_counter()
    after: float  # seconds into the load
    tables: list[str]  # the clients' tables it owned


def table_owners(engine: Engine, table_ids: list[str]) -> dict[str, str] | None:
    """Which node owns each table now (``table_owners``); None where the database has no such table
    (a server from before several nodes)."""
    query = text("SELECT table_id, node FROM table_owners WHERE table_id IN :ids").bindparams(
        bindparam("ids", expanding=True))
    try:
        with engine.connect() as db:
            return {table_id: node for table_id, node in db.execute(query, {"ids": table_ids}).all()}
    except SQLAlchemyError:
        return None


async def kill_a_node(after: float, nodes: list[Node], engine: Engine, clients: list[Client]) -> Kill:
    """``after`` seconds into the load, SIGKILL the node owning the most of the clients' tables
    (read from ``table_owners`` just before)."""
    await asyncio.sleep(after)
    owners = await asyncio.to_thread(table_owners, engine, [c.table_id for c in clients]) or {}
    name = Counter(owners.values()).most_common(1)[0][0] if owners else nodes[0].name
    victim = next((n for n in nodes if n.name == name), nodes[0])
    at = time.perf_counter()
    stop(victim.process, hard=True)
    return Kill(victim.name, at, after, sorted(table for table, node in owners.items() if node == victim.name))


def resume_times(kill: Kill, clients: list[Client]) -> tuple[dict[str, float], list[str], list[str]]:
    """For each table of the killed node: the seconds from the kill to the first state of a version
    the client had not seen before it. Returns (resumed, not resumed, over before the kill)."""
    by_table = {c.table_id: c for c in clients}
    resumed: dict[str, float] = {}
    stuck, over = [], []
    for table in kill.tables:
        arrivals = by_table[table].arrivals
        seen = max((v for v, a in arrivals.items() if a.at < kill.at), default=-1)
        later = [a.at for v, a in arrivals.items() if v > seen and a.at >= kill.at]
        if later:
            resumed[table] = min(later) - kill.at
        elif by_table[table].finished:  # every state came before the kill, the last one the end
            over.append(table)
        else:
            stuck.append(table)
    return resumed, stuck, over


# The run ----------------------------------------------------------------------------------------------

def person_at(client: Client, ws_base: str, args: argparse.Namespace, seed: str) -> Person:
    """The simulated person of ``client``'s table, with the run's think time and patience (a node's
    lease and 30 s to reconnect)."""
    return Person(client, f"{ws_base}/ws/tables/{client.table_id}", args.think_range, random.Random(seed),
                  args.stall_timeout, args.lease_seconds + 30)


async def run_clients(clients: list[Client], ws_base: str, args: argparse.Namespace,
                      nodes: list[Node], engine: Engine) -> tuple[float, Kill | None]:
    people = [person_at(c, ws_base, args, f"{args.seed}/{i}") for i, c in enumerate(clients)]
    start = time.perf_counter()
    killing = None
    if args.kill_node_after is not None:
        killing = asyncio.create_task(kill_a_node(args.kill_node_after, nodes, engine, clients))

    async def arriving(index: int, person: Person) -> None:  # --ramp: one after another, evenly
        await asyncio.sleep(args.ramp * index / len(people))
        await person.play()

    await asyncio.gather(*(arriving(i, p) for i, p in enumerate(people)))
    wall = time.perf_counter() - start
    if killing is None:
        return wall, None
    if not killing.done():  # the load ended before the kill
        killing.cancel()
        return wall, None
    return wall, killing.result()


def main() -> None:
    args = parse_arguments()
    if args.event:
        from server_load_events import run_event  # it imports this file's pieces: not at the top

        report = run_event(args)
    elif args.capacity:
        from server_capacity import run_capacity  # it imports this file's pieces: not at the top

        report = run_capacity(args)
    elif not args.compare_nodes:
        report = run_once(args)
    else:  # the same load on one node, then on --nodes, both behind nginx: the throughput's ratio from one run
        one = run_once(argparse.Namespace(**{**vars(args), "nodes": 1, "kill_node_after": None}))
        report = run_once(args)
        ratio = report["actions_per_s"] / one["actions_per_s"]
        print(f"throughput: {args.nodes} nodes {report['actions_per_s']:.1f} actions/s, 1 node "
              f"{one['actions_per_s']:.1f}: ratio {ratio:.2f}")
        report = {"one_node": one, "nodes": report, "throughput_ratio": ratio,
                  "failed": bool(one["failed"] or report["failed"])}
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1))
    if report["failed"]:
        sys.exit(1)


def run_once(args: argparse.Namespace) -> dict[str, Any]:
    """One run of the load on fresh nodes; its report (printed too)."""
    with serving(args) as served:
        clients = set_up(served.base, args.tables, args.hands, args.bot_level)
        owners = table_owners(served.engine, [c.table_id for c in clients]) or {}
        with Usage(served) as usage:
            wall, kill = asyncio.run(run_clients(clients, served.ws_base, args, served.nodes, served.engine))
        served.stop()
        game = make_game("israeli", None, {"hands": args.hands})
        stored = verify(served.engine, clients, lambda client: game)
    report = summarise(args, clients, stored, wall, kill, served.nodes)
    report["tables_per_node"] = dict(sorted(Counter(owners.values()).items()))
    report.update(usage.figures())
    print_report(args, report)
    return report


@dataclass
class Served:
    """The nodes of one run, on one database, and where the clients reach them."""

    port: int  # nginx's, or the one node's
    nodes: list[Node]
    engine: Engine  # the nodes' database, for the checks
    proxy: subprocess.Popen[bytes] | None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def cpu(self) -> dict[str, float]:
        """CPU seconds used so far by this process (the clients) and by each node, its web process and
        its bot workers apart."""
        own = resource.getrusage(resource.RUSAGE_SELF)
        used = {"clients": own.ru_utime + own.ru_stime}
        for node in self.nodes:
            used[f"{node.name} web"] = cpu_seconds(node.process.pid)
            used[f"{node.name} workers"] = sum(cpu_seconds_by_niceness(node.process.pid).values())
        return used

    def stop(self) -> None:
        """Stop nginx and the nodes (again: nothing), so that the database holds all they wrote."""
        if self.proxy is not None:
            stop(self.proxy)
        for node in self.nodes:
            stop(node.process)


class Usage:
    """What the machine gave a run, measured over a ``with`` block: the CPU seconds of the clients and
    of each node (``Served.cpu``), and the load average before and after (the cores are shared)."""

    def __init__(self, served: Served) -> None:
        self.served = served
        self.before: dict[str, float] = {}
        self.after: dict[str, float] = {}
        self.load: list[float] = []

    def cpu(self) -> dict[str, float]:
        return self.served.cpu()

    def __enter__(self) -> Usage:
        self.before, self.load = self.cpu(), [os.getloadavg()[0]]
        return self

    def __exit__(self, *exception: object) -> None:
        self.after = self.cpu()
        self.load.append(os.getloadavg()[0])

    def figures(self) -> dict[str, Any]:
        return {"cpu_s": {name: round(max(0.0, used - self.before.get(name, 0.0)), 1)  # a killed node: 0
                          for name, used in self.after.items()},
                "cores": os.cpu_count(), "load_average_before_after": self.load}


@contextlib.contextmanager
def serving(args: argparse.Namespace) -> Iterator[Served]:
    """Fresh nodes (and nginx, with ``--nginx``) on an empty database for one run; stopped at the end."""
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        # Nodes share the key that signs session cookies, as they must behind one address.
        (folder / "session.key").write_text(secrets.token_urlsafe(32))
        (folder / "session.key").chmod(0o600)
        database_url = args.database_url or f"sqlite:///{folder / 'whist.db'}"
        served = Served(0, [], make_engine(database_url), None)
        try:
            # All at once: the nodes take turns at the schema's migrations (an advisory lock).
            pinned: list[set[int]] | None = args.node_cpus  # one set of cores a node (--capacity)
            served.nodes += [start_node(f"node{number}", folder, database_url, args,
                                        pinned[number - 1] if pinned else None)
                             for number in range(1, args.nodes + 1)]
            wait_for_nodes(served.nodes, folder)
            if args.nginx:
                served.proxy, served.port = start_nginx(folder, [n.address for n in served.nodes])
            else:
                served.port = served.nodes[0].port
            yield served
        finally:
            served.stop()
            served.engine.dispose()


def summarise(args: argparse.Namespace, clients: list[Client], stored: Stored, wall: float, kill: Kill | None,
              nodes: list[Node]) -> dict[str, Any]:
    delays: list[float] = []
    skipped = 0
    for client in clients:
        found, missed = bot_delays_over_pacing(client.arrivals, stored.bot_seqs[client.table_id], args.bot_delay,
                                               kill.at if kill else None)
        delays += found
        skipped += missed
    by_address = {n.address: n.name for n in nodes}
    errors = [e for c in clients for e in c.errors]
    refusals = [r for c in clients for r in c.refusals]
    report: dict[str, Any] = {
        "tables": len(clients), "hands": args.hands, "bot_level": args.bot_level, "bot_delay": args.bot_delay,
        "ramp_s": args.ramp,
        "bot_workers": args.bot_workers, "nodes": args.nodes, "nginx": args.nginx, "node_niceness": args.node_niceness,
        "database": "postgresql" if (args.database_url or "").startswith("postgresql") else "sqlite",
        "wall_s": wall, "actions": stored.actions, "actions_per_s": stored.actions / wall,
        "ack_latency_s": spread(x for c in clients for x in c.latencies),
        "bot_delay_over_pacing_s": spread(delays), "bot_moves_skipped": skipped,
        "errors": errors, "refusals": refusals, "retried": sum(c.retried for c in clients),
        "drops": sum(len(c.drops) for c in clients),
        "drop_reasons": dict(Counter(reason for c in clients for reason in c.drops)),
        "acks_lost_but_stored": sum(len(c.inferred_versions) for c in clients),
        "connections_per_node": dict(Counter(by_address.get(u, u) for c in clients for u in c.upstreams)),
        "problems": stored.problems, "kill": None,
    }
    failed = bool(stored.problems or errors or refusals)
    if args.kill_node_after is not None:
        if kill is None:
            report["kill"] = {"error": "the load ended before the kill"}
            failed = True
        else:
            resumed, stuck, over = resume_times(kill, clients)
            late = {t: s for t, s in resumed.items() if s > args.lease_seconds + 5}
            report["kill"] = {**asdict(kill), "resumed_s": resumed, "not_resumed": stuck,
                              "over_before_kill": over, "late": late, "limit_s": args.lease_seconds + 5}
            del report["kill"]["at"]
            failed = failed or not kill.tables or bool(stuck or late)
    report["failed"] = failed
    return report


def setup_line(args: argparse.Namespace, report: dict[str, Any]) -> str:
    """The pacing, the bot workers, the database and the nodes of a run, in words."""
    low, high = args.think_range
    workers = "serve's default" if args.bot_workers is None else args.bot_workers
    where = f"{args.nodes} node(s) behind nginx" if args.nginx else "1 node, no proxy"
    if args.node_niceness:
        where += f", at niceness {args.node_niceness}"
    return (f"bot delay {args.bot_delay:g} s, think {low:g}-{high:g} s; bot workers: {workers}; "
            f"{report['database']}; {where}")


def print_report(args: argparse.Namespace, report: dict[str, Any], headline: str | None = None) -> None:
    """The figures of a run, after ``headline`` (by default the tables' own)."""
    print(headline or f"tables at once: {args.tables} (1 simulated person + 3 {args.bot_level} bots each, "
                      f"{args.hands} Israeli Whist hand(s), {setup_line(args, report)})")
    print(f"wall time: {report['wall_s']:.1f} s; actions stored: {report['actions']}; "
          f"actions per second: {report['actions_per_s']:.1f}")
    ack = report["ack_latency_s"]
    if ack:
        print(f"people's actions acknowledged: {ack['count']}; latency action to ack: p50 {ack['median'] * 1000:.1f} "
              f"ms, p90 {ack['p90'] * 1000:.1f} ms, p99 {ack['p99'] * 1000:.1f} ms, max {ack['max'] * 1000:.1f} ms")
    late = report["bot_delay_over_pacing_s"]
    if late:
        print(f"bot moves timed: {late['count']} (skipped: {report['bot_moves_skipped']}); delay over the pacing: "
              f"median {late['median'] * 1000:.1f} ms, p90 {late['p90'] * 1000:.1f} ms, "
              f"p99 {late['p99'] * 1000:.1f} ms, max {late['max'] * 1000:.1f} ms")
    if args.nginx:
        spread_text = ", ".join(f"{node} {count}" for node, count in sorted(report["connections_per_node"].items()))
        print(f"WebSocket connections per node: {spread_text}; dropped or failed: {report['drops']}; "
              f"refused by a node: {len(report['refusals'])}; acks lost but the action stored: "
              f"{report['acks_lost_but_stored']}; actions retried after 'unavailable': {report['retried']}")
    if report["drops"] and not args.nginx:
        print(f"WebSocket connections dropped or failed: {report['drops']}")
    if report["drops"]:
        print("  why: " + ", ".join(f"{reason} {count}" for reason, count in sorted(report["drop_reasons"].items())))
    if report["tables_per_node"]:
        print("tables per node at the start (table_owners): "
              + ", ".join(f"{node} {count}" for node, count in report["tables_per_node"].items()))
    kill = report["kill"]
    if kill is not None:
        print_kill(kill)
    if "cpu_s" in report:
        used = ", ".join(f"{name} {seconds:g}" for name, seconds in report["cpu_s"].items())
        before, after = report["load_average_before_after"]
        print(f"CPU seconds used over the load: {used}; {report['cores']} cores, shared: the load average "
              f"{before:.2f} before, {after:.2f} after")
    print(f"errors returned to clients: {len(report['errors'])}")
    for error in report["errors"][:5]:
        print("  " + error)
    print(f"lost or duplicated actions, unfinished games: {len(report['problems'])}")
    for problem in report["problems"][:10]:
        print("  " + problem)


def print_kill(kill: dict[str, Any]) -> None:
    if "error" in kill:
        print(f"node killed: none ({kill['error']})")
        return
    resumed = sorted(kill["resumed_s"].values())
    print(f"node killed: {kill['node']} (SIGKILL) {kill['after']:g} s into the load; its tables "
          f"(table_owners): {len(kill['tables'])}, resumed {len(resumed)}, not resumed "
          f"{len(kill['not_resumed'])}, over before the kill {len(kill['over_before_kill'])}")
    if resumed:
        print(f"  from the kill to the table's next state: median {percentile(resumed, 0.5):.2f} s, "
              f"max {resumed[-1]:.2f} s; past the limit of {kill['limit_s']:g} s (lease + 5): {len(kill['late'])}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--hands", type=int, default=1, help="Israeli Whist hands per table")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="seconds a bot waits before each move")
    parser.add_argument("--bot-level", default=None, choices=list(BOT_LEVELS),
                        help="the three bots' level (default: basic; with --event, the daily event's; "
                             "with --capacity, expert)")
    parser.add_argument("--event", action="store_true",
                        help="players on the daily duplicate event's boards instead of tables (server_load_events.py)")
    parser.add_argument("--players", type=int, default=500, help="with --event: the players at once")
    parser.add_argument("--boards", type=int, default=2, help="with --event: the boards each player plays")
    parser.add_argument("--ramp", type=float, default=0.0, metavar="S",
                        help="the people (with --event, the players) come one after another over S seconds "
                             "(default: all at once)")
    parser.add_argument("--bot-workers", type=int, default=None,
                        help="whist serve --bot-workers (left out: serve's default, one per core; 0: threads)")
    parser.add_argument("--think", default="0.5,1.5", help="a person's think time range, seconds")
    parser.add_argument("--database-url", default=None,
                        help="SQLAlchemy URL of an empty database (e.g. postgresql://user@host/db); "
                             "default: a SQLite file in a temporary folder")
    parser.add_argument("--nodes", type=int, default=1, help="whist serve processes on the one database")
    parser.add_argument("--nginx", action="store_true", help="clients through nginx (implied by --nodes 2 or more)")
    parser.add_argument("--compare-nodes", action="store_true",
                        help="run the load on 1 node first, then on --nodes, and print the throughput's ratio")
    parser.add_argument("--kill-node-after", type=float, default=None, metavar="S",
                        help="SIGKILL the node owning the most tables S seconds into the load")
    parser.add_argument("--lease-seconds", type=float, default=10.0,
                        help="whist serve --lease-seconds; a killed node's tables must go on within it + 5 s")
    parser.add_argument("--node-niceness", type=int, default=0, metavar="N",
                        help="run the nodes at this niceness (-20..19; below 0 needs root): on cores shared with "
                             "other work, -5 gives them the share a server of their own would have")
    parser.add_argument("--stall-timeout", type=float, default=60.0,
                        help="a client gives up after this many seconds without a message")
    parser.add_argument("--capacity", action="store_true",
                        help="find the tables one core keeps on time, then two nodes on two cores, and the ratio "
                             "(server_capacity.py)")
    parser.add_argument("--capacity-start", type=int, default=16, metavar="T",
                        help="with --capacity: the one-core search's first run, in tables (doubled until one fails)")
    parser.add_argument("--capacity-max", type=int, default=256, metavar="T",
                        help="with --capacity: no run past this many tables")
    parser.add_argument("--capacity-precision", type=int, default=2, metavar="T",
                        help="with --capacity: bisect until the failing and the passing run are this many tables "
                             "apart, or an eighth of the passing one")
    parser.add_argument("--capacity-retries", type=int, default=1, metavar="N",
                        help="with --capacity: run a failing size up to N times more; it fails if every run fails")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", default=None, help="also write the figures to this JSON file")
    args = parser.parse_args()
    low, high = (float(x) for x in args.think.split(","))
    args.think_range = (low, high)
    if args.nodes < 1:
        parser.error("--nodes is at least 1")
    if args.nodes > 1 and not (args.database_url or "").startswith("postgresql"):
        parser.error("--nodes 2 or more share one PostgreSQL: give --database-url postgresql://...")
    if args.kill_node_after is not None and args.nodes < 2:
        parser.error("--kill-node-after needs another node to take over: --nodes 2 or more")
    if args.compare_nodes and args.nodes < 2:
        parser.error("--compare-nodes compares 1 node with --nodes 2 or more")
    if args.event and (args.kill_node_after is not None or args.compare_nodes):
        parser.error("--event runs without --kill-node-after and --compare-nodes")
    if args.ramp < 0:
        parser.error("--ramp is 0 or more")
    if args.event and (args.players < 1 or args.boards < 1):
        parser.error("--event needs --players and --boards of 1 or more")
    if args.event and args.bot_level not in (None, *EVENT_LEVELS):
        parser.error(f"an event's bots are {', '.join(EVENT_LEVELS)} (whist serve --daily-level), not {args.bot_level}")
    if args.capacity and (args.event or args.compare_nodes or args.kill_node_after is not None or args.nodes != 1):
        parser.error("--capacity runs one node, then two, itself: not with --event, --compare-nodes, "
                     "--kill-node-after or --nodes")
    if args.capacity and args.database_url and not args.database_url.startswith("postgresql"):
        parser.error("--capacity runs two nodes on one PostgreSQL: a --database-url must be postgresql://...")
    if args.capacity and not 1 <= args.capacity_start <= args.capacity_max:
        parser.error("--capacity-start is at least 1 and at most --capacity-max")
    if args.capacity and (args.capacity_precision < 1 or args.capacity_retries < 0):
        parser.error("--capacity-precision is at least 1, --capacity-retries at least 0")
    if not args.event and args.bot_level is None:
        args.bot_level = "expert" if args.capacity else "basic"
    args.node_cpus = None  # the cores each node is pinned to (--capacity sets them a run)
    args.nginx = args.nginx or args.nodes > 1
    return args


if __name__ == "__main__":
    main()
