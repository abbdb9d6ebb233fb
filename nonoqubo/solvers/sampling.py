"""Solve a puzzle locally: build the QUBO, sample it, decode the samples.

This module owns the two entry points, :func:`sample` (a model, one sampler of
:data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE`) and :func:`solve` (a puzzle: build,
optionally presolve, sample, decode), their result :class:`SolveResult`, and
:func:`sampleset_document`.  The samplers themselves live beside it:

=================================  =================================================  ==============
name                               what                                               module
=================================  =================================================  ==============
``sa``, ``tabu``                   simulated annealing, tabu search (dwave-samplers)  ``dwave``
``exact``                          every assignment (``dimod.ExactSolver``)           ``dwave``
``qbpp``                           QUBO++ ``EasySolver`` (pyqbpp), a child process    ``qbpp``
``openjij-sa``, ``openjij-sqa``    OpenJij's SA and simulated *quantum* annealing      ``openjij``
``cpsat``                          CP-SAT: the puzzle solved exactly (``--count``)     ``cpsat``
=================================  =================================================  ==============

Every option is checked before anything runs, in one place
(:func:`nonoqubo.solvers.samplers.check_options`).  ``sa``, ``tabu`` and ``qbpp`` run
one read per call, read ``r`` with seed ``seed + r``, so a progress display can count
reads and the best energy so far, and the same seed gives the same samples on a
terminal or in a pipe.  ``exact`` refuses more than
:data:`~nonoqubo.solvers.dwave.EXACT_LIMIT` variables, ``qbpp`` more than
:data:`~nonoqubo.solvers.qbpp.QBPP_LIMIT`.

The model is built by the library pipeline (:class:`nonoqubo.pipeline.Models`), as
``nonoqubo build`` builds it.  With ``presolve=True`` the variables line logic decides
are fixed first (:meth:`~nonoqubo.pipeline.Models.presolve`) and only the rest is sampled; the
decoded samples, and :func:`sampleset_document`, are completed with the fixed
values, so they read as samples of the full model.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> result = solve(Puzzle.from_picture(["#.", "##"]), "exact")
    >>> result.best.valid, result.best.picture
    (True, ('#.', '##'))
    >>> solve(Puzzle.from_picture(["#."]), "sa", reads=0)
    Traceback (most recent call last):
    nonoqubo.errors.SolverError: --reads must be at least 1, not 0
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..answers.decode import Analysis, Decoder, Report, select
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..pipeline import Models
from ..samples import SampleBatch
from .base import SampleOptions, Tick
from .samplers import check_options, sampler_spec

__all__ = ["SolveResult", "sample", "sampleset_document", "solve"]


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
    workers: int | None = None,
    count: int | None = None,
    qpu: Mapping[str, Any] | None = None,
) -> SampleBatch:
    """Sample *qubo* with a local sampler.

    Args:
        qubo: the model.
        sampler: one of :data:`~nonoqubo.solvers.samplers.SAMPLERS`.
        reads: number of samples (``exact`` gives every state once, whatever *reads*).
        seed: random seed, for repeatable runs (read ``r`` uses ``seed + r``).
        sweeps: annealing sweeps per read (``sa``; default dwave-samplers' 1000).
        time_limit: seconds per read (``tabu``; ``qbpp``, default 1).
        options: the OpenJij samplers' schedule options (``beta_min``, ``beta_max``;
            ``beta``, ``gamma``, ``trotter``: see :mod:`nonoqubo.solvers.openjij`).
        tick: called as ``tick(reads_done, energy)`` after every read (progress display).
        workers: search workers (``cpsat``).
        count: enumerate up to this many solutions, counted in ``batch.extra["count"]`` (``cpsat``).
        qpu: ``mock-dwave``, ``dwave``: ``{"topology", "embedding", "chain_strength"}`` (see
            :mod:`nonoqubo.solvers.qpu`).

    Returns:
        The samples in the model's variable order, energies attached.  A model
        with no variables left gives its one (empty) sample without running anything.

    Raises:
        MissingDependency: the sampler's package is not installed.
        SolverError: a bad option, a model too large for ``exact`` or ``qbpp``, or an unknown sampler.
    """
    opts = SampleOptions(reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, schedule=options,
                         workers=workers, count=count, qpu=qpu)
    check_options(opts, sampler)
    spec = sampler_spec(sampler)
    if qubo.num_vars == 0 and count is None:
        return SampleBatch(bits=np.zeros((1, 0), np.int8), labels=list(qubo.labels),
                           energies=np.array([float(qubo.offset)]), source=f"{sampler} sampler (nothing to sample)")
    return spec.run(qubo, opts, tick or _no_tick)


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
    workers: int | None = None,
    count: int | None = None,
    qpu: Mapping[str, Any] | None = None,
) -> SolveResult:
    """Build *puzzle*'s QUBO, sample it locally and decode every sample.

    Args: see :func:`sample`; *presolve* fixes what line logic decides before sampling.

    Returns:
        A :class:`SolveResult`; ``best`` is the report of the lowest-energy sample.

    Raises:
        SolverError: a bad option (checked before the model is built).
    """
    check_options(SampleOptions(reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, schedule=options,
                                workers=workers, count=count, qpu=qpu), sampler)
    models = Models.build(puzzle)
    qubo = models.presolve() if presolve else models.qubo
    batch = sample(qubo, sampler, reads=reads, seed=seed, sweeps=sweeps, time_limit=time_limit, options=options,
                   tick=tick, workers=workers, count=count, qpu=qpu)
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
              "presolved_fixed": len(result.decoder.fixed), **result.batch.extra.get("sampleset_info", {})},
        **result.batch.extra.get("sampleset_vectors", {}),  # the QPU samplers' chain_break_fraction
    )
    return sampleset.to_serializable()

