"""Whole numbers as the game writes them: ASCII digits only, and not too many of them.

``str.isdigit`` and ``int`` read far more than ``0``-``9``: ``int`` takes Arabic-Indic ``"٣"``
and fullwidth ``"３"`` as 3, ``isdigit`` passes superscript ``"²"`` that ``int`` then refuses with
a ValueError, and ``int`` refuses any text of more than 4300 digits. Every count that a person
types or a record holds (a contract, a bid's level, an option) is read here instead, so that no
caller meets those surprises.

>>> read_number("12"), read_number("٣"), read_number("²"), read_number("1" * 5000)
(12, None, None, None)
>>> leading_digits("12NT")
2
"""

from __future__ import annotations

DIGITS = "0123456789"
MAX_DIGITS = 9  # no count in these games comes near a billion, and int() of nine digits is instant


def is_number(text: str) -> bool:
    """True for 1 to ``MAX_DIGITS`` ASCII digits and nothing else (no sign, space or underscore)."""
    return 0 < len(text) <= MAX_DIGITS and not text.strip(DIGITS)


def read_number(text: str) -> int | None:
    """The number ``text`` writes in ASCII digits, or None when it is anything else."""
    return int(text) if is_number(text) else None


def leading_digits(text: str) -> int:
    """How many ASCII digits ``text`` starts with (a bid's level before its strain: ``12`` of ``12NT``)."""
    return len(text) - len(text.lstrip(DIGITS))
