r"""What ``minizinc`` prints for a nonoqubo MiniZinc model (:mod:`nonoqubo.exports.minizinc`), unedited.

Checked against MiniZinc 2.6.4 with Gecode 6.2.0 (Debian's ``minizinc`` and
``flatzinc``).  The model's ``output`` item prints, per solution::

    nonoqubo picture 15x15 legend .#
    ....#######....
    ...
    ----------

(``-a`` prints every solution, then ``==========`` when the search is complete);
``--output-mode json`` prints ``{"grid" : [[0, 1, ...], ...]}`` before each
``----------`` instead (colour indices).  Every solution is one sample: its
picture, which the matcher encodes through the puzzle's layout into the
model's variables (:mod:`nonoqubo.samples._grid`).  ``--output-mode dzn``
prints ``grid = [| 0, 1, ... | ... |];`` instead, and ``--json-stream`` one JSON
message a line (``{"type": "solution", "output": {"default": ..., "json": ...}}``,
``status``, ``error``, ``statistics``, ``warning``): every mode reads.  Comment
lines are skipped: ``%%%mzn-stat`` (``-s``/``--statistics``), ``% Generated
FlatZinc statistics:`` and ``% time elapsed: 0.06 s`` (``--output-time``); a
picture's rows are always rows, whatever character they start with.  ``=====UNSATISFIABLE=====`` is MiniZinc's
proof that the puzzle has no solution: a :class:`~nonoqubo.errors.NoSolution`
(``decode`` prints it and exits 1); ``=====UNKNOWN=====`` (a limit reached
first) and ``=====ERROR=====`` are a :class:`~nonoqubo.errors.SampleError`.

Examples:
    >>> raw = loads("nonoqubo picture 1x2 legend .#\n.#\n----------\n==========\n", source="a.txt")
    >>> raw.grids[0].tolist()
    [[0, 1]]
    >>> loads('{\n  "grid" : [[1, 0]]\n}\n----------\n', source="a.json").grids[0].tolist()
    [[1, 0]]
"""

from __future__ import annotations

import re

import numpy as np

from .._util.guard import json_loads
from .._util.text import head_text
from ..errors import FormatError, NoSolution, SampleError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "minizinc"
TITLE = "MiniZinc's output for a nonoqubo .mzn model (text or --output-mode json; Gecode, any CP solver)"
ALIASES = ("mzn",)
ORDER = 15

SEPARATOR = "----------"
COMPLETE = "=========="
_PICTURE = re.compile(r"^nonoqubo picture (\d{1,9})x(\d{1,9}) legend (.+)$")
_STATUS = re.compile(r"^=====([A-Z ]+)=====$")
_JSON_HEAD = re.compile(r'^\{\s*"grid"\s*:')
_STREAM_HEAD = re.compile(r'^\{\s*"type"\s*:')
_DZN_HEAD = re.compile(r"^grid\s*=")
_DZN_ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*\s*=")
_DZN_GRID = re.compile(r"(?:^|;)\s*grid\s*=\s*(.*?);", re.DOTALL)
_DZN_ARRAY2D = re.compile(r"^array2d\(\s*1\s*\.\.\s*(\d+)\s*,\s*1\s*\.\.\s*(\d+)\s*,\s*\[(.*)\]\s*\)$", re.DOTALL)
#: the json-stream statuses that say no (more) solution exists or was found
_STREAM_FAILED = {"UNKNOWN": "UNKNOWN", "ERROR": "ERROR", "UNBOUNDED": "UNBOUNDED",
                  "UNSAT_OR_UNBOUNDED": "UNSATorUNBOUNDED"}


def detect(head: bytes) -> bool:
    """The first thing MiniZinc prints for a nonoqubo model, in any output mode.

    The output item's ``nonoqubo picture`` line, a JSON ``{"grid" :`` object, a dzn ``grid =``
    assignment, a ``--json-stream`` message (``{"type": ...}``) or a status line, after any
    ``%`` comments (``-s`` statistics, ``--output-time``).
    """
    text = head_text(head)
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("%"):
            continue
        return bool(_PICTURE.match(line) or _STATUS.match(line) or _JSON_HEAD.match(line)
                    or _DZN_HEAD.match(line) or (_STREAM_HEAD.match(line) and '"type"' in line)
                    or (line == "{" and '"grid"' in text[:400]))
    return False


