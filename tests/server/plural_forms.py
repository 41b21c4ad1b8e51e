"""The catalogues' plural forms, read as whist.t reads them (static/common.js): a counted noun is
written as ICU message formats write it, ``{n, plural, one {יד אחת} two {שתי ידיים} other {# ידיים}}``,
one form per plural category of the language, "#" standing for the number.

What "counted" means, so that a test can check it: a number that stands right before one of the
game's countable nouns (``COUNTED_NOUNS``: hands, cards, tricks, points, games, errors, seconds,
players, Frisch rounds; singular or plural, in either language), the number being a placeholder
(``{n} hands``) or a written 1 or 2 (``1 hands``); in Hebrew also a written 1 or 2 right after
such a noun («קלף 1»). Such a text is counted only where it stands outside a plural select: inside
one, each form is written for its own category. Numbers that name rather than count ("Hand {n}",
«יד {n} מתוך {total}», "choose 3 cards") are not counts of a noun next to them.

The category is the number's size without its sign (Intl.PluralRules: −1 is "one" as 1 is), so a
form that words the number («יד אחת», «שתי ידיים») serves only a count that is never negative;
a signed amount (a score) writes "#" in every form («# נקודה»)."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The categories a form may be written for (CLDR's names), or an exact number ("=0").
CATEGORIES = ("zero", "one", "two", "few", "many", "other")
# The forms each language's catalogue writes for every count: the categories Intl.PluralRules
# gives its numbers (Hebrew's "many", in older browsers only, falls back to other).
NEEDED = {"en": {"one", "other"}, "he": {"one", "two", "other"}}

COUNTED_NOUNS = {
    "en": ("hand", "hands", "card", "cards", "trick", "tricks", "point", "points", "game", "games", "error",
           "errors", "second", "seconds", "s", "player", "players", "round", "rounds"),
    "he": ("יד", "ידיים", "קלף", "קלפים", "לקיחה", "לקיחות", "נקודה", "נקודות", "משחק", "משחקים", "טעות",
           "טעויות", "שנייה", "שניות", "שנ׳", "שחקן", "שחקנים", "סבב", "סבבים"),
}
PLURAL_START = re.compile(r"\{(\w+),\s*plural,")


@dataclass(frozen=True)
class PluralSelect:
    argument: str  # the placeholder whose number chooses the form
    forms: dict[str, str]  # category ("one", "=0") -> text
    start: int
    end: int  # just after the select's closing brace


def plural_selects(text: str) -> list[PluralSelect]:
    """The plural selects of a text, outermost first; ValueError where one is not written right."""
    found: list[PluralSelect] = []
    at = 0
    while (start := PLURAL_START.search(text, at)) is not None:
        forms: dict[str, str] = {}
        i = start.end()
        while True:
            while i < len(text) and text[i] == " ":
                i += 1
            if i >= len(text):
                raise ValueError(f"a plural select not closed: {text!r}")
            if text[i] == "}":
                break
            open_brace = text.find("{", i)
            if open_brace < 0:
                raise ValueError(f"a plural form with no text: {text[i:]!r}")
            category, close, depth = text[i:open_brace].strip(), open_brace + 1, 1
            while depth:
                if close >= len(text):
                    raise ValueError(f"a plural form not closed: {text!r}")
                depth += {"{": 1, "}": -1}.get(text[close], 0)
                close += 1
            if category not in CATEGORIES and not re.fullmatch(r"=\d+", category):
                raise ValueError(f"{category!r} is no plural category")
            forms[category] = text[open_brace + 1:close - 1]
            i = close
        found.append(PluralSelect(start.group(1), forms, start.start(), i + 1))
        at = i + 1
    return found


def outside_selects(text: str) -> str:
    """The text with each plural select replaced by a mark that is no number and no noun."""
    for select in reversed(plural_selects(text)):
        text = text[:select.start] + "⟨…⟩" + text[select.end:]
    return text


def counts_outside_plurals(text: str, language: str) -> list[str]:
    """The counts of a noun written outside the plural forms (see the module's note), as found."""
    nouns = "|".join(sorted(map(re.escape, COUNTED_NOUNS[language]), key=len, reverse=True))
    noun = rf"(?<!\w)(?:{nouns})(?![\w׳])"
    patterns = [rf"(?:\{{\w+\}}|(?<![\d.,])[12](?![\d.,]))\s+{noun}"]
    if language == "he":
        patterns.append(rf"{noun}\s+[12](?![\d.,])")
    bare = outside_selects(text)
    return [found.group(0) for pattern in patterns for found in re.finditer(pattern, bare)]


def placeholders(text: str) -> set[str]:
    """The names a text is filled from: its {placeholders} and the arguments of its plural selects."""
    return set(re.findall(r"\{(\w+)(?:\}|,\s*plural,)", text))
