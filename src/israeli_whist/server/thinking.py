"""Which place to think a server uses: a Ray cluster, worker processes, or its own threads."""

from __future__ import annotations

from israeli_whist.server.workers import (
    DEFAULT_DEADLINE,
    ProcessThinkers,
    Thinkers,
    ThreadThinkers,
    default_analysis_workers,
)


def make_thinkers(workers: int, deadline: float = DEFAULT_DEADLINE, ray_address: str | None = None,
                  analysis_workers: int | None = None) -> Thinkers:
    """The workers of the Ray cluster at ``ray_address``; else ``workers`` processes, or threads of
    this process for 0. ``analysis_workers``: the analyses that run at once, in a lane of their own
    (None: ``default_analysis_workers``)."""
    if workers < 0:
        raise ValueError(f"Bot workers are a count of processes (0: threads of the web process), not {workers}")
    analyses = default_analysis_workers(workers) if analysis_workers is None else analysis_workers
    if analyses < 1:
        raise ValueError(f"Analysis workers are a count of at least one, not {analyses}")
    if ray_address:
        from israeli_whist.server.workers_ray import RayThinkers  # Ray is an optional extra, heavy to import

        return RayThinkers(ray_address, deadline, analyses)
    return ProcessThinkers(workers, deadline, analyses) if workers else ThreadThinkers(deadline, analyses)
