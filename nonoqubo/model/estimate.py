"""How big a puzzle's model will be, from its clues alone, before anything is built.

A 3000 x 3000 puzzle reads in seconds but builds for minutes and may need more memory than
the machine has.  :func:`estimate` answers from the clues, in time and memory proportional to
the variables (far below the build's cost, which grows with the terms):

* **variables** exactly: a line with ``m`` blocks and margin ``d`` has ``m * d``;
* every encoding's figures come from its own counters (the
  :class:`~nonoqubo.model.encodings.Encoding`'s ``counter`` and ``random_counter``, beside its
  builder); this module adds the bytes and the refusals.  For the domain wall
  (:func:`~nonoqubo.model.build_domainwall.count_terms`):
* **terms** as an upper bound: ``Σ linear + wall shape + block order`` is at most ``3`` per
  variable, and the cell penalty ``(R - C)²`` of a cell touched by ``a_r`` row and ``a_c``
  column variables adds at most ``a_r(a_r - 1)/2 + a_c(a_c - 1)/2 + a_r a_c`` pairs.  A
  variable ``w[k][p]`` touches the two cells ``e_k + p`` and ``e_k + r_k + p`` of its line, so
  the touch counts are the multiplicities of 2 x variables cell numbers (one sort), and only
  touched cells are ever counted.  On the puzzles of ``tests/data`` the bound is 1.05-2 times
  the real count (merged and cancelled terms make the difference).  Past
  :data:`EXACT_VARIABLES` (in :mod:`nonoqubo.model._families`) a per-line bound is used, so that the estimate of an absurd puzzle
  (10^6 rows and columns of ``[1]`` is a 4 MB file and 2 x 10^12 variables) costs no more than
  reading its clues.
* the **one-hot** model (``encoding="one-hot"``, :mod:`nonoqubo.model.onehot`) has ``m (d + 1)``
  variables a line and O(d^2) order terms per pair of blocks: its variables and terms are counted
  **exactly** (:func:`~nonoqubo.model.build_onehot.count_terms`: the builder's segments
  and cell entries, counted without being filled, in time proportional to the variables times
  the blocks they meet); past :data:`EXACT_VARIABLES`, a per-line bound.
* **bytes**: :data:`BYTES_PER_TERM` per term, the measured peak of a build followed by a write
  (the model itself is 9 bytes a term: int32 row and column, int8 bias; writers widen a slice
  at a time), or more for the formats that declare a larger ``WRITE_BYTES_PER_TERM`` (their
  writers hold the whole file or a second model in memory); the caller, which knows the format
  modules, passes the largest of them (this layer imports no format).

:func:`check_fits` turns the estimate into a refusal (:class:`~nonoqubo.errors.ModelTooLarge`,
defined in :mod:`nonoqubo.errors` and importable from here), naming the figures and ``--force``,
when it exceeds the memory this machine has available.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> e = estimate(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> e.variables, e.terms >= 4
    (4, True)
"""

from __future__ import annotations

import os
import zipfile
from typing import NamedTuple

from ._families import EXACT_VARIABLES
from .encoding import Layout
from .encodings import DEFAULT, EncodingLike, encoding_named
from ..errors import ModelTooLarge  # defined in errors.py; importable from here as before
from .puzzle import Puzzle
from .weights import Weights

__all__ = ["BYTES_PER_TERM", "EXACT_VARIABLES", "READ_BYTES_PER_FILE_BYTE", "SAMPLE_BYTES_PER_ROW",
           "SAMPLE_BYTES_PER_VARIABLE", "Estimate", "ModelTooLarge", "available_memory", "check_file_fits", "check_fits",
           "check_random_fits", "estimate", "estimate_random", "estimate_samples", "size_text"]

