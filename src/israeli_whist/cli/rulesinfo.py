"""``whist rules``: every option of a game with its default, allowed values and help, and every preset."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from israeli_whist.core.games import GAMES, RULES_BY_GAME
from israeli_whist.core.rules import Rules, option_rows


def option_list(rules_cls: type[Rules]) -> RenderableType:
    """One block per option: a definition list reads well at any terminal width, where a
    four-column table squeezed into 80 columns breaks names and values across lines."""
    blocks: list[RenderableType] = [Text("Options (--option NAME=VALUE)", style="bold")]
    for name, default, allowed, help_text in option_rows(rules_cls):
        default = "none" if default == "None" else default
        # A grid, so that a long list of allowed values wraps under itself, not back to column 0.
        line = Table.grid(padding=(0, 2))
        line.add_column(no_wrap=True)
        line.add_column()
        line.add_row(Text(name, style="bold cyan"), Text(f"default: {default}  allowed: {allowed}"))
        blocks.append(Padding(line, (0, 0, 0, 2)))
        blocks.append(Padding(Text(help_text, style="dim"), (0, 0, 0, 6)))
    return Group(*blocks)


def preset_changes(changes: Mapping[str, Any]) -> str:
    if not changes:
        return "(the defaults)"
    return ", ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                     for name, value in changes.items())


def preset_table(rules_cls: type[Rules]) -> Table:
    table = Table(title="Presets (--preset NAME)", title_justify="left")
    table.add_column("Preset", no_wrap=True, style="bold")
    table.add_column("Changes")
    for name, changes in rules_cls.PRESETS.items():
        table.add_row(name, preset_changes(changes))
    return table


def game_rules(game: str) -> RenderableType:
    rules_cls = RULES_BY_GAME[game]
    title = Text(f"{GAMES[game].title} ({game})", style="bold underline")
    return Group(title, option_list(rules_cls), preset_table(rules_cls), Text(""))


def all_rules(game: str | None) -> RenderableType:
    return Group(*(game_rules(name) for name in ([game] if game else list(RULES_BY_GAME))))
