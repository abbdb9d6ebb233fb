"""Judge a benchmark campaign: the figures annealing papers report, from thousands of samples.

A *campaign* is one or more models (an exported model file, a clue file, or a
folder written by :mod:`nonoqubo.campaign.suite`) and many sample files, grouped by
*setting* (a solver and its parameters).  For every ``(model, setting)`` :func:`evaluate`
returns a :class:`~nonoqubo.campaign.aggregate.Group`: the tally of its samples and what its
files say of their runs.  Every number reported of it (``samples``, ``valid``, ``p`` with its
95 % Wilson interval, ``r99`` and ``tts99 = t * r99`` with their intervals, the censored bounds
``p_bound``, ``r99_bound``, ``tts99_bound`` of a group with no success, the residual-energy
quantiles, the shares of broken walls, order violations and cell conflicts, the most often
wrong lines and cells, the best picture) is made in one place, :mod:`nonoqubo.campaign.aggregate`
(:meth:`Group.figures <nonoqubo.campaign.aggregate.Group.figures>`); this module says where
their inputs come from:

* ``seconds_per_run`` ``t``: read from the files (:mod:`nonoqubo.campaign.runtime`), or given;
  a group's is the mean over its files weighted by their reads;
* ``time_source``: where ``t`` came from: ``"sampler timing"`` (the solver timed its own
  runs: dwave-samplers' ``sampling_ns``, OpenJij's per-read times, a QPU's anneal time,
  qbsolv, MQLib), ``"wall clock"`` (measured around the runs: ``solve -o`` for samplers
  that report no time of their own, OMMX's start and end), ``"given"`` (``seconds``,
  ``--time``), ``"recorded"`` (a ``seconds_per_run`` with no source beside it), ``"none"``
  (no time: ``tts99`` is None), or ``"mixed: a, b"`` when the group's files differ
  (:func:`nonoqubo.campaign.runtime.time_per_run`);
* broken walls, order violations, cell conflicts and failing lines: from the decode of every
  sample (:mod:`nonoqubo.answers.decode`);
* ``run`` (in :func:`records`, beside the figures): what the files say of the run that made
  them (``solve -o`` writes it in the SampleSet's ``info["nonoqubo"]``): ``sampler``,
  ``parameters``, ``version`` (nonoqubo's), ``machine`` and the ``timing`` summary
  (``seconds_per_run``, ``time_source``, ``per_run``, ``wall_seconds``), and for a QPU or
  mock-dwave run ``qpu`` (:func:`nonoqubo.campaign.runs.qpu_of`: problem ids, timing parts,
  embedding, chain strength, chain breaks; the CLI prints it as a ``QPU`` line); a value that differs
  between the group's files is the list of its distinct values (the seeds, typically); None
  when no file records it;
* ``distinct_solutions``: how many different valid pictures the samples found, and beside it
  the puzzle's number of solutions when a suite's index records it (``suite --truth``):
  ``solutions`` (``None`` when unknown) and ``solutions_exact`` (false: "at least").  A
  campaign that finds 3 of a puzzle's 3 solutions samples them all; one that finds 1 of
  ">= 2" may be stuck on one.

With ``polish=True`` every sample first goes through a steepest-descent pass
(dwave-samplers' ``SteepestDescentSolver``: flip the single bit that lowers
the energy most until none does), the standard post-processing of annealer
output; the polished figures are reported beside the raw ones.  A descent
never raises a sample's energy.

A sample file is read as ``decode`` reads it, through the samples registry
(:meth:`~nonoqubo.answers.decode.Decoder.batch`: the format detected or named, its
own bytes-to-text rule, pictures matched to the puzzle); only the timing and the run
record are searched for in the file's text here.  ``--polish`` descends on the
model's own BQM (:func:`nonoqubo.solvers.base.index_bqm`).  Decoding is vectorised
(:meth:`~nonoqubo.answers.decode.Decoder.analyse` on the ``(S, N)`` matrix of a
file) and files are judged in worker processes (``jobs``), each keeping one decoder
per model.

**Streamed** (a campaign runner writes one file per model, setting and seed: 10,000 of them).
The files are judged in plan order, in this process or with at most ``jobs *``
:data:`IN_FLIGHT` chunks of :data:`CHUNK` files in the workers at a time, and each is folded into
its group's running figures as it comes back and let go: the merged :class:`Tally` (one size
however many files, :mod:`nonoqubo.campaign.aggregate`), the files and reads, the reads-weighted
seconds, the time sources, the run records merged key by key (:class:`~nonoqubo.records.RecordMerge`).  Memory
grows with the groups and models, not with the files; what does grow with them is small: the plan
(a path a file), 4 bytes a file of plan positions per group, and the distinct values the run
record lists (the seeds).  Time is linear in the files: a file finds its model by lookup
(:func:`_owner`), and no list of all results is sorted, regrouped or searched.  The first file that
cannot be judged stops the campaign.

**Encodings and weights.**  Every group names its model's ``encoding`` and
``weights`` (from the model file, or from the suite's index, which also gives
the ``puzzle`` a variant belongs to: ``suite --encoding domain-wall,one-hot``
writes ``NAME.domain-wall``, ``NAME.one-hot``, ...).  When a campaign holds
more than one variant, the groups are sorted by setting, puzzle, encoding and
weights, so the variants of a puzzle stand side by side.

Grouping: runs are grouped by **setting**, what each file's run record says (the sampler,
every parameter but the seed and the reads, and the encoding and weights of the model sampled;
:mod:`nonoqubo.campaign.runs`), wherever the files lie: a flat folder of ``sa`` and ``tabu``
runs gives two groups, and ``Group.setting_record`` says what each is.  A file that records no
run is grouped by its folder: a sample folder named on the command line when its files lie
directly in it, its sub-folders otherwise (``runs/qbsolv/*.txt`` -> ``qbsolv``), a file named
on the command line by its own name (``qbsolv-out.txt`` -> ``qbsolv-out``); a lone file that records
its run is named from the record (``sa``), never from whatever folder it sits in.  ``setting=NAME`` pools every file into one setting (``grouped_by`` says which rule
made a group).  With a suite folder as the model, a sample file belongs to the puzzle whose
name starts its file name (or one of its folders); ``NAME.presolved...`` files to the presolved
model.  A file a walk of a runs folder finds that is no sample file (a log, a ``.out``) is
skipped, and ``note`` names them all in one line.

**Scored against its own model** (:func:`scoring_decoder`): a run whose record names an
encoding and weights is scored against that model: the model given when it agrees, the clues
rebuilt in the record's encoding and weights when the model is a clue file or a suite (from the
member's ``NAME.clues.json`` the suite wrote beside its models, else the clues its model file
carries), and refused when a model *file* disagrees.
With ``embedding`` (EMB.json) the files are a QPU's qubit samples, unembedded as ``decode
--embedding`` does (:func:`nonoqubo.qpu.unembed.physical_batch`).

**Set aside** (:func:`set_aside`, :func:`scored`): a group whose runs sampled no variable
(presolve decided them all) is *solved by presolve*, one whose puzzle CP-SAT proved unsolvable
(the suite's index: 0 solutions, exact) is *unsolvable* (``ground_energy`` ``"none"``,
``best_known_energy`` the lowest energy any setting found).  Both are counted apart and their
p and TTS figures are not given (``records``: None); the CLI draws only the scored groups.

The statistics (:func:`~nonoqubo.campaign.aggregate.wilson`,
:func:`~nonoqubo.campaign.aggregate.runs_to_solution`, ...), :class:`Tally` and :class:`Group`
are :mod:`nonoqubo.campaign.aggregate`'s, importable from here too.
"""

