"""The events' scores at a site's scale: kept per event (server/eventscores.py) against scoring
every play each time it is asked, as the server did before.

    python3 bench/event_scores.py                       # 90 daily events of 500 players, 4 boards
    python3 bench/event_scores.py --days 30 --players 200 --repeats 9 --report scores.json

Builds a SQLite database of ``--days`` daily events, each played by ``--players`` of 5,000 players
(every board, random points), then asks each question both ways, taking turns at who goes first:

- **the ranking**: every finished play of the 90 days' events read and scored together, against
  the kept scores just after a board of the newest event ended and the ranking's 10 s
  (``RANKING_SECONDS``) are over (the grouped query that finds what moved, that event scored
  again, the ranking worked out again), and within the 10 s (the kept answer);
- **an event's page**: the whole event's plays read and scored, against its kept scores (one
  grouped query: is its count of finished plays, and its latest finish, still the same?), just
  after one more of its plays finished and with nothing new;
- **a player's history**: 50 events read and scored, against their kept scores.

Each question's answers are compared both ways (the same standings), then timed: median, p90
and max over ``--repeats``, and the ratio of the medians (before / kept).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlalchemy import insert, update

from israeli_whist.core.duplicate import Standing, standings
from israeli_whist.server.db import Store, migrate, now, tables, users
from israeli_whist.server.eventscores import ScoreKeeper
from israeli_whist.server.eventstore import FINISHED, PlayRow, event_plays, events, finished_plays_of_events

PLAYERS = 5000
BOARDS = 4


def build(url: str, days: int, players: int, seed: int) -> list[str]:
    """The daily events, oldest first, each of ``players`` who played every board."""
    migrate(url)
    store = Store(url)
    rng = random.Random(seed)
    ids = []
    with store.begin() as c:
        c.execute(insert(users), [{"id": i, "name": f"player {i}", "created_at": now()} for i in range(1, PLAYERS + 1)])
        for day in range(days):
            event_id, start = f"daily-{day}", now() - dt.timedelta(days=days - day)
            c.execute(insert(events).values(id=event_id, name=event_id, kind="daily", game="israeli", preset=None,
                                            options={}, seed="s", boards=BOARDS, bot_level="hard", public=True,
                                            invite="i", created_by=None, starts_at=start,
                                            ends_at=start + dt.timedelta(days=1), created_at=start))
            who = rng.sample(range(1, PLAYERS + 1), players)
            table_rows, play_rows = [], []
            for board in range(1, BOARDS + 1):
                for user in who:
                    table_id = f"{day}-{board}-{user}"
                    table_rows.append({"id": table_id, "game": "israeli", "options": {}, "seed": "s",
                                       "first_dealer": 0, "public": False, "invite": "x", "status": "finished",
                                       "created_at": start})
                    play_rows.append({"event_id": event_id, "board": board, "user_id": user, "seat": 0,
                                      "table_id": table_id, "status": FINISHED, "points": rng.randint(-30, 30),
                                      "line": {}, "started_at": start, "finished_at": start})
            c.execute(insert(tables), table_rows)
            c.execute(insert(event_plays), play_rows)
            ids.append(event_id)
    store.engine.dispose()
    return ids


def scored_whole(plays: list[PlayRow]) -> list[Standing]:
    """Before: every play read, each (event, board, seat) its own field."""
    fields: dict[tuple[str, int, int], dict[int, float]] = defaultdict(dict)
    for p in plays:
        if p.points is not None:
            fields[(p.event_id, p.board, p.seat)][p.user_id] = p.points
    return standings(fields)


def spread(times: list[float]) -> dict[str, float]:
    ordered = sorted(times)
    return {"median": statistics.median(ordered), "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
            "max": ordered[-1]}


def race(before: Callable[[], object], kept: Callable[[], object], repeats: int,
         prepare: Callable[[], object] = lambda: None) -> dict[str, Any]:
    """Both ways ``repeats`` times, taking turns at who goes first; milliseconds. ``prepare`` runs,
    untimed, before each ask."""
    times: dict[str, list[float]] = {"before": [], "kept": []}
    for index in range(repeats):
        order = (("before", before), ("kept", kept)) if index % 2 == 0 else (("kept", kept), ("before", before))
        for name, ask in order:
            prepare()
            started = time.perf_counter()
            ask()
            times[name].append((time.perf_counter() - started) * 1000)
    found: dict[str, Any] = {name: spread(t) for name, t in times.items()}
    found["ratio"] = found["before"]["median"] / found["kept"]["median"]
    return found


def same(kept: list[Standing], whole: list[Standing]) -> bool:
    """Every player's boards, mean percentage and points above the fields alike (the ranking puts
    the provisional after the others: the order is not compared)."""
    def rows(found: list[Standing]) -> dict[object, tuple[int, float, float]]:
        return {r.player: (r.boards, round(r.percent, 9), round(r.above_average, 9)) for r in found}
    return rows(kept) == rows(whole)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=90, help="daily events (default 90: the ranking's window)")
    parser.add_argument("--players", type=int, default=500, help="players a day, each playing every board")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--report", type=Path, help="also write the figures to this JSON file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/events.db"
        started = time.perf_counter()
        ids = build(url, args.days, args.players, args.seed)
        plays = args.days * args.players * BOARDS
        print(f"{args.days} daily events of {args.players} players, {BOARDS} boards: {plays:,} finished plays "
              f"(made in {time.perf_counter() - started:.1f} s); SQLite; {args.repeats} asks each way")
        store = Store(url)
        keeper = ScoreKeeper(store)
        started = time.perf_counter()
        keeper.ranking()
        first = (time.perf_counter() - started) * 1000
        latest, history = ids[-1], ids[-50:]

        finishes = iter(range(1, 10**9))

        def board_finished() -> None:
            """As if one more play of today's event had finished: its stamp moves, and the ranking's
            10 s are over."""
            with store.begin() as c:
                c.execute(update(event_plays).where(event_plays.c.event_id == latest, event_plays.c.board == 1)
                          .values(finished_at=now() + dt.timedelta(microseconds=next(finishes))))
            keeper.ranking_seconds = 0

        def within_its_seconds() -> None:
            keeper.ranking_seconds = 10.0

        checks = {
            "ranking": same([r.standing for r in keeper.ranking()], scored_whole(finished_plays_of_events(store, ids))),
            "event": same(keeper.of_event(latest).standings, scored_whole(finished_plays_of_events(store, [latest]))),
        }
        figures: dict[str, Any] = {
            "plays": plays, "first_ranking_ms": first, "same_answers": checks,
            "ranking, a board just ended": race(lambda: scored_whole(finished_plays_of_events(store, ids)),
                                                keeper.ranking, args.repeats, board_finished),
            "ranking, within its 10 s": race(lambda: scored_whole(finished_plays_of_events(store, ids)),
                                             keeper.ranking, args.repeats, within_its_seconds),
            "an event's page, it moved": race(lambda: scored_whole(finished_plays_of_events(store, [latest])),
                                              lambda: keeper.of_event(latest), args.repeats, board_finished),
            "an event's page": race(lambda: scored_whole(finished_plays_of_events(store, [latest])),
                                    lambda: keeper.of_event(latest), args.repeats),
            "a player's 50 events": race(lambda: [scored_whole(finished_plays_of_events(store, [e])) for e in history],
                                         lambda: keeper.of_events(history), args.repeats),
        }
    print(f"the same standings both ways: ranking {checks['ranking']}, an event {checks['event']}")
    print(f"the first ranking a node works out (every event scored): {first:,.0f} ms")
    print("question                      before: median / p90 / max     kept: median / p90 / max    ratio (medians)")
    for name in ("ranking, a board just ended", "ranking, within its 10 s", "an event's page, it moved",
                 "an event's page", "a player's 50 events"):
        b, k = figures[name]["before"], figures[name]["kept"]
        print(f"{name:29} {b['median']:9,.1f} / {b['p90']:7,.1f} / {b['max']:7,.1f} ms"
              f"   {k['median']:8,.1f} / {k['p90']:6,.1f} / {k['max']:6,.1f} ms   {figures[name]['ratio']:8,.1f}x")
    if args.report:
        args.report.write_text(json.dumps(figures, indent=2) + "\n")
    return 0 if all(checks.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
