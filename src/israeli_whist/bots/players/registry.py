"""Find a bot by its level: the one gate for every level a person or a program names.

A level is one of three forms:

- a name (``BOT_LEVELS``): ``basic``, ``expert``, ``expert-2026``...
- ``hard`` or ``expert`` with a budget and settings (the two are then the same bot):

  - ``expert@100ms``, ``expert@1s``: CPU time a decision (``israeli_whist.bots.players.expert.budget_settings``);
    the bot is anytime, so its choices depend on the machine's speed.
  - ``expert:deals=64``: exactly 64 deals a decision (fewer where the race is settled early):
    the same choices for the same seed on any machine, for reproducible tournaments.
  - ``expert@100ms:deals=500``: both, whichever ends the search first.
  - the other settings after a colon are those of ``LEVEL_SETTINGS``, each listed once there
    (with what it sets in ``ExpertSettings``), and read from there by the parser, the error
    messages and the commands' help.

  Settings are separated by colons (``expert@1s:deals=500:exact=9``): commas separate the bots
  of a tournament.
- a researcher's own bot, named by its Python entry point ``package.module:factory``: the
  module is imported (from the Python path, or else the current folder) and ``factory(seed)``
  is called, which returns an ``israeli_whist.bots.players.base.Bot``; the seed is an int or a string, for
  ``random.Random``. A level name before the colon keeps meaning level settings
  (``expert:deals=64``). Only a person on their own machine names one (the command line, the
  research interfaces): a table of the web app takes level names only (``check_level_name``),
  so that no web client can make the server import a module.

>>> make_bot("expert@250ms").settings.time_budget
0.25
>>> make_bot("expert:deals=64:exact=6").settings.play_deals
64
>>> make_bot("expert@fast")
Traceback (most recent call last):
...
israeli_whist.bots.players.registry.UnknownLevelError: Unknown bot level 'expert@fast'; a time budget is a number \
of ms or s, such as 100ms or 1.5s
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from israeli_whist.bots.players.base import Bot, RandomBot
from israeli_whist.bots.players.basic import BasicBot
from israeli_whist.bots.players.expert import ExpertBot, ExpertSettings, budget_settings
from israeli_whist.bots.players.levels import EasyBot, Expert2026Bot, HardBot, MediumBot
from israeli_whist.core.errors import WhistError, quoted

# ``random`` and ``basic`` are the baselines, ``expert-2026`` the fixed reference; the other
# four are the levels offered at tables.
BOT_LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot, "basic": BasicBot,
    "easy": EasyBot, "medium": MediumBot, "hard": HardBot, "expert": ExpertBot,
    "expert-2026": Expert2026Bot,
}
BUDGETED_LEVELS = ("hard", "expert")
MAX_BUDGET = 60.0  # seconds a decision: more is a typo, not a plan
MAX_DEALS = 100_000
MESSAGE_CHARACTERS = 200  # of an error raised by a researcher's module, repeated in ours


@dataclass(frozen=True)
class LevelSetting:
    """A setting written after a searching level's colon, ``key=N``: a whole number from ``low`` to
    ``high``, which divided by ``per`` is set on each of ``fields`` of ``ExpertSettings``."""

    key: str
    fields: tuple[str, ...]
    low: int
    high: int
    meaning: str
    per: int = 1  # units written to one unit of the field (bidslope: tenths of a point)

    @property
    def form(self) -> str:
        """``deals=N``, or ``infer=0|1|2`` where the values are few enough to list."""
        if self.high - self.low <= 2:
            return f"{self.key}={'|'.join(str(n) for n in range(self.low, self.high + 1))}"
        return f"{self.key}=N"

    def applied(self, settings: ExpertSettings, number: int) -> ExpertSettings:
        value = number if self.per == 1 else number / self.per
        changes: dict[str, Any] = dict.fromkeys(self.fields, value)  # fields of int and of float
        return replace(settings, **changes)


LEVEL_SETTINGS = (
    LevelSetting("deals", ("play_deals", "bid_deals", "frisch_deals"), 1, MAX_DEALS,
                 "deals a decision, the same choices on any machine"),
    LevelSetting("exact", ("exact_tricks",), 0, 13, "Classic Whist solved exactly from N tricks out"),
    LevelSetting("ending", ("ending_tricks",), 0, 13, "Israeli Whist and Whistiti endings searched from N tricks out"),
    LevelSetting("infer", ("bid_inference",), 0, 2,
                 "deals drawn by how likely they make the bids: 1 by the basic bot's estimate, 2 by the learned one"),
    LevelSetting("bidslope", ("bid_slope",), 0, 100,
                 "tenths of a point added to a contract bid's value for each trick it bids", per=10),
)
SETTINGS = {setting.key: setting for setting in LEVEL_SETTINGS}


def _and_list(items: list[str]) -> str:
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


SETTING_FORMS = _and_list([setting.form for setting in LEVEL_SETTINGS])  # "deals=N, ... and bidslope=N"
ENTRY_POINT_FORM = "your own bot as package.module:factory (a function of the seed that returns a Bot)"


def _level_forms(settings: str) -> str:
    """The forms of a level after its name, one text for the errors and the help."""
    return (f"hard or expert with a budget and settings, such as expert@100ms (CPU time a decision), "
            f"expert:deals=64 (deals a decision, reproducible) or expert@1s:deals=500:exact=9 ({settings}); "
            f"or {ENTRY_POINT_FORM}")


# In an error, the settings by their forms; in the help of every option that takes a level
# (whist play --bots, tournament, selfplay, analyze --bot), with what each means.
LEVEL_FORMS = _level_forms(f"the settings {SETTING_FORMS}")
LEVEL_HELP = f"{', '.join(BOT_LEVELS)}; or " + _level_forms(
    "; ".join(f"{setting.form}: {setting.meaning}" for setting in LEVEL_SETTINGS))

_LEVEL = re.compile(r"(?P<name>[^@:]*)(?:@(?P<budget>[^:]*))?(?::(?P<options>.*))?", re.DOTALL)
_BUDGET = re.compile(r"(?P<number>\d+(?:\.\d+)?)(?P<unit>ms|s)")


class UnknownLevelError(WhistError):
    """A bot level that names no bot, a budget or setting that cannot be read, or an entry point
    that gives no bot."""


def make_bot(level: str, seed: int | str = 0) -> Bot:
    """The bot that ``level`` names (any of the three forms), seeded with ``seed``."""
    if is_entry_point(level):
        return _entry_point_bot(level, seed)
    cls, settings = parse_level(level)
    if settings is None:
        return cls(seed)
    assert issubclass(cls, ExpertBot)
    return cls(seed, settings)


def check_level(level: str) -> str:
    """``level`` if it names a bot (an entry point is imported and asked for a bot once, so that
    a tournament fails before it plays); else ``UnknownLevelError`` saying which forms there are."""
    if is_entry_point(level):
        _entry_point_bot(level, 0)
    else:
        parse_level(level)
    return level


def check_level_name(level: str) -> str:
    """``level`` if it is one of the names: what a table of the web app may seat, where the level
    comes from a web client (no budget, no entry point to import)."""
    if level not in BOT_LEVELS:
        raise _unknown(level, f"a table's seat takes one of the levels {', '.join(BOT_LEVELS)}")
    return level


def is_entry_point(level: str) -> bool:
    """``package.module:factory``: identifiers, and a module that is not a level's name.

    >>> is_entry_point("mybots.agent:make"), is_entry_point("expert:deals=64"), is_entry_point("expert:exact")
    (True, False, False)
    """
    module, colon, factory = level.partition(":")
    return (bool(colon) and module not in BOT_LEVELS and factory.isidentifier()
            and all(part.isidentifier() for part in module.split(".")))


@functools.lru_cache(maxsize=256)
def parse_level(level: str) -> tuple[type[Bot], ExpertSettings | None]:
    """The bot class of a level name, and for a level with a budget or settings its settings."""
    found = _LEVEL.fullmatch(level)
    assert found is not None  # every string matches: the name may be empty
    name, budget, options = found.group("name", "budget", "options")
    if name not in BOT_LEVELS:
        raise _unknown(level, f"levels: {', '.join(BOT_LEVELS)}; or {LEVEL_FORMS}")
    cls = BOT_LEVELS[name]
    if budget is None and options is None:
        return cls, None
    if name not in BUDGETED_LEVELS:
        raise _unknown(level, f"only {' and '.join(BUDGETED_LEVELS)} take a budget or settings "
                       f"({name} is {'a fixed reference' if name == 'expert-2026' else 'a bot that does not search'})")
    assert issubclass(cls, ExpertBot)
    settings = cls.settings if budget is None else budget_settings(_seconds(level, budget))
    if budget is None:
        settings = replace(settings, time_budget=None)
    for setting, number in _settings(level, options) if options is not None else ():
        settings = setting.applied(settings, number)
    return cls, settings


def _seconds(level: str, text: str) -> float:
    found = _BUDGET.fullmatch(text)
    if found is None:
        raise _unknown(level, "a time budget is a number of ms or s, such as 100ms or 1.5s")
    seconds = float(found["number"]) / (1000 if found["unit"] == "ms" else 1)
    if not 0 < seconds <= MAX_BUDGET:
        raise _unknown(level, f"a time budget is more than 0 and at most {MAX_BUDGET:g}s")
    return seconds


def _settings(level: str, text: str) -> list[tuple[LevelSetting, int]]:
    read = []
    for item in text.split(":"):
        key, equals, value = item.partition("=")
        setting = SETTINGS.get(key)
        if setting is None or not equals:
            raise _unknown(level, f"the settings after ':' are {SETTING_FORMS}, not {quoted(item)}")
        read.append((setting, _whole(level, setting, value)))
    return read


def _whole(level: str, setting: LevelSetting, text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6 and setting.low <= int(text) <= setting.high):
        raise _unknown(level, f"{setting.key} is a whole number from {setting.low} to {setting.high}, "
                              f"not {quoted(text)}")
    return int(text)


def _unknown(level: str, why: str) -> UnknownLevelError:
    return UnknownLevelError(f"Unknown bot level {quoted(level)}; {why}")


# Entry points ----------------------------------------------------------------------------------


def _entry_point_bot(level: str, seed: int | str) -> Bot:
    factory = _factory(level)
    try:
        bot = factory(seed)
    except Exception as error:
        raise _unusable(level, f"{level}({seed!r}) raised {_said(error)}") from None
    if not isinstance(bot, Bot):
        raise _unusable(level, f"{level}({seed!r}) returned {type(bot).__name__}, not an israeli_whist.bots.Bot")
    return bot


@functools.lru_cache(maxsize=64)
def _factory(level: str) -> Callable[[int | str], object]:
    """The function an entry point names (a module is imported once; a failure is not remembered,
    so a module fixed meanwhile is imported again)."""
    module_name, _, name = level.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing != module_name and not module_name.startswith(missing + "."):
            raise _unusable(level, f"importing {module_name} raised {_said(error)}") from None
        if not _with_current_folder():
            raise _unusable(level, f"no module named {missing} on the Python path or in the current folder"
                            ) from None
        return _factory(level)  # again, with the current folder on the path
    except Exception as error:  # the researcher's module failed as it ran: say how, in one line
        raise _unusable(level, f"importing {module_name} raised {_said(error)}") from None
    factory = getattr(module, name, None)
    if factory is None:
        raise _unusable(level, f"module {module_name} has no {name}")
    if not callable(factory):
        raise _unusable(level, f"{module_name}.{name} is not a function of the seed ({type(factory).__name__})")
    return factory  # type: ignore[no-any-return]  # a function of the seed, by the contract above


def _with_current_folder() -> bool:
    """Put the current folder at the end of the Python path, as ``python -m`` has it at the start;
    False where it is there already. (The ``whist`` script's path starts with its own folder.)"""
    folder = os.getcwd()
    if folder in sys.path or "" in sys.path:
        return False
    sys.path.append(folder)
    importlib.invalidate_caches()
    return True


def _said(error: BaseException) -> str:
    """An exception on one short line: its type and the start of its message."""
    text = " ".join(str(error).split())
    if len(text) > MESSAGE_CHARACTERS:
        text = text[:MESSAGE_CHARACTERS] + "..."
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def _unusable(level: str, why: str) -> UnknownLevelError:
    return UnknownLevelError(f"Bot entry point {quoted(level)}: {why}")
