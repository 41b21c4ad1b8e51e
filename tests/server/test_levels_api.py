"""``GET /api/levels``: the lobby's menu of bot levels, each with the fixed rating it plays at
in each game, and ``ratings.bot_rating``, which the rating of finished games uses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from israeli_whist.bots.matches.ladder_ratings import LADDER_RATINGS
from israeli_whist.core.games import GAMES
from israeli_whist.server import api_levels, ratings
from israeli_whist.server.app import create_app
from israeli_whist.server.ratings import BOT_RATINGS, MODEL, bot_rating, ordinal, rated_as, shown_rating
from israeli_whist.server.settings import ServerSettings

LADDER = ("easy", "medium", "hard", "expert")


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_the_menu_lists_the_levels_by_strength_with_each_games_rating(client: TestClient) -> None:
    levels = client.get("/api/levels").json()["levels"]
    assert [entry["level"] for entry in levels] == ["random", "easy", "basic", "medium", "hard", "expert"]
    for entry in levels:
        assert set(entry["ratings"]) == set(GAMES)
        for game, rating in entry["ratings"].items():
            measured = bot_rating(entry["level"], game)
            assert measured is not None, (entry["level"], game)  # every level of the menu has been measured
            mu, sigma = measured
            assert rating == {"rating": shown_rating(mu), "mu": round(mu, 2), "sigma": round(sigma, 2),
                              "ordinal": round(ordinal(mu, sigma), 2)}
    by_level = {entry["level"]: entry["ratings"] for entry in levels}
    for game in GAMES:
        shown = {level: by_level[level][game]["ordinal"] for level in LADDER}
        # The menu shows what was measured: easy below medium below both searching levels. Hard
        # and expert are not in order in every game's round robin (Israeli Whist, 60 hands a
        # pair: bench/journal.md, "The ladder"), so their order is not asserted.
        assert shown["easy"] < shown["medium"] < min(shown["hard"], shown["expert"]), game
        assert by_level["random"][game]["ordinal"] < shown["easy"]
        assert by_level["basic"][game] == by_level["medium"][game]
        assert by_level["medium"][game]["mu"] == 25.0  # where a new player starts


def test_a_bot_plays_at_its_games_measured_rating() -> None:
    for game, levels in LADDER_RATINGS.items():
        for level, rating in levels.items():
            assert bot_rating(level, game) == rating
        assert bot_rating("basic", game) == bot_rating(None, game) == levels["medium"]  # the stand-in
        assert bot_rating("expert-2026", game) == levels["hard"]  # the same settings
    assert bot_rating("expert", "israeli") != bot_rating("expert", "classic")


def test_a_game_the_ladder_has_not_measured_takes_the_mean_over_the_games() -> None:
    expected = sum(LADDER_RATINGS[game]["hard"][0] for game in LADDER_RATINGS) / len(LADDER_RATINGS)
    assert bot_rating("hard", "no such game") == BOT_RATINGS["hard"]
    assert BOT_RATINGS["hard"][0] == pytest.approx(expected)


def test_a_level_the_ladder_has_not_measured_is_unrated_not_the_stand_in() -> None:
    for game in (*LADDER_RATINGS, None):
        assert bot_rating("no such level", game) is None
        assert rated_as("no such level", game) == (MODEL.mu, MODEL.sigma)  # unknown strength, a new player's
        assert rated_as("basic", game) == bot_rating("basic", game) != (MODEL.mu, MODEL.sigma)


def test_the_menu_shows_a_level_unmeasured_in_a_game_as_unrated(client: TestClient,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    unmeasured = {level: rating for level, rating in ratings.BOT_RATINGS_BY_GAME["israeli"].items() if level != "hard"}
    monkeypatch.setitem(ratings.BOT_RATINGS_BY_GAME, "israeli", unmeasured)
    api_levels.levels_json.cache_clear()
    try:
        by_level = {entry["level"]: entry["ratings"] for entry in client.get("/api/levels").json()["levels"]}
    finally:
        api_levels.levels_json.cache_clear()
    assert by_level["hard"]["israeli"] is None
    assert by_level["hard"]["classic"] is not None and by_level["expert"]["israeli"] is not None
