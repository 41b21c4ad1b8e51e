"""Shared pieces of the CLI tests: a runner, and a player that reads the legal choices off the prompt."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

LEGAL = re.compile(r"legal: ([^)]*)\): ")
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def first_legal(prompt: str) -> str:
    """The first legal choice the prompt lists ("" at a prompt that lists none, like the pause
    between hands, where Enter goes on). ``0-2, 4-13`` gives ``0``; ``pass, or 5C and higher`` gives ``pass``."""
    found = LEGAL.search(prompt)
    if not found:
        return ""
    return found.group(1).replace(",", " ").replace(";", " ").split()[0].split("-")[0]


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


@pytest.fixture
def answer() -> Callable[[str], str]:
    return first_legal


@pytest.fixture
def strip_ansi() -> Callable[[str], str]:
    return lambda text: ANSI.sub("", text)
