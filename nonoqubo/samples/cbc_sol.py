"""CBC solution files (``cbc model.lp solve solu answer.sol``; the ``cbc`` binary pulp ships).

Grammar (CBC 2.10, ``CbcSolver.cpp``, ``solu`` with the default ``printingOptions normal``)::

    Optimal - objective value 0.00000000          <status> - objective value <v>
          0 y0_0_0            1            0       <index> <name> <value> <objective coefficient>
          2 y0_0_1            1            0
    ...

The index is the column's position in CBC's model (the order names first
appear in the LP file, not nonoqubo's order); the name is what is matched.
Only columns that are not 0 are listed, so a variable the file leaves out is 0.
A line whose value breaks a bound or integrality starts with ``**``.  With
``printingOptions all`` the rows come first, numbered from 0, then the columns,
numbered from 0 again: the last block numbered from 0 is the columns.  A
status ``Infeasible`` or ``Integer infeasible`` is an error; any other status
(``Optimal``, ``Stopped on time``, ...) with values is read.  Names are the LP
names (``y3_1_2``); see :mod:`nonoqubo.samples._mip` for rounding and errors.

Examples:
    >>> text = "Optimal - objective value 0.00000000\\n      0 y0_0_0   1   0\\n      3 z1_0_0   1   0\\n"
    >>> raw = loads(text, source="x.sol")
    >>> raw.labels, raw.values.tolist(), raw.energies
    (['y0_0_0', 'z1_0_0'], [[1.0, 1.0]], [0.0])
"""

from __future__ import annotations

import re

import numpy as np

from .._util.text import head_text
from ..errors import FormatError, SampleError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from . import _mip
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "cbc"
TITLE = "CBC solution file ('<status> - objective value v', then 'index name value cost' lines)"
ALIASES = ("cbc-sol", "cbc_sol", "coin-cbc")
ORDER = 22

_STATUS = re.compile(r"\A[ \t]*([A-Za-z][A-Za-z ]*?)[ \t]+-[ \t]+objective value[ \t]+(\S+)[ \t]*\r?(?:\n|\Z)")


def detect(head: bytes) -> bool:
    """The first line ``<status> - objective value <v>``."""
    text = head_text(head)
    return bool(_STATUS.match(text[:500]))


def loads(text: str, *, source: str) -> RawSamples:
    """Read the one solution of a CBC solution file.

    Raises:
        FormatError: no status line, or a malformed variable line.
        SampleError: CBC says the model is infeasible.
    """
    m = _STATUS.match(text)
    if m is None:
        raise FormatError(located(source, 1, "expected '<status> - objective value <v>' (not a CBC solution file)"))
    status = m.group(1)
    if "infeasible" in status.lower():
        raise SampleError(f"{source}: CBC found no solution (status: {status})")
    try:
        objective = float(m.group(2))
    except ValueError:
        raise FormatError(located(source, 1, f"objective value {m.group(2)!r} is not a number")) from None
    body = text[m.end():].replace("**", "  ")  # '**' flags a value out of bounds: read it all the same
    rows, values = _mip.table(body, 2, "<index> <name> <value> <cost>", source, value_col=2, ncols=4)
    try:
        index = rows[:, 0].astype(np.int64)
    except (ValueError, OverflowError):
        raise FormatError(located(source, None, "a solution line does not start with a column index")) from None
    drops = np.flatnonzero(index[1:] <= index[:-1])  # rows were printed first: keep the last block
    start = int(drops[-1]) + 1 if drops.size else 0
    return _mip.raw(rows[start:, 1], values[start:], objective)
