"""Fast, exact number <-> text conversion for the text export formats.

Writing tens of millions of ``i j bias`` lines with Python's ``%`` operator
runs at about a million terms a second; here every column is turned into
ASCII digits with NumPy, one pass per digit position, and the lines are laid
into one ``uint8`` buffer.  Values are exact rationals ``numerator / den``
with ``den`` 1, 2 or 4 (integer QUBO biases, halved off-diagonals, Ising
quarters), so they print as integers or short decimals (``-3``, ``0.5``,
``-1.25``), never in scientific notation.

Reading goes through :func:`numpy.fromstring` in text mode (C speed); a parse
failure is located to its line by a slow second pass, only on that error path.

Examples:
    >>> import numpy as np
    >>> format_lines([np.array([0, 12]), np.array([-3, 5])], [1, 2]).decode()
    '0 -1.5\\n12 2.5\\n'
    >>> format_lines([np.array([7, -10])], [4], end=",").decode()
    '1.75,-2.5,'
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .._guard import finite
from ..errors import FormatError, located

__all__ = ["Strings", "chunked_lines", "format_lines", "parse_numbers", "rational"]

INT = np.int64
_FRACTIONS = {1: [b""], 2: [b"", b".5"], 4: [b"", b".25", b".5", b".75"]}
_POW10 = 10 ** np.arange(19, dtype=INT)
#: rows formatted at once by chunked_lines (bounds the temporary buffers)
CHUNK = 1 << 20


def rational(values: np.ndarray) -> tuple[np.ndarray, int]:
    """Exact ``(numerators, den)`` of *values*, with ``den`` in 1, 2, 4.

    Raises:
        ValueError: a value is not a multiple of 1/4.
    """
    arr = np.asarray(values)
    if arr.dtype.kind in "iub":
        return arr.astype(INT, copy=False), 1
    for den in (1, 2, 4):
        scaled = arr * den
        num = np.round(scaled)
        if np.array_equal(num, scaled):
            return num.astype(INT), den
    raise ValueError("coefficients must be multiples of 1/4 to be written exactly")


class Strings:
    """A text column for :func:`format_lines`: ``texts[index]`` for every row.

    The texts are held once as a ``(k, width)`` byte matrix with their lengths,
    so a column of millions of labels costs one gather, no Python strings.

    Examples:
        >>> format_lines([np.array([3, 4]), Strings(["ab", "c"]).take(np.array([1, 0]))], sep=",").decode()
        '3,c\\n4,ab\\n'
    """

    def __init__(self, texts: Sequence[str], index: np.ndarray | None = None) -> None:
        encoded = [t.encode("utf-8") for t in texts]
        self.table = np.array(encoded, dtype="S") if encoded else np.zeros(0, "S1")
        width = max(self.table.dtype.itemsize, 1)
        self.matrix = self.table.view(np.uint8).reshape(len(encoded), width)
        self.lengths = np.fromiter(map(len, encoded), np.int64, len(encoded))
        self.index = index

    def take(self, index: np.ndarray) -> Strings:
        """The same texts, indexed by *index* (one row per entry)."""
        out = object.__new__(Strings)
        out.table, out.matrix, out.lengths, out.index = self.table, self.matrix, self.lengths, index
        return out

    @property
    def size(self) -> int:
        return int(self.index.size) if self.index is not None else int(self.lengths.size)

    def __getitem__(self, part: slice) -> Strings:
        index = self.index if self.index is not None else np.arange(self.lengths.size)
        return self.take(index[part])

    def part(self) -> tuple[np.ndarray, np.ndarray]:
        """``(bytes (rows, width), keep mask)`` for format_lines."""
        index = self.index if self.index is not None else np.arange(self.lengths.size)
        data = self.matrix[index]
        keep = np.arange(self.matrix.shape[1]) < self.lengths[index][:, None]
        return data, keep


def _digits(a: np.ndarray) -> np.ndarray:
    """Number of decimal digits of each non-negative int64 (1 for zero)."""
    return np.searchsorted(_POW10[1:], a, side="right").astype(INT) + 1


def format_lines(
    columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ", end: str = "\n"
) -> bytes:
    """ASCII text of rows of numbers: ``col0 sep col1 ... end`` per row.

    Every row is first laid out at a fixed width (sign, right-aligned digits,
    fraction, separators) in a ``(rows, width)`` byte matrix with a mask of the
    bytes that are real; ``matrix[mask]`` then squeezes the padding out, in row
    order, in one C pass.

    Args:
        columns: equal-length int64 arrays of numerators, or :class:`Strings`.
        dens: the denominator (1, 2 or 4) of each column; default all 1.
        sep: between the fields of a row.
        end: after every row (``","`` for a JSON array body, less its last comma).

    Returns:
        The text as bytes.
    """
    dens = list(dens or [1] * len(columns))
    n = int(columns[0].size) if len(columns) else 0
    if n == 0:
        return b""
    parts: list[tuple[np.ndarray, np.ndarray | None]] = []  # (bytes (n, w) or (w,), keep (n, w) or None)

    def const(text: str) -> None:
        if text:
            parts.append((np.frombuffer(text.encode(), np.uint8), None))

    for c, (col, den) in enumerate(zip(columns, dens)):
        if c:
            const(sep)
        if isinstance(col, Strings):
            parts.append(col.part())
            continue
        col = np.asarray(col, dtype=INT)
        neg = col < 0
        mag = np.abs(col)
        whole = mag // den if den != 1 else mag
        width = int(_digits(np.array([whole.max()]))[0])
        if neg.any():
            parts.append((np.where(neg, ord("-"), ord(" ")).astype(np.uint8)[:, None], neg[:, None]))
        pows = _POW10[:width][::-1]
        # unsigned 32-bit division is several times faster than int64's
        rest = whole.astype(np.uint32) if width <= 9 else whole.astype(np.uint64)
        digits = np.empty((n, width), np.uint8)
        for k in range(width - 1, -1, -1):
            rest, digit = np.divmod(rest, 10)
            digits[:, k] = digit
        digits += 48
        keep = whole[:, None] >= pows
        keep[:, -1] = True
        parts.append((digits, keep))
        if den != 1:
            table = _FRACTIONS[den]
            fw = max(len(t) for t in table)
            frac_bytes = np.zeros((den, fw), np.uint8)
            frac_keep = np.zeros((den, fw), bool)
            for k, t in enumerate(table):
                frac_bytes[k, : len(t)] = np.frombuffer(t, np.uint8)
                frac_keep[k, : len(t)] = True
            frac = mag % den
            parts.append((frac_bytes[frac], frac_keep[frac]))
    const(end)
    total = sum(p[0].shape[-1] for p in parts)
    matrix = np.empty((n, total), np.uint8)
    mask = np.ones((n, total), bool)
    at = 0
    for data, keep in parts:
        w = data.shape[-1]
        matrix[:, at : at + w] = data
        if keep is not None:
            mask[:, at : at + w] = keep
        at += w
    return matrix[mask].tobytes()


def chunked_lines(
    columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
    end: str = "\n", chunk: int = CHUNK,
):
    """:func:`format_lines` over slices of at most *chunk* rows (a generator of bytes)."""
    n = int(columns[0].size) if columns else 0
    for s in range(0, n, chunk):
        yield format_lines([c[s : s + chunk] for c in columns], dens, sep=sep, end=end)


def parse_numbers(text: str, source: str, first_line: int, per_row: int) -> np.ndarray:
    """Whitespace-separated numbers of a data block as a float64 ``(rows, per_row)`` array.

    Args:
        text: the data lines (no comments).
        source: file name for messages.
        first_line: 1-based line number of *text*'s first line in the file.
        per_row: numbers expected on every line.

    Raises:
        FormatError: a token that is not a number, or a line with the wrong count.
    """
    if not text.strip():  # a model with no terms (e.g. presolved to nothing)
        return np.zeros((0, per_row))
    try:
        flat = np.fromstring(text, dtype=np.float64, sep=" ")
    except ValueError:
        flat = None
    lines = None
    if flat is None or flat.size % per_row:
        lines = text.split("\n")
    elif flat.size // per_row != text.count("\n") + (0 if text.endswith("\n") else 1) - _blank(text):
        lines = text.split("\n")
    if lines is not None:
        for k, line in enumerate(lines):
            parts = line.split()
            if not parts:
                continue
            if len(parts) != per_row:
                raise FormatError(located(source, first_line + k, f"expected {per_row} numbers, found {len(parts)}: {line.strip()[:60]!r}"))
            for p in parts:
                try:
                    float(p)
                except ValueError:
                    raise FormatError(located(source, first_line + k, f"{p!r} is not a number")) from None
        raise FormatError(located(source, None, "malformed data lines"))  # pragma: no cover
    if flat is None:  # pragma: no cover - the loop above raises first
        raise FormatError(located(source, None, "malformed data lines"))
    return flat.reshape(-1, per_row)


def _blank(text: str) -> int:
    """Number of blank lines in *text* (so the row count check ignores them)."""
    if "\n\n" not in text and not text.startswith("\n") and text.strip(" \t\r") == text:
        return 0
    return sum(1 for line in text.split("\n") if not line.strip()) - (1 if text.endswith("\n") else 0)


def as_int(values: np.ndarray, source: str, what: str) -> np.ndarray:
    """Exact int64 of float *values*, or a FormatError naming the first non-integer (or NaN, inf, huge)."""
    finite(values, source, what)
    out = np.round(values)
    bad = np.flatnonzero(out != values)
    if bad.size:
        raise FormatError(located(source, None, f"{what} {float(values[bad[0]])!r} is not an integer"))
    return out.astype(INT)


# -- writing chunks -----------------------------------------------------------------------
def emit(fp: Any, chunks: Iterable[tuple[bytes | str, int]], *, total: int, desc: str, progress: bool = False) -> None:
    """Write ``(text, rows)`` chunks to *fp* (text or binary mode), ticking a progress bar."""
    from ..progress import bar

    binary = _is_binary(fp)
    with bar(total, desc, enabled=progress) as tick:
        for data, rows in chunks:
            if binary:
                fp.write(data.encode() if isinstance(data, str) else data)
            else:
                fp.write(data.decode("ascii") if isinstance(data, bytes) else data)
            if rows:
                tick(rows)


def join(chunks: Iterable[tuple[bytes | str, int]]) -> str:
    """All chunks as one string (for ``dumps``)."""
    return "".join(d.decode("ascii") if isinstance(d, bytes) else d for d, _ in chunks)


def _is_binary(fp: Any) -> bool:
    if isinstance(fp, (io.RawIOBase, io.BufferedIOBase)):
        return True
    if isinstance(fp, io.TextIOBase):
        return False
    return "b" in getattr(fp, "mode", "")


def data_chunks(columns: Sequence[np.ndarray], dens: Sequence[int] | None = None, *, sep: str = " ",
                end: str = "\n") -> Iterator[tuple[bytes, int]]:
    """:func:`chunked_lines` with each chunk's row count, for :func:`emit`."""
    n = int(columns[0].size) if len(columns) else 0
    for s in range(0, n, CHUNK):
        part = [c[s : s + CHUNK] for c in columns]
        yield format_lines(part, dens, sep=sep, end=end), int(part[0].size)


