"""Parallel tempering (``pt``) and population annealing (``pa``): many coupled copies of one anneal.

Both samplers keep, for every read, ``replicas`` copies ("replicas") of the model's state and move
all of them with the same Metropolis sweeps, in kernels compiled by numba
(:mod:`nonoqubo.solvers.metropolis`, one call a read; ``pip install "nonoqubo[tempering]"``):

* **the sweep.** The variables are visited in order; in every replica a flip is proposed and
  accepted with Metropolis' probability ``min(1, exp(-beta * dE))``.  Each replica keeps the local
  field of every variable (its bias plus its couplings to the variables set), so ``dE`` is read,
  not computed, and an accepted flip updates its neighbours' fields and the energy exactly
  (integers throughout).  The acceptance of an integer ``dE`` comes from a table per beta; a change
  whose acceptance is below ``2**-32`` is refused without a random draw, one that lowers the
  energy is accepted without one.
* **parallel tempering** (``pt``; Swendsen and Wang 1986, Hukushima and Nemoto 1996): the replicas of a
  read sit on a geometric ladder of fixed inverse temperatures from ``LO`` to ``HI``
  (``--beta-range``); after every sweep, neighbouring rungs (the even pairs, then the odd pairs on
  the next sweep) swap their states with probability ``min(1, exp((b_j - b_i) (E_j - E_i)))``.  A
  state stuck in a valley at the cold end can climb the ladder, melt, and come back down elsewhere.
  ``--sweeps`` is the number of sweeps of every replica.
* **population annealing** (``pa``; Hukushima and Iba 2003, Machta 2010): the ``replicas`` of a read
  are a population annealed together along a geometric schedule of ``sweeps / sweeps-per-beta``
  inverse temperatures from ``LO`` to ``HI``; each step to a colder ``beta`` first resamples the
  population in proportion to ``exp(-(beta' - beta) E)`` (systematic resampling, the population's size
  kept), which clones the low-energy states and drops the high ones, then sweeps it
  ``sweeps-per-beta`` times at the new ``beta``.

A read's sample is the lowest-energy state any of its replicas had after a sweep (both are
searches for the ground state here, not samplers of the Boltzmann distribution).  The default beta
range is the one dwave-samplers' ``sa`` takes from the model's biases: the hottest ``ln 2 / (largest
change one flip can make)``, the coldest ``ln 100 / (smallest nonzero coefficient)``.  The random
numbers come from one ``numpy.random.Generator`` seeded with ``--seed``: read by read, it draws the
read's random start and seeds the kernel's streams (one per replica, one for the exchanges or the
resampling), so the same seed gives the same samples, and the first reads of a run are the same
whatever ``--reads`` is.  ``--initial-states`` starts every replica of read ``r`` from state ``r``.
Each read's time is the time of its kernel call; the kernels are compiled (or loaded from numba's
cache) before the first read is timed, and the record's ``sampler_info`` says how long that took
(``kernel_load_seconds``).

Until issue 52 the sweeps were NumPy (a chromatic sweep, one sparse product per colour of the
interaction graph, for every replica of every read at once); the compiled kernels draw other random
numbers, so a seed gives other samples than it did then (the same ones on every run since).

Why not dwave-hybrid's reference workflows (``hybrid.reference.pt``, ``hybrid.reference.pa``)?  They
install and run with this dimod, but take no seed (each replica's ``FixedTemperatureSampler`` and the
swap step draw fresh randomness, and ``hybrid.Map`` runs the replicas in threads), so a run cannot be
repeated, and they call dwave-samplers once per replica per exchange; ``benchmarks/README.md`` has
the measurement.

Examples:
    >>> from nonoqubo.model.build import build
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> q = build(Puzzle.from_picture(["#.", "##"]))
    >>> batch = run_pt(q, SampleOptions(reads=3, seed=1, sweeps=50), lambda done, energy: None)
    >>> len(batch), int(q.energy(batch.bits).min()), bool((batch.energies == q.energy(batch.bits)).all())
    (3, 0, True)
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ..errors import MissingDependency, SolverError
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick

__all__ = ["DEFAULT_PA_REPLICAS", "DEFAULT_PT_REPLICAS", "DEFAULT_SWEEPS", "MEMORY_LIMIT", "NO_TARGET",
           "PA_SWEEPS_PER_BETA", "KernelModel", "check_model", "check_pa", "check_pa_model", "check_pt", "check_pt_model",
           "compiled_kernels", "default_beta_range", "geometric", "numba_version", "pa_replicas", "pt_replicas", "run_pa",
           "run_pt"]

#: sweeps of every replica when ``--sweeps`` is not given (as ``sa``'s)
DEFAULT_SWEEPS = 1000
#: ``pt``'s rungs when ``--replicas`` is not given
DEFAULT_PT_REPLICAS = 8
#: ``pa``'s population when ``--replicas`` is not given
DEFAULT_PA_REPLICAS = 32
#: ``pa``'s sweeps at each beta when ``--sweeps-per-beta`` is not given
PA_SWEEPS_PER_BETA = 10


def pt_replicas(options: SampleOptions) -> int:
    """``pt``'s rungs: ``--replicas``, default :data:`DEFAULT_PT_REPLICAS`."""
    return options.replicas or DEFAULT_PT_REPLICAS