def loads(text: str, *, source: str = "<minizinc>") -> RawSamples:
    """The pictures MiniZinc printed, one sample each, in whichever output mode it printed them.

    Raises:
        NoSolution: ``=====UNSATISFIABLE=====`` (or the json-stream status ``UNSATISFIABLE``).
        SampleError: ``=====UNKNOWN=====`` or ``=====ERROR=====`` (or a json-stream ``error``
            message) with no solution printed.
        FormatError: a picture, JSON object or dzn assignment that is not what the model prints.
    """
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    first = next((ln.strip() for ln in lines if ln.strip() and not ln.startswith("%")), "")
    if _STREAM_HEAD.match(first):
        return _stream(lines, source)
    return RawSamples(grids=_solutions(lines, source))


def _solutions(lines: list[str], source: str, offset: int = 0) -> list[np.ndarray]:
    """Every solution of MiniZinc's text stream (item, json or dzn output), each closed by ``----------``."""
    grids: list[np.ndarray] = []
    chunk: list[tuple[int, str]] = []
    rows_left = 0  # a picture's rows are taken as they are, even one that starts with a legend's '%'
    for no, line in enumerate(lines, offset + 1):
        stripped = line.strip()
        if rows_left and stripped != SEPARATOR:
            chunk.append((no, line))
            rows_left -= 1
            continue
        rows_left = 0
        if line.startswith("%"):  # %%%mzn-stat (-s), % Generated FlatZinc statistics, % time elapsed
            continue
        status = _STATUS.match(stripped)
        if status and stripped != COMPLETE:
            word = status.group(1)
            if word == "UNSATISFIABLE":
                raise NoSolution(f"{source}: MiniZinc proved that the puzzle has no solution (=====UNSATISFIABLE=====)")
            if not grids:
                raise SampleError(f"{source}:{no}: MiniZinc printed no solution (====={word}=====)")
            continue
        if stripped == SEPARATOR:
            grids.append(_solution(chunk, source, no))
            chunk = []
        elif stripped == COMPLETE:
            chunk = []
        elif stripped or chunk:
            chunk.append((no, line))
            picture = _PICTURE.match(line)
            if picture and len(chunk) == 1:
                rows_left = int(picture.group(1))
    if any(ln.strip() for _, ln in chunk):
        raise FormatError(located(source, chunk[0][0], f"a solution without its closing {SEPARATOR} line "
                                  "(was the output cut short?)"))
    if not grids:
        raise SampleError(f"{source}: MiniZinc printed no solution")
    return grids


def _stream(lines: list[str], source: str) -> RawSamples:
    """``--json-stream``: one JSON message a line; the solutions' output sections are read as above."""
    grids: list[np.ndarray] = []
    for no, line in enumerate(lines, 1):
        if not line.strip():
            continue
        doc = json_loads(line, source, no)
        kind = doc.get("type") if isinstance(doc, dict) else None
        if kind == "solution":
            output = doc.get("output")
            if not isinstance(output, dict):
                raise FormatError(located(source, no, 'a "solution" message without its "output" sections'))
            if isinstance(output.get("json"), dict):
                grids.append(_json_grid(output["json"], source, no))
            elif isinstance(output.get("dzn"), str):
                grids.append(_dzn_grid(output["dzn"], source, no))
            elif isinstance(text := output.get("default", output.get("raw")), str):
                grids += _solutions(text.rstrip("\n").split("\n") + [SEPARATOR], source, no - 1)
            else:
                raise FormatError(located(source, no, "a solution with no json, dzn or default output section"))
        elif kind == "status":
            status = doc.get("status")
            if status == "UNSATISFIABLE":
                raise NoSolution(f"{source}: MiniZinc proved that the puzzle has no solution (status UNSATISFIABLE)")
            if status in _STREAM_FAILED and not grids:
                raise SampleError(f"{source}:{no}: MiniZinc printed no solution (status {status})")
        elif kind == "error":
            message = str(doc.get("message", "")).strip() or "no message"
            raise SampleError(f"{source}:{no}: MiniZinc reported an error: {message}")
        elif kind is None:
            raise FormatError(located(source, no, 'a --json-stream line that is not a {"type": ...} message'))
        # warning, statistics, comment, time, trace, checker, profiling: nothing to read
    if not grids:
        raise SampleError(f"{source}: MiniZinc printed no solution")
    return RawSamples(grids=grids)


