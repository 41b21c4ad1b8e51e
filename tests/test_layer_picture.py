"""The layers as the docs draw them are the layers the code keeps.

The import-linter contract in pyproject.toml (``[tool.importlinter]``, the top-level layers
contract) is what ``tests/test_architecture.py`` enforces. The pictures a reader sees,
docs/architecture.md's "The layers", docs/style.md's "Layers" and the package's own docstring,
must name the same layers in the same order; every package of ``israeli_whist`` must be in
them; and each top-level package's docstring says which packages it imports ("It imports
``core`` and ``bots``."), which must be the packages it does import (read by grimp, the library
import-linter reads them with).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SOURCE = ROOT / "src"
PACKAGE = SOURCE / "israeli_whist"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
STYLE = ROOT / "docs" / "style.md"

Layers = list[frozenset[str]]  # from the top down; a layer of several names holds independent siblings


def top_packages() -> set[str]:
    return {path.parent.name for path in PACKAGE.glob("*/__init__.py")}


def contract_layers() -> Layers:
    """The top-level layers contract: ``"israeli_whist.cli | israeli_whist.server"`` is one layer."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    [top] = [c for c in contracts if c["type"] == "layers" and "containers" not in c]
    return [frozenset(name.strip().removeprefix("israeli_whist.") for name in layer.split("|"))
            for layer in top["layers"]]


def section(text: str, heading: str) -> str:
    """The text under a Markdown ``## heading``, up to the next heading of its level."""
    parts = re.split(rf"^## {re.escape(heading)}\n", text, maxsplit=1, flags=re.MULTILINE)
    assert len(parts) == 2, f"no section '## {heading}'"
    return re.split(r"^## ", parts[1], maxsplit=1, flags=re.MULTILINE)[0]


def first_picture(text: str) -> list[str]:
    """The lines of the first fenced block of ``text``."""
    found = re.search(r"^```[a-z]*\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)
    assert found is not None, "no picture"
    return found.group(1).splitlines()


def drawn_layers(picture: list[str]) -> Layers:
    """Layers drawn top down, one line each, as ``israeli_whist.name``; what follows ``<-`` on a
    line is a note, and a line naming no package is a line of the drawing."""
    layers: Layers = []
    for line in picture:
        names = re.findall(r"\bisraeli_whist\.(\w+)", line.split("<-", 1)[0])
        if names:
            layers.append(frozenset(names))
    return layers


def chained_layers(picture: list[str]) -> Layers:
    """One line drawn bottom up, ``core <- bots <- rl <- cli | server``, as layers top down."""
    [line] = [line for line in picture if "<-" in line]
    return [frozenset(name.strip() for name in layer.split("|")) for layer in reversed(line.split("<-"))]


def test_the_architecture_picture_names_the_contracts_layers_in_order() -> None:
    picture = first_picture(section(ARCHITECTURE.read_text(encoding="utf-8"), "The layers"))
    assert drawn_layers(picture) == contract_layers()


def test_the_style_guides_line_names_the_contracts_layers_in_order() -> None:
    picture = first_picture(section(STYLE.read_text(encoding="utf-8"), "Layers"))
    assert chained_layers(picture) == contract_layers()


def test_the_package_docstrings_line_names_the_contracts_layers_in_order() -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text(encoding="utf-8")))
    assert docstring is not None
    assert chained_layers(docstring.splitlines()) == contract_layers()


def test_every_package_is_in_a_layer() -> None:
    assert set().union(*contract_layers()) == top_packages()


def test_a_picture_without_a_layer_or_out_of_order_is_caught() -> None:
    drawn = ["israeli_whist.cli   israeli_whist.server   <- front ends",
             "        |            <- a line of the drawing: israeli_whist.rl is named only in its note",
             "israeli_whist.bots", "israeli_whist.core"]
    assert drawn_layers(drawn) == [{"cli", "server"}, {"bots"}, {"core"}] != contract_layers()
    assert chained_layers(["core <- rl <- bots <- cli | server"]) != contract_layers()
    assert chained_layers(["core  <-  bots  <-  rl  <-  cli | server"]) == contract_layers()


# --- Each package says what it imports ---------------------------------------------------------------------

GRIMP = """
import itertools, json, sys
import grimp
graph = grimp.build_graph("israeli_whist", exclude_type_checking_imports=True)
names = sys.argv[1:]
print(json.dumps({a: sorted(b for b in names if b != a and graph.direct_import_exists(
    importer=f"israeli_whist.{a}", imported=f"israeli_whist.{b}", as_packages=True)) for a in names}))
"""


@pytest.fixture(scope="module")
def imported() -> dict[str, list[str]]:
    """Which top-level packages each one imports, in a process of its own with this tree first on
    the path (in the test process ``israeli_whist`` may be another checkout's installed copy)."""
    env = {**os.environ, "PYTHONPATH": str(SOURCE)}
    result = subprocess.run([sys.executable, "-c", GRIMP, *sorted(top_packages())], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=300, check=True)
    found: dict[str, list[str]] = json.loads(result.stdout)
    return found


def said_imports(docstring: str) -> set[str]:
    """The packages named in the docstring's clause "It imports ..." (up to a ".", ";" or ":"),
    e.g. "It imports ``core`` and ``bots``." ("the standard library only" names none).

    >>> sorted(said_imports("The bots.\\n\\nIt imports ``core``, and ``rl`` for ``whist serve``. More."))
    ['core', 'rl']
    """
    found = re.search(r"\bIt\s+imports\b(.*?)[.;:](?:\s|$)", docstring, flags=re.DOTALL)
    assert found is not None, "no clause 'It imports ...'"
    return set(re.findall(r"``(\w+)``", found.group(1))) & top_packages()


@pytest.mark.parametrize("package", sorted(top_packages()))
def test_each_package_docstring_names_what_it_imports(package: str, imported: dict[str, list[str]]) -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / package / "__init__.py").read_text(encoding="utf-8")))
    assert docstring, f"{package}/__init__.py has no docstring"
    assert said_imports(docstring) == set(imported[package])


def test_each_package_imports_only_layers_below_it_but_for_the_crossing(imported: dict[str, list[str]]) -> None:
    # The docstrings' check above is only as good as this: what a package imports is what the
    # contract lets it, and the one crossing (the terminal's ``whist serve``) is the only sideways arrow.
    layers = contract_layers()
    below = {name: set().union(*layers[index + 1:]) for index, layer in enumerate(layers) for name in layer}
    sideways = {(a, b) for a, names in imported.items() for b in names if b not in below[a]}
    assert sideways == {("cli", "server")}
