"""``server_load.py --capacity``: the tables one core keeps on time, then two nodes on two cores.

A **trial** is one run of ``server_load.py``'s load (one simulated person and three bots a table,
paced by ``--bot-delay``) on fresh nodes and a fresh PostgreSQL database, through nginx (the
shipped ``deploy/nginx.conf``, as ``--nodes 2`` runs it, for both searches: the ratio then
measures the nodes, not the proxy). The tables start all at once (their auctions, where the expert
spends its whole budget, come together: the hardest moment), or over ``--ramp`` seconds. A trial
**passes** when the core keeps the tables on time:

- the people's actions are acknowledged within a p99 of 100 ms (issue 15's aim);
- the bots are within their pacing: the 90th percentile of their delay past it under 0.25 s. The
  expert's own budget is 0.1 s a decision, spent after the pacing (``live.py``), so an idle
  server already shows some 0.1 s at the bids; 0.25 s leaves 0.15 s of queueing, a quarter of the
  1 s pacing, less than a person notices between two cards. The median hides a queue and the
  maximum is one unlucky decision; the p90 is the figure a player meets every few tricks;
- nothing lost, stored twice or unfinished, and no error or refusal (``verify``).

A **search** grows the tables from ``--capacity-start``, doubling until a trial fails (or
``--capacity-max``), then bisects between the largest passing and the smallest failing trial
until they are ``--capacity-precision`` tables apart or an eighth of the passing one (until one
table, when none passed). A size that fails runs again (``--capacity-retries``, once by default)
and fails only if every run of it fails: the cores are shared, and a burst of other work (another
engineer's tests) fails a run that the nodes alone would pass. Its
**capacity** is the largest passing trial. The first search pins one node (and the bot workers it
starts: one, as it may use one core) to the last core, and the clients, nginx and PostgreSQL to
the first. The second pins two nodes, one a core, and starts at the first's capacity; the clients
and nginx then have no core of their own and run where the scheduler puts them, and PostgreSQL
stays on the first core, beside node 1. Each trial measures the CPU seconds of each group of
processes (nodes, bot workers, PostgreSQL, nginx, the clients), which say where the second
core's work went.

PostgreSQL is started here (``initdb`` in a temporary folder, as ``scripts/test`` does; as the
``postgres`` user when run as root), unless ``--database-url`` names a server, whose CPU is then
neither pinned nor measured. Each trial makes a database of its own on it and drops it after.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import pwd
import re
import secrets
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from israeli_whist.core.games import make_game
from server_load import (  # bench/ is on the path
    Served,
    Usage,
    cpu_seconds_in,
    free_port,
    run_clients,
    serving,
    set_up,
    stat_fields,
    summarise,
    verify,
)

ACK_P99_LIMIT_S = 0.1
LATE_P90_LIMIT_S = 0.25


# The verdict and the search (pure, tested alone) -------------------------------------------------------

def verdict(report: dict[str, Any]) -> list[str]:
    """Why a trial's load was not kept on time; empty when it was."""
    reasons = []
    if report["problems"] or report["errors"] or report["refusals"]:
        reasons.append(f"lost, duplicated or unfinished: {len(report['problems'])}, errors {len(report['errors'])}, "
                       f"refusals {len(report['refusals'])}")
    ack = report["ack_latency_s"]
    if ack is None or ack["p99"] >= ACK_P99_LIMIT_S:
        reasons.append("no ack timed" if ack is None
                       else f"ack p99 {ack['p99'] * 1000:.0f} ms >= {ACK_P99_LIMIT_S * 1000:.0f} ms")
    late = report["bot_delay_over_pacing_s"]
    if late is None or late["p90"] >= LATE_P90_LIMIT_S:
        reasons.append("no bot move timed" if late is None
                       else f"bots late p90 {late['p90'] * 1000:.0f} ms >= {LATE_P90_LIMIT_S * 1000:.0f} ms")
    return reasons


