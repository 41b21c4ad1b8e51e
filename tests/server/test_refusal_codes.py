"""One list of refusal codes (``server/refusals.py``), and nothing that bypasses it.

The list, the pages' catalogues (``error.<code>`` in en.json and he.json) and
docs/server-protocol.md name the same codes; and no refusal in the server's source spells its
code as a literal, read from the source with ``ast``: a code passed to ``Refused``,
``ActionRefused``, a socket's ``error`` reply or any other function whose parameter is named
``code``, a ``{"code": ...}`` reply, a socket closed with ``code=``, a code compared with a
literal, or an ``HTTPException`` raised with no code at all.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from israeli_whist.server.app import create_app
from israeli_whist.server.refusals import Refusal, SocketClosed
from israeli_whist.server.settings import ServerSettings

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "israeli_whist" / "server"
STATIC = SERVER / "static"
PROTOCOL = ROOT / "docs" / "server-protocol.md"
LANGUAGES = ("en", "he")
# The list itself, where the codes are written out once.
LIST_MODULE = SERVER / "refusals.py"


def error_keys(language: str) -> set[str]:
    words: dict[str, str] = json.loads((STATIC / "i18n" / f"{language}.json").read_text(encoding="utf-8"))
    return {key.removeprefix("error.") for key in words if key.startswith("error.")}


def worded_closes() -> set[str]:
    return {f"closed_{closed.value}" for closed in SocketClosed if closed.worded}


def pages_own_error_keys() -> set[str]:
    """``error.*`` keys a page names itself (``t("error.load")``): words of the page, not the server's."""
    named = re.compile(r"""["'`]error\.([a-z0-9_]+)["'`]""")
    pages = [path for path in STATIC.iterdir() if path.suffix in (".js", ".html")]
    return {key for path in pages for key in named.findall(path.read_text(encoding="utf-8"))}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_code_has_its_words_and_every_error_entry_a_code(language: str) -> None:
    keys = error_keys(language)
    codes = {str(code) for code in Refusal}
    assert sorted(codes - keys) == [], f"codes with no error.<code> in {language}.json"
    assert sorted(worded_closes() - keys) == [], f"socket closes with no error.closed_<n> in {language}.json"
    unknown = keys - codes - worded_closes() - pages_own_error_keys()
    assert sorted(unknown) == [], f"error.* entries of {language}.json that name no code"


def test_the_pages_own_error_words_are_few_and_not_codes() -> None:
    # A page's own key that is also a code would hide a code the server no longer sends.
    assert pages_own_error_keys() == {"load", "title"}


def test_the_codes_are_unique_and_spelled_as_clients_read_them() -> None:
    values = [code.value for code in Refusal]
    assert len(values) == len(set(values))
    assert all(re.fullmatch(r"[a-z][a-z_]*", value) for value in values)
    assert all(code.value == code.name.lower() for code in Refusal)
    # Codes clients already depend on: renaming one breaks them.
    assert {"not_your_turn", "stale", "sign_in", "private", "no_table", "invalid_request", "rules", "too_large",
            "origin", "content_type", "too_many", "unavailable", "internal"} <= set(values)


# --- The server's source: no code as a literal -------------------------------------------------------------

def is_literal(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant | ast.JoinedStr) and not (
        isinstance(node, ast.Constant) and node.value is None)


def names_a_code(node: ast.expr) -> bool:
    """``refused.code`` or ``code``."""
    return (isinstance(node, ast.Attribute) and node.attr == "code") or (isinstance(node, ast.Name)
                                                                          and node.id == "code")


def callee_name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def code_parameters(trees: list[ast.Module]) -> dict[str, int]:
    """Every function of the server with a ``code`` parameter, and its position in a call: a
    function by its name, a class by its name (its ``__init__``)."""
    found: dict[str, int] = {}

    def position(function: ast.FunctionDef | ast.AsyncFunctionDef, method: bool) -> int | None:
        names = [argument.arg for argument in function.args.posonlyargs + function.args.args]
        if "code" not in names:
            return None
        return names.index("code") - (1 if method else 0)

    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                for item in node.body:
                    if isinstance(item, ast.FunctionDef) and item.name == "__init__":
                        index = position(item, method=True)
                        if index is not None:
                            found[node.name] = index
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                index = position(node, method=False)
                if index is not None and node.name != "__init__":
                    found.setdefault(node.name, index)
    return found


