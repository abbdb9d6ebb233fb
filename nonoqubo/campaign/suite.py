"""Instance suites: a whole collection of puzzles built into a folder of models with an index.

People who benchmark an annealer or a heuristic export puzzles by the hundred.
:func:`run_suite` takes clue files, folders and globs of them (any clue
format, mixed; every puzzle of a multi-puzzle file) and generated families
(:mod:`nonoqubo.generation.families`), builds and writes each through the library
pipeline (:mod:`nonoqubo.pipeline`, as ``nonoqubo build`` does, with the same
figure names as ``nonoqubo info --json``), and writes into one folder:

* one model per puzzle and format, ``NAME.EXT`` (the format's first
  extension); with ``presolve`` also ``NAME.presolved.EXT``, the model with
  the variables line logic decides fixed (with ``presolve_method="probe"``,
  probing's residual model: :mod:`nonoqubo.logic.probe`).  Constrained formats
  (``lp``, ``mps``, ``cqm``) get the constrained model;
* ``PUZZLE.clues.json``: every member's clues (random members too), a spec file with the
  solution when it is known, so that any encoding or weighting can be built from the suite
  later; ``evaluate`` rebuilds a run's own model from them (the entry's ``clues``);
* ``index.json`` and ``index.csv``: per puzzle its name, source, size,
  variables, terms, offset, the ground-state energy (0; ``"none"`` for a puzzle ``--truth``
  proved unsolvable, whose ground state is above 0, with ``best_known_energy`` beside it,
  null until a run finds one: ``evaluate`` reports the campaign's), whether it is
  line-solvable, the variables left after presolve (with ``truth``, probing or
  ``unique="hard"`` also the hardness label, :data:`INDEX_HARDNESS`), and per file its format,
  SHA-256, size and the ground state *as the format's own convention reads
  it* (:func:`ground_state`: a format with no offset field reports
  ``-offset``; MQLib maximises ``offset - E``, so ``offset``).  The CSV has
  one row per file (puzzle fields repeated), a failed puzzle one row with its
  error.  With ``unique`` a puzzle of a file that fails the rule is not built: its
  entry has status ``not-kept`` and the ``reason`` (in the CSV's error column).

**Encodings and weights** (``variants``, ``suite --encoding domain-wall,one-hot
--weights ...``): every puzzle is built once per ``(encoding, weights)`` variant,
as its own index entry named ``NAME.ENCODING`` (``NAME.one-hot``), with
``.wA-B-C`` after it for weights other than 1 (``NAME.one-hot.w2-2-1``: shape 2,
order 2, cell 1), so that its files say which model they hold; the entry records
``puzzle`` (NAME), ``encoding`` and ``weights``.  Without variants a suite is as
before (one domain-wall entry per puzzle, named NAME).  Constrained formats are
written with the domain-wall variant at weights 1 only (the 0-1 program has no
encoding or weights of its own).

Puzzles are built in worker processes (``jobs``; a
:class:`~concurrent.futures.ProcessPoolExecutor`).  A puzzle that fails
(unreadable file, clues that do not fit, a format that cannot hold the model)
is recorded in the index with its error; the others go on.  A run can be
stopped and run again: a puzzle whose index entry has the same *key* (a hash
of its clues and of the options) and whose files are all present with the
recorded hashes is skipped.  The index is rewritten every few seconds and
when the run ends (also on Ctrl-C), so a stopped run resumes where it was.

Examples:
    >>> import tempfile, os
    >>> from nonoqubo.generation.families import parse_family
    >>> out = tempfile.mkdtemp()
    >>> res = run_suite([], out, formats=["qbsolv"], families=[parse_family("3x3:0.5:2:1")], jobs=1)
    >>> res.built, res.failed, sorted(os.listdir(out))[:2]
    (2, 0, ['index.csv', 'index.json'])
    >>> res.entries[0]["files"][0]["ground_state"] == -res.entries[0]["offset"]
    True
"""

from __future__ import annotations

import contextlib
import functools
import glob
import hashlib
import json
import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import as_completed
from dataclasses import dataclass, field, replace
from typing import Any

