"""CSV coefficient list: one term a row, with its indices and labels, under a header row.

Grammar (RFC 4180 with ``#`` comment lines first, as pandas' ``comment="#"`` reads)::

    # <nonoqubo metadata>            offset, vartype, clues, label rule
    i,j,label_i,label_j,bias         the header row
    <i>,<j>,<label>,<label>,<bias>   0-based, i <= j; i == j is a linear term

Energy: ``E = offset + sum over rows of bias * x_i * x_j`` (``x_i x_i = x_i``):
the upper triangle, each pair once, full coefficient, in row-major order.
The offset is not a term row; it is the ``# offset=`` line.  Labels holding a
comma or a quote are quoted per RFC 4180.  With ``--ising`` the rows hold
``h`` (diagonal) and ``J`` and the vartype line says SPIN.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    >>> print("".join(l + "\\n" for l in dumps(q).splitlines() if not l.startswith("#")), end="")
    i,j,label_i,label_j,bias
    0,0,a,a,-1
    0,1,a,b,2
    1,1,b,b,1
    1,2,b,c,-3
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import numpy as np

from .._util.text import decode
from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, KIND, LEGACY_ENCODING, WRITE_BYTES_PER_TERM
from . import _coords, _header, _text, _writer

NAME = "csv"
TITLE = "CSV coefficient list 'i,j,label_i,label_j,bias', one term a row, 0-based upper triangle (offset in '#' lines)"
EXTENSIONS = ("csv",)
ISING = True
ORDER = 45
OFFSET = "excluded"

HEADER = "i,j,label_i,label_j,bias"
_SPACE = re.compile(r"\s")
CONV = _coords.Convention(NAME, "#")


def _quoted(label: str) -> str:
    if any(ch in label for ch in ',"\r\n') or label != label.strip():
        return '"' + label.replace('"', '""') + '"'
    return label


def _cells(labels: list[str]) -> list[str]:
    """The labels as CSV cells, quoted only when RFC 4180 needs it.

    The common case (no comma, quote, line break or white space in any label)
    is one scan of all labels at C speed; otherwise each label is looked at.
    """
    joined = "".join(labels)
    if not any(ch in joined for ch in ',"\r\n') and not _SPACE.search(joined):
        return labels
    return [_quoted(x) for x in labels]


def _chunks(qubo: Qubo, ising: bool):
    t = _coords.terms_of(qubo, CONV, ising=ising)
    yield _header.comment_lines(t.meta, CONV.prefix), 0
    yield HEADER + "\n", 0
    names = _text.Strings(_cells(list(map(str, qubo.labels))))
    cols = [t.i, t.j, names.take(t.i), names.take(t.j), t.num]
    yield from _text.data_chunks(cols, [1, 1, 1, 1, t.den], sep=",")


dumps, dump = _writer.text_writer(NAME, _chunks)


def loads(data: str | bytes, *, source: str = "<csv>") -> Qubo:
    """The :class:`Qubo` of a CSV text written by nonoqubo.

    Raises:
        FormatError: a missing header row, a malformed row, no metadata.
    """
    text = decode(data, source, what="QUBO text file")
    comments, line_no, body = _text.split_comments(text, CONV.marker)
    meta = _header.parse_comments(comments, CONV.marker, source)
    _coords.need_meta(meta, source)
    head, pos = _text.next_line(body, 0)
    if head.strip().replace(" ", "") != HEADER:
        raise FormatError(located(source, line_no, f"expected the header row {HEADER!r}, found {head[:60]!r}"))
    n = _coords.variables(meta, len(text), source)
    rows = body[pos:]
    if '"' in rows:  # quoted labels: the csv module, slower but exact
        reader = csv.reader(io.StringIO(rows))
        try:
            records = list(reader)
        except csv.Error as exc:  # a lone carriage return or NUL inside a field
            raise FormatError(located(source, line_no + reader.line_num, f"not a CSV row: {exc}")) from None
        short = next((k for k, r in enumerate(records) if r and len(r) != 5), None)
        if short is not None:
            raise FormatError(located(source, line_no + 1 + short, f"expected 5 fields (i,j,label_i,label_j,bias), "
                                      f"found {len(records[short])}"))
        table = _numbers([(r[0], r[1], r[4]) for r in records if r], source, line_no + 1)
    else:
        table = _numbers(rows, source, line_no + 1)
    i, j, v = (table[:, k] for k in range(3))
    i, j = _text.as_int(i, source, "index"), _text.as_int(j, source, "index")
    if i.size and (min(i.min(), j.min()) < 0 or max(i.max(), j.max()) >= n):
        raise FormatError(located(source, None, f"an index is outside 0..{n - 1}"))
    return _coords.to_model(meta, i, j, v.copy(), n, meta.get("offset", 0), source)


def _numbers(rows: Any, source: str, first_line: int) -> np.ndarray:
    """Columns i, j, bias as floats (from text rows or from parsed records)."""
    if isinstance(rows, list):
        try:
            return np.array(rows, dtype=np.float64).reshape(-1, 3)
        except ValueError as exc:
            raise FormatError(located(source, None, f"a row has a non-numeric index or bias: {exc}")) from None
    if not rows.strip():
        return np.zeros((0, 3))
    try:
        return np.loadtxt(io.StringIO(rows), delimiter=",", usecols=(0, 1, 4), dtype=np.float64, ndmin=2,
                          comments=None)
    except ValueError as exc:
        raise FormatError(located(source, None, f"bad CSV row (data starts at line {first_line}): {exc}")) from None



def detect(head: bytes) -> bool:
    """A nonoqubo header naming this format."""
    return _header.names_format(head, CONV.prefix, NAME)