def pa_replicas(options: SampleOptions) -> int:
    """``pa``'s population: ``--replicas``, default :data:`DEFAULT_PA_REPLICAS`."""
    return options.replicas or DEFAULT_PA_REPLICAS


def check_pt(options: SampleOptions) -> None:
    """``pt``'s own rule: a ladder of at least two rungs (``--replicas`` at least 2)."""
    if options.replicas is not None and options.replicas < 2:
        raise SolverError(f"--replicas must be at least 2 for --sampler pt (a ladder of temperatures), "
                          f"not {options.replicas}")


def check_pa(options: SampleOptions) -> None:
    """``pa``'s own rule: ``--sweeps-per-beta`` (default 10) no more than ``--sweeps`` (one beta at least)."""
    sweeps = options.sweeps or DEFAULT_SWEEPS
    per_beta = options.sweeps_per_beta or PA_SWEEPS_PER_BETA
    if per_beta > sweeps or sweeps % per_beta:
        raise SolverError(f"--sweeps ({sweeps}) must be a multiple of --sweeps-per-beta ({per_beta}"
                          f"{', the default of pa' if options.sweeps_per_beta is None else ''})")


#: the working memory the replicas of one read may take, in bytes (:func:`check_model`)
MEMORY_LIMIT = 2**30
#: bytes per variable per replica: the int8 state and int32 local field, twice (``pa`` resamples into a copy),
#: with room for int64 fields
BYTES_PER_SLOT = 18


def check_model(qubo: Qubo, options: SampleOptions, replicas_of: Callable[[SampleOptions], int]) -> None:
    """``--replicas`` whose state for *qubo* does not fit in :data:`MEMORY_LIMIT` (one read's replicas at least);
    *replicas_of* is the sampler's rule for them (:func:`pt_replicas`, :func:`pa_replicas`)."""
    replicas = replicas_of(options)
    most = MEMORY_LIMIT // max(1, BYTES_PER_SLOT * qubo.num_vars)
    if replicas > most:
        raise SolverError(f"--replicas {replicas}: the replicas of one read of this model ({qubo.num_vars} "
                          f"variables) would take {replicas * BYTES_PER_SLOT * qubo.num_vars / 2**30:.1f} GiB; "
                          f"at most {most} fit in {MEMORY_LIMIT // 2**30} GiB")


def check_pt_model(qubo: Qubo, options: SampleOptions) -> None:
    """``pt``'s model check (:func:`check_model`)."""
    check_model(qubo, options, pt_replicas)


def check_pa_model(qubo: Qubo, options: SampleOptions) -> None:
    """``pa``'s model check (:func:`check_model`)."""
    check_model(qubo, options, pa_replicas)


def default_beta_range(qubo: Qubo) -> tuple[float, float]:
    """dwave-samplers' rule for a default range: hottest ``ln 2 / max flip change``, coldest ``ln 100 / min |coefficient|``."""
    n = qubo.num_vars
    reach = np.abs(np.asarray(qubo.linear, dtype=np.float64)).copy()
    quad = np.abs(np.asarray(qubo.quad, dtype=np.float64))
    np.add.at(reach, np.asarray(qubo.row, dtype=np.int64), quad)
    np.add.at(reach, np.asarray(qubo.col, dtype=np.int64), quad)
    coefficients = np.concatenate([np.abs(np.asarray(qubo.linear, dtype=np.float64)), quad])
    nonzero = coefficients[coefficients > 0]
    if n == 0 or nonzero.size == 0:
        return 0.1, 1.0
    hot, cold = math.log(2) / float(reach.max()), math.log(100) / float(nonzero.min())
    return (hot, cold) if hot < cold else (cold / 10, cold)




