"""Statistics and ratings on small hand-made data, without playing through the engine.

``WHIST_TEST_DATABASE_URL`` (an empty PostgreSQL database, say) runs the database tests there
too; by default they use a fresh SQLite file.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sqlalchemy import delete, insert, select

from israeli_whist.server import playerstats
from israeli_whist.server import ratings as player_ratings
from israeli_whist.server.db import Store, actions, hand_results, ratings, seats, tables, users
from israeli_whist.server.playerstats import PlayerStats
from israeli_whist.server.ratings import BOT_RATINGS, MODEL, Competitor, rate_game

NEW = (MODEL.mu, MODEL.sigma)
BASIC = BOT_RATINGS["basic"]


def people(*ids: int | None) -> list[Competitor]:
    """One seat each: a user at the default rating, or (None) a basic bot."""
    return [Competitor(u, *(NEW if u is not None else BASIC), team=seat) for seat, u in enumerate(ids)]


# Ratings ---------------------------------------------------------------------------------------


def test_the_winner_gains_the_loser_loses_and_bots_are_not_rated() -> None:
    new = rate_game(people(1, None, 2, None), [1, 2, 4, 3])
    assert set(new) == {1, 2}
    assert new[1][0] > NEW[0] > new[2][0]
    assert new[1][1] < NEW[1] and new[2][1] < NEW[1]  # either way the model is surer


def test_equal_places_move_equal_players_alike() -> None:
    new = rate_game(people(1, 2, None, None), [1, 1, 3, 4])
    assert new[1] == pytest.approx(new[2])
    assert new[1][0] > NEW[0]


def test_a_stronger_bot_is_worth_more() -> None:
    weak, strong = BOT_RATINGS["random"], BOT_RATINGS["basic"]
    beat_weak = rate_game([Competitor(1, *NEW, 0), Competitor(None, *weak, 1)], [1, 2])[1][0]
    beat_strong = rate_game([Competitor(1, *NEW, 0), Competitor(None, *strong, 1)], [1, 2])[1][0]
    assert beat_strong > beat_weak > NEW[0]
    assert player_ratings.bot_rating(None) == strong  # a seat nobody took: the stand-in


def test_partners_share_their_side_s_result() -> None:
    seats_ = [Competitor(1, *NEW, 0), Competitor(2, *NEW, 1), Competitor(3, *NEW, 0), Competitor(None, *BASIC, 1)]
    new = rate_game(seats_, [1, 2, 1, 2])
    assert new[1] == pytest.approx(new[3]) and new[1][0] > NEW[0] > new[2][0]


def test_nothing_to_rate() -> None:
    assert rate_game(people(None, None, None), [1, 2, 3]) == {}
    assert rate_game([Competitor(1, *NEW, 0), Competitor(None, *BASIC, 0)], [1, 1]) == {}  # one side only
    with pytest.raises(ValueError, match="3 competitors but 2 places"):
        rate_game(people(1, 2, 3), [1, 2])


def test_rates_of_the_counts() -> None:
    stats = PlayerStats(games=2, hands=4, contracts=4, contracts_made=3, zero_bids=2, zero_bids_made=1, points=-30)
    assert (stats.contracts_made_pct, stats.zero_bids_made_pct, stats.average_points) == (75.0, 50.0, -7.5)
    assert PlayerStats().to_json()["contracts_made_pct"] is None
    assert PlayerStats().average_points is None


# The database ----------------------------------------------------------------------------------


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    url = os.environ.get("WHIST_TEST_DATABASE_URL") or f"sqlite:///{tmp_path / 'stats.db'}"
    made = Store(url)
    with made.begin() as c:  # a shared test database starts empty
        for table in (hand_results, actions, ratings, seats, tables, users):
            c.execute(delete(table))
    yield made
    made.close()


def add_table(store: Store, table_id: str, status: str, seat_users: list[int | None],
              hands: list[list[tuple[int | None, int, int]]], minute: int = 0, bot_level: str = "basic") -> None:
    """A table whose seat s is the user ``seat_users[s]`` (None: a bot of ``bot_level``) and whose
    hands give each seat (contract, tricks, points)."""
    moment = dt.datetime(2026, 1, 1, 12, minute)
    with store.begin() as c:
        c.execute(insert(tables).values(id=table_id, game="israeli", preset=None, options={"hands": max(1, len(hands))},
                                        seed="s", first_dealer=0, public=True, invite="i", status=status,
                                        move_timer=None, created_by=None, created_at=moment,
                                        finished_at=moment if status == "finished" else None,
                                        totals=[sum(h[s][2] for h in hands) for s in range(len(seat_users))]))
        c.execute(insert(seats), [{"table_id": table_id, "seat": s, "kind": "bot" if u is None else "human",
                                   "bot_level": bot_level if u is None else None, "user_id": u}
                                  for s, u in enumerate(seat_users)])
        rows = [{"table_id": table_id, "hand_number": number, "seat": s, "user_id": seat_users[s],
                 "contract": contract, "tricks": tricks, "points": points}
                for number, hand in enumerate(hands, start=1) for s, (contract, tricks, points) in enumerate(hand)]
        if rows:
            c.execute(insert(hand_results), rows)


CANCELLED: list[tuple[int | None, int, int]] = [(None, 0, 0)] * 4


def test_statistics_count_played_hands_of_finished_games(store: Store) -> None:
    ann, ben = store.add_user("Ann"), store.add_user("Ben")
    add_table(store, "t1", "finished", [ann, None, ben, None], [
        CANCELLED,
        [(2, 2, 14), (0, 0, 50), (5, 4, -10), (3, 7, -40)],
        [(0, 1, -50), (4, 4, 36), (6, 6, 56), (2, 2, 14)],
    ])
    add_table(store, "t2", "finished", [None, ann, None, None], [[(0, 0, 50), (1, 3, -20), (5, 5, 45), (2, 5, -30)]])
    add_table(store, "t3", "playing", [ann, None, None, None], [[(3, 3, 19), (1, 1, 11), (4, 4, 26), (2, 5, -30)]])
    with store.begin() as c:
        stats = playerstats.player_stats(c, [ann, ben, 999])
    assert stats[ann] == PlayerStats(games=2, hands=3, contracts=3, contracts_made=1, zero_bids=1, zero_bids_made=0,
                                     points=14 - 50 - 20)
    assert stats[ben] == PlayerStats(games=1, hands=2, contracts=2, contracts_made=1, zero_bids=0, zero_bids_made=0,
                                     points=-10 + 56)
    assert stats[999] == PlayerStats()
    with store.begin() as c:
        assert playerstats.hands_played(c, ["t1", "t2", "t3"]) == {"t1": 2, "t2": 1, "t3": 1}


def test_hands_without_contracts_count_but_have_no_contract_rate(store: Store) -> None:
    ann = store.add_user("Ann")
    add_table(store, "c1", "finished", [ann, None, None, None], [[(None, 8, 2), (None, 5, 0), (None, 8, 2),
                                                                  (None, 5, 0)]])
    with store.begin() as c:
        stats = playerstats.player_stats(c, [ann])[ann]
    assert (stats.hands, stats.contracts, stats.contracts_made_pct, stats.average_points) == (1, 0, None, 2.0)


def test_the_leaderboard_lists_the_established_by_rating_then_the_provisional(store: Store) -> None:
    sure, lucky, new, steady = (store.add_user(name) for name in ("Sure", "Lucky", "New", "Steady"))
    with store.begin() as c:
        c.execute(insert(ratings), [{"user_id": sure, "mu": 27.0, "sigma": 2.0, "games": 30},
                                    {"user_id": lucky, "mu": 35.0, "sigma": 6.0, "games": 2},  # provisional
                                    {"user_id": new, "mu": 25.0, "sigma": 25 / 3, "games": 1},  # provisional
                                    {"user_id": steady, "mu": 26.0, "sigma": 2.5, "games": 5}])
        total, page = player_ratings.leaderboard(c, 0, 3)
        assert total == 4 and [(e.rating.user_id, e.name, e.guest) for e in page] == [
            (sure, "Sure", True), (steady, "Steady", True), (lucky, "Lucky", True)]
        assert [e.rating.user_id for e in player_ratings.leaderboard(c, 3, 2)[1]] == [new]
        shown = {e.rating.user_id: e.rating.to_json() for e in player_ratings.leaderboard(c, 0, 4)[1]}
        assert (shown[lucky]["rating"], shown[lucky]["provisional"]) == (1400, True)
        assert (shown[steady]["rating"], shown[steady]["provisional"]) == (1040, False)
        for place, user_id in enumerate((sure, steady, lucky, new), start=1):
            rating = player_ratings.rating_of(c, user_id)
            assert rating is not None and player_ratings.rank_of(c, rating) == place
        assert player_ratings.rating_of(c, 999) is None


def test_a_game_already_finished_is_not_rated_again(store: Store) -> None:
    ann = store.add_user("Ann")
    add_table(store, "f1", "finished", [ann, None, None, None], [[(0, 0, 50), (1, 3, -20), (5, 5, 45), (2, 5, -30)]])
    with store.begin() as c:
        player_ratings.rate_finished_game(c, "f1")
        player_ratings.rate_finished_game(c, "no-such-table")
        assert c.execute(select(ratings)).all() == []


def test_a_game_that_does_not_end_is_not_rated(store: Store, caplog: Any) -> None:
    ann = store.add_user("Ann")
    add_table(store, "p1", "playing", [ann, None, None, None], [])  # no actions: the game is not over
    with caplog.at_level(logging.ERROR, logger="israeli_whist.server"), store.begin() as c:
        player_ratings.rate_finished_game(c, "p1")
    assert "p1: the game could not be rated" in caplog.text and "rating a game that is not over" in caplog.text


def test_a_failed_rating_is_undone_alone_and_the_game_still_ends(store: Store, monkeypatch: Any) -> None:
    ann = store.add_user("Ann")
    add_table(store, "p2", "playing", [ann, None, None, None], [])
    over = SimpleNamespace(over=True, game=None, places=lambda: (1, 2, 3, 4))
    monkeypatch.setattr(player_ratings, "replay_match", lambda c, row: over)

    def broken(competitors: Any, places: Any) -> Any:
        raise ValueError("broken")

    monkeypatch.setattr(player_ratings, "rate_game", broken)
    with store.begin() as c:
        player_ratings.rate_finished_game(c, "p2")  # Ann's new rating row was written, then undone
        c.execute(tables.update().where(tables.c.id == "p2").values(status="finished"))
    with store.begin() as c:
        assert c.execute(select(tables.c.status).where(tables.c.id == "p2")).scalar() == "finished"
        assert c.execute(select(ratings)).all() == []


def test_a_bot_of_an_unrated_level_counts_as_unknown_strength_not_as_the_stand_in(store: Store,
                                                                                 monkeypatch: Any) -> None:
    ann = store.add_user("Ann")
    add_table(store, "u1", "playing", [ann, None, None, None], [], bot_level="a level not measured")
    over = SimpleNamespace(over=True, game=SimpleNamespace(side_of=lambda seat: seat), places=lambda: (1, 2, 3, 4))
    monkeypatch.setattr(player_ratings, "replay_match", lambda c, row: over)
    rated: list[list[Competitor]] = []

    def seen(competitors: list[Competitor], places: list[int]) -> dict[int, tuple[float, float]]:
        rated.append(list(competitors))
        return rate_game(competitors, places)

    monkeypatch.setattr(player_ratings, "rate_game", seen)
    with store.begin() as c:
        player_ratings.rate_finished_game(c, "u1")
    [[_, *bots]] = rated
    assert [(bot.mu, bot.sigma) for bot in bots] == [NEW] * 3 != [BASIC] * 3


def test_new_ratings_start_at_the_model_s_default_and_existing_ones_are_kept(store: Store) -> None:
    ann, ben = store.add_user("Ann"), store.add_user("Ben")
    with store.begin() as c:
        c.execute(insert(ratings).values(user_id=ben, mu=30.0, sigma=3.0, games=9))
        assert player_ratings._locked_ratings(c, [ben, ann]) == {ann: NEW, ben: (30.0, 3.0)}
        assert player_ratings._locked_ratings(c, [ann]) == {ann: NEW}
        assert player_ratings._locked_ratings(c, []) == {}
        assert c.execute(select(ratings.c.games).where(ratings.c.user_id == ann)).scalar() == 0