from .. import clues, exports
from .._util.names import file_stem
from .._util.stream import file_kind, is_stream
from ..records import INDEX_JSON, NOT_KEPT, SuiteIndex, file_digest, up_to_date
from ..records.index import INDEX_FIGURES, INDEX_HARDNESS, INDEX_OPTIONAL, INDEX_PRESOLVE_FIGURES, INDEX_REPAIR, INDEX_TRUTH
from ..errors import RecordError, FormatError, NonoquboError, TimeLimit, WriteError
from .._util.workers import pool, terminate_as_interrupt
from ..model.encodings import DEFAULT, Encoding, EncodingLike, encoding_named
from ..model.estimate import check_fits, check_random_fits
from ..logic.presolve import check_presolve
from ..model.puzzle import Puzzle
from ..model.weights import DEFAULT_WEIGHTS, Weights
from ..pipeline import Models, kind_of, write_files
from ..solvers.cpsat import TRUTH_TIME
from .._util.jobs import workers
from ..generation.families import MAX_MEMBERS, Family, Member, draw, unique_mode

__all__ = ["SuiteResult", "Task", "Variant", "file_entry", "ground_state", "model_columns", "plan", "read_index",
           "run_suite", "truth_columns", "variants_of", "write_index"]

#: seconds between rewrites of the index during a run
SAVE_EVERY = 5.0
#: names of files a folder holds beside its puzzles (never read as clues)
_NOT_CLUES = re.compile(r"^(readme|index|license|licence|copying)(\..*)?$", re.IGNORECASE)


def ground_state(format_name: str, kind: str, offset: int) -> tuple[int, str]:
    """The ground state (energy 0) as *format_name*'s own convention reads it, and that convention.

    Examples:
        >>> ground_state("qbsolv", "qubo", 120)
        (-120, 'minimise, offset not in the terms: E - offset')
        >>> ground_state("mqlib", "qubo", 120)
        (120, "maximise x'Qx = offset - E")
    """
    if kind == "constrained":
        return 0, "feasibility: zero objective, every constraint holds"
    if kind == "puzzle":
        return 0, "satisfaction: the puzzle itself (every solution is a ground state of the QUBO)"
    convention = exports.get_format(format_name).OFFSET  # the format module's own fact
    if convention == "negated":
        return int(offset), "maximise x'Qx = offset - E"
    if convention == "excluded":
        return -int(offset), "minimise, offset not in the terms: E - offset"
    return 0, "minimise E (offset carried)"


# -- planning ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Task:
    """One puzzle to build: a clue file (and its position in a multi-puzzle file) or a family member."""

    name: str
    source: str
    path: str | None = None
    index: int | None = None
    member: Member | None = None
    #: the model variant: ``None`` for the plain domain-wall entry of a suite without variants
    variant: Variant | None = None
    #: the puzzle, read with the rest of its multi-puzzle file in one pass (:func:`clues.read_all`) ...
    puzzle: Puzzle | None = None
    #: ... or why it could not be read (its located error)
    error: str | None = None

    def draw(self, time_limit: float | None = None,
             step: Callable[[str], None] | None = None) -> tuple[Puzzle, int, dict[str, Any]]:
        """The puzzle, the draws a ``--unique`` member skipped because *time_limit* (seconds for each CP-SAT
        proof) stopped their proof, and what the index keeps of how it was made (a hard core's proof and repair,
        :data:`INDEX_REPAIR`); *step* hears how a hard core's repair goes, step by step."""
        if self.member is not None:
            drawn = draw(self.member, time_limit, step)
            return drawn.puzzle, drawn.undecided, drawn.record
        if self.puzzle is not None:
            return self.puzzle, 0, {}
        if self.error is not None:
            raise FormatError(self.error)
        if self.path is None:
            raise NonoquboError(f"{self.name}: the task names neither a file nor a family member")
        options: dict[str, Any] = {} if self.index is None else {"index": self.index}
        return clues.load(self.path, **options), 0, {}


def _files_of(inputs: Iterable[str], skip: str | None = None) -> list[str]:
    """Clue files named by *inputs*: files, folders (recursively, sorted, never into *skip*), globs."""
    out: list[str] = []
    skip = os.path.realpath(skip) if skip else None
    for item in inputs:
        if os.path.isdir(item):
            before = len(out)
            for root, dirs, names in os.walk(item):
                dirs[:] = sorted(d for d in dirs if not d.startswith(".")
                                 and os.path.realpath(os.path.join(root, d)) != skip)
                if os.path.realpath(root) == skip:
                    continue
                found = [os.path.join(root, n) for n in sorted(names) if not n.startswith(".") and not _NOT_CLUES.match(n)]
                stream = next((f for f in found if is_stream(f)), None)
                if stream is not None:  # a FIFO waited 10 s, a link to /dev/zero read 1 GiB: refused, never opened
                    raise NonoquboError(f"{stream}: {file_kind(os.stat(stream).st_mode)} in the folder {item}, not a "
                                        "clue file; a folder's files are read only when regular: remove it, or "
                                        "name it on the command line")
                out.extend(found)
            if len(out) == before:
                raise NonoquboError(f"{item}: no clue file in this folder")
        elif os.path.exists(item):
            out.append(item)
        elif not glob.has_magic(item):
            raise NonoquboError(f"{item}: no such file or folder")
        else:
            matches = sorted(glob.glob(item, recursive=True))
            if not matches:
                raise NonoquboError(f"{item}: no file matches this pattern")
            out.extend(m for m in matches if os.path.isfile(m))
    return out


