"""The dimod samplers: dwave-samplers' simulated annealing and tabu search, and dimod's ExactSolver.

This module owns the run functions of ``sa`` (:func:`run_sa`: dwave-samplers' compiled annealer handed
the model's arrays, made once a run), ``tabu`` (:func:`annealer`, one read per call; read ``r`` with
seed ``seed + r`` in both; their knobs become the samplers' keyword arguments in
:func:`sa_arguments` and :func:`tabu_arguments`) and ``exact`` (:func:`run_exact`, every one of the ``2**N``
states, refused past :data:`EXACT_LIMIT` variables).  The table that names them is
:data:`nonoqubo.solvers.samplers.SAMPLER_TABLE`.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .schedule import read_betas
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick, index_bqm, json_safe

__all__ = ["EXACT_LIMIT", "SA_DEFAULT_SWEEPS", "anneals_per_read", "annealer", "check_tenure", "run_exact", "run_sa",
           "sa_arguments", "sa_schedule", "tabu_arguments"]

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


def annealer(sampler: str, cls: str, arguments: Callable[[SampleOptions], dict[str, Any]]):
    """A run function for a dwave-samplers sampler *cls* (``tabu``), one read per call.

    *arguments* gives the sampler's keyword arguments from the options.  A warm start (``opts.states``)
    gives read ``r`` the state ``states[r]`` (``r`` modulo the states given).
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
        positions = list(range(qubo.num_vars))
        parts = []
        for r in range(opts.reads):
            start = {} if opts.states is None else {
                "initial_states": (opts.states[[r % len(opts.states)]], positions), "initial_states_generator": "none"}
            part = solver.sample(bqm, num_reads=1, seed=opts.seed_of(r), **kwargs, **start)
            parts.append(part)
            tick(r + 1, float(part.record.energy.min()))
        batch = samples_from(dimod.concatenate(parts), qubo.labels, spin=False, source=f"{sampler} sampler")
        _keep_timing(batch, [part.info for part in parts])
        return batch

    return run


def sa_schedule(bqm: Any, opts: SampleOptions) -> tuple[np.ndarray, list[float] | None, str]:
    """``sa``'s betas as ``SimulatedAnnealingSampler.sample`` makes them from *opts* for the SPIN model *bqm*:
    ``(betas, beta_range, beta_schedule_type)`` (the range None for a custom schedule).

    The default range is dwave-samplers' own (``_default_ising_beta_range``: a Python loop over every
    bias, about 0.8 s on a random 50x50), computed here once a run instead of once a read.
    """
    from dwave.samplers.sa.sampler import _default_ising_beta_range

    kwargs = sa_arguments(opts)
    kind = kwargs.get("beta_schedule_type", "geometric")
    if kind == "custom":
        return np.asarray(kwargs["beta_schedule"], dtype=float), None, kind
    betas_count = kwargs.get("num_sweeps", SA_DEFAULT_SWEEPS) // kwargs.get("num_sweeps_per_beta", 1)
    beta_range = kwargs.get("beta_range") or _default_ising_beta_range(bqm.linear, bqm.quadratic)
    if betas_count == 1:
        return np.array([beta_range[-1]], dtype=float), beta_range, kind
    lo, hi = float(beta_range[0]), float(beta_range[-1])
    betas = np.linspace(lo, hi, num=betas_count) if kind == "linear" else np.geomspace(lo, hi, num=betas_count)
    return betas, beta_range, kind


def run_sa(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    """``sa``: dwave-samplers' simulated annealing, its compiled kernel (``simulated_annealing``) called once a
    read with the model's SPIN arrays and the beta schedule, both made once a run.

    The same samples as ``SimulatedAnnealingSampler().sample(bqm, num_reads=R, seed=seed + r, ...)`` read by
    read (its random start is drawn the same way, ``numpy.random.RandomState(seed)``), without the sampler's
    per-call work: a SPIN copy of the model, its arrays, the default beta range (a Python loop over every
    bias: 0.8 s a call on a random 50x50) and a SampleSet.  ``restarts`` R anneals per read, the read keeping
    the lowest-energy one (its time is all R); warm starts as :func:`annealer` says.  A read's time is the
    kernel call's.
    """
    try:
        from dwave.samplers.sa.simulated_annealing import simulated_annealing
    except ImportError:
        raise MissingDependency("dwave-samplers", "solvers", "the 'sa' sampler") from None
    import dimod

    began = time.perf_counter_ns()
    n = qubo.num_vars
    spin = index_bqm(qubo).change_vartype(dimod.SPIN, inplace=False)
    ldata, (irow, icol, qdata), _ = spin.to_numpy_vectors(variable_order=range(n))
    betas, beta_range, kind = sa_schedule(spin, opts)
    per_beta = opts.sweeps_per_beta or 1
    anneals = opts.restarts or 1
    prepared = time.perf_counter_ns() - began
    bits = np.zeros((opts.reads, n), dtype=np.int8)
    energies = np.zeros(opts.reads, dtype=np.int64)
    seconds = []
    for r in range(opts.reads):
        seed = opts.seed_of(r)
        if seed is None:
            seed = int(np.random.randint(2**31))
        if opts.states is None:  # dimod's "random" initial-state generator, seeded as the sampler seeds it
            values = np.asarray(sorted(dimod.SPIN.value), dtype=np.int8)
            start = np.random.RandomState(seed).choice(values, size=(anneals, n))
        else:
            rows = (np.arange(anneals) * opts.reads + r) % len(opts.states)
            start = 2 * np.asarray(opts.states[rows], dtype=np.int8) - 1
        called = time.perf_counter_ns()
        samples, spin_energies = simulated_annealing(anneals, ldata, irow, icol, qdata, per_beta, betas, seed,
                                                     np.ascontiguousarray(start, dtype=np.int8), False, "Metropolis",
                                                     None)
        seconds.append((time.perf_counter_ns() - called) / 1e9)
        best = int(np.argsort(spin_energies)[0])  # the read is the best of its anneals (SampleSet.truncate's order)
        bits[r] = (np.asarray(samples[best]) + 1) // 2
        energies[r] = qubo.energy(bits[r])[0]
        tick(r + 1, float(energies[r]))
    batch = replace(samples_from(bits, qubo.labels, spin=False, source="sa sampler"), energies=energies)
    batch.extra[READ_SECONDS] = seconds
    batch.extra[SAMPLER_INFO] = json_safe({
        "beta_range": beta_range, "beta_schedule_type": kind,
        "timing_total": {"preprocessing_ns": prepared, "sampling_ns": round(sum(seconds) * 1e9)}})
    return batch


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
