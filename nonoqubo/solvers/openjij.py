"""OpenJij as a local sampler: simulated annealing and simulated *quantum* annealing.

OpenJij (https://github.com/OpenJij/OpenJij, the ``openjij`` package) anneals
Ising models in C++.  Two of its samplers serve ``solve``:

================  ==============  ==========================================================
name              OpenJij class   schedule options (OpenJij's defaults when not given)
================  ==============  ==========================================================
``openjij-sa``    ``SASampler``   ``sweeps`` (1000), ``beta_min``, ``beta_max`` (set from the
                                  model's biases): the inverse temperature rises
                                  geometrically from ``beta_min`` to ``beta_max``
``openjij-sqa``   ``SQASampler``  ``sweeps`` (1000), ``beta`` (5.0, inverse temperature),
                                  ``gamma`` (1.0, initial transverse field, lowered to 0),
                                  ``trotter`` (4, Trotter slices of the path integral)
================  ==============  ==========================================================

Simulated quantum annealing (path-integral Monte Carlo over ``trotter``
coupled replicas while the transverse field falls) is the closest thing to a
quantum annealer that runs on a laptop.  Both take the QUBO as a dimod BQM
with integer labels (the variable order) and give a SampleSet that maps back
by position; ``reads`` is OpenJij's ``num_reads``, ``seed`` its ``seed``.

This module owns those two samplers: :func:`sample` and :func:`runner` (the run function of
their :data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE` entries, all reads in one call), and the
checks of their schedule options.  ``reads``, ``seed`` and ``sweeps`` are checked where every
sampler's are, in :func:`~nonoqubo.solvers.samplers.check_options`, which
:func:`nonoqubo.solvers.sampling.sample` (the entry point for direct use) calls first.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle.from_picture(["#.", "##"]))
    >>> batch = sample(q, "openjij-sqa", reads=4, seed=1)
    >>> len(batch), int(q.energy(batch.bits).min())
    (4, 0)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SEED_LIMIT, SampleOptions, Tick, index_bqm, json_safe
from .schedule import read_sqa_schedule

__all__ = ["OPTIONS", "SAMPLERS", "check_schedule", "runner", "sample"]

#: sampler name -> OpenJij sampler class
SAMPLERS = {"openjij-sa": "SASampler", "openjij-sqa": "SQASampler"}
#: the schedule options each sampler takes (besides reads, seed and sweeps)
OPTIONS = {"openjij-sa": ("beta_min", "beta_max"), "openjij-sqa": ("beta", "gamma", "trotter", "sqa_schedule")}


def _check(sampler: str, options: Mapping[str, Any], sweeps: int | None) -> dict[str, Any]:
    """OpenJij's keyword arguments from *options*, each checked (one clear message per problem), and *sweeps*.

    *sweeps* (already checked by :func:`~nonoqubo.solvers.samplers.check_options`) becomes
    ``num_sweeps``.
    """
    allowed = OPTIONS[sampler]
    given = {k: v for k, v in options.items() if v is not None}
    for key in given:
        if key not in allowed:
            able = [name for name, opts in OPTIONS.items() if key in opts]
            where = f"; it belongs to {', '.join(able)}" if able else ""
            raise SolverError(f"--{key.replace('_', '-')} is not an option of the {sampler} sampler{where}")
    for key in ("beta_min", "beta_max", "beta", "gamma"):
        if key in given:
            value = float(given[key])
            if not math.isfinite(value) or value <= 0:
                raise SolverError(f"--{key.replace('_', '-')} must be a positive number, not {given[key]!r}")
            given[key] = value
    if "beta_min" in given and "beta_max" in given and given["beta_min"] >= given["beta_max"]:
        raise SolverError(f"--beta-min ({given['beta_min']}) must be below --beta-max ({given['beta_max']})")
    if "trotter" in given:
        if isinstance(given["trotter"], bool) or int(given["trotter"]) != given["trotter"] or given["trotter"] < 2:
            raise SolverError(f"--trotter must be an integer of at least 2, not {given['trotter']!r}")
        given["trotter"] = int(given["trotter"])
    if "sqa_schedule" in given:
        if sweeps is not None:
            raise SolverError("--sqa-schedule is the whole schedule (its rows' sweeps): leave out --sweeps")
        given["schedule"] = read_sqa_schedule(str(given.pop("sqa_schedule")))
    if sweeps is not None:
        given["num_sweeps"] = int(sweeps)
    return given


def check_schedule(sampler: str, options: Mapping[str, Any] | None, sweeps: int | None) -> None:
    """Refuse a bad schedule option of OpenJij's *sampler* (one line), without running anything."""
    _check(sampler, dict(options or {}), sweeps)


