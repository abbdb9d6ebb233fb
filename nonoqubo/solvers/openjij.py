"""OpenJij as a local sampler: simulated annealing and simulated *quantum* annealing.

OpenJij (https://github.com/OpenJij/OpenJij, the ``openjij`` package) anneals
Ising models in C++.  Two of its samplers serve ``solve``:

================  ==============  ==========================================================
name              OpenJij class   schedule options (OpenJij's defaults when not given)
================  ==============  ==========================================================
``openjij-sa``    ``SASampler``   ``sweeps`` (1000), ``beta_min``, ``beta_max`` (set from the
                                  model's biases): the inverse temperature rises
                                  geometrically from ``beta_min`` to ``beta_max``; and
                                  sa's knobs (:func:`knob_arguments`): ``beta_range``,
                                  ``beta_schedule``, ``sweeps_per_beta``
``openjij-sqa``   ``SQASampler``  ``sweeps`` (1000), ``beta`` (5.0, inverse temperature),
                                  ``gamma`` (1.0, initial transverse field, lowered to 0),
                                  ``trotter`` (4, Trotter slices of the path integral)
================  ==============  ==========================================================

Both take a warm start (``initial_states``: :attr:`~nonoqubo.solvers.base.SampleOptions.states`,
OpenJij's ``initial_state``, one call per read).  SQA starts every Trotter slice from it, and a
schedule that starts at ``s = 0`` (the default: all transverse field) randomises it within the first
sweeps; only an ``sqa_schedule`` that starts near ``s = 1`` keeps it.

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
from .schedule import read_betas, read_sqa_schedule

__all__ = ["DEFAULT_SWEEPS", "OPTIONS", "SAMPLERS", "check_knobs", "check_schedule", "knob_arguments", "runner",
           "sample"]

#: OpenJij's number of sweeps when none is given (``num_sweeps``)
DEFAULT_SWEEPS = 1000

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


def knob_arguments(opts: SampleOptions) -> dict[str, Any]:
    """``openjij-sa``'s keyword arguments for the annealing knobs of *opts* (``sa``'s, where OpenJij has them).

    * ``beta_range`` ``(LO, HI)`` is OpenJij's ``beta_min``, ``beta_max`` (its own geometric
      schedule between them); ``--beta-min``/``--beta-max`` say the same, so both forms together
      are refused;
    * ``beta_schedule="custom"`` with its file: OpenJij's ``schedule``, ``[[beta, sweeps_per_beta], ...]``;
    * ``beta_schedule="linear"``, or ``sweeps_per_beta``: the schedule made here, ``sweeps //
      sweeps_per_beta`` betas spaced linearly (or geometrically) from LO to HI, each held
      ``sweeps_per_beta`` sweeps; OpenJij picks a range from the model only for its own geometric
      schedule, so these need both ends (``--beta-range``, or ``--beta-min`` and ``--beta-max``);
    * ``beta_schedule="geometric"`` alone is OpenJij's default.

    Returns ``{}``, or ``{"beta_min", "beta_max"}``, or ``{"schedule": [[beta, sweeps], ...]}`` (then
    no ``num_sweeps``, ``beta_min`` or ``beta_max`` may go with it).

    Raises:
        SolverError: two forms of the range, or a schedule that needs a range without one (one line).

    Examples:
        >>> knob_arguments(SampleOptions(beta_range=(0.5, 10.0)))
        {'beta_min': 0.5, 'beta_max': 10.0}
        >>> knob_arguments(SampleOptions(beta_range=(1.0, 3.0), beta_schedule="linear", sweeps=6, sweeps_per_beta=2))
        {'schedule': [[1.0, 2], [2.0, 2], [3.0, 2]]}
    """
    given = {k: v for k, v in (opts.schedule or {}).items() if v is not None}
    ends = [k for k in ("beta_min", "beta_max") if k in given]
    kind, per = opts.beta_schedule, opts.sweeps_per_beta
    if opts.beta_range is not None and ends:
        raise SolverError(f"--beta-range and --{ends[0].replace('_', '-')} say the same thing for openjij-sa; give one")
    if kind == "custom":
        if ends:
            raise SolverError(f"--beta-schedule custom FILE is the whole schedule: leave out --{ends[0].replace('_', '-')}")
        betas = read_betas(str(opts.beta_schedule_file))
        return {"schedule": [[float(b), int(per or 1)] for b in betas]}
    if opts.beta_range is not None:
        lo, hi = (float(v) for v in opts.beta_range)
    elif len(ends) == 2:
        lo, hi = float(given["beta_min"]), float(given["beta_max"])
    else:
        lo = hi = math.nan
    if kind == "linear" or per is not None:
        what = "--beta-schedule linear" if kind == "linear" else "--sweeps-per-beta"
        if math.isnan(lo):
            raise SolverError(f"openjij-sa: {what} needs the whole range, --beta-range LO,HI (OpenJij picks a range "
                              "from the model only for its own geometric schedule)")
        if not lo < hi:
            raise SolverError(f"--beta-min ({lo}) must be below --beta-max ({hi})")
        per = int(per or 1)
        count = (DEFAULT_SWEEPS if opts.sweeps is None else int(opts.sweeps)) // per
        space = np.linspace if kind == "linear" else np.geomspace
        return {"schedule": [[float(b), per] for b in space(lo, hi, count)]}
    if opts.beta_range is not None:
        return {"beta_min": lo, "beta_max": hi}
    return {}


def check_knobs(opts: SampleOptions) -> None:
    """``openjij-sa``'s entry check: its knobs make a schedule (:func:`knob_arguments`), one line otherwise."""
    knob_arguments(opts)


