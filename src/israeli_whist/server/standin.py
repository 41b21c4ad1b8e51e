"""Which bot plays a seat: a bot seat's own level; for a person's seat, the stand-in's.

The stand-in plays a seat while its player is away, and the whole game for a seat nobody
took: the rating then counts that seat as this bot (``ratings.bot_rating``).
"""

from __future__ import annotations

STAND_IN_LEVEL = "basic"


def playing_level(seat_level: str | None) -> str:
    """The bot level that plays a seat whose stored level is ``seat_level`` (None: a person's).

    >>> playing_level("expert"), playing_level(None)
    ('expert', 'basic')
    """
    return seat_level or STAND_IN_LEVEL
