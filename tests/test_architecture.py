"""The layers of docs/style.md#layers, and no import cycle: core <- bots <- rl <- cli | server.

import-linter checks the contracts written in pyproject.toml (``[tool.importlinter]``): the
layers, with the one crossing ``whist serve`` needs, the bots' five floors (judgement <- search <-
players <- matches <- review, see ``israeli_whist.bots``), and no cycle between the modules of any
package, which makes no cycle anywhere. It cannot say "the standard library only", so the core's
imports are also read here with ``ast``.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SOURCE = ROOT / "src"
CORE = SOURCE / "israeli_whist" / "core"
MODULES = sorted(CORE.rglob("*.py"))  # core/games/ included


def lint_imports(source: Path) -> subprocess.CompletedProcess[str]:
    """import-linter over the package under ``source``, with this project's contracts.

    In a process of its own, with ``source`` first on the path: import-linter reads the package
    it can import, and in the test process that may be an installed copy of another checkout.
    """
    command = ("import sys; from importlinter.cli import lint_imports; "
               "sys.exit(lint_imports(no_cache=True, no_logo=True))")
    env = {**os.environ, "PYTHONPATH": str(source)}
    return subprocess.run([sys.executable, "-c", command], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=120, check=False)


def test_the_layers_hold_and_no_module_imports_itself_in_a_circle() -> None:
    result = lint_imports(SOURCE)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def test_the_contracts_catch_a_cycle_and_a_crossing(tmp_path: Path) -> None:
    copy = tmp_path / "src"
    shutil.copytree(SOURCE / "israeli_whist", copy / "israeli_whist",
                    ignore=shutil.ignore_patterns("static", "*.so", "__pycache__"))
    with (copy / "israeli_whist" / "server" / "db.py").open("a", encoding="utf-8") as db:
        db.write("\n\ndef _late() -> None:\n    from israeli_whist.server import live  # noqa: F401\n")
    with (copy / "israeli_whist" / "server" / "app.py").open("a", encoding="utf-8") as app:
        app.write("\nfrom israeli_whist.cli import check  # noqa: E402\n")
    result = lint_imports(copy)
    assert result.returncode != 0
    assert "1 kept, 2 broken" in result.stdout, result.stdout
    assert ".db -> .live" in result.stdout or ".live -> .db" in result.stdout, result.stdout


@pytest.mark.parametrize(("module", "line"), [
    ("judgement/basic_play.py", "from israeli_whist.bots.search import sampling"),  # a floor up
    ("search/sampling.py", "from israeli_whist.bots import make_bot"),  # up through the package's face
])
def test_the_bots_floors_catch_an_import_back_up(tmp_path: Path, module: str, line: str) -> None:
    copy = tmp_path / "src"
    shutil.copytree(SOURCE / "israeli_whist", copy / "israeli_whist",
                    ignore=shutil.ignore_patterns("static", "*.so", "__pycache__"))
    with (copy / "israeli_whist" / "bots" / module).open("a", encoding="utf-8") as source:
        source.write(f"\n\ndef _late() -> None:\n    {line}  # noqa: F401\n")
    result = lint_imports(copy)
    assert result.returncode != 0
    assert "Bots by floors: judgement <- search <- players <- matches <- review BROKEN" in result.stdout, result.stdout


def imported_modules(path: Path) -> list[str]:
    """Every module a file imports, absolute names (relative imports resolved in israeli_whist.core)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = ".".join(["israeli_whist", "core"][: 3 - node.level]) if node.level <= 2 else ""
                names.append(f"{base}.{node.module}" if node.module else base)
            else:
                assert node.module is not None
                names.append(node.module)
    return names


def is_allowed(name: str) -> bool:
    top = name.split(".")[0]
    return name == "israeli_whist.core" or name.startswith("israeli_whist.core.") or (
        top != "israeli_whist" and top in sys.stdlib_module_names)


def test_the_core_has_modules() -> None:
    assert {p.relative_to(CORE).as_posix() for p in MODULES} >= {
        "cards.py", "actions.py", "rules.py", "state.py", "handgame.py", "views.py", "records.py", "traits.py",
        "games/__init__.py", "games/israeli.py", "games/classic.py", "games/whistiti.py"}


@pytest.mark.parametrize("path", MODULES, ids=[p.relative_to(CORE).as_posix() for p in MODULES])
def test_core_imports_only_the_standard_library_and_itself(path: Path) -> None:
    bad = [name for name in imported_modules(path) if not is_allowed(name)]
    assert not bad, f"{path.relative_to(CORE)} imports {bad}"


def test_the_checks_catch_a_bad_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text("import json\nimport rich\nfrom israeli_whist.bots import make_bot\nfrom . import cards\n"
                      "from ..bots import base\n", encoding="utf-8")
    names = imported_modules(sample)
    assert names == ["json", "rich", "israeli_whist.bots", "israeli_whist.core", "israeli_whist.bots"]
    assert [is_allowed(n) for n in names] == [True, False, False, True, False]
