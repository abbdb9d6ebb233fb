"""Rows of numbers as ASCII text at memory speed: the engine of every text writer.

A text QUBO file is millions of short lines such as ``12 40 -3\\n``.  Python's
``%`` runs at about a million lines a second and ``numpy.savetxt`` no faster;
here no step is per byte or per line in Python, and almost none per byte in C.

1. **Fields from tables.**  A column of ``n`` integers whose values span a
   range ``R`` no larger than ``n`` (indices, small biases: nearly always) is
   rendered once per distinct value: a table of ``R`` texts, with the field's
   separator already appended (``"40 "``), each held as 8-byte words.  The
   column's text is then one gather (``np.take``) of words per row.  A column
   with a wider range is rendered row by row with the same digit arithmetic
   (one vector pass per decimal digit), so it is exact, only slower.  Equal
   ranges share one table (the ``i`` and ``j`` columns of a term list).
2. **Lines from word stores.**  A row's length is the sum of its fields'
   lengths; a prefix sum gives every field's byte offset in the output.  Each
   word is stored through a byte-strided ``uint64`` view of the output
   (``strides=(1,)``, so a word can start at any byte), one NumPy scatter per
   field and word over all rows.  A text of 8 bytes or more is stored as words
   that cover it exactly (the last one right-aligned on its end); a shorter one
   as one word whose zero padding runs forward, over later fields of its row,
   stored afterwards.  So every field that ends inside its row takes plain
   stores; a row's last field, whose padding may reach into the next row, is
   OR-ed into the zeroed buffer instead, in ``ceil(8 / shortest row)``
   interleaved scatters, so that no two words of one scatter overlap and the
   result never depends on NumPy's store order.
3. **Chunks on threads.**  Rows are assembled :data:`CHUNK` at a time, by two
   worker threads (NumPy releases the GIL in gathers and scatters), and written
   in order by a third (see :mod:`._parallel` and :func:`._text.emit`).

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

from collections.abc import Iterator, Sequence
from typing import Any, Protocol

import numpy as np

from ._parallel import ordered_map

__all__ = ["CHUNK", "Strings", "format_lines", "line_chunks"]

#: rows assembled at once: a chunk's buffers stay in the caches (2^16 to 2^18 rows measured
#: fastest on the 100x100's 3.6 M terms, 2^20 about 30 % slower)
CHUNK = 1 << 17
_POW10 = 10 ** np.arange(20, dtype=np.uint64)
#: the decimal tails of numerator % den
_FRACTIONS = {1: [b""], 2: [b"", b".5"], 4: [b"", b".25", b".5", b".75"]}
_WORD = 8
#: one field of a chunk of rows: ``(words, offsets or None, lengths)`` (see :class:`_Field`)
Part = tuple[np.ndarray, "np.ndarray | None", np.ndarray]


class Indices(Protocol):
    """The rows a :class:`Strings` column is taken by: an index array, or a column built a slice at a time (``_coords.Merged``)."""

    @property
    def size(self) -> int: ...

    def __getitem__(self, part: slice) -> np.ndarray: ...


class Strings:
    """A text column for :func:`format_lines`: ``texts[index]`` for every row.

    The texts are held once, and encoded once into one byte string; a column
    of millions of labels costs one gather.
    """

    def __init__(self, texts: Sequence[str], index: Indices | None = None) -> None:
        self.texts = list(texts)
        self.index = index
        self.tables: dict[bytes, _Field] = {}  # by suffix, shared by every take()
        self.encoded: tuple[np.ndarray, np.ndarray] | None = None  # (flat UTF-8 bytes, lengths)

    def take(self, index: Indices) -> Strings:
        """The same texts, indexed by *index* (one row per entry)."""
        out = object.__new__(Strings)
        out.__dict__.update(self.__dict__)
        out.index = index if hasattr(index, "size") else np.asarray(index)
        return out

    @property
    def size(self) -> int:
        return int(self.index.size) if self.index is not None else len(self.texts)

    def __getitem__(self, part: slice) -> Strings:
        return self.take(self._codes()[part])

    def _codes(self) -> Indices:
        return self.index if self.index is not None else np.arange(len(self.texts))

    def utf8(self) -> tuple[np.ndarray, np.ndarray]:
        """All texts' UTF-8 bytes end to end, and each one's length in bytes (computed once)."""
        if self.encoded is None:
            joined = "".join(self.texts)
            if joined.isascii():  # one encode, and lengths in characters are lengths in bytes
                flat = joined.encode("ascii")
                lengths = np.fromiter(map(len, self.texts), np.int64, len(self.texts))
            else:
                parts = [t.encode("utf-8") for t in self.texts]
                flat = b"".join(parts)
                lengths = np.fromiter(map(len, parts), np.int64, len(parts))
            self.encoded = (np.frombuffer(flat, np.uint8), lengths)
        return self.encoded


class _Field:
    """One column's text, as 8-byte word stores.

    A text of ``L`` bytes is stored as ``m`` words (``m`` = the widest text's
    word count): word ``k`` holds the text's bytes ``off_k .. off_k + 7`` and is
    stored at the field's start plus ``off_k``, where ``off_k = min(8k,
    max(L - 8, 0))``.  The last word is thus right-aligned on the text's end, so
    a text of 8 bytes or more is covered exactly (overlapping words agree on
    their shared bytes), and only a text shorter than 8 bytes has zero padding,
    which runs forward into the next field.  Row ``r`` reads entry
    ``source[r] - lo`` of the tables (row ``r`` itself when ``source`` is None).

    Attributes:
        words: ``(R, m)`` uint64, the texts' words as above.
        offsets: ``(R, m)`` ``off_k``, or None when ``m == 1`` (always 0).
        lengths: ``(R,)`` the texts' lengths in bytes.
    """

    def __init__(self, words: np.ndarray, offsets: np.ndarray | None, lengths: np.ndarray, source: Any = None,
                 lo: int = 0) -> None:
        self.words, self.offsets, self.lengths, self.source, self.lo = words, offsets, lengths, source, lo

    def part(self, s: int, e: int, sliced: dict[int, np.ndarray] | None = None) -> Part:
        """``(words (rows, m), offsets (rows, m) or None, lengths (rows,))`` of rows ``s:e``.

        *sliced* keeps the slices of the sources already taken for these rows
        (a label column and an index column share theirs).
        """
        if self.source is None:
            offsets = None if self.offsets is None else self.offsets[s:e]
            return self.words[s:e], offsets, self.lengths[s:e]
        if sliced is None:
            sliced = {}
        key = id(self.source)
        if key not in sliced:
            sliced[key] = np.asarray(self.source[s:e])
        codes = sliced[key]
        if self.lo:
            codes = codes - self.lo
        # np.take gathers whole rows about ten times faster than fancy indexing does
        offsets = None if self.offsets is None else np.take(self.offsets, codes, axis=0)
        return np.take(self.words, codes, axis=0), offsets, np.take(self.lengths, codes)


class _Direct(_Field):
    """A column rendered row by row, a chunk at a time (its values span too wide a range for a table)."""

    def __init__(self, col: Any, den: int, suffix: bytes) -> None:
        self.col, self.den, self.suffix = col, den, suffix

    def part(self, s: int, e: int, sliced: dict[int, np.ndarray] | None = None) -> Part:
        field = _render(np.asarray(self.col[s:e], dtype=np.int64), self.den, self.suffix)
        return field.words, field.offsets, field.lengths


def _pack(matrix: np.ndarray, lengths: np.ndarray) -> _Field:
    """A left-aligned zero-padded ``(k, width)`` byte matrix as a field of word stores (see :class:`_Field`)."""
    k, width = matrix.shape
    m = max(1, -(-width // _WORD))
    lengths = np.asarray(lengths, np.int64)
    small = np.uint8 if width < 256 else np.int64  # a smaller table gathers faster
    padded = np.zeros((k, m * _WORD), np.uint8)  # room for the last word of every text
    padded[:, :width] = matrix
    if m == 1:
        return _Field(padded.view(np.uint64), None, lengths.astype(small))
    offsets = np.minimum(_WORD * np.arange(m), np.maximum(lengths - _WORD, 0)[:, None])
    starts = offsets + (m * _WORD) * np.arange(k)[:, None]  # in the flat padded matrix
    picked = np.take(padded.reshape(-1), starts[:, :, None] + np.arange(_WORD))  # 1-D takes are the fast ones
    return _Field(picked.view(np.uint64).reshape(k, m), offsets.astype(small), lengths.astype(small))


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
        table = tables[key]
        return _Field(table.words, table.offsets, table.lengths, col, lo)
    return _Direct(col, den, suffix)


def _string_field(col: Strings, suffix: bytes) -> _Field:
    if suffix not in col.tables:
        col.tables[suffix] = _string_table(*col.utf8(), suffix)
    table = col.tables[suffix]
    return _Field(table.words, table.offsets, table.lengths, col._codes())


def _string_table(flat: np.ndarray, lengths: np.ndarray, suffix: bytes) -> _Field:
    """The field of texts given end to end (*flat*, *lengths*), each followed by *suffix*."""
    k = lengths.size
    width = max(int(lengths.max(initial=0)) + len(suffix), 1)
    matrix = np.zeros((k, width), np.uint8)
    row_at = width * np.arange(k)  # where each row starts in the flat matrix
    if flat.size:  # text byte t of row r goes to r * width + (t - start of r)
        np.put(matrix.reshape(-1), np.arange(flat.size) + np.repeat(row_at - (np.cumsum(lengths) - lengths), lengths),
               flat)
    for c, byte in enumerate(suffix):
        matrix.reshape(-1)[row_at + lengths + c] = byte
    return _pack(matrix, lengths + len(suffix))


def _fields(columns: Sequence[Any], dens: Sequence[int] | None, sep: str, end: str) -> list[_Field]:
    dens = list(dens or [1] * len(columns))
    last = len(columns) - 1
    out = []
    tables: dict[Any, _Field] = {}
    for c, (col, den) in enumerate(zip(columns, dens)):
        suffix = (end if c == last else sep).encode()
        out.append(_string_field(col, suffix) if isinstance(col, Strings) else _number_field(col, den, suffix, tables))
    return out


def _assemble(parts: list[Part]) -> np.ndarray:
    """The bytes of the rows whose fields are *parts* (``(words, offsets, lengths)`` each), as uint8.

    Fields are stored in order, word by word, each store one NumPy scatter over
    all rows into a zeroed buffer.  A store never writes before its field's
    start, and its zero padding (texts shorter than 8 bytes) runs forward over
    later fields, which are stored afterwards.  So a field whose words all end
    inside their row, in every row, takes plain stores; one whose padding may
    run into the next row (a row's last field, nearly always) is OR-ed in
    instead, which keeps the bytes already there.  OR-ed stores are split into
    ``ceil(8 / shortest row)`` interleaved scatters, so that no two words of one
    scatter overlap and the result never depends on NumPy's store order.
    """
    lengths = parts[0][2].astype(np.int64)
    for _, _, ln in parts[1:]:
        lengths += ln
    ends = np.cumsum(lengths)
    total = int(ends[-1])
    buf = np.zeros(total + _WORD, np.uint8)
    words = np.ndarray((total + 1,), np.uint64, buffer=buf, strides=(1,))
    passes = -(-_WORD // max(int(lengths.min()), 1))
    shortest = [int(ln.min()) for _, _, ln in parts]
    at = ends - lengths  # where the current field starts, row by row
    for f, (w, off, ln) in enumerate(parts):
        # plain when every last word ends inside its row: surely so when the field's shortest
        # text (its last word starts at most 8 bytes before its end) and the shortest fields
        # after it make 8 bytes; else looked at row by row
        plain = min(shortest[f], _WORD) + sum(shortest[f + 1:]) >= _WORD or int(
            (ends - (at + off[:, -1] if off is not None else at)).min()) >= _WORD
        for k in range(w.shape[1]):
            where = at + off[:, k] if off is not None and k else at  # a text's first word is at its start
            if plain:
                words[where] = w[:, k]
                continue
            for s in range(passes):
                words[where[s::passes]] |= w[s::passes, k]
        at += ln
    return buf[:total]


def line_chunks(columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
                end: str = "\n", chunk: int = CHUNK, threads: int | None = None) -> Iterator[tuple[np.ndarray, int]]:
    """``(uint8 text, rows)`` of at most *chunk* rows at a time, in order; see :func:`format_lines`.

    The value tables are built once for the whole columns.  Chunks are
    assembled by *threads* worker threads (see :func:`._parallel.ordered_map`).
    """
    n = int(columns[0].size) if len(columns) else 0
    if n == 0:
        return
    fields = _fields(columns, dens, sep, end)

    def one(s: int) -> tuple[np.ndarray, int]:
        e = min(s + chunk, n)
        sliced: dict[int, np.ndarray] = {}
        return _assemble([f.part(s, e, sliced) for f in fields]), e - s

    yield from ordered_map(one, range(0, n, chunk), threads)


def format_lines(columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
                 end: str = "\n") -> bytes:
    """ASCII text of rows of numbers: ``col0 sep col1 ... end`` per row.

    Args:
        columns: equal-length integer arrays of numerators (or columns that give their
            pieces on demand: ``size``, ``[a:b]``, ``min()``, ``max()``, as ``_coords.Merged``), or :class:`Strings`.
        dens: the denominator (1, 2 or 4) of each column; default all 1.
        sep: between the fields of a row.
        end: after every row (``","`` for a JSON array body, less its last comma).

    Returns:
        The text as bytes.
    """
    return b"".join(part.tobytes() for part, _ in line_chunks(columns, dens, sep=sep, end=end))
