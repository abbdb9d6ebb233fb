"""The dimod samplers: dwave-samplers' simulated annealing and tabu search, and dimod's ExactSolver.

This module owns the run functions of ``sa``, ``tabu`` (:func:`annealer`, one read per call,
read ``r`` with seed ``seed + r``) and ``exact`` (:func:`run_exact`, every one of the ``2**N``
states, refused past :data:`EXACT_LIMIT` variables).  The table that names them is
:data:`nonoqubo.solvers.samplers.SAMPLER_TABLE`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick, index_bqm, json_safe

__all__ = ["EXACT_LIMIT", "annealer", "run_exact"]

#: dimod.ExactSolver enumerates 2**N states
EXACT_LIMIT = 24


def annealer(sampler: str, cls: str, option_names: dict[str, Callable[[Any], tuple[str, Any]]]):
    """A run function for a dwave-samplers sampler *cls*, one read per call."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        try:
            from dwave import samplers
        except ImportError:
            raise MissingDependency("dwave-samplers", "solvers", f"the '{sampler}' sampler") from None
        import dimod

        solver = getattr(samplers, cls)()
        bqm = index_bqm(qubo)
        kwargs = dict(convert(getattr(opts, name)) for name, convert in option_names.items()
                      if getattr(opts, name) is not None)
        parts = []
        for r in range(opts.reads):
            part = solver.sample(bqm, num_reads=1, seed=opts.seed_of(r), **kwargs)
            parts.append(part)
            tick(r + 1, float(part.record.energy.min()))
        batch = samples_from(dimod.concatenate(parts), qubo.labels, spin=False, source=f"{sampler} sampler")
        _keep_timing(batch, [part.info for part in parts])
        return batch

    return run


def _keep_timing(batch: SampleBatch, infos: list[dict[str, Any]]) -> None:
    """Keep what dwave-samplers says of each read: ``timing`` (``sampling_ns`` per read), its schedule."""
    timings = [info.get("timing") for info in infos]
    if timings and all(isinstance(t, dict) and "sampling_ns" in t for t in timings):
        batch.extra[READ_SECONDS] = [float(t["sampling_ns"]) / 1e9 for t in timings]  # type: ignore[index]
    if infos:  # the first read's schedule (every read has the same), the timing summed over the reads
        summed: dict[str, float] = {}
        for t in timings:
            for key, value in (t or {}).items():
                summed[key] = summed.get(key, 0) + value
        batch.extra[SAMPLER_INFO] = json_safe({**{k: v for k, v in infos[0].items() if k != "timing"},
                                               **({"timing_total": summed} if summed else {})})


def run_exact(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """Every assignment of *qubo* (dimod.ExactSolver); one tick."""
    n = qubo.num_vars
    if n > EXACT_LIMIT:
        raise SolverError(
            f"the exact solver enumerates 2^N states; this model has {n} variables "
            f"(limit {EXACT_LIMIT}); use --sampler sa or tabu"
        )
    import dimod

    result = dimod.ExactSolver().sample(index_bqm(qubo))
    tick(1, float(result.record.energy.min()))
    return samples_from(result, qubo.labels, spin=False, source="exact solver")
