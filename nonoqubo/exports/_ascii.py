"""Rows of numbers as ASCII text at memory speed: the engine of every text writer.

A text QUBO file is millions of short lines such as ``12 40 -3\\n``.  Python's
``%`` runs at about a million lines a second and ``numpy.savetxt`` no faster;
here no step is per byte or per line in Python, and almost none per byte in C.

1. **Fields from tables.**  A column of ``n`` integers whose values span a
   range ``R`` no larger than ``n`` (indices, small biases: nearly always) is
   rendered once per distinct value: a table of ``R`` texts, each zero-padded
   to whole 8-byte words, with the field's separator already appended
   (``"40 "``).  The column's text is then one gather of 8-byte words per row.
   A column with a wider range is rendered row by row with the same digit
   arithmetic (one vector pass per decimal digit), so it is exact, only slower.
   Equal ranges share one table (the ``i`` and ``j`` columns of a term list).
2. **Lines from word stores.**  A row's length is the sum of its fields'
   lengths; a prefix sum gives every field's byte offset in the output.  Each
   8-byte word is then OR-ed into a zeroed output buffer through a byte-strided
   ``uint64`` view of it (``strides=(1,)``, so a word can start at any byte).
   A word's zero padding may spill over the start of the next fields; OR leaves
   those bytes intact whichever write comes first, and rows are stored in
   ``ceil(8 / shortest row)`` interleaved passes so that no two words of one
   fancy-indexed store overlap (the result never depends on NumPy's iteration
   order).

Values are exact rationals ``numerator / den`` with ``den`` 1, 2 or 4 (integer
QUBO biases, halved off-diagonals, Ising quarters): integers print bare
(``-3``), the others as short decimals (``-0.5``, ``1.25``), never in
scientific notation.

Examples:
    >>> import numpy as np
    >>> format_lines([np.array([0, 12]), np.array([-3, 5])], [1, 2]).decode()
    '0 -1.5\\n12 2.5\\n'
    >>> format_lines([np.array([7, -10])], [4], end=",").decode()
    '1.75,-2.5,'
    >>> format_lines([np.array([3, 4]), Strings(["ab", "c"]).take(np.array([1, 0]))], sep=",").decode()
    '3,c\\n4,ab\\n'
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, Protocol

import numpy as np

__all__ = ["CHUNK", "Column", "Strings", "format_lines", "line_chunks"]

#: rows assembled at once (bounds the temporary buffers to some tens of MB)
CHUNK = 1 << 20
_POW10 = 10 ** np.arange(20, dtype=np.uint64)
#: the decimal tails of numerator % den
_FRACTIONS = {1: [b""], 2: [b"", b".5"], 4: [b"", b".25", b".5", b".75"]}
_WORD = 8
#: threads assembling chunks (``NONOQUBO_THREADS`` overrides; 1 = in the caller's thread)
THREADS = int(os.environ.get("NONOQUBO_THREADS", min(2, os.cpu_count() or 1)))


class Strings:
    """A text column for :func:`format_lines`: ``texts[index]`` for every row.

    The texts are held once; a column of millions of labels costs one gather.
    """

    def __init__(self, texts: Sequence[str], index: np.ndarray | None = None) -> None:
        self.texts = [t.encode("utf-8") for t in texts]
        self.index = index
        self.tables: dict[bytes, _Field] = {}  # by suffix, shared by every take()

    def take(self, index: np.ndarray) -> Strings:
        """The same texts, indexed by *index* (one row per entry)."""
        out = object.__new__(Strings)
        out.texts, out.tables = self.texts, self.tables
        out.index = index if hasattr(index, "size") else np.asarray(index)
        return out

    @property
    def size(self) -> int:
        return int(self.index.size) if self.index is not None else len(self.texts)

    def __getitem__(self, part: slice) -> Strings:
        return self.take(self._codes()[part])

    def _codes(self) -> np.ndarray:
        return self.index if self.index is not None else np.arange(len(self.texts))


class Column(Protocol):
    """What a numeric column must offer besides a NumPy array: a lazily built one
    (such as the row-major merge of linear and pair terms) gives its pieces on demand."""

    size: int

    def __getitem__(self, part: slice) -> np.ndarray: ...

    def min(self) -> Any: ...

    def max(self) -> Any: ...


class _Field:
    """One column's text: ``words[codes]`` (8-byte words, zero-padded), ``lengths[codes]`` bytes,
    with ``codes = source[rows] - lo``; ``source`` None when the words are one row per row."""

    def __init__(self, words: np.ndarray, lengths: np.ndarray, source: Any = None, lo: int = 0) -> None:
        self.words, self.lengths, self.source, self.lo = words, lengths, source, lo

    def part(self, s: int, e: int) -> tuple[np.ndarray, np.ndarray]:
        """``(words (rows, m), lengths (rows,))`` of rows ``s:e``."""
        if self.source is None:
            return self.words[s:e], self.lengths[s:e]
        codes = np.asarray(self.source[s:e])
        if self.lo:
            codes = codes - self.lo
        return self.words[codes], self.lengths[codes]


class _Direct(_Field):
    """A column rendered row by row, a chunk at a time (its values span too wide a range for a table)."""

    def __init__(self, col: Any, den: int, suffix: bytes) -> None:
        self.col, self.den, self.suffix = col, den, suffix

    def part(self, s: int, e: int) -> tuple[np.ndarray, np.ndarray]:
        field = _render(np.asarray(self.col[s:e], dtype=np.int64), self.den, self.suffix)
        return field.words, field.lengths


def _pack(matrix: np.ndarray, lengths: np.ndarray) -> _Field:
    """A left-aligned zero-padded ``(k, width)`` byte matrix as a field of whole words."""
    k, width = matrix.shape
    m = max(1, -(-width // _WORD))
    if width != m * _WORD:
        padded = np.zeros((k, m * _WORD), np.uint8)
        padded[:, :width] = matrix
        matrix = padded
    small = np.uint8 if width < 256 else np.int64  # a smaller table gathers faster
    return _Field(np.ascontiguousarray(matrix).view(np.uint64), lengths.astype(small), None)


def _tails(den: int, suffix: bytes) -> tuple[np.ndarray, np.ndarray]:
    """Byte table ``(den, w)`` and lengths of ``fraction + suffix`` for every ``numerator % den``."""
    texts = [t + suffix for t in _FRACTIONS[den]]
    width = max(len(t) for t in texts)
    table = np.zeros((den, max(width, 1)), np.uint8)
    for k, t in enumerate(texts):
        table[k, : len(t)] = np.frombuffer(t, np.uint8)
    return table, np.array([len(t) for t in texts], np.int64)


def _render(num: np.ndarray, den: int, suffix: bytes) -> _Field:
    """The texts of the numerators *num* over *den*, each followed by *suffix*, one row each.

    Laid out right-aligned first (``-`` just before the digits, then the
    fraction and suffix), one column operation per digit; then the rows are
    shifted left by their padding, one copy per distinct padding.
    """
    k = num.size
    neg = num < 0
    mag = np.abs(num).astype(np.uint64)
    whole, frac = (mag // np.uint64(den), mag % np.uint64(den)) if den != 1 else (mag, np.zeros(k, np.intp))
    nd = np.searchsorted(_POW10[1:], whole, side="right") + 1
    tail, tail_len = _tails(den, suffix)
    digits = int(nd.max(initial=1))
    head = digits + 1  # sign slot and digits, right-aligned
    right = np.zeros((k, head + tail.shape[1]), np.uint8)
    rest = whole.astype(np.uint32) if digits <= 9 else whole
    for d in range(digits):
        rest, digit = np.divmod(rest, 10)
        right[:, head - 1 - d] = np.where(nd > d, digit + 48, 0)
    rows = np.flatnonzero(neg)
    right[rows, head - 1 - nd[rows]] = ord("-")
    right[:, head:] = tail[frac]
    pad = head - nd - neg  # leading empty bytes of each row
    lengths = (nd + neg + tail_len[frac]).astype(np.int64)
    width = int(lengths.max(initial=1))
    matrix = np.zeros((k, width), np.uint8)
    for p in np.flatnonzero(np.bincount(pad)).tolist():  # rows of one padding at a time
        sel = pad == p
        span = min(width, right.shape[1] - p)
        matrix[sel, :span] = right[sel, p : p + span]  # zeros follow each text already
    return _pack(matrix, lengths)


def _number_field(col: Any, den: int, suffix: bytes, tables: dict[Any, _Field]) -> _Field:
    """The field of an integer column: from a table of its value range when that is no
    longer than the column (*tables* keeps them for the other columns), else rendered
    row by row."""
    if not hasattr(col, "min"):
        col = np.asarray(col, dtype=np.int64)
    lo, hi = int(col.min()), int(col.max())
    if hi - lo <= col.size + 255:
        key = (lo, hi, den, suffix)
        if key not in tables:
            tables[key] = _render(np.arange(lo, hi + 1, dtype=np.int64), den, suffix)
        return _Field(tables[key].words, tables[key].lengths, col, lo)
    return _Direct(col, den, suffix)


def _string_field(col: Strings, suffix: bytes) -> _Field:
    if suffix not in col.tables:
        col.tables[suffix] = _string_table(col.texts, suffix)
    table = col.tables[suffix]
    return _Field(table.words, table.lengths, col._codes())


def _string_table(texts: list[bytes], suffix: bytes) -> _Field:
    texts = [t + suffix for t in texts]
    lengths = np.fromiter(map(len, texts), np.int64, len(texts))
    width = max(int(lengths.max(initial=0)), 1)
    matrix = np.zeros((len(texts), width), np.uint8)
    if texts:
        flat = np.frombuffer(b"".join(texts), np.uint8)
        rows = np.repeat(np.arange(len(texts)), lengths)
        cols = np.arange(flat.size) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        matrix[rows, cols] = flat
    return _pack(matrix, lengths)


def _fields(columns: Sequence[Any], dens: Sequence[int] | None, sep: str, end: str) -> list[_Field]:
    dens = list(dens or [1] * len(columns))
    last = len(columns) - 1
    out = []
    tables: dict[Any, _Field] = {}
    for c, (col, den) in enumerate(zip(columns, dens)):
        suffix = (end if c == last else sep).encode()
        out.append(_string_field(col, suffix) if isinstance(col, Strings) else _number_field(col, den, suffix, tables))
    return out


def _assemble(parts: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The bytes of the rows whose fields are *parts* (``(words, lengths)`` each), as uint8."""
    lengths = parts[0][1].astype(np.int64)
    for _, ln in parts[1:]:
        lengths += ln
    ends = np.cumsum(lengths)
    total = int(ends[-1])
    widest = max(w.shape[1] for w, _ in parts) * _WORD
    buf = np.zeros(total + widest, np.uint8)
    words = np.ndarray((total + widest - _WORD + 1,), np.uint64, buffer=buf, strides=(1,))
    passes = -(-_WORD // max(int(lengths.min()), 1))
    at = ends - lengths  # where the current field starts, row by row
    for w, ln in parts:
        for t in range(w.shape[1]):
            word = w[:, t]
            where = at + t * _WORD if t else at
            for s in range(passes):
                idx = where[s::passes]
                words[idx] |= word[s::passes]
        at += ln
    return buf[:total]


def line_chunks(columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
                end: str = "\n", chunk: int = CHUNK, threads: int | None = None) -> Iterator[tuple[np.ndarray, int]]:
    """``(uint8 text, rows)`` of at most *chunk* rows at a time, in order; see :func:`format_lines`.

    The value tables are built once for the whole columns.  Chunks are
    assembled by *threads* worker threads (default :data:`THREADS`; NumPy
    releases the GIL in the gathers and stores), at most two per thread ahead.
    """
    n = int(columns[0].size) if len(columns) else 0
    if n == 0:
        return
    fields = _fields(columns, dens, sep, end)

    def one(s: int) -> tuple[np.ndarray, int]:
        e = min(s + chunk, n)
        return _assemble([f.part(s, e) for f in fields]), e - s

    starts = range(0, n, chunk)
    workers = THREADS if threads is None else threads
    if workers <= 1 or len(starts) == 1:
        yield from map(one, starts)
        return
    with ThreadPoolExecutor(workers, thread_name_prefix="nonoqubo-lines") as pool:
        pending: deque[Future[tuple[np.ndarray, int]]] = deque()
        for s in starts:
            pending.append(pool.submit(one, s))
            if len(pending) > 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def format_lines(columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
                 end: str = "\n") -> bytes:
    """ASCII text of rows of numbers: ``col0 sep col1 ... end`` per row.

    Args:
        columns: equal-length integer arrays of numerators (or :class:`Column`), or :class:`Strings`.
        dens: the denominator (1, 2 or 4) of each column; default all 1.
        sep: between the fields of a row.
        end: after every row (``","`` for a JSON array body, less its last comma).

    Returns:
        The text as bytes.
    """
    return b"".join(part.tobytes() for part, _ in line_chunks(columns, dens, sep=sep, end=end))
