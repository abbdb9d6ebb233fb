"""Judge a benchmark campaign: the figures annealing papers report, from thousands of samples.

A *campaign* is one or more models (an exported model file, a clue file, or a
folder written by :mod:`nonoqubo.campaign.suite`) and many sample files, grouped by
*setting* (a solver and its parameters).  For every ``(model, setting)``
:func:`evaluate` reports:

* ``samples``: the runs judged (a sample seen ``k`` times, ``num_occurrences``,
  counts ``k`` times), ``valid``: those of energy 0 (a solution);
* ``p``: the success probability ``valid / samples``, with its 95 % Wilson
  score interval ``[p_lo, p_hi]`` (:func:`wilson`);
* ``r99``: the runs needed to see a solution with 99 % probability,
  ``ln(0.01) / ln(1 - p)``, and ``tts99 = t * r99`` with ``t`` the seconds per
  run (read from the files, :mod:`nonoqubo.campaign.runtime`, or given).  Conventions
  (:func:`runs_to_solution`): ``p = 0`` gives infinity; at least one run is
  always needed, so ``p >= 0.99`` (and ``p = 1``) gives ``r99 = 1``, ``tts99 =
  t``.  The interval of ``tts99`` is ``t * r99`` at ``p_hi`` and at ``p_lo``;
* ``time_source``: where ``t`` came from: ``"sampler timing"`` (the solver timed its own
  runs: dwave-samplers' ``sampling_ns``, OpenJij's per-read times, a QPU's anneal time,
  qbsolv, MQLib), ``"wall clock"`` (measured around the runs: ``solve -o`` for samplers
  that report no time of their own, OMMX's start and end), ``"given"`` (``seconds``,
  ``--time``), ``"recorded"`` (a ``seconds_per_run`` with no source beside it), ``"none"``
  (no time: ``tts99`` is None), or ``"mixed: a, b"`` when the group's files differ
  (:func:`nonoqubo.campaign.runtime.time_per_run`);
* the residual energy (the energy above the ground state 0): min, the 10/25/
  50/75/90 % quantiles (inverted-CDF, as ``numpy.quantile(...,
  method="inverted_cdf")`` of the samples with repeats), max and mean;
* the shares of samples with at least one broken wall, block-order violation
  or cell conflict (:mod:`nonoqubo.answers.decode`);
* how often each line of the picture fails its clue and how often each cell
  is in conflict (row view differs from column view): the most often wrong
  lines and cells, and the whole heat map (for the HTML report);
* the best (lowest-energy) picture;
* ``run`` (in :func:`records`, beside the figures): what the files say of the run that made
  them (``solve -o`` writes it in the SampleSet's ``info["nonoqubo"]``): ``sampler``,
  ``parameters``, ``version`` (nonoqubo's), ``machine`` and the ``timing`` summary
  (``seconds_per_run``, ``time_source``, ``per_run``, ``wall_seconds``); a value that differs
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

**Encodings and weights.**  Every group names its model's ``encoding`` and
``weights`` (from the model file, or from the suite's index, which also gives
the ``puzzle`` a variant belongs to: ``suite --encoding domain-wall,one-hot``
writes ``NAME.domain-wall``, ``NAME.one-hot``, ...).  When a campaign holds
more than one variant, the groups are sorted by setting, puzzle, encoding and
weights, so the variants of a puzzle stand side by side.

Grouping (see :func:`plan_runs`): a sample folder named on the command line
is a setting when its files lie directly in it; its sub-folders are settings
otherwise (``runs/sa-1000/*.json`` -> setting ``sa-1000``).  A lone sample
file's setting is its folder's name.  With a suite folder as the model, a
sample file belongs to the puzzle whose name starts its file name (or one of
its folders); ``NAME.presolved...`` files to the presolved model.

Examples:
    >>> wilson(0, 10)[0], round(wilson(5, 10)[1], 4)
    (0.0, 0.7634)
    >>> runs_to_solution(0.0), runs_to_solution(1.0), round(runs_to_solution(0.5), 4)
    (inf, 1.0, 6.6439)
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .._util import notebook
from ..answers.decode import Analysis, Decoder
from ..inputs import load_model
from ..errors import FormatError, MissingDependency, NonoquboError, SampleError
from ..model.encodings import DEFAULT
from ..model.palette import BW, Palette
from ..model.weights import DEFAULT_WEIGHTS, Weights
from ._options import run_seconds, workers
from .runtime import time_per_run

__all__ = [
    "QUANTILES", "Campaign", "Evaluation", "Group", "Run", "Tally", "check_options", "csv_text", "evaluate", "figures", "plan_runs",
    "polisher", "records", "runs_to_solution", "weighted_quantiles", "wilson",
]

#: the residual-energy quantiles reported
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
#: z of the 95 % Wilson interval
Z95 = 1.959963984540054
#: lines and cells listed as most often wrong
TOP = 5


# -- statistics --------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n = 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half) if k else 0.0, min(1.0, centre + half) if k < n else 1.0


def runs_to_solution(p: float, target: float = 0.99) -> float:
    """Runs needed to see a success with probability *target*: ``ln(1-target)/ln(1-p)``, at least 1."""
    if p <= 0.0:
        return math.inf
    if p >= target:
        return 1.0
    return max(1.0, math.log(1.0 - target) / math.log1p(-p))


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """Inverted-CDF quantiles of *values* repeated *weights* times (no repetition is made)."""
    order = np.argsort(values, kind="stable")
    v, cw = values[order], np.cumsum(weights[order])
    idx = np.searchsorted(cw, np.asarray(qs, dtype=np.float64) * cw[-1], side="left")
    return v[np.minimum(idx, v.size - 1)]


# -- the additive figures of a batch -----------------------------------------------------------
@dataclass
class Tally:
    """What a batch of samples contributes to its group; tallies add up (:meth:`merge`)."""

    energies: np.ndarray  # (S,) int64
    weights: np.ndarray  # (S,) int64
    broken: int  # samples (weighted) with a broken wall
    order: int
    conflict: int
    cell_wrong: np.ndarray  # (H*W,) weighted count of samples where the cell is in conflict
    line_wrong: np.ndarray  # (lines,) weighted count of samples where the line fails its clue
    best_energy: int
    best_grid: np.ndarray  # (H, W) int8 colour indices (0 = background; 0/1 in black and white)
    palette: Palette = BW
    #: the distinct valid pictures (their colour-index bytes)
    found: frozenset[bytes] = frozenset()

    @classmethod
    def of(cls, analysis: Analysis, weights: np.ndarray, palette: Palette = BW) -> Tally:
        w = weights.astype(np.int64)
        # the cell terms are per (cell, colour) slot, cell-major: a cell is wrong when any of its
        # colours disagree (one slot a cell in black and white)
        samples, height, width = analysis.grid.shape
        slots = analysis.row_colour != analysis.col_colour
        conflicts = slots.reshape(samples, height * width, -1).any(axis=2)
        best = int(np.argmin(analysis.energy))
        valid = analysis.grid[(analysis.energy == 0) & (w > 0)].astype(np.int8)
        found = frozenset(row.tobytes() for row in np.unique(valid.reshape(len(valid), height * width), axis=0))
        return cls(
            energies=analysis.energy.astype(np.int64), weights=w,
            broken=int(w @ analysis.broken.any(axis=1)), order=int(w @ analysis.order.any(axis=1)),
            conflict=int(w @ conflicts.any(axis=1)),
            cell_wrong=w @ conflicts, line_wrong=w @ analysis.failing,
            best_energy=int(analysis.energy[best]), best_grid=analysis.grid[best].astype(np.int8),
            palette=palette, found=found,
        )

    def merge(self, other: Tally) -> Tally:
        best = other if other.best_energy < self.best_energy else self
        return Tally(
            np.concatenate((self.energies, other.energies)), np.concatenate((self.weights, other.weights)),
            self.broken + other.broken, self.order + other.order, self.conflict + other.conflict,
            self.cell_wrong + other.cell_wrong, self.line_wrong + other.line_wrong,
            best.best_energy, best.best_grid, best.palette, self.found | other.found,
        )

    @property
    def samples(self) -> int:
        return int(self.weights.sum())

    @property
    def valid(self) -> int:
        return int(self.weights[self.energies == 0].sum())


# -- judging one file (runs in a worker) -------------------------------------------------------
@dataclass
class FileResult:
    """One sample file judged: raw (and polished) tallies, its reads and recorded time per run."""

    path: str
    reads: int
    seconds: float | None
    raw: Tally
    polished: Tally | None = None
    time_source: str = "none"
    run: dict[str, Any] | None = None


_DECODERS: dict[str, Decoder] = {}
_POLISHERS: dict[str, Any] = {}


def _decoder(model_path: str, force: bool = False) -> Decoder:
    if model_path not in _DECODERS:  # the memory guard first (ModelTooLarge names the file and --force)
        try:
            _DECODERS[model_path] = Decoder(load_model(model_path, force=force))
        except SampleError as exc:  # labels or energies that contradict the file's own clues: name the file
            raise FormatError(f"{model_path}: {exc}") from None
    return _DECODERS[model_path]


def polisher(model_path: str) -> Callable[[np.ndarray], np.ndarray]:
    """``bits -> bits`` after a steepest descent on the model's own QUBO."""
    if model_path in _POLISHERS:
        return _POLISHERS[model_path]
    try:
        from dwave.samplers import SteepestDescentSolver
    except ImportError:
        raise MissingDependency("dwave-samplers", "solvers", "--polish (steepest descent)") from None
    from ..model.puzzle import Puzzle
    from ..model.qubo import Qubo
    from ..solvers.base import index_bqm

    decoder = _decoder(model_path)
    qubo = decoder.qubo if isinstance(decoder.model, Puzzle) else decoder.model  # a clue file: its QUBO as built
    if not isinstance(qubo, Qubo):
        raise NonoquboError(f"{model_path}: --polish needs a QUBO model; this is a constrained model")
    n = qubo.num_vars
    bqm = index_bqm(qubo)  # the model's own BQM, labelled 0..N-1 in its variable order
    solver = SteepestDescentSolver()

    def polish(bits: np.ndarray) -> np.ndarray:
        if n == 0 or bits.shape[0] == 0:
            return bits
        result = solver.sample(bqm, initial_states=(bits, list(range(n))))
        out = np.empty_like(bits)
        out[:, np.asarray(list(result.variables), dtype=np.int64)] = result.record.sample
        return out

    _POLISHERS[model_path] = polish
    return polish


