"""Finished games: their replay, each player's statistics, and the players' ratings.

A finished game is rebuilt by replaying its stored actions through the engine, exactly as the
live table took them, so the replay and the record of a game are the engine's own.

Statistics count the hands a user played in finished games. A cancelled deal (everyone passed)
is no hand: every hand that is played out gives away all its tricks, so a deal whose seats won
no trick at all was cancelled.

Ratings use OpenSkill's Plackett-Luce model: each seat is a team of one (in Classic Whist each
side is a team of two partners) and the final places are the ranks, ties included. Only people
are rated. A bot is an opponent (or a partner) with a fixed rating per level (``BOT_RATINGS``),
never updated: a small sigma says the model knows how strong it is, so a win against the basic
bot counts for more than one against the random bot. A human seat that nobody took was played by
the stand-in bot and counts as it. A game is rated once, in the transaction that stores its
last action (``rate_finished_game``).
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import RowMapping, and_, case, func, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from whist.core.classic import ClassicWhist, side_of
from whist.core.games import make_game
from whist.core.match import Match
from whist.core.records import to_record
from whist.server.access import visible_to
from whist.server.db import actions, hand_results, ratings, seats, tables, users
from whist.server.live import STAND_IN_LEVEL
from whist.server.viewjson import hand_replay_json, result_json

log = logging.getLogger("whist.server")

MODEL = PlackettLuce()  # mu 25, sigma 25/3: a new player's rating
ORDINAL_Z = 3.0  # the leaderboard's ordinal is mu - 3 sigma: how good a player surely is
# Fixed ratings of the bots, by level. A new player starts level with the basic bot, but unsure.
# The order follows the levels' strength; the gaps are a guess until enough rated games measure them.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    "random": (15.0, 1.0), "easy": (20.0, 1.0), "basic": (25.0, 1.0), "medium": (25.0, 1.0),
    "hard": (28.0, 1.0), "expert": (30.0, 1.0),
}


# Ratings ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Competitor:
    """One seat of a finished game, as the rating sees it."""

    user_id: int | None  # None: a bot, whose rating is fixed
    mu: float
    sigma: float
    team: int  # seats with the same team are partners (Classic Whist); else the seat number


def ordinal(mu: float, sigma: float) -> float:
    return mu - ORDINAL_Z * sigma


def bot_rating(level: str | None) -> tuple[float, float]:
    return BOT_RATINGS.get(level or STAND_IN_LEVEL, BOT_RATINGS[STAND_IN_LEVEL])


def rate_game(competitors: Sequence[Competitor], places: Sequence[int]) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of each rated user after a game; ``places`` by seat, 1 = first.

    >>> new = rate_game([Competitor(7, 25.0, 25 / 3, 0), Competitor(None, 25.0, 1.0, 1)], [1, 2])
    >>> list(new), new[7][0] > 25
    ([7], True)
    """
    if len(competitors) != len(places):
        raise ValueError(f"{len(competitors)} competitors but {len(places)} places")
    teams: dict[int, list[int]] = {}
    for seat, competitor in enumerate(competitors):
        teams.setdefault(competitor.team, []).append(seat)
    if all(c.user_id is None for c in competitors) or len(teams) < 2:
        return {}
    members = list(teams.values())
    before = [[MODEL.rating(mu=competitors[s].mu, sigma=competitors[s].sigma) for s in team] for team in members]
    after = MODEL.rate(before, ranks=[float(places[team[0]]) for team in members])
    new: dict[int, tuple[float, float]] = {}
    for team, rated in zip(members, after, strict=True):
        for seat, rating in zip(team, rated, strict=True):
            user_id = competitors[seat].user_id
            if user_id is not None:
                new[user_id] = (float(rating.mu), float(rating.sigma))
    return new


def rate_finished_game(c: Connection, table_id: str) -> None:
    """Rate the people of a game whose last action ``c`` has just stored.

    ``Store.append_action`` calls this in the same transaction, before it marks the table
    finished: a table already finished was rated, and is left alone (so a second call changes
    nothing). A failure here is logged and undone alone, so that the game still ends.
    """
    status = c.execute(select(tables.c.status).where(tables.c.id == table_id).with_for_update()).scalar()
    if status != "playing":
        return
    try:
        with c.begin_nested():
            _rate(c, table_id)
    except Exception:
        log.exception("table %s: the game could not be rated", table_id)


