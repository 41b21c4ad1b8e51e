"""The progress of a long command on stderr: a bar on a terminal, after a moment; elsewhere (a file,
a pipe) a plain line every few seconds; nothing at all for a quick run."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from rich.console import Console
from typer.testing import CliRunner

from israeli_whist.cli import progress as progress_module
from israeli_whist.cli.main import app
from israeli_whist.cli.progress import progress

RECORD = Path(__file__).resolve().parents[1] / "golden" / "classic_standard.json"


def shown(terminal: bool, total: int | None = 4, after: float = 0.0, every: float | None = None) -> str:
    out = StringIO()
    console = Console(file=out, force_terminal=terminal, width=80)
    with progress("Analysing", "actions", total, after=after, every=every, console=console) as on_step:
        for done in range(1, 5):
            on_step(done, total)
    return out.getvalue()


def test_a_terminal_gets_a_bar_once_the_run_is_not_quick() -> None:
    drawn = shown(True)
    assert "Analysing" in drawn and "4/4" in drawn and "actions" in drawn
    assert shown(True, after=60.0) == ""  # a quick run prints nothing


def test_elsewhere_a_plain_line_every_few_seconds() -> None:
    lines = shown(False, every=0.0).splitlines()
    assert lines[0].startswith("Analysing: 1 of 4 actions (25%), ") and lines[0].endswith(" s")
    assert lines[-1].startswith("Analysing: 4 of 4 actions (100%), ")
    assert "\x1b" not in "".join(lines)  # no bar, no terminal codes, in a file
    assert shown(False, total=None, every=0.0).splitlines()[0].startswith("Analysing: 1 actions, ")
    assert shown(False) == ""  # a run shorter than the interval says nothing


def test_whist_analyze_to_a_file_says_it_is_alive_on_stderr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(progress_module, "PLAIN_EVERY", 0.0)
    result = CliRunner().invoke(app, ["analyze", str(RECORD), "--bot", "basic", "--max-tricks", "2", "--hand", "1",
                                      "--json"])
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    assert lines and all(line.startswith("Analysing: ") and " actions (" in line for line in lines)
    assert result.stdout.startswith("{")  # the JSON stays alone on stdout