def search(trial: Callable[[int], bool], start: int, maximum: int, precision: int) -> int:
    """The most tables ``trial`` passes: from ``start``, doubled until one fails (never past
    ``maximum``), then bisected until the failing and the passing count are ``precision`` apart, or
    an eighth of the passing one. 0 if even one table fails (tried before 0 is said).

    >>> passes_up_to = lambda most: (lambda tables: tables <= most)
    >>> search(passes_up_to(37), 8, 256, 2), search(passes_up_to(0), 8, 256, 2), search(passes_up_to(999), 8, 100, 2)
    (36, 0, 100)
    >>> search(passes_up_to(1), 1, 2, 2), search(passes_up_to(5), 1, 2, 2)
    (1, 2)
    """
    passing, failing = 0, maximum + 1
    tables = min(start, maximum)
    while True:
        if trial(tables):
            passing = tables
        else:
            failing = tables
        # Until one passes, down to one table: a capacity of 0 says that one table failed.
        enough = max(precision, passing // 8) if passing else 1
        if passing == maximum or (failing <= maximum and failing - passing <= enough):
            return passing
        tables = min(2 * passing, maximum) if failing > maximum else (passing + failing) // 2


# PostgreSQL: a throwaway server on one core -----------------------------------------------------------------

@dataclass
class Postgres:
    """A PostgreSQL server for the trials' databases: this bench's own, or one ``--database-url`` names."""

    admin_url: str  # a database on it to connect to for CREATE DATABASE
    data: Path | None = None  # its data folder, when it is ours

    def postmaster(self) -> int | None:
        if self.data is None:
            return None
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def cpu(self) -> float | None:
        """CPU seconds used so far by the server: the postmaster, the backends it has reaped and
        those still running (None when it is not ours)."""
        leader = self.postmaster()
        if leader is None:
            return None
        fields = stat_fields(Path(f"/proc/{leader}/stat"))
        if fields is None:
            return None
        reaped = (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")  # cutime + cstime
        used = cpu_seconds_in(fields) + reaped
        for stat in Path("/proc").glob("[0-9]*/stat"):
            child = stat_fields(stat)
            if child is not None and int(child[1]) == leader:
                used += cpu_seconds_in(child)
        return used

    @contextlib.contextmanager
    def database(self) -> Iterator[str]:
        """A new, empty database on the server for one trial, dropped after it."""
        name = f"whist_capacity_{secrets.token_hex(6)}"
        admin = make_url(self.admin_url).set(drivername="postgresql")
        with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as connection:
            connection.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        try:
            yield make_url(self.admin_url).set(database=name).render_as_string(hide_password=False)
        finally:
            with psycopg.connect(admin.render_as_string(hide_password=False), autocommit=True) as connection:
                connection.execute(sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name)))


def postgres_bin() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"),
                   key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.parent.name)])
    if not found:
        raise RuntimeError("no PostgreSQL server here (Debian: apt-get install -y postgresql); "
                           "or name one with --database-url postgresql://...")
    return found[-1].parent


