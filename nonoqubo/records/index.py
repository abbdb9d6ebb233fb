"""A suite's index (``index.json``): its entries, and the one list of the models a campaign solves.

``nonoqubo suite`` and a QOBLIB class (``suite --layout qoblib``) write it through
:meth:`SuiteIndex.to_dict`; ``run`` (:mod:`nonoqubo.campaign.plan`), ``evaluate`` and the QOBLIB
writer read it with :meth:`SuiteIndex.read` and take its models from :meth:`SuiteIndex.models`, the
one derivation.  Its JSON Schema is ``schemas/suite-index.schema.json``::

    {"version": 2, "suite": "nonoqubo",
     "puzzles": [{"name": "logo", "source": "logo.non", "status": "ok", "width": 8, ...,
                  "family": {"kind": "random", "width": 5, "height": 5, "density": 0.5, "seed": 1, "number": 1},
                  "clues": {"path": "logo.clues.json", "format": "spec", "sha256": "..."},
                  "files": [{"format": "bqm", "kind": "qubo", "variant": "full", "path": "logo.bqm",
                             "sha256": "...", "variables": 120, ...}]}]}

An index with no ``version`` is version 1 (written before this format had one; a file's ``kind`` is
then read from its ``convention``).  Every entry's ``name`` is a file name (no folder separator, no
``..``, no NUL, not absolute) and every file path stays inside the suite: ``run`` names run files
after them.

The **models** of a suite (:class:`SuiteModel`) are, per entry whose status is ``ok``: its full model
(``NAME``: its first QUBO file, else its clue file, so a suite of any export format, LP, MPS or
MiniZinc included, can be run and evaluated; a QOBLIB class, which lists each instance's clue file
among its files, is solved and scored from its clues) and, where the suite wrote one, its presolved
QUBO file (``NAME.presolved``).

Examples:
    >>> doc = {"version": 2, "suite": "nonoqubo", "puzzles": [{"name": "a", "status": "ok", "width": 2,
    ...        "height": 1, "clues": {"path": "a.clues.json", "format": "spec", "sha256": "0" * 64},
    ...        "files": [{"format": "lp", "kind": "constrained", "variant": "full", "path": "a.lp",
    ...                   "sha256": "1" * 64, "variables": 3}]}]}
    >>> [(m.name, m.path) for m in SuiteIndex.from_dict(doc, "s/index.json", "s").models()]
    [('a', 's/a.clues.json')]
    >>> SuiteIndex.from_dict({"puzzles": [{"name": "../x", "status": "ok"}]}, "s/index.json", "s")
    Traceback (most recent call last):
    nonoqubo.errors.RecordError: s/index.json: puzzles[0]: name: a file name (no folder, no '..', no NUL), not '../x'
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .._util.atomic import atomic_write
from .._util.stream import read_bytes
from ..errors import NonoquboError, RecordError
from ..model.encodings import DEFAULT
from ..model.weights import Weights
from ._fields import Fields, check_version, loads, quoted
from .group import ModelInfo

__all__ = ["INDEX_CSV", "INDEX_FIGURES", "INDEX_HARDNESS", "INDEX_JSON", "INDEX_OPTIONAL", "INDEX_PRESOLVE_FIGURES",
           "INDEX_REPAIR", "INDEX_TRUTH", "NOT_KEPT", "SUITE_INDEX_VERSION", "IndexEntry", "IndexFile", "SuiteIndex",
           "SuiteModel", "check_digests", "file_digest", "safe_name", "up_to_date"]

INDEX_JSON = "index.json"
#: the index's table for a spreadsheet: one row per file, its entry's columns repeated (:meth:`SuiteIndex.write`)
INDEX_CSV = "index.csv"
#: puzzle columns of index.csv, in order (then the optional ones, the variant's, the file's)
CSV_PUZZLE = ("name", "source", "status", "error", "width", "height", "variables", "terms",
              "linear_terms", "quadratic_terms", "offset", "ground_energy", "line_solvable",
              "variables_after_presolve", "terms_after_presolve", "offset_after_presolve")
#: the variant columns of index.csv (after the puzzle's), in a suite built with variants
CSV_VARIANT = ("puzzle", "encoding", "weights", "max_degree")
CSV_FILE = ("format", "variant", "path", "sha256", "bytes", "ground_state", "convention")
#: the figures of :meth:`nonoqubo.pipeline.Models.figures` an index entry keeps, under the same names
INDEX_FIGURES = ("width", "height", "variables", "terms", "linear_terms", "quadratic_terms", "offset")
#: those of :meth:`nonoqubo.pipeline.Models.presolve_figures`
INDEX_PRESOLVE_FIGURES = ("variables_after_presolve", "terms_after_presolve", "offset_after_presolve")
#: the figures of :func:`nonoqubo.solvers.cpsat.truth` (``--truth``) an index entry keeps, under the same names
INDEX_TRUTH = ("solutions", "solutions_exact", "solutions_label", "solutions_limit", "unique",
               "solve_seconds", "proof_seconds", "timed_out")
#: the figures of :func:`nonoqubo.logic.hardness.hardness` an index entry keeps (``--truth``, ``--presolve probe``)
#: (the two counts of the hard core's size: cells open after one-cell probing, cells open after nonoqubo's
#: probing of the model's variables; the variables it leaves are ``variables_after_probe``)
INDEX_HARDNESS = ("hardness", "variables_after_line", "variables_after_probe", "probe_rounds",
                  "cells_open_after_cell_probing", "cells_open_after_variable_probing")
#: what the index keeps of a ``--unique=hard`` random member's making (:meth:`nonoqubo.generation.repair.Repaired.record`):
#: its uniqueness proof (CP-SAT's count up to 2: exactly 1) and the repair's steps, flips and time
INDEX_REPAIR = ("uniqueness_proof", "repair_steps", "repair_flips", "repair_restarts", "repair_seconds")
#: the optional column groups of index.csv nonoqubo's records know (``suite --embed``'s are the qpu layer's)
INDEX_OPTIONAL = (INDEX_TRUTH, INDEX_HARDNESS, INDEX_REPAIR)
#: the status of a puzzle ``suite --unique`` does not keep (not built; its ``reason`` says why)
NOT_KEPT = "not-kept"
#: the version of the index this nonoqubo writes, and the ones it reads
SUITE_INDEX_VERSION = 2
SUITE_INDEX_VERSIONS = (1, 2)
#: the ``suite`` key: which program wrote the index (an index.json without it is not a suite's)
WRITER = "nonoqubo"


def file_digest(path: str) -> str:
    """The sha256 of a file's bytes (hex), read in pieces: the digest an index records and a run record names."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def up_to_date(entry: Mapping[str, Any], key: str, folder: str) -> bool:
    """Whether a suite need not build *entry* again: it is ``ok``, made with *key* (its clues' and options' hash),
    and its clue file and every model file are in *folder* with the sha256 it records."""
    if entry.get("status") != "ok" or entry.get("key") != key:
        return False
    given = entry.get("clues")
    if not isinstance(given, dict):  # an index from before members' clues were written: build again
        return False
    for f in [*entry.get("files", []), given]:
        path = os.path.join(folder, f["path"])
        if not os.path.isfile(path) or file_digest(path) != f["sha256"]:
            return False
    return True


