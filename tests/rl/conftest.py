"""Shared by the tests of israeli_whist.rl: the examples of docs/rl.md, read by section."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

RL_DOC = Path(__file__).resolve().parents[2] / "docs" / "rl.md"


def doc_section(title: str) -> str:
    """The text of the ``## title`` section of docs/rl.md, up to the next ``## `` heading."""
    text = RL_DOC.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, flags=re.MULTILINE | re.DOTALL)
    assert match, f"docs/rl.md has no section '## {title}'"
    return match.group(1)


@pytest.fixture
def rl_doc_section() -> Callable[[str], str]:
    """``doc_section``, for the tests."""
    return doc_section


@pytest.fixture
def rl_doc_examples() -> Callable[[str], list[str]]:
    """The ```python blocks of a section of docs/rl.md, each a program to run."""
    def examples(title: str) -> list[str]:
        return re.findall(r"^```python\n(.*?)^```", doc_section(title), flags=re.MULTILINE | re.DOTALL)
    return examples
