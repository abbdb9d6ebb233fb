"""dimod's binary BQM file (``BinaryQuadraticModel.to_file`` / ``from_file``, DIMODBQM version 2.0).

Layout (dimod 0.12 ``BinaryQuadraticModel.to_file`` docstring and
``dimod/serialization/fileview.py``), all little-endian::

    b"DIMODBQM" 0x02 0x00             magic, major and minor version
    <u4 HEADER_LEN>                    length of what follows, up to the body
    JSON header + b"\\n" + spaces       json.dumps(data, sort_keys=True), padded so the
                                       magic-to-body length is a multiple of 64
    <f8 offset>
    n x (<i4 nidx, <f8 bias>)          per variable: start of its neighbourhood, linear bias
    2m x (<i4 outvar, <f8 bias>)       every variable's neighbours in increasing order:
                                       each pair twice, from both ends
    b"VARS" <u4 LEN> json labels       only for labelled models; padded to 64 bytes

with ``data = {"dtype": "float64", "itype": "int32", "ntype": "int32",
"shape": [n, m], "type": "BinaryQuadraticModel", "vartype": ..., "variables":
true}``.  ``from_file`` reads the header by key and never checks for extras,
and the BQM object has no free-form field (no ``info`` since dimod 0.10), so
nonoqubo's self-describing metadata (clues, fixed variables, counts, offset)
travels in the header under the key ``"nonoqubo"``; every Ocean tool reads
the file as it is, with the QUBO++ labels.

nonoqubo writes this layout itself from the model's arrays, byte for byte what
``to_file`` gives for the same BQM (the tests compare): the neighbourhoods are
the upper-triangle pairs (already sorted by ``(row, col)``) and, before them,
the same pairs seen from their column, ordered by one stable radix sort; they
are written in blocks of about a million entries, with no BQM object built.

Examples:
    >>> from nonoqubo.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b"], [-1, 1], [(0, 1, 2)], offset=4)
    >>> data = dumps(q)
    >>> data[:8]
    b'DIMODBQM'
    >>> loads(data) == q
    True
"""

from __future__ import annotations

import io
import json
import struct
from collections.abc import Iterator
from typing import IO, Any

import numpy as np

from ..errors import FormatError, MissingDependency, NonoquboError, located
from ..qubo import Qubo
from . import _header, _text

NAME = "bqm"
TITLE = "dimod binary BQM file (BQM.to_file / BQM.from_file), labels kept, metadata in its JSON header"
EXTENSIONS = ("bqm",)
BINARY = True
ISING = True
KIND = "qubo"
ORDER = 20

#: the key of nonoqubo's metadata in the DIMODBQM header
META_KEY = "nonoqubo"
_MAGIC = b"DIMODBQM"
#: neighbourhood entries per written block (12 bytes each)
BLOCK = 1 << 20
_LINEAR = np.dtype([("nidx", "<i4"), ("bias", "<f8")], align=False)
_QUADRATIC = np.dtype([("outvar", "<i4"), ("bias", "<f8")], align=False)


def _dimod():
    try:
        import dimod
    except ImportError:  # pragma: no cover - dimod is a runtime dependency
        raise MissingDependency("dimod", "dimod", "the bqm format") from None
    return dimod


def make_header(data: dict[str, Any], version: tuple[int, int] = (2, 0)) -> bytes:
    """dimod's ``make_header``: magic, version, length, sorted ASCII JSON, padded to 64 bytes."""
    text = json.dumps(data, sort_keys=True).encode("ascii") + b"\n"
    head = len(_MAGIC) + 2 + 4
    text += b" " * (-(head + len(text)) % 64)
    return _MAGIC + bytes(version) + struct.pack("<I", len(text)) + text


def _vars_section(labels: list[str]) -> bytes:
    """dimod's ``VariablesSection``: ``VARS``, a 4-byte length, the labels as JSON, padded to 64."""
    data = json.dumps(labels).encode("ascii")
    data += b" " * (-(8 + len(data)) % 64)
    return b"VARS" + struct.pack("<I", len(data)) + data


