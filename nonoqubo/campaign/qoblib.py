"""A QOBLIB problem class of nonograms: ``nonoqubo suite --layout qoblib DIR``.

QOBLIB (the Quantum Optimization Benchmarking Library, github.com/ZIB-AOPT/QOBLIB,
Koch et al. 2025) lays every problem class out the same way; :func:`write_class` writes
the puzzles it is given (clue files, folders, globs, random families, as ``suite`` takes
them) as such a class::

    DIR/README.md                                    the class: problem, models, how to check and submit
    DIR/instances/NAME.non, README.md                the clues (Simpson's .non; no solution in them)
    DIR/models/binary_unconstrained/README.md        the QUBO model (domain wall, weights 1)
    DIR/models/binary_unconstrained/qs_files/NAME.qs[.xz], metrics.csv, README.md
    DIR/models/binary_linear/README.md               the 0-1 linear program (same variables)
    DIR/models/binary_linear/lp_files/NAME.lp[.xz], metrics.csv, README.md
    DIR/solutions/NAME.opt.pbm, README.md            a known solution (energy 0, optimal)
    DIR/check/check_nonogram.py, README.md           the checker: exit 0 valid, 1 invalid, 2 error
    DIR/submissions/README.md                        where submissions go (evaluate --submission)
    DIR/index.json, index.csv                        nonoqubo's suite index: evaluate DIR RUNS reads it

The models are built from the clues *without* their known solution, so no model file
carries the answer (a random member's picture, a ``goal`` line).  A solution is known
when the input gives one (a random picture, a clue file's goal), line logic solves the
puzzle, or CP-SAT finds one (installed: the ``cp`` extra; within ``truth_time``); it is
checked against the clues before it is written.  With ``truth`` the index and the
solutions README also record the number of solutions (CP-SAT, as ``suite --truth``).

The index lists each instance's clue file first: ``evaluate DIR RUNS`` builds its model
from the clues (the domain-wall QUBO at weights 1, the model the ``.qs`` file holds, which
a test checks), so compressed model files need no unpacking to be scored.

The class is written into a temporary folder beside *DIR* and renamed into place when
complete: an existing non-empty *DIR* is refused, and a failure leaves nothing.
Black-and-white puzzles only (the checker and the LP model's reading are), and names
must be file-name safe (:func:`check_instance_name`).

Examples:
    >>> import os, tempfile
    >>> from nonoqubo.generation.families import parse_family
    >>> out = os.path.join(tempfile.mkdtemp(), "10-nonogram")
    >>> res = write_class([], out, families=[parse_family("4x4:0.5:2:1")])
    >>> sorted(os.listdir(out))
    ['README.md', 'check', 'index.csv', 'index.json', 'instances', 'models', 'solutions', 'submissions']
    >>> res.built, res.solved
    (2, 2)
"""

from __future__ import annotations

import contextlib
import lzma
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from .. import clues, exports
from .._util.atomic import atomic_write
from ..errors import MissingDependency, NoSolution, NonoquboError, QoblibError, TimeLimit, WriteError
from ..logic.linesolve import line_solve
from ..model.estimate import check_fits
from ..model.puzzle import Puzzle
from ..pipeline import Models
from ..solvers.cpsat import TRUTH_TIME
from . import qoblib_check, qoblib_metrics
from ..generation.families import Family
from .suite import SuiteResult, file_entry, model_columns, plan, truth_columns, write_index

__all__ = ["COMPRESSIONS", "check_empty_folder", "check_instance_name", "folder_in_place", "pbm_text",
           "write_class", "write_text"]

#: ``--compress``: none, or xz (QOBLIB ships its model files as ``.xz``)
COMPRESSIONS = ("none", "xz")
QS_DIR = "models/binary_unconstrained/qs_files"
LP_DIR = "models/binary_linear/lp_files"
CHECKER = "check/check_nonogram.py"
#: what a file-name-safe instance name is made of (QOBLIB's instances: ms_03_050_002, brock200-1, C125-9)
_SAFE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._+-]{0,199}$")


def check_instance_name(name: str, where: str) -> None:
    """Refuse an instance name that is not file-name safe everywhere, or that QOBLIB's checker would skip.

    Safe: ASCII letters, digits and ``. _ + -``, starting with a letter or digit, at most 200
    characters; not ``misc`` (``check_submission.py`` skips a folder of that name).

    Raises:
        QoblibError: the name and what is wrong with it, prefixed by *where*.

    Examples:
        >>> check_instance_name("random-10x10-d0.5-s1-0001", "x")
        >>> check_instance_name("my heart", "--submission")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.QoblibError: --submission: instance 'my heart' is not a file-name-safe name (ASCII letters, digits and . _ + - only, starting with a letter or digit, at most 200 characters)
    """
    if not _SAFE_NAME.match(name):
        raise QoblibError(f"{where}: instance {name!r} is not a file-name-safe name (ASCII letters, digits and "
                          ". _ + - only, starting with a letter or digit, at most 200 characters)")
    if name.lower() == "misc":
        raise QoblibError(f"{where}: instance {name!r} would be skipped by QOBLIB's check_submission.py "
                          "(it ignores folders named misc); rename the puzzle")


