"""HiGHS solution files (``highs --solution_file``, ``Highs.writeSolution(path, style)``).

Checked against HiGHS 1.16 (highspy).  Two styles are read:

*raw* (style 0, the default of ``--solution_file``)::

    Model status
    Optimal

    # Primal solution values
    Feasible                    <- or "None" when there is no solution
    Objective 0
    Objective_bound 0           <- MIP only
    MIP_rel_gap 0               <- MIP only
    # Columns 437
    y0_0_0 1                    <- name value, one per column, model order
    ...
    # Rows 620
    cell_0_0 0                  <- row activities (ignored)
    ...

    # Dual solution values
    None
    ...

*pretty* (style 1)::

    Columns
        Index Status        Lower        Upper       Primal         Dual  Type        Name
            0                   0            1            1               Integer     y0_0_0
    Rows
    ...
    Model status: Optimal

    Objective value: 0

The *sparse* style (4) lists only the nonzero columns, so it cannot say which
variables are 0; it is refused with a hint.  Column names are the LP names
(``y3_1_2``); the sample matcher maps them back to ``y3[1][2]``.  MIP values
within 1e-6 of 0 or 1 (``0.9999999``, ``1e-10``) are rounded, as a MIP
solver's integrality tolerance allows; other values are left for the matcher
to report.  A file with no primal solution ("None", e.g. status Infeasible or
Time limit reached) is a :class:`~nonoqubo.errors.SampleError` that quotes
the model status, except status "Empty": a model with no variables left (presolve
fixed them all) has one solution, the empty sample.

Examples:
    >>> text = ("Model status\\nOptimal\\n\\n# Primal solution values\\nFeasible\\n"
    ...         "Objective 0\\n# Columns 2\\ny0_0_0 1\\nz0_0_0 0.9999999\\n# Rows 1\\nc 0\\n")
    >>> raw = loads(text, source="x.sol")
    >>> raw.maps, raw.energies.tolist()
    ([{'y0_0_0': 1.0, 'z0_0_0': 1.0}], [0.0])
"""

from __future__ import annotations

import re

import numpy as np

from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, SampleError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "highs"
TITLE = "HiGHS solution file (raw or pretty style)"
ALIASES = ("highs-sol", "highs_sol")
ORDER = 20

#: values this close to 0 or 1 are rounded (HiGHS' default mip_feasibility_tolerance)
TOLERANCE = 1e-6

_COLUMNS = re.compile(r"^# Columns (-?\d+)(?:\s+(\w+))?\s*$")
_PRETTY_HEAD = re.compile(r"^\s*Index\s+Status\s+Lower\s+Upper\s+Primal\s+Dual\s+(?:Type\s+)?Name\s*$")


def detect(head: bytes) -> bool:
    """``Model status`` then ``# Primal solution values`` (raw), or a pretty ``Columns`` table."""
    text = head_text(head)
    start = text[:2000].lstrip()
    if start.startswith("Model status") and "# Primal solution values" in start:
        return True
    lines = start.splitlines()
    return len(lines) > 1 and lines[0].strip() == "Columns" and bool(_PRETTY_HEAD.match(lines[1]))


def _value(token: str, source: str, lineno: int) -> float:
    try:
        v = float(token)
    except ValueError:
        raise FormatError(located(source, lineno, f"value {token!r} is not a number")) from None
    for target in (0.0, 1.0):
        if abs(v - target) <= TOLERANCE:
            return target
    return v


def loads(text: str, *, source: str) -> RawSamples:
    """Read the one primal solution of a HiGHS solution file.

    Returns:
        One ``{column name: value}`` map, with the objective as its energy.

    Raises:
        FormatError: not a HiGHS solution file, or a malformed column line.
        SampleError: the file holds no primal solution (the message gives the model status).
    """
    lines = text.splitlines()
    if lines and lines[0].strip() == "Columns":
        return _parse_pretty(lines, source)
    status = lines[1].strip() if len(lines) > 1 else "?"
    try:
        start = next(i for i, ln in enumerate(lines) if ln.strip() == "# Primal solution values")
    except StopIteration:
        raise FormatError(located(source, None, "no '# Primal solution values' section: not a HiGHS "
                                  "solution file")) from None
    if start + 1 >= len(lines) or lines[start + 1].strip() == "None":
        if status == "Empty":  # presolve fixed every variable: the one solution is the empty one
            return RawSamples(maps=[{}], vartype="BINARY")
        raise SampleError(f"{source}: HiGHS found no solution (model status: {status})")
    energy: list[float] | None = None
    values: dict[str, float] = {}
    i = start + 1
    while i < len(lines):
        line = lines[i].strip()
        m = _COLUMNS.match(line)
        if line.startswith("Objective ") and energy is None:
            energy = [_value(line.split()[1], source, i + 1)]
        if m:
            count, style = integer(m.group(1), source, i + 1, "column count"), m.group(2)
            if count < 0 or style:
                raise SampleError(f"{source}:{i + 1}: a {style or 'sparse'} HiGHS solution lists only "
                                  "nonzero columns; write it with style 0 (raw) or 1 (pretty)")
            for k in range(count):
                lineno = i + 2 + k
                if lineno > len(lines):
                    raise FormatError(located(source, lineno, f"the file ends after {k} of {count} columns"))
                parts = lines[lineno - 1].split()
                if len(parts) != 2:
                    raise FormatError(located(source, lineno, f"expected '<name> <value>', got "
                                              f"{lines[lineno - 1].strip()!r}"))
                values[parts[0]] = _value(parts[1], source, lineno)
            break
        i += 1
    else:
        raise FormatError(located(source, None, "no '# Columns' section in the primal solution"))
    return RawSamples(maps=[values], energies=None if energy is None else np.asarray(energy), vartype="BINARY")


def _parse_pretty(lines: list[str], source: str) -> RawSamples:
    """The pretty style: the Primal column is read at its place under the header."""
    header = lines[1]
    lo = header.index("Upper") + len("Upper")
    hi = header.index("Primal") + len("Primal")
    status = next((ln.partition(":")[2].strip() for ln in lines if ln.startswith("Model status:")), "?")
    values: dict[str, float] = {}
    for lineno, line in enumerate(lines[2:], start=3):
        if line.strip() == "Rows":
            break
        parts = line.split()
        if len(parts) < 4 or len(line) < hi:
            raise FormatError(located(source, lineno, f"cannot read the column line {line.strip()!r}"))
        primal = line[lo:hi].strip()
        if not primal:
            raise SampleError(f"{source}: HiGHS found no solution (model status: {status})")
        values[parts[-1]] = _value(primal, source, lineno)
    if status == "Empty":
        return RawSamples(maps=[{}], vartype="BINARY")
    energy = next(([_value(ln.partition(":")[2].strip(), source, 0)] for ln in lines
                   if ln.startswith("Objective value:")), None)
    return RawSamples(maps=[values], energies=None if energy is None else np.asarray(energy), vartype="BINARY")
