"""Counts in words that agree with their number, for the messages of every layer.

>>> count_text(1, "trick"), count_text(0, "trick"), count_text(2, "deal")
('1 trick', '0 tricks', '2 deals')
>>> only_tricks(1), only_tricks(13)
('There is only 1 trick', 'There are only 13 tricks')
"""

from __future__ import annotations


def count_text(count: int, noun: str) -> str:
    """``1 trick``, ``2 tricks``: a regular plural, which is all the messages need."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def only_tricks(count: int) -> str:
    """The start of the message for a bid above the tricks of the hand (a Whistiti hand may have one)."""
    return f"There is only {count_text(count, 'trick')}" if count == 1 else f"There are only {count} tricks"