#: peak bytes per term of a build and a write (peak RSS of ``nonoqubo build -o`` on the 512x512
#: cauldron, 48 M terms, 2026-11-30: `info` 1.00 GB, .coo 0.73, .csv 1.06, .qubo.json 1.11, .bqm 1.36,
#: .qplib 1.41, .npz 1.78 GB, the largest of the QUBO formats but OMMX: 37 bytes a term)
BYTES_PER_TERM = 40
#: the formats that need more declare it as their ``WRITE_BYTES_PER_TERM`` (bytes per QUBO term, measured
#: the same way: .lp .mps .ommx on the cauldron, .cqm and the constrained .ommx on the random 100x100)
#: peak bytes of memory per byte of a model file while it is read (``info`` on the qubo-json of a
#: random 100x100, 55 MB, 2026-12-01: 0.45 GB peak RSS, 8 bytes a byte; more for files that pack
#: their numbers tighter, so with room); a compressed file counts its uncompressed size
READ_BYTES_PER_FILE_BYTE = 10
#: bytes a sample holds per variable while a run's samples are in memory: dimod's int8 record and its
#: copy, nonoqubo's int8 bits and the decoded block shifts (int32) of the best samples, with room
SAMPLE_BYTES_PER_VARIABLE = 8
#: bytes a sample holds besides its values: its energy, its count, its index (float64, int64, int64)
SAMPLE_BYTES_PER_ROW = 32
#: terms past which the estimate is worth printing before the build
LONG_WORK_TERMS = 5_000_000


class Estimate(NamedTuple):
    """The predicted size of a puzzle's QUBO."""

    variables: int
    terms: int  # an upper bound
    bytes: int

    def __str__(self) -> str:
        return (f"{self.variables:,} variables, up to {self.terms:,} terms, "
                f"about {_size(self.bytes)} of memory to build")


def estimate(puzzle: Puzzle, layout: Layout | None = None, encoding: EncodingLike = DEFAULT,
             weights: Weights | None = None) -> Estimate:
    """The model's size from *puzzle*'s clues (see the module docstring), in *encoding*.

    Examples:
        >>> from nonoqubo.model.build import build
        >>> p = Puzzle.from_picture(["#.#", ".##", "#.."])
        >>> estimate(p, encoding="one-hot").terms == build(p, encoding="one-hot").num_terms
        True
    """
    variables, terms = encoding_named(encoding).counter(puzzle, layout or Layout.of(puzzle), Weights.of(weights))
    return Estimate(variables, terms, terms * BYTES_PER_TERM)


