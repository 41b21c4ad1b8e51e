"""``server_load.py --event``: many players at once on the daily duplicate event's boards.

Each simulated player is a guest who opens the daily event (``GET /api/events/daily``), then plays
its first ``--boards`` boards one after another: ``POST /api/events/{id}/boards/{n}/play`` gives
the board's table, which the player plays to its end through the table's WebSocket as
``server_load.py``'s person does (a random legal action after a think), and then reads the
board's results (``GET /api/events/{id}/boards/{n}``), where its own line must be, with its table
and its points. The bots are the event's (their level is the daily event's, the server's choice).

At the end, with the nodes still up: every node, asked directly, gives the same standings, one row
for each player with every board; each board's results hold every player once, and the
standings and the field agree with ``core.duplicate`` computed from the players' own lines.
Then, the nodes stopped: each board's table replays from its stored actions (``verify``: nothing
lost or stored twice), its replayed points are those of the player's line, and the database
holds one finished play a player and board. With several nodes every node answers every board's
results, so each is read on a node that did not play it; the bench also counts the players' own
reads that went through nginx to the other node.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, select

from israeli_whist.core.duplicate import board_game, standings
from israeli_whist.core.handgame import HandGame
from israeli_whist.server.eventstore import FINISHED, event_plays
from server_load import (  # bench/ is on the path
    Client,
    Reply,
    Served,
    Usage,
    call,
    person_at,
    print_report,
    serving,
    setup_line,
    summarise,
    verify,
)

# Threads for the players' HTTP requests (urllib blocks): enough that 500 players do not queue long.
HTTP_THREADS = 64


@dataclass
class Board:
    """One board as one player played it."""

    number: int
    client: Client  # its table, as the person played it
    played_on: str  # the node that answered the play request (and so plays the table)
    started: float  # time.perf_counter() when the player asked to play it
    ended: float = math.inf  # ... when the player saw its end
    results_on: str = ""  # the node that answered the results request
    line: dict[str, Any] | None = None  # the player's own line in the board's results


@dataclass
class Player:
    """One simulated player of the event."""

    number: int
    cookie: str
    user: Any  # the guest's user id
    event: dict[str, Any] = field(default_factory=dict)  # the daily event's summary, as this player got it
    boards: list[Board] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def ask(base: str, method: str, path: str, cookie: str, body: Any = None) -> Reply:
    return await asyncio.to_thread(call, base, method, path, body, cookie)


def refused(reply: Reply, what: str) -> str:
    return f"{what}: {reply.status} {reply.body.get('code', '')} {reply.body.get('detail', '')}".rstrip()


async def play_event(player: Player, served: Served, args: argparse.Namespace) -> None:
    """The player's day: the daily event, then its boards one after another. With ``--ramp S`` the
    players come one after another over S seconds, evenly, rather than all in the same instant."""
    await asyncio.sleep(args.ramp * player.number / args.players)
    daily = await ask(served.base, "GET", "/api/events/daily", player.cookie)
    if daily.status != 200:
        player.errors.append(refused(daily, "the daily event"))
        return
    player.event = daily.body
    if daily.body["boards"] < args.boards:
        player.errors.append(f"the daily event has {daily.body['boards']} boards, not --boards {args.boards}")
        return
    for number in range(1, args.boards + 1):
        if not await play_board(player, number, served, args):
            return


async def play_board(player: Player, number: int, served: Served, args: argparse.Namespace) -> bool:
    """Board ``number`` from its play request to its results; False if the player cannot go on."""
    event, asked_at = player.event["id"], time.perf_counter()
    started = await ask(served.base, "POST", f"/api/events/{event}/boards/{number}/play", player.cookie,
                        {"invite": None})
    if started.status not in (200, 201) or started.body.get("board") != number or started.body.get("seat") != 0:
        player.errors.append(refused(started, f"playing board {number}"))
        return False
    board = Board(number, Client(started.body["table"], player.cookie), started.upstream, asked_at)
    player.boards.append(board)
    await person_at(board.client, served.ws_base, args, f"{args.seed}/{player.number}/{number}").play()
    board.ended = time.perf_counter()
    if not board.client.finished:
        return False  # the table's own errors say why
    results = await ask(served.base, "GET", f"/api/events/{event}/boards/{number}", player.cookie)
    board.results_on = results.upstream
    if results.status != 200:
        player.errors.append(refused(results, f"board {number}'s results"))
        return False
    mine = [line for line in results.body["results"] if line["you"]]
    if (len(mine) != 1 or mine[0]["user"] != player.user or mine[0]["table"] != board.client.table_id
            or type(mine[0]["points"]) is not int):
        player.errors.append(f"board {number}'s results: not the player's one line with its table and points: {mine}")
        return False
    board.line = mine[0]
    return True


async def play_all(served: Served, args: argparse.Namespace) -> tuple[list[Player], float]:
    """Every player's guest session, then all of them at once on the event; the seconds they took."""
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(HTTP_THREADS))
    guests = await asyncio.gather(*(ask(served.base, "POST", "/api/guest", "", {"name": f"player{number}"})
                                    for number in range(args.players)))
    if any(g.status != 200 for g in guests):
        raise RuntimeError(next(refused(g, "a guest") for g in guests if g.status != 200))
    players = [Player(number, g.set_cookie, g.body["user"]["id"]) for number, g in enumerate(guests)]
    start = asyncio.get_running_loop().time()
    await asyncio.gather(*(play_event(player, served, args) for player in players))
    return players, asyncio.get_running_loop().time() - start


