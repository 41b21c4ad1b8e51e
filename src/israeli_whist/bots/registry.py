"""Find a bot by its level: a name (``BOT_LEVELS``), or a searching level with a budget.

A budget follows the name of ``hard`` or ``expert`` (the two are then the same bot):

- ``expert@100ms``, ``expert@1s``: CPU time a decision (``israeli_whist.bots.expert.budget_settings``);
  the bot is anytime, so its choices depend on the machine's speed.
- ``expert:deals=64``: exactly 64 deals a decision (fewer where the race is settled early):
  the same choices for the same seed on any machine, for reproducible tournaments.
- ``expert@100ms:deals=500``: both, whichever ends the search first.
- ``exact=N`` (with either): Classic Whist positions solved exactly from ``N`` tricks out;
  ``ending=N``: Israeli Whist and Whistiti endings searched from ``N`` tricks out
  (``ExpertSettings.ending_tricks``, off by default);
  ``infer=1``: deals drawn by how likely they make the others' bids (``israeli_whist.bots.inference``),
  by the basic bot's estimate of a hand; ``infer=2``: by the learned trick estimator;
  ``bidslope=N``: N tenths of a point added to a contract bid's value for each trick it bids
  (``ExpertSettings.bid_slope``, 0 by default).

Settings are separated by colons (``expert@1s:deals=500:exact=9``): commas separate the bots
of a tournament.

>>> make_bot("expert@250ms").settings.time_budget
0.25
>>> make_bot("expert:deals=64:exact=6").settings.play_deals
64
>>> make_bot("expert@fast")
Traceback (most recent call last):
...
israeli_whist.bots.registry.UnknownLevelError: Unknown bot level 'expert@fast'; a time budget is a number of ms or s, \
such as 100ms or 1.5s
"""

from __future__ import annotations

import functools
import re
from dataclasses import replace

from israeli_whist.bots.base import Bot, RandomBot
from israeli_whist.bots.basic import BasicBot
from israeli_whist.bots.expert import ExpertBot, ExpertSettings, budget_settings
from israeli_whist.bots.levels import EasyBot, Expert2026Bot, HardBot, MediumBot
from israeli_whist.core.errors import WhistError, quoted

# ``random`` and ``basic`` are the baselines, ``expert-2026`` the fixed reference; the other
# four are the levels offered at tables.
BOT_LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot, "basic": BasicBot,
    "easy": EasyBot, "medium": MediumBot, "hard": HardBot, "expert": ExpertBot,
    "expert-2026": Expert2026Bot,
}
BUDGETED_LEVELS = ("hard", "expert")
LEVEL_FORMS = ("a level name, or hard or expert with a budget: expert@100ms (CPU time a decision), "
               "expert:deals=64 (deals a decision, reproducible), expert@1s:deals=500 (both), "
               "and exact=N (Classic Whist solved exactly from N tricks out)")
MAX_BUDGET = 60.0  # seconds a decision: more is a typo, not a plan
MAX_DEALS = 100_000
_LEVEL = re.compile(r"(?P<name>[^@:]*)(?:@(?P<budget>[^:]*))?(?::(?P<options>.*))?", re.DOTALL)
_BUDGET = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>ms|s)")


class UnknownLevelError(WhistError):
    """A bot level that names no bot, or a budget that cannot be read."""


def make_bot(level: str, seed: int | str = 0) -> Bot:
    cls, settings = parse_level(level)
    if settings is None:
        return cls(seed)
    assert issubclass(cls, ExpertBot)
    return cls(seed, settings)


def check_level(level: str) -> str:
    """``level`` if it names a bot; else ``UnknownLevelError`` saying which forms there are."""
    parse_level(level)
    return level


@functools.lru_cache(maxsize=256)
def parse_level(level: str) -> tuple[type[Bot], ExpertSettings | None]:
    """The bot class of ``level`` and, for a level with a budget, its settings."""
    found = _LEVEL.fullmatch(level)
    assert found is not None  # every string matches: the name may be empty
    name, budget, options = found.group("name", "budget", "options")
    if name not in BOT_LEVELS:
        raise _unknown(level, f"levels: {', '.join(BOT_LEVELS)}; {LEVEL_FORMS}")
    cls = BOT_LEVELS[name]
    if budget is None and options is None:
        return cls, None
    if name not in BUDGETED_LEVELS:
        raise _unknown(level, f"only {' and '.join(BUDGETED_LEVELS)} take a budget "
                       f"({'a fixed reference' if name == 'expert-2026' else 'it does not search'}); {LEVEL_FORMS}")
    assert issubclass(cls, ExpertBot)
    settings = cls.settings if budget is None else budget_settings(_seconds(level, budget))
    if budget is None:
        settings = replace(settings, time_budget=None)
    for key, value in _options(level, options) if options is not None else ():
        if key == "deals":
            settings = settings.with_deals(_whole(level, key, value, 1, MAX_DEALS))
        elif key == "ending":
            settings = replace(settings, ending_tricks=_whole(level, key, value, 0, 13))
        elif key == "infer":
            settings = replace(settings, bid_inference=_whole(level, key, value, 0, 2))
        elif key == "bidslope":  # tenths of a point a trick bid
            settings = replace(settings, bid_slope=_whole(level, key, value, 0, 100) / 10)
        else:
            settings = replace(settings, exact_tricks=_whole(level, key, value, 0, 13))
    return cls, settings


def _seconds(level: str, text: str) -> float:
    found = _BUDGET.fullmatch(text)
    if found is None:
        raise _unknown(level, "a time budget is a number of ms or s, such as 100ms or 1.5s")
    seconds = float(found["number"]) / (1000 if found["unit"] == "ms" else 1)
    if not 0 < seconds <= MAX_BUDGET:
        raise _unknown(level, f"a time budget is more than 0 and at most {MAX_BUDGET:g}s")
    return seconds


def _options(level: str, text: str) -> list[tuple[str, str]]:
    pairs = []
    for item in text.split(":"):
        key, equals, value = item.partition("=")
        if key not in ("deals", "exact", "ending", "infer", "bidslope") or not equals:
            raise _unknown(level, f"the settings after ':' are deals=N, exact=N, ending=N, infer=0|1|2 and bidslope=N, "
                                  f"not {quoted(item)}")
        pairs.append((key, value))
    return pairs


def _whole(level: str, key: str, text: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and low <= int(text) <= high):
        raise _unknown(level, f"{key} is a whole number from {low} to {high}, not {quoted(text)}")
    return int(text)


def _unknown(level: str, why: str) -> UnknownLevelError:
    return UnknownLevelError(f"Unknown bot level {quoted(level)}; {why}")