def check_empty_folder(path: str, what: str) -> None:
    """Refuse *path* when it exists and is a file or a folder with anything in it.

    Raises:
        QoblibError: names the option (*what*) and the folder.
    """
    if os.path.isdir(path):
        if os.listdir(path):
            raise QoblibError(f"{what} {path}: the folder exists and is not empty (give a new or empty folder)")
    elif os.path.exists(path):
        raise QoblibError(f"{what} {path}: a file of that name exists (give a new or empty folder)")


def pbm_text(grid: Any, comment: str = "") -> str:
    """A black-and-white grid (rows of 0/1) as a plain PBM (``P1``) text, one picture row a line.

    Examples:
        >>> print(pbm_text([[1, 0], [0, 1]], "two cells"), end="")
        P1
        # two cells
        2 2
        1 0
        0 1
    """
    rows = [[int(c) for c in row] for row in grid]
    head = ["P1"] + [f"# {line}" for line in comment.splitlines() if comment]
    return "\n".join(head + [f"{len(rows[0]) if rows else 0} {len(rows)}"]
                     + [" ".join(map(str, r)) for r in rows]) + "\n"


@contextlib.contextmanager
def folder_in_place(out: str) -> Iterator[str]:
    """A temporary folder beside *out* to write into, renamed onto *out* (new or empty) when the block ends
    without an error, and removed when it raises: nothing partial is ever at *out*.

    Raises:
        WriteError: the temporary folder cannot be made.
    """
    parent = os.path.dirname(os.path.abspath(out))
    try:
        os.makedirs(parent, exist_ok=True)
        work = tempfile.mkdtemp(prefix=f".{os.path.basename(os.path.abspath(out))}-", dir=parent)
    except OSError as exc:
        raise WriteError(f"cannot write {out}: {exc.strerror or exc}") from None
    try:
        yield work
        if os.path.isdir(out):
            os.rmdir(out)  # empty: the callers refuse a folder with anything in it
        os.replace(work, out)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise


@dataclass
class _Instance:
    """One instance written: its index entry (the suite's kind, :func:`~nonoqubo.campaign.suite.model_columns`;
    how its solution is known is the entry's ``solution_source``) and its two metrics rows."""

    entry: dict[str, Any]
    qs_row: dict[str, Any]
    lp_row: dict[str, Any]
    #: a known solution was written (``solutions/NAME.opt.pbm``)
    solved: bool = False


def _known_solution(puzzle: Puzzle, bare: Puzzle, truth_time: float | None) -> tuple[Any, str]:
    """A solution grid of *bare* and where it comes from, or ``(None, why not)``."""
    if puzzle.solution is not None:
        return puzzle.solution_grid(), "given with the puzzle"
    line = line_solve(bare)
    if line.solved:
        return line.grid, "line logic"
    try:
        from ..solvers.cpsat import solutions

        found, _ = solutions(bare, limit=1, time_limit=truth_time)
        return found[0], "CP-SAT"
    except MissingDependency:
        return None, "unknown (CP-SAT not installed: the cp extra)"
    except NoSolution:
        return None, "none: CP-SAT proved the puzzle has no solution"
    except TimeLimit:
        return None, "unknown (CP-SAT time limit)"


def _write(root: str, rel: str, text: str, compress: str = "none") -> str:
    """Write *text* at *root/rel* (xz-compressed, ``.xz`` appended, when asked); the relative path written."""
    if compress != "xz":
        write_text(root, rel, text)
        return rel
    rel += ".xz"
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(lzma.compress(text.encode("utf-8"), preset=6))
    return rel


def _one(name: str, source: str, puzzle: Puzzle, root: str, compress: str, truth: bool, truth_limit: int,
         truth_time: float | None, force: bool) -> _Instance:
    if puzzle.is_colour:
        raise QoblibError(f"{source}: a colour puzzle; a QOBLIB class holds black-and-white puzzles only")
    check_fits(puzzle, source, force=force, write_bytes_per_term=exports.write_bytes_per_term(("qs", "lp")))
    bare = puzzle.with_solution(None)  # no model file carries the answer
    models = Models.build(bare)
    qs_text = str(exports.dumps(models.qubo, "qs"))
    constrained = models.constrained()
    lp_text = str(exports.dumps(constrained, "lp"))
    inst_rel = _write(root, f"instances/{name}.non", str(clues.dumps(bare, "non")))
    qs_rel = _write(root, f"{QS_DIR}/{name}.qs", qs_text, compress)
    lp_rel = _write(root, f"{LP_DIR}/{name}.lp", lp_text, compress)
    entry: dict[str, Any] = {"name": name, "source": source, **model_columns(models, name)}
    n, offset = int(models.qubo.num_vars), int(models.qubo.offset)
    entry["files"] = [file_entry(root, inst_rel, "non", "puzzle", n, offset),  # first: evaluate builds from the clues
                      file_entry(root, qs_rel, "qs", "qubo", n, offset),
                      file_entry(root, lp_rel, "lp", "constrained", int(constrained.num_vars), 0)]
    if truth:
        entry.update(truth_columns(bare, truth_limit, truth_time))
    grid, how = _known_solution(puzzle, bare, truth_time)
    solved = grid is not None
    if solved:
        if not bare.is_solution(grid):  # pragma: no cover - every source above gives solutions
            raise NonoquboError(f"{source}: the solution from {how} does not satisfy the clues")
        _write(root, f"solutions/{name}.opt.pbm",
               pbm_text(grid, f"{name}: a solution ({how}); QUBO energy 0 (optimal: every energy is >= 0)"))
    entry["solution_source"] = how
    entry["status"] = "ok"
    return _Instance(entry, qoblib_metrics.qs_metrics(f"{name}.qs", qs_text),
                     qoblib_metrics.lp_metrics(f"{name}.lp", constrained), solved)


