"""Solve a puzzle locally: build the QUBO, sample it, decode the samples.

Samplers live in one table, :data:`SAMPLER_TABLE`: each entry names its
package, the options it takes beyond ``reads`` and ``seed``, and the function
that runs it.  A new sampler is one more entry.  Each is imported only when
chosen, with an install hint when missing:

=========  ====================================================  ==========================
name       what                                                  package
=========  ====================================================  ==========================
``sa``     simulated annealing (``SimulatedAnnealingSampler``)   dwave-samplers
``tabu``   tabu search (``TabuSampler``)                         dwave-samplers
``exact``  every assignment (``dimod.ExactSolver``); small only  dimod
``qbpp``   QUBO++ ``EasySolver``                                 pyqbpp
=========  ====================================================  ==========================

Every option is checked before anything runs (:meth:`SampleOptions.check`):
``reads`` at least 1, ``seed`` in ``0 .. 2**32 - 1``, ``sweeps`` a positive
whole number (``sa`` only), ``time_limit`` a positive number of seconds
(``tabu``, ``qbpp``); an option the chosen sampler does not take is refused
rather than ignored.

``sa``, ``tabu`` and ``qbpp`` run one read per call, read ``r`` with seed
``seed + r``, so a progress display can count reads and the best energy so
far, and the same seed gives the same samples on a terminal or in a pipe.

``openjij-sa`` and ``openjij-sqa`` are OpenJij's simulated annealing and
simulated *quantum* annealing (package openjij), with their schedule options
(``options``): see :mod:`nonoqubo.solvers.openjij`.

``exact`` enumerates ``2**N`` states, so it refuses more than
:data:`EXACT_LIMIT` variables.  pyqbpp without a licence allows 100 variables
per process, counted cumulatively, and *aborts the interpreter* past that: it
is run in a child process (``python -m nonoqubo.solvers.sampling --qbpp-worker``), and a
model over :data:`QBPP_LIMIT` variables is refused before anything is started.

With ``presolve=True`` the variables line logic decides are fixed first
(:func:`nonoqubo.logic.presolve.presolve_qubo`) and only the rest is sampled; the
decoded samples, and :func:`sampleset_document`, are completed with the fixed
values, so they read as samples of the full model.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> result = solve(Puzzle.from_picture(["#.", "##"]), "exact")
    >>> result.best.valid, result.best.picture
    (True, ('#.', '##'))
    >>> SampleOptions(reads=0).check("sa")
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --reads must be at least 1, not 0
"""

from __future__ import annotations

import importlib.util
import json
import math
import subprocess
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..model.build import build
from ..answers.decode import Analysis, Decoder, Report, select
from ..errors import MissingDependency, SolverError
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..samples import SampleBatch, samples_from

__all__ = ["EXACT_LIMIT", "QBPP_LIMIT", "SAMPLERS", "SAMPLER_TABLE", "SampleOptions", "SamplerSpec",
           "SolveResult", "sample", "sampleset_document", "solve"]

#: dimod.ExactSolver enumerates 2**N states
EXACT_LIMIT = 24
#: pyqbpp's unlicensed variable limit (per process, cumulative)
QBPP_LIMIT = 100
#: seeds are unsigned 32-bit integers (dwave-samplers, QUBO++)
SEED_LIMIT = 2**32
_RESULT = "NONOQUBO-RESULT "

#: ``tick(reads_done, energy_of_that_read)``: called after every read
Tick = Callable[[int, float], None]


