"""GLPK's solution report, as written by ``glpsol --lp model.lp -o answer.txt`` (``--output``).

Grammar (``glp_print_mip`` / ``glp_print_sol`` of GLPK 5.0)::

    Problem:    <name>
    Rows:       823
    Columns:    437 (437 integer, 437 binary)
    Non-zeros:  2070
    Status:     INTEGER OPTIMAL
    Objective:  obj = 0 (MINimum)

       No.   Row name        Activity     Lower bound   Upper bound
    ------ ------------    ------------- ------------- -------------
         1 cell_0_0                    0             0             =
    ...

       No. Column name       Activity     Lower bound   Upper bound
    ------ ------------    ------------- ------------- -------------
         1 y0_0_0       *              1             0             1
         2 a_name_longer_than_twelve_characters
                        *              0             0             1
    ...
    <blank line, then integer feasibility conditions and 'End of output'>

Every column is listed, in GLPK's order, by name: a name longer than 12
characters stands alone and its fields follow on the next line.  After the
name come markers (``*`` for an integer column; ``B``, ``NL``, ``NU``... in
an LP report) and then the activity, which is the value read.  A status with
``EMPTY``, ``UNDEFINED`` or ``INFEASIBLE`` means no solution: an error.

GLPK's other solution file, ``glpsol -w`` / ``--write`` (lines ``s mip ...``,
``j <column number> <value>``), numbers the columns without naming them, in
an order GLPK chooses: it cannot be matched to the model's variables, and is
refused with a hint to write ``-o`` instead.  (glpsol also refuses an LP file
with no variables, which is what presolve leaves of a line-solvable puzzle.)

Examples:
    >>> text = ("Problem:    \\nRows:       1\\nColumns:    2\\nNon-zeros:  2\\nStatus:     INTEGER OPTIMAL\\n"
    ...         "Objective:  obj = 0 (MINimum)\\n\\n   No. Column name       Activity     Lower bound   Upper bound\\n"
    ...         "------ ------------    ------------- ------------- -------------\\n"
    ...         "     1 y0_0_0       *              1             0             1 \\n"
    ...         "     2 z0_0_0       *              0             0             1 \\n\\nEnd of output\\n")
    >>> raw = loads(text, source="x.txt")
    >>> raw.labels, raw.values.tolist()
    (['y0_0_0', 'z0_0_0'], [[1.0, 0.0]])
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

NAME = "glpk"
TITLE = "GLPK solution report (glpsol -o / --output); its -w/--write file has no names"
ALIASES = ("glpsol", "glpk-out", "glpk_out")
ORDER = 22

_STATUS = re.compile(r"^Status:[ \t]*([^\n]*?)[ \t]*\r?$", re.MULTILINE)
_OBJECTIVE = re.compile(r"^Objective:[ \t]*\S+[ \t]*=[ \t]*(\S+)", re.MULTILINE)
_COLUMNS = re.compile(r"^[ \t]*No\.[ \t]+Column name[^\n]*\n-+[ -]*\r?\n", re.MULTILINE)
_RAW = re.compile(r"\A(?:c[^\n]*\n)*s (?:mip|bas|ipt) ")
_NUMBER = re.compile(r"^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$")  # one way to match digits (no backtracking)


def detect(head: bytes) -> bool:
    """The report's ``Problem:`` / ``Rows:`` header, or GLPK's raw ``-w`` file (to refuse it clearly)."""
    text = head_text(head)
    start = text[:2000]
    if start.startswith("Problem:") and "\nRows:" in start and "\nColumns:" in start:
        return True
    return bool(_RAW.match(start)) and "\nc Problem:" in "\n" + start


def loads(text: str, *, source: str) -> RawSamples:
    """Read the columns' activities from a GLPK report.

    Raises:
        FormatError: a raw ``-w`` file, no column table, or a malformed column line.
        SampleError: GLPK found no solution.
    """
    if _RAW.match(text[:2000]):
        raise FormatError(located(source, 1, "GLPK's -w/--write file numbers the columns without their "
                                  "names, so they cannot be matched to the model; write the report "
                                  "with glpsol -o FILE (--output) and decode that"))
    status_m = _STATUS.search(text)
    status = status_m.group(1) if status_m else "?"
    if any(word in status.upper() for word in ("EMPTY", "UNDEFINED", "INFEASIBLE")):
        raise SampleError(f"{source}: GLPK found no solution (status: {status})")
    table = _COLUMNS.search(text)
    if table is None:
        raise FormatError(located(source, None, "no 'No. Column name' table: not a GLPK report (glpsol -o)"))
    objective = None
    obj_m = _OBJECTIVE.search(text)
    if obj_m and _NUMBER.match(obj_m.group(1)):
        objective = float(obj_m.group(1))
    end = text.find("\n\n", table.end())
    body = text[table.end(): len(text) if end < 0 else end]
    first = text.count("\n", 0, table.end()) + 1
    names: list[str] = []
    values: list[float] = []
    pending: str | None = None  # a long name waiting for its fields on the next line
    for offset, line in enumerate(body.split("\n")):
        parts = line.split()
        if not parts:
            continue
        if pending is None:
            if len(parts) < 2 or not parts[0].isdigit():
                raise FormatError(located(source, first + offset,
                                          f"expected '<No.> <column name> ... <activity> ...', got {line.strip()[:80]!r}"))
            name, fields = parts[1], parts[2:]
            if not fields:
                pending = name
                continue
        else:
            name, fields, pending = pending, parts, None
        value = next((f for f in fields if _NUMBER.match(f)), None)
        if value is None:
            raise FormatError(located(source, first + offset, f"no activity value for column {name!r}"))
        names.append(name)
        values.append(float(value))
    if pending is not None:
        raise FormatError(located(source, None, f"the column table ends before the values of {pending!r}"))
    return _mip.raw(np.array(names, dtype=object), np.array(values, dtype=np.float64), objective)