def _rate(c: Connection, table_id: str) -> None:
    row = c.execute(select(tables).where(tables.c.id == table_id)).mappings().one()
    match = replay_match(c, row)
    if not match.over:
        raise RuntimeError(f"Table {table_id}: rating a game that is not over")
    seat_rows = c.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
    user_ids = sorted({s.user_id for s in seat_rows if s.kind == "human" and s.user_id is not None})
    current = _locked_ratings(c, user_ids)
    classic = isinstance(match.game, ClassicWhist)
    competitors = []
    for s in seat_rows:
        team = side_of(s.seat) if classic else s.seat
        if s.kind == "human" and s.user_id is not None:
            mu, sigma = current[s.user_id]
            competitors.append(Competitor(s.user_id, mu, sigma, team))
        else:
            competitors.append(Competitor(None, *bot_rating(s.bot_level), team))
    for user_id, (mu, sigma) in rate_game(competitors, match.places()).items():
        c.execute(update(ratings).where(ratings.c.user_id == user_id)
                  .values(mu=mu, sigma=sigma, games=ratings.c.games + 1))


def _locked_ratings(c: Connection, user_ids: Sequence[int]) -> dict[int, tuple[float, float]]:
    """The ratings of these users (new ones start at the model's default), locked until commit.

    Missing rows are inserted first, ignoring a row another server adds at the same moment,
    and then all are locked in id order, so that two games ending at once cannot lose an update.
    """
    if not user_ids:
        return {}
    dialect = postgresql if c.dialect.name == "postgresql" else sqlite
    fresh = [{"user_id": u, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 0} for u in user_ids]
    c.execute(dialect.insert(ratings).values(fresh).on_conflict_do_nothing(index_elements=["user_id"]))
    rows = c.execute(select(ratings).where(ratings.c.user_id.in_(user_ids)).order_by(ratings.c.user_id)
                     .with_for_update())
    return {r.user_id: (r.mu, r.sigma) for r in rows}


@dataclass(frozen=True)
class PlayerRating:
    user_id: int
    mu: float
    sigma: float
    games: int

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {"mu": round(self.mu, 3), "sigma": round(self.sigma, 3), "ordinal": round(self.ordinal, 3),
                "games": self.games}


def rating_of(c: Connection, user_id: int) -> PlayerRating | None:
    row = c.execute(select(ratings).where(ratings.c.user_id == user_id)).first()
    return PlayerRating(row.user_id, row.mu, row.sigma, row.games) if row else None


def rank_of(c: Connection, rating: PlayerRating) -> int:
    """1 + how many players have a higher ordinal."""
    higher = c.execute(select(func.count()).select_from(ratings)
                       .where(ratings.c.mu - ORDINAL_Z * ratings.c.sigma > rating.ordinal)).scalar_one()
    return int(higher) + 1


def leaderboard(c: Connection, offset: int, limit: int) -> tuple[int, list[tuple[PlayerRating, str]]]:
    """(number of rated players, a page of (rating, name) by ordinal, best first)."""
    total = c.execute(select(func.count()).select_from(ratings)).scalar_one()
    rows = c.execute(select(ratings, users.c.name).join(users, users.c.id == ratings.c.user_id)
                     .order_by((ratings.c.mu - ORDINAL_Z * ratings.c.sigma).desc(), ratings.c.user_id)
                     .offset(offset).limit(limit))
    return int(total), [(PlayerRating(r.user_id, r.mu, r.sigma, r.games), r.name) for r in rows]


