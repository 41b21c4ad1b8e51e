"""Floods against one ``whist serve`` while a table of bots plays: does the server stay responsive?

An attacker on loopback sends what the server must not read: request bodies of 16 MiB (declared
in ``Content-Length``, and chunked without one) and WebSocket messages of 16 MiB, each client in
its own process and a tight loop, and a burst of analysis requests past the ``analyses`` limit.
Meanwhile:

- **The probe** asks ``GET /health`` (which also asks the database) every 10 ms on one
  keep-alive connection, and times each answer.
- **The table** is four bots (``--bot-level``, basic by default, whose decisions take a moment
  each, so that the pace is the server's; each decision goes to the bot workers) paced by
  ``--bot-delay``, playing a long game, watched by one spectator's WebSocket; its pace is the
  states the spectator receives a second, and its figure the median, over the pairs of
  windows, of a flooded window's pace over the quiet one's before it.

The run alternates quiet and flooded windows of ``--window`` seconds (``--rounds`` pairs), the
flooding processes stopped (SIGSTOP) in the quiet ones, so that another load on the machine,
coming and going, weighs on both alike. The figures of each kind of window are printed side by
side, with the pace's ratio (flooded over quiet), the floods' requests and how they were refused
(413 seen before the server closed, a socket closed with 1009), the answers to the analysis
requests sent in the first flooded window (429 past the server's ``--analyses-limit`` a
session; those let through wait for their search), and the server log's stand-in moves ("the
basic bot moves instead": a bot decision past its deadline) and errors.

The flooding processes run at the bot workers' priority (``--flood-niceness``): on one machine
the attacker's own processes would otherwise take the bot workers' share of the cores, which an
attacker elsewhere does not.

Run:  python bench/server_flood.py [--window 2] [--rounds 5] [--flooders 1] [--bot-level basic]
          [--bot-delay 0.05] [--analyses 10] [--analyses-limit 3] [--flood-niceness 10] [--report out.json]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import select
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect as ws_connect

from israeli_whist.server.workers import WORKER_NICENESS
from server_load import free_port, spread, stop, wait_for_health  # bench/ is on the path

FLOOD_BYTES = 16 << 20  # what the attacker sent
PIECE = 64 << 10
KINDS = ("declared", "chunked", "socket")
WARM_UP = 2.0  # seconds before the first window: the table under way
ANSWER_WAIT = 0.002  # seconds a flooding client looks for an early answer from the server
MISSED_DEADLINE = "the basic bot moves instead"  # israeli_whist.server.workers.stand_in_decision


# The attacker's clients (each run as its own process: python bench/server_flood.py --flood KIND) -----------

def body_refused(connection: socket.socket, head: bytes, piece: Callable[[int], bytes]) -> bool:
    """Send ``head``, then the body piece by piece (``piece(size)`` framed as it must be) up to
    16 MiB as fast as the server takes it, looking for the server's answer before each piece, as
    a client that reads while it sends; whether the answer seen was a 413 (a server that closes
    at once may reset the connection before its answer is read). After the head and after the
    first piece, the look waits a moment (``ANSWER_WAIT``) for an answer the server may be
    sending: on loopback a client that does not wait pushes megabytes into the kernel's buffers
    before the answer comes back, and that copying, not the server, would take the machine's cores."""
    connection.sendall(head)
    sent = 0
    try:
        while sent < FLOOD_BYTES:
            if select.select([connection], [], [], ANSWER_WAIT if sent <= PIECE else 0)[0]:
                break
            connection.sendall(piece(PIECE))
            sent += PIECE
        answer = connection.recv(256)
    except OSError:  # closed by the server: its answer may have been lost with the reset
        answer = b""
    return answer.startswith(b"HTTP/1.1 413")


