"""Where ``whist selfplay`` and ``whist tournament`` run their work: here (processes on this
machine) or on Ray (``israeli_whist.rl.raybackend``), with the same results either way.

Ray is imported only when it is asked for: it is an optional extra, and slow to import.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated

import typer

from israeli_whist.cli.errors import cannot_run, usage_error
from israeli_whist.core.errors import WhistError

if TYPE_CHECKING:
    from israeli_whist.rl.raybackend import RaySession


class Backend(StrEnum):
    local = "local"
    ray = "ray"


BACKEND_HELP = ("local: processes on this machine (--workers); ray: Ray tasks, on a Ray started on this machine "
                "with --workers CPUs, or on the cluster at --ray-address. Both give the same results for a seed.")
MAX_WORKERS = 1024  # processes: more is a typo, and would start that many
WorkersOption = Annotated[int | None, typer.Option(
    min=1, max=MAX_WORKERS,
    help="Processes (default: all cores), or with --backend ray the CPUs of a Ray started here.")]
RAY_ADDRESS_HELP = ("With --backend ray: a running Ray cluster, host:port (as 'ray start --head' prints), "
                    "ray://host:port (Ray Client) or auto. Default: start Ray on this machine.")


def check_backend(backend: Backend, ray_address: str | None, workers: int | None, command: str) -> None:
    """Refuse options that do not go together (exit code 2)."""
    if ray_address is not None and backend != Backend.ray:
        usage_error("--ray-address needs --backend ray", command)
    if ray_address is not None and workers is not None:
        usage_error("--workers sets the CPUs of a Ray started here; a cluster at --ray-address has its own",
                    command)
    if ray_address is not None:
        from israeli_whist.rl.raybackend import address_endpoint

        try:
            address_endpoint(ray_address)
        except WhistError as error:
            usage_error(str(error), command)


@contextmanager
def ray_session(backend: Backend, ray_address: str | None, workers: int | None) -> Iterator[RaySession | None]:
    """A connected ``RaySession`` for ``--backend ray``, None for the local backend. A Ray that is
    not installed, or cannot be reached or started, is one line with exit code 1, before any work."""
    if backend != Backend.ray:
        yield None
        return
    from israeli_whist.rl.raybackend import RaySession, require_ray

    session = RaySession(ray_address, workers)
    try:
        require_ray("--backend ray")
        session.connect()
    except WhistError as error:
        cannot_run(str(error))
    try:
        yield session
    finally:
        session.close()
