"""NumPy ``.npz`` archive of the model's arrays, with documented keys (no standard exists).

Keys (``np.load(path)`` gives them; no pickling needed)::

    labels   str array (n,)      the labels in variable order
    linear   int64 (n,)          linear biases
    row, col int64 (m,)          0-based pairs, row < col, sorted
    quad     int64 (m,)          pair coefficients (full, each pair once)
    offset   int64 ()            the constant
    vartype  str ()              "BINARY"
    clues    str ()              JSON {"name", "rows", "cols"} (+ "palette" in colour), or "null" without a puzzle
    fixed    str ()              JSON {label: 0/1} of variables removed before export
    meta     str ()              JSON of the full nonoqubo metadata (counts, version ...)

Energy: ``offset + linear @ x + quad @ (x[row] * x[col])``, exact in int64.
Uncompressed (``np.savez``): fast both ways and exact.  BINARY only.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b"], [-1, 1], [(0, 1, 2)], offset=4)
    >>> arrays = np.load(io.BytesIO(dumps(q)))
    >>> arrays["linear"].tolist(), int(arrays["offset"]), str(arrays["vartype"])
    ([-1, 1], 4, 'BINARY')
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations

import io
import json
import math
import zipfile
from typing import IO, Any

import numpy as np

from .._util.guard import finite, json_loads
from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, HEURISTIC, ISING, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _header

NAME = "npz"
TITLE = "NumPy .npz arrays: labels, linear, row, col, quad, offset, vartype, clues, fixed (exact int64)"
EXTENSIONS = ("npz",)
BINARY = True
ORDER = 100

KEYS = ("labels", "linear", "row", "col", "quad", "offset", "vartype", "clues", "fixed", "meta")


def dump(qubo: Qubo, fp: IO[bytes], *, ising: bool = False, progress: bool = False) -> None:
    """Write the ``.npz`` archive of *qubo* to *fp* (a binary file)."""
    meta = _header.describe(qubo, NAME, labels_listed=True)
    clues = None if qubo.puzzle is None else {k: meta[k] for k in ("name", "palette", "rows", "cols") if k in meta}
    np.savez(
        fp,
        labels=np.array([str(x) for x in qubo.labels], dtype=str) if qubo.num_vars else np.zeros(0, "U1"),
        linear=np.asarray(qubo.linear, np.int64),
        row=np.asarray(qubo.row, np.int64),
        col=np.asarray(qubo.col, np.int64),
        quad=np.asarray(qubo.quad, np.int64),
        offset=np.int64(qubo.offset),
        vartype=np.str_("BINARY"),
        clues=np.str_(json.dumps(clues)),
        fixed=np.str_(json.dumps(meta["fixed"])),
        meta=np.str_(json.dumps(meta)),
    )


def dumps(qubo: Qubo, *, ising: bool = False) -> bytes:
    """The ``.npz`` bytes of *qubo*."""
    buf = io.BytesIO()
    dump(qubo, buf)
    return buf.getvalue()


def loads(data: bytes, *, source: str = "<npz>") -> Qubo:
    """The :class:`Qubo` of a ``.npz`` archive written by nonoqubo.

    Raises:
        FormatError: not an npz archive, or a key missing.
    """
    arrays = read_arrays(data, source)
    missing = [k for k in KEYS if k not in arrays and k != "meta"]
    if missing:
        raise FormatError(located(source, None, f"the archive lacks the key(s) {', '.join(missing)}"))
    for key, (ndim, kinds) in _SHAPES.items():
        if arrays[key].ndim != ndim or arrays[key].dtype.kind not in kinds:
            raise FormatError(located(source, None, f"{key!r} is a {arrays[key].ndim}-d {arrays[key].dtype} array, "
                                      f"expected {ndim}-d of kind {kinds!r}"))
    clues = json_loads(str(arrays["clues"]), f"{source}:clues")
    fixed = json_loads(str(arrays["fixed"]), f"{source}:fixed")
    meta: dict[str, Any] = {"vartype": str(arrays["vartype"]), "fixed": fixed}
    if "meta" in arrays:  # encoding and weights (files written before them have neither: domain-wall, 1 each)
        full = json_loads(str(arrays["meta"]), f"{source}:meta")
        if isinstance(full, dict):
            meta.update({k: full[k] for k in ("encoding", "weights", "presolve") if k in full})
    if clues is not None and not isinstance(clues, dict):
        raise FormatError(located(source, None, "'clues' is not a JSON object"))
    if clues:
        meta.update(clues)
    offset = finite(arrays["offset"], source, "offset")
    return _header.to_qubo(meta, arrays["linear"], arrays["row"], arrays["col"], arrays["quad"],
                           offset.item(), source, [str(x) for x in arrays["labels"].tolist()])


#: key -> (dimensions, dtype kinds) every array must have
_SHAPES = {"labels": (1, "U"), "linear": (1, "iuf"), "row": (1, "iu"), "col": (1, "iu"), "quad": (1, "iuf"),
           "offset": (0, "iuf"), "vartype": (0, "U"), "clues": (0, "U"), "fixed": (0, "U")}
#: the most a deflated member may expand (deflate's own limit is about 1032:1)
_MAX_RATIO = 1100


def read_arrays(data: bytes, source: str) -> dict[str, np.ndarray]:
    """The ``.npy`` members of an ``.npz`` archive, each checked before it is read.

    ``np.load`` trusts an array's header: a 100-byte member claiming shape (10^12,) asks for
    terabytes, and a damaged archive surfaces as ``BadZipFile``/``EOFError`` only when a
    member is read.  Here every member's declared shape must fit in its own stored bytes,
    and every error of the zip or npy layer becomes one located FormatError.
    """
    fmt = np.lib.format
    out: dict[str, np.ndarray] = {}
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            for info in zf.infolist():
                if not info.filename.endswith(".npy"):
                    continue
                name = info.filename[:-4]
                if info.file_size > _MAX_RATIO * max(info.compress_size, 1) or info.compress_size > len(data):
                    raise FormatError(located(source, None, f"member {name!r} claims {info.file_size} bytes "
                                              f"from {info.compress_size}: damaged"))
                raw = zf.read(info)
                fh = io.BytesIO(raw)
                version = fmt.read_magic(fh)
                if version == (1, 0):
                    shape, _, dtype = fmt.read_array_header_1_0(fh)
                elif version == (2, 0):
                    shape, _, dtype = fmt.read_array_header_2_0(fh)
                else:
                    raise FormatError(located(source, None, f"member {name!r}: .npy version {version} is not supported"))
                need = math.prod(shape) * dtype.itemsize
                if dtype.hasobject or need > len(raw) - fh.tell():
                    raise FormatError(located(source, None, f"member {name!r} claims shape {shape} of {dtype} "
                                              f"({need} bytes) but holds {len(raw) - fh.tell()} bytes"))
                fh.seek(0)
                out[name] = fmt.read_array(fh, allow_pickle=False)
    except FormatError:
        raise
    except (ValueError, OSError, EOFError, KeyError, TypeError, NotImplementedError, RuntimeError,
            zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        message = " ".join(str(exc).split())[:200]
        raise FormatError(located(source, None, f"not a readable NumPy .npz archive: {message}")) from None
    return out



def detect(head: bytes) -> bool:
    """A zip archive whose first member is a ``.npy`` array."""
    return head.startswith(b"PK\x03\x04") and b".npy" in head[30:80]
