"""People's names, one rule for every front end: a guest's or an account's on the server, a score
sheet's players, the name given to ``whist play``.

A name is shown to the other players beside the cards, so it must look like what it is. It is
trimmed, its runs of spaces made one, and put in Unicode's composed form (NFC), so that two
names that look the same are the same string. Refused: characters that are invisible or that
change how the text around them is shown (bidi overrides such as U+202E, zero-width spaces,
control characters), private-use and unassigned code points, lone surrogates, ``<`` and ``>``,
and a name with nothing visible left.

Zero-width joiners are refused with the rest of Unicode's format characters, and with them
the emoji drawn by joining others (a family, a flag with a sign); a single emoji is a name.
"""

from __future__ import annotations

import unicodedata

from israeli_whist.core.errors import WhistError

MAX_NAME = 40
# Unicode general categories that a name may not hold, with what they are called for people.
REFUSED = {"Cc": "a control character", "Cf": "an invisible formatting character",
           "Co": "a private-use character", "Cs": "a lone surrogate", "Cn": "an unassigned code point"}
# Letters and symbols that are drawn as nothing (Hangul fillers, the blank Braille pattern):
# Unicode's default-ignorable code points outside the refused categories, less the combining
# marks, which need a visible character to sit on anyway.
BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# A name must hold at least one of these: a letter, a digit, a sign or a symbol. A mark on nothing is no name.
VISIBLE = ("L", "N", "P", "S")


class NameRefused(WhistError):
    """A name that is not taken; the message says why, for people."""


def normal_name(text: str) -> str:
    """The name as stored and shown; NameRefused if it cannot be one.

    >>> normal_name("  Ann   Lee ")
    'Ann Lee'
    >>> normal_name("Cafe\\u0301") == "Caf\\u00e9"
    True
    >>> normal_name("\\u202eAnn")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    israeli_whist.core.names.NameRefused: A name may not hold an invisible formatting character (U+202E ...)
    """
    for char in text:  # first, before normalising: NFC would fail on a lone surrogate
        category = unicodedata.category(char)
        if category in REFUSED:
            raise NameRefused(f"A name may not hold {REFUSED[category]} ({describe(char)})")
        if char in BLANK:
            raise NameRefused(f"A name may not hold a character drawn as nothing ({describe(char)})")
    name = " ".join(unicodedata.normalize("NFC", text).split())
    if not name:
        raise NameRefused(f"A name is 1 to {MAX_NAME} characters: this one is empty")
    if len(name) > MAX_NAME:
        raise NameRefused(f"A name is 1 to {MAX_NAME} characters, not {len(name)}")
    if "<" in name or ">" in name:
        raise NameRefused("A name is written without < or >")
    if not any(unicodedata.category(char).startswith(VISIBLE) for char in name):
        raise NameRefused("A name needs a letter, a digit, a sign or a symbol")
    return name


def describe(char: str) -> str:
    """``U+202E RIGHT-TO-LEFT OVERRIDE``: a character that cannot be shown, named.

    >>> describe("\\x07"), describe("\\ue000")
    ('U+0007', 'U+E000')
    """
    name = unicodedata.name(char, "")
    return f"U+{ord(char):04X}" + (f" {name}" if name else "")
