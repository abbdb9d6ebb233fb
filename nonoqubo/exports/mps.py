"""MPS text of the constrained model, written by HiGHS (``highspy``), for MIP solvers.

MPS is the column-oriented fixed/free format of IBM's MPSX, read by every MIP
solver.  nonoqubo does not write it by hand: it passes the constraint matrix
to HiGHS (``Highs.passModel`` with the CSR arrays, no per-term Python) and
lets HiGHS' own writer (``Highs.writeModel("x.mps")``) produce the file, then
puts its self-describing ``*`` comment lines (the same keys as the LP export's
``\\`` lines: clues, counts, fixed variables, solution; see
:func:`nonoqubo.exports.lp.metadata_lines`) in front.  What HiGHS 1.16 writes::

    * nonoqubo constrained model, format 1: ...
    NAME        qbpp-logo
    ROWS
     N  NoObj
     E  cell_0_0                  <- E equality, G >=, L <=
     G  wall_y0_k0_p0
    COLUMNS
        MARK0000  'MARKER'                 'INTORG'
        y0_0_0    cell_0_0  -1         <- column, row, coefficient
        ...
        MARK0001  'MARKER'                 'INTEND'
    RHS
        RHS_V     cell_0_1  1          <- only nonzero right-hand sides
    BOUNDS
     BV BOUND     y0_0_0               <- binary
    ENDATA

Names are the LP-safe ones (``y3_1_2``, ``wall_y3_k1_p2``), longer than
fixed MPS's 8 characters, so this is *free* MPS (fields separated by spaces),
which HiGHS, SCIP, CBC, Gurobi and CPLEX read.  The objective row ``NoObj``
is empty (zero objective).  Reading back (:func:`loads`) rebuilds the model
from the comment lines and checks the matrix, senses and right-hand sides
HiGHS reads from the file against it.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> from nonoqubo.model.constrained import build_constrained
    >>> m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> text = dumps(m)
    >>> [line.split()[:3] for line in text.splitlines() if line.startswith(" E")]
    [['E', 'cell_0_0'], ['E', 'cell_0_1'], ['E', 'cell_1_0'], ['E', 'cell_1_1']]
    >>> loads(text, source="x.mps").same_model(m)
    True
"""

from __future__ import annotations

import ctypes
import os
import re
import sys
import tempfile
from typing import IO, Any

import numpy as np

from ..model.constrained import EQ, GE, LE, ConstrainedModel
from .._util.text import decode
from ..errors import FormatError, MissingDependency, UnsupportedFormat, located
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, LEGACY_ENCODING, OFFSET
from .lp import MAGIC, metadata_lines, model_from_metadata

__all__ = ["dump", "dumps", "loads"]

NAME = "mps"
TITLE = "free MPS written by HiGHS: the constrained model as a 0-1 integer program"
EXTENSIONS = ("mps",)
KIND = "constrained"
ORDER = 100
WRITE_BYTES_PER_TERM = 70  # the cauldron: 3.13 GB, rounded up


def _highspy() -> Any:
    try:
        import highspy
    except ImportError:
        raise MissingDependency("highspy", "lp", "the MPS format (written by HiGHS)") from None
    return highspy


_banner_shown = False


def _quiet(highspy: Any) -> Any:
    """A silent ``Highs``: no banner, no log, on any stream.

    HiGHS prints its banner ("Running HiGHS ...", two lines) on standard output
    when the first instance of the process is made, before any option can be
    set; with ``-o - -f mps`` it would land in the MPS text, and on a terminal
    it is noise the user did not ask for.  So the first instance is made with
    file descriptors 1 and 2 pointed at the null device (C buffers flushed
    before they are put back); every instance then gets ``output_flag`` and
    ``log_to_console`` off before it reads or writes anything.
    """
    global _banner_shown
    if _banner_shown:
        h = highspy.Highs()
    else:
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 1)
            os.dup2(devnull, 2)
            h = highspy.Highs()
            ctypes.CDLL(None).fflush(None)
        finally:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            for fd in (*saved, devnull):
                os.close(fd)
        _banner_shown = True
    h.setOptionValue("output_flag", False)
    h.setOptionValue("log_to_console", False)
    return h


def _tempfile_text(write: Any, suffix: str) -> str:
    """Let *write(path)* write a file in a private temporary directory; return its text."""
    with tempfile.TemporaryDirectory(prefix="nonoqubo-") as tmp:
        path = os.path.join(tmp, f"model{suffix}")
        write(path)
        with open(path, encoding="ascii") as fh:
            return fh.read()