from __future__ import annotations

import os
from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

from .._util import notebook
from .._util.stream import is_regular, read_bytes
from .._util.workers import pool
from ..answers.decode import Decoder
from ..inputs import load_model
from ..errors import FormatError, MissingDependency, NonoquboError, SampleError, UnsupportedFormat
from ..model.encodings import DEFAULT
from ..model.palette import BW
from ..model.puzzle import Puzzle
from ..model.weights import DEFAULT_WEIGHTS
from .._util.jobs import workers
from ._options import run_seconds
# the numbers' one home; imported here for the callers that take them from evaluate
from .aggregate import (
    BOUND_CONFIDENCE, BY_FOLDER, BY_OPTION, BY_RECORD, QUANTILES, Group, Tally, best_known_energies, censored_bounds,
    csv_table, figures, runs_to_solution, weighted_quantiles, wilson,
)
from .runtime import recorded_time, time_per_run
from ..records import GroupRecord, ModelInfo, RecordMerge, RunRecord, SuiteIndex, merged, plain
from ..samples import record_of, recorded_model
from .runs import describe, key_of, searched_text, setting_names, setting_of, summary, the_record

__all__ = [
    "BOUND_CONFIDENCE", "BY_FOLDER", "BY_OPTION", "BY_RECORD", "QUANTILES", "Campaign", "Evaluation", "Group", "Job", "Run",
    "Skipped", "Tally", "check_options", "csv_text", "evaluate",
    "figures", "plain", "plan_runs", "polisher", "records", "runs_to_solution", "censored_bounds", "scored", "scoring_decoder",
    "set_aside", "status", "weighted_quantiles", "wilson",
]

# -- judging one file (runs in a worker) -------------------------------------------------------
@dataclass
class FileResult:
    """One sample file judged: raw (and polished) tallies, its reads and recorded time per run.

    ``setting`` is the file's setting when it records its run (:func:`nonoqubo.campaign.runs.setting_of`),
    ``encoding``, ``weights`` and ``variables`` the model it was scored against (``variables``: those
    sampled, as the record says, else the model's), ``solved_by_presolve`` whether presolve left
    that model no variable to sample.
    """

    path: str
    reads: int
    seconds: float | None
    raw: Tally
    polished: Tally | None = None
    time_source: str = "none"
    run: dict[str, Any] | None = None
    setting: dict[str, Any] | None = None
    encoding: str = DEFAULT.name
    weights: str = str(DEFAULT_WEIGHTS)
    variables: int = 0
    solved_by_presolve: bool = False
    #: a run stopped at a target energy: (seconds of its successful reads, how many, of the others, how many)
    split: tuple[float, int, float, int] | None = None
    #: a failed run (its record's ``failed``: a campaign task its time limit stopped): the seconds it spent, no samples
    failed: float | None = None


def split_seconds(record: RunRecord | None, energies: np.ndarray) -> tuple[float, int, float, int] | None:
    """The seconds of a target run's successful reads (energy 0) and of the others, summed, with their counts
    (:func:`nonoqubo.campaign.aggregate.tts_of`); None for a run without ``target_energy`` or whose per-read
    times do not match its samples one to one (the caller passes only samples of one occurrence each)."""
    if record is None or record.parameters.get("target_energy") is None:
        return None
    times = record.timing.get("read_seconds")
    if not isinstance(times, list) or len(times) != len(energies):
        return None
    t = np.asarray(times, dtype=np.float64)
    won = np.asarray(energies) == 0
    return float(t[won].sum()), int(won.sum()), float(t[~won].sum()), int((~won).sum())