def judge_file(model_path: str, samples_path: str, polish: bool = False, samples_format: str | None = None,
               force: bool = False) -> FileResult:
    """Read, decode and tally one sample file (and its polished samples).

    Raises:
        SampleError, FormatError, UnsupportedFormat, OSError: the file cannot be read or matched.
    """
    decoder = _decoder(model_path, force)
    batch = decoder.batch(Path(samples_path), format=samples_format)  # the samples registry, as decode reads them
    text = _searched_text(Path(samples_path).read_bytes())
    weights = (np.ones(len(batch), np.int64) if batch.num_occurrences is None
               else np.asarray(batch.num_occurrences, np.int64))
    palette = decoder.puzzle.palette if decoder.puzzle is not None else BW
    raw = Tally.of(decoder.analyse(batch.bits), weights, palette)
    polished = None
    if polish:
        polished = Tally.of(decoder.analyse(polisher(model_path)(batch.bits)), weights, palette)
    reads = int(weights.sum())
    seconds, source = time_per_run(text, reads)
    return FileResult(samples_path, reads, seconds, raw, polished, source, recorded_run(text))


_RUN_KEY = re.compile(r'"nonoqubo"\s*:\s*\{')


def _searched_text(data: bytes) -> str:
    """The text a samples file's timing and run record are searched in (:func:`time_per_run`, :func:`recorded_run`).

    Not the samples: the registry reads those (with each format's own bytes-to-text step).
    The keys searched for are ASCII, so any byte may stand around them: undecodable bytes
    of a text file become U+FFFD, and a binary file (an archive) is read byte for byte.
    """
    if b"\x00" in data[:4096]:
        return data.decode("latin-1")
    return data.decode("utf-8-sig", errors="replace")


