"""The code is clean: ``ruff check`` and ``mypy`` (strict, configured in pyproject.toml) pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent


def run(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, timeout=600)


def test_ruff() -> None:
    result = run("ruff", "check")
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy() -> None:
    result = run("mypy")
    assert result.returncode == 0, result.stdout + result.stderr