@dataclass(frozen=True)
class Skipped:
    """A file found in a runs folder that is no sample file (a log, a ``.out``): skipped, with a note."""

    path: str
    reason: str


@dataclass(frozen=True)
class Job:
    """What a worker needs to judge one file."""

    model_path: str
    samples_path: str
    polish: bool = False
    samples_format: str | None = None
    force: bool = False
    #: the model may be rebuilt from its clues in the run's own encoding and weights (a suite, a clue file)
    rebuild: bool = False
    embedding: str | None = None
    chain_break: str = "majority"
    #: found by walking a folder (not named on the command line): skipped when it is no sample file
    found: bool = False
    #: the member's clue file a suite wrote beside its models: what a rebuilt model is built from
    clues_path: str | None = None
    #: keep the samples' energies in the order read (:attr:`Tally.sequence`: a QOBLIB submission's runs)
    in_order: bool = False


_DECODERS: dict[str, Decoder] = {}
_EMBEDDINGS: dict[str, Any] = {}
_POLISHERS: dict[str, Any] = {}


def _decoder(model_path: str, force: bool = False, embedding: str | None = None) -> Decoder:
    """The decoder of a model file (or clue file), kept per worker; with *embedding* the model it is for."""
    key = model_path if embedding is None else f"{model_path}\0{embedding}"
    if key not in _DECODERS:  # the memory guard first (ModelTooLarge names the file and --force)
        try:
            model = load_model(model_path, force=force)
            if embedding is not None:
                from ..pipeline import logical_model

                model, _EMBEDDINGS[key] = logical_model(model, embedding)
            _DECODERS[key] = Decoder(model)
        except SampleError as exc:  # labels or energies that contradict the file's own clues: name the file
            raise FormatError(f"{model_path}: {exc}") from None
    return _DECODERS[key]


def scoring_decoder(job: Job, record: RunRecord | None) -> tuple[Decoder, str]:
    """The decoder of the model a run was drawn from, and its key (for the polisher).

    The model the job names when the record agrees with it (or records no model); the same clues
    rebuilt in the record's encoding and weights when the job may rebuild (a clue file, a suite);
    otherwise the run is refused.

    Raises:
        SampleError: the record and the given model disagree (one line naming both files).
    """
    base = _decoder(job.model_path, job.force, job.embedding)
    base_key = job.model_path if job.embedding is None else f"{job.model_path}\0{job.embedding}"
    wanted = recorded_model(record, job.samples_path)
    if wanted is None or (wanted.encoding.name == base.encoding.name and tuple(wanted.weights) == tuple(base.weights)):
        return base, base_key
    encoding, weights = wanted.encoding, wanted.weights
    if job.embedding is not None or not (job.rebuild or isinstance(base.model, Puzzle)):
        raise SampleError(
            f"{job.samples_path}: its run record says it was drawn from the {encoding.name} model at weights "
            f"{weights}, but {job.model_path} is the {base.encoding.name} model at weights {base.weights}: "
            "give the model file it was drawn from, or its clue file (the model is then rebuilt)")
    key = f"{job.model_path}\0{encoding.name}\0{weights}"
    if key not in _DECODERS:
        from ..clues import load as load_clues
        from ..model.build import build

        puzzle = load_clues(job.clues_path) if job.clues_path and os.path.isfile(job.clues_path) else base.puzzle
        assert puzzle is not None
        _DECODERS[key] = Decoder(build(puzzle, encoding=encoding, weights=weights))
    return _DECODERS[key], key


def polisher(model_path: str) -> Callable[[np.ndarray], np.ndarray]:
    """``bits -> bits`` after a steepest descent on the model's own QUBO.

    *model_path* is a model file or clue file, or the key :func:`scoring_decoder` gave for a model
    rebuilt in a run's own encoding and weights.
    """
    if model_path in _POLISHERS:
        return _POLISHERS[model_path]
    from ..model.qubo import Qubo
    from ..solvers.base import index_bqm

    decoder = _DECODERS[model_path] if model_path in _DECODERS else _decoder(model_path)
    qubo = decoder.qubo if isinstance(decoder.model, Puzzle) else decoder.model  # a clue file: its QUBO as built
    if not isinstance(qubo, Qubo):
        raise NonoquboError(f"{model_path}: --polish needs a QUBO model; this is a constrained model")
    n = qubo.num_vars
    bqm = index_bqm(qubo)  # the model's own BQM, labelled 0..N-1 in its variable order
    solver = _descent()()

    def polish(bits: np.ndarray) -> np.ndarray:
        if n == 0 or bits.shape[0] == 0:
            return bits
        result = solver.sample(bqm, initial_states=(bits, list(range(n))))
        out = np.empty_like(bits)
        out[:, np.asarray(list(result.variables), dtype=np.int64)] = result.record.sample
        return out

    _POLISHERS[model_path] = polish
    return polish


def _descent() -> Any:
    """dwave-samplers' ``SteepestDescentSolver`` class.

    Raises:
        MissingDependency: no dwave-samplers (naming ``--polish``).
    """
    try:
        from dwave.samplers import SteepestDescentSolver
    except ImportError:
        raise MissingDependency("dwave-samplers", "solvers", "--polish (steepest descent)") from None
    return SteepestDescentSolver


