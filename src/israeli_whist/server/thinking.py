"""Which place to think a server uses: a Ray cluster, worker processes, or its own threads."""

from __future__ import annotations

from israeli_whist.server.workers import DEFAULT_DEADLINE, ProcessThinkers, Thinkers, ThreadThinkers


def make_thinkers(workers: int, deadline: float = DEFAULT_DEADLINE, ray_address: str | None = None) -> Thinkers:
    """The workers of the Ray cluster at ``ray_address``; else ``workers`` processes, or threads of
    this process for 0."""
    if ray_address:
        from israeli_whist.server.workers_ray import RayThinkers  # Ray is an optional extra, heavy to import

        return RayThinkers(ray_address, deadline)
    if workers < 0:
        raise ValueError(f"Bot workers are a count of processes (0: threads of the web process), not {workers}")
    return ProcessThinkers(workers, deadline) if workers else ThreadThinkers(deadline)
