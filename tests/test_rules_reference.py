"""docs/rules.md stays true to the code, and the repository cites only its own documents.

- Each game's options table in docs/rules.md names exactly the options of its rules dataclass
  (``israeli_whist.core.rules``), with the default and the values ``whist rules`` prints; each
  presets table names exactly its presets and what they change.
- Every ``name=value`` written in a game's section is an option of that game, with a value it takes.
- Every ``docs/<page>.md#anchor`` cited anywhere in the repository, and every in-page link of the
  docs, names a heading that exists (anchors made as GitHub makes them); every note linked in
  docs/rules-notes.md is in the section linked.
- No tracked file cites the rules digest or the style guide that were kept outside the
  repository, which a clone cannot read.
- Every relative link of README.md, docs/*.md and bench/'s Markdown (the lab journal, the declared
  runs) leads to a file of the repository, and its #anchor to a heading of that page.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from israeli_whist.core.errors import RulesError
from israeli_whist.core.games import GAMES, RULES_BY_GAME
from israeli_whist.core.rules import option_rows, option_specs

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RULES_PAGE = DOCS / "rules.md"
NOTES_PAGE = DOCS / "rules-notes.md"

HEADING = re.compile(r"^(#{1,6}) +(.+?) *#*$")
LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
# A citation of a page with an anchor: docs/rules.md#tricks, or rules.md#tricks between the docs.
# Not part of a longer path or address (those name other repositories' files).
CITED_ANCHOR = re.compile(r"(?<![\w./-])((?:docs/)?[\w-]+\.md)#([\w-]+)")
IN_PAGE_LINK = re.compile(r"\]\(#([\w-]+)\)")
NOTE_LINK = re.compile(r"\[note (\d+)\]\(rules-notes\.md#([\w-]+)\)")
NOTES_RANGE = re.compile(r"\]\(rules-notes\.md#([\w-]+)\).*\(notes (\d+)-(\d+)\)", re.DOTALL)
OPTION_SETTING = re.compile(r"`(\w+)=([^`]+)`")
TICKED = re.compile(r"`([^`]+)`")
# A Markdown link or image's target (a title after it, if any, left out), and what hides links.
LINK_TARGET = re.compile(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)")
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.DOTALL | re.MULTILINE)
LINKED_PAGES = ["README.md", "docs/*.md", "bench/*.md", "bench/runs/*/README.md"]
# The two documents that lived outside the repository, by the names they were cited by.
OUTSIDE_DOCUMENTS = re.compile(r"\b(?:RULES|STYLE)\.md\b")


# Reading Markdown ---------------------------------------------------------------------------------


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: its text lower-cased, punctuation dropped, spaces as hyphens.

    >>> github_anchor("Whistiti by OpenSpiel's `oh_hell`")
    'whistiti-by-openspiels-oh_hell'
    """
    text = LINK.sub(r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def headings(text: str) -> list[tuple[int, str]]:
    """(level, title) of every heading outside code blocks, in order."""
    found = []
    in_code = False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := HEADING.match(line)):
            found.append((len(match.group(1)), match.group(2)))
    return found


def anchors(page: Path) -> set[str]:
    """The anchors of a page; a repeated heading's anchor gets -1, -2... as on GitHub."""
    made: set[str] = set()
    for _, title in headings(page.read_text(encoding="utf-8")):
        anchor = base = github_anchor(title)
        repeat = 0
        while anchor in made:
            repeat += 1
            anchor = f"{base}-{repeat}"
        made.add(anchor)
    return made


def sections(text: str, level: int) -> dict[str, str]:
    """Each heading of ``level`` and the text under it, up to the next heading of that level or above."""
    found: dict[str, str] = {}
    title: str | None = None
    lines: list[str] = []
    in_code = False
    for line in [*text.splitlines(), "# end"]:
        if line.startswith("```"):
            in_code = not in_code
        match = None if in_code else HEADING.match(line)
        if match and len(match.group(1)) <= level:
            if title is not None:
                found[title] = "\n".join(lines)
            title = match.group(2) if len(match.group(1)) == level else None
            lines = []
        elif title is not None:
            lines.append(line)
    return found


def table_rows(text: str) -> list[list[str]]:
    """The cells of each body row of the first table in ``text`` (the header and its rule left out)."""
    rows = [line.strip() for line in text.splitlines() if line.strip().startswith("|")]
    return [[cell.strip() for cell in row.strip("|").split("|")] for row in rows[2:]]