def recorded_run(text: str) -> dict[str, Any] | None:
    """The run record ``solve -o`` writes in a SampleSet's ``info["nonoqubo"]``, without its per-read lists.

    Only that object is parsed (found by its key), not the whole file again.
    """
    m = _RUN_KEY.search(text)
    if m is None:
        return None
    try:
        record, _ = json.JSONDecoder().raw_decode(text, m.end() - 1)
    except ValueError:
        return None
    if not isinstance(record, dict) or "sampler" not in record:
        return None
    timing = given if isinstance(given := record.get("timing"), dict) else {}
    return {"sampler": record.get("sampler"), "parameters": record.get("parameters"),
            "version": record.get("version"), "machine": record.get("machine"),
            "timing": {k: timing.get(k) for k in ("seconds_per_run", "time_source", "per_run", "wall_seconds")}}


def _merged(records: Sequence[dict[str, Any] | None]) -> dict[str, Any] | None:
    """Records merged key by key; where they differ, the list of the distinct values (None if any is missing)."""
    if not records or any(r is None for r in records):
        return None
    out: dict[str, Any] = {}
    for key in records[0]:  # type: ignore[union-attr]
        values = [r.get(key) for r in records]  # type: ignore[union-attr]
        if all(isinstance(v, dict) for v in values):
            out[key] = _merged(values)
            continue
        distinct: list[Any] = []
        for v in values:
            if v not in distinct:
                distinct.append(v)
        out[key] = distinct[0] if len(distinct) == 1 else distinct
    return out