def compiled_kernels(purpose: str, module: str = "metropolis") -> Any:
    """The compiled kernels of *module* (:mod:`nonoqubo.solvers.metropolis`; ``heatbath`` for ``lines``), or the
    install line naming *purpose* when numba is missing."""
    try:
        import numba  # noqa: F401
    except ImportError:
        raise MissingDependency("numba", "tempering", purpose) from None
    return importlib.import_module(f"{__package__}.{module}")


@dataclass(frozen=True)
class KernelModel:
    """The model as the compiled kernels take it (pt, pa and lines): CSR adjacency both ways, integer biases, the
    largest change of a flip."""

    indptr: np.ndarray
    indices: np.ndarray
    weights: np.ndarray  # int32 when every local field fits, else int64; so are linear's
    linear: np.ndarray
    offset: int
    reach: int  # max_i |h_i| + sum_j |J_ij|: no flip changes the energy by more

    @classmethod
    def of(cls, qubo: Qubo) -> KernelModel:
        n = qubo.num_vars
        row, col = np.asarray(qubo.row, dtype=np.int64), np.asarray(qubo.col, dtype=np.int64)
        quad = np.asarray(qubo.quad, dtype=np.int64)
        linear = np.asarray(qubo.linear, dtype=np.int64).copy()
        diagonal = row == col  # x*x = x: a diagonal term is linear
        np.add.at(linear, row[diagonal], quad[diagonal])
        row, col, quad = row[~diagonal], col[~diagonal], quad[~diagonal]
        a, b, w = np.concatenate([row, col]), np.concatenate([col, row]), np.concatenate([quad, quad])
        order = np.lexsort((b, a))
        a, b, w = a[order], b[order], w[order]
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(a, minlength=n), out=indptr[1:])
        reach_of = np.abs(linear)
        np.add.at(reach_of, a, np.abs(w))
        reach = int(reach_of.max()) if n else 0
        kind = np.int32 if reach < 2**31 else np.int64
        return cls(indptr, b.astype(np.int32), w.astype(kind), linear.astype(kind), int(qubo.offset), reach)

    def csr(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(indptr, indices, weights, linear)``: the model's arrays as every compiled kernel takes them first."""
        return self.indptr, self.indices, self.weights, self.linear


#: the target of a run that has none: no energy reaches it (pt, pa and lines)
NO_TARGET = np.iinfo(np.int64).min


def _warm(kernel: Callable[..., int], model: KernelModel, tail: tuple[Any, ...]) -> float:
    """Compile *kernel* for *model*'s types (or load it from numba's cache) on a one-variable model, before any
    read is timed; returns the seconds that took (the "first call")."""
    began = time.perf_counter()
    kind = model.weights.dtype
    kernel(np.zeros(2, dtype=np.int64), np.zeros(0, dtype=np.int32), np.zeros(0, dtype=kind), np.zeros(1, dtype=kind),
           0, *tail, np.zeros((1, 2), dtype=np.int8), np.zeros(3, dtype=np.uint64), NO_TARGET,
           np.zeros(1, dtype=np.int8), np.array([np.iinfo(np.int64).max]))
    return time.perf_counter() - began


def _runner(name: str, replicas_of: Callable[[SampleOptions], int],
            ladder: Callable[[float, float, SampleOptions, int], np.ndarray]):
    """The run function of ``pt`` or ``pa``: one compiled kernel call per read, each read timed alone."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        kernels = compiled_kernels(f"the '{name}' sampler")
        model = KernelModel.of(qubo)
        replicas = replicas_of(opts)
        lo, hi = opts.beta_range if opts.beta_range is not None else default_beta_range(qubo)
        betas = ladder(float(lo), float(hi), opts, replicas)
        if name == "pt":
            kernel = kernels.pt_read
            tail: tuple[Any, ...] = (betas, kernels.acceptance_table(betas, model.reach), opts.sweeps or DEFAULT_SWEEPS)
            warm_tail: tuple[Any, ...] = (betas[:2], kernels.acceptance_table(betas[:2], 1), 1)
        else:
            kernel = kernels.pa_read
            tail = warm_tail = (betas, opts.sweeps_per_beta or PA_SWEEPS_PER_BETA, model.reach)
            warm_tail = (betas[:1], 1, 1)
        load_seconds = _warm(kernel, model, warm_tail)
        rng = np.random.default_rng(opts.seed)
        n = qubo.num_vars
        bits = np.zeros((opts.reads, n), dtype=np.int8)
        energies = np.zeros(opts.reads, dtype=np.int64)
        seconds: list[float] = []
        sweeps_run: list[int] = []
        target = NO_TARGET if opts.target_energy is None else int(opts.target_energy)
        budget = opts.sweeps or DEFAULT_SWEEPS
        for r in range(opts.reads):
            if opts.states is None:
                state = rng.integers(0, 2, size=(n, replicas), dtype=np.int8)
            else:  # every replica of read r from its warm start
                state = np.repeat(np.asarray(opts.states[r], dtype=np.int8)[:, None], replicas, axis=1)
            streams = rng.bit_generator.random_raw(replicas + 1).astype(np.uint64)
            best = np.zeros(n, dtype=np.int8)
            best_energy = np.array([np.iinfo(np.int64).max])
            began = time.perf_counter()
            done = kernel(model.indptr, model.indices, model.weights, model.linear, model.offset, *tail,
                          np.ascontiguousarray(state), streams, target, best, best_energy)
            seconds.append(time.perf_counter() - began)
            sweeps_run.append(int(done))
            bits[r], energies[r] = best, best_energy[0]
            tick(r + 1, float(best_energy[0]))
        batch = replace(samples_from(bits, qubo.labels, spin=False, source=f"{name} sampler"), energies=energies)
        batch.extra[READ_SECONDS] = seconds
        batch.extra[SAMPLER_INFO] = {"beta_range": [float(lo), float(hi)], "betas": len(betas),
                                     "replicas": replicas, "sweeps": opts.sweeps or DEFAULT_SWEEPS,
                                     "kernel": f"numba {numba_version()}", "kernel_load_seconds": round(load_seconds, 4),
                                     "read": "the lowest energy any replica had after a sweep"}
        if opts.target_energy is not None:
            batch.extra[SAMPLER_INFO].update(target_record(opts.target_energy, energies, seconds, sweeps_run, budget))
        return batch

    return run


def target_record(target: int, energies: np.ndarray, seconds: list[float], sweeps_run: list[int],
                  budget: int) -> dict[str, Any]:
    """What a run with ``--target-energy`` records of its reads beside their times (``read_seconds``).

    ``target_seconds``: each read's time to target (None for a read that did not reach it and so ran its
    whole budget); ``sweeps_run``: the sweeps each read ran (the one reaching the target counted whole);
    ``budget_sweeps``; and ``budget_seconds``, the time of a whole read: the mean of the reads that ran
    their whole budget, or, when every read stopped early, their time per sweep times the budget.
    """
    reached = [bool(e <= target) for e in energies]
    whole = [t for t, r, s in zip(seconds, reached, sweeps_run) if not r or s >= budget]
    if whole:
        budget_seconds = float(np.mean(whole))
    else:
        rates = [t / s for t, s in zip(seconds, sweeps_run) if s > 0]
        budget_seconds = float(np.mean(rates)) * budget if rates else 0.0
    return {"target_energy": int(target), "target_seconds": [t if r else None for t, r in zip(seconds, reached)],
            "sweeps_run": list(sweeps_run), "budget_sweeps": budget, "budget_seconds": budget_seconds}


def numba_version() -> str:
    """numba's version, as a run record names the kernel."""
    import numba

    return str(numba.__version__)


def geometric(lo: float, hi: float, count: int) -> np.ndarray:
    """*count* betas from *lo* to *hi* in a geometric progression (one: *hi*)."""
    return np.geomspace(lo, hi, count) if count > 1 else np.array([hi])


run_pt = _runner("pt", pt_replicas, lambda lo, hi, opts, k: geometric(lo, hi, k))
run_pa = _runner("pa", pa_replicas, lambda lo, hi, opts, k: geometric(
    lo, hi, (opts.sweeps or DEFAULT_SWEEPS) // (opts.sweeps_per_beta or PA_SWEEPS_PER_BETA)))
