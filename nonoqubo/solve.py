"""Solve a puzzle locally: build the QUBO, sample it, decode the samples.

Samplers (each imported only when chosen; a clear message when missing):

=========  ====================================================  ==========================
name       what                                                  package
=========  ====================================================  ==========================
``sa``     simulated annealing (``SimulatedAnnealingSampler``)   dwave-samplers
``tabu``   tabu search (``TabuSampler``)                         dwave-samplers
``exact``  every assignment (``dimod.ExactSolver``); small only  dimod
``qbpp``   QUBO++ ``EasySolver``                                 pyqbpp
=========  ====================================================  ==========================

``openjij-sa`` and ``openjij-sqa`` are OpenJij's simulated annealing and
simulated *quantum* annealing (package openjij), with their schedule options
(``options``): see :mod:`nonoqubo.openjij_sampler`.

``exact`` enumerates ``2**N`` states, so it refuses more than
:data:`EXACT_LIMIT` variables.  pyqbpp without a licence allows 100 variables
per process, counted cumulatively, and *aborts the interpreter* past that: it
is run in a child process (``python -m nonoqubo.solve --qbpp-worker``), and a
model over :data:`QBPP_LIMIT` variables is refused before anything is started.

Examples:
    >>> from nonoqubo.puzzle import Puzzle
    >>> result = solve(Puzzle.from_picture(["#.", "##"]), "exact")
    >>> result.best.valid, result.best.picture
    (True, ('#.', '##'))
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from .build import build
from .decode import Analysis, Decoder, Report, select
from .errors import MissingDependency, NonoquboError
from .puzzle import Puzzle
from .qubo import Qubo
from .samples import SampleBatch, samples_from

__all__ = ["EXACT_LIMIT", "QBPP_LIMIT", "SAMPLERS", "SolveResult", "sample", "solve"]

SAMPLERS = ("sa", "tabu", "exact", "qbpp", "openjij-sa", "openjij-sqa")
#: dimod.ExactSolver enumerates 2**N states
EXACT_LIMIT = 24
#: pyqbpp's unlicensed variable limit (per process, cumulative)
QBPP_LIMIT = 100
_RESULT = "NONOQUBO-RESULT "


class SolverError(NonoquboError, RuntimeError):
    """A sampler cannot take this model, or failed."""


@dataclass
class SolveResult:
    """Samples of a local solver, decoded.

    Attributes:
        puzzle, qubo: what was solved.
        batch: the samples (model order = full layout order).
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


def sample(
    qubo: Qubo,
    sampler: str = "sa",
    *,
    reads: int = 10,
    seed: int | None = None,
    sweeps: int | None = None,
    time_limit: float | None = None,
    options: Mapping[str, Any] | None = None,
) -> SampleBatch:
    """Sample *qubo* with a local sampler.

    Args:
        qubo: the model.
        sampler: one of :data:`SAMPLERS`.
        reads: number of samples (``sa``, ``tabu``; ``qbpp`` runs once per read).
        seed: random seed, for repeatable runs.
        sweeps: annealing sweeps per read (``sa``; default dwave-samplers' 1000).
        time_limit: seconds (``tabu`` per read, ``qbpp`` per run).
        options: the OpenJij samplers' schedule options (``beta_min``, ``beta_max``;
            ``beta``, ``gamma``, ``trotter``: see :mod:`nonoqubo.openjij_sampler`).

    Returns:
        The samples in the model's variable order, energies attached.

    Raises:
        MissingDependency: the sampler's package is not installed.
        SolverError: the model is too large for ``exact`` or ``qbpp``, or an unknown sampler.
    """
    n = qubo.num_vars
    if reads < 1:
        raise SolverError(f"--reads must be at least 1, not {reads}")
    given = sorted(k for k, v in (options or {}).items() if v is not None)
    if given and not sampler.startswith("openjij-"):
        raise SolverError(f"--{given[0].replace('_', '-')} is an option of the OpenJij samplers "
                          f"(openjij-sa, openjij-sqa), not of {sampler}")
    if sampler in ("sa", "tabu"):
        try:
            from dwave.samplers import SimulatedAnnealingSampler, TabuSampler
        except ImportError:
            raise MissingDependency("dwave-samplers", "solvers", f"the '{sampler}' sampler") from None
        if sampler == "sa":
            kwargs: dict[str, Any] = {"num_reads": reads, "seed": seed}
            if sweeps is not None:
                kwargs["num_sweeps"] = sweeps
            result = SimulatedAnnealingSampler().sample(_bqm(qubo), **kwargs)
        else:
            kwargs = {"num_reads": reads, "seed": seed}
            if time_limit is not None:
                kwargs["timeout"] = int(time_limit * 1000)
            result = TabuSampler().sample(_bqm(qubo), **kwargs)
        return samples_from(result, qubo.labels, spin=False, source=f"{sampler} sampler")
    if sampler == "exact":
        if n > EXACT_LIMIT:
            raise SolverError(
                f"the exact solver enumerates 2^N states; this model has {n} variables "
                f"(limit {EXACT_LIMIT}); use --sampler sa or tabu"
            )
        import dimod

        result = dimod.ExactSolver().sample(_bqm(qubo))
        return samples_from(result, qubo.labels, spin=False, source="exact solver")
    if sampler.startswith("openjij-"):
        from .openjij_sampler import sample as sample_openjij

        return sample_openjij(qubo, sampler, reads=reads, seed=seed, sweeps=sweeps, options=options)
    if sampler == "qbpp":
        return _sample_qbpp(qubo, reads=reads, seed=seed, time_limit=time_limit)
    raise SolverError(f"unknown sampler {sampler!r}; choose one of {', '.join(SAMPLERS)}")