def _batch(decoder: Decoder, job: Job, record: RunRecord | None) -> Any:
    """The file's samples as a batch of *decoder*'s model (qubit samples unembedded with an embedding)."""
    try:
        if job.embedding is None:
            return decoder.batch(Path(job.samples_path), format=job.samples_format)
        from ..qpu.unembed import physical_batch
        from ..samples import read_raw

        raw, source = read_raw(job.samples_path, format=job.samples_format)
        key = f"{job.model_path}\0{job.embedding}"
        return physical_batch(decoder, raw, _EMBEDDINGS[key], job.chain_break, source)[0]
    except SampleError as exc:
        if record is not None or job.embedding is not None:
            raise
        raise SampleError(f"{exc}; the file records no run ('solve -o' writes one), so the model it was drawn "
                          "from is unknown: give that model's file as MODEL (or --embedding for qubit samples)") from None


def judge_file(model_path: str, samples_path: str, polish: bool = False, samples_format: str | None = None,
               force: bool = False, *, job: Job | None = None) -> FileResult:
    """Read, decode and tally one sample file (and its polished samples), against the model it was drawn from.

    Raises:
        SampleError, FormatError, UnsupportedFormat, OSError: the file cannot be read or matched, or
            its run record contradicts the model given.
    """
    job = job or Job(model_path, samples_path, polish, samples_format, force)
    text = searched_text(read_bytes(job.samples_path, job.samples_path))  # a stream named: bounded, never blocking
    record = the_record(text, job.samples_path)
    decoder, key = scoring_decoder(job, record)
    palette = decoder.puzzle.palette if decoder.puzzle is not None else BW
    sampled = None if record is None or record.model is None else record.model.variables
    variables = sampled if sampled is not None else len(decoder.labels)
    encoding, weights_text = decoder.encoding.name, str(decoder.weights)
    setting = None if record is None else setting_of(record, encoding, weights_text)
    if record is not None and record.failed is not None:  # a failed run (RunFailure): its setting and seconds spent
        layout = decoder.layout
        empty = Tally.empty(layout.height, layout.width, layout.height + layout.width, palette, in_order=job.in_order)
        return FileResult(job.samples_path, 0, None, empty, empty if job.polish else None, "none", None, setting,
                          encoding, weights_text, variables, False, failed=record.failed.seconds)
    batch = _batch(decoder, job, record)
    weights = (np.ones(len(batch), np.int64) if batch.num_occurrences is None
               else np.asarray(batch.num_occurrences, np.int64))
    analysis = decoder.analyse(batch.bits)
    raw = Tally.of(analysis, weights, palette, in_order=job.in_order)
    polished = None
    if job.polish:
        polished = Tally.of(decoder.analyse(polisher(key)(batch.bits)), weights, palette, in_order=job.in_order)
    reads = int(weights.sum())
    seconds, source = time_per_run(text, reads) if record is None else recorded_time(record, text, reads)
    return FileResult(job.samples_path, reads, seconds, raw, polished, source,
                      None if record is None else summary(record), setting, encoding, weights_text, variables, variables == 0,
                      split_seconds(record, analysis.energy) if (weights == 1).all() else None)


def recorded_summary(path: str) -> dict[str, Any] | None:
    """The run record of the sample file at *path* as :func:`judge_file` reports it (``FileResult.run``)."""
    record = record_of(path)
    return None if record is None else summary(record)


def _judge(job: Job) -> FileResult | Skipped | str:
    """:func:`judge_file` for a pool: a file that cannot be judged comes back as its error message,
    a file found in a folder that is no sample file as :class:`Skipped`."""
    try:
        return judge_file(job.model_path, job.samples_path, job=job)
    except UnsupportedFormat as exc:
        if job.found and job.samples_format is None:
            return Skipped(job.samples_path, "not a sample file")
        return _message(exc, job)
    except (NonoquboError, OSError, ValueError) as exc:
        return _message(exc, job)


def _message(exc: Exception, job: Job) -> str:
    if isinstance(exc, OSError) and not isinstance(exc, NonoquboError):
        return f"{exc.filename or job.samples_path}: {exc.strerror or exc}"
    message = str(exc)
    return message if job.samples_path in message or job.model_path in message else f"{job.samples_path}: {message}"


# -- planning ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Run:
    """One sample file: which model it answers, the folder that names it, and whether a walk found it."""

    model: str  # the model's name
    setting: str  # the folder's name, a lone file's own name, or --setting: the setting of a file that records no run
    path: str
    found: bool = False


@dataclass
class Campaign:
    """Models by name (their file and size) and the runs to judge."""

    models: dict[str, ModelInfo]
    runs: list[Run]
    #: ``--setting NAME``: every file pooled into one setting of that name
    given_setting: str | None = None
    #: the models may be rebuilt from their clues in a run's own encoding and weights
    rebuild: bool = False


def _sample_files(folder: str) -> list[str]:
    out: list[str] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(os.path.join(root, n) for n in sorted(names) if not n.startswith("."))
    return out


def _settings(samples: Sequence[str], setting: str | None) -> list[tuple[str, str, bool]]:
    """(folder name or setting, file, found in a folder) for the sample arguments (see the module docstring)."""
    pairs = []
    for item in samples:
        if os.path.isdir(item):
            base = os.path.basename(os.path.normpath(os.path.abspath(item)))
            found = _sample_files(item)
            if not found:
                raise NonoquboError(f"{item}: no sample file in this folder")
            for path in found:
                rel = Path(os.path.relpath(path, item))
                pairs.append((setting or (rel.parts[0] if len(rel.parts) > 1 else base), path, True))
        elif not os.path.exists(item):
            raise NonoquboError(f"{item}: no such file or folder")
        else:
            pairs.append((setting or os.path.splitext(os.path.basename(item))[0] or item, item, False))
    return pairs