@dataclass(frozen=True)
class SampleOptions:
    """What a sampler is asked to do; :meth:`check` refuses bad values before anything runs.

    Attributes:
        reads: number of samples.
        seed: random seed (read ``r`` uses ``seed + r``), for repeatable runs.
        sweeps: annealing sweeps per read (``sa``).
        time_limit: seconds per read (``tabu``, ``qbpp``).
        schedule: the OpenJij samplers' schedule options (``beta_min``, ``beta_max``;
            ``beta``, ``gamma``, ``trotter``); None values count as not given.
    """

    reads: int = 10
    seed: int | None = None
    sweeps: int | None = None
    time_limit: float | None = None
    schedule: Mapping[str, Any] | None = None

    def check(self, sampler: str) -> None:
        """Raise :class:`SolverError` (one line, naming the option) for a value *sampler* cannot take."""
        spec = sampler_spec(sampler)
        if isinstance(self.reads, bool) or not isinstance(self.reads, int) or self.reads < 1:
            raise SolverError(f"--reads must be at least 1, not {self.reads}")
        if self.seed is not None and (isinstance(self.seed, bool) or not isinstance(self.seed, int)
                                      or not 0 <= self.seed < SEED_LIMIT):
            raise SolverError(f"--seed must be a whole number from 0 to {SEED_LIMIT - 1}, not {self.seed}")
        given = {"sweeps": self.sweeps, "time_limit": self.time_limit}
        for option, value in given.items():
            if value is not None and option not in spec.takes:
                flag = "--" + option.replace("_", "-")
                able = ", ".join(s.name for s in SAMPLER_TABLE.values() if option in s.takes) or "none"
                raise SolverError(f"{flag} does not apply to the {sampler} sampler (it applies to: {able})")
        given_schedule = sorted(k for k, v in (self.schedule or {}).items() if v is not None)
        if given_schedule and "schedule" not in spec.takes:
            able = ", ".join(s.name for s in SAMPLER_TABLE.values() if "schedule" in s.takes)
            raise SolverError(f"--{given_schedule[0].replace('_', '-')} is an option of the "
                              f"OpenJij samplers ({able}), not of {sampler}")
        if self.sweeps is not None and (isinstance(self.sweeps, bool) or not isinstance(self.sweeps, int)
                                        or self.sweeps < 1):
            raise SolverError(f"--sweeps must be a whole number of at least 1, not {self.sweeps}")
        if self.time_limit is not None and not (math.isfinite(self.time_limit) and self.time_limit > 0):
            raise SolverError(f"--time-limit must be a positive number of seconds, not {self.time_limit}")

    def seed_of(self, read: int) -> int | None:
        """The seed of read number *read* (0-based)."""
        return None if self.seed is None else (self.seed + read) % SEED_LIMIT


@dataclass(frozen=True)
class SamplerSpec:
    """One entry of :data:`SAMPLER_TABLE`.

    Attributes:
        name: what ``--sampler`` takes.
        summary: one line for ``solve --help``.
        takes: the options it takes beyond ``reads`` and ``seed`` (``"sweeps"``, ``"time_limit"``,
            ``"schedule"``).
        run: ``run(qubo, options, tick) -> SampleBatch``; calls ``tick`` after every read.
    """

    name: str
    summary: str
    takes: frozenset[str]
    run: Callable[[Qubo, SampleOptions, Tick], SampleBatch]


@dataclass
class SolveResult:
    """Samples of a local solver, decoded.

    Attributes:
        puzzle, qubo: what was solved (``qubo`` is the presolved model with ``presolve``).
        batch: the samples (in ``qubo``'s variable order).
        analysis: the vectorised decode of every sample.
        decoder: the decoder (for more reports).
        best: the report of the lowest-energy sample.
    """

    puzzle: Puzzle
    qubo: Qubo
    batch: SampleBatch
    analysis: Analysis
    decoder: Decoder
    best: Report

    @property
    def num_valid(self) -> int:
        return int(self.analysis.valid.sum())


def _bqm(qubo: Qubo) -> Any:
    import dimod

    # integer labels 0..N-1: the fast path; samples_from maps them back by position
    return dimod.BinaryQuadraticModel.from_numpy_vectors(
        qubo.linear, (qubo.row, qubo.col, qubo.quad), int(qubo.offset), dimod.BINARY
    )


