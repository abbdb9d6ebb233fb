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
the same pairs seen from their column, ordered by one sort of 64-bit keys
``column << b | pair``; they are written in blocks of about a million
entries, filled on worker threads, with no BQM object built.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
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
from concurrent.futures import Future, ThreadPoolExecutor
from typing import IO, Any

import numpy as np

from .._util.guard import json_loads
from ..errors import FormatError, MissingDependency, NonoquboError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, HEURISTIC, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _header, _text
from ._parallel import ordered_map

NAME = "bqm"
TITLE = "dimod binary BQM file (BQM.to_file / BQM.from_file), labels kept, metadata in its JSON header"
EXTENSIONS = ("bqm",)
BINARY = True
ISING = True
ORDER = 20

#: the key of nonoqubo's metadata in the DIMODBQM header
META_KEY = "nonoqubo"
_MAGIC = b"DIMODBQM"
#: neighbourhood entries per written block (12 bytes each)
BLOCK = 1 << 19
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
    """dimod's ``VariablesSection``: ``VARS``, a 4-byte length, the labels as JSON, padded to 64.

    Labels of printable ASCII without quotes or backslashes (the layout's always) are
    joined as they are, which is what ``json.dumps`` gives for them, in a third of its time.
    """
    joined = "".join(labels)
    if labels and joined.isascii() and joined.isprintable() and '"' not in joined and "\\" not in joined:
        data = ('["' + '", "'.join(labels) + '"]').encode("ascii")
    else:
        data = json.dumps(labels).encode("ascii")
    data += b" " * (-(8 + len(data)) % 64)
    return b"VARS" + struct.pack("<I", len(data)) + data


def _by_column(col: np.ndarray) -> np.ndarray:
    """The pairs' indices ordered by column, stably (so by ``(col, row)``), as ``np.argsort(col,
    kind="stable")`` would give them.

    One sort of 64-bit keys ``col << b | index``: the keys are distinct, so any
    sort gives the stable order, and NumPy sorts 64-bit integers with SIMD
    (about 25 ms for 3.6 M pairs, against 300 ms for ``argsort(kind="stable")``
    of int32, a merge sort, and 42 ms for 16-bit radix passes).
    """
    m = int(col.size)
    bits = np.uint64(max(m.bit_length(), 1))  # an index fits in *bits*; a column (< 2^31) in the rest
    keys = col.astype(np.uint64)
    keys <<= bits
    keys |= np.arange(m, dtype=np.uint64)
    keys.sort()
    keys &= np.uint64((1 << int(bits)) - 1)
    return keys.view(np.int64)


def _counts(values: np.ndarray, n: int, piece: int = 1 << 22) -> np.ndarray:
    """``np.bincount(values, minlength=n)`` a piece at a time (bincount widens its input to
    int64: 8 bytes a pair at once for a whole column of 10^8 pairs)."""
    out = np.zeros(n, np.int64)
    for s in range(0, values.size, piece):
        out += np.bincount(values[s:s + piece], minlength=n)
    return out


def _chunks(qubo: Qubo, ising: bool) -> Iterator[tuple[Any, int]]:
    """The file as ``(bytes-like, terms)`` pieces: header, offset, linear records, then
    the neighbourhoods of consecutive variable ranges, about :data:`BLOCK` entries each
    (filled on worker threads)."""
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
    with ThreadPoolExecutor(1, thread_name_prefix="nonoqubo-sort") as side:  # these run meanwhile
        sorting = side.submit(_by_column, col)
        labels = side.submit(lambda: _vars_section(list(map(str, qubo.labels))) if labelled else b"")
        yield from _body(n, m, linear, row, col, quad, sorting)
        yield labels.result(), 0