def close(shown: float, computed: float) -> bool:
    """The server shows percentages and points above the field to two decimals."""
    return abs(shown - computed) <= 0.005 + 1e-9


# The checks ------------------------------------------------------------------------------------------

def check_nodes(served: Served, event: str, cookie: str, players: list[Player], boards: int) -> list[str]:
    """With the nodes up: every node's standings, and each board's results and field, against the
    players' own lines."""
    problems = []
    fields = {(number, 0): {p.user: b.line["points"] for p in players for b in p.boards
                            if b.number == number and b.line is not None}
              for number in range(1, boards + 1)}
    for node in served.nodes:
        base = f"http://{node.address}"
        page = call(base, "GET", f"/api/events/{event}", cookie=cookie)
        if page.status != 200:
            problems.append(refused(page, f"{node.name}: the event"))
            continue
        problems += check_standings(node.name, page.body["standings"], fields, {p.user for p in players})
        for number in range(1, boards + 1):
            problems += check_field(node.name, call(base, "GET", f"/api/events/{event}/boards/{number}", cookie=cookie),
                                    number, fields[(number, 0)])
    return problems


def check_standings(node: str, rows: list[dict[str, Any]], fields: dict[tuple[int, int], dict[Any, int]],
                    users: set[Any]) -> list[str]:
    """An event's standings as a node gives them: a row for each of ``users``, each as ``core.duplicate``
    scores ``fields`` (by board and seat, each player's points as their own lines said)."""
    problems = []
    if len(rows) != len(users) or {row["user"] for row in rows} != users:
        problems.append(f"{node}: {len(rows)} rows in the standings, not one for each of the {len(users)} players")
    expected = {row.player: row for row in standings(fields)}
    for row in rows:
        mine = expected.get(row["user"])
        if (mine is None or row["boards"] != mine.boards or not close(row["percent"], mine.percent)
                or not close(row["above_average"], mine.above_average)):
            problems.append(f"{node}: standings row {row}, but the players' lines make {mine}")
            break
    return problems


def check_field(node: str, results: Reply, number: int, points: dict[Any, int]) -> list[str]:
    """A board's results as a node gives them: every player's line once, with the points they saw."""
    if results.status != 200:
        return [refused(results, f"{node}: board {number}'s results")]
    lines = results.body["results"]
    found = {line["user"]: line["points"] for line in lines}
    problems = []
    if len(lines) != len(found) or found != points:
        problems.append(f"{node}: board {number}'s results hold {len(lines)} lines, not one for each of "
                        f"{len(points)} players with their points")
    average = math.fsum(points.values()) / len(points) if points else 0.0
    if results.body["field"]["count"] != len(points) or not close(results.body["field"]["average"], average):
        problems.append(f"{node}: board {number}'s field {results.body['field']}, not {len(points)} results "
                        f"averaging {average:g}")
    return problems


def check_plays(engine: Engine, event: str, players: list[Player], boards: int) -> list[str]:
    """The database: one finished play a player and board of the event, none twice, none else."""
    with engine.connect() as db:
        rows = db.execute(select(event_plays.c.user_id, event_plays.c.board,
                                 (event_plays.c.status == FINISHED) & event_plays.c.finished_at.is_not(None))
                          .where(event_plays.c.event_id == event)).all()
    counted = Counter((str(user), board) for user, board, _ in rows)
    problems = [f"event_plays: {count} rows for user {user}, board {board}"
                for (user, board), count in counted.items() if count > 1]
    wanted = {(str(p.user), number) for p in players for number in range(1, boards + 1)}
    if set(counted) != wanted:
        problems.append(f"event_plays: {len(set(counted) - wanted)} plays nobody made, "
                        f"{len(wanted - set(counted))} plays missing")
    unfinished = sum(1 for _, _, finished in rows if not finished)
    if unfinished:
        problems.append(f"event_plays: {unfinished} plays not finished")
    return problems