def literal_codes(tree: ast.Module, takes_code: dict[str, int]) -> list[tuple[int, str]]:
    """Where ``tree`` spells a refusal's code as a literal, or refuses with no code (line, what)."""
    found: list[tuple[int, str]] = []
    bases_of: dict[ast.AST, list[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            bases = [base.id for base in node.bases if isinstance(base, ast.Name)]
            for inner in ast.walk(node):
                bases_of[inner] = bases
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = callee_name(node)
            if name == "HTTPException":
                found.append((node.lineno, "an HTTPException, which carries no code: raise Refused"))
            # Called by its own name (``log.error`` is not the socket's ``error``), or as ``super().__init__``.
            index = takes_code.get(name or "") if isinstance(node.func, ast.Name) else None
            if (name == "__init__" and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Call)
                    and callee_name(node.func.value) == "super"):
                index = next((takes_code[base] for base in bases_of.get(node, []) if base in takes_code), None)
            if index is not None and index < len(node.args) and is_literal(node.args[index]):
                found.append((node.lineno, f"{name}() given a literal code"))
            found.extend((node.lineno, f"{name}(code=...) given a literal")
                         for keyword in node.keywords if keyword.arg == "code" and is_literal(keyword.value))
        elif isinstance(node, ast.Dict):
            pairs = zip(node.keys, node.values, strict=True)
            found.extend((node.lineno, "a reply's literal code") for key, value in pairs
                         if isinstance(key, ast.Constant) and key.value == "code" and is_literal(value))
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(map(names_a_code, sides)) and any(map(is_literal, sides)):
                found.append((node.lineno, "a code compared with a literal"))
    return sorted(found)


def server_trees(folder: Path) -> dict[str, ast.Module]:
    return {str(path.relative_to(folder)): ast.parse(path.read_text(encoding="utf-8"), str(path))
            for path in sorted(folder.rglob("*.py"))
            if "migrations" not in path.parts and path.name != LIST_MODULE.name}


def literal_codes_in(folder: Path) -> list[str]:
    trees = server_trees(folder)
    takes_code = code_parameters([*trees.values(), ast.parse(LIST_MODULE.read_text(encoding="utf-8"))])
    return [f"{name}:{line}: {what}" for name, tree in trees.items() for line, what in literal_codes(tree, takes_code)]


def test_the_refusals_of_the_server_name_their_codes_from_the_list() -> None:
    assert literal_codes_in(SERVER) == []


def test_the_check_sees_the_refusal_makers() -> None:
    takes_code = code_parameters(list(server_trees(SERVER).values()))
    assert takes_code.items() >= {"Refused": 1, "ActionRefused": 0, "error": 1}.items()


BYPASSES = '''
from fastapi import HTTPException

class TooBig(Refused):
    def __init__(self) -> None:
        super().__init__(413, "too_large", "big")

def refuse(socket, refused, reason):
    raise Refused(404, "no_table", "No such table")
    raise ActionRefused(f"{reason}", "no")
    reply = error(None, "malformed", "A message is a JSON object")
    answer = {"ok": False, "code": "internal", "message": "failed"}
    socket.close(code=4404, reason="No such table")
    if refused.code == "stale":
        pass
    raise HTTPException(404, "No such hand")

def fine(socket, refused):
    raise Refused(404, Refusal.NO_TABLE, "No such table")
    socket.close(code=SocketClosed.NO_TABLE)
    answer = {"ok": False, "code": refused.code, "message": str(refused)}
    return error(None, Refusal.MALFORMED, "no"), refused.code == Refusal.STALE, {"code": None}
'''


def test_the_check_finds_every_kind_of_literal_code() -> None:
    takes_code = code_parameters(list(server_trees(SERVER).values()))
    found = literal_codes(ast.parse(BYPASSES), takes_code)
    assert [line for line, _ in found] == [6, 9, 10, 11, 12, 13, 14, 16], found


# --- The protocol's documentation: the same list, in the same order -------------------------------------

def refusal_section() -> str:
    """The text under "## Refusal codes" in docs/server-protocol.md."""
    text = PROTOCOL.read_text(encoding="utf-8")
    return text.split("\n## Refusal codes\n", 1)[1].split("\n## ", 1)[0]


def documented_codes() -> list[str]:
    """The codes of the section's first table, in order."""
    return re.findall(r"^\| `(\w+)` \|", refusal_section(), flags=re.MULTILINE)


def test_the_protocol_lists_the_codes_of_the_list_in_its_order() -> None:
    assert documented_codes() == [code.value for code in Refusal]


def documented_closes() -> list[int]:
    """The close codes of the section's second table, in order."""
    return [int(code) for code in re.findall(r"^\| (\d{4}) \|", refusal_section(), flags=re.MULTILINE)]


def test_the_protocol_lists_the_socket_closes() -> None:
    assert documented_closes() == [closed.value for closed in SocketClosed]


# --- The framework's own refusals carry a code too ------------------------------------------------------------

@pytest.mark.parametrize(("method", "path", "status", "code"), [
    ("get", "/api/no-such-route", 404, "not_found"),
    ("get", "/static/no-such-file.js", 404, "not_found"),
    ("put", "/api/tables", 405, "invalid_request"),
])
def test_a_refusal_of_the_framework_carries_a_code_of_the_list(app_settings: ServerSettings, method: str, path: str,
                                                                 status: int, code: str) -> None:
    with TestClient(create_app(app_settings)) as client:
        answer = client.request(method, path, headers={"X-Whist-Request": "1"})
    assert answer.status_code == status, answer.text
    assert answer.json()["code"] == code and answer.json()["detail"]
