"""Solve a puzzle locally: build the QUBO, sample it, decode the samples.

This module owns the entry points, each taking one :class:`~nonoqubo.solvers.request.SolveRequest`
(or a sampler's name and the request's keywords, ``solve(p, "sa", reads=20)``):
:func:`sample` (a model, one sampler of :data:`~nonoqubo.solvers.samplers.SAMPLER_TABLE`),
:func:`prepare` (everything before sampling: the model built and presolved, the warm start
matched, the sampler's model checks) whose :meth:`Prepared.run` samples and decodes, and
:func:`solve` (the two); their result :class:`SolveResult`, the run record (:func:`run_record`)
and :func:`sampleset_document`.  ``solve``, ``solve --sweep`` and a campaign's workers
(``nonoqubo run``) all go this one way.  The samplers themselves live beside it:

=================================  =================================================  ==============
name                               what                                               module
=================================  =================================================  ==============
``sa``, ``tabu``                   simulated annealing, tabu search (dwave-samplers)  ``dwave``
``exact``                          every assignment (``dimod.ExactSolver``)           ``dwave``
``qbpp``                           QUBO++ ``EasySolver`` (pyqbpp), a child process    ``qbpp``
``openjij-sa``, ``openjij-sqa``    OpenJij's SA and simulated *quantum* annealing      ``openjij``
``pt``, ``pa``                     parallel tempering, population annealing (NumPy)   ``tempering``
``lines``                          heat-bath line moves (numba)                       ``linemoves``
``cpsat``                          CP-SAT: the puzzle solved exactly (``--count``)     ``cpsat``
=================================  =================================================  ==============

Every option is checked before anything runs, in one place
(:meth:`SolveRequest.check <nonoqubo.solvers.request.SolveRequest.check>`, the sampler table's
:func:`~nonoqubo.solvers.samplers.check_options`).  ``sa``, ``tabu`` and ``qbpp`` run
one read per call, read ``r`` with seed ``seed + r``, so a progress display can count
reads and the best energy so far, and the same seed gives the same samples on a
terminal or in a pipe.  ``exact`` refuses more than
:data:`~nonoqubo.solvers.dwave.EXACT_LIMIT` variables, ``qbpp`` more than
:data:`~nonoqubo.solvers.qbpp.QBPP_LIMIT`.

Every batch :func:`sample` returns carries the record of its run in ``batch.extra["run"]``
(:func:`run_record`), and :func:`sampleset_document` writes it, with the time of the whole
solve, into the SampleSet's ``info["nonoqubo"]``::

    {"version": 2,                            # the record's format (nonoqubo.records.RunRecord)
     "nonoqubo": "0.1.0",                     # the nonoqubo that wrote it
     "date": "2026-12-01T11:40:00Z",          # when the sampling started (UTC)
     "sampler": "sa",
     "parameters": {"reads": 10, "seed": 1, "sweeps": 1000, "time_limit": null,
                    "workers": null, "count": null,     # always; then what was given:
                    "beta_range": "0.5,10", "restarts": 4, ...,  # the knobs, the OpenJij and QPU options given, flat (SolveRequest.parameters)
                    "presolve": false},
     "sampler_reported": {"beta_range": [0.23, 5.3], ...},   # what the sampler said of itself
     "timing": {"seconds_per_run": 0.0021,    # the time of one run, for TTS (evaluate reads it)
                "time_source": "sampler timing",   # or "wall clock"
                "per_run": "mean of the sampler's per-read times",
                "read_seconds": [...],        # per read, as the sampler measured them (or null)
                "read_wall_seconds": [...],   # per read, wall clock between reads (or null)
                "wall_seconds": 0.031,        # the sampler call, all reads
                "solve_seconds": 0.052},      # build + presolve + sampling + decoding
     "model": {"encoding": "domain-wall", "weights": {"shape": 1, "order": 1, "cell": 1},
               "variables": 437, "full_variables": 437, "fixed": 0,    # model_record
               "digest": "9f2c..."},                  # the sha256 of the file solved
     "machine": {"platform": ..., "processor": ..., "cpu_count": 2, ...}}

``parameters`` are the values given (``null``: the sampler's default, which
``sampler_reported`` may show), one flat dict of plain values (:meth:`SolveRequest.parameters
<nonoqubo.solvers.request.SolveRequest.parameters>`) that
``evaluate`` groups a setting by: the OpenJij schedule options and the knobs
(:data:`~nonoqubo.solvers.base.KNOBS`: ``beta_range`` as ``"LO,HI"``, ``beta_schedule``,
``beta_schedule_file``, ``sweeps_per_beta``, ``restarts``, ``tenure``, ``initial_states``) appear
only when given.  ``seconds_per_run`` is, in this order of preference: the mean
of the sampler's own per-read times (:data:`~nonoqubo.solvers.base.READ_SECONDS`: dwave-samplers'
``sampling_ns``, OpenJij's ``list_exec_times``); the *median* of the wall-clock intervals between
reads when the sampler runs one read per call (``tabu``, ``qbpp``: the median, because the first
read also pays the one-off imports and the model's conversion); the wall time of the call divided
by the number of samples (``exact``, ``cpsat``).  ``per_run`` says which.

The model is built by the library pipeline (:class:`nonoqubo.pipeline.Models`), as
``nonoqubo build`` builds it.  With ``presolve="line"`` (or True) the variables line logic decides
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

import json
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from typing import Any

import numpy as np

from .._util.plain import json_safe
from ..inputs import open_input
from ..model.estimate import available_memory, check_fits, estimate_samples, size_text
from .._version import __version__
from ..answers.decode import Analysis, Decoder, Report, select
from ..errors import FormatError, SampleError, SolverError
from ..logic.presolve import DEFAULT_PRESOLVE
from ..model.encodings import DEFAULT
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..pipeline import Models, Step
from ..records import RunModel, RunRecord, file_digest
from ..samples import SampleBatch
from .base import READ_SECONDS, SAMPLER_INFO, SampleOptions, Tick, machine
from .dwave import SA_DEFAULT_SWEEPS
from .initial import initial_states
from .request import SolveRequest
from .samplers import SAMPLER_TIMING, WALL_CLOCK

__all__ = ["RUN", "Prepared", "SolveRequest", "SolveResult", "check_memory", "checked_models", "model_record", "models_of", "prepare",
           "read_for_solve", "request_of", "run_record", "sample", "sampleset_document", "sampleset_json", "solve"]

#: the ``batch.extra`` key of the run's record (:func:`run_record`)
RUN = "run"


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


def request_of(request: SolveRequest | str, options: Mapping[str, Any]) -> SolveRequest:
    """*request* as it is, or the :meth:`SolveRequest.of` the sampler *request* and the keywords *options* make.

    Raises:
        TypeError: keywords beside a whole request (give one or the other), or a keyword that is no option.
    """
    if isinstance(request, SolveRequest):
        if options:
            raise TypeError(f"give a SolveRequest or a sampler with its options, not both ({', '.join(options)})")
        return request
    return SolveRequest.of(request, **options)


def sample(qubo: Qubo, request: SolveRequest | str = "sa", *, tick: Tick | None = None, decoder: Decoder | None = None,
           **options: Any) -> SampleBatch:
    """Sample *qubo* as *request* asks (a :class:`SolveRequest`, or a sampler's name and the request's keywords:
    ``sample(q, "sa", reads=5, seed=1, beta_range=(0.5, 10))``; :meth:`SolveRequest.of`).

    The request is checked first (:meth:`SolveRequest.check`), then what it asks of this model (the warm start
    matched to *qubo*, the sampler's own model checks); *presolve*, *encoding* and *weights* do not apply
    (the model is given: see :func:`solve`).

    Args:
        qubo: the model.
        request: what to sample with.
        tick: called as ``tick(reads_done, energy)`` after every read (progress display).
        decoder: *qubo*'s :class:`Decoder`, when one is made already (warm starts match files with it).

    Returns:
        The samples in the model's variable order, energies attached, the run's record in
        ``batch.extra["run"]``.  A model with no variables left gives its one (empty) sample without
        running anything.

    Raises:
        MissingDependency: the sampler's package is not installed.
        SolverError: a bad option, a model too large for ``exact`` or ``qbpp``, or an unknown sampler.
        SampleError: warm-start states that are not this model's.
        TypeError: a keyword that is not an option (a typo of a knob).
    """
    request = request_of(request, options).check()
    return _sample_ready(qubo, request, _ready(qubo, request, decoder), tick)


def _ready(qubo: Qubo, request: SolveRequest, decoder: Decoder | None = None) -> SampleOptions:
    """*request*'s options (checked already) made ready for *qubo*: what needs the model, checked.

    The warm start is matched to *qubo* (:func:`~nonoqubo.solvers.initial.initial_states`: its
    states put in :attr:`~nonoqubo.solvers.base.SampleOptions.states`), and the sampler entry's
    own model check runs (:attr:`~nonoqubo.solvers.samplers.SamplerSpec.check_model`: ``tabu``'s
    tenure below the number of variables, ``mock-dwave``'s embedding file for this model and its
    parameters against the solver's properties).  Nothing is sampled.

    Raises:
        SampleError: warm-start states that are not this model's.
        SolverError, QpuParameterError, EmbeddingError: an option this model (or solver) cannot take.
    """
    opts = request.options
    check_memory(qubo, request)  # the samples and the schedule reckoned before anything is allocated
    if opts.initial_states is not None and qubo.num_vars:  # matched to the model before any sampling
        starts = request.spec.starts_per_read(opts) if request.spec.starts_per_read is not None else 1
        opts = replace(opts, states=initial_states(qubo, opts.initial_states, opts.reads * starts, opts.seed,
                                                   decoder=decoder))
    check_model = request.spec.check_model
    if check_model is not None and qubo.num_vars:
        check_model(qubo, opts)  # first: replicas that do not fit in memory are said so
    if qubo.num_vars:
        request.check_work(qubo.num_vars)  # reads x replicas x sweeps x variables: pt's and pa's work bounded
    return opts


def check_memory(qubo: Qubo, request: SolveRequest, memory: int | None = None) -> int:
    """The bytes *request*'s run on *qubo* takes beside the model (:func:`~nonoqubo.model.estimate.estimate_samples`:
    its samples, counted solutions or restarts, and its beta schedule); refused past *memory* (default: what
    this machine has available), before anything is allocated.

    Raises:
        SolverError: the run would not fit (one line: the figures, and which options to lower).
    """
    opts, spec = request.options, request.spec
    anneals = "sweeps" in spec.takes  # sa, openjij: a beta schedule, and sa's restarts are anneals kept at once
    rows = (opts.count or opts.reads) * ((opts.restarts or 1) if anneals else 1)
    schedule = (opts.sweeps or SA_DEFAULT_SWEEPS) // (opts.sweeps_per_beta or 1) if anneals else 0
    need = estimate_samples(rows, qubo.num_vars, schedule)
    limit = available_memory() if memory is None else memory
    if limit is not None and need > limit:
        asked = ", ".join(f"{flag} {value:,}" for flag, value in (("--reads", opts.reads), ("--count", opts.count),
                                                                    ("--restarts", opts.restarts), ("--sweeps", opts.sweeps))
                          if value)
        raise SolverError(f"{asked} on the model's {qubo.num_vars:,} variables would take about {size_text(need)} of "
                          f"memory, more than the {size_text(limit)} available; ask for fewer")
    return need


def _sample_ready(qubo: Qubo, request: SolveRequest, opts: SampleOptions, tick: Tick | None = None) -> SampleBatch:
    """Sample *qubo* with *opts*, *request*'s options as :func:`_ready` made them (nothing checked again); the
    run recorded."""
    spec, sampler = request.spec, request.sampler
    stamps: list[float] = []
    report = tick or _no_tick

    def timed(done: int, energy: float) -> None:
        if done == len(stamps) + 1:  # one tick per read: the moment each read ended
            stamps.append(time.perf_counter())
        report(done, energy)

    date = datetime.now(timezone.utc)
    start = time.perf_counter()
    if qubo.num_vars == 0 and opts.count is None and not spec.ground_truth:  # CP-SAT solves the clues: it says
        qubo.check_solvable(_named(qubo))  # no variables, an energy that is not 0: no solution, nothing to sample
        batch = SampleBatch(bits=np.zeros((1, 0), np.int8), labels=list(qubo.labels),
                            energies=np.array([float(qubo.offset)]), source=f"{sampler} sampler (nothing to sample)")
    else:
        batch = spec.run(qubo, opts, timed)
    wall = time.perf_counter() - start
    read_wall = [b - a for a, b in zip([start, *stamps], stamps)] if len(stamps) == len(batch) > 1 else None
    batch.extra[RUN] = run_record(request, batch, wall, read_wall, date)
    return batch


def _named(qubo: Qubo) -> str | None:
    """The puzzle as a message names it (its name, as CP-SAT's verdict does), or None when it has none."""
    return (qubo.puzzle.name if qubo.puzzle is not None else None) or None


def run_record(request: SolveRequest, batch: SampleBatch, wall: float, read_wall: list[float] | None,
               date: datetime) -> dict[str, Any]:
    """The record of one sampler call (see the module docstring): sampler, parameters, timing, machine.

    Args:
        request: what it was asked (recorded as given: :meth:`SolveRequest.parameters`).
        batch: its samples (``extra`` may hold the sampler's own per-read times and info).
        wall: the call's wall time, seconds.
        read_wall: the wall-clock seconds of every read, when the sampler ran one per call.
        date: when the call started.
    """
    own = batch.extra.get(READ_SECONDS)
    own = [float(t) for t in own] if own is not None and len(own) == len(batch) else None
    if own:
        per_run, source, how = float(np.mean(own)), SAMPLER_TIMING, "mean of the sampler's per-read times"
    elif read_wall:
        per_run, source, how = float(np.median(read_wall)), WALL_CLOCK, "median of the wall-clock time per read"
    else:
        per_run, source = wall / max(1, len(batch)), WALL_CLOCK
        how = "wall time of the whole call / samples"
    return RunRecord(request.sampler, request.parameters(), None,
                     {"seconds_per_run": per_run, "time_source": source, "per_run": how, "read_seconds": own,
                      "read_wall_seconds": read_wall, "wall_seconds": wall},
                     machine(), batch.extra.get(SAMPLER_INFO, {}), date.strftime("%Y-%m-%dT%H:%M:%SZ"),
                     __version__).to_dict()


def model_record(qubo: Qubo, full_variables: int, digest: str | None = None) -> dict[str, Any]:
    """What a run record says of the model sampled (``info["nonoqubo"]["model"]``), so a run is scored against it.

    ``evaluate`` rebuilds this model from the clues when it is handed only those, and refuses a
    model file of another encoding or weights: ``encoding`` (its name), ``weights`` (per family),
    ``variables`` (those sampled: 0 when presolve decided every one), ``full_variables`` (before
    presolve), ``fixed`` (how many presolve fixed; the samples written are completed with them) and
    ``digest``, the sha256 of the file solved (a campaign's identity of the model), when known.
    """
    return _run_model(qubo, full_variables, digest).to_dict()


def _run_model(qubo: Qubo, full_variables: int, digest: str | None) -> RunModel:
    """:func:`model_record` as the record's typed part (:class:`~nonoqubo.records.RunModel`)."""
    return RunModel(qubo.encoding.name, qubo.weights, int(qubo.num_vars), int(full_variables), len(qubo.fixed), digest)


def solve(puzzle: Puzzle | Qubo, request: SolveRequest | str = "sa", *, tick: Tick | None = None,
          source: str | None = None, **options: Any) -> SolveResult:
    """Build *puzzle*'s QUBO (or take a model read from a file), sample it locally and decode every sample.

    Args:
        puzzle: a :class:`Puzzle`, built in the request's encoding with its weights, or a :class:`Qubo`
            that carries its puzzle (a file ``nonoqubo build`` or ``suite`` wrote, read by
            :func:`~nonoqubo.inputs.load_model`), sampled as it is (its own encoding and weights).
        request: a :class:`SolveRequest`, or a sampler's name with the request's keywords as *options*
            (:meth:`SolveRequest.of`: ``solve(p, "sa", reads=20, seed=1, beta_range=(0.5, 10), presolve="probe")``).
        tick: called as ``tick(reads_done, energy)`` after every read.
        source: the file *puzzle* was read from, which a message about it names.

    The request's *presolve* fixes what line logic decides before sampling (``"probe"``: what probing
    decides too, :mod:`nonoqubo.logic.probe`); a model that is presolved already keeps its fixings and
    gains the rest.  A model that is not the QUBO of its clues (an edited offset or term) is refused
    before sampling (:class:`~nonoqubo.answers.decode.Decoder` checks it).

    Returns:
        A :class:`SolveResult`; ``best`` is the report of the lowest-energy sample.

    Raises:
        SolverError: a bad option (checked before the model is built).
        FormatError: a :class:`Qubo` that carries no clues, or a request that names another encoding or
            weights for a model file.
    """
    return prepare(puzzle, request, source=source, **options).run(tick)


@dataclass
class Prepared:
    """One :func:`solve` made ready and not yet run: the request checked, the model built (and
    presolved), the warm start matched to it, the sampler's model checks passed.

    ``solve --sweep`` prepares every setting before it runs the first, so a bad setting stops the
    sweep before anything is sampled or written; a campaign's worker prepares each task.
    :meth:`run` samples and decodes.

    Attributes:
        puzzle, models, qubo, decoder: the puzzle, its models, the model sampled and its decoder.
        request: what was asked.
        options: the request's options made ready for the model (the warm start's states matched).
        prepare_seconds: the time the preparing took (build, presolve, matching), part of ``solve_seconds``.
        digest: the sha256 of the file solved, which the run record names (None: not a file).
    """

    puzzle: Puzzle
    models: Models
    qubo: Qubo
    decoder: Decoder
    request: SolveRequest
    options: SampleOptions
    prepare_seconds: float
    digest: str | None = None

    @property
    def sampler(self) -> str:
        return self.request.sampler

    def run(self, tick: Tick | None = None, step: Step | None = None) -> SolveResult:
        """Sample the model, decode every sample: the :class:`SolveResult`.

        *step*: ``step(message)``, a context manager around a long step before sampling (the QPU
        samplers' embedding search), e.g. a status line.
        """
        start = time.perf_counter()
        options = self.options if step is None else replace(self.options, step=step)
        batch = _sample_ready(self.qubo, self.request, options, tick)
        analysis = self.decoder.analyse(batch.bits)
        best = self.decoder.reports(analysis, select(analysis, "best"), batch)[0]
        record = RunRecord.from_dict(batch.extra[RUN], "the run")
        batch.extra[RUN] = replace(record, model=_run_model(self.qubo, self.models.qubo.num_vars, self.digest),
                                   timing={**record.timing,
                                           "solve_seconds": self.prepare_seconds + time.perf_counter() - start}).to_dict()
        return SolveResult(self.puzzle, self.qubo, batch, analysis, self.decoder, best)


def read_for_solve(source: str, request: SolveRequest, *, command: str = "solve", from_format: str | None = None,
                   options: Mapping[str, Any] | None = None, force: bool = False,
                   data: bytes | None = None) -> Puzzle | Qubo:
    """What ``solve SOURCE`` samples: the puzzle of a clue file (checked to fit in memory in the request's
    encoding before it is built) or the QUBO of a model file (sampled as it is).

    Args:
        source: the file's path (or its name, with *data*).
        request: the request it is read for (its encoding sizes the memory check).
        command, from_format, options, force: as :func:`nonoqubo.inputs.open_input` takes them.
        data: the file's bytes, when they came from elsewhere (a campaign's worker is sent them).

    Raises:
        FormatError: a constrained model (no QUBO to sample), or what the reader refuses.
        ModelTooLarge: a model that would not fit in memory (without *force*).
    """
    read = open_input(source, what="models", command=command, from_format=from_format, options=options,
                      force=force, data=data)
    if isinstance(read, Puzzle):
        check_fits(read, source, force=force, encoding=request.encoding or DEFAULT)  # before building
        return read
    if not isinstance(read, Qubo):
        raise FormatError(f"{source}: a constrained model, not a QUBO: 'solve' samples QUBO files (or builds "
                          "one from a clue file); solve this one with an ILP solver (see 'nonoqubo formats')")
    return read


def models_of(puzzle: Puzzle | Qubo, request: SolveRequest | None = None, *, source: str | None = None) -> Models:
    """The :class:`~nonoqubo.pipeline.Models` of a puzzle (built in the *request*'s encoding with its weights) or
    of a model file's :class:`Qubo`, which must carry its clues and be their QUBO (refused before any sampling
    otherwise; the message starts with *source*, the file, when given)."""
    return checked_models(puzzle, request or SolveRequest(), source)[0]


def checked_models(puzzle: Puzzle | Qubo, request: SolveRequest, source: str | None) -> tuple[Models, Decoder | None]:
    """:func:`models_of`, and a model file's decoder (made to check it; the one of the unpresolved model), for a
    caller that prepares many requests of one model (a sweep, a campaign's worker) and checks it once."""
    if not isinstance(puzzle, Qubo):
        return Models.build(puzzle, encoding=request.encoding or DEFAULT, weights=request.weights,
                            presolve=request.presolve or DEFAULT_PRESOLVE), None
    where = f"{source}: " if source else ""
    if puzzle.puzzle is None:  # before sampling (presolve would need the clues too)
        raise FormatError(f"{where}the model carries no clues (a file nonoqubo build wrote does), so solve cannot "
                          "decode its samples")
    if request.encoding is not None or request.weights is not None:
        raise FormatError(f"{where}a model file keeps its own encoding ({puzzle.encoding}, weights "
                          f"{puzzle.weights}); --encoding and --weights apply to clue files")
    try:  # the model is its clues' QUBO, or it is refused before any sampling
        decoder = Decoder(puzzle)
    except SampleError as exc:
        raise FormatError(f"{where}{exc}") from None
    return Models(puzzle.puzzle, puzzle, presolve_method=request.presolve or DEFAULT_PRESOLVE), decoder


def prepare(puzzle: Puzzle | Qubo, request: SolveRequest | str = "sa", *, source: str | None = None,
            models: Models | None = None, decoder: Decoder | None = None, digest: str | None = None,
            **options: Any) -> Prepared:
    """Everything :func:`solve` does before sampling, as a :class:`Prepared` whose ``run`` does the rest.

    Args: as :func:`solve`'s; *models*, the puzzle's models when they are made already (a sweep makes
    them once per presolve method, a campaign's worker once per model; their ``presolve_method`` must be
    the request's), else made by :func:`models_of`; *decoder*, the sampled model's decoder when one is made
    already (used when it is that model's); *digest*, the sha256 of the file solved (default: *source*'s, when
    it is a regular file), which the run record names.

    Raises:
        SolverError, QpuParameterError, EmbeddingError: a bad option (checked before the model is built),
            or one the model cannot take.
        SampleError: a warm start that is not the model's.
        FormatError: a :class:`Qubo` that carries no clues, or is not their QUBO.
    """
    request = request_of(request, options).check()
    start = time.perf_counter()
    if models is None:
        models, made = checked_models(puzzle, request, source)
        decoder = decoder or made
    elif request.presolve and models.presolve_method != request.presolve:
        raise SolverError(f"the models given were made for --presolve {models.presolve_method}, "
                          f"the request asks for {request.presolve}")
    qubo = models.presolve() if request.presolve else models.qubo
    decoder = decoder if decoder is not None and decoder.model is qubo else Decoder(qubo)
    opts = _ready(qubo, request, decoder)
    if digest is None and source is not None and os.path.isfile(source):
        digest = file_digest(source)
    return Prepared(models.puzzle, models, qubo, decoder, request, opts, time.perf_counter() - start, digest)


def sampleset_json(result: SolveResult) -> str:
    """The run file ``solve -o`` writes, as text: :func:`sampleset_document` in JSON."""
    return json.dumps(sampleset_document(result))


def sampleset_document(result: SolveResult) -> dict[str, Any]:
    """The samples of *result* as a dimod SampleSet (``to_serializable()``) of the full model.

    Variables a presolve fixed are filled in, so the document decodes against
    the clue file or any full model export (``nonoqubo decode logo.qubo samples.json``).
    ``info["nonoqubo"]`` is the run's record (the module docstring): sampler, parameters,
    timing, version and machine; ``nonoqubo evaluate`` reads its ``seconds_per_run``.
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
    document = sampleset.to_serializable()
    if RUN in result.batch.extra:  # put in after dimod's serialiser, which writes true and false as 1 and 0
        document["info"]["nonoqubo"] = json_safe(result.batch.extra[RUN])
    return document

