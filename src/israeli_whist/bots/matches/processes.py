"""A pool of worker processes for a long run of independent items (a tournament's deals,
self-play's chunks), which stops at once when the run is given up.

``concurrent.futures.ProcessPoolExecutor`` used as a context manager waits, on the way out, for
every item submitted: after Ctrl-C a tournament of hundreds of deals went on playing them all
before it exited. Here the items not begun are dropped, and a worker that Ctrl-C reaches (a
terminal sends it to the whole process group) ends there, without the traceback Python would
print for it: the command that started it says what happened.
"""

from __future__ import annotations

import signal
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager


def end_on_interrupt() -> None:
    """A worker's Ctrl-C is the operating system's default: the process ends, silently."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextmanager
def process_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=end_on_interrupt)
    try:
        yield pool
    except BaseException:  # Ctrl-C, or an item's error: nothing more is worth running
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
