"""Counts in words that agree with their number, and the one wording of a missing extra, for the
messages of every layer.

>>> count_text(1, "trick"), count_text(0, "trick"), count_text(2, "deal")
('1 trick', '0 tricks', '2 deals')
>>> count_text(1, "bot worker process", "bot worker processes")
'1 bot worker process'
>>> only_tricks(1), only_tricks(13)
('There is only 1 trick', 'There are only 13 tricks')
"""

from __future__ import annotations

DISTRIBUTION = "israeli-whist"  # the name pip knows the package by (pyproject.toml)


def count_text(count: int, noun: str, plural: str | None = None) -> str:
    """``1 trick``, ``2 tricks``: a regular plural unless ``plural`` is given (``processes``)."""
    return f"{count} {noun}" if count == 1 else f"{count} {plural or noun + 's'}"


def needs_extra(what: str, extra: str) -> str:
    """What to install for an optional part: the same command from a checkout and over an
    installed package, as pip resolves an installed distribution's extra by its name.

    >>> needs_extra("whist selfplay", "rl")
    "whist selfplay needs the rl extra: pip install 'israeli-whist[rl]'"
    """
    return f"{what} needs the {extra} extra: pip install '{DISTRIBUTION}[{extra}]'"


def only_tricks(count: int) -> str:
    """The start of the message for a bid above the tricks of the hand (a Whistiti hand may have one)."""
    return f"There is only {count_text(count, 'trick')}" if count == 1 else f"There are only {count} tricks"