#: characters no file name should hold on some system (controls, separators, Windows' reserved), and spaces
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|\s]+')
_DOTS = re.compile(r"\.{2,}")  # no ``..`` in a name: an index's names are checked for it (records.safe_name)
#: bytes of a name's UTF-8 kept (file systems allow 255, and the model's extension follows)
_NAME_BYTES = 200


def _safe(name: str) -> str:
    """*name* as a file name: Unicode kept, unsafe characters made ``_``, no leading dot.

    Examples:
        >>> _safe("café"), _safe("猫"), _safe("a/b: c?"), _safe(".hidden")
        ('café', '猫', 'a_b_c', 'hidden')
    """
    safe = _DOTS.sub(".", _UNSAFE.sub("_", unicodedata.normalize("NFC", name))).strip("._")
    safe = safe.encode("utf-8")[:_NAME_BYTES].decode("utf-8", "ignore")
    return safe or "puzzle"


def plan(inputs: Sequence[str], families: Sequence[Family] = (), out_dir: str | None = None) -> list[Task]:
    """The tasks of a suite, in order, each with a distinct file name (*out_dir* is never read).

    Raises:
        NonoquboError: a file that does not exist, a folder with no clue file, a glob that matches nothing.
    """
    tasks: list[Task] = []
    for path in _files_of(inputs, out_dir):
        stem = _safe(file_stem(path))  # random-20x20-d0.5-s1-0001.clues.json: random-20x20-d0.5-s1-0001
        try:  # the whole file in one pass: a 1,000-puzzle file is not read again per puzzle
            found = clues.read_all(path)
        except (OSError, NonoquboError):  # a file that cannot be read: its one task loads it and says why
            tasks.append(Task(stem, path, path))
            continue
        if len(found) == 1 and found[0].index is None:  # the file's one puzzle: named after the file
            tasks.append(Task(stem, path, path, puzzle=found[0].puzzle, error=_error_text(found[0].error)))
            continue
        for read in found:
            label = _safe(read.name) if read.name else f"{stem}-{read.index}"
            tasks.append(Task(label, f"{path}#{read.index}", path, read.index, puzzle=read.puzzle,
                              error=_error_text(read.error)))
    for fam in families:
        tasks.extend(Task(m.name, m.source, member=m) for m in fam.members())
    seen: dict[str, int] = {}
    unique = []
    for t in tasks:
        n = seen.get(t.name, 0) + 1
        seen[t.name] = n
        unique.append(t if n == 1 else replace(t, name=f"{t.name}-{n}"))
    return unique


def _error_text(error: Exception | None) -> str | None:
    return None if error is None else str(error)


# -- variants ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Variant:
    """One model of every puzzle: an encoding and penalty weights."""

    encoding: Encoding = DEFAULT
    weights: Weights = DEFAULT_WEIGHTS

    @property
    def tag(self) -> str:
        """``one-hot``, ``domain-wall.w2-2-1``: what a file name says of the variant."""
        w = self.weights
        return self.encoding.name + ("" if w.is_default else f".w{w.shape}-{w.order}-{w.cell}")


def variants_of(encodings: Sequence[EncodingLike] | None, weights: Sequence[Weights | str] | None
                ) -> list[Variant] | None:
    """Every ``(encoding, weights)`` combination, or None when neither is given (a plain suite).

    Raises:
        UnknownEncoding: an unknown encoding (``--encoding``).
        WeightsError: bad weights.

    Examples:
        >>> [v.tag for v in variants_of(["domain-wall", "one-hot"], ["cell=2"])]
        ['domain-wall.w1-1-2', 'one-hot.w1-1-2']
        >>> variants_of(None, None) is None
        True
    """
    if not encodings and not weights:
        return None
    names = [encoding_named(e, "--encoding") for e in (encodings or [DEFAULT])]
    ws = [Weights.of(w, "--weights") for w in (weights or [DEFAULT_WEIGHTS])]
    return list(dict.fromkeys(Variant(e, w) for e in names for w in ws))