def rules_page() -> str:
    return RULES_PAGE.read_text(encoding="utf-8")


def game_section(game: str, part: str | None = None) -> str:
    """The text of a game's section of docs/rules.md, or of one of its parts ("options")."""
    title = GAMES[game].title
    if part is None:
        return sections(rules_page(), 2)[title]
    return sections(rules_page(), 3)[f"{title}: {part}"]


# docs/rules.md against israeli_whist.core.rules ------------------------------------------------------


def values_text(spec: dict[str, Any]) -> str | None:
    """How the options table writes an option's values; None for free text, checked value by value."""
    if spec["kind"] == "choice":
        return ", ".join(f"`{choice}`" for choice in spec["choices"])
    if spec["kind"] == "bool":
        return "`true`, `false`"
    if spec["kind"] == "number":
        return f"{spec['low']}..{spec['high']}" + (", or none" if spec["optional"] else "")
    return None


@pytest.mark.parametrize("game", GAMES)
def test_the_options_table_names_every_option_with_its_default_and_values(game: str) -> None:
    rules_cls = RULES_BY_GAME[game]
    rows = {cells[0].strip("`"): cells for cells in table_rows(game_section(game, "options"))}
    assert list(rows) == rules_cls.option_names(), "the options table must list the code's options, in order"
    defaults = {name: default for name, default, _, _ in option_rows(rules_cls)}
    for spec in option_specs(rules_cls):
        name, (_, default, values, meaning) = spec["name"], rows[spec["name"]]
        assert default.strip("`") == defaults[name], name
        assert meaning, f"{name}: say what it does"
        expected = values_text(spec)
        if expected is not None:
            assert values == expected, name
            continue
        written = TICKED.findall(values)
        assert set(spec["suggestions"]) <= set(written), name
        for value in written:
            rules_cls().with_options({name: value})  # raises RulesError for a value the option refuses


@pytest.mark.parametrize("game", GAMES)
def test_the_presets_table_names_every_preset_with_what_it_changes(game: str) -> None:
    rules_cls = RULES_BY_GAME[game]
    rows = {cells[0].strip("`"): cells[1] for cells in table_rows(game_section(game, "presets"))}
    assert list(rows) == list(rules_cls.PRESETS), "the presets table must list the code's presets, in order"
    for name, changes in rows.items():
        written = dict(OPTION_SETTING.findall(changes))
        assert set(written) == set(rules_cls.PRESETS[name]), name
        assert rules_cls().with_options(written) == rules_cls.preset(name), name


@pytest.mark.parametrize("game", GAMES)
def test_every_setting_written_in_a_games_section_is_one_of_its_options(game: str) -> None:
    rules_cls = RULES_BY_GAME[game]
    settings = OPTION_SETTING.findall(game_section(game))
    assert settings, "a game's section shows its options set by name"
    for name, value in settings:
        try:
            rules_cls().with_options({name: value})
        except RulesError as error:
            pytest.fail(f"docs/rules.md, {GAMES[game].title}: `{name}={value}`: {error}")


# Citations across the repository ---------------------------------------------------------------------


def repository_files() -> list[Path]:
    """Every file git tracks, as text (files holding a NUL byte are binary and left out)."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60)
    return [ROOT / name for name in listed.stdout.decode("utf-8").split("\0") if name and (ROOT / name).is_file()]


def repository_texts() -> dict[str, str]:
    texts = {}
    for path in repository_files():
        data = path.read_bytes()
        if b"\0" not in data:
            texts[str(path.relative_to(ROOT))] = data.decode("utf-8", errors="replace")
    return texts


def cited_page(citing: str, page: str) -> Path:
    """The page a citation names: docs/x.md from the root, or x.md beside the citing page."""
    if page.startswith("docs/"):
        return ROOT / page
    beside = (ROOT / citing).parent / page
    return beside if beside.exists() else DOCS / page


def test_every_cited_anchor_is_a_heading_of_its_page() -> None:
    texts = repository_texts()
    cited = 0
    broken = []
    for name, text in texts.items():
        for page, anchor in CITED_ANCHOR.findall(text):
            cited += 1
            target = cited_page(name, page)
            if not target.is_file() or anchor not in anchors(target):
                broken.append(f"{name}: {page}#{anchor}")
        if name.endswith(".md"):
            for anchor in IN_PAGE_LINK.findall(text):
                cited += 1
                if anchor not in anchors(ROOT / name):
                    broken.append(f"{name}: #{anchor}")
    assert cited > 40  # the code, the tests and the docs cite the rules' sections
    assert not broken, "anchors that no heading makes:\n" + "\n".join(broken)


def notes_by_section() -> dict[str, set[int]]:
    """The numbers of the notes in each section of docs/rules-notes.md, by the section's anchor."""
    return {github_anchor(title): {int(n) for n in re.findall(r"^(\d+)\. ", body, re.MULTILINE)}
            for title, body in sections(NOTES_PAGE.read_text(encoding="utf-8"), 2).items()}