def _dwave(sampler: str, cls: str, option_names: dict[str, Callable[[Any], tuple[str, Any]]]):
    """A run function for a dwave-samplers sampler *cls*, one read per call."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        try:
            from dwave import samplers
        except ImportError:
            raise MissingDependency("dwave-samplers", "solvers", f"the '{sampler}' sampler") from None
        import dimod

        solver = getattr(samplers, cls)()
        bqm = _bqm(qubo)
        kwargs = dict(convert(getattr(opts, name)) for name, convert in option_names.items()
                      if getattr(opts, name) is not None)
        parts = []
        for r in range(opts.reads):
            part = solver.sample(bqm, num_reads=1, seed=opts.seed_of(r), **kwargs)
            parts.append(part)
            tick(r + 1, float(part.record.energy.min()))
        return samples_from(dimod.concatenate(parts), qubo.labels, spin=False, source=f"{sampler} sampler")

    return run


def _run_exact(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    n = qubo.num_vars
    if n > EXACT_LIMIT:
        raise SolverError(
            f"the exact solver enumerates 2^N states; this model has {n} variables "
            f"(limit {EXACT_LIMIT}); use --sampler sa or tabu"
        )
    import dimod

    result = dimod.ExactSolver().sample(_bqm(qubo))
    tick(1, float(result.record.energy.min()))
    return samples_from(result, qubo.labels, spin=False, source="exact solver")


def _run_qbpp(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
    n = qubo.num_vars
    if importlib.util.find_spec("pyqbpp") is None:
        raise MissingDependency("pyqbpp", "qbpp", "the 'qbpp' sampler (QUBO++ EasySolver)")
    if n > QBPP_LIMIT:
        raise SolverError(
            f"pyqbpp without a licence takes at most {QBPP_LIMIT} variables and this model has {n}; "
            "use --sampler sa or tabu"
        )
    job = {
        "n": n,
        "linear": qubo.linear.tolist(),
        "quadratic": np.stack((qubo.row, qubo.col, qubo.quad), axis=1).tolist(),
        "offset": int(qubo.offset),
        "seed": None,
        "time_limit": 1.0 if opts.time_limit is None else float(opts.time_limit),
    }
    bits, energies = [], []
    for r in range(opts.reads):
        job["seed"] = opts.seed_of(r)
        proc = subprocess.run(
            [sys.executable, "-m", "nonoqubo.solvers.sampling", "--qbpp-worker"],
            input=json.dumps(job), capture_output=True, text=True, timeout=120 + 2 * job["time_limit"],
        )
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(_RESULT)]
        if proc.returncode != 0 or not lines:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SolverError(f"pyqbpp EasySolver failed (exit {proc.returncode}): {tail[0]}")
        out = json.loads(lines[-1][len(_RESULT):])
        bits.append(out["bits"])
        energies.append(out["energy"])
        tick(r + 1, float(out["energy"]))
    batch = samples_from(np.array(bits, dtype=np.int8), qubo.labels, spin=False, source="qbpp EasySolver")
    batch.energies = np.array(energies, dtype=np.float64)
    return batch


def _openjij(sampler: str):
    """A run function for OpenJij's sampler *sampler* (all reads in one call)."""

    def run(qubo: Qubo, opts: SampleOptions, tick: Tick) -> SampleBatch:
        from .openjij import sample as sample_openjij

        batch = sample_openjij(qubo, sampler, reads=opts.reads, seed=opts.seed, sweeps=opts.sweeps,
                               options=opts.schedule)
        tick(opts.reads, float(np.min(batch.energies)) if batch.energies is not None else float("nan"))
        return batch

    return run


#: the local samplers, in the order `solve --help` lists them; a new sampler is one entry
SAMPLER_TABLE: dict[str, SamplerSpec] = {
    spec.name: spec for spec in (
        SamplerSpec("sa", "simulated annealing (dwave-samplers; the default)", frozenset({"sweeps"}),
                    _dwave("sa", "SimulatedAnnealingSampler", {"sweeps": lambda v: ("num_sweeps", v)})),
        SamplerSpec("tabu", "tabu search (dwave-samplers)", frozenset({"time_limit"}),
                    _dwave("tabu", "TabuSampler", {"time_limit": lambda v: ("timeout", max(1, round(v * 1000)))})),
        SamplerSpec("exact", f"every assignment (dimod.ExactSolver); at most {EXACT_LIMIT} variables",
                    frozenset(), _run_exact),
        SamplerSpec("qbpp", f"QUBO++ EasySolver (pyqbpp); at most {QBPP_LIMIT} variables without a licence",
                    frozenset({"time_limit"}), _run_qbpp),
        SamplerSpec("openjij-sa", "OpenJij simulated annealing (openjij; --beta-min, --beta-max)", frozenset({"sweeps", "schedule"}),
                    _openjij("openjij-sa")),
        SamplerSpec("openjij-sqa", "OpenJij simulated quantum annealing (openjij; --beta, --gamma, --trotter)",
                    frozenset({"sweeps", "schedule"}), _openjij("openjij-sqa")),
    )
}
SAMPLERS = tuple(SAMPLER_TABLE)


def sampler_spec(name: str) -> SamplerSpec:
    """The table entry of sampler *name*."""
    try:
        return SAMPLER_TABLE[name]
    except KeyError:
        raise SolverError(f"unknown sampler {name!r}; choose one of {', '.join(SAMPLERS)}") from None


def _no_tick(done: int, energy: float) -> None:
    return None