def _solution(chunk: list[tuple[int, str]], source: str, end: int) -> np.ndarray:
    """One solution's picture (item output), JSON object (``--output-mode json``) or dzn (``dzn``)."""
    while chunk and not chunk[-1][1].strip():
        chunk.pop()
    if not chunk:
        raise FormatError(located(source, end, f"an empty solution before {SEPARATOR}"))
    first_no, first = chunk[0]
    if first.lstrip().startswith("{"):
        return _json_grid(json_loads("\n".join(ln for _, ln in chunk), source, first_no), source, first_no)
    if _DZN_ASSIGNMENT.match(first.lstrip()):
        return _dzn_grid("\n".join(ln for _, ln in chunk), source, first_no)
    m = _PICTURE.match(first)
    if not m:
        raise FormatError(located(source, first_no, "expected the model's 'nonoqubo picture HxW legend ...' line"))
    h, w, legend = int(m.group(1)), int(m.group(2)), m.group(3)
    rows = chunk[1:]
    if len(rows) != h:
        raise FormatError(located(source, first_no, f"the picture has {len(rows)} rows, not the {h} its line says"))
    table = {ch: k for k, ch in enumerate(legend)}
    grid = np.zeros((h, w), np.int64)
    for i, (no, row) in enumerate(rows):
        if len(row) != w:
            raise FormatError(located(source, no, f"a row of {len(row)} characters in a picture {w} wide"))
        bad = next((ch for ch in row if ch not in table), None)
        if bad is not None:
            raise FormatError(located(source, no, f"{bad!r} is not in the legend {legend!r}"))
        grid[i] = [table[ch] for ch in row]
    return grid


def _json_grid(doc: object, source: str, no: int) -> np.ndarray:
    """The ``grid`` of a JSON solution object (colour indices, a list of equal rows)."""
    grid = doc.get("grid") if isinstance(doc, dict) else None
    if (not isinstance(grid, list) or not grid or not all(isinstance(r, list) for r in grid)
            or len({len(r) for r in grid}) != 1
            or not all(isinstance(v, int) and not isinstance(v, bool) for r in grid for v in r)):
        raise FormatError(located(source, no, 'the JSON solution has no "grid": a list of rows of integers'))
    return _in_range(grid, source, no)


def _dzn_grid(text: str, source: str, no: int) -> np.ndarray:
    """The ``grid = [| 0, 1 | 1, 0 |];`` (or ``array2d(1..H, 1..W, [...])``) of a dzn solution."""
    m = _DZN_GRID.search(text)
    if not m:
        raise FormatError(located(source, no, "the dzn solution assigns no grid (grid = [| ... |];)"))
    value = m.group(1).strip()
    try:
        if value.startswith("[|") and value.endswith("|]"):
            rows = [[int(v) for v in row.split(",") if v.strip()] for row in value[2:-2].split("|")]
        else:
            a2 = _DZN_ARRAY2D.match(value)
            if not a2:
                raise ValueError(value[:40])
            h, w = int(a2.group(1)), int(a2.group(2))
            flat = [int(v) for v in a2.group(3).split(",") if v.strip()]
            if len(flat) != h * w:
                raise ValueError("size")
            rows = [flat[i * w:(i + 1) * w] for i in range(h)]
    except ValueError:
        raise FormatError(located(source, no, "the dzn grid is not a 2-d array of integers")) from None
    if not rows or not rows[0] or len({len(r) for r in rows}) != 1:
        raise FormatError(located(source, no, "the dzn grid's rows are not all of one length"))
    return _in_range(rows, source, no)


def _in_range(rows: list[list[int]], source: str, no: int) -> np.ndarray:
    """*rows* as an integer array, refused when a value is past any colour index (checked before NumPy,
    which cannot hold a 20-digit integer)."""
    if any(abs(v) > 1 << 30 for row in rows for v in row):
        raise FormatError(located(source, no, "a colour index out of range"))
    return np.array(rows, np.int64)
