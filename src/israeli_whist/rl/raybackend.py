"""Ray as a backend for self-play and tournaments: the same work items as the local backend,
each run as a Ray task, from a laptop's local Ray to a cluster.

Nothing here decides a result. The callers split their work into items that are seeded on their
own (a tournament's deals, self-play's chunks of hands) and pass a function of one item; Ray only
runs it somewhere, so the results are those of the local backend, whichever machine ran which item.
On a cluster every worker must have the same versions of whist and pyarrow installed (the Parquet
bytes are pyarrow's), as the items are sent as references to whist's own functions.

``RaySession`` is a context manager that connects (``ray.init``) on entry and disconnects on exit,
unless Ray was already connected in this process (a test's fixture, a notebook), which it then
leaves connected. Ray itself is imported only once a session connects: it is an optional extra,
slow to import, and the command line checks an address before it needs it.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator, Sequence
from types import TracebackType
from typing import Any, TypeVar

from israeli_whist.core.errors import WhistError
from israeli_whist.core.wording import needs_extra

T = TypeVar("T")
R = TypeVar("R")

DEFAULT_GCS_PORT = 6379  # ``ray start --head``'s port, when an address names only a host
DEFAULT_CLIENT_PORT = 10001  # Ray Client's port, for ray://host
CONNECT_TIMEOUT_S = 5.0


class RayBackendError(WhistError):
    """Ray cannot be reached or started as asked."""


def address_endpoint(address: str) -> tuple[str, int] | None:
    """The host and port that ``address`` connects to, to be checked before ``ray.init`` (which
    waits minutes on an address where nothing answers); None for ``auto`` and ``local``, which
    Ray resolves itself.

    >>> address_endpoint("10.0.0.5:6380")
    ('10.0.0.5', 6380)
    >>> address_endpoint("ray://head.example")
    ('head.example', 10001)
    >>> address_endpoint("auto") is None
    True
    """
    text = address.strip()
    if text in ("auto", "local"):
        return None
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "", text
    elif scheme != "ray":
        raise RayBackendError(f"A Ray address is host:port, ray://host:port or auto, not {address!r}")
    host, colon, port_text = rest.rstrip("/").rpartition(":")
    if not colon:
        host, port_text = rest.rstrip("/"), ""
    host = host.strip("[]")  # an IPv6 address in brackets
    if not host:
        raise RayBackendError(f"A Ray address is host:port, ray://host:port or auto, not {address!r}")
    if not port_text:
        return host, DEFAULT_CLIENT_PORT if scheme == "ray" else DEFAULT_GCS_PORT
    if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
        raise RayBackendError(f"The port of Ray address {address!r} is not a port number")
    return host, int(port_text)


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT_S,
                    otherwise: str = "leave out --ray-address to start Ray on this machine") -> None:
    """Raise ``RayBackendError`` unless something accepts a connection where ``address`` points;
    ``otherwise`` says what the command does without an address."""
    endpoint = address_endpoint(address)
    if endpoint is None:
        return
    try:
        with socket.create_connection(endpoint, timeout=timeout):
            pass
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise RayBackendError(f"No Ray cluster answers at {address} ({reason}); start one with "
                              f"'ray start --head', or {otherwise}") from None


def require_ray(what: str) -> None:
    """Ray imported (seconds, the first time), or ``RayBackendError`` naming the extra that installs it."""
    try:
        import ray  # noqa: F401
    except ImportError:
        raise RayBackendError(needs_extra(what, "rl")) from None


def _run_item(function: Callable[[Any], Any], item: Any) -> Any:
    return function(item)


class RaySession:
    """A connection to Ray for the length of a ``with`` block; ``map_unordered`` runs the items."""

    def __init__(self, address: str | None = None, cpus: int | None = None) -> None:
        """``address``: a running cluster (host:port, ray://host:port or auto); None starts Ray on
        this machine with ``cpus`` workers (default: all cores)."""
        self.address = address
        self.cpus = cpus
        self.owns_connection = False

    def __enter__(self) -> RaySession:
        self.connect()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def connect(self) -> None:
        """Connect to the cluster, or start Ray here; raises ``RayBackendError`` where neither works."""
        if self.address is not None:
            check_reachable(self.address)
        import ray

        if ray.is_initialized():
            return
        quiet: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                 "configure_logging": True, "logging_level": logging.ERROR}
        if self.address is not None:
            try:
                ray.init(address=self.address, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise RayBackendError(f"Cannot connect to Ray at {self.address}: {error}") from None
        else:
            try:
                ray.init(num_cpus=self.cpus, **quiet)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise RayBackendError(f"Cannot start Ray on this machine: {error}") from None
        self.owns_connection = True

    def close(self) -> None:
        """Disconnect (and stop a Ray started here), unless the connection was there before."""
        if self.owns_connection:
            import ray

            ray.shutdown()
            self.owns_connection = False

    def map_unordered(self, function: Callable[[T], R], items: Sequence[T]) -> Iterator[R]:
        """``function(item)`` for every item, each a Ray task, yielded as they finish (callers that
        need an order sort by the item each result names). ``function`` must pickle: a module-level
        function or a ``functools.partial`` of one."""
        import ray

        run_item = ray.remote(_run_item)
        shared = ray.put(function)  # sent to the object store once, not with every task
        pending = [run_item.remote(shared, item) for item in items]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for reference in done:
                yield ray.get(reference)