def _body(n: int, m: int, linear: np.ndarray, row: np.ndarray, col: np.ndarray, quad: np.ndarray,
          sorting: Future[np.ndarray]) -> Iterator[tuple[Any, int]]:
    """The linear records and the neighbourhoods; *sorting* gives :func:`_by_column` of *col*.

    Everything but the lower neighbours is made while the sort runs: the counts, the
    linear records, and in each block the upper neighbours, before it waits for the order.
    """
    below = _counts(col, n)  # neighbours u < v of each v, from the pairs (u, v)
    # neighbours w > v of each v, from the pairs (v, w), sorted by row (searched in row's type: no copy)
    above = np.diff(np.searchsorted(row, np.arange(n + 1, dtype=row.dtype if n < 2**31 - 1 else np.int64)))
    degree = below + above
    start = np.cumsum(degree) - degree  # first entry of each neighbourhood
    records = np.empty(n, _LINEAR)
    records["nidx"] = start
    records["bias"] = linear
    yield records, 0
    row_start = np.cumsum(above) - above  # first pair of each row (pairs are sorted by row)
    col_start = np.cumsum(below) - below  # first pair of each column in the column order
    # entry of pair k in its row's neighbourhood: k + up_shift[row[k]] (after the lower
    # neighbours); of the t-th pair of the column order in its column's: t + down_shift[col]
    up_shift = start + below - row_start
    down_shift = start - col_start
    cuts = np.searchsorted(start, np.arange(0, 2 * m, BLOCK), side="right") - 1
    bounds = np.unique(np.concatenate((np.maximum(cuts, 0), [n]))).tolist()

    def block(v0: int, v1: int) -> tuple[np.ndarray, int]:
        """The neighbourhoods of variables ``v0 .. v1-1``, and the pairs (v, w) among them."""
        base = int(start[v0])
        size = int(start[v1 - 1] + degree[v1 - 1]) - base
        outvar = np.empty(size, np.int32)
        bias = np.empty(size, np.float64)
        k0, k1 = int(row_start[v0]), int(row_start[v1 - 1] + above[v1 - 1])  # pairs (v, w)
        # (casting the narrow biases before a scatter, not in it, is 3 times faster)
        at = np.repeat(up_shift[v0:v1], above[v0:v1])
        at += np.arange(k0 - base, k1 - base)
        outvar[at] = col[k0:k1]
        bias[at] = quad[k0:k1].astype(np.float64)
        t0, t1 = int(col_start[v0]), int(col_start[v1 - 1] + below[v1 - 1])  # pairs (u, v)
        pick = sorting.result()[t0:t1]  # (the column order: waits for the sort)
        at = np.repeat(down_shift[v0:v1], below[v0:v1])
        at += np.arange(t0 - base, t1 - base)
        outvar[at] = np.take(row, pick)
        bias[at] = np.take(quad, pick).astype(np.float64)
        out = np.empty(size, _QUADRATIC)
        out["outvar"] = outvar
        out["bias"] = bias
        return out, k1 - k0

    yield from ordered_map(lambda span: block(*span), zip(bounds[:-1], bounds[1:]))


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
    validate(data, source)  # dimod's native loader trusts the file: a bad size or index crashes the process
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


_FLOATS = {"float32", "float64"}
_INTS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}


