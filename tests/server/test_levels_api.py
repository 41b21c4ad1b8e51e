"""``GET /api/levels``: the lobby's menu of bot levels, each with the fixed rating it plays at
in each game, and ``ratings.bot_rating``, which the rating of finished games uses."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from israeli_whist.bots.ladder_ratings import LADDER_RATINGS
from israeli_whist.core.games import GAMES
from israeli_whist.server.app import create_app
from israeli_whist.server.ratings import BOT_RATINGS, bot_rating, ordinal
from israeli_whist.server.settings import ServerSettings

LADDER = ("easy", "medium", "hard", "expert")


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_the_menu_lists_the_ladder_then_the_baselines_with_each_games_rating(client: TestClient) -> None:
    levels = client.get("/api/levels").json()["levels"]
    assert [entry["level"] for entry in levels] == [*LADDER, "basic", "random"]
    for entry in levels:
        assert set(entry["ratings"]) == set(GAMES)
        for game, rating in entry["ratings"].items():
            mu, sigma = bot_rating(entry["level"], game)
            assert rating == {"mu": round(mu, 2), "sigma": round(sigma, 2), "ordinal": round(ordinal(mu, sigma), 2)}
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
    assert bot_rating("no such level") == BOT_RATINGS["basic"]