def upper_terms(linear: np.ndarray, row: np.ndarray, col: np.ndarray, quad: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Linear and quadratic terms merged in row-major order ``(i, j, value)``, ``i <= j``.

    Each nonzero linear bias becomes the diagonal term ``(i, i)``, placed before
    row ``i``'s pairs (``row``/``col`` must be sorted by ``(row, col)``).

    Examples:
        >>> i, j, v = upper_terms(np.array([1, 0, 3]), np.array([0, 1]), np.array([2, 2]), np.array([5, 6]))
        >>> i.tolist(), j.tolist(), v.tolist()
        ([0, 0, 1, 2], [0, 2, 2, 2], [1, 5, 6, 3])
    """
    d = np.flatnonzero(linear)
    pos = np.searchsorted(row, d, side="left")
    return np.insert(row, pos, d), np.insert(col, pos, d), np.insert(quad, pos, linear[d])


def head_text(head: bytes) -> str:
    """The start of a file as text, for detect()."""
    return head.decode("utf-8", "replace")


def split_comments(text: str, marker: str) -> tuple[list[str], int, str]:
    """Leading comment and blank lines of *text*, and the rest.

    Returns:
        ``(comment lines, 1-based line number where the rest starts, rest)``.
    """
    comments: list[str] = []
    pos = 0
    line_no = 1
    while pos < len(text):
        stop = text.find("\n", pos)
        stop = len(text) if stop < 0 else stop
        line = text[pos:stop]
        stripped = line.strip()
        if stripped and not stripped.startswith(marker):
            break
        if stripped:
            comments.append(stripped)
        pos = stop + 1
        line_no += 1
    return comments, line_no, text[pos:]


def next_line(text: str, pos: int) -> tuple[str, int]:
    """The line starting at *pos* (without its newline) and the position after it."""
    stop = text.find("\n", pos)
    if stop < 0:
        return text[pos:], len(text)
    return text[pos:stop], stop + 1
