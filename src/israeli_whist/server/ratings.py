"""The players' ratings, on OpenSkill's Plackett-Luce model.

Each seat is a team of one (in Classic Whist each side is a team of two partners) and the final
places are the ranks, ties included. Only people are rated. A bot is an opponent (or a partner)
with a fixed rating per level and game (``bot_rating``), never updated: the ratings the levels
earned in the ladder's round robin (``israeli_whist.bots.matches.ladder_ratings``, on this same model), where the
basic bot has mu 25, a new player's. Their small sigma says the model knows how strong a bot is,
so a win against the expert counts for more than one against the random bot.
A human seat that nobody took was played by the stand-in bot and counts as it. A level the
ladder has not measured is unrated (``bot_rating`` is None, and ``GET /api/levels`` says so):
in a game it counts as an opponent of unknown strength, the model's prior, as a new player
does, never as another level's bot. A game is rated
once, in the transaction that stores its last action: the live table hands
``rate_finished_game`` to ``Store.append_action``.

**One scale for people and bots.** What the pages show as a rating is the model's estimate of a
player's strength, mu, in points (``shown_rating``: 40 a unit, so that a new player and the
basic bot are 1000), for a person and a bot level alike: a person who plays as well as a level
comes to the level's figure. (The ordinal, mu - 3 sigma, is how strong a player is at the least;
it reads about 0 for a new person and about 20 for a bot whose strength is known, so it is no
scale to set the two side by side.) The estimate of a person with few games is still moving:
the leaderboard marks those under ``PROVISIONAL_GAMES`` games provisional and lists them after
the others, so that one lucky game does not top it.

**Practice games are not rated** (``unrated_because``): a game at a table whose creator allowed
hints, and any game in which a hint was used (``hintstore.py``): an expert's help is no measure of
its player.
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import and_, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection

from israeli_whist.bots.matches.ladder_ratings import LADDER_RATINGS
from israeli_whist.server.db import ratings, seats, tables, users
from israeli_whist.server.hintstore import hint_counts
from israeli_whist.server.replay import replay_match
from israeli_whist.server.standin import playing_level

log = logging.getLogger("whist.server")

MODEL = PlackettLuce()  # mu 25, sigma 25/3: a new player's rating
ORDINAL_Z = 3.0  # the ordinal is mu - 3 sigma: how good a player surely is
POINTS_PER_MU = 40  # a shown rating is mu in these points: 1000 for a new player and the basic bot
PROVISIONAL_GAMES = 5  # below this many games a person's rating is provisional


def _with_aliases(levels: dict[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Levels that are another level's bot under a second name: medium is the basic bot, and
    hard plays with the settings of expert-2026 (``tests/bots/test_levels.py`` holds them equal)."""
    return {**levels, "basic": levels["medium"], "expert-2026": levels["hard"]}


# Fixed ratings of the bots, by game and level, as measured; a new player starts level with the
# basic bot, but unsure.
BOT_RATINGS_BY_GAME: dict[str, dict[str, tuple[float, float]]] = {
    game: _with_aliases(levels) for game, levels in LADDER_RATINGS.items()}
# For a game the ladder has not measured: each level's mean over the games that it has.
BOT_RATINGS: dict[str, tuple[float, float]] = {
    level: (statistics.fmean(g[level][0] for g in BOT_RATINGS_BY_GAME.values()),
            statistics.fmean(g[level][1] for g in BOT_RATINGS_BY_GAME.values()))
    for level in next(iter(BOT_RATINGS_BY_GAME.values()))}


@dataclass(frozen=True)
class Competitor:
    """One seat of a finished game, as the rating sees it."""

    user_id: int | None  # None: a bot, whose rating is fixed
    mu: float
    sigma: float
    team: int  # seats with the same team are partners (Classic Whist); else the seat number


def ordinal(mu: float, sigma: float) -> float:
    return mu - ORDINAL_Z * sigma


def shown_rating(mu: float) -> int:
    """The rating the pages show, for a person and a bot level alike: the estimate mu, in points.

    >>> shown_rating(MODEL.mu), shown_rating(31.38)
    (1000, 1255)
    """
    return round(mu * POINTS_PER_MU)


def bot_rating(level: str | None, game: str | None = None) -> tuple[float, float] | None:
    """The fixed (mu, sigma) of a bot of ``level`` in ``game`` (a seat without a bot plays as the
    stand-in); None for a level the ladder has not measured: it is unrated."""
    table = BOT_RATINGS_BY_GAME.get(game or "", BOT_RATINGS)
    return table.get(playing_level(level))


