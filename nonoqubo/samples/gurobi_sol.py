"""Gurobi solution files (``model.write("answer.sol")``, ``gurobi_cl ResultFile=answer.sol``).

Grammar (Gurobi reference manual, "SOL format"; checked against gurobipy 12)::

    # Solution for model <name>
    # Objective value = <v>
    <name> <value>                  one line per variable
    ...

Lines starting with ``#`` are comments (the objective is read from the one
above).  Gurobi lists every variable; a MIP start (``.mst``, the same grammar)
may list only some, and a variable not listed is 0.  Names are the LP names
(``y3_1_2``); see :mod:`nonoqubo.samples._mip` for rounding and errors.  The
objective of the LP export is zero, so the reported energy of a feasible
answer is 0.

Examples:
    >>> text = "# Solution for model obj\\n# Objective value = 0\\ny0_0_0 1\\nz0_0_0 -0\\n"
    >>> raw = loads(text, source="x.sol")
    >>> raw.labels, raw.values.tolist(), raw.energies
    (['y0_0_0', 'z0_0_0'], [[1.0, 0.0]], [0.0])
"""

from __future__ import annotations

import re

from .._util.text import head_text
from ..errors import FormatError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from . import _mip
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "gurobi"
TITLE = "Gurobi .sol ('# Objective value = v', then 'name value' lines)"
ALIASES = ("gurobi-sol", "gurobi_sol", "mst")
ORDER = 22

_OBJECTIVE = re.compile(r"^#[ \t]*Objective value[ \t]*=[ \t]*(\S+)", re.MULTILINE)
_COMMENT = re.compile(r"^[ \t]*#[^\n]*", re.MULTILINE)


def detect(head: bytes) -> bool:
    """Gurobi's ``# Solution for model`` or ``# Objective value =`` comment at the top."""
    text = head_text(head)
    start = text.lstrip()[:200]
    return start.startswith("# Solution for model") or bool(re.match(r"#[ \t]*Objective value[ \t]*=", start))


def loads(text: str, *, source: str) -> RawSamples:
    """Read the one solution of a Gurobi ``.sol`` file.

    Raises:
        FormatError: a line that is not ``name value``, or an objective that is not a number.
    """
    objective = None
    m = _OBJECTIVE.search(text)
    if m:
        try:
            objective = float(m.group(1))
        except ValueError:
            raise FormatError(located(source, text.count("\n", 0, m.start()) + 1,
                                      f"objective value {m.group(1)!r} is not a number")) from None
    body = _COMMENT.sub("", text)  # comment lines become blank: line numbers are kept
    rows, values = _mip.table(body, 1, "<name> <value>", source, value_col=1, ncols=2)
    return _mip.raw(rows[:, 0], values, objective)
