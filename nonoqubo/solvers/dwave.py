"""The dimod samplers: dwave-samplers' simulated annealing and tabu search, and dimod's ExactSolver.

This module owns the run functions of ``sa``, ``tabu`` (:func:`annealer`, one read per call,
read ``r`` with seed ``seed + r``; their knobs become the samplers' keyword arguments in
:func:`sa_arguments` and :func:`tabu_arguments`) and ``exact`` (:func:`run_exact`, every one of the ``2**N``
states, refused past :data:`EXACT_LIMIT` variables).  The table that names them is
:data:`nonoqubo.solvers.samplers.SAMPLER_TABLE`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .schedule import read_betas
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick, index_bqm, json_safe

__all__ = ["EXACT_LIMIT", "SA_DEFAULT_SWEEPS", "anneals_per_read", "annealer", "check_tenure", "run_exact", "sa_arguments", "tabu_arguments"]

#: dimod.ExactSolver enumerates 2**N states
EXACT_LIMIT = 24


#: dwave-samplers' number of sweeps when none is given (``num_sweeps``)
SA_DEFAULT_SWEEPS = 1000


def sa_arguments(opts: SampleOptions) -> dict[str, Any]:
    """SimulatedAnnealingSampler's keyword arguments for *opts* (checked already), besides seed and states.

    Only what is given is passed, so a run without knobs is the sampler's own default run
    (and the same seed gives the same samples as before the knobs existed).
    """
    kwargs: dict[str, Any] = {}
    if opts.sweeps is not None:
        kwargs["num_sweeps"] = opts.sweeps
    if opts.beta_range is not None:
        kwargs["beta_range"] = [float(v) for v in opts.beta_range]
    if opts.beta_schedule is not None:
        kwargs["beta_schedule_type"] = opts.beta_schedule
    if opts.beta_schedule == "custom" and opts.beta_schedule_file is not None:
        kwargs["beta_schedule"] = read_betas(opts.beta_schedule_file)
    if opts.sweeps_per_beta is not None:
        kwargs["num_sweeps_per_beta"] = opts.sweeps_per_beta
    return kwargs


def tabu_arguments(opts: SampleOptions) -> dict[str, Any]:
    """TabuSampler's keyword arguments for *opts*: ``timeout`` (ms, from ``time_limit``), ``tenure``,
    ``num_restarts`` (from ``restarts``)."""
    kwargs: dict[str, Any] = {}
    if opts.time_limit is not None:
        kwargs["timeout"] = max(1, round(opts.time_limit * 1000))
    if opts.tenure is not None:
        kwargs["tenure"] = opts.tenure
    if opts.restarts is not None:
        kwargs["num_restarts"] = opts.restarts
    return kwargs


def check_tenure(qubo: Qubo, opts: SampleOptions) -> None:
    """``tabu``'s model check: a ``--tenure`` below the model's number of variables (TabuSampler's rule)."""
    if opts.tenure is not None and not opts.tenure < qubo.num_vars:
        raise SolverError(f"--tenure must be below the model's number of variables ({qubo.num_vars}), "
                          f"not {opts.tenure}")


def anneals_per_read(opts: SampleOptions) -> int:
    """How many anneals one read of ``sa`` runs (``--restarts``, default 1), each from its own warm start."""
    return opts.restarts or 1


def annealer(sampler: str, cls: str, arguments: Callable[[SampleOptions], dict[str, Any]], *,
             anneals_per_read: bool = False):
    """A run function for a dwave-samplers sampler *cls*, one read per call.

    *arguments* gives the sampler's keyword arguments from the options.  With
    *anneals_per_read* (``sa``), ``restarts`` R makes each read R independent anneals
    (``num_reads=R`` in one call, seed ``seed + r``) of which the read keeps the lowest-energy
    one; the read's time is then the time of all R.  A warm start (``opts.states``) gives read
    ``r`` the state ``states[r]``; with R anneals and ``reads * R`` states (what
    :func:`~nonoqubo.solvers.sampling.sample` hands ``sa``), anneal ``j`` of read ``r`` starts from
    ``states[j * reads + r]``, each restart from its own state.
    """

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        try:
            from dwave import samplers
        except ImportError:
            raise MissingDependency("dwave-samplers", "solvers", f"the '{sampler}' sampler") from None
        import dimod

        check_tenure(qubo, opts)
        solver = getattr(samplers, cls)()
        bqm = index_bqm(qubo)
        kwargs = arguments(opts)
        anneals = (opts.restarts or 1) if anneals_per_read else 1
        positions = list(range(qubo.num_vars))
        parts = []
        for r in range(opts.reads):
            rows = (np.arange(anneals) * opts.reads + r) % (1 if opts.states is None else len(opts.states))
            start = {} if opts.states is None else {
                "initial_states": (opts.states[rows], positions), "initial_states_generator": "none"}
            part = solver.sample(bqm, num_reads=anneals, seed=opts.seed_of(r), **kwargs, **start)
            if anneals > 1:
                part = part.truncate(1)  # the read is the best of its anneals
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