def _stable_order(keys: np.ndarray, bound: int) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for keys in ``0 .. bound-1``, as 16-bit radix passes."""
    if bound <= 1 << 16:
        return np.argsort(keys.astype(np.uint16), kind="stable")
    order = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    shift = 16
    while bound > 1 << shift:
        more = np.argsort(((keys[order] >> shift) & 0xFFFF).astype(np.uint16), kind="stable")
        order = order[more]
        shift += 16
    return order


def _chunks(qubo: Qubo, ising: bool) -> Iterator[tuple[Any, int]]:
    """The file as ``(bytes-like, terms)`` pieces: header, offset, linear records, then
    the neighbourhoods of consecutive variable ranges, about :data:`BLOCK` entries each."""
    linear, row, col, quad, offset, vartype = _header.model_arrays(qubo, ising)
    n, m = int(linear.size), int(quad.size)
    if 2 * m >= 2**31:
        raise NonoquboError(f"the bqm format holds at most {2**30 - 1} interactions (int32 indices); "
                            f"this model has {m}")
    terms = int(np.count_nonzero(linear)) + m
    meta = _header.describe(qubo, NAME, vartype=vartype, offset=offset, labels_listed=True, terms=terms)
    labelled = n > 0  # nonoqubo's labels are strings, never dimod's range(n)
    data = {"dtype": "float64", "itype": "int32", "ntype": "int32", "shape": [n, m],
            "type": "BinaryQuadraticModel", "vartype": vartype, "variables": labelled, META_KEY: meta}
    yield make_header(data) + np.float64(offset).tobytes(), 0
    below = np.bincount(col, minlength=n)  # neighbours u < v of each v, from pairs (u, v)
    above = np.bincount(row, minlength=n)  # neighbours w > v, from pairs (v, w)
    degree = below + above
    start = np.cumsum(degree) - degree  # first entry of each neighbourhood
    records = np.empty(n, _LINEAR)
    records["nidx"] = start
    records["bias"] = linear
    yield records, 0
    row_start = np.cumsum(above) - above  # first pair of each row (pairs are sorted by row)
    col_start = np.cumsum(below) - below  # first pair of each column in the column order
    by_col = _stable_order(col, n)  # the pairs ordered by (col, row)
    # entry of pair k in its row's neighbourhood: k + up_shift[row[k]] (after the lower
    # neighbours); of the t-th pair of the column order in its column's: t + down_shift[col]
    up_shift = start + below - row_start
    down_shift = start - col_start
    cuts = np.searchsorted(start, np.arange(0, 2 * m, BLOCK), side="right") - 1
    bounds = np.unique(np.concatenate((np.maximum(cuts, 0), [n]))).tolist()
    for v0, v1 in zip(bounds[:-1], bounds[1:]):
        base = int(start[v0])
        size = int(start[v1 - 1] + degree[v1 - 1]) - base
        outvar = np.empty(size, np.int32)
        bias = np.empty(size, np.float64)
        k0, k1 = int(row_start[v0]), int(row_start[v1 - 1] + above[v1 - 1])  # pairs (v, w)
        at = np.arange(k0 - base, k1 - base) + up_shift[row[k0:k1]]
        outvar[at] = col[k0:k1]
        bias[at] = quad[k0:k1]
        t0, t1 = int(col_start[v0]), int(col_start[v1 - 1] + below[v1 - 1])  # pairs (u, v)
        pick = by_col[t0:t1]
        at = np.arange(t0 - base, t1 - base) + np.repeat(down_shift[v0:v1], below[v0:v1])
        outvar[at] = row[pick]
        bias[at] = quad[pick]
        block = np.empty(size, _QUADRATIC)
        block["outvar"] = outvar
        block["bias"] = bias
        yield block, k1 - k0
    if labelled:
        yield _vars_section([str(x) for x in qubo.labels]), 0


def dumps(qubo: Qubo, *, ising: bool = False) -> bytes:
    """The DIMODBQM bytes of *qubo* (its Ising form with ``ising=True``)."""
    return b"".join(bytes(memoryview(piece).cast("B")) for piece, _ in _chunks(qubo, ising))


def dump(qubo: Qubo, fp: IO[bytes], *, ising: bool = False, progress: bool = False) -> None:
    """Write the DIMODBQM file of *qubo* to *fp* (a binary file)."""
    _text.emit(fp, ((memoryview(p).cast("B"), t) for p, t in _chunks(qubo, ising)),
               total=qubo.num_quadratic, desc=f"writing {NAME}", progress=progress)


def loads(data: bytes, *, source: str = "<bqm>") -> Qubo:
    """The :class:`Qubo` of a DIMODBQM file written by nonoqubo.

    Raises:
        FormatError: not a DIMODBQM file, or no nonoqubo metadata variable.
    """
    dimod = _dimod()
    if not data.startswith(b"DIMODBQM"):
        raise FormatError(located(source, None, "not a dimod BQM file (no DIMODBQM magic)"))
    try:
        bqm = dimod.BinaryQuadraticModel.from_file(io.BytesIO(data))
    except Exception as exc:  # dimod raises plain ValueError/struct errors
        raise FormatError(located(source, None, f"dimod cannot read this BQM file: {exc}")) from None
    from dimod.serialization.fileview import read_header

    meta = read_header(io.BytesIO(data), _MAGIC).data.get(META_KEY)
    if not isinstance(meta, dict):
        raise FormatError(located(source, None, f"no nonoqubo metadata ('{META_KEY}') in the BQM file's header; "
                                  "was it written by nonoqubo?"))
    meta["vartype"] = bqm.vartype.name
    labels = list(bqm.variables)
    linear, (row, col, quad), offset = bqm.to_numpy_vectors(variable_order=labels)
    return _header.to_qubo(meta, linear, row, col, quad, offset, source, [str(x) for x in labels])


def load(fp: IO[bytes]) -> Qubo:
    """Read a DIMODBQM file written by nonoqubo from an open binary file."""
    return loads(fp.read(), source=getattr(fp, "name", "<bqm>"))


def detect(head: bytes) -> bool:
    """The DIMODBQM magic."""
    return head.startswith(b"DIMODBQM")