def _judge(args: tuple[str, str, bool, str | None, bool]) -> FileResult | str:
    """:func:`judge_file` for a pool: a file that cannot be judged comes back as its error message."""
    try:
        return judge_file(*args)
    except (NonoquboError, OSError, ValueError) as exc:
        if isinstance(exc, OSError) and not isinstance(exc, NonoquboError):
            return f"{exc.filename or args[1]}: {exc.strerror or exc}"
        message = str(exc)
        return message if args[1] in message or args[0] in message else f"{args[1]}: {message}"


# -- planning ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Run:
    """One sample file: which model it answers and under which setting."""

    model: str  # the model's name
    setting: str
    path: str


@dataclass
class Campaign:
    """Models by name (their file and size) and the runs to judge."""

    models: dict[str, dict[str, Any]]
    runs: list[Run]


def _sample_files(folder: str) -> list[str]:
    out: list[str] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        out.extend(os.path.join(root, n) for n in sorted(names) if not n.startswith("."))
    return out


def _settings(samples: Sequence[str], setting: str | None) -> list[tuple[str, str]]:
    """(setting, file) pairs for the sample arguments (see the module docstring)."""
    pairs = []
    for item in samples:
        if os.path.isdir(item):
            base = os.path.basename(os.path.normpath(os.path.abspath(item)))
            found = _sample_files(item)
            if not found:
                raise NonoquboError(f"{item}: no sample file in this folder")
            for path in found:
                rel = Path(os.path.relpath(path, item))
                pairs.append((setting or (rel.parts[0] if len(rel.parts) > 1 else base), path))
        elif not os.path.exists(item):
            raise NonoquboError(f"{item}: no such file or folder")
        else:
            pairs.append((setting or os.path.basename(os.path.dirname(os.path.abspath(item))) or ".", item))
    return pairs


def _suite_models(folder: str) -> dict[str, dict[str, Any]]:
    from .suite import read_index

    index = read_index(folder)
    if not index:
        raise NonoquboError(f"{folder}: a folder given as MODEL must hold a suite's index.json "
                            "(written by 'nonoqubo suite')")
    models: dict[str, dict[str, Any]] = {}
    for name, entry in index.items():
        if entry.get("status") != "ok":
            continue
        for variant in ("full", "presolved"):
            files = [f for f in entry.get("files", []) if f.get("variant") == variant
                     and not f.get("convention", "").startswith("feasibility")]
            if files:
                key = name if variant == "full" else f"{name}.presolved"
                puzzle = entry.get("puzzle", name)
                models[key] = {"path": os.path.join(folder, files[0]["path"]), "name": key,
                               "width": entry["width"], "height": entry["height"],
                               "variables": files[0]["variables"],
                               "puzzle": puzzle if variant == "full" else f"{puzzle}.presolved",
                               "encoding": entry.get("encoding", DEFAULT.name),
                               "weights": str(Weights.of(entry.get("weights"))),
                               **({"solutions": entry["solutions"], "solutions_exact": entry.get("solutions_exact")}
                                  if isinstance(entry.get("solutions"), int) else {})}
    return models