# -- one puzzle --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Options:
    out_dir: str
    formats: tuple[str, ...]
    presolve: bool = False
    force: bool = False
    truth: bool = False
    truth_limit: int = 2
    truth_time: float | None = None
    #: ``--embed``: the topology spec, and the search (seed, tries, timeout, use the cache)
    embed: str | None = None
    embed_search: tuple[int, int, float, bool] = (1, 1, 1000.0, True)
    #: ``--presolve probe``: the presolved files (and the index's presolve figures) are probing's
    presolve_method: str = "line"
    #: ``--unique`` for the puzzles of files: ``"cpsat"``, ``"line"`` or ``"hard"``; one that fails is not kept
    unique: str | None = None


def unique_refusal(puzzle: Puzzle, rule: str, time_limit: float | None) -> str | None:
    """Why *puzzle* fails the ``--unique`` *rule* (None: it passes), as a random family's draws are kept.

    ``line``: line logic settles every cell; ``cpsat``: CP-SAT proves it unique (a count within
    *time_limit*); ``hard``: proven unique and one-cell probing
    (:func:`nonoqubo.generation.repair.open_after_cell_probing`) leaves cells open.

    Raises:
        TimeLimit: the time limit stopped CP-SAT before its first solution.
    """
    from ..logic.linesolve import line_solve

    if rule == "line":
        return None if line_solve(puzzle).solved else "not line-solvable (--unique=line)"
    if rule == "hard":
        from ..generation.repair import open_after_cell_probing

        if open_after_cell_probing(puzzle) == 0:  # one-cell probing (line logic included) settles it
            return "not a hard core: probing settles it (--unique=hard)"
    from ..solvers.cpsat import count_solutions

    found, exact = count_solutions(puzzle, 2, time_limit=time_limit)
    if exact and found == 1:
        return None
    what = "not unique (CP-SAT finds a second solution)" if found >= 2 else "no solution" if exact \
        else "uniqueness unknown (time limit)"
    return f"{what} (--unique{'' if rule == 'cpsat' else '=' + rule})"


def _key(puzzle: Puzzle, options: Options, variant: Variant | None = None) -> str:
    from .._version import __version__

    doc = {"rows": puzzle.rows, "cols": puzzle.cols, "formats": options.formats,
           "presolve": options.presolve, "version": __version__}
    if variant is not None:  # keys of suites without variants unchanged
        doc.update(encoding=variant.encoding.name, weights=list(variant.weights))
    if options.truth:  # keys of suites without --truth unchanged
        doc.update(truth=options.truth_limit, truth_time=options.truth_time)
    if options.embed:  # nor without --embed
        doc.update(embed=options.embed, embed_search=list(options.embed_search[:3]))
    if options.presolve_method != "line":  # nor without --presolve probe
        doc.update(presolve_method=options.presolve_method)
    if options.unique == "hard":  # nor without --unique=hard (its entries carry the hardness label)
        doc.update(unique=options.unique)
    if puzzle.is_colour:  # the same lengths in other colours are another puzzle (black-and-white keys unchanged)
        doc.update(palette=puzzle.palette.names, row_colours=puzzle.row_colours, col_colours=puzzle.col_colours)
    return hashlib.sha256(json.dumps(doc, sort_keys=True).encode()).hexdigest()[:16]


def build_one(task: Task, options: Options, previous: dict[str, Any] | None = None,
              step: Callable[[str], None] | None = None) -> dict[str, Any]:
    """Build, write and describe one puzzle; never raises for a bad puzzle (the entry records it); *step* hears
    how a hard core's repair goes (:meth:`Task.draw`).

    Returns:
        The index entry; ``"skipped": True`` (not stored) when *previous* was up to date.
    """
    entry: dict[str, Any] = {"name": task.name, "source": task.source}
    try:
        puzzle, undecided, made = task.draw(options.truth_time, step)
        variant = task.variant
        check_fits(puzzle, task.source, force=options.force,
                   write_bytes_per_term=exports.write_bytes_per_term(options.formats),
                   encoding=variant.encoding if variant else DEFAULT)
        if options.unique is not None and task.member is None:  # a family's draws obey the rule already
            why = unique_refusal(puzzle, options.unique, options.truth_time)
            if why is not None:
                return {**entry, "status": NOT_KEPT, "reason": why}
        key = _key(puzzle, options, variant)
        if previous is not None and up_to_date(previous, key, options.out_dir):
            return {**previous, "skipped": True}
        entry.update(_describe_and_write(task.name, puzzle, options, variant))
        entry["key"] = key
        entry["status"] = "ok"
        if undecided:  # --unique draws the time limit left unproven: skipped, so the family leans to fast proofs
            entry["undecided_draws"] = undecided
        entry.update({key: made[key] for key in INDEX_REPAIR if key in made})  # a repaired hard core's proof
        if task.member is not None:  # the family's fields, as the generator knows them (never parsed from a name)
            entry["family"] = task.member.fields()
    except KeyboardInterrupt:  # pragma: no cover - the pool is being shut down
        raise
    except Exception as exc:  # noqa: BLE001 - one bad puzzle must not stop the suite
        entry["status"] = "error"
        entry["error"] = str(exc) if isinstance(exc, (NonoquboError, OSError)) else f"{type(exc).__name__}: {exc}"
        if isinstance(exc, TimeLimit):  # a --unique proof the time limit stopped: not kept, and never "unique"
            from ..solvers.cpsat import UNKNOWN

            entry.update(unique=False, solutions_label=UNKNOWN, timed_out=True)
    return entry


