"""The base of every game's rules: a frozen dataclass of options, with named presets.

Each game's rules type subclasses ``Rules`` in its module (``israeli_whist.core.games``), and every
option in docs/rules.md is a field there, declared with ``option()``. Its metadata carries the
help text and the allowed values, so ``whist rules`` and ``--option NAME=VALUE`` are driven by
the same definitions the engine reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeVar

from israeli_whist.core.cards import FULL_DECK, CardSet
from israeli_whist.core.digits import read_number
from israeli_whist.core.errors import RulesError, quoted
from israeli_whist.core.traits import GameTraits

R = TypeVar("R", bound="Rules")


def option(default: Any, help: str, *, choices: tuple[str, ...] = (), low: int | None = None,
           high: int | None = None, suggestions: tuple[str, ...] = (), common: bool = False) -> Any:
    """A rule option. ``choices`` are its only values; ``suggestions`` are usual values of a free-text
    option (forms offer them, and any other text the rules accept); ``common`` marks an option most
    tables set, which forms show first, before the others."""
    return field(default=default, metadata={"help": help, "choices": choices, "low": low, "high": high,
                                            "suggestions": suggestions, "common": common})


def _parse_bool(name: str, text: str) -> bool:
    key = text.strip().lower()
    if key in ("true", "on", "yes", "1"):
        return True
    if key in ("false", "off", "no", "0"):
        return False
    raise RulesError(f"Option {name} is true or false, not {quoted(text)}")


@dataclass(frozen=True)
class Rules:
    """Base of the per-game rules; subclasses add fields and ``PRESETS``."""

    GAME: ClassVar[str] = ""
    PRESETS: ClassVar[Mapping[str, Mapping[str, Any]]] = {}

    # What kind of game these rules make, read from a seat's view by the table, the pages and the
    # bots (which see the rules, never the game); the game's own hooks are in ``israeli_whist.core.wholegame``.
    traits: ClassVar[GameTraits] = GameTraits()

    @property
    def players(self) -> int:
        """Seats at the table."""
        raise NotImplementedError

    @property
    def deck_mask(self) -> CardSet:
        """Every card of the pack these rules play with."""
        return FULL_DECK

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            meta = f.metadata
            # Values can come from JSON records, so a wrong type must fail here, not deep in a game.
            whole = isinstance(value, int) and not isinstance(value, bool)
            if meta.get("low") is not None and not whole and not (f.default is None and value is None):
                raise RulesError(f"Option {f.name} is a whole number, not {quoted(value)}")
            if isinstance(f.default, str) and not isinstance(value, str):
                raise RulesError(f"Option {f.name} is text, not {quoted(value)}")
            if meta.get("choices") and value not in meta["choices"]:
                raise RulesError(f"Option {f.name} must be one of {', '.join(meta['choices'])}, not {quoted(value)}")
            if isinstance(f.default, bool) and not isinstance(value, bool):
                raise RulesError(f"Option {f.name} is true or false, not {quoted(value)}")
            if isinstance(value, int) and not isinstance(value, bool):
                low, high = meta.get("low"), meta.get("high")
                if (low is not None and value < low) or (high is not None and value > high):
                    raise RulesError(f"Option {f.name} must be between {low} and {high}, not {quoted(value)}")
        self.check()

    def check(self) -> None:
        """Checks that concern several options together; raise RulesError."""

    @classmethod
    def option_names(cls) -> list[str]:
        return [f.name for f in dataclasses.fields(cls)]

    @classmethod
    def preset(cls: type[R], name: str) -> R:
        if name not in cls.PRESETS:
            raise RulesError(f"No preset {quoted(name)} for {cls.GAME}; presets: {', '.join(cls.PRESETS)}")
        return cls(**cls.PRESETS[name])

    def with_options(self: R, options: Mapping[str, Any]) -> R:
        """A copy with options changed; string values are parsed by the option's type."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        for name, value in options.items():
            if name not in fields:
                raise RulesError(f"Unknown option {quoted(name)} for {self.GAME}; options: {', '.join(fields)}")
            changes[name] = parse_option_value(fields[name], value) if isinstance(value, str) else value
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def changed_options(self) -> dict[str, Any]:
        """The options that differ from the defaults."""
        default = type(self)()
        return {k: v for k, v in self.to_dict().items() if getattr(default, k) != v}


def parse_option_value(f: dataclasses.Field[Any], text: str) -> Any:
    default = f.default
    if isinstance(default, bool):
        return _parse_bool(f.name, text)
    if isinstance(default, int) or (default is None and f.metadata.get("low") is not None):
        key = text.strip().lower()
        if default is None and key in ("", "none", "off", "0"):
            return None
        number = read_number(key)  # ASCII digits only: "٣" is not 3 here either
        if number is None:
            raise RulesError(f"Option {f.name} is a whole number, not {quoted(text)}")
        return number
    return text.strip()


def option_rows(rules_cls: type[Rules]) -> list[tuple[str, str, str, str]]:
    """(name, default, allowed values, help) for every option of a game."""
    rows = []
    for f in dataclasses.fields(rules_cls):
        meta = f.metadata
        kind = option_kind(f)
        if kind == "choice":
            allowed = " | ".join(meta["choices"])
        elif kind == "bool":
            allowed = "true | false"
        elif kind == "number":
            allowed = f"{meta['low']}..{meta['high']}" + (" or none" if f.default is None else "")
        else:
            allowed = "text"
        default = str(f.default).lower() if isinstance(f.default, bool) or f.default is None else str(f.default)
        rows.append((f.name, default, allowed, meta.get("help", "")))
    return rows


def option_kind(f: dataclasses.Field[Any]) -> str:
    """What a form asks for: "choice" (one of ``choices``), "bool", "number" (``low``..``high``,
    or none where the default is None) or "text"."""
    if f.metadata.get("choices"):
        return "choice"
    if isinstance(f.default, bool):
        return "bool"
    if f.metadata.get("low") is not None:
        return "number"
    return "text"


def option_specs(rules_cls: type[Rules]) -> list[dict[str, Any]]:
    """Every option of a game as plain data, for forms made from the rules (the web pages)."""
    specs = []
    for f in dataclasses.fields(rules_cls):
        meta = f.metadata
        kind = option_kind(f)
        spec: dict[str, Any] = {"name": f.name, "kind": kind, "default": f.default, "help": meta.get("help", ""),
                                "common": bool(meta.get("common"))}
        if kind == "choice":
            spec["choices"] = list(meta["choices"])
        elif kind == "number":
            spec.update(low=meta["low"], high=meta["high"], optional=f.default is None)
        elif kind == "text":
            spec["suggestions"] = list(meta.get("suggestions", ()))
        specs.append(spec)
    return specs