def _owner(path: str, root_parts: Sequence[str], names: Sequence[str]) -> str | None:
    """The longest model name that starts the file name or names one of its folders."""
    base = os.path.basename(path)
    best = None
    for name in names:
        hit = (base == name or any(base.startswith(name + sep) for sep in ".-_")
               or name in root_parts)
        if hit and (best is None or len(name) > len(best)):
            best = name
    if best is not None and ".presolved" in base and f"{best}.presolved" in names:
        best = f"{best}.presolved"
    return best


def plan_runs(model: str, samples: Sequence[str], setting: str | None = None, *, force: bool = False) -> Campaign:
    """The models and runs of a campaign.

    Args:
        model: an exported model file, a clue file, or a suite folder.
        samples: sample files and folders.
        setting: one setting name for every file (default: from the folders).

    Raises:
        NonoquboError: a missing sample file, a folder with none, no sample file at all, or (with a
            suite) a file that matches no puzzle.
    """
    pairs = _settings(samples, setting)
    if not pairs:
        raise NonoquboError("no sample file to judge")
    if os.path.isdir(model):
        models = _suite_models(model)
        names = sorted(models)
        runs = []
        for s, path in pairs:
            owner = _owner(path, Path(path).parts[:-1], names)
            if owner is None:
                raise NonoquboError(f"{path}: matches no puzzle of the suite {model} "
                                    "(name sample files after the puzzle: NAME.json, NAME-run1.json, NAME/...)")
            runs.append(Run(owner, s, path))
        return Campaign(models, runs)
    name = Path(model).name
    decoder = _decoder(model, force)
    models = {name: {"path": model, "name": name, "width": decoder.puzzle.width,
                     "height": decoder.puzzle.height, "variables": len(decoder.labels), "puzzle": name,
                     "encoding": str(decoder.encoding), "weights": str(decoder.weights)}}
    return Campaign(models, [Run(name, s, p) for s, p in pairs])


# -- the figures -------------------------------------------------------------------------------
@dataclass
class Group:
    """Everything about one ``(model, setting)``."""

    model: str
    setting: str
    info: dict[str, Any]
    files: int
    seconds: float | None
    raw: Tally
    polished: Tally | None = None
    line_names: list[str] = field(default_factory=list)
    #: where ``seconds`` came from (the module docstring), and what the files record of their run
    time_source: str = "none"
    run: dict[str, Any] | None = None

    def figures(self, stage: str = "raw") -> dict[str, Any]:
        tally = self.raw if stage == "raw" else self.polished
        if tally is None:
            raise ValueError(f"no {stage} figures")
        out = figures(tally, self.seconds, self.info["width"], self.line_names, self.time_source)
        out["solutions"] = self.info.get("solutions")
        out["solutions_exact"] = self.info.get("solutions_exact")
        return out


class Evaluation(list[Group]):
    """What :func:`evaluate` returns: its :class:`Group` s, a plain list that also draws itself.

    In Jupyter it shows the page ``evaluate --report`` writes (header, figures, table) in a frame,
    drawn by :func:`nonoqubo.campaign.report_html.evaluation_html` (matplotlib, extra
    ``campaign``; without it the text ``repr``).
    """

    def _repr_html_(self) -> str | None:
        return notebook.show(self, "html")