def _describe_and_write(name: str, puzzle: Puzzle, options: Options, variant: Variant | None = None
                        ) -> dict[str, Any]:
    v = variant or Variant()
    models = Models.build(puzzle, encoding=v.encoding, weights=v.weights, presolve=options.presolve_method)
    out = model_columns(models, name[: len(name) - len(v.tag) - 1] if variant is not None else name)
    variants: list[tuple[str, str]] = [("full", "")]
    if options.presolve:
        variants.append(("presolved", ".presolved"))
    files = []
    for fmt in options.formats:
        mod = exports.get_format(fmt)
        kind = kind_of(mod)
        if kind == "constrained" and v != Variant():
            continue  # the 0-1 program is the domain wall's, unweighted: written with that variant only
        for form, infix in variants:
            model = models.model(kind, form)
            rel = f"{name}{infix}.{mod.EXTENSIONS[0]}"
            path = os.path.join(options.out_dir, rel)
            write_files(models, [(path, mod)], variant=form)
            files.append(file_entry(options.out_dir, rel, mod.NAME, kind, int(model.num_vars),
                                    int(getattr(model, "offset", 0)), form))
    out["clues"] = _write_clues(out["puzzle"], puzzle, options.out_dir)
    out["files"] = files
    if options.truth:
        found = truth_columns(puzzle, options.truth_limit, options.truth_time)
        out.update(found)
        if found["solutions"] == 0 and found["solutions_exact"]:
            # proven unsolvable: no state has energy 0, and the lowest (> 0) is not known until a run finds it
            out.update(ground_energy=NO_GROUND, best_known_energy=None)
            for f in files:  # energy 0 is not reached, in any format's convention
                f["ground_state"] = NO_GROUND
    if options.truth or options.presolve_method == "probe" or options.unique == "hard":  # the hardness label
        from ..logic.hardness import hardness

        found = hardness(puzzle, v.encoding, models.probe).to_dict()
        out.update({key: found[key] for key in INDEX_HARDNESS})
    if options.embed:
        out.update(_embed_columns(models, options))
    return out


# -- an index entry's columns (the suite's and a QOBLIB class's: one index) --------------------
def model_columns(models: Models, puzzle: str) -> dict[str, Any]:
    """What an index entry says of a built model, after its name and source, in the index's order.

    The size (:data:`INDEX_FIGURES`), the puzzle it is a variant of, its encoding and weights, its
    largest degree, the ground energy 0, line-solvability and the presolve figures
    (:data:`INDEX_PRESOLVE_FIGURES`, line logic always, or probing), the build time.  A suite's
    entries and a QOBLIB class's (:mod:`nonoqubo.campaign.qoblib`) are made here, so both indexes
    are one kind of entry, which ``evaluate DIR RUNS`` reads.
    """
    fig, pre = models.figures(), models.presolve_figures()
    out: dict[str, Any] = {key: fig[key] for key in INDEX_FIGURES}
    out.update(puzzle=puzzle, encoding=models.qubo.encoding.name, weights=models.qubo.weights.as_dict(),
               max_degree=fig["max_degree"])
    out.update(ground_energy=0, line_solvable=pre["line_solvable"],
               **{key: pre[key] for key in INDEX_PRESOLVE_FIGURES}, build_seconds=fig["build_seconds"])
    return out


def file_entry(root: str, rel: str, format_name: str, kind: str, variables: int, offset: int,
               variant: str = "full") -> dict[str, Any]:
    """An index entry's line for the written file *root/rel*: its format, variant, path, hash, size,
    variables, offset and the ground state as the format reads it (:func:`ground_state`)."""
    path = os.path.join(root, rel)
    ground, convention = ground_state(format_name, kind, offset)
    return {"format": format_name, "kind": kind, "variant": variant, "path": rel, "sha256": file_digest(path),
            "bytes": os.path.getsize(path), "variables": variables, "offset": offset, "ground_state": ground,
            "convention": convention}


