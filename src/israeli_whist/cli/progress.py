"""The progress of a long command, on standard error (so that what it prints stays clean): a bar
where standard error is a terminal; elsewhere (a file, a pipe, a CI log) a plain line every few
seconds, so that a log shows that the run is alive without a bar drawn as text or a line a step.
A run shorter than that prints nothing either way."""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeRemainingColumn

PLAIN_EVERY = 5.0  # seconds between the plain lines


class Reporter:
    """Told ``(done, total)`` after each step; draws the bar or writes the plain line when due."""

    def __init__(self, label: str, unit: str, total: int | None, console: Console, columns: Sequence[ProgressColumn],
                 after: float, every: float) -> None:
        self.label, self.unit, self.total = label, unit, total
        self.console, self.columns = console, columns
        self.started = time.monotonic()
        self.after, self.every = after, every
        self.last_line = self.started
        self.bar: Progress | None = None

    def __call__(self, done: int, total: int | None = None) -> None:
        if total is not None:
            self.total = total
        now = time.monotonic()
        if not self.console.is_terminal:
            if now - self.last_line >= self.every:
                self.last_line = now
                print(self.plain_line(done, now), file=self.console.file, flush=True)
            return
        if self.bar is None:
            if now - self.started < self.after:
                return
            self.bar = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TextColumn(self.unit),
                                *self.columns, TimeRemainingColumn(), console=self.console, transient=True)
            self.bar.start()
            self.bar.add_task(self.label, total=self.total)
        self.bar.update(self.bar.task_ids[0], completed=done, total=self.total)

    def plain_line(self, done: int, now: float) -> str:
        """``Playing: 120 of 800 deals (15%), 12 s``."""
        if not self.total:
            return f"{self.label}: {done:,} {self.unit}, {now - self.started:.0f} s"
        return (f"{self.label}: {done:,} of {self.total:,} {self.unit} ({100 * done / self.total:.0f}%), "
                f"{now - self.started:.0f} s")

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def progress(label: str, unit: str, total: int | None = None, columns: Sequence[ProgressColumn] = (),
             after: float = 0.0, every: float | None = None, console: Console | None = None) -> Iterator[Reporter]:
    """A reporter for ``with``; the bar (on a terminal) shows from ``after`` seconds on, with
    ``columns`` before the time left; elsewhere a line every ``every`` seconds (``PLAIN_EVERY``).
    ``console``: standard error by default."""
    reporter = Reporter(label, unit, total, console or Console(stderr=True), columns, after,
                        PLAIN_EVERY if every is None else every)
    try:
        yield reporter
    finally:
        reporter.stop()
