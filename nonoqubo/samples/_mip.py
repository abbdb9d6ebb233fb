"""What the MIP solution readers share: a table of ``name value ...`` lines read at once.

MIP solvers answer the LP/MPS route (:mod:`nonoqubo.exports.lp`) with one
line per variable; most list only the variables that are not 0, so their
:class:`~nonoqubo.samples.RawSamples` are ``sparse`` (a variable left out is 0).
Names are the LP names (``y3_1_2``), mapped back to ``y3[1][2]`` by the
matcher; a name the model lacks is an error naming it.  Values within
:data:`TOLERANCE` of 0 or 1 (``0.9999999``, ``1e-10``, ``-0``) are rounded, as a
MIP solver's integrality tolerance allows; any other value is left for the
matcher to report.

The table is split and converted by NumPy (no Python step per variable); only
when it is malformed are its lines walked, to name the first bad one.
"""

from __future__ import annotations

import re

import numpy as np

from ..errors import FormatError, located
from ._raw import RawSamples

#: values this close to 0 or 1 are rounded (the usual MIP integrality tolerance)
TOLERANCE = 1e-6

_NONBLANK = re.compile(r"^[ \t]*\S", re.MULTILINE)


def rounded(values: np.ndarray) -> np.ndarray:
    """*values* with those within :data:`TOLERANCE` of 0 or 1 made exactly 0 or 1."""
    out = values.copy()
    for target in (0.0, 1.0):
        out[np.abs(values - target) <= TOLERANCE] = target
    return out


def table(text: str, first_line: int, shape: str, source: str, *, value_col: int,
          ncols: int) -> tuple[np.ndarray, np.ndarray]:
    """The fields (an ``(m, ncols)`` object array) and values of lines with *ncols* fields each.

    Args:
        text: the block (blank lines allowed).
        first_line: the file's line number of the block's first line (for messages).
        shape: the expected line, for messages (``"<name> <value> (obj:<c>)"``).
        source: the file name, for messages.
        value_col: which field holds the value.
        ncols: the number of fields on every line.

    Raises:
        FormatError: a line with another number of fields, or a value that is not a number.
    """
    tokens = np.array(text.split(), dtype=object)
    if tokens.size % ncols == 0:
        rows = tokens.reshape(-1, ncols)
        try:
            values = rows[:, value_col].astype(np.float64)
        except ValueError:
            values = None
        if values is not None and rows.shape[0] == len(_NONBLANK.findall(text)):
            return rows, values
    for offset, line in enumerate(text.splitlines()):  # the slow path: name the bad line
        parts = line.split()
        if not parts:
            continue
        if len(parts) != ncols:
            raise FormatError(located(source, first_line + offset, f"expected '{shape}', got {line.strip()[:80]!r}"))
        try:
            float(parts[value_col])
        except ValueError:
            raise FormatError(located(source, first_line + offset,
                                      f"value {parts[value_col][:40]!r} is not a number")) from None
    raise FormatError(located(source, None, f"cannot read the solution lines as '{shape}'"))  # pragma: no cover


def raw(names: np.ndarray, values: np.ndarray, objective: float | None) -> RawSamples:
    """One sparse sample: the listed variables; every other variable is 0."""
    return RawSamples(values=rounded(values)[None, :], labels=names.tolist(), sparse=True, vartype="BINARY",
                      energies=None if objective is None else [objective])
