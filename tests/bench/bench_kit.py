"""Loading a benchmark script (``bench/*.py``, not a package) as a module, for its tests; and nginx,
which the load bench's tests of several nodes run."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load_bench(name: str) -> ModuleType:
    """``bench/<name>.py`` as the module ``<name>_bench``; bench/ on the path, as when the script runs,
    so that it imports its siblings by name."""
    if str(BENCH) not in sys.path:
        sys.path.append(str(BENCH))
    spec = importlib.util.spec_from_file_location(f"{name}_bench", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


def nginx_path() -> str | None:
    return shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def needs_nginx() -> None:
    """Skip a test of several nodes where nginx is not installed; fail it in CI (scripts/test installs
    nginx), as the PostgreSQL tests do."""
    if nginx_path() is None:
        message = "nginx is not installed (apt-get install -y nginx; scripts/test does)"
        if os.environ.get("CI"):
            pytest.fail(f"CI runs the nginx test: {message}")
        pytest.skip(message)
