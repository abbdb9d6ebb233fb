"""dimod's binary BQM file (``BinaryQuadraticModel.to_file`` / ``from_file``, DIMODBQM version 2.0).

Layout (dimod 0.12 ``BinaryQuadraticModel.to_file`` docstring): the magic
``DIMODBQM``, a major and a minor version byte, a 4-byte little-endian header
length, a JSON header (shape, dtype, vartype ...) padded to 64 bytes, then the
offset, the linear biases with neighbourhood starts, every interaction twice
(adjacency form), and a ``VARS`` section with the labels as a JSON array.
The file is written by dimod itself, so any Ocean tool reads it with
``dimod.BQM.from_file``; the QUBO++ labels are kept.

The BQM object has no free-form field (no ``info`` since dimod 0.10), but the
file's JSON header is a mapping that ``from_file`` reads by key and never
checks for extras.  nonoqubo's self-describing metadata (clues, fixed
variables, counts, offset) therefore travels in the header under the key
``"nonoqubo"``; the header is rebuilt with dimod's own
``dimod.serialization.fileview.make_header`` (ASCII JSON, padded to 64
bytes), the body is dimod's, byte for byte.  The model has exactly the
puzzle's variables, and every Ocean tool reads the file as it is.

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
import shutil
from typing import IO, Any

import numpy as np

from .._guard import json_loads
from ..errors import FormatError, MissingDependency, located
from ..qubo import Qubo
from . import _header

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


def _dimod():
    try:
        import dimod
    except ImportError:  # pragma: no cover - dimod is a runtime dependency
        raise MissingDependency("dimod", "dimod", "the bqm format") from None
    return dimod


def _to_file(qubo: Qubo, ising: bool) -> Any:
    """dimod's spooled file of the model, its header carrying nonoqubo's metadata."""
    import tempfile

    from dimod.serialization.fileview import make_header, read_header

    linear, row, col, quad, offset, vartype = _header.model_arrays(qubo, ising)
    bqm = _dimod().BinaryQuadraticModel.from_numpy_vectors(
        linear, (row, col, quad), offset, vartype, variable_order=list(qubo.labels))
    terms = int(np.count_nonzero(linear)) + int(quad.size)
    meta = _header.describe(qubo, NAME, vartype=vartype, offset=offset, labels_listed=True, terms=terms)
    original = bqm.to_file(spool_size=1 << 26)  # past 64 MB the copy goes through disk, not memory
    info = read_header(original, _MAGIC)  # type: ignore[arg-type]
    out = tempfile.SpooledTemporaryFile(max_size=1 << 26)
    out.write(make_header(_MAGIC, {**info.data, META_KEY: meta}, info.version))
    shutil.copyfileobj(original, out, 1 << 22)  # the body, after dimod's own header
    original.close()
    out.seek(0)
    return out


def dumps(qubo: Qubo, *, ising: bool = False) -> bytes:
    """The DIMODBQM bytes of *qubo* (its Ising form with ``ising=True``)."""
    return _to_file(qubo, ising).read()


def dump(qubo: Qubo, fp: IO[bytes], *, ising: bool = False, progress: bool = False) -> None:
    """Write the DIMODBQM file of *qubo* to *fp* (a binary file)."""
    from ..progress import bar

    with bar(1, f"writing {NAME}", enabled=progress, unit=" file") as tick:
        spooled = _to_file(qubo, ising)
        shutil.copyfileobj(spooled, fp, 1 << 22)
        spooled.close()
        tick(1)


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


def load(fp: IO[bytes]) -> Qubo:
    """Read a DIMODBQM file written by nonoqubo from an open binary file."""
    return loads(fp.read(), source=getattr(fp, "name", "<bqm>"))


def detect(head: bytes) -> bool:
    """The DIMODBQM magic."""
    return head.startswith(b"DIMODBQM")