def sample(
    qubo: Qubo,
    sampler: str = "openjij-sa",
    *,
    reads: int = 10,
    seed: int | None = None,
    sweeps: int | None = None,
    schedule: Mapping[str, Any] | None = None,
    knobs: Mapping[str, Any] | None = None,
    states: np.ndarray | None = None,
) -> SampleBatch:
    """Sample *qubo* with OpenJij's SA or SQA sampler.

    *reads*, *seed* and *sweeps* are taken as :func:`~nonoqubo.solvers.samplers.check_options`
    passed them (call :func:`nonoqubo.solvers.sampling.sample` to have them checked); the
    *schedule* options are checked here.

    Args:
        qubo: the model.
        sampler: ``"openjij-sa"`` or ``"openjij-sqa"``.
        reads: number of samples.
        seed: random seed, for repeatable runs.
        sweeps: Monte Carlo sweeps per read.
        schedule: schedule options of the sampler (see :data:`OPTIONS`); None values are left out.
        knobs: ``openjij-sa``'s keyword arguments from the annealing knobs (:func:`knob_arguments`),
            which replace ``beta_min``/``beta_max`` and, with a ``schedule``, ``num_sweeps``.
        states: warm starts, ``(reads, N)`` 0/1 in the model's order: read ``r`` starts from
            ``states[r]`` (OpenJij's ``initial_state``; SQA starts every Trotter slice there).

    Returns:
        The samples in the model's variable order, OpenJij's energies attached.

    Raises:
        MissingDependency: openjij is not installed.
        SolverError: an unknown sampler, an option of the other sampler, or a bad schedule value.
    """
    if sampler not in SAMPLERS:
        raise SolverError(f"unknown OpenJij sampler {sampler!r}; choose one of {', '.join(SAMPLERS)}")
    kwargs = _check(sampler, dict(schedule or {}), sweeps)
    if knobs:
        kwargs.update(knobs)
        if "schedule" in knobs:
            for key in ("num_sweeps", "beta_min", "beta_max"):
                kwargs.pop(key, None)
    if qubo.num_vars == 0:
        raise SolverError("the model has no variables: nothing for the sampler to do")
    try:
        import openjij
    except ImportError:
        raise MissingDependency("openjij", "openjij", f"the '{sampler}' sampler") from None
    solver, bqm = getattr(openjij, SAMPLERS[sampler])(), index_bqm(qubo)
    if seed is None and states is None:  # one call: OpenJij draws every read's seed itself
        results = [solver.sample(bqm, num_reads=int(reads), **kwargs)]
    else:  # OpenJij gives every read of a call the same seed (the same read), and one initial state: one call per read
        results = [solver.sample(bqm, num_reads=1, seed=None if seed is None else (int(seed) + r) % SEED_LIMIT,
                                 **kwargs, **_start(states, r)) for r in range(reads)]
    import dimod

    merged = results[0] if len(results) == 1 else dimod.concatenate(results)  # Response is a SampleSet
    batch = samples_from(merged, qubo.labels, spin=False, source=f"{sampler} sampler")
    times = [t for r in results for t in _listed(r.info.get("list_exec_times"))]
    if len(times) == reads:  # OpenJij times in microseconds: list_exec_times per read
        batch.extra[READ_SECONDS] = [float(t) / 1e6 for t in times]
    info = dict(results[0].info)
    if len(results) > 1 and all(isinstance(r.info.get("sampling_time"), (int, float)) for r in results):
        info["sampling_time"] = sum(r.info["sampling_time"] for r in results)
    if "schedule" in (knobs or {}):  # what nonoqubo handed OpenJij (its info says only "custom schedule")
        betas = [row[0] for row in knobs["schedule"]]  # type: ignore[index]
        info["nonoqubo_schedule"] = {"betas": len(betas), "first_beta": betas[0], "last_beta": betas[-1],
                                     "sweeps": int(sum(row[1] for row in knobs["schedule"]))}  # type: ignore[index]
    batch.extra[SAMPLER_INFO] = json_safe({k: v for k, v in info.items() if k not in ("system", "list_exec_times")})
    return batch


def _start(states: np.ndarray | None, read: int) -> dict[str, Any]:
    """OpenJij's ``initial_state`` of read *read* (``{position: 0/1}``, the BQM's integer labels), or nothing."""
    if states is None:
        return {}
    return {"initial_state": {j: int(b) for j, b in enumerate(states[read % len(states)].tolist())}}


def runner(sampler: str, *, knobs: bool = False):
    """The run function of OpenJij's sampler *sampler* in the sampler table (all reads in one call; one call
    per read with a seed, see the seed trap above); *knobs*: it takes the annealing knobs
    (:func:`knob_arguments`: ``openjij-sa``)."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        batch = sample(qubo, sampler, reads=opts.reads, seed=opts.seed, sweeps=opts.sweeps, schedule=opts.schedule,
                       knobs=knob_arguments(opts) if knobs else None, states=opts.states)
        tick(opts.reads, float(np.min(batch.energies)) if batch.energies is not None else float("nan"))
        return batch

    return run


def _listed(value: Any) -> list[Any]:
    """OpenJij's ``list_exec_times`` as a list (a list, a NumPy array under an SQA schedule, or absent)."""
    return [] if value is None else list(value)