@contextlib.contextmanager
def own_postgres(cpus: set[int]) -> Iterator[Postgres]:
    """A throwaway PostgreSQL cluster in a temporary folder, on a free loopback port, pinned to
    ``cpus`` (inherited by every backend); as the ``postgres`` user when run as root."""
    binaries = postgres_bin()
    folder = Path(tempfile.mkdtemp(prefix="whist-capacity-pg-"))
    user = pwd.getpwuid(os.geteuid()).pw_name
    if os.geteuid() == 0:  # PostgreSQL refuses to run as root
        user = "postgres"
        shutil.chown(folder, user)
    data, port = folder / "data", free_port()

    def as_postgres(*command: str) -> None:
        done = subprocess.run(command, capture_output=True, text=True, user=user if os.geteuid() == 0 else None,
                              preexec_fn=lambda: os.sched_setaffinity(0, cpus))
        if done.returncode != 0:
            raise RuntimeError(f"{Path(command[0]).name} failed ({done.returncode}): "
                               f"{(done.stderr or done.stdout).strip()[-500:]}")

    try:
        as_postgres(str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", user)
        as_postgres(str(binaries / "pg_ctl"), "-D", str(data), "-l", str(folder / "server.log"), "-w",
                    "-o", f"-p {port} -h 127.0.0.1 -k {data}", "start")
        try:
            yield Postgres(f"postgresql://{user}@127.0.0.1:{port}/postgres", data)
        finally:
            as_postgres(str(binaries / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# The trials -----------------------------------------------------------------------------------------------------

def allowed_cpus(pid: int) -> str:
    """The cores a process may run on, as Linux lists them (``Cpus_allowed_list``)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return "gone"
    found = re.search(r"^Cpus_allowed_list:\s*(\S+)", status, re.MULTILINE)
    return found.group(1) if found else "?"


def pinning(served: Served, postgres: Postgres) -> dict[str, str]:
    """Where each process of a trial may run, read back from /proc."""
    where = {"clients": allowed_cpus(os.getpid())}
    for node in served.nodes:
        where[f"{node.name} web"] = allowed_cpus(node.process.pid)
        workers = sorted({allowed_cpus(int(stat.parent.name)) for stat in Path("/proc").glob("[0-9]*/stat")
                          if (f := stat_fields(stat)) is not None and int(f[1]) == node.process.pid})
        where[f"{node.name} workers"] = " ".join(workers) or "none"
    if served.proxy is not None:
        where["nginx"] = allowed_cpus(served.proxy.pid)
    leader = postgres.postmaster()
    where["postgresql"] = allowed_cpus(leader) if leader is not None else "not this bench's (not pinned)"
    return where


class GroupUsage(Usage):
    """``Usage`` with nginx's (its master and workers) and PostgreSQL's CPU seconds too."""

    def __init__(self, served: Served, postgres: Postgres) -> None:
        super().__init__(served)
        self.postgres = postgres

    def cpu(self) -> dict[str, float]:
        used = self.served.cpu()
        if self.served.proxy is not None:
            leader = self.served.proxy.pid
            fields = stat_fields(Path(f"/proc/{leader}/stat"))
            used["nginx"] = (0.0 if fields is None else cpu_seconds_in(fields)) + sum(
                cpu_seconds_in(f) for stat in Path("/proc").glob("[0-9]*/stat")
                if (f := stat_fields(stat)) is not None and int(f[1]) == leader)
        database = self.postgres.cpu()
        if database is not None:
            used["postgresql"] = database
        return used


@dataclass
class Trial:
    """One run of a search, its figures and its verdict."""

    nodes: int
    tables: int
    passed: bool
    reasons: list[str]
    wall_s: float
    actions: int
    ack_s: dict[str, float] | None
    late_s: dict[str, float] | None
    cpu_s: dict[str, float]  # by group: nodes (web, workers), postgresql, nginx, clients
    pinned: dict[str, str]
    load_average_before_after: list[float]
    bot_moves_skipped: int
    drops: int
    lost: int  # actions lost, stored twice or unfinished, errors and refusals (``verify``, ``summarise``)
    attempt: int = 1  # a size that failed runs again (--capacity-retries): its second run is 2

    def cpu_groups(self) -> dict[str, float]:
        """The CPU seconds of the nodes (web and workers), PostgreSQL, nginx and the clients."""
        nodes = sum(s for name, s in self.cpu_s.items() if name.startswith("node"))
        return {"nodes": nodes, **{k: v for k, v in self.cpu_s.items() if not k.startswith("node")}}

    def line(self) -> str:
        ack, late = self.ack_s, self.late_s
        acks = f"ack p50 {ack['median'] * 1000:.1f} / p99 {ack['p99'] * 1000:.1f} ms" if ack else "no ack"
        lates = (f"bots late p50 {late['median'] * 1000:.0f} / p90 {late['p90'] * 1000:.0f} / "
                 f"max {late['max'] * 1000:.0f} ms" if late else "no bot move")
        groups = self.cpu_groups()
        total = sum(groups.values()) or 1.0
        cpu = ", ".join(f"{name} {seconds:.1f} s ({100 * seconds / total:.0f}%)" for name, seconds in groups.items())
        node_cores = ", ".join(f"{name.split()[0]} {self.node_cpu(name.split()[0]) / self.wall_s:.2f}"
                               for name in self.cpu_s if name.endswith(" web"))
        verdict_text = "PASS" if self.passed else "FAIL: " + "; ".join(self.reasons)
        again = f" (run {self.attempt})" if self.attempt > 1 else ""
        return (f"  {self.tables:4d} tables{again}: {acks}; {lates}; {self.wall_s:.0f} s, {self.actions} actions; "
                f"CPU {cpu}; each node's cores busy: {node_cores}; load {self.load_average_before_after[0]:.2f}"
                f"->{self.load_average_before_after[1]:.2f}; {verdict_text}")

    def node_cpu(self, node: str) -> float:
        return self.cpu_s.get(f"{node} web", 0.0) + self.cpu_s.get(f"{node} workers", 0.0)


def run_trial(args: argparse.Namespace, postgres: Postgres, tables: int, nodes: int,
              node_cpus: list[set[int]]) -> Trial:
    """The load of ``tables`` tables on ``nodes`` fresh nodes (pinned to ``node_cpus``) behind nginx."""
    with postgres.database() as url:
        trial_args = argparse.Namespace(**{**vars(args), "tables": tables, "nodes": nodes, "nginx": True,
                                           "database_url": url, "node_cpus": node_cpus, "kill_node_after": None})
        with serving(trial_args) as served:
            pinned = pinning(served, postgres)
            clients = set_up(served.base, tables, args.hands, args.bot_level)
            with GroupUsage(served, postgres) as usage:
                wall, _ = asyncio.run(run_clients(clients, served.ws_base, trial_args, served.nodes, served.engine))
            served.stop()
            game = make_game("israeli", None, {"hands": args.hands})
            stored = verify(served.engine, clients, lambda client: game)
    report = summarise(trial_args, clients, stored, wall, None, served.nodes)
    figures = usage.figures()
    reasons = verdict(report)
    return Trial(nodes, tables, not reasons, reasons, wall, stored.actions, report["ack_latency_s"],
                 report["bot_delay_over_pacing_s"], figures["cpu_s"], pinned, figures["load_average_before_after"],
                 report["bot_moves_skipped"], report["drops"],
                 len(report["problems"]) + len(report["errors"]) + len(report["refusals"]))


@dataclass
class Search:
    nodes: int
    trials: list[Trial] = field(default_factory=list)
    capacity: int = 0


def run_search(args: argparse.Namespace, postgres: Postgres, nodes: int, node_cpus: list[set[int]],
               client_cpus: set[int], start: int) -> Search:
    found = Search(nodes)
    where = ", ".join(f"node{n + 1} on core(s) {sorted(c)}" for n, c in enumerate(node_cpus))
    print(f"{nodes} node(s) behind nginx, {where}; the clients and nginx on core(s) {sorted(client_cpus)}:", flush=True)
    os.sched_setaffinity(0, client_cpus)  # the clients' threads and nginx, started from here, inherit it

    def trial(tables: int) -> bool:
        for attempt in range(1 + args.capacity_retries):
            done = run_trial(args, postgres, tables, nodes, node_cpus)
            done.attempt = attempt + 1
            if not found.trials:
                print("  pinned (Cpus_allowed_list): " + ", ".join(f"{k} {v}" for k, v in done.pinned.items()))
            found.trials.append(done)
            print(done.line(), flush=True)
            if done.passed:
                return True
        return False

    found.capacity = search(trial, start, args.capacity_max, args.capacity_precision)
    print(f"  kept on time: {found.capacity} tables", flush=True)
    return found


def postgres_share(found: Search) -> float | None:
    """PostgreSQL's share of all the CPU seconds of the search's largest passing trial."""
    passing = [t for t in found.trials if t.passed and t.tables == found.capacity]
    if not passing or "postgresql" not in passing[0].cpu_s:
        return None
    groups = passing[0].cpu_groups()
    return groups["postgresql"] / (sum(groups.values()) or 1.0)


def run_capacity(args: argparse.Namespace) -> dict[str, Any]:
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        raise SystemExit("--capacity pins a node to each of two cores: this process may use only one")
    first, last = {cores[0]}, {cores[-1]}
    both = first | last
    low, high = args.think_range
    arriving = f"the people coming over {args.ramp:g} s" if args.ramp else "all starting at once"
    print(f"capacity: tables of 1 simulated person (think {low:g}-{high:g} s) and 3 {args.bot_level} bots "
          f"(paced {args.bot_delay:g} s), {args.hands} hand(s) each, {arriving}; on time: ack p99 < "
          f"{ACK_P99_LIMIT_S * 1000:.0f} ms, bots late past pacing p90 < {LATE_P90_LIMIT_S * 1000:.0f} ms, "
          f"nothing lost or stored twice; a failing size runs again up to {args.capacity_retries} time(s) "
          f"and fails if every run fails", flush=True)
    with contextlib.ExitStack() as stack:
        if args.database_url:
            postgres = Postgres(args.database_url)
            print("PostgreSQL: the one --database-url names; its CPU is neither pinned nor measured", flush=True)
        else:
            postgres = stack.enter_context(own_postgres(first))
            print(f"PostgreSQL: this bench's own, on core {cores[0]}", flush=True)
        started = time.monotonic()
        one = run_search(args, postgres, 1, [last], first, args.capacity_start)
        two = run_search(args, postgres, 2, [first, last], both, max(1, one.capacity))
    ratio = two.capacity / one.capacity if one.capacity else None
    shares = {"one_node": postgres_share(one), "two_nodes": postgres_share(two)}
    print(f"tables kept on time: 1 node on 1 core {one.capacity}, 2 nodes on 2 cores {two.capacity}; ratio "
          + (f"{ratio:.2f}" if ratio is not None else "n/a (one core kept no table on time)"))
    if shares["one_node"] is not None and shares["two_nodes"] is not None:
        print(f"PostgreSQL's share of the CPU at capacity: {100 * shares['one_node']:.0f}% (1 node), "
              f"{100 * shares['two_nodes']:.0f}% (2 nodes, on node1's core)")
    print(f"the searches took {time.monotonic() - started:.0f} s")
    return {"mode": "capacity", "bot_level": args.bot_level, "bot_delay": args.bot_delay, "think": [low, high],
            "hands": args.hands, "ramp_s": args.ramp,
            "criteria": {"ack_p99_below_s": ACK_P99_LIMIT_S, "late_p90_below_s": LATE_P90_LIMIT_S,
                         "nothing_lost": True, "retries": args.capacity_retries},
            "database": "given, not pinned" if args.database_url else f"own, core {cores[0]}",
            "cores": os.cpu_count(),
            "searches": {"one_node": search_report(one), "two_nodes": search_report(two)},
            "ratio": ratio, "postgresql_share_at_capacity": shares, "failed": False}


def search_report(found: Search) -> dict[str, Any]:
    return {"nodes": found.nodes, "capacity": found.capacity,
            "trials": [{**vars(t), "cpu_groups": t.cpu_groups()} for t in found.trials]}

