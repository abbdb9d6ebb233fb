"""QPLIB solution files (``.sol``): the objective, then one value per variable.

Grammar (QPLIB, Furini et al. 2019)::

    objvar <objective value>        # optional
    <name> <value>                  # one line per variable, in any order

Names ``b1 .. bN`` (or ``x1 .. xN``) are the 1-based positions of QPLIB's
default variable names, so ``b<k>`` is variable ``k - 1`` of nonoqubo's
variable order.  Any other name is a label (``y0[0][1]`` or the flat
``y0_0_1``, for files that carry the names section).  Values may be written
as ``1``, ``0``, ``1.0``, ``0.0``.  ``#`` starts a comment.

Examples:
    >>> raw = loads("objvar 0\\nb1 1\\nb2 0.0\\n", source="x")
    >>> raw.values, raw.labels, raw.energies
    ([[1.0, 0.0]], [0, 1], [0.0])
"""

from __future__ import annotations

import re

from .._util.text import head_text
from ..errors import FormatError
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

NAME = "qplib-sol"
TITLE = "QPLIB solution file (objvar, then name value lines)"
ALIASES = ("qplib", "sol", "qplib_sol")
ORDER = 40

_LINE = re.compile(r"^\s*(\S+)\s+(\S+)\s*$")
_DEFAULT = re.compile(r"^[bx](\d{1,18})$")  # longer is no index: a name


def detect(head: bytes) -> bool:
    """An ``objvar`` line, or only ``b<k> <value>`` lines."""
    text = head_text(head)
    lines = [ln for ln in text.splitlines()[:50] if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        return False
    if lines[0].split()[0] == "objvar":
        return True
    return all(re.match(r"^\s*b\d+\s+[-+0-9.eE]+\s*$", ln) for ln in lines)


def loads(text: str, *, source: str) -> RawSamples:
    """Read one solution.

    Raises:
        FormatError: a line that is not ``name value``, a value that is not a number,
            or a mix of default names and labels.
    """
    names: list[str] = []
    values: list[float] = []
    energies = None
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0]
        if not line.strip():
            continue
        m = _LINE.match(line)
        if not m:
            raise FormatError(f"{source}:{lineno}: expected '<name> <value>', got {line.strip()!r}")
        name, value = m.groups()
        try:
            number = float(value)
        except ValueError:
            raise FormatError(f"{source}:{lineno}: value {value!r} is not a number") from None
        if name == "objvar":
            energies = [number]
            continue
        names.append(name)
        values.append(number)
    if not names:
        raise FormatError(f"{source}: no variable values in the solution file")
    positions = [_DEFAULT.match(n) for n in names]
    if all(positions):
        labels: list = [int(p.group(1)) - 1 for p in positions]  # type: ignore[union-attr]
        return RawSamples(values=[values], labels=labels, energies=energies, vartype="BINARY")
    return RawSamples(maps=[dict(zip(names, values))], energies=energies, vartype="BINARY")