def dumps(model: ConstrainedModel, *, ising: bool = False) -> str:
    """The free MPS text of *model*, written by HiGHS, with nonoqubo's comment lines first.

    Raises:
        UnsupportedFormat: ``ising=True``.
        MissingDependency: highspy is not installed.
        FormatError: HiGHS refused the model or could not write it.
    """
    if ising:
        raise UnsupportedFormat("the MPS export is a 0-1 program; it has no Ising form")
    highspy = _highspy()
    inf = highspy.kHighsInf
    n, c = model.num_vars, model.num_constraints
    lp = highspy.HighsLp()
    lp.model_name_ = re.sub(r"[^A-Za-z0-9_.-]", "_", model.puzzle.name or "nonogram")[:40]
    lp.num_col_, lp.num_row_ = n, c
    lp.col_cost_ = np.zeros(n)
    lp.col_lower_ = np.zeros(n)
    lp.col_upper_ = np.ones(n)
    rhs = model.rhs.astype(np.float64)
    lp.row_lower_ = np.where(model.sense == LE, -inf, rhs)
    lp.row_upper_ = np.where(model.sense == GE, inf, rhs)
    lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, c
    lp.a_matrix_.start_ = model.indptr.astype(np.int32)
    lp.a_matrix_.index_ = model.indices.astype(np.int32)
    lp.a_matrix_.value_ = model.coefs.astype(np.float64)
    lp.integrality_ = [highspy.HighsVarType.kInteger] * n
    lp.col_names_ = model.flat_labels
    lp.row_names_ = model.names
    h = _quiet(highspy)
    if h.passModel(lp) != highspy.HighsStatus.kOk:
        raise FormatError("HiGHS refused the constrained model")

    def write(path: str) -> None:
        if h.writeModel(path) != highspy.HighsStatus.kOk:
            raise FormatError(f"HiGHS could not write the MPS file {path}")

    body = _tempfile_text(write, ".mps")
    return "\n".join(metadata_lines(model, "*")) + "\n" + body


def dump(model: ConstrainedModel, fp: IO[str], *, ising: bool = False) -> None:
    """Write :func:`dumps` to a text file object."""
    fp.write(dumps(model, ising=ising))


def loads(data: str | bytes, *, source: str = "<mps>") -> ConstrainedModel:
    """Read an MPS file written by :func:`dumps` back into the model.

    The clues and fixings come from the ``*`` comment lines; HiGHS reads the
    body, and its names, matrix, senses and right-hand sides must be those of
    the rebuilt model.

    Raises:
        FormatError: no nonoqubo header, or a body that differs from the model of the header.
        MissingDependency: highspy is not installed.
    """
    data = decode(data, source, what="QUBO text file")
    comments = [(i, line[1:]) for i, line in enumerate(data.splitlines(), start=1) if line.startswith("*")]
    model = model_from_metadata(comments, source)
    if data == dumps(model):
        return model  # exactly what nonoqubo writes for these clues: nothing for HiGHS to check
    _check_structure(data, source)
    highspy = _highspy()
    h = _quiet(highspy)
    with tempfile.TemporaryDirectory(prefix="nonoqubo-") as tmp:
        path = os.path.join(tmp, "model.mps")
        with open(path, "w", encoding="utf-8") as fh:
            fh.write(data)
        _probe(path, len(data), source)
        if h.readModel(path) == highspy.HighsStatus.kError:
            raise FormatError(located(source, None, "HiGHS cannot read this MPS file"))
    lp = h.getLp()
    if list(lp.col_names_) != model.flat_labels or list(lp.row_names_) != model.names:
        raise FormatError(located(source, None, "the file's variables or constraints are not those of the "
                                  "model of the clues in its header"))
    start, index, value = _rowwise(lp, model.num_constraints, model.num_vars)
    lower, upper = np.asarray(lp.row_lower_), np.asarray(lp.row_upper_)
    sense = np.where(lower == upper, EQ, np.where(np.isinf(upper), GE, LE))
    rhs = np.where(sense == LE, upper, lower)
    same = (np.array_equal(start, model.indptr) and np.array_equal(index, model.indices)
            and np.array_equal(value, model.coefs) and np.array_equal(sense, model.sense)
            and np.array_equal(rhs, model.rhs))
    if not same:
        raise FormatError(located(source, None, "the file's constraints differ from the model of the "
                                  "clues in its header"))
    return model