def rated_as(level: str | None, game: str | None = None) -> tuple[float, float]:
    """What a bot seat counts as in a finished game: its level's rating, or for an unrated level
    the model's prior, an opponent of unknown strength.

    >>> rated_as("a level not measured") == (MODEL.mu, MODEL.sigma) != rated_as("basic")
    True
    """
    return bot_rating(level, game) or (MODEL.mu, MODEL.sigma)


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

    The live table hands it to ``Store.append_action``, which calls it in the same transaction,
    before it marks the table finished: a table already finished was rated, and is left alone (so a second call changes
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


def unrated_because(allowed_hints: bool, hints_used: int, event_board: bool = False) -> str | None:
    """Why a game is not rated: ``event`` (a board of a duplicate event, scored against its field
    instead: events.py), ``practice`` (its table allowed hints), ``hints`` (a hint was used in it),
    or None for a rated game.

    >>> unrated_because(False, 0), unrated_because(True, 0), unrated_because(False, 2), unrated_because(False, 0, True)
    (None, 'practice', 'hints', 'event')
    """
    if event_board:
        return "event"
    if hints_used:
        return "hints"
    return "practice" if allowed_hints else None


def _rate(c: Connection, table_id: str) -> None:
    row = c.execute(select(tables).where(tables.c.id == table_id)).mappings().one()
    why = unrated_because(bool(row["hints"]), hint_counts(c, [table_id]).get(table_id, 0), row["event_id"] is not None)
    if why is not None:
        log.info("table %s: not rated (%s)", table_id, why)
        return
    match = replay_match(c, row)
    if not match.over:
        raise RuntimeError(f"Table {table_id}: rating a game that is not over")
    seat_rows = c.execute(select(seats).where(seats.c.table_id == table_id).order_by(seats.c.seat)).all()
    user_ids = sorted({s.user_id for s in seat_rows if s.kind == "human" and s.user_id is not None})
    current = _locked_ratings(c, user_ids)
    competitors = []
    for s in seat_rows:
        team = match.game.side_of(s.seat)  # partners are one team
        if s.kind == "human" and s.user_id is not None:
            mu, sigma = current[s.user_id]
            competitors.append(Competitor(s.user_id, mu, sigma, team))
        else:
            competitors.append(Competitor(None, *rated_as(s.bot_level, row["game"]), team))
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

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES

    def to_json(self) -> dict[str, Any]:
        return {"rating": shown_rating(self.mu), "provisional": self.provisional, "mu": round(self.mu, 3),
                "sigma": round(self.sigma, 3), "ordinal": round(self.ordinal, 3), "games": self.games}


def rating_of(c: Connection, user_id: int) -> PlayerRating | None:
    row = c.execute(select(ratings).where(ratings.c.user_id == user_id)).first()
    return PlayerRating(row.user_id, row.mu, row.sigma, row.games) if row else None


IS_PROVISIONAL = ratings.c.games < PROVISIONAL_GAMES


def rank_of(c: Connection, rating: PlayerRating) -> int:
    """1 + how many players come before: the established ones first, each group by mu."""
    ahead = ratings.c.mu > rating.mu
    before = or_(~IS_PROVISIONAL, ahead) if rating.provisional else and_(~IS_PROVISIONAL, ahead)
    return int(c.execute(select(func.count()).select_from(ratings).where(before)).scalar_one()) + 1


@dataclass(frozen=True)
class BoardEntry:
    """A row of the leaderboard: a player's rating, name and whether they are a guest."""

    rating: PlayerRating
    name: str
    guest: bool


def leaderboard(c: Connection, offset: int, limit: int) -> tuple[int, list[BoardEntry]]:
    """(number of rated players, a page of them): the established by rating, best first, then the
    provisional by rating."""
    total = c.execute(select(func.count()).select_from(ratings)).scalar_one()
    rows = c.execute(select(ratings, users.c.name, users.c.login).join(users, users.c.id == ratings.c.user_id)
                     .order_by(IS_PROVISIONAL, ratings.c.mu.desc(), ratings.c.user_id)
                     .offset(offset).limit(limit))
    return int(total), [BoardEntry(PlayerRating(r.user_id, r.mu, r.sigma, r.games), r.name, r.login is None)
                        for r in rows]