def safe_name(name: str) -> bool:
    """Whether *name* is one file name: not empty, no folder separator, not ``.``/``..``, no ``..``, no NUL."""
    return (bool(name) and "/" not in name and "\\" not in name and "\0" not in name and ".." not in name
            and name != "." and not os.path.isabs(name))


def _inside(rel: str) -> bool:
    """Whether the relative path *rel* stays inside its folder (no absolute path, no ``..`` part, no NUL)."""
    parts = rel.replace("\\", "/").split("/")
    return bool(rel) and "\0" not in rel and not os.path.isabs(rel) and ".." not in parts


def _kind(doc: Mapping[str, Any]) -> str:
    """A file's kind: recorded, or (version 1) read from its convention."""
    kind = doc.get("kind")
    if isinstance(kind, str):
        return kind
    convention = str(doc.get("convention", ""))
    return "constrained" if convention.startswith("feasibility") else \
        "puzzle" if convention.startswith("satisfaction") else "qubo"


@dataclass(frozen=True)
class IndexFile:
    """A file an entry wrote: its path (relative to the suite), format, kind, variant, sha256, variables."""

    path: str
    format: str
    sha256: str | None
    kind: str = "qubo"
    variant: str = "full"
    variables: int | None = None

    @classmethod
    def from_dict(cls, doc: Any, where: str) -> IndexFile:
        f = Fields(doc, where)
        path = f.text("path")
        if not _inside(path):
            raise f.fail("path", "a path inside the suite's folder", path)
        return cls(path, f.text("format", True) or "", f.text("sha256", True), _kind(doc),
                   f.text("variant", True) or "full", f.integer("variables", True))


