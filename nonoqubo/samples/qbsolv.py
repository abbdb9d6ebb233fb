"""qbsolv's answer, as written by ``qbsolv -i model.qubo [-o answer.txt]`` (D-Wave, deprecated 2021).

Grammar (``print_opts`` and ``print_output`` in qbsolv's ``src/util.cc``), the
form every qbsolv since 2017 writes::

    <n> bits,  find Min, SubMatrix= <s>, -a <algo>, [Target of <t>,] timeout=<sec> sec
    <n characters 0/1: the bits, variable 0 first>
    <energy> Energy of solution
    <calls> Number of Partitioned calls, <k> output sample
    <seconds> seconds of classic cpu time [,Target of <t>]

Older versions (before 2017) opened the answer with ``<n> Number of bits in
solution`` instead of the options line.  With ``-v1`` and more, qbsolv prints
every improvement as it goes, each after its own options line, among other
chatter; the **last** answer is the result, and it is the one read.  Without
``-o`` the same text goes to standard output, which may be saved and read as is.

The bits are in the order of the ``.qubo`` file's node indices, which is
nonoqubo's variable order.  The printed energy is ``x'Qx`` of the file, without
the offset (the qbsolv format has no field for it; nonoqubo writes it in a
``c offset`` comment): the reader marks it so, and ``decode`` reports
``offset + energy``, the QUBO energy (0 at a solution).  With ``-m`` (find Max)
the printed value is still ``x'Qx``.

Examples:
    >>> text = ("3 bits,  find Min, SubMatrix= 47, -a o, timeout=2592000.0 sec\\n101\\n"
    ...         "-2.00000 Energy of solution\\n4 Number of Partitioned calls, 1 output sample \\n")
    >>> raw = loads(text, source="x")
    >>> raw.values.tolist(), raw.energies, raw.offset_excluded
    ([[1, 0, 1]], [-2.0], True)
    >>> loads("3 Number of bits in solution\\n011\\n-1.0 Energy of solution\\n", source="x").values.tolist()
    [[0, 1, 1]]
"""

from __future__ import annotations

import re

import numpy as np

from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, located
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples

__all__ = ["detect", "loads"]

NAME = "qbsolv"
TITLE = "qbsolv answer ('N bits, find Min, ...' or 'N Number of bits in solution', bits, energy)"
ALIASES = ("qbsolv-answer", "qbsolv-out")
ORDER = 30

#: the line that opens an answer: new (2017-) and old forms; group 1 is the bit count
_HEADER = re.compile(
    r"^[ \t]*(\d+)(?: bits,[ \t]+find (?:Min|Max),[^\n]*| Number of bits in solution[ \t]*)\r?$",
    re.MULTILINE,
)
_ENERGY = re.compile(r"^[ \t]*(\S+)[ \t]+Energy of solution", re.MULTILINE)


def detect(head: bytes) -> bool:
    """An options line (``437 bits,  find Min, ...``) or a ``Number of bits in solution`` line."""
    text = head_text(head)
    return bool(_HEADER.search(text[:100_000]))


def loads(text: str, *, source: str) -> RawSamples:
    """Read the last answer in qbsolv's output.

    Raises:
        FormatError: no header line, a bit line of the wrong length or alphabet, or a bad energy.
    """
    head = None
    for head in _HEADER.finditer(text):  # the last one: qbsolv -v1 prints every improvement
        pass
    if head is None:
        raise FormatError(located(source, None, "no 'N bits, find Min, ...' or 'N Number of bits in "
                                  "solution' line: not a qbsolv answer"))
    lineno = text.count("\n", 0, head.end()) + 2
    n = integer(head.group(1), source, lineno - 1, "bit count")
    stop = text.find("\n", head.end() + 1)
    bits = text[head.end() + 1: len(text) if stop < 0 else stop].strip()
    if n == 0:
        raise FormatError(located(source, lineno - 1, "qbsolv answered for 0 variables (qbsolv crashes on "
                                  "such a model); decode the model with no samples instead"))
    if len(bits) != n or not re.fullmatch(r"[01]+", bits):
        raise FormatError(located(source, lineno, f"expected {n} bits (0/1) after the header, got "
                                  f"{bits[:40]!r}{'...' if len(bits) > 40 else ''} ({len(bits)} characters)"))
    energies = None
    m = _ENERGY.match(text, 0 if stop < 0 else stop + 1)
    if m:
        try:
            energies = [float(m.group(1))]
        except ValueError:
            raise FormatError(located(source, lineno + 1, f"energy {m.group(1)!r} is not a number")) from None
    values = (np.frombuffer(bits.encode("ascii"), np.uint8) - ord("0")).astype(np.int8)[None, :]
    return RawSamples(values=values, energies=energies, vartype="BINARY",
                      offset_excluded=True)
