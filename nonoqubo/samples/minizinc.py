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
model's variables (:mod:`nonoqubo.samples._grid`).  ``%%%mzn-stat`` lines
(``--statistics``) are skipped.  ``=====UNSATISFIABLE=====`` is MiniZinc's
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


def detect(head: bytes) -> bool:
    """The output item's ``nonoqubo picture`` line, a JSON ``{"grid" :`` object, or a MiniZinc status line first."""
    for line in head_text(head).splitlines():
        line = line.strip()
        if not line or line.startswith("%%%mzn"):
            continue
        return bool(_PICTURE.match(line) or _STATUS.match(line) or _JSON_HEAD.match(line)
                    or (line == "{" and '"grid"' in head_text(head)[:200]))
    return False


def loads(text: str, *, source: str = "<minizinc>") -> RawSamples:
    """The pictures MiniZinc printed, one sample each.

    Raises:
        NoSolution: ``=====UNSATISFIABLE=====``.
        SampleError: ``=====UNKNOWN=====`` or ``=====ERROR=====`` with no solution printed.
        FormatError: a picture or JSON object that is not what the model's output item prints.
    """
    lines = [ln.rstrip("\r") for ln in text.split("\n")]
    grids: list[np.ndarray] = []
    chunk: list[tuple[int, str]] = []
    for no, line in enumerate(lines, 1):
        if line.startswith("%%%mzn"):
            continue
        status = _STATUS.match(line.strip())
        if status and line.strip() != COMPLETE:
            word = status.group(1)
            if word == "UNSATISFIABLE":
                raise NoSolution(f"{source}: MiniZinc proved that the puzzle has no solution (=====UNSATISFIABLE=====)")
            if not grids:
                raise SampleError(f"{source}:{no}: MiniZinc printed no solution (====={word}=====)")
            continue
        if line.strip() == SEPARATOR:
            grids.append(_solution(chunk, source, no))
            chunk = []
        elif line.strip() == COMPLETE:
            chunk = []
        elif line.strip() or chunk:
            chunk.append((no, line))
    if any(ln.strip() for _, ln in chunk):
        raise FormatError(located(source, chunk[0][0], f"a solution without its closing {SEPARATOR} line "
                                  "(was the output cut short?)"))
    if not grids:
        raise SampleError(f"{source}: MiniZinc printed no solution")
    return RawSamples(grids=grids)


def _solution(chunk: list[tuple[int, str]], source: str, end: int) -> np.ndarray:
    """One solution's picture (text mode) or JSON object."""
    while chunk and not chunk[-1][1].strip():
        chunk.pop()
    if not chunk:
        raise FormatError(located(source, end, f"an empty solution before {SEPARATOR}"))
    first_no, first = chunk[0]
    if first.lstrip().startswith("{"):
        doc = json_loads("\n".join(ln for _, ln in chunk), source, first_no)
        grid = doc.get("grid") if isinstance(doc, dict) else None
        if (not isinstance(grid, list) or not grid or not all(isinstance(r, list) for r in grid)
                or len({len(r) for r in grid}) != 1
                or not all(isinstance(v, int) and not isinstance(v, bool) for r in grid for v in r)):
            raise FormatError(located(source, first_no, 'the JSON solution has no "grid": a list of rows of integers'))
        if any(abs(v) > 1 << 30 for r in grid for v in r):
            raise FormatError(located(source, first_no, "a colour index out of range"))
        return np.array(grid, np.int64)
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
