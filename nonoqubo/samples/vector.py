"""Vectors in nonoqubo's variable order: JSON lists, lines of numbers, bit strings.

Grammar (one of)::

    [0, 1, 1, 0, ...]                    # JSON: one sample
    [[0, 1, ...], [1, 1, ...]]           # JSON: several samples
    0110100...                           # one bit string per line
    0 1 1 0 ...   or   -1,1,1,-1,...     # numbers separated by blanks or commas

Blank lines and lines starting with ``#`` or ``c `` are skipped.  Position
``i`` is variable ``i`` of the model's variable order (all row variables by
``(i, k, p)``, then all column variables by ``(j, k, p)``; the order of
every integer-indexed export).  Spins (-1/+1) are recognised by a ``-1``.

Examples:
    >>> loads("0110\\n# comment\\n1 0 1 1\\n", source="x").values
    [[0, 1, 1, 0], [1, 0, 1, 1]]
    >>> loads("[[1, 0], [-1, 1]]", source="x").values
    [[1, 0], [-1, 1]]
"""

from __future__ import annotations

import math
import re

from .._util.text import head_text, quoted
from ..errors import FormatError
from ._defaults import BINARY, EXTENSIONS, KIND, LEGACY_ENCODING
from ._raw import RawSamples, loads_json

NAME = "vector"
TITLE = "vectors in variable order: JSON list(s), lines of numbers or bit strings"
ALIASES = ("list", "bits", "bitstring", "lines", "txt")
ORDER = 90
HEURISTIC = True  # lines of numbers: many files look like that, so it is tried last

_BITS = re.compile(r"^[0-9]+$")  # a digit string: one digit per variable
_NUMBER = re.compile(r"^[+-]?\d+(?:\.0*)?$")


def detect(head: bytes) -> bool:
    """A JSON list of numbers / lists, or lines of digits, signs, blanks and commas."""
    text = head_text(head)
    start = text.lstrip()
    if start.startswith("["):
        return not start[1:].lstrip().startswith("{")
    lines = [ln for ln in start.splitlines()[:50] if ln.strip() and not _comment(ln)]
    return bool(lines) and all(re.fullmatch(r"[\s,+\-0-9.]+", ln) for ln in lines)


def _comment(line: str) -> bool:
    s = line.lstrip()
    return s.startswith("#") or s.startswith("c ") or s == "c"


def loads(text: str, *, source: str) -> RawSamples:
    """Read vectors; rows may differ in length here (the match step names the bad one).

    Raises:
        FormatError: a token that is not a number, or a JSON list of the wrong shape.
    """
    head = text.lstrip()
    if head.startswith("["):
        doc = loads_json(text, source)
        if doc and all(isinstance(v, list) for v in doc):
            rows = doc
        elif all(not isinstance(v, (list, dict)) for v in doc):
            rows = [doc]
        else:
            raise FormatError(f"{source}: a JSON sample list holds numbers, or lists of numbers")
        for s, row in enumerate(rows):
            for i, v in enumerate(row):
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    what = "a string; a JSON sample holds numbers (bit strings go one a line, outside JSON)" \
                        if isinstance(v, str) else "not a number"
                    raise FormatError(f"{source}: sample {s}, position {i}: {quoted(v)} is {what}")
        return RawSamples(values=rows)
    rows = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped or _comment(line):
            continue
        if _BITS.match(stripped):
            rows.append([int(c) for c in stripped])
            continue
        row = []
        for token in re.split(r"[\s,]+", stripped):
            if not token:
                continue
            if not _NUMBER.match(token):
                raise FormatError(f"{source}:{lineno}: {token!r} is not a 0/1 or -1/+1 value")
            value = float(token)
            if not math.isfinite(value):  # 1e400, or 400 digits: not a 0/1 or spin value
                raise FormatError(f"{source}:{lineno}: {token[:40]!r} is not a 0/1 or -1/+1 value")
            row.append(int(value))
        rows.append(row)
    if not rows:
        raise FormatError(f"{source}: no samples in the file")
    return RawSamples(values=rows)