# Statistics ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerStats:
    """Counts over the hands a player played in finished games; the rates follow from them."""

    games: int = 0
    hands: int = 0
    contracts: int = 0  # hands with a contract (Israeli Whist, Whistiti)
    contracts_made: int = 0  # ... where the tricks taken equal the contract
    zero_bids: int = 0
    zero_bids_made: int = 0
    points: int = 0

    @property
    def contracts_made_pct(self) -> float | None:
        return percent(self.contracts_made, self.contracts)

    @property
    def zero_bids_made_pct(self) -> float | None:
        return percent(self.zero_bids_made, self.zero_bids)

    @property
    def average_points(self) -> float | None:
        """Average score per hand.

        >>> PlayerStats(hands=3, points=100).average_points
        33.33
        """
        return round(self.points / self.hands, 2) if self.hands else None

    def to_json(self) -> dict[str, Any]:
        return {"games": self.games, "hands": self.hands, "contracts": self.contracts,
                "contracts_made": self.contracts_made, "contracts_made_pct": self.contracts_made_pct,
                "zero_bids": self.zero_bids, "zero_bids_made": self.zero_bids_made,
                "zero_bids_made_pct": self.zero_bids_made_pct, "points": self.points,
                "average_points": self.average_points}


def percent(part: int, whole: int) -> float | None:
    """``part`` of ``whole`` in percent, one decimal; None when there is nothing to count.

    >>> percent(2, 3), percent(0, 0)
    (66.7, None)
    """
    return round(100 * part / whole, 1) if whole else None


def player_stats(c: Connection, user_ids: Sequence[int]) -> dict[int, PlayerStats]:
    """The statistics of each of these users (all zero for one who has played no hand)."""
    if not user_ids:
        return {}
    h = hand_results
    played = (select(h.c.table_id, h.c.hand_number)
              .join(tables, and_(tables.c.id == h.c.table_id, tables.c.status == "finished"))
              .group_by(h.c.table_id, h.c.hand_number)
              .having(func.sum(h.c.tricks) > 0)  # a cancelled deal gives no trick to anyone
              .subquery())
    has_contract = h.c.contract.is_not(None)
    made = and_(has_contract, h.c.contract == h.c.tricks)
    zero = h.c.contract == 0
    query = (select(h.c.user_id, func.count(func.distinct(h.c.table_id)), func.count(), _count(has_contract),
                    _count(made), _count(zero), _count(and_(zero, h.c.tricks == 0)), func.sum(h.c.points))
             .join(played, and_(played.c.table_id == h.c.table_id, played.c.hand_number == h.c.hand_number))
             .where(h.c.user_id.in_(user_ids))
             .group_by(h.c.user_id))
    stats = {u: PlayerStats() for u in user_ids}
    for user_id, *counts in c.execute(query):
        stats[user_id] = PlayerStats(*(int(n or 0) for n in counts))
    return stats


def _count(condition: Any) -> Any:
    return func.sum(case((condition, 1), else_=0))


# Finished games --------------------------------------------------------------------------------


def replay_match(c: Connection, row: RowMapping) -> Match:
    """The game of a table row, rebuilt from its stored actions through the engine."""
    match = Match.start(make_game(row["game"], row["preset"], row["options"]), row["seed"], row["first_dealer"])
    stored = c.execute(select(actions.c.seq, actions.c.seat, actions.c.action)
                       .where(actions.c.table_id == row["id"]).order_by(actions.c.seq))
    for number, (seq, seat, action) in enumerate(stored):
        if seq != number or seat != match.current_player:
            raise RuntimeError(f"Table {row['id']}: stored action {seq} does not follow the game")
        match = match.apply(action)
    return match


def final_places(c: Connection, row: RowMapping) -> list[int]:
    """Places of a finished game. They follow from the totals, but for Classic Whist's games
    won: those need the whole game replayed. Either way the engine's ``places`` decides."""
    game = make_game(row["game"], row["preset"], row["options"])
    if isinstance(game, ClassicWhist):
        return list(replay_match(c, row).places())
    start = Match.start(game, row["seed"], row["first_dealer"])
    return list(replace(start, totals=tuple(row["totals"])).places())


def table_row(c: Connection, table_id: str) -> RowMapping | None:
    return c.execute(select(tables).where(tables.c.id == table_id)).mappings().first()