def sample(
    qubo: Qubo,
    sampler: str = "openjij-sa",
    *,
    reads: int = 10,
    seed: int | None = None,
    sweeps: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> SampleBatch:
    """Sample *qubo* with OpenJij's SA or SQA sampler.

    *reads*, *seed* and *sweeps* are taken as :func:`~nonoqubo.solvers.samplers.check_options`
    passed them (call :func:`nonoqubo.solvers.sampling.sample` to have them checked); the
    schedule *options* are checked here.

    Args:
        qubo: the model.
        sampler: ``"openjij-sa"`` or ``"openjij-sqa"``.
        reads: number of samples.
        seed: random seed, for repeatable runs.
        sweeps: Monte Carlo sweeps per read.
        options: schedule options of the sampler (see :data:`OPTIONS`); None values are left out.

    Returns:
        The samples in the model's variable order, OpenJij's energies attached.

    Raises:
        MissingDependency: openjij is not installed.
        SolverError: an unknown sampler, an option of the other sampler, or a bad schedule value.
    """
    if sampler not in SAMPLERS:
        raise SolverError(f"unknown OpenJij sampler {sampler!r}; choose one of {', '.join(SAMPLERS)}")
    kwargs = _check(sampler, dict(options or {}), sweeps)
    if qubo.num_vars == 0:
        raise SolverError("the model has no variables: nothing for the sampler to do")
    try:
        import openjij
    except ImportError:
        raise MissingDependency("openjij", "openjij", f"the '{sampler}' sampler") from None
    solver, bqm = getattr(openjij, SAMPLERS[sampler])(), index_bqm(qubo)
    if seed is None:  # one call: OpenJij draws every read's seed itself
        results = [solver.sample(bqm, num_reads=int(reads), **kwargs)]
    else:  # OpenJij gives every read of a call the same seed (the same read): one call per read
        results = [solver.sample(bqm, num_reads=1, seed=(int(seed) + r) % SEED_LIMIT, **kwargs) for r in range(reads)]
    import dimod

    merged = results[0] if len(results) == 1 else dimod.concatenate(results)  # Response is a SampleSet
    batch = samples_from(merged, qubo.labels, spin=False, source=f"{sampler} sampler")
    times = [t for r in results for t in (r.info.get("list_exec_times") or [])]
    if len(times) == reads:  # OpenJij times in microseconds: list_exec_times per read
        batch.extra[READ_SECONDS] = [float(t) / 1e6 for t in times]
    info = dict(results[0].info)
    if len(results) > 1 and all(isinstance(r.info.get("sampling_time"), (int, float)) for r in results):
        info["sampling_time"] = sum(r.info["sampling_time"] for r in results)
    batch.extra[SAMPLER_INFO] = json_safe({k: v for k, v in info.items() if k not in ("system", "list_exec_times")})
    return batch


def runner(sampler: str):
    """The run function of OpenJij's sampler *sampler* in the sampler table (all reads in one call; one call
    per read with a seed, see the seed trap above)."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        batch = sample(qubo, sampler, reads=opts.reads, seed=opts.seed, sweeps=opts.sweeps, options=opts.schedule)
        tick(opts.reads, float(np.min(batch.energies)) if batch.energies is not None else float("nan"))
        return batch

    return run