def _sample_qbpp(qubo: Qubo, *, reads: int, seed: int | None, time_limit: float | None) -> SampleBatch:
    n = qubo.num_vars
    if importlib.util.find_spec("pyqbpp") is None:
        raise MissingDependency("pyqbpp", "qbpp", "the 'qbpp' sampler (QUBO++ EasySolver)")
    if n > QBPP_LIMIT:
        raise SolverError(
            f"pyqbpp without a licence takes at most {QBPP_LIMIT} variables and this model has {n}; "
            "use --sampler sa or tabu"
        )
    if n == 0:
        raise SolverError("the model has no variables: nothing for the solver to do")
    job = {
        "n": n,
        "linear": qubo.linear.tolist(),
        "quadratic": np.stack((qubo.row, qubo.col, qubo.quad), axis=1).tolist(),
        "offset": int(qubo.offset),
        "seed": seed,
        "time_limit": 1.0 if time_limit is None else float(time_limit),
    }
    bits, energies = [], []
    for r in range(reads):
        job["seed"] = None if seed is None else seed + r
        proc = subprocess.run(
            [sys.executable, "-m", "nonoqubo.solve", "--qbpp-worker"],
            input=json.dumps(job), capture_output=True, text=True, timeout=120 + 2 * job["time_limit"],
        )
        lines = [ln for ln in proc.stdout.splitlines() if ln.startswith(_RESULT)]
        if proc.returncode != 0 or not lines:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:] or ["no output"]
            raise SolverError(f"pyqbpp EasySolver failed (exit {proc.returncode}): {tail[0]}")
        out = json.loads(lines[-1][len(_RESULT):])
        bits.append(out["bits"])
        energies.append(out["energy"])
    batch = samples_from(np.array(bits, dtype=np.int8), qubo.labels, spin=False, source="qbpp EasySolver")
    batch.energies = np.array(energies, dtype=np.float64)
    return batch


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
    options: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Build *puzzle*'s QUBO, sample it locally and decode every sample.

    Args: see :func:`sample`.

    Returns:
        A :class:`SolveResult`; ``best`` is the report of the lowest-energy sample.
    """
    qubo = build(puzzle)
    batch = sample(qubo, sampler, reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, options=options)
    decoder = Decoder(qubo)
    analysis = decoder.analyse(batch.bits)
    best = decoder.reports(analysis, select(analysis, "best"), batch)[0]
    return SolveResult(puzzle, qubo, batch, analysis, decoder, best)


if __name__ == "__main__":  # pragma: no cover
    if sys.argv[1:] == ["--qbpp-worker"]:
        _qbpp_worker()
    else:
        print("usage: python -m nonoqubo.solve --qbpp-worker < job.json", file=sys.stderr)
        sys.exit(2)