def write_class(
    inputs: Sequence[str],
    out_dir: str | os.PathLike[str],
    *,
    families: Sequence[Family] = (),
    compress: str = "none",
    truth: bool = False,
    truth_limit: int = 2,
    truth_time: float | None = TRUTH_TIME,
    force: bool = False,
    progress: Callable[[int], None] | None = None,
) -> SuiteResult:
    """Write the puzzles of *inputs* and *families* as a QOBLIB problem class in *out_dir* (module docstring).

    Returns:
        The index entries written (the suite's kind of entry, in ``index.json``), ``built`` the
        instances and ``solved`` those with a known solution.

    Raises:
        QoblibError: *out_dir* exists and is not empty, an unknown *compress*, a colour puzzle, a
            name that is not file-name safe.
        NonoquboError: a missing input, no puzzle at all, a puzzle that cannot be read or built (the
            whole class is refused: nothing is written).
        MissingDependency: *truth* without ortools.
    """
    out = os.fspath(out_dir)
    if compress not in COMPRESSIONS:
        raise QoblibError(f"--compress must be one of {', '.join(COMPRESSIONS)}, not {compress!r}")
    check_empty_folder(out, "--layout qoblib: -o")
    from ..solvers.cpsat import check_truth_options

    check_truth_options(truth_limit, truth_time)
    if truth:
        from ..solvers.cpsat import require

        require("--truth")
    tasks = plan(inputs, families, out)
    if not tasks:
        raise NonoquboError("no puzzle to build: name clue files, folders, globs or a --random family")
    seen: dict[str, str] = {}
    for t in tasks:
        check_instance_name(t.name, f"--layout qoblib: {t.source}")
        if t.name.lower() in seen:  # one file on a case-insensitive file system (macOS, Windows)
            raise QoblibError(f"--layout qoblib: {t.source} and {seen[t.name.lower()]} give the instance names "
                              f"{t.name!r} and one that differs only in case; rename one")
        seen[t.name.lower()] = t.source
    start = time.perf_counter()
    done = []
    with folder_in_place(out) as work:
        for t in tasks:
            try:
                puzzle = t.draw(truth_time)[0]
                done.append(_one(t.name, t.source, puzzle, work, compress, truth, truth_limit, truth_time, force))
                if t.member is not None:  # the family's fields, as the generator knows them
                    done[-1].entry["family"] = t.member.fields()
            except NonoquboError as exc:  # one line that names the puzzle (the class is refused whole)
                if str(exc).startswith(t.source) or (t.path and str(exc).startswith(t.path)):
                    raise
                raise QoblibError(f"{t.source}: {exc}") from exc
            if progress is not None:
                progress(1)
        _write_folders(work, done, compress, truth)
        write_index([d.entry for d in done], work)
    return SuiteResult([d.entry for d in done], built=len(done), solved=sum(d.solved for d in done),
                       seconds=time.perf_counter() - start)


def _write_folders(root: str, done: Sequence[_Instance], compress: str, truth: bool) -> None:
    """Every README, both metrics tables, the checker and the submissions folder."""
    from . import qoblib_texts as texts

    ext = ".xz" if compress == "xz" else ""
    for folder, rows, columns in ((QS_DIR, [d.qs_row for d in done], qoblib_metrics.QS_COLUMNS),
                                  (LP_DIR, [d.lp_row for d in done], qoblib_metrics.LP_COLUMNS)):
        links = {str(r["file"]): f"{r['file']}{ext}" for r in rows}
        write_text(root, f"{folder}/metrics.csv", qoblib_metrics.metrics_csv(rows, columns))
        write_text(root, f"{folder}/README.md", qoblib_metrics.readme_table(rows, links))
    with open(qoblib_check.__file__, encoding="utf-8") as fh:
        write_text(root, CHECKER, fh.read())
    table = [(e["name"], e["width"], e["height"], e["variables"], e["solution_source"],
              e.get("solutions_label") if truth else None, e["source"]) for e in (d.entry for d in done)]
    for rel, text in texts.readmes(table, compress).items():
        write_text(root, rel, text)


def write_text(root: str, rel: str, text: str) -> None:
    """Write *text* (UTF-8, ``\\n`` line ends) at *root/rel*, making its folder."""
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with atomic_write(path) as fh:
        fh.write(text)