def _owner(path: str, root_parts: Sequence[str], names: set[str]) -> str | None:
    """The longest model name that starts the file name (before a ``.``, ``-`` or ``_``) or names one of its folders.

    Looked up, not searched: the candidates are the file name's own prefixes and its folders, so a
    file costs the length of its path whatever the number of models (ties: the first name in sorted order).

    Examples:
        >>> _owner("runs/heart-2.json", ("runs",), {"heart", "heart-2", "he"})
        'heart-2'
        >>> _owner("runs/heart/a.json", ("runs", "heart"), {"heart", "heart.presolved"}), _owner("x.json", (), {"y"})
        ('heart', None)
    """
    base = os.path.basename(path)
    candidates = {base[:i] for i, ch in enumerate(base) if ch in ".-_"} | {base} | set(root_parts)
    hits = candidates & names
    best = min(hits, key=lambda name: (-len(name), name)) if hits else None
    if best is not None and ".presolved" in base and f"{best}.presolved" in names:
        best = f"{best}.presolved"
    return best


def plan_runs(model: str, samples: Sequence[str], setting: str | None = None, *, force: bool = False,
              embedding: str | None = None) -> Campaign:
    """The models and runs of a campaign.

    Args:
        model: an exported model file, a clue file, or a suite folder.
        samples: sample files and folders.
        setting: one setting name for every file (default: from the run records, else the folders).
        embedding: EMB.json: the samples are on qubits (one model only, not a suite).

    Raises:
        NonoquboError: a missing sample file, a folder with none, no sample file at all, an embedding
            with a suite, or (with a suite) a file that matches no puzzle.
    """
    pairs = _settings(samples, setting)
    if not pairs:
        raise NonoquboError("no sample file to judge")
    if os.path.isdir(model):
        if embedding is not None:
            raise NonoquboError(f"--embedding {embedding}: an embedding is for one model; give that model's file "
                                f"(or clue file) as MODEL, not the suite folder {model}")
        models = {m.name: m.described() for m in SuiteIndex.models_in(model, "MODEL ")}  # the one list run solves
        names = set(models)
        runs = []
        for s, path, found in pairs:
            not_a_run = found and _not_a_run(path)  # a figure, a FIFO: skipped with the note, never opened
            owner = None if not_a_run else _owner(path, Path(path).parts[:-1], names)
            if owner is None and not (not_a_run or (found and not _looks_like_samples(path))):
                raise NonoquboError(f"{path}: matches no puzzle of the suite {model} "
                                    "(name sample files after the puzzle: NAME.json, NAME-run1.json, NAME/...)")
            runs.append(Run(owner or "", s, path, found))  # no owner: skipped as "not a sample file", with a note
        return Campaign(models, runs, setting, rebuild=True)
    name = Path(model).name
    decoder = _decoder(model, force, embedding)
    assert decoder.puzzle is not None
    models = {name: ModelInfo(model, name, decoder.puzzle.width, decoder.puzzle.height, len(decoder.labels), name,
                              str(decoder.encoding), str(decoder.weights))}
    return Campaign(models, [Run("" if found and _not_a_run(p) else name, s, p, found) for s, p, found in pairs],
                    setting)


#: what evaluate and other commands write that no sampler does: figures (``--figures``), pages (``--report``)
NOT_RUNS = (".pdf", ".svg", ".png", ".html")


def _not_a_run(path: str) -> bool:
    """A file found in a runs folder that is no run: skipped with the note, never opened.

    * a figure or a page by its name (:data:`NOT_RUNS`; no samples format is named so):
      ``evaluate --figures`` may no longer write into a runs folder
      (:func:`~nonoqubo._util.atomic.check_not_inputs`), but a figures folder an older run left
      there, or one made by hand, holds PDFs that once stopped the next evaluate with a "binary
      file" error;
    * not a regular file (:func:`~nonoqubo._util.stream.is_regular`, asked with ``stat``): a FIFO
      there would block the read for ever, a link to ``/dev/zero`` never end.  A stream named on
      the command line is read, as every command reads one (:func:`~nonoqubo._util.stream.read_bytes`).
    """
    return path.lower().endswith(NOT_RUNS) or not is_regular(path)


def _looks_like_samples(path: str) -> bool:
    """Whether the samples registry recognises the file's content (a folder's log or ``.out`` does not)."""
    from ..samples import read_raw

    try:
        read_raw(path)
    except UnsupportedFormat:
        return False
    except (NonoquboError, OSError, ValueError):
        return True  # a sample file with a fault of its own: judged, and its error reported
    return True


# -- the groups --------------------------------------------------------------------------------
class Evaluation(list[Group]):
    """What :func:`evaluate` returns: its :class:`Group` s, a plain list that also draws itself.

    In Jupyter it shows the page ``evaluate --report`` writes (header, figures, table) in a frame,
    drawn by :func:`nonoqubo.campaign.report_html.evaluation_html` (matplotlib, extra
    ``campaign``; without it the text ``repr``).
    """

    def _repr_html_(self) -> str | None:
        return notebook.show(self, "html")


