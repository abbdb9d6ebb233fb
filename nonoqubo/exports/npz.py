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
    >>> from nonoqubo.qubo import Qubo
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
import zipfile
from typing import IO, Any

import numpy as np

from ..errors import FormatError, located
from ..qubo import Qubo
from . import _header

NAME = "npz"
TITLE = "NumPy .npz arrays: labels, linear, row, col, quad, offset, vartype, clues, fixed (exact int64)"
EXTENSIONS = ("npz",)
BINARY = True
ISING = False
KIND = "qubo"
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
    try:
        arrays = np.load(io.BytesIO(data), allow_pickle=False)
    except (ValueError, OSError, zipfile.BadZipFile) as exc:
        raise FormatError(located(source, None, f"not a NumPy .npz archive: {exc}")) from None
    missing = [k for k in KEYS if k not in arrays.files and k != "meta"]
    if missing:
        raise FormatError(located(source, None, f"the archive lacks the key(s) {', '.join(missing)}"))
    clues = json.loads(str(arrays["clues"]))
    meta: dict[str, Any] = {"vartype": str(arrays["vartype"]), "fixed": json.loads(str(arrays["fixed"]))}
    if clues:
        meta.update(clues)
    return _header.to_qubo(meta, arrays["linear"], arrays["row"], arrays["col"], arrays["quad"],
                           int(arrays["offset"]), source, [str(x) for x in arrays["labels"].tolist()])


def load(fp: IO[bytes]) -> Qubo:
    """Read a ``.npz`` archive written by nonoqubo from an open binary file."""
    return loads(fp.read(), source=getattr(fp, "name", "<npz>"))


def detect(head: bytes) -> bool:
    """A zip archive whose first member is a ``.npy`` array."""
    return head.startswith(b"PK\x03\x04") and b".npy" in head[30:80]