def players_json(c: Connection, table_ids: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """The seats of each table: who sat there (a user's name, or a bot's level)."""
    rows = c.execute(select(seats, users.c.name).outerjoin(users, users.c.id == seats.c.user_id)
                     .where(seats.c.table_id.in_(table_ids)).order_by(seats.c.table_id, seats.c.seat))
    players: dict[str, list[dict[str, Any]]] = {t: [] for t in table_ids}
    for r in rows:
        players[r.table_id].append({"seat": r.seat, "kind": r.kind, "level": r.bot_level, "user_id": r.user_id,
                                    "name": r.name})
    return players


def seat_label(player: Mapping[str, Any]) -> str:
    """A seat's name for a game record, as the pages show it: the person's name, the bot and
    its level, or the seat's number for a seat nobody took (the stand-in bot played it)."""
    if player["name"]:
        return str(player["name"])
    if player["kind"] == "bot":
        return f"Bot {player['seat'] + 1} ({player['level']})"
    return f"Seat {player['seat'] + 1}"


def finished_games(c: Connection, viewer: int | None, player: int | None, offset: int,
                   limit: int) -> tuple[int, list[dict[str, Any]]]:
    """(how many, a page of finished games newest first) that ``viewer`` may see; only the
    games ``player`` sat in when given."""
    where = [tables.c.status == "finished", visible_to(viewer)]
    if player is not None:
        where.append(tables.c.id.in_(select(seats.c.table_id).where(seats.c.user_id == player)))
    total = c.execute(select(func.count()).select_from(tables).where(*where)).scalar_one()
    rows = c.execute(select(tables).where(*where).order_by(tables.c.finished_at.desc(), tables.c.id)
                     .offset(offset).limit(limit)).mappings().all()
    ids = [r["id"] for r in rows]
    players = players_json(c, ids)
    hands = hands_played(c, ids)
    games = [{**game_summary(r, players[r["id"]], final_places(c, r)), "hands_played": hands.get(r["id"], 0)}
             for r in rows]
    return int(total), games


def hands_played(c: Connection, table_ids: Sequence[str]) -> dict[str, int]:
    """How many hands of each table were played out (cancelled deals not counted)."""
    h = hand_results
    per_hand = (select(h.c.table_id).where(h.c.table_id.in_(table_ids)).group_by(h.c.table_id, h.c.hand_number)
                .having(func.sum(h.c.tricks) > 0).subquery())
    rows = c.execute(select(per_hand.c.table_id, func.count()).group_by(per_hand.c.table_id))
    return {table_id: int(n) for table_id, n in rows}


def game_summary(row: RowMapping, players: list[dict[str, Any]], places: Sequence[int]) -> dict[str, Any]:
    return {"id": row["id"], "game": row["game"], "preset": row["preset"], "options": row["options"],
            "created_at": iso(row["created_at"]), "finished_at": iso(row["finished_at"]), "players": players,
            "totals": list(row["totals"] or []), "places": list(places)}


def iso(moment: dt.datetime | None) -> str | None:
    """A stored time (UTC, without a zone) as ISO 8601 with its zone."""
    return None if moment is None else moment.replace(tzinfo=dt.UTC).isoformat()


def game_replay(c: Connection, row: RowMapping) -> dict[str, Any]:
    """A finished game for the replay viewer: every hand, every step, all cards shown."""
    match = replay_match(c, row)
    if not match.over:
        raise RuntimeError(f"Table {row['id']} is marked finished, but its actions do not finish the game")
    players = players_json(c, [row["id"]])[row["id"]]
    hands = [{**result_json(r), "steps": hand_replay_json(r.final)} for r in match.results]
    return {**game_summary(row, players, match.places()), "title": match.game.title,
            "rules": match.game.rules.to_dict(), "hands_total": match.hands_total,
            "games_won": list(match.games_won), "hands": hands}


def game_record(c: Connection, row: RowMapping) -> dict[str, Any]:
    """The game record (``whist check`` replays it). The record names players, not seats:
    with partners cut by cards, seat ``s`` holds player ``seating[s]``."""
    match = replay_match(c, row)
    labels = [seat_label(p) for p in players_json(c, [row["id"]])[row["id"]]]
    names = [""] * len(labels)
    for seat, label in enumerate(labels):
        names[match.seating[seat]] = label
    return to_record(match, players=names, first_dealer=row["first_dealer"])

