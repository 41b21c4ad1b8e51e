"""A folder that a command writes its results to, made and tried before the work starts: a long
run must not end in an error because its output cannot be written."""

from __future__ import annotations

from pathlib import Path

from israeli_whist.core.errors import WhistError

PROBE = ".whist-write-test"


def writable_folder(folder: Path, option: str = "--out", error: type[WhistError] = WhistError) -> Path:
    """Make ``folder`` (and its parents) and write a file there and remove it; ``error`` with one
    line saying why where that fails (a file in the way, no such place, no permission).

    >>> writable_folder(Path("/proc/no/such/folder"))
    Traceback (most recent call last):
    ...
    israeli_whist.core.errors.WhistError: Cannot make the folder /proc/no/such/folder: No such file or directory
    """
    if folder.exists() and not folder.is_dir():
        raise error(f"{option} {folder} is a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as failure:
        raise error(f"Cannot make the folder {folder}: {failure.strerror or failure}") from None
    probe = folder / PROBE
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as failure:
        raise error(f"Cannot write to {folder}: {failure.strerror or failure}") from None
    return folder
