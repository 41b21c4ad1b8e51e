"""The build: a compiled module that fails to rebuild is removed, not shipped or imported stale."""

from __future__ import annotations

import runpy
import tomllib
from pathlib import Path
from typing import Any

import pytest
from setuptools import Distribution, Extension
from setuptools.command.build_ext import build_ext
from setuptools.errors import CompileError

ROOT = Path(__file__).resolve().parents[1]


def test_a_failed_build_removes_the_earlier_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    command_class = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_in_tests")["BuildExtWithoutStale"]
    extension = Extension("pkg.fast", ["pkg/fast.c"], optional=True)
    command = command_class(Distribution({"name": "pkg", "ext_modules": [extension]}))
    command.build_lib = str(tmp_path)
    command.ensure_finalized()
    stale = Path(command.get_ext_fullpath("pkg.fast"))
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"compiled from older sources")

    def no_compiler(self: Any, ext: Extension) -> None:
        raise CompileError("no C compiler")

    monkeypatch.setattr(build_ext, "build_extension", no_compiler)
    with pytest.raises(CompileError):  # still raised: setuptools reports a failed optional module
        command.build_extension(extension)
    assert not stale.exists()


def test_every_extension_is_optional_and_its_source_exists() -> None:
    extensions = runpy.run_path(str(ROOT / "setup.py"), run_name="setup_in_tests")["EXTENSIONS"]
    assert extensions
    for extension in extensions:
        assert extension.optional, extension.name
        assert all((ROOT / source).exists() for source in extension.sources), extension.sources


def test_the_license_is_an_spdx_expression_with_its_file() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["license"] == "MIT"
    assert all((ROOT / name).exists() for name in project["license-files"])