#: data lines' field counts per section (free MPS); section names start in column 1
_FIELDS = {"ROWS": (2,), "COLUMNS": (3, 5), "RHS": (3, 5), "RANGES": (3, 5), "BOUNDS": (3, 4)}
#: the sections in the order free MPS allows them, each at most once
_ORDER = ("NAME", "OBJSENSE", "ROWS", "COLUMNS", "RHS", "RANGES", "BOUNDS", "ENDATA")
#: positions of the numeric fields on a data line of each section
_NUMERIC: dict[str, tuple[int, ...]] = {"COLUMNS": (2, 4), "RHS": (2, 4), "RANGES": (2, 4)}


def _check_structure(text: str, source: str) -> None:
    """Refuse a malformed free-MPS body before HiGHS reads it.

    HiGHS 1.16's MPS reader loops forever, in native code no timer can interrupt,
    on files the fuzzer made: a one-field COLUMNS line before a blank line; BOUNDS
    lines and an ENDATA in the middle of COLUMNS.  So: sections known, in order,
    each once, ENDATA last; data lines with the section's field count; values that
    are numbers.
    """
    section, seen = "", -1  # "": before the first section
    for lineno, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("*"):
            continue
        fields = line.split()
        if section == "ENDATA":
            raise FormatError(located(source, lineno, f"text after ENDATA: {line.strip()[:60]!r}"))
        if not line[0].isspace():
            name = fields[0].upper()
            if name not in _ORDER or _ORDER.index(name) <= seen:
                raise FormatError(located(source, lineno, f"section {fields[0][:40]!r} is unknown, repeated or "
                                          "out of order"))
            section, seen = name, _ORDER.index(name)
            continue
        if section in _FIELDS and len(fields) not in _FIELDS[section]:
            raise FormatError(located(source, lineno, f"a {section} line has {len(fields)} field(s), expected "
                                      f"{' or '.join(map(str, _FIELDS[section]))}: {line.strip()[:60]!r}"))
        numeric = [k for k in _NUMERIC.get(section, ()) if k < len(fields)]
        if section == "BOUNDS" and len(fields) == 4:
            numeric = [3]
        if section == "COLUMNS" and len(fields) == 3 and fields[1] == "'MARKER'":
            numeric = []
        for k in numeric:
            try:
                float(fields[k])
            except ValueError:
                raise FormatError(located(source, lineno, f"{fields[k][:40]!r} is not a number")) from None
    if section != "ENDATA":
        raise FormatError(located(source, None, "the file does not end with ENDATA"))


def _probe(path: str, size: int, source: str) -> None:
    """HiGHS reads *path* in a child process first: a hang or a crash there is an error here."""
    import subprocess
    import sys

    code = ("import sys, highspy; h = highspy.Highs(); h.setOptionValue('output_flag', False); "
            "h.readModel(sys.argv[1])")
    try:
        proc = subprocess.run([sys.executable, "-c", code, path], capture_output=True, timeout=20 + size / 1e7)
    except subprocess.TimeoutExpired:
        raise FormatError(located(source, None, "HiGHS does not finish reading this MPS file (damaged?)")) from None
    if proc.returncode != 0:
        raise FormatError(located(source, None, f"HiGHS crashed reading this MPS file (exit status {proc.returncode})"))


def _rowwise(lp: Any, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The HiGHS matrix as CSR with sorted column indices (HiGHS reads MPS column-wise)."""
    a = lp.a_matrix_
    start = np.asarray(a.start_, np.int64)
    index = np.asarray(a.index_, np.int64)
    value = np.asarray(a.value_, np.float64)
    if a.format_.name == "kColwise" or str(a.format_).endswith("kColwise"):
        col = np.repeat(np.arange(cols, dtype=np.int64), np.diff(start))
        order = np.lexsort((col, index))
        row, col, value = index[order], col[order], value[order]
        start = np.zeros(rows + 1, np.int64)
        np.cumsum(np.bincount(row, minlength=rows), out=start[1:])
        index = col
    return start, index, value



def detect(head: bytes) -> bool:
    """A nonoqubo MPS file starts with its ``* nonoqubo constrained model`` comment."""
    return head.lstrip().startswith(b"* " + MAGIC.encode())