@dataclass(frozen=True)
class IndexEntry:
    """One entry of the index: a puzzle (or a variant of one) and what the suite wrote of it.

    Attributes:
        name: the entry's name (a file name: :func:`safe_name`).
        status: ``ok``, ``error``, ``not-kept``.
        clues: its clue file, or None.
        files: its model files.
        family: the random family it was drawn from (``kind``, ``width``, ``height``, ``density``, ``seed``,
            ``number``), as the generator wrote it; None for a puzzle of a file.
        fields: the whole entry as the index holds it (its figures: width, variables, solutions, ...).
    """

    name: str
    status: str
    clues: IndexFile | None
    files: tuple[IndexFile, ...]
    family: Mapping[str, Any] | None
    fields: Mapping[str, Any] = field(default_factory=dict)

    @classmethod
    def from_dict(cls, doc: Any, where: str) -> IndexEntry:
        f = Fields(doc, where)
        name = f.text("name")
        if not safe_name(name):
            raise f.fail("name", "a file name (no folder, no '..', no NUL)", name)
        clues = f.mapping("clues", True)
        files = f.items("files", True) or []
        f.weights()  # checked here, so that a bad weight names the index
        f.text("encoding", True)
        family = f.mapping("family", True)
        if family is not None:
            fam = Fields(family, f"{where}: family")
            fam.integer("width", True, 1)
            fam.integer("height", True, 1)
            fam.number("density", True)
        return cls(name, f.text("status", True) or "ok",
                   None if clues is None else IndexFile.from_dict(clues, f"{where}: clues"),
                   tuple(IndexFile.from_dict(x, f"{where}: files[{i}]") for i, x in enumerate(files)),
                   family, dict(doc))


@dataclass(frozen=True)
class SuiteModel:
    """One model of a suite (the module docstring).

    Attributes:
        name: ``NAME`` or ``NAME.presolved``.
        puzzle: the puzzle it is a model of (``NAME`` of the puzzle, ``.presolved`` kept).
        path: the file solved: its QUBO file, or the clue file (absolute or relative to the working folder).
        clues: the entry's clue file, or None.
        digest: the sha256 the index records of *path*.
        variables: the variables of the file (0 when the index does not say).
        entry: the index entry.
    """

    name: str
    puzzle: str
    path: str
    clues: str | None
    digest: str | None
    variables: int
    entry: IndexEntry

    @property
    def family(self) -> Mapping[str, Any] | None:
        return self.entry.family

    @property
    def clue_digest(self) -> str | None:
        """The sha256 the index records of the clue file."""
        if self.entry.clues is not None:
            return self.entry.clues.sha256
        return next((f.sha256 for f in self.entry.files if f.kind == "puzzle"), None)

    def model_options(self, encoding: str | None, weights: Weights | None, builds: bool) -> tuple[str, Weights]:
        """The encoding and weights of the model a run of it samples: *encoding* and *weights* (a request's; None:
        the defaults) when the run builds it from its clues, else the index entry's (a model file keeps its own)."""
        if builds or self.path == self.clues:
            return encoding or DEFAULT.name, weights or Weights()
        fields = self.entry.fields
        return str(fields.get("encoding", DEFAULT.name)), Weights.of(fields.get("weights"))

    def described(self) -> ModelInfo:
        """What ``evaluate`` keeps of the model (a group's ``info``): its path, name, size, variables, puzzle,
        encoding and weights (spelt as ``--weights`` takes them), and where the index has them its clue file,
        family and CP-SAT's count of its solutions (``solutions``, ``solutions_exact``)."""
        fields = self.entry.fields
        solutions = fields.get("solutions")
        counted = isinstance(solutions, int) and not isinstance(solutions, bool)
        return ModelInfo(self.path, self.name, fields.get("width", 0), fields.get("height", 0), self.variables,
                         self.puzzle, fields.get("encoding", DEFAULT.name), str(Weights.of(fields.get("weights"))),
                         self.clues, self.family, solutions if counted else None,
                         fields.get("solutions_exact") if counted else None)

    def variables_after(self, presolve: str) -> int:
        """The variables *presolve* (``line``, ``probe``) leaves, as the index counts them, else :attr:`variables`."""
        for key in (f"variables_after_{presolve}", "variables_after_presolve"):
            value = self.entry.fields.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                return value
        return self.variables