def test_every_linked_note_is_in_the_section_linked() -> None:
    notes = notes_by_section()
    links = NOTE_LINK.findall(rules_page())
    assert len(links) > 20
    for number, section in links:
        assert int(number) in notes[section], f"note {number} is not in rules-notes.md#{section}"


def test_the_index_of_notes_covers_every_section_exactly() -> None:
    notes = notes_by_section()
    index = sections(rules_page(), 2)["Where the rules are silent"]
    items = [item for item in re.split(r"\n- ", index) if "rules-notes.md#" in item]
    listed = {}
    for item in items:
        match = NOTES_RANGE.search(item)
        assert match, item
        section, first, last = match.group(1), int(match.group(2)), int(match.group(3))
        listed[section] = set(range(first, last + 1))
    assert listed == notes


def test_no_file_cites_documents_outside_the_repository() -> None:
    offending = [f"{name}:{number}: {line.strip()}"
                 for name, text in repository_texts().items()
                 for number, line in enumerate(text.splitlines(), 1) if OUTSIDE_DOCUMENTS.search(line)]
    assert not offending, "cite docs/rules.md or docs/style.md instead:\n" + "\n".join(offending)


def test_the_style_guide_points_at_files_that_exist() -> None:
    """The examples docs/style.md holds up are real files of the repository."""
    style = re.sub(r"^```.*?^```", "", (DOCS / "style.md").read_text(encoding="utf-8"), flags=re.DOTALL | re.MULTILINE)
    paths = {token for token in TICKED.findall(style) if re.fullmatch(r"[\w/*.-]+\.(py|pyx|md|toml)", token)}
    assert len(paths) > 20
    package = ROOT / "src" / "israeli_whist"
    missing = [path for path in sorted(paths)
               if not any(list(base.glob(path)) for base in (ROOT, package))]
    assert not missing, missing


def relative_links(page: Path) -> list[str]:
    """The targets of a page's links and images outside code, but those of other sites or mail."""
    text = CODE.sub("", page.read_text(encoding="utf-8"))
    return [target for target in LINK_TARGET.findall(text) if not re.match(r"[a-z][a-z+.-]*:", target)]


def broken_link(page: Path, target: str) -> str | None:
    """Why a link of ``page`` leads nowhere, or None where it leads to a file (and a heading)."""
    path, _, anchor = target.partition("#")
    linked = (page.parent / path).resolve() if path else page
    if not linked.exists() or ROOT not in linked.parents:
        return "no such file in the repository"
    if anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
        return "no such heading"
    return None


def test_every_relative_link_of_the_docs_leads_to_a_file_and_heading() -> None:
    pages = sorted({page for pattern in LINKED_PAGES for page in ROOT.glob(pattern)})
    links = [(page, target) for page in pages for target in relative_links(page)]
    assert len(pages) > 12 and len(links) > 40  # the docs link to each other and into the code
    broken = [f"{page.relative_to(ROOT)}: ({target}) {why}"
              for page, target in links if (why := broken_link(page, target))]
    assert not broken, "links that lead nowhere:\n" + "\n".join(broken)


def test_a_link_to_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    """The link check itself: it finds a missing file and a missing heading, not a link in code."""
    page = ROOT / "docs" / "benchmarks.md"
    assert broken_link(page, "../bench/no-such-journal.md") == "no such file in the repository"
    assert broken_link(page, "../docs/search.md#no-such-heading") == "no such heading"
    assert broken_link(page, "../../outside.md") == "no such file in the repository"
    written = tmp_path / "page.md"
    written.write_text("# Title\n[a](b.md) `[c](d.md)`\n```\n[e](f.md)\n```\n[g](https://x.org) [h](#title)\n")
    assert relative_links(written) == ["b.md", "#title"]