def flood_bodies(url: str, seconds: float, chunked: bool) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    framing = b"Transfer-Encoding: chunked" if chunked else f"Content-Length: {FLOOD_BYTES}".encode()
    head = b"POST /api/login HTTP/1.1\r\nHost: flood\r\nContent-Type: application/json\r\n" + framing + b"\r\n\r\n"
    filler = b" " * PIECE
    piece: Callable[[int], bytes] = ((lambda size: b"%x\r\n%s\r\n" % (size, filler[:size])) if chunked
                                     else (lambda size: filler[:size]))
    outcomes: Counter[str] = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with socket.create_connection((host, int(port)), timeout=10) as connection:
                outcomes["413_seen"] += body_refused(connection, head, piece)
        except OSError:
            continue
        except Exception as error:  # counted, so that the report says what went wrong
            outcomes[f"failed: {type(error).__name__}"] += 1
        outcomes["requests"] += 1
    return dict(outcomes)


def flood_socket(url: str, seconds: float, table_id: str) -> dict[str, Any]:
    """Sockets that each send one 16 MiB message, and wait (up to 10 s) for the server to close them."""
    ws_url = url.replace("http://", "ws://") + f"/ws/tables/{table_id}"
    message = "x" * FLOOD_BYTES
    outcomes: Counter[str] = Counter()
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            with ws_connect(ws_url, open_timeout=10, max_size=None, close_timeout=2) as ws:
                ws.recv(timeout=10)  # the first state
                outcomes["requests"] += 1
                ws.send(message)
                give_up = time.monotonic() + 10  # a server that takes the message goes on sending states
                while True:
                    ws.recv(timeout=max(0.01, give_up - time.monotonic()))
        except ConnectionClosed as closed:
            outcomes["closed_1009" if closed.rcvd is not None and closed.rcvd.code == 1009 else "closed_else"] += 1
        except TimeoutError:  # the server took the message and kept the socket
            outcomes["not_closed"] += 1
        except (OSError, InvalidHandshake):
            continue
        except Exception as error:  # counted, so that the report says what went wrong
            outcomes[f"failed: {type(error).__name__}"] += 1
    return dict(outcomes)


def flood(kind: str, url: str, seconds: float, table_id: str) -> dict[str, Any]:
    if kind == "socket":
        return flood_socket(url, seconds, table_id)
    return flood_bodies(url, seconds, chunked=kind == "chunked")


# The server and its clients ------------------------------------------------------------------------------

@dataclass
class Served:
    url: str
    process: subprocess.Popen[bytes]
    log: Path


