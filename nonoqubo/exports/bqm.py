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