def truth_columns(puzzle: Puzzle, limit: int, time_limit: float | None) -> dict[str, Any]:
    """The :data:`INDEX_TRUTH` columns of *puzzle*: its solutions counted by CP-SAT up to *limit* (``--truth``)."""
    from ..solvers.cpsat import truth

    found = truth(puzzle, limit, time_limit=time_limit).to_dict()
    return {key: found[key] for key in INDEX_TRUTH}


#: ``ground_energy`` of a puzzle CP-SAT proved unsolvable: its ground state is above 0 and unknown
NO_GROUND = "none"
#: the clue file every member gets beside its models (a spec file: any palette, the solution when known)
CLUES_SUFFIX = ".clues.json"


def _write_clues(puzzle_name: str, puzzle: Puzzle, out_dir: str) -> dict[str, Any]:
    """Write the member's clues beside its models, ``PUZZLE.clues.json``, so any encoding or weights
    can be built from the suite later (``evaluate`` rebuilds a run's own model from them).

    Every variant of a puzzle writes the same file (atomically); random members included.

    Returns:
        The index's ``clues`` entry: ``path`` (relative to the suite), ``format``, ``sha256``.
    """
    rel = f"{puzzle_name}{CLUES_SUFFIX}"
    path = os.path.join(out_dir, rel)
    clues.dump(puzzle, path, format="spec")
    return {"path": rel, "format": "spec", "sha256": file_digest(path)}


def _embed_columns(models: Models, options: Options) -> dict[str, Any]:
    """``--embed``: the qubits and chains of the full and the presolved model (:data:`nonoqubo.qpu.cache.INDEX_EMBEDDING`)."""
    from ..qpu.cache import fit_figures, index_columns
    from ..qpu.topology import parse_topology

    assert options.embed is not None
    topology = parse_topology(options.embed)
    seed, tries, timeout, use_cache = options.embed_search
    search: dict[str, Any] = {"seed": seed, "tries": tries, "timeout": timeout, "use_cache": use_cache}
    raw = fit_figures(models.qubo, topology, **search)
    presolved = fit_figures(models.presolve(), topology, presolved=True, **search)
    return index_columns(raw, presolved, topology)


# -- the index ---------------------------------------------------------------------------------
def write_index(entries: Sequence[dict[str, Any]], out_dir: str) -> None:
    """Write ``index.json`` and ``index.csv`` (:meth:`SuiteIndex.write <nonoqubo.records.SuiteIndex.write>`,
    every entry checked as it will be read), with the truth, hardness, repair and embedding columns it holds."""
    from ..qpu.cache import INDEX_EMBEDDING

    SuiteIndex.of(entries, out_dir).write((*INDEX_OPTIONAL, INDEX_EMBEDDING))


def read_index(out_dir: str) -> dict[str, dict[str, Any]]:
    """The entries of a previous run's ``index.json`` by name ({} when there is none).

    Raises:
        NonoquboError: an ``index.json`` no suite wrote (or damaged past reading): one line, before anything
            is written; the suite does not replace it.
    """
    try:
        index = SuiteIndex.read(out_dir)
    except RecordError as exc:
        raise NonoquboError(f"{exc}; not the index of a suite: -o {out_dir} would replace it, so nothing is "
                            "written (move it away or choose another folder)") from None
    except OSError as exc:
        raise NonoquboError(f"{os.path.join(out_dir, INDEX_JSON)}: cannot read it ({exc.strerror or exc})") from None
    return {} if index is None else {e.name: dict(e.fields) for e in index.entries}


# -- the run -----------------------------------------------------------------------------------
@dataclass
class SuiteResult:
    """What a run wrote: the index entries (plan order; what ``index.json`` holds) and counts.

    :func:`run_suite` and a QOBLIB class (:func:`nonoqubo.campaign.qoblib.write_class`) both return it.
    """

    entries: list[dict[str, Any]] = field(default_factory=list)
    built: int = 0
    skipped: int = 0
    failed: int = 0
    seconds: float = 0.0
    #: puzzles of files ``--unique`` did not keep
    not_kept: int = 0
    #: instances whose known solution was written beside them (a QOBLIB class's ``solutions/``)
    solved: int = 0
    #: entries of the folder's index this run did not build, kept in it (the suite merged into the folder's)
    kept: int = 0