def available_memory() -> int | None:
    """Bytes of memory available now (``MemAvailable``), or None where that cannot be told."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # pragma: no cover - not POSIX
        return None


def check_fits(puzzle: Puzzle, source: str, *, force: bool = False, memory: int | None = None,
               write_bytes_per_term: int = 0, encoding: EncodingLike = DEFAULT) -> Estimate:
    """The estimate of *puzzle*'s model; refused when it would not fit in *memory*.

    Args:
        puzzle: the clues.
        source: the file they came from, for the message.
        force: build anyway (the estimate is still returned).
        memory: bytes available (default: :func:`available_memory`).
        write_bytes_per_term: the largest ``WRITE_BYTES_PER_TERM`` of the formats it will be
            written in (0: none needs more than the build).
        encoding: the model's encoding (an :class:`~nonoqubo.model.encodings.Encoding` or its name).

    Raises:
        ModelTooLarge: the estimated build memory exceeds *memory* and not *force*.
    """
    est = _per_term(estimate(puzzle, encoding=encoding), write_bytes_per_term)
    _refuse(est.bytes, memory, force,
            f"{source}: the {puzzle.width}x{puzzle.height} puzzle's model would have {est}", "build it")
    return est


def estimate_random(width: int, height: int, density: float, encoding: EncodingLike = DEFAULT) -> Estimate:
    """The expected model size of a random *width* x *height* picture (cells black with *density*).

    From the sizes alone, before any picture is drawn (the encoding's ``random_counter``: for
    the domain wall, :func:`~nonoqubo.model.build_domainwall.count_random`). The bytes add the
    picture itself (a byte a cell).

    Examples:
        >>> e = estimate_random(100, 100, 0.5)  # the real 100x100 at 0.5 (seed 1): 127,877 and 3,701,722
        >>> 120_000 < e.variables < 140_000 and 3_000_000 < e.terms < 4_500_000
        True
    """
    variables, terms = encoding_named(encoding).random_counter(width, height, density)
    cells = float(width) * float(height)
    return Estimate(int(variables), int(terms), int(terms * BYTES_PER_TERM + cells))


def check_random_fits(width: int, height: int, density: float, source: str, *, force: bool = False,
                      memory: int | None = None, write_bytes_per_term: int = 0,
                      encoding: EncodingLike = DEFAULT) -> Estimate:
    """:func:`estimate_random`, refused as :func:`check_fits` refuses (before any picture is drawn).

    Raises:
        ModelTooLarge: the expected build memory exceeds *memory* and not *force*.
    """
    est = _per_term(estimate_random(width, height, density, encoding), write_bytes_per_term)
    est = est._replace(bytes=max(est.bytes, int(float(width) * float(height))))
    _refuse(est.bytes, memory, force,
            f"{source}: a random {width}x{height} puzzle's model would have about {est}", "build it")
    return est


def check_file_fits(path: str, *, force: bool = False, memory: int | None = None) -> int:
    """The bytes reading the model file *path* takes (:data:`READ_BYTES_PER_FILE_BYTE` a byte); refused
    when more than *memory*, from the file's size alone, before it is read.

    A zip archive (``.npz``) counts the uncompressed size of its members.

    Raises:
        ModelTooLarge: the estimate exceeds *memory* and not *force*.
        OSError: the file cannot be read.
    """
    size = os.path.getsize(path)
    if size > 4 and zipfile.is_zipfile(path):
        try:
            with zipfile.ZipFile(path) as archive:
                size = max(size, sum(info.file_size for info in archive.infolist()))
        except (zipfile.BadZipFile, OSError, ValueError, EOFError, NotImplementedError, RuntimeError):
            pass  # a damaged archive: its reader names what is wrong; the estimate keeps the file's size
    need = size * READ_BYTES_PER_FILE_BYTE
    _refuse(need, memory, force,
            f"{path}: reading the {_size(size)} model file would take about {_size(need)} of memory", "read it")
    return need


def estimate_samples(rows: int, variables: int, schedule: int = 0) -> int:
    """Bytes a sampler's run takes beside the model: *rows* samples of *variables* values each
    (:data:`SAMPLE_BYTES_PER_VARIABLE` a value, :data:`SAMPLE_BYTES_PER_ROW` a row) and a beta
    schedule of *schedule* float64 values, reckoned before anything is allocated (``solve``
    refuses a run that would not fit, rather than die in NumPy's ``_ArrayMemoryError``).

    Examples:
        >>> estimate_samples(1_000_000, 1_900)  # a million reads of a 25x25 puzzle's model: about 15 GB
        15232000000
    """
    return int(rows) * (int(variables) * SAMPLE_BYTES_PER_VARIABLE + SAMPLE_BYTES_PER_ROW) + 8 * int(schedule)


def _per_term(est: Estimate, write_bytes_per_term: int) -> Estimate:
    per_term = max(BYTES_PER_TERM, write_bytes_per_term)
    return est if per_term == BYTES_PER_TERM else est._replace(bytes=int(est.terms * per_term))


def _refuse(need: int, memory: int | None, force: bool, what: str, verb: str) -> None:
    limit = available_memory() if memory is None else memory
    if not force and limit is not None and need > limit:
        raise ModelTooLarge(f"{what}, more than the {_size(limit)} of memory available; add --force to {verb} anyway")


def size_text(n: int) -> str:
    """*n* bytes as a message says them (``1.4 GB``)."""
    return _size(n)


def _size(n: int) -> str:
    value = float(n)
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if value < 1024 or unit == "TB":
            return f"{value:,.0f} {unit}" if unit == "bytes" else f"{value:,.1f} {unit}"
        value /= 1024
    return f"{value:.1f} TB"  # pragma: no cover