def serve(folder: Path, args: argparse.Namespace) -> Served:
    """``whist serve`` in its own process group (so that stopping it stops its workers), logging warnings."""
    port = free_port()
    log = folder / "server.log"
    command = [sys.executable, "-m", "israeli_whist.cli", "serve", "--port", str(port), "--bot-delay",
               str(args.bot_delay), "--log-level", "warning", "--limit", f"analyses={args.analyses_limit},1000,60"]
    process = subprocess.Popen(command, env={**os.environ, "WHIST_DATA_DIR": str(folder)}, stdout=subprocess.DEVNULL,
                               stderr=log.open("wb"), start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    wait_for_health(url, process, "whist serve", log)
    return Served(url, process, log)


def call(url: str, method: str, path: str, body: Any = None, cookie: str = "",
         timeout: float = 30) -> tuple[int, dict[str, str], Any]:
    """One request on its own connection: the status, the headers and the JSON answer."""
    host, port = url.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
    try:
        headers = {"Content-Type": "application/json"} | ({"Cookie": f"whist_session={cookie}"} if cookie else {})
        connection.request(method, path, None if body is None else json.dumps(body), headers)
        response = connection.getresponse()
        text = response.read()
        return response.status, dict(response.getheaders()), json.loads(text) if text else None
    finally:
        connection.close()


def guest(url: str, name: str) -> str:
    status, headers, _ = call(url, "POST", "/api/guest", {"name": name})
    assert status == 200, status
    return SimpleCookie(headers["set-cookie"])["whist_session"].value


def bot_table(url: str, cookie: str, level: str, hands: int) -> str:
    seats = [{"kind": "bot", "level": level}] * 4
    status, _, table = call(url, "POST", "/api/tables", {"game": "israeli", "options": {"hands": hands},
                                                         "seats": seats, "take_seat": None}, cookie)
    assert status == 201, table
    table_id: str = table["id"]
    return table_id


class Watcher(threading.Thread):
    """A spectator's WebSocket to a table: when each new version arrived, until ``halt`` or the game's end."""

    def __init__(self, url: str, table_id: str) -> None:
        super().__init__(daemon=True)
        self.url, self.table_id = url, table_id
        self.arrivals: list[float] = []
        self.over, self.halt = threading.Event(), threading.Event()

    def run(self) -> None:
        ws_url = self.url.replace("http://", "ws://") + f"/ws/tables/{self.table_id}"
        seen = -1
        with ws_connect(ws_url, open_timeout=10, max_size=None) as ws:
            while not self.halt.is_set():
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    continue
                except ConnectionClosed:  # the server stopped
                    return
                if message.get("type") == "state" and message["version"] > seen:
                    seen = message["version"]
                    self.arrivals.append(time.monotonic())
                    if message["score"]["over"]:
                        self.over.set()
                        return

    def pace(self, spans: list[tuple[float, float]]) -> float:
        """New versions a second in these spans of time."""
        return sum(within(at, spans) for at in self.arrivals) / sum(end - start for start, end in spans)


class Probe(threading.Thread):
    """``GET /health`` every ``every`` seconds on one keep-alive connection: (when sent, seconds taken)."""

    def __init__(self, url: str, every: float = 0.01) -> None:
        super().__init__(daemon=True)
        self.url, self.every = url, every
        self.times: list[tuple[float, float]] = []
        self.failures = 0
        self.halt = threading.Event()

    def run(self) -> None:
        host, port = self.url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=30)
        while not self.halt.is_set():
            began = time.monotonic()
            try:
                connection.request("GET", "/health")
                response = connection.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                ok = False
                connection.close()
            if ok:
                self.times.append((began, time.monotonic() - began))
            else:
                self.failures += 1
            self.halt.wait(max(0.0, self.every - (time.monotonic() - began)))

    def latencies(self, spans: list[tuple[float, float]]) -> dict[str, float] | None:
        return spread(took for at, took in self.times if within(at, spans))


def within(at: float, spans: list[tuple[float, float]]) -> bool:
    """Whether ``at`` falls in one of ``spans``.

    >>> within(1.5, [(0.0, 1.0), (1.0, 2.0)]), within(2.5, [(0.0, 1.0), (1.0, 2.0)])
    (True, False)
    """
    return any(start <= at < end for start, end in spans)


def ask_analyses(url: str, cookie: str, table_id: str, count: int) -> list[tuple[int, str | None]]:
    """``count`` analysis requests at once from one session, for different hands of the game (its
    one hand, the whole game, and hands it does not have): each one's status and Retry-After. The
    requests let through wait for their search; they are not waited for past a few seconds."""
    answers: list[tuple[int, str | None]] = []

    def ask(hand: int | None) -> None:
        path = f"/api/games/{table_id}/analysis" + ("" if hand is None else f"?hand={hand}")
        try:
            status, headers, _ = call(url, "GET", path, cookie=cookie, timeout=600)
        except OSError:
            return
        answers.append((status, headers.get("retry-after")))

    for hand in [1, None, *range(2, count)]:
        threading.Thread(target=ask, args=(hand,), daemon=True).start()
    return answers


def start_flooders(args: argparse.Namespace, url: str, table_id: str, seconds: float) -> list[subprocess.Popen[str]]:
    return [subprocess.Popen([sys.executable, __file__, "--flood", kind, "--url", url, "--table", table_id,
                              "--seconds", f"{seconds:g}", "--flood-niceness", str(args.flood_niceness)],
                             stdout=subprocess.PIPE, text=True)
            for kind in KINDS for _ in range(args.flooders)]


