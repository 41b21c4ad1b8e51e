"""One rating scale for people and bot levels (``ratings.shown_rating``): a person who plays as
well as a level comes to the level's figure, one who plays better goes above it; the lobby's
levels and the leaderboard's people are shown on it alike."""

from __future__ import annotations

import json
import statistics
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert

from israeli_whist.server.app import create_app
from israeli_whist.server.db import Store, ratings
from israeli_whist.server.ratings import (
    MODEL,
    PROVISIONAL_GAMES,
    Competitor,
    bot_rating,
    ordinal,
    rate_game,
    shown_rating,
)
from israeli_whist.server.settings import ServerSettings

GAME = "israeli"
STATIC = Path(__file__).resolve().parents[2] / "src" / "israeli_whist" / "server" / "static"


def ratings_after(places: list[int], level: str = "medium") -> list[tuple[float, float]]:
    """A new person's (mu, sigma) after each game of four seats against three bots of ``level``,
    finishing in these places."""
    bot = bot_rating(level, GAME)
    assert bot is not None
    mu, sigma = MODEL.mu, MODEL.sigma
    after = []
    for place in places:
        competitors = [Competitor(1, mu, sigma, 0), *(Competitor(None, *bot, seat) for seat in (1, 2, 3))]
        mu, sigma = rate_game(competitors, [place, *(p for p in (1, 2, 3, 4) if p != place)])[1]
        after.append((mu, sigma))
    return after


def level_figure(client: TestClient, level: str) -> int:
    [entry] = [e for e in client.get("/api/levels").json()["levels"] if e["level"] == level]
    figure: int = entry["ratings"][GAME]["rating"]
    return figure


@pytest.fixture
def client(app_settings: ServerSettings) -> Iterator[TestClient]:
    with TestClient(create_app(app_settings)) as test_client:
        yield test_client


def test_a_person_who_plays_as_a_level_does_is_rated_as_the_level(client: TestClient) -> None:
    # Every place in turn against three medium bots: as good as they are, over 12 games.
    after = ratings_after([1, 2, 3, 4, 4, 3, 2, 1, 2, 4, 1, 3])
    medium = level_figure(client, "medium")
    person = statistics.fmean(shown_rating(mu) for mu, _ in after[-4:])
    assert abs(person - medium) < 60, (person, medium)  # within a game's swing of the level
    assert shown_rating(MODEL.mu) == medium  # and a new person starts there
    # What the pages showed before, the ordinal, set them apart by its uncertainty alone:
    mu, sigma = after[-1]
    level = bot_rating("medium", GAME)
    assert level is not None and ordinal(*level) - ordinal(mu, sigma) > 5


def test_a_person_who_beats_a_level_is_rated_above_it_and_below_a_stronger_one(client: TestClient) -> None:
    above_easy = ratings_after([1, 2] * 6, level="easy")
    person = shown_rating(above_easy[-1][0])
    assert level_figure(client, "easy") < person
    assert shown_rating(ratings_after([4, 3] * 6, level="easy")[-1][0]) < level_figure(client, "easy")


def test_the_leaderboard_shows_a_person_on_the_levels_scale(client: TestClient, app_settings: ServerSettings) -> None:
    store = Store(app_settings.database_url)
    hard = bot_rating("hard", GAME)
    assert hard is not None
    as_hard, new = store.add_user("As hard"), store.add_user("New")
    with store.begin() as c:
        c.execute(insert(ratings), [{"user_id": as_hard, "mu": hard[0], "sigma": 3.0, "games": 40},
                                    {"user_id": new, "mu": MODEL.mu, "sigma": MODEL.sigma, "games": 1}])
    shown = {e["user_id"]: e for e in client.get("/api/leaderboard").json()["players"]}
    assert shown[as_hard]["rating"] == level_figure(client, "hard") and not shown[as_hard]["provisional"]
    assert shown[new]["rating"] == level_figure(client, "medium") and shown[new]["provisional"]


def test_the_leaderboards_note_names_the_provisional_bound() -> None:
    for language in ("en", "he"):
        words = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
        assert str(PROVISIONAL_GAMES) in words["board.provisional_about"], language
