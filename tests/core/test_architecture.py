"""The core is the bottom layer: standard library and whist.core only (STYLE.md)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).parent.parent.parent / "src" / "whist" / "core"
MODULES = sorted(CORE.glob("*.py"))


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, absolute names (relative imports resolved in whist.core)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(["whist", "core"][: 3 - node.level]) if node.level <= 2 else ""
                names.append(f"{base}.{node.module}" if node.module else base)
            else:
                assert node.module is not None
                names.append(node.module)
    return names


def is_allowed(name: str) -> bool:
    top = name.split(".")[0]
    return name == "whist.core" or name.startswith("whist.core.") or (top != "whist" and top in
                                                                       sys.stdlib_module_names)


def test_the_core_has_modules() -> None:
    assert {p.stem for p in MODULES} >= {"cards", "actions", "rules", "state", "game", "views", "records"}


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_core_imports_only_the_standard_library_and_itself(path: Path) -> None:
    bad = [name for name in imported_modules(path) if not is_allowed(name)]
    assert not bad, f"{path.name} imports {bad}"


@pytest.mark.parametrize("path", MODULES, ids=[p.name for p in MODULES])
def test_core_never_imports_the_layers_above(path: Path) -> None:
    above = [name for name in imported_modules(path) if name.startswith(("whist.bots", "whist.cli", "whist.server",
                                                                         "whist.rl"))]
    assert not above


def test_the_checks_catch_a_bad_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nimport rich\nfrom whist.bots import make_bot\nfrom . import cards\n"
                      "from ..bots import base\n", encoding="utf-8")
    names = imported_modules(sample)
    assert names == ["json", "rich", "whist.bots", "whist.core", "whist.bots"]
    assert [is_allowed(n) for n in names] == [True, False, False, True, False]