def cpu_seconds(pid: int) -> float:
    """The CPU time a process has had so far, user and system (Linux's /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def signal_all(processes: list[subprocess.Popen[str]], number: signal.Signals) -> None:
    for process in processes:
        if process.poll() is None:
            process.send_signal(number)


def run(args: argparse.Namespace) -> dict[str, Any]:
    """The windows on a fresh server; the report (printed too)."""
    with tempfile.TemporaryDirectory() as folder_name:
        served = serve(Path(folder_name), args)
        try:
            report = measure(args, served)
        finally:
            stop(served.process)
        logged = [json.loads(line) for line in served.log.read_text().splitlines() if line.startswith("{")]
    report["missed_deadlines"] = sum(MISSED_DEADLINE in entry["message"] for entry in logged)
    report["errors_logged"] = [entry["message"] for entry in logged if entry["level"] in ("error", "critical")]
    print_report(report)
    return report


def measure(args: argparse.Namespace, served: Served) -> dict[str, Any]:
    """Quiet and flooded windows in turn, the flooders stopped (SIGSTOP) in the quiet ones: a load
    on the machine that comes and goes weighs on both alike."""
    url = served.url
    cookie = guest(url, "Flood watcher")
    # A game to analyse once it is over: one hand of basic bots, watched to its end (meanwhile the rest starts).
    finished = Watcher(url, bot_table(url, cookie, "basic", 1))
    finished.start()
    watcher, probe = Watcher(url, bot_table(url, cookie, args.bot_level, 1000)), Probe(url)
    watcher.start()
    probe.start()
    windows: dict[str, list[tuple[float, float]]] = {"quiet": [], "flood": []}
    cpu = {"quiet": 0.0, "flood": 0.0}  # the web process's CPU seconds in each kind of window
    flooders = start_flooders(args, url, watcher.table_id, WARM_UP + 2 * args.rounds * args.window)
    signal_all(flooders, signal.SIGSTOP)  # they flood in the flooded windows only
    analyses: list[tuple[int, str | None]] = []
    try:
        time.sleep(WARM_UP)  # the table under way
        for number in range(2 * args.rounds):
            kind = "flood" if number % 2 else "quiet"
            signal_all(flooders, signal.SIGCONT if kind == "flood" else signal.SIGSTOP)
            began, cpu_before = time.monotonic(), cpu_seconds(served.process.pid)
            if number == 1:
                if not finished.over.wait(120):
                    raise RuntimeError("the game to analyse did not finish")
                analyses = ask_analyses(url, guest(url, "Analyst"), finished.table_id, args.analyses)
            time.sleep(args.window)
            windows[kind].append((began, time.monotonic()))
            cpu[kind] += cpu_seconds(served.process.pid) - cpu_before
    finally:
        signal_all(flooders, signal.SIGCONT)
        for thread in (watcher, probe):
            thread.halt.set()
            thread.join(10)
    floods: dict[str, Counter[str]] = {kind: Counter() for kind in KINDS}
    for kind, process in zip([kind for kind in KINDS for _ in range(args.flooders)], flooders, strict=True):
        out, _ = process.communicate(timeout=60)
        floods[kind].update(json.loads(out))
    pace = {kind: watcher.pace(spans) for kind, spans in windows.items()}
    seconds = {kind: sum(end - start for start, end in spans) for kind, spans in windows.items()}
    share = {kind: cpu[kind] / seconds[kind] for kind in cpu}  # of one core
    requests = sum(counts["requests"] for counts in floods.values())
    # Each flooded window against the quiet one before it; the median of those ratios, so that a
    # window that another load on the machine happened to hit does not decide the figure.
    pairs = zip(windows["quiet"], windows["flood"], strict=True)
    ratios = [watcher.pace([flood]) / quiet_pace for quiet, flood in pairs if (quiet_pace := watcher.pace([quiet])) > 0]
    return {"window": args.window, "rounds": args.rounds, "bot_level": args.bot_level, "bot_delay": args.bot_delay,
            "flooders": args.flooders, "flood_niceness": args.flood_niceness,
            "health": {kind: probe.latencies(spans) for kind, spans in windows.items()},
            "health_failures": probe.failures, "pace": pace, "server_cpu": share,
            # What the floods cost the web process: its CPU in the flooded windows past the quiet ones'.
            "server_ms_per_flood_request": 1000 * (cpu["flood"] - share["quiet"] * seconds["flood"]) / max(1, requests),
            "pace_ratio": statistics.median(ratios) if ratios else 0.0, "pace_ratios": ratios,
            "floods": {kind: dict(counts) for kind, counts in floods.items()},
            "analyses": {**Counter(str(status) for status, _ in analyses), "waiting": args.analyses - len(analyses)},
            "analyses_retry_after": sorted({retry for status, retry in analyses if status == 429 and retry}),
            "analyses_limit": args.analyses_limit}


def print_report(report: dict[str, Any]) -> None:
    def ms(figures: dict[str, float] | None) -> str:
        if figures is None:
            return "none"
        return (f"median {figures['median'] * 1000:.1f} / p99 {figures['p99'] * 1000:.1f} / "
                f"max {figures['max'] * 1000:.1f} ms ({figures['count']:.0f} requests)")

    print(f"/health quiet:   {ms(report['health']['quiet'])}")
    print(f"/health flooded: {ms(report['health']['flood'])}   (failures: {report['health_failures']})")
    pace = report["pace"]
    print(f"{report['bot_level']} table at {report['bot_delay']:g} s a move: {pace['quiet']:.1f} states/s quiet, "
          f"{pace['flood']:.1f} flooded; median ratio of a flooded window to the quiet one before it "
          f"{report['pace_ratio']:.2f} (each: {' '.join(f'{r:.2f}' for r in report['pace_ratios'])})")
    for kind, counts in report["floods"].items():
        print(f"flood {kind} ({report['flooders']} clients): {counts}")
    share = report["server_cpu"]
    print(f"the web process's CPU, of a core: {share['quiet']:.2f} quiet, {share['flood']:.2f} flooded: "
          f"{report['server_ms_per_flood_request']:.3f} ms a flood request")
    print(f"analysis requests (limit {report['analyses_limit']} a session): {report['analyses']}; "
          f"Retry-After {report['analyses_retry_after']}")
    print(f"stand-in moves (a decision past its deadline): {report['missed_deadlines']}; "
          f"errors logged: {len(report['errors_logged'])}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--window", type=float, default=2.0, help="seconds of each window, quiet or flooded")
    parser.add_argument("--rounds", type=int, default=5, help="pairs of windows, quiet then flooded")
    parser.add_argument("--flooders", type=int, default=1, help="clients of each kind of flood")
    parser.add_argument("--bot-level", default="basic",
                        help="the table's bots (basic: a pace set by the server, not by how long the bots think)")
    parser.add_argument("--bot-delay", type=float, default=0.05, help="whist serve --bot-delay")
    parser.add_argument("--analyses", type=int, default=10, help="analysis requests sent at once")
    parser.add_argument("--analyses-limit", type=int, default=3, help="the server's analyses limit a session")
    parser.add_argument("--flood-niceness", type=int, default=WORKER_NICENESS,
                        help="os.nice of the flooding clients: by default the bot workers', so that on one machine "
                             "the attacker's own processes do not take the bot workers' cores (0: the web process's)")
    parser.add_argument("--report", default=None, help="also write the figures to this JSON file")
    parser.add_argument("--flood", choices=KINDS, help=argparse.SUPPRESS)  # one flooding client, as a process
    parser.add_argument("--url", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=0.0, help=argparse.SUPPRESS)  # a flooding client's
    parser.add_argument("--table", help=argparse.SUPPRESS)
    return parser.parse_args()


def main() -> None:
    args = parse_arguments()
    if args.flood:
        os.nice(args.flood_niceness)
        print(json.dumps(flood(args.flood, args.url, args.seconds, args.table)))
        return
    report = run(args)
    if args.report:
        Path(args.report).write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
