"""``GET /api/levels``: the bot levels a table may seat, in the order of the lobby's menu, each
with the fixed rating it plays at in each game (``ratings.bot_rating``), so that a player can
see how strong the table they set up is, on the leaderboard's own scale (``rating``, as a
person's: ``ratings.shown_rating``); null in a game where the ladder has not measured the level
(unrated)."""

from __future__ import annotations

import functools
from typing import Any

from fastapi import APIRouter

from israeli_whist.core.games import GAMES
from israeli_whist.server.ratings import bot_rating, ordinal, shown_rating

router = APIRouter(prefix="/api")

# By strength, the weakest first, as the ladder measured them (docs/benchmarks.md, "The ladder"):
# basic is the medium bot under its own name, so the two stand together. expert-2026 is a
# yardstick, not offered.
MENU_LEVELS = ("random", "easy", "basic", "medium", "hard", "expert")


def level_json(level: str) -> dict[str, Any]:
    ratings: dict[str, dict[str, float | int] | None] = {}
    for game in GAMES:
        rating = bot_rating(level, game)
        ratings[game] = None if rating is None else {
            "rating": shown_rating(rating[0]), "mu": round(rating[0], 2), "sigma": round(rating[1], 2),
            "ordinal": round(ordinal(*rating), 2)}
    return {"level": level, "ratings": ratings}


@functools.cache
def levels_json() -> dict[str, Any]:
    """The same for every caller while the server runs: the ratings are fixed."""
    return {"levels": [level_json(level) for level in MENU_LEVELS]}


@router.get("/levels")
def list_levels() -> dict[str, Any]:
    return levels_json()