def check_points(players: list[Player], totals: dict[str, tuple[int, ...]]) -> list[str]:
    """Each player's line holds the points their table's stored actions replay to (seat 0)."""
    return [f"{board.client.table_id}: the results say {board.line['points']} points, the replay "
            f"{totals[board.client.table_id][0]}"
            for p in players for board in p.boards
            if board.line is not None and board.client.table_id in totals
            and board.line["points"] != totals[board.client.table_id][0]]


def most_at_once(players: list[Player]) -> int:
    """The most players at a board at one time, from asking to play it to seeing its end.

    >>> one, two = Player(0, "", 1), Player(1, "", 2)
    >>> one.boards = [Board(1, Client(), "", 0.0, 10.0), Board(2, Client(), "", 11.0, 20.0)]
    >>> two.boards = [Board(1, Client(), "", 10.5, 15.0)]
    >>> most_at_once([one, two])
    2
    """
    changes = sorted((at, step) for p in players for b in p.boards for at, step in ((b.started, 1), (b.ended, -1)))
    playing = most = 0
    for _, step in changes:  # an end before a start at the same instant
        playing += step
        most = max(most, playing)
    return most


def tables_per_node(served: Served, players: list[Player]) -> dict[str, int]:
    """The boards' tables by the node that answered their play request (and plays them)."""
    names = {node.address: node.name for node in served.nodes}
    return dict(sorted(Counter(names.get(b.played_on, b.played_on) for p in players for b in p.boards).items()))


# The run ---------------------------------------------------------------------------------------------

def run_event(args: argparse.Namespace) -> dict[str, Any]:
    """One run of ``--players`` on the daily event's first ``--boards`` boards, on fresh nodes; its
    report (printed too)."""
    with serving(args) as served:
        with Usage(served) as usage:
            players, wall = asyncio.run(play_all(served, args))
        events = Counter(p.event.get("id") for p in players)
        event = next((p.event for p in players if p.event), {})
        problems = [] if len(events) == 1 and event else [f"the players got these daily events: {dict(events)}"]
        if not problems:  # read as a player who has played every board (only they may see every field)
            reader = next((p for p in players if sum(b.line is not None for b in p.boards) == args.boards), players[0])
            problems += check_nodes(served, event["id"], reader.cookie, players, args.boards)
        served.stop()
        clients = [b.client for p in players for b in p.boards]
        number_of = {b.client.table_id: b.number for p in players for b in p.boards}
        games: dict[int, HandGame] = {}

        def game_of(client: Client) -> HandGame:
            number = number_of[client.table_id]
            if number not in games:
                games[number] = board_game(event["game"], event["preset"], event["options"], number)
            return games[number]

        stored = verify(served.engine, clients, game_of)
        if not problems:
            problems += check_plays(served.engine, event["id"], players, args.boards)
    problems += check_points(players, stored.totals)
    problems += [f"player{p.number}: {error}" for p in players for error in p.errors]
    read = [b for p in players for b in p.boards if b.line is not None]
    elsewhere = sum(1 for b in read if b.results_on != b.played_on)
    report = summarise(args, clients, stored, wall, None, served.nodes)
    report.update({"event": event.get("id"), "players": args.players, "boards": args.boards, "ramp_s": args.ramp,
                   "most_at_once": most_at_once(players),
                   "bot_level": event.get("bot_level"), "boards_played": len(clients), "results_read": len(read),
                   "results_read_on_another_node": elsewhere, "event_problems": problems,
                   "tables_per_node": tables_per_node(served, players), **usage.figures()})
    report["failed"] = bool(report["failed"] or problems)
    arriving = f"coming over {args.ramp:g} s" if args.ramp else "all starting at once"
    headline = (f"players: {args.players} on the daily event {event.get('id')} ({event.get('game')}), {arriving}, "
                f"{args.boards} boards each, 3 {event.get('bot_level')} bots a board; {setup_line(args, report)}")
    print_report(args, report, headline)
    print(f"boards played: {len(clients)}, by {report['most_at_once']} players at once at the most; "
          f"results read with the player's line: {len(read)}"
          + (f", {elsewhere} of them on another node than the board's" if args.nodes > 1 else ""))
    print(f"event problems (plays, results, standings, points): {len(problems)}")
    for problem in problems[:10]:
        print("  " + problem)
    return report