def validate(data: bytes, source: str) -> dict[str, Any]:
    """Check a DIMODBQM version 2 file completely before dimod's native loader sees it.

    The loader (``BinaryQuadraticModel.from_file``) reads the sizes from the header and the
    neighbour indices from the body and hands them to C++ unchecked: a wrong size asks for
    terabytes (``std::bad_alloc``), a wrong index writes out of bounds (a segmentation fault).
    Here every size is checked against the file's length and every index against the
    variables, with NumPy over the whole body.

    Returns:
        The JSON header.

    Raises:
        FormatError: the first thing that is wrong, named.
    """
    def fail(message: str) -> FormatError:
        return FormatError(located(source, None, f"damaged BQM file: {message}"))

    if len(data) < 14:
        raise fail("shorter than its fixed header")
    major, minor = data[8], data[9]
    if major != 2:
        raise fail(f"DIMODBQM version {major}.{minor}; nonoqubo reads version 2 (dimod 0.10 and later)")
    hlen = int(np.frombuffer(data, "<u4", 1, 10)[0])
    if 14 + hlen > len(data):
        raise fail(f"the header length {hlen} runs past the end of the file ({len(data)} bytes)")
    try:
        header = json_loads(data[14:14 + hlen].decode("ascii"), source)
    except UnicodeDecodeError:
        raise fail("the header is not ASCII JSON") from None
    if not isinstance(header, dict):
        raise fail("the header is not a JSON object")
    shape = header.get("shape")
    if (not isinstance(shape, list) or len(shape) != 2
            or any(isinstance(s, bool) or not isinstance(s, int) or s < 0 for s in shape)):
        raise fail(f"the header's shape {str(shape)[:40]} is not two counts")
    nv, ni = shape
    names = {k: header.get(k) for k in ("dtype", "itype", "ntype")}
    if names["dtype"] not in _FLOATS or names["itype"] not in _INTS or names["ntype"] not in _INTS:
        raise fail(f"unsupported types {names}")
    if header.get("vartype") not in ("BINARY", "SPIN") or not isinstance(header.get("variables"), bool):
        raise fail("the header's vartype or variables flag is missing")
    dtype, itype, ntype = (np.dtype(names[k]).newbyteorder("<") for k in ("dtype", "itype", "ntype"))
    body = 14 + hlen
    lin = np.dtype([("nidx", ntype), ("bias", dtype)])
    quad = np.dtype([("outvar", itype), ("bias", dtype)])
    end = body + dtype.itemsize + nv * lin.itemsize + 2 * ni * quad.itemsize
    if end > len(data):
        raise fail(f"the header announces {nv} variables and {ni} interactions, {end} bytes, "
                   f"but the file has {len(data)}")
    offset = np.frombuffer(data, dtype, 1, body)
    ldata = np.frombuffer(data, lin, nv, body + dtype.itemsize)
    qdata = np.frombuffer(data, quad, 2 * ni, body + dtype.itemsize + nv * lin.itemsize)
    for what, values in (("offset", offset), ("linear bias", ldata["bias"]), ("quadratic bias", qdata["bias"])):
        if not np.isfinite(values).all():
            raise fail(f"a {what} is not finite")
    starts = ldata["nidx"].astype(np.int64)
    if nv and (starts[0] != 0 or (np.diff(starts) < 0).any() or starts[-1] > 2 * ni):
        raise fail("the neighbourhood starts are not increasing within the interactions")
    if ni and not nv:
        raise fail("interactions without variables")
    owner = np.repeat(np.arange(nv), np.diff(np.append(starts, 2 * ni))) if nv else np.zeros(0, np.int64)
    out = qdata["outvar"].astype(np.int64)
    if ((out < 0) | (out >= nv) | (out == owner)).any():
        raise fail("a neighbour index is outside the variables (or a variable is its own neighbour)")
    if ((np.diff(out) <= 0) & (np.diff(owner) == 0)).any():
        raise fail("a neighbourhood is not sorted")
    if header["variables"]:
        if end + 8 > len(data) or data[end:end + 4] != b"VARS":
            raise fail("the VARS section is missing")
        vlen = int(np.frombuffer(data, "<u4", 1, end + 4)[0])
        if end + 8 + vlen > len(data):
            raise fail(f"the VARS section's length {vlen} runs past the end of the file")
        try:
            labels = json_loads(data[end + 8:end + 8 + vlen].decode("ascii"), source)
        except UnicodeDecodeError:
            raise fail("the VARS section is not ASCII JSON") from None
        if (not isinstance(labels, list) or len(labels) != nv
                or any(isinstance(x, bool) or not isinstance(x, (str, int)) for x in labels)
                or len(set(labels)) != nv):
            raise fail(f"the VARS section is not a list of {nv} distinct labels")
    return header



def detect(head: bytes) -> bool:
    """The DIMODBQM magic."""
    return head.startswith(b"DIMODBQM")