def check_options(*, jobs: int | None = None, seconds: float | None = None) -> None:
    """Refuse, before any work, what :func:`evaluate` would refuse: ``jobs`` < 1, ``seconds`` <= 0 or not finite.

    Raises:
        NonoquboError: the option and its value, in one line.
    """
    workers(jobs)
    run_seconds(seconds)


def evaluate(
    model: str,
    samples: Sequence[str],
    *,
    setting: str | None = None,
    seconds: float | None = None,
    polish: bool = False,
    samples_format: str | None = None,
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    force: bool = False,
    embedding: str | None = None,
    chain_break: str | None = None,
    note: Callable[[str], None] | None = None,
    planned: Callable[[int], None] | None = None,
    in_order: bool = False,
) -> Evaluation:
    """Judge a campaign (see the module docstring).

    Args:
        model: an exported model file, a clue file, or a suite folder.
        samples: sample files and folders of them.
        setting: one setting name for all files, pooling them (default: the setting each file's run
            record gives, else its folder's name).
        seconds: seconds per run, overriding what the files record.
        polish: also judge the samples after a steepest-descent pass.
        samples_format: the samples' format (detected per file when None).
        jobs: worker processes (default ``os.cpu_count()``; 1 judges in this process).
        progress: called with 1 after each file.
        force: read a model even when the memory guard says it will not fit.
        embedding: EMB.json: the samples are a QPU's, on qubits, unembedded through its chains
            (as ``decode --embedding``); one model only.
        chain_break: how a broken chain gives its variable's value (with *embedding*; default majority).
        note: called once with a line naming the files of a runs folder skipped as not sample files.
        planned: called once with the number of sample files, before the first is judged.
        in_order: also keep every sample's energy in the order read (``Tally.energies``; what a QOBLIB
            submission lists, one run each): memory then grows with the samples.

    Returns:
        One :class:`Group` per ``(model, setting)``, sorted by setting, then model size and name
        (an :class:`Evaluation`: a list that shows the HTML report in Jupyter).

    Raises:
        NonoquboError: a file that cannot be read or matched (the first, in plan order; no
            figures are returned), a run whose record and the model given disagree, a file of
            mixed records, or no samples.
        MissingDependency: ``polish`` without dwave-samplers.
    """
    from ..decoding import check_chain_break

    jobs = workers(jobs)
    seconds = run_seconds(seconds)
    method = check_chain_break(chain_break, embedding)
    if embedding is not None and not os.path.isfile(embedding):
        raise NonoquboError(f"--embedding {embedding}: no such file")
    campaign = plan_runs(model, samples, setting, force=force, embedding=embedding)
    if polish:
        _descent()  # fail before judging anything when dwave-samplers is missing
    def job(r: Run) -> Job:
        info = campaign.models[r.model]
        return Job(info.path, r.path, polish, samples_format, force, campaign.rebuild, embedding, method, r.found,
                   info.clues, in_order)

    count = sum(1 for r in campaign.runs if r.model)
    if planned is not None:
        planned(count)
    judged = _judged((job(r) for r in campaign.runs if r.model), count, jobs, progress)
    fold = _Fold(campaign)
    try:
        for index, run in enumerate(campaign.runs):
            res = next(judged) if run.model else Skipped(run.path, "not a sample file")
            if isinstance(res, str):  # the first error in plan order: nothing more is judged
                raise NonoquboError(res)
            if isinstance(res, Skipped):
                fold.skipped.append(res.path)
            else:
                fold.add(index, run, res)
    finally:
        judged.close()  # a pool still judging stops: its queued files are dropped
    if not fold.groups:
        skipped = fold.skipped
        raise NonoquboError(f"no sample file to judge: {', '.join(skipped)} "
                            f"{'is' if len(skipped) == 1 else 'are'} not sample files")
    if fold.skipped and note is not None:
        skipped = fold.skipped
        note(f"skipped {len(skipped)} file{'s that are not sample files' if len(skipped) > 1 else ' that is not a sample file'}: "
             f"{', '.join(skipped)}")
    return Evaluation(fold.finish(seconds))


#: files a worker judges per task, at most (a task's results travel back together)
CHUNK = 16
#: tasks in flight per worker: enough to keep every worker busy, few enough that results never pile up
IN_FLIGHT = 3


def _judge_all(jobs: Sequence[Job]) -> list[FileResult | Skipped | str]:
    return [_judge(j) for j in jobs]


