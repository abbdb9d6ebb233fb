"""qbsolv's answer, as printed by ``qbsolv -i model.qubo`` (D-Wave, deprecated 2021).

Grammar (``print_output`` in qbsolv's ``src/util.c``)::

    <n> Number of bits in solution
    <n characters 0/1: the bits, variable 0 first>
    <energy> Energy of solution
    <calls> Number of Partitioned calls
    <seconds> seconds of classic cpu time [,Target of <t>]

Other lines (verbose output) may come before.  The bits are in the order of
the ``.qubo`` file's node indices, which is nonoqubo's variable order.  The
energy qbsolv prints does not include the offset (the qbsolv format has no
field for it); it is kept as the reported energy.

Examples:
    >>> raw = parse("3 Number of bits in solution\\n101\\n-2.00000 Energy of solution\\n", source="x")
    >>> raw.values, raw.energies
    ([[1, 0, 1]], [-2.0])
"""

from __future__ import annotations

import re

from .._guard import integer
from ..errors import FormatError
from . import RawSamples

NAME = "qbsolv"
TITLE = "qbsolv answer (bit count, bit string, energy)"
ALIASES = ("qbsolv-answer",)
PRIORITY = 30

_HEADER = re.compile(r"^[ \t]*(\d+)[ \t]+Number of bits in solution\s*$", re.MULTILINE)
_ENERGY = re.compile(r"^[ \t]*(\S+)\s+Energy of solution", re.MULTILINE)


def detect(text: str) -> bool:
    """The ``Number of bits in solution`` line."""
    return bool(_HEADER.search(text))


def parse(text: str, *, source: str) -> RawSamples:
    """Read the last answer in qbsolv's output.

    Raises:
        FormatError: no header, or a bit line of the wrong length or alphabet.
    """
    headers = list(_HEADER.finditer(text))
    if not headers:
        raise FormatError(f"{source}: no 'Number of bits in solution' line (not qbsolv output)")
    head = headers[-1]
    lineno = text.count("\n", 0, head.end()) + 2
    n = integer(head.group(1), source, lineno - 1, "bit count")
    rest = text[head.end():].lstrip("\r\n")
    bits = rest.splitlines()[0].strip() if rest else ""
    if len(bits) != n or not re.fullmatch(r"[01]*", bits):
        raise FormatError(f"{source}:{lineno}: expected {n} bits (0/1) after the header, got {bits[:40]!r}")
    energies = None
    m = _ENERGY.search(rest)
    if m:
        try:
            energies = [float(m.group(1))]
        except ValueError:
            raise FormatError(f"{source}: energy {m.group(1)!r} is not a number") from None
    return RawSamples(values=[[int(c) for c in bits]], energies=energies, vartype="BINARY")