def run_suite(
    inputs: Sequence[str],
    out_dir: str | os.PathLike[str],
    *,
    formats: Sequence[str] = ("qubo-json",),
    presolve: bool = False,
    families: Sequence[Family] = (),
    jobs: int | None = None,
    progress: Callable[[int], None] | None = None,
    on_total: Callable[[int], None] | None = None,
    force: bool = False,
    truth: bool = False,
    truth_limit: int = 2,
    truth_time: float | None = TRUTH_TIME,
    variants: Sequence[Variant] | None = None,
    embed: str | None = None,
    embed_search: tuple[int, int, float, bool] = (1, 1, 1000.0, True),
    presolve_method: str = "line",
    unique: bool | str | None = None,
    status: Callable[[str], None] | None = None,
) -> SuiteResult:
    """Build a suite (see the module docstring).

    Args:
        inputs: clue files, folders, globs.
        out_dir: the output folder (created).
        formats: export format names (``nonoqubo formats``).
        presolve: also write the presolved variant of every model.
        presolve_method: ``"probe"``: the presolved variant (and the index's presolve figures) is
            probing's residual model, and the index gets the hardness label (:data:`INDEX_HARDNESS`).
        families: generated families (:func:`nonoqubo.generation.families.parse_family`).
        unique: ``--unique`` for the puzzles of *inputs* (``True``/``"cpsat"``, ``"line"``, ``"hard"``;
            a family carries its own): a puzzle that fails it is not built, and its index entry
            has status :data:`~nonoqubo.records.NOT_KEPT` and the ``reason``.
        jobs: worker processes (default ``os.cpu_count()``; 1 builds in this process).
        progress: called with 1 after each puzzle.
        status: called with a line of where a puzzle's making stands, as it goes (a hard core's repair:
            ``NAME: repair step K of 1500, R restarts, C cells open``), from the workers too.
        on_total: called once with the number of puzzles, before the first is built.
        truth: also count every puzzle's solutions with CP-SAT (up to *truth_limit*, each search
            within *truth_time* seconds) and record them with the times
            (:func:`nonoqubo.solvers.cpsat.truth`; :data:`INDEX_TRUTH`).
        truth_time: seconds for each CP-SAT search of *truth* and of a ``unique="cpsat"`` family's
            proofs (None: no limit).  A count it stops is never "unique"; a draw whose proof it
            stops is not kept (the entry counts them, ``undecided_draws``), and a member with
            :data:`~nonoqubo.generation.families.MAX_UNDECIDED` of them in a row is an error entry
            with ``solutions_label`` ``unknown (time limit)``.
        embed: a topology (``pegasus:16``, a QPU properties file ...): also embed every full and
            presolved model on it and record qubits and chains (:func:`nonoqubo.qpu.cache.fit_figures`,
            through the embedding cache; :data:`nonoqubo.qpu.cache.INDEX_EMBEDDING`).
        embed_search: minorminer's (seed, tries, timeout per try, use the cache) for *embed*.
        force: build models the memory guard refuses (every puzzle is checked; a refused one
            is recorded as failed, and a random size is refused from its size before anything).
        variants: build every puzzle once per :class:`Variant` (encoding and weights, see
            :func:`variants_of`), named ``NAME.TAG``; None: one domain-wall model per puzzle.

    Raises:
        UnsupportedFormat: an unknown format name (checked before anything is built).
        NonoquboError: a missing file, a folder with no clue file, a glob that matches nothing, or no puzzle at all.
        WriteError: the output folder cannot be made.
        ModelTooLarge: a random family's size whose expected model would not fit (not *force*).
        MissingDependency: *truth*, or a family with ``unique="cpsat"``, without ortools; *embed*
            without the dwave extra.
        TopologyError: *embed* names no topology (checked before anything is built).
        EmbeddingError: *embed_search* holds a seed, tries or timeout minorminer cannot take (checked first).
    """
    jobs = workers(jobs)
    if embed:
        from ..qpu.topology import parse_topology

        from ..qpu.embedding import check_search

        check_search(*embed_search[:3], prefix="--embed-")
        topology = parse_topology(embed, "--embed")  # one line before any work; workers read it by its full path
        embed = topology.spec if topology.path is None else os.path.abspath(topology.path)
    rule = unique_mode(unique)
    if truth or rule in ("cpsat", "hard") or any(unique_mode(f.unique) in ("cpsat", "hard") for f in families):
        from ..solvers.cpsat import require

        require("--truth" if truth else "--unique (proven by CP-SAT; --unique=line needs nothing)")
    from ..solvers.cpsat import check_truth_options

    check_truth_options(truth_limit, truth_time)
    names = tuple(dict.fromkeys(exports.get_format(f).NAME for f in formats))
    if not names:
        raise NonoquboError("no output format: give at least one -f FORMAT")
    encodings = sorted({v.encoding for v in variants}) if variants else [DEFAULT]
    asked = sum(len(fam.sizes) * fam.count for fam in families)
    if asked > MAX_MEMBERS:  # each family is bounded when parsed; so are all of them together
        raise NonoquboError(f"--random: the families ask for {asked:,} puzzles, above the {MAX_MEMBERS:,} a suite "
                            "may draw; split them over several suites")
    for fam in families:  # from the sizes, before any picture is drawn or the folder made
        for width, height in fam.sizes:
            for encoding in encodings:
                check_random_fits(width, height, fam.density, f"--random {width}x{height}:{fam.density:g}",
                                  force=force, write_bytes_per_term=exports.write_bytes_per_term(names),
                                  encoding=encoding)
    out = os.fspath(out_dir)
    tasks = plan(inputs, families, out)
    if variants:
        tasks = [replace(t, name=f"{t.name}.{v.tag}", variant=v) for t in tasks for v in variants]
    if not tasks:
        raise NonoquboError("no puzzle to build: name clue files, folders, globs or a --random family")
    try:
        os.makedirs(out, exist_ok=True)
    except OSError as exc:
        raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None
    if on_total is not None:
        on_total(len(tasks))
    options = Options(out, names, presolve, force, truth, int(truth_limit), truth_time, embed,
                      (int(embed_search[0]), int(embed_search[1]), float(embed_search[2]), bool(embed_search[3])),
                      check_presolve(presolve_method), rule)
    previous = read_index(out)
    done: dict[int, dict[str, Any]] = {}
    start = last_save = time.perf_counter()

    def record(i: int, entry: dict[str, Any]) -> None:
        nonlocal last_save
        done[i] = entry
        if progress is not None:
            progress(1)
        if time.perf_counter() - last_save > SAVE_EVERY:
            _save(tasks, done, previous, out)
            last_save = time.perf_counter()

    try:
        if jobs == 1 or len(tasks) == 1:
            for i, t in enumerate(tasks):
                record(i, build_one(t, options, previous.get(t.name), status))
        else:
            with terminate_as_interrupt(), pool(min(jobs, len(tasks))) as executor, _relay(status) as step:
                futures = {executor.submit(build_one, t, options, previous.get(t.name), step): i
                           for i, t in enumerate(tasks)}
                try:
                    for fut in as_completed(futures):
                        record(futures[fut], fut.result())
                except BaseException:
                    for f in futures:
                        f.cancel()
                    raise
    finally:
        _save(tasks, done, previous, out)
    entries = [done[i] for i in range(len(tasks))]
    return SuiteResult(
        entries=entries,
        built=sum(1 for e in entries if e.get("status") == "ok" and not e.get("skipped")),
        skipped=sum(1 for e in entries if e.get("skipped")),
        failed=sum(1 for e in entries if e.get("status") not in ("ok", NOT_KEPT)),
        not_kept=sum(1 for e in entries if e.get("status") == NOT_KEPT),
        seconds=time.perf_counter() - start,
        kept=sum(1 for name in previous if name not in {t.name for t in tasks}),
    )


