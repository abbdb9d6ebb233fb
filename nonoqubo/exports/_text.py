"""Exact number <-> text conversion for the text export formats.

Writing: the lines themselves are laid out by :mod:`._ascii` (tables of
value texts, 8-byte word stores, no per-line Python), re-exported here as
:func:`format_lines`, :class:`Strings` and :func:`data_chunks`; :func:`emit`
hands the byte chunks to the file in large blocks, straight to the binary
buffer under a text-mode file.  Values are exact rationals ``numerator / den``
with ``den`` 1, 2 or 4 (integer QUBO biases, halved off-diagonals, Ising
quarters), so they print as integers or short decimals (``-3``, ``0.5``,
``-1.25``), never in scientific notation.

Reading goes through :func:`numpy.fromstring` in text mode (C speed); a parse
failure is located to its line by a slow second pass, only on that error path.

Examples:
    >>> import numpy as np
    >>> rational(np.array([0.5, -1.25]))
    (array([ 2, -5]), 4)
"""

from __future__ import annotations

import io
import os
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import numpy as np

from .._util.guard import finite
from ..errors import FormatError, located
from ._ascii import CHUNK, Strings, format_lines, line_chunks

__all__ = ["CHUNK", "Strings", "data_chunks", "format_lines", "parse_numbers", "rational"]

INT = np.int64


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
#: a piece of output and the number of terms it holds (for the progress bar)
Chunk = tuple[bytes | memoryview | str | np.ndarray, int]


def emit(fp: Any, chunks: Iterable[Chunk], *, total: int, desc: str, progress: bool = False) -> None:
    """Write ``(text, rows)`` chunks to *fp* (text or binary mode), ticking a progress bar.

    A chunk is a str, bytes (or a memoryview of bytes) or a uint8 array.  Under a text-mode file with a
    binary buffer (and ``\\n`` line ends) the bytes go straight to the buffer
    after a flush, so millions of lines are never decoded and re-encoded.
    """
    from .._util.progress import bar

    encoding = "utf-8"
    if not _is_binary(fp):
        raw = getattr(fp, "buffer", None)
        encoding = getattr(fp, "encoding", None) or "utf-8"
        if raw is not None and os.linesep == "\n" and _ascii_compatible(encoding):
            fp.flush()
            fp = raw
        else:
            fp, encoding = _TextSink(fp), "utf-8"
    with bar(total, desc, enabled=progress) as tick, _Writer(fp) as write:
        for data, rows in chunks:
            write(data.encode(encoding) if isinstance(data, str) else data)
            if rows:
                tick(rows)


class _Writer:
    """Writes on a background thread, so the next chunk is formatted while the kernel copies this one.

    At most :data:`AHEAD` chunks wait.  An error of a write (disk full) is
    raised in the caller at its next write or at the end; an error of the
    formatter stops the writer before it propagates.
    """

    AHEAD = 2

    def __init__(self, fp: Any) -> None:
        self.fp = fp
        self.queue: queue.Queue[Any] = queue.Queue(self.AHEAD)
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name="nonoqubo-writer", daemon=True)

    def _run(self) -> None:
        while True:
            data = self.queue.get()
            if data is None:
                return
            if self.error is None:
                try:
                    self.fp.write(data)
                except BaseException as exc:  # handed to the caller
                    self.error = exc

    def __call__(self, data: Any) -> None:
        if self.error is not None:
            raise self.error
        self.queue.put(data)

    def __enter__(self) -> _Writer:
        self.thread.start()
        return self

    def __exit__(self, kind: Any, exc: Any, tb: Any) -> None:
        self.queue.put(None)
        self.thread.join()
        if kind is None and self.error is not None:
            raise self.error


def _ascii_compatible(encoding: str) -> bool:
    """ASCII bytes are valid text in *encoding* as they are (UTF-8, Latin-1; not UTF-16, no BOM)."""
    try:
        return "ok\n".encode(encoding) == b"ok\n"
    except LookupError:
        return False


class _TextSink:
    """A text file seen as a binary one (every chunk decoded as UTF-8)."""

    def __init__(self, fp: Any) -> None:
        self.fp = fp

    def write(self, data: Any) -> None:
        self.fp.write(bytes(data).decode("utf-8"))


def join(chunks: Iterable[Chunk]) -> str:
    """All chunks as one string (for ``dumps``)."""
    return "".join(d if isinstance(d, str) else bytes(d).decode("utf-8") for d, _ in chunks)


def _is_binary(fp: Any) -> bool:
    if isinstance(fp, (io.RawIOBase, io.BufferedIOBase)):
        return True
    if isinstance(fp, io.TextIOBase):
        return False
    return "b" in getattr(fp, "mode", "")


def data_chunks(columns: Sequence[Any], dens: Sequence[int] | None = None, *, sep: str = " ",
                end: str = "\n") -> Iterator[tuple[np.ndarray, int]]:
    """The lines of *columns* (see :func:`format_lines`) as ``(uint8 text, rows)`` chunks for :func:`emit`."""
    return line_chunks(columns, dens, sep=sep, end=end)


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