def figures(tally: Tally, seconds: float | None, width: int, line_names: Sequence[str],
            time_source: str | None = None) -> dict[str, Any]:
    """The reported figures of a tally (see the module docstring); *time_source* says where *seconds* came from."""
    n, k = tally.samples, tally.valid
    p = k / n if n else 0.0
    lo, hi = wilson(k, n)
    r99, r_lo, r_hi = runs_to_solution(p), runs_to_solution(hi), runs_to_solution(lo)
    e, w = tally.energies, tally.weights
    qs = weighted_quantiles(e, w, (0.0, *QUANTILES, 1.0))
    out: dict[str, Any] = {
        "samples": n, "valid": k, "p": p, "p_lo": lo, "p_hi": hi,
        "seconds_per_run": seconds,
        "time_source": time_source or ("none" if seconds is None else "given"), "r99": r99, "r99_lo": r_lo, "r99_hi": r_hi,
        "tts99": None if seconds is None else seconds * r99,
        "tts99_lo": None if seconds is None else seconds * r_lo,
        "tts99_hi": None if seconds is None else seconds * r_hi,
        "energy_min": int(qs[0]),
        **{f"energy_q{round(q * 100):02d}": int(v) for q, v in zip(QUANTILES, qs[1:-1])},
        "energy_max": int(qs[-1]), "energy_mean": float(w @ e / n) if n else 0.0,
        "share_broken_walls": tally.broken / n if n else 0.0,
        "share_order_violations": tally.order / n if n else 0.0,
        "share_cell_conflicts": tally.conflict / n if n else 0.0,
    }
    lines = np.argsort(-tally.line_wrong, kind="stable")[:TOP]
    out["worst_lines"] = [{"line": line_names[int(t)], "share": float(tally.line_wrong[t] / n)}
                          for t in lines if tally.line_wrong[t] > 0]
    cells = np.argsort(-tally.cell_wrong, kind="stable")[:TOP]
    out["worst_cells"] = [{"row": int(c) // width + 1, "column": int(c) % width + 1,
                           "share": float(tally.cell_wrong[c] / n)} for c in cells if tally.cell_wrong[c] > 0]
    out["distinct_solutions"] = len(tally.found)
    out["best_energy"] = tally.best_energy
    out["best_picture"] = list(tally.palette.picture(tally.best_grid))
    return out


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
) -> Evaluation:
    """Judge a campaign (see the module docstring).

    Args:
        model: an exported model file, a clue file, or a suite folder.
        samples: sample files and folders of them.
        setting: one setting name for all files (default: from the folders).
        seconds: seconds per run, overriding what the files record.
        polish: also judge the samples after a steepest-descent pass.
        samples_format: the samples' format (detected per file when None).
        jobs: worker processes (default ``os.cpu_count()``; 1 judges in this process).
        progress: called with 1 after each file.
        force: read a model even when the memory guard says it will not fit.

    Returns:
        One :class:`Group` per ``(model, setting)``, sorted by setting, then model size and name
        (an :class:`Evaluation`: a list that shows the HTML report in Jupyter).

    Raises:
        NonoquboError: a file that cannot be read or matched (the first, in plan order; no
            figures are returned), or no samples.
        MissingDependency: ``polish`` without dwave-samplers.
    """
    jobs = workers(jobs)
    seconds = run_seconds(seconds)
    campaign = plan_runs(model, samples, setting, force=force)
    if polish:  # fail before judging anything when dwave-samplers is missing
        try:
            import dwave.samplers  # noqa: F401
        except ImportError:
            raise MissingDependency("dwave-samplers", "solvers", "--polish (steepest descent)") from None
    tasks = [(campaign.models[r.model]["path"], r.path, polish, samples_format, force) for r in campaign.runs]
    results: list[FileResult | str]
    if jobs == 1 or len(tasks) == 1:
        results = []
        for t in tasks:
            results.append(_judge(t))
            if progress is not None:
                progress(1)
    else:
        with ProcessPoolExecutor(max_workers=min(jobs, len(tasks))) as pool:
            results = []
            for res in pool.map(_judge, tasks, chunksize=max(1, len(tasks) // (8 * jobs))):
                results.append(res)
                if progress is not None:
                    progress(1)
    for res in results:
        if isinstance(res, str):
            raise NonoquboError(res)
    return Evaluation(_groups(campaign, [r for r in results if not isinstance(r, str)], seconds))


def _groups(campaign: Campaign, results: Sequence[FileResult], seconds: float | None) -> list[Group]:
    acc: dict[tuple[str, str], list[FileResult]] = {}
    for run, res in zip(campaign.runs, results):
        acc.setdefault((run.model, run.setting), []).append(res)
    groups = []
    for (name, setting), items in acc.items():
        raw, polished = items[0].raw, items[0].polished
        for it in items[1:]:
            raw = raw.merge(it.raw)
            polished = None if polished is None or it.polished is None else polished.merge(it.polished)
        sources = sorted({it.time_source for it in items})
        if seconds is not None:
            t: float | None = seconds
            source = "given"
        elif len(known := [it.seconds for it in items if it.seconds is not None]) == len(items):
            t = sum(s * it.reads for s, it in zip(known, items)) / max(1, sum(it.reads for it in items))
            source = sources[0] if len(sources) == 1 else "mixed: " + ", ".join(sources)
        else:
            t = None
            source = "none"
        info = campaign.models[name]
        lines = ([f"row {i + 1}" for i in range(info["height"])]  # Layout.line_name, without the model
                 + [f"column {j + 1}" for j in range(info["width"])])
        groups.append(Group(name, setting, info, len(items), t, raw, polished, lines, source,
                            _merged([it.run for it in items])))
    variants = {(g.info.get("encoding", DEFAULT.name), g.info.get("weights", str(DEFAULT_WEIGHTS))) for g in groups}
    if len(variants) > 1:  # an A/B campaign: the variants of a puzzle side by side
        size: dict[Any, int] = {}
        for g in groups:
            size.setdefault(g.info.get("puzzle", g.model), g.info["width"] * g.info["height"])
        groups.sort(key=lambda g: (g.setting, size[g.info.get("puzzle", g.model)], g.info.get("puzzle", g.model),
                                   g.info.get("encoding", DEFAULT.name), g.info.get("weights", ""), g.model))
    else:
        groups.sort(key=lambda g: (g.setting, g.info["variables"], g.model))
    return groups


# -- plain data for scripts --------------------------------------------------------------------
def _plain(value: Any) -> Any:
    """JSON-safe: infinity becomes the string ``"inf"`` (JSON has no infinity)."""
    if isinstance(value, float) and math.isinf(value):
        return "inf"
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def records(groups: Sequence[Group]) -> list[dict[str, Any]]:
    """One JSON-safe dict per group: model, setting, files, size, ``raw`` (and ``polished``) figures, ``run``."""
    out = []
    for g in groups:
        rec: dict[str, Any] = {"model": g.model, "setting": g.setting, "files": g.files,
                               "variables": g.info["variables"], "width": g.info["width"],
                               "height": g.info["height"], "puzzle": g.info.get("puzzle", g.model),
                               "encoding": g.info.get("encoding", DEFAULT.name),
                               "weights": g.info.get("weights", str(DEFAULT_WEIGHTS)),
                               "raw": _plain(g.figures("raw"))}
        if g.polished is not None:
            rec["polished"] = _plain(g.figures("polished"))
        rec["run"] = g.run
        out.append(rec)
    return out


def csv_text(groups: Sequence[Group]) -> str:
    """The figures as CSV: one row per (model, setting, stage); lists as ``name:share;...``."""
    import csv
    import io

    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    header: list[str] | None = None
    for rec in records(groups):
        for stage in ("raw", "polished"):
            if stage not in rec:
                continue
            f = dict(rec[stage])
            f.pop("best_picture")
            f["worst_lines"] = ";".join(f"{x['line']}:{x['share']:.4g}" for x in f["worst_lines"])
            f["worst_cells"] = ";".join(f"{x['row']},{x['column']}:{x['share']:.4g}" for x in f["worst_cells"])
            row = {"model": rec["model"], "setting": rec["setting"], "stage": stage, "files": rec["files"],
                   "variables": rec["variables"], "width": rec["width"], "height": rec["height"],
                   "puzzle": rec["puzzle"], "encoding": rec["encoding"], "weights": rec["weights"], **f}
            if header is None:
                header = list(row)
                writer.writerow(header)
            writer.writerow(["" if row[k] is None else row[k] for k in header])
    return buf.getvalue()