@contextlib.contextmanager
def _relay(status: Callable[[str], None] | None) -> Iterator[Callable[[str], None] | None]:
    """A *status* callback the pool's workers can call: their lines go through a manager's queue to a thread
    of this process that hands them to *status* (None: no relay, nothing is started)."""
    if status is None:
        yield None
        return
    import multiprocessing
    import queue as queues
    import threading

    with multiprocessing.Manager() as manager:
        lines = manager.Queue()
        stop = threading.Event()

        def pump() -> None:  # until told to stop and every line sent before is passed on
            while True:
                try:
                    status(lines.get(timeout=0.2))
                except queues.Empty:
                    if stop.is_set():
                        return
                except (EOFError, OSError):  # the manager is gone: the suite is ending
                    return

        thread = threading.Thread(target=pump, name="nonoqubo-suite-status", daemon=True)
        thread.start()
        try:
            yield functools.partial(_put, lines)
        finally:
            stop.set()
            thread.join()


def _put(lines: Any, line: str) -> None:
    lines.put(line)


def _save(tasks: Sequence[Task], done: dict[int, dict[str, Any]], previous: dict[str, dict[str, Any]],
          out: str) -> None:
    """The index of what is finished; unfinished puzzles keep their previous entry (still valid on disk)."""
    entries = []
    for i, t in enumerate(tasks):
        if i in done:
            entries.append(done[i])
        elif t.name in previous:
            entries.append(previous[t.name])
    names = {t.name for t in tasks}
    entries.extend(e for name, e in previous.items() if name not in names)  # an earlier suite's entries stay
    write_index(entries, out)