def _judged(tasks: Iterator[Job], count: int, jobs: int,
            progress: Callable[[int], None] | None) -> Generator[FileResult | Skipped | str, None, None]:
    """Every task judged, in plan order, with at most ``jobs * IN_FLIGHT`` chunks of :data:`CHUNK` in flight.

    The results stream: one is handed on before the next is asked for, so however many files a
    campaign has, only that window's results are held (a pool's ``map`` would submit them all).
    """
    def tick(res: FileResult | Skipped | str) -> FileResult | Skipped | str:
        if progress is not None:
            progress(1)
        return res

    if jobs == 1 or count <= 1:
        for t in tasks:
            yield tick(_judge(t))
        return
    size = max(1, min(CHUNK, count // (8 * jobs)))
    pending: deque[Future[list[FileResult | Skipped | str]]] = deque()
    pool_size = min(jobs, count)
    with pool(pool_size) as executor:  # workers that die with the command (SIGTERM, SIGKILL)
        def submit() -> None:
            chunk = list(islice(tasks, size))
            if chunk:
                pending.append(executor.submit(_judge_all, chunk))

        try:
            for _ in range(pool_size * IN_FLIGHT):  # the pool's workers, not -j's: never more tasks than files
                submit()
            while pending:
                results = pending.popleft().result()
                submit()
                for res in results:
                    yield tick(res)
        finally:
            for f in pending:
                f.cancel()


def _group_key(campaign: Campaign, run: Run, res: FileResult, setting_key: str | None) -> str:
    """The key of a file's group; *setting_key* is its setting's (:func:`~nonoqubo.campaign.runs.key_of`), if it records one."""
    if campaign.given_setting is not None:  # --setting pools every file (its models, and runs presolve solved, apart)
        return f"given\0{res.encoding}\0{res.weights}\0{res.solved_by_presolve}"
    if setting_key is not None:
        return setting_key
    return f"folder\0{run.setting}"


@dataclass
class _Running:
    """One group's running tallies: what its files add up to so far.  One per group, never one per file."""

    raw: Tally
    polished: Tally | None
    #: the first file's: the model as scored, and its setting (the group's record while every file agrees)
    encoding: str
    weights: str
    variables: int
    setting: dict[str, Any] | None
    setting_key: str | None
    same_setting: bool = True
    files: int = 0
    reads: int = 0
    #: sum of seconds per run times reads, over the files that record a time (in plan order)
    run_seconds: float = 0
    timed: int = 0
    sources: set[str] = field(default_factory=set)
    solved_by_presolve: bool = True
    record: RecordMerge = field(default_factory=lambda: RecordMerge())
    #: the plan positions of the group's files (4 bytes each): read again only if their records must be merged again
    positions: array = field(default_factory=lambda: array("I"))
    #: summed :attr:`FileResult.split` of the files stopped at a target, and how many such files
    split: list[float] = field(default_factory=lambda: [0.0, 0, 0.0, 0])
    split_files: int = 0
    #: failed runs (a time limit stopped them: no samples) and the seconds they spent
    failed: int = 0
    failed_seconds: float = 0.0

    def add(self, index: int, res: FileResult, setting_key: str | None) -> None:
        if res.failed is not None:  # no samples, no record to merge; its seconds spent go into the group's time
            self.failed += 1
            self.failed_seconds += res.failed
            self.same_setting = self.same_setting and setting_key is not None and setting_key == self.setting_key
            return
        if self.files:
            self.raw = self.raw.merge(res.raw)
            self.polished = None if self.polished is None or res.polished is None else self.polished.merge(res.polished)
            self.same_setting = self.same_setting and setting_key is not None and setting_key == self.setting_key
        self.files += 1
        self.reads += res.reads
        if res.seconds is not None:
            self.run_seconds += res.seconds * res.reads
            self.timed += 1
        self.sources.add(res.time_source)
        self.solved_by_presolve = self.solved_by_presolve and res.solved_by_presolve
        self.record.add(res.run)
        self.positions.append(index)
        if res.split is not None:
            self.split = [a + b for a, b in zip(self.split, res.split)]
            self.split_files += 1

    def split_seconds(self) -> tuple[float | None, float | None] | None:
        """The mean seconds of a successful and of another read, when every file of the group had a target."""
        if not self.files or self.split_files < self.files:
            return None
        won, n_won, lost, n_lost = self.split
        return (won / n_won if n_won else None), (lost / n_lost if n_lost else None)

    def seconds(self, given: float | None) -> tuple[float | None, str]:
        """The group's seconds per run (its files' reads-weighted mean, or *given*) and where they came from."""
        if given is not None:
            return given, "given"
        if self.timed < self.files or not self.reads:
            return None, "none"
        sources = sorted(self.sources)
        # the failed runs spent their seconds without a success: charged to the reads that were made
        spent = self.run_seconds + self.failed_seconds
        return spent / self.reads, sources[0] if len(sources) == 1 else "mixed: " + ", ".join(sources)


class _Fold:
    """Each judged file folded into its group's :class:`_Running` as it comes (the module docstring)."""

    def __init__(self, campaign: Campaign) -> None:
        self.campaign = campaign
        self.groups: dict[tuple[str, str], _Running] = {}
        self.skipped: list[str] = []
        # for the groups' names (:func:`nonoqubo.campaign.runs.setting_names`): per group key
        self.names: dict[str, str] = {}
        self.recorded: dict[str, dict[str, Any]] = {}
        self.folders_of: dict[str, set[str]] = {}
        self.settings_in: dict[str, set[str]] = {}

    def add(self, index: int, run: Run, res: FileResult) -> None:
        setting_key = None if res.setting is None else key_of(res.setting)
        key = _group_key(self.campaign, run, res, setting_key)
        running = self.groups.get((run.model, key))
        if running is None:
            running = self.groups[(run.model, key)] = _Running(
                res.raw, res.polished, res.encoding, res.weights, res.variables, res.setting, setting_key,
                res.setting is not None, solved_by_presolve=res.failed is None)
        elif running.files == 0 and res.failed is None:  # the first file with samples after failed runs
            running.raw, running.polished, running.variables = res.raw, res.polished, res.variables
            running.solved_by_presolve = True
        running.add(index, res, setting_key)
        if self.campaign.given_setting is not None:
            self.names[key] = self.campaign.given_setting
            return
        if res.setting is not None:
            self.recorded.setdefault(key, res.setting)
        else:
            self.names[key] = run.setting
        if run.found or res.setting is None:  # a lone file's folder names nothing; its record names it
            self.folders_of.setdefault(key, set()).add(run.setting)
            self.settings_in.setdefault(run.setting, set()).add(key)

    def finish(self, given: float | None) -> list[Group]:
        """The groups, named and sorted (the module docstring)."""
        campaign = self.campaign
        names = dict(self.names)
        if campaign.given_setting is None:
            names.update(setting_names(self.recorded, self.folders_of, self.settings_in))
        groups = []
        for (name, key), acc in self.groups.items():
            t, source = acc.seconds(given)
            info = replace(campaign.models[name], encoding=acc.encoding, weights=acc.weights, variables=acc.variables)
            record = acc.setting if acc.same_setting else None
            by = BY_OPTION if campaign.given_setting is not None else BY_RECORD if record is not None else BY_FOLDER
            run = acc.record.value() if not acc.record.mixed else merged(
                [recorded_summary(campaign.runs[i].path) for i in acc.positions])
            groups.append(Group(name, names[key], info, acc.files, t, acc.raw, acc.polished, source, run,
                                record, by, solved_by_presolve=acc.solved_by_presolve,
                                unsolvable=info.unsolvable,
                                split_seconds=acc.split_seconds() if given is None else None,
                                failed_runs=acc.failed))
        best = best_known_energies(groups)  # the lowest energy any setting found, per model as scored
        for g in groups:
            g.best_known_energy = best[(g.model, g.info.encoding, g.info.weights)]
        if len({(g.info.encoding, g.info.weights) for g in groups}) > 1:  # an A/B campaign: a puzzle's
            # variants side by side (every model made from one puzzle has its size)
            groups.sort(key=lambda g: (g.setting, g.info.width * g.info.height, g.info.puzzle, g.info.encoding,
                                       g.info.weights, g.model))
        else:
            groups.sort(key=lambda g: (g.setting, g.info.variables, g.model))
        return groups


def scored(groups: Sequence[Group]) -> list[Group]:
    """The groups that belong in p, TTS and their figures: neither solved by presolve nor proven unsolvable."""
    return [g for g in groups if g.scored]


def set_aside(groups: Sequence[Group]) -> dict[str, list[dict[str, Any]]]:
    """The groups reported apart, as ``{"model", "setting"}`` (and an unsolvable one's ``best_known_energy``).

    ``solved_by_presolve``: presolve left the model no variable (that setting's runs sampled
    nothing); ``unsolvable``: CP-SAT proved the puzzle has no solution.
    """
    return {"solved_by_presolve": [{"model": g.model, "setting": g.setting} for g in groups if g.solved_by_presolve],
            "unsolvable": [{"model": g.model, "setting": g.setting, "best_known_energy": g.best_known_energy}
                           for g in groups if g.unsolvable and not g.solved_by_presolve]}


#: what the text and the report say of each kind of group :func:`set_aside` lists: its name, and why it is set aside
ASIDE_WORDS = {"solved_by_presolve": ("solved by presolve", "0 variables left"),
               "unsolvable": ("proven unsolvable", "CP-SAT: 0 solutions; ground energy none")}


def set_aside_named(groups: Sequence[Group]) -> list[tuple[str, str, int, str]]:
    """Per kind of group set aside that has any (:func:`set_aside`): its name and why (:data:`ASIDE_WORDS`), how
    many, and the pairs named (``model / setting``, an unsolvable one's best known energy)."""
    return [(*ASIDE_WORDS[key], len(pairs), ", ".join(
        f"{x['model']} / {x['setting']}" + (f" (best known energy {x['best_known_energy']})" if key == "unsolvable" else "")
        for x in pairs)) for key, pairs in set_aside(groups).items() if pairs]


def status(group: Group) -> str:
    """``"scored"``, ``"solved by presolve"`` or ``"unsolvable"`` (proven: CP-SAT counted no solution)."""
    return "solved by presolve" if group.solved_by_presolve else "unsolvable" if group.unsolvable else "scored"


def records(groups: Sequence[Group]) -> list[dict[str, Any]]:
    """One JSON-safe dict per group (:class:`~nonoqubo.records.GroupRecord`'s ``to_dict``, its ``version`` first):
    model, setting, files, size, ``raw`` (and ``polished``) figures, ``run``.

    ``status`` says whether the group is scored or set aside (``"solved by presolve"``,
    ``"unsolvable"``: then its p and TTS figures are None), ``grouped_by`` how its files were put
    together (:data:`BY_RECORD`, :data:`BY_FOLDER`, :data:`BY_OPTION`) and ``setting_record`` what
    the setting is (sampler, parameters, encoding, weights; None when the files record no run).
    """
    return [r.to_dict() for r in _group_records(groups)]


def _group_records(groups: Sequence[Group]) -> list[GroupRecord]:
    return [GroupRecord.of(g.model, g.setting, g.files, g.info, status(g), g.grouped_by, g.setting_record,
                           g.figures("raw"), None if g.polished is None else g.figures("polished"), g.run, g.failed_runs)
            for g in groups]


def csv_text(groups: Sequence[Group]) -> str:
    """The figures as CSV: a row per (model, setting, stage) (:meth:`GroupRecord.csv_rows
    <nonoqubo.records.GroupRecord.csv_rows>`), with the setting in words (:func:`~nonoqubo.campaign.runs.describe`)."""
    rows = [row for rec in _group_records(groups)
            for row in rec.csv_rows("" if rec.setting_record is None else describe(rec.setting_record))]
    return csv_table(list(rows[0]), ([row[k] for k in rows[0]] for row in rows)) if rows else ""