def sample(
    qubo: Qubo,
    sampler: str = "sa",
    *,
    reads: int = 10,
    seed: int | None = None,
    sweeps: int | None = None,
    time_limit: float | None = None,
    options: Mapping[str, Any] | None = None,
    tick: Tick | None = None,
) -> SampleBatch:
    """Sample *qubo* with a local sampler.

    Args:
        qubo: the model.
        sampler: one of :data:`SAMPLERS`.
        reads: number of samples (``exact`` gives every state once, whatever *reads*).
        seed: random seed, for repeatable runs (read ``r`` uses ``seed + r``).
        sweeps: annealing sweeps per read (``sa``; default dwave-samplers' 1000).
        time_limit: seconds per read (``tabu``; ``qbpp``, default 1).
        options: the OpenJij samplers' schedule options (``beta_min``, ``beta_max``;
            ``beta``, ``gamma``, ``trotter``: see :mod:`nonoqubo.solvers.openjij`).
        tick: called as ``tick(reads_done, energy)`` after every read (progress display).

    Returns:
        The samples in the model's variable order, energies attached.  A model
        with no variables left gives its one (empty) sample without running anything.

    Raises:
        MissingDependency: the sampler's package is not installed.
        SolverError: a bad option, a model too large for ``exact`` or ``qbpp``, or an unknown sampler.
    """
    opts = SampleOptions(reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, schedule=options)
    opts.check(sampler)
    spec = sampler_spec(sampler)
    if qubo.num_vars == 0:
        return SampleBatch(bits=np.zeros((1, 0), np.int8), labels=list(qubo.labels),
                           energies=np.array([float(qubo.offset)]), source=f"{sampler} sampler (nothing to sample)")
    return spec.run(qubo, opts, tick or _no_tick)


def _qbpp_worker() -> None:  # pragma: no cover - runs in a child process
    """Child process: read a job on stdin, run EasySolver, print the bits."""
    import pyqbpp as qbpp

    job = json.load(sys.stdin)
    n = job["n"]
    x = qbpp.var("x", shape=n)
    f: Any = job["offset"]
    for i, a in enumerate(job["linear"]):
        if a:
            f = f + a * x[i]
    for i, j, b in job["quadratic"]:
        f = f + b * x[i] * x[j]
    f = qbpp.simplify_as_binary(qbpp.Expr(f))
    params: dict[str, Any] = {"time_limit": job["time_limit"], "target_energy": 0}
    if job.get("seed") is not None:
        params["seed"] = int(job["seed"])
    sol = qbpp.EasySolver(f).search(**params)
    bits = [int(sol.get(x[i])) for i in range(n)]
    print(_RESULT + json.dumps({"bits": bits, "energy": int(sol.energy)}), flush=True)


def solve(
    puzzle: Puzzle,
    sampler: str = "sa",
    *,
    reads: int = 10,
    seed: int | None = None,
    sweeps: int | None = None,
    time_limit: float | None = None,
    presolve: bool = False,
    options: Mapping[str, Any] | None = None,
    tick: Tick | None = None,
) -> SolveResult:
    """Build *puzzle*'s QUBO, sample it locally and decode every sample.

    Args: see :func:`sample`; *presolve* fixes what line logic decides before sampling.

    Returns:
        A :class:`SolveResult`; ``best`` is the report of the lowest-energy sample.

    Raises:
        SolverError: a bad option (checked before the model is built).
    """
    SampleOptions(reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, schedule=options).check(sampler)
    qubo = build(puzzle)
    if presolve:
        from ..logic.presolve import presolve_qubo

        qubo = presolve_qubo(puzzle, qubo)
    batch = sample(qubo, sampler, reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, options=options,
                   tick=tick)
    decoder = Decoder(qubo)
    analysis = decoder.analyse(batch.bits)
    best = decoder.reports(analysis, select(analysis, "best"), batch)[0]
    return SolveResult(puzzle, qubo, batch, analysis, decoder, best)


def sampleset_document(result: SolveResult) -> dict[str, Any]:
    """The samples of *result* as a dimod SampleSet (``to_serializable()``) of the full model.

    Variables a presolve fixed are filled in, so the document decodes against
    the clue file or any full model export (``nonoqubo decode logo.qubo samples.json``).
    """
    import dimod

    full = result.decoder.complete(result.batch.bits)
    sampleset = dimod.SampleSet.from_samples(
        (full, list(result.decoder.full_labels)), dimod.BINARY,
        energy=result.analysis.energy.astype(np.int64),
        info={"source": result.batch.source, "puzzle": result.puzzle.name,
              "presolved_fixed": len(result.decoder.fixed)},
    )
    return sampleset.to_serializable()


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--qbpp-worker"]:
        _qbpp_worker()
    else:
        print("usage: python -m nonoqubo.solvers.sampling --qbpp-worker < job.json", file=sys.stderr)
        sys.exit(2)