def check_digests(models: Sequence[SuiteModel]) -> None:
    """Refuse a model file (or clue file) whose sha256 is not the one the suite's index records.

    Raises:
        NonoquboError: the first such file, in one line naming it and both digests.
    """
    seen: set[str] = set()
    for m in models:
        for path, digest in ((m.path, m.digest), (m.clues, m.clue_digest)):
            if path is None or digest is None or path in seen:
                continue
            seen.add(path)
            try:
                found = file_digest(path)
            except OSError as exc:
                raise NonoquboError(f"{path}: cannot read the suite's file ({exc.strerror or exc})") from None
            if found != digest:
                raise NonoquboError(f"{path}: its sha256 is {found[:16]}..., the suite's index records "
                                    f"{digest[:16]}...: the file changed after 'nonoqubo suite' wrote it; "
                                    "build the suite again (or restore the file)")


@dataclass(frozen=True)
class SuiteIndex:
    """A suite's index (the module docstring): its entries in order, and the folder it lies in."""

    entries: tuple[IndexEntry, ...]
    folder: str = ""
    version: int = SUITE_INDEX_VERSION

    def to_dict(self) -> dict[str, Any]:
        """The document ``index.json`` holds."""
        return {"version": self.version, "suite": WRITER, "puzzles": [dict(e.fields) for e in self.entries]}

    @classmethod
    def of(cls, entries: Sequence[Mapping[str, Any]], folder: str = "") -> SuiteIndex:
        """The index of entries as the suite makes them (each checked as it will be read; the mark
        ``skipped`` of an entry this run did not build again is not kept)."""
        kept = [{k: v for k, v in e.items() if k != "skipped"} for e in entries]
        return cls.from_dict({"version": SUITE_INDEX_VERSION, "suite": WRITER, "puzzles": kept},
                             os.path.join(folder, INDEX_JSON), folder)

    def write(self, optional: Sequence[Sequence[str]] = ()) -> None:
        """Write ``index.json`` (:meth:`to_dict`) and ``index.csv`` into the folder, each atomically.

        The CSV has one row per file, the entry's columns repeated (a failed entry one row with its error,
        a not-kept one its ``reason`` there): :data:`CSV_PUZZLE`, each group of *optional* columns some
        entry holds (the suite's truth, hardness, repair and embedding figures), :data:`CSV_VARIANT` when an
        entry is a variant of its puzzle (weights as ``--weights`` spells them), then :data:`CSV_FILE`.
        """
        with atomic_write(os.path.join(self.folder, INDEX_JSON)) as fh:
            json.dump(self.to_dict(), fh, indent=1)
            fh.write("\n")
        entries = [e.fields for e in self.entries]
        columns = CSV_PUZZLE + tuple(c for group in optional if any(k in e for e in entries for k in group)
                                     for c in group)
        varied = any(e.name != e.fields.get("puzzle", e.name) for e in self.entries)
        if varied:
            columns += CSV_VARIANT
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(columns + CSV_FILE)
        for e in entries:
            head = [json.dumps(v, sort_keys=True) if isinstance(v := e.get(k, ""), dict) else v for k in columns]
            if e.get("status") == NOT_KEPT:  # why --unique did not keep it, where an error would be
                head[columns.index("error")] = e.get("reason", "")
            if varied and isinstance(e.get("weights"), dict):
                head[columns.index("weights")] = str(Weights.of(e["weights"]))
            for f in e.get("files") or [{}]:
                writer.writerow(head + [f.get(k, "") for k in CSV_FILE])
        with atomic_write(os.path.join(self.folder, INDEX_CSV)) as fh:
            fh.write(buf.getvalue())

    @classmethod
    def from_dict(cls, doc: Any, source: str, folder: str) -> SuiteIndex:
        """The index of *doc*, every entry checked.

        Raises:
            RecordError: an unknown version, a name that leaves the folder, a field of the wrong type;
                one line naming *source*.
        """
        f = Fields(doc, source)
        version = 1 if "version" not in doc else check_version(doc, "version", SUITE_INDEX_VERSIONS, source)
        suite = doc.get("suite", WRITER)
        if suite != WRITER:
            raise f.fail("suite", f"{WRITER!r} (an index nonoqubo suite wrote)", suite)
        puzzles = f.items("puzzles")
        entries = tuple(IndexEntry.from_dict(e, f"{source}: puzzles[{i}]") for i, e in enumerate(puzzles))
        seen: set[str] = set()
        for e in entries:
            if e.name in seen:
                raise RecordError(f"{source}: the name {quoted(e.name)} is given twice")
            seen.add(e.name)
        return cls(entries, folder, version)

    @classmethod
    def read(cls, folder: str) -> SuiteIndex | None:
        """The index in *folder* (None when it has no ``index.json``).

        Raises:
            RecordError: an index.json that is not a suite's index (one line naming it).
            OSError: it cannot be read.
        """
        path = os.path.join(folder, INDEX_JSON)
        if not os.path.lexists(path):
            return None
        return cls.from_dict(loads(read_bytes(path, path), path), path, folder)

    @classmethod
    def models_in(cls, folder: str, where: str) -> list[SuiteModel]:
        """The models of the suite in *folder* (:meth:`models`), the one reading ``run`` and ``evaluate`` share.

        Raises:
            NonoquboError: no such folder, no suite's index in it, or no model built; one line that
                starts with *where* (the plan's key, or ``MODEL``).
            RecordError: an index.json that is not a suite's index (one line naming it).
        """
        if not os.path.isdir(folder):
            raise NonoquboError(f"{where}{folder}: no such folder (a folder 'nonoqubo suite' wrote)")
        index = cls.read(folder)
        if index is None or not index.entries:
            raise NonoquboError(f"{where}{folder} has no index.json of a suite (write one with 'nonoqubo suite')")
        models = index.models()
        if not models:
            raise NonoquboError(f"{where}{folder} holds no model that was built (status ok)")
        return models

    def by_name(self) -> dict[str, IndexEntry]:
        return {e.name: e for e in self.entries}

    def models(self) -> list[SuiteModel]:
        """The models of the suite (the module docstring), in the index's order."""
        out = []
        for entry in self.entries:
            if entry.status != "ok":
                continue
            puzzle = str(entry.fields.get("puzzle", entry.name))
            clue, clue_digest, listed = None, None, False
            if entry.clues is not None:
                clue, clue_digest = os.path.join(self.folder, entry.clues.path), entry.clues.sha256
            else:  # a QOBLIB class lists the instance's clue file among its files: its model is solved from it
                given = next((f for f in entry.files if f.kind == "puzzle"), None)
                if given is not None:
                    clue, clue_digest, listed = os.path.join(self.folder, given.path), given.sha256, True
            for variant in ("full", "presolved"):
                qubo = next((f for f in entry.files if f.variant == variant and f.kind == "qubo"), None)
                name = entry.name if variant == "full" else f"{entry.name}.presolved"
                shown = puzzle if variant == "full" else f"{puzzle}.presolved"
                if qubo is not None and not listed:
                    out.append(SuiteModel(name, shown, os.path.join(self.folder, qubo.path), clue, qubo.sha256,
                                          qubo.variables or 0, entry))
                elif variant == "full" and clue is not None:
                    variables = entry.fields.get("variables")
                    out.append(SuiteModel(name, shown, clue, clue, clue_digest,
                                          variables if isinstance(variables, int) else 0, entry))
        return out
