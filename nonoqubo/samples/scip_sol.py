"""SCIP solution files (``write solution`` in the SCIP shell; ``Model.writeSol`` / ``writeBestSol``).

Grammar (``SCIPprintSol``; checked against SCIP 9 through pyscipopt)::

    solution status: optimal solution found      <- only from the shell's 'write solution'
    objective value:                 0
    y0_0_0                           1 	(obj:0)  <- name, value, (obj:<objective coefficient>)
    ...

Variables at 0 are left out unless written with ``write_zeros=True``
(shell: ``set write printzeros TRUE``), so a variable the file does not list
is 0.  A model with no variables gives just the ``objective value:`` line: the
one empty sample.  When SCIP has no solution the file says ``no solution
available``: an error.  Names are the LP names (``y3_1_2``); see
:mod:`nonoqubo.samples._mip` for rounding and errors.  The objective of the LP
export is zero, so the reported energy of a feasible answer is 0.

Examples:
    >>> raw = loads("objective value:  0\\ny0_0_0   1 \\t(obj:0)\\nz1_0_0  1 \\t(obj:0)\\n", source="x.sol")
    >>> raw.labels, raw.values.tolist(), raw.sparse
    (['y0_0_0', 'z1_0_0'], [[1.0, 1.0]], True)
"""

from __future__ import annotations

import re

from .._util.text import head_text
from ..errors import FormatError, SampleError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from . import _mip
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "scip"
TITLE = "SCIP solution file (objective value:, then 'name value (obj:c)' lines; zeros left out)"
ALIASES = ("scip-sol", "scip_sol")
ORDER = 22

_HEAD = re.compile(r"\A\s*(?:solution status:[^\n]*\n\s*)?objective value:[ \t]*(\S+)[ \t]*\r?(?:\n|\Z)")


def detect(head: bytes) -> bool:
    """An ``objective value:`` line first (after SCIP's optional ``solution status:``), or ``no solution available``."""
    text = head_text(head)
    start = text[:1000]
    return bool(_HEAD.match(start)) or start.strip().startswith(("no solution available", "solution status:"))


def loads(text: str, *, source: str) -> RawSamples:
    """Read the one solution of a SCIP solution file.

    Raises:
        FormatError: no ``objective value:`` line, or a malformed variable line.
        SampleError: SCIP had no solution.
    """
    m = _HEAD.match(text)
    if m is None:
        if "no solution available" in text[:1000]:
            raise SampleError(f"{source}: SCIP found no solution (the file says 'no solution available')")
        raise FormatError(located(source, 1, "expected 'objective value: <v>' (not a SCIP solution file)"))
    try:
        objective = float(m.group(1))
    except ValueError:
        raise FormatError(located(source, text.count("\n", 0, m.end(1)) + 1,
                                  f"objective value {m.group(1)!r} is not a number")) from None
    first = text.count("\n", 0, m.end()) + 1
    rows, values = _mip.table(text[m.end():], first, "<name> <value> (obj:<c>)", source,
                               value_col=1, ncols=3)
    return _mip.raw(rows[:, 0], values, objective)
