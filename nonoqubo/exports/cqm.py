"""dimod's CQM file (``ConstrainedQuadraticModel.to_file``): the constrained model for hybrid solvers.

The file is what ``cqm.to_file()`` writes (dimod's serialisation format 2.0):
the 8-byte magic ``DIMODCQM``, a version, a JSON header of counts, then a zip
archive with ``varinfo``, ``variable_labels.json``, ``objective`` and one
``constraints/<label>/{lhs,rhs,sense}`` directory per constraint.  Read it with
``dimod.ConstrainedQuadraticModel.from_file(open(path, "rb"))`` and hand it to
``LeapHybridCQMSampler().sample_cqm(cqm)``.

* Variables are BINARY, labelled with the QUBO++ labels (``y3[1][2]``;
  dimod has no name restriction); the objective is zero.
* Constraints are named ``cell_i_j``, ``wall_y3_k1_p2``, ``order_z5_k0_p4``
  (see :mod:`nonoqubo.model.constrained`).
* Self-describing: dimod's header keeps only counts, so nonoqubo adds one more
  zip member, ``nonoqubo.json`` (``{"nonoqubo": "constrained", "format": 1,
  "puzzle": {clue spec}, "fixed": {label: 0/1}, "counts": {...}, "labels":
  "..."}``, and ``"presolve": "probe"`` before ``fixed`` when probing fixed them).  ``from_file`` reads only the members it knows (it lists
  ``constraints/<label>/`` directories by pattern and opens the others by
  name), so the extra member changes nothing in the model dimod loads; any
  zip tool shows it (``unzip -p model.cqm nonoqubo.json``).

Note that ``from_file`` collects constraint labels in a set, so the
constraint *order* is not kept by dimod; :func:`loads` rebuilds the model in
nonoqubo's order and checks every constraint by name.

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> from nonoqubo.model.constrained import build_constrained
    >>> m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> data = dumps(m)
    >>> data[:8]
    b'DIMODCQM'
    >>> loads(data, source="x.cqm").same_model(m)
    True
"""

from __future__ import annotations

import io
import json
import zipfile
from typing import IO, Any

from .._util.guard import json_loads
from ..model.constrained import SENSES, ConstrainedModel, build_constrained
from ..errors import FormatError, MissingDependency, UnsupportedFormat, located
from . import _metadata
from ._defaults import ALIASES, HEURISTIC, ISING, LEGACY_ENCODING, OFFSET
from ._metadata import constrained_meta, from_spec, spec_of

__all__ = ["dump", "dumps", "loads", "metadata", "read_metadata"]

NAME = "cqm"
TITLE = "dimod CQM file (ConstrainedQuadraticModel.to_file), for hybrid CQM solvers"
EXTENSIONS = ("cqm",)
BINARY = True
KIND = "constrained"
ORDER = 100
WRITE_BYTES_PER_TERM = 280  # the random 100x100 (3.6 M terms): 1.0 GB, rounded up

MAGIC = b"DIMODCQM"
#: the zip member that carries the clues and the fixed variables
MEMBER = "nonoqubo.json"
FORMAT_VERSION = 1


def _dimod() -> Any:
    try:
        import dimod
    except ImportError:  # pragma: no cover - dimod is a core dependency
        raise MissingDependency("dimod", "dimod", "the CQM format") from None
    return dimod


def metadata(model: ConstrainedModel) -> dict[str, Any]:
    """The ``nonoqubo.json`` document of *model*: the clue metadata (:mod:`._metadata`) in this member's syntax.

    The clues are written as a clue spec (``"puzzle"``), the counts with the number of fixed variables.
    """
    meta = constrained_meta(model, NAME)
    return {
        "nonoqubo": "constrained",
        "format": FORMAT_VERSION,
        "puzzle": spec_of(meta),
        **({"presolve": meta["presolve"]} if "presolve" in meta else {}),  # probing's files only
        "fixed": meta["fixed"],
        "counts": {"variables": meta["variables"], "fixed": len(meta["fixed"]),
                   "constraints": meta["constraints"], **meta["counts"]},
        "labels": "y{i}[k][p] / z{j}[k][p]: row i / column j, block k, wall position p (0-based), "
                  "1 = block k shifted right by more than p",
        "constraints": "cell_i_j: row colour - column colour = 0; wall_y3_k1_p2: w[k][p] - w[k][p+1] >= 0; "
                       "order_y3_k1_p2: w[k+1][p] - w[k][p] >= 0",
    }


def read_metadata(doc: Any, source: str) -> tuple[Any, dict[str, int], str | None]:
    """The puzzle, the fixed variables and the presolve that fixed them (``"probe"`` or None) of a
    ``nonoqubo.json`` document, checked by :func:`._metadata.read`.

    Raises:
        FormatError: not nonoqubo's constrained-model metadata, or a value the one reader refuses.
    """
    if not isinstance(doc, dict) or doc.get("nonoqubo") != "constrained" or not isinstance(doc.get("puzzle"), dict):
        raise FormatError(located(source, None, f"'{MEMBER}' is not nonoqubo's constrained-model metadata"))
    meta = {**from_spec(doc["puzzle"]), "fixed": doc.get("fixed") or {}}
    for key in ("counts", "presolve"):
        if key in doc:
            meta[key] = doc[key]
    clues = _metadata.read(meta, source, spell=f"{MEMBER} key '{{}}'")
    if clues.puzzle is None:
        raise FormatError(located(source, None, f"{MEMBER} key 'puzzle' has no 'rows' and 'cols'"))
    return clues.puzzle, clues.fixed, clues.presolve


def dumps(model: ConstrainedModel, *, ising: bool = False) -> bytes:
    """The CQM file of *model*, with the ``nonoqubo.json`` member added.

    Raises:
        UnsupportedFormat: ``ising=True`` (a CQM over spins is not offered).
    """
    if ising:
        raise UnsupportedFormat("the CQM export is over binary variables; it has no Ising form")
    with model.to_cqm().to_file() as fh:
        buf = io.BytesIO(fh.read())
    info = zipfile.ZipInfo(MEMBER, date_time=(1980, 1, 1, 0, 0, 0))
    with zipfile.ZipFile(buf, mode="a") as zf:
        zf.writestr(info, json.dumps(metadata(model), indent=1))
    return buf.getvalue()


def dump(model: ConstrainedModel, fp: IO[bytes], *, ising: bool = False) -> None:
    """Write :func:`dumps` to a binary file object."""
    fp.write(dumps(model, ising=ising))


def loads(data: bytes, *, source: str = "<cqm>") -> ConstrainedModel:
    """Read a CQM file written by :func:`dumps`.

    The model is rebuilt from the clues and fixings in ``nonoqubo.json``.  When the
    file holds, member for member, what dimod writes for that model, it is accepted
    as it is.  Otherwise dimod reads it and every variable and constraint is checked
    against what dimod read; as dimod's native loader trusts sizes and indices (a
    damaged file can crash the process), a child process reads it first.

    Raises:
        FormatError: not a CQM file, no ``nonoqubo.json`` member, or a model that
            differs from the one its clues give (the message names the constraint).
    """
    dimod = _dimod()
    if not data.startswith(MAGIC):
        raise FormatError(located(source, None, "not a dimod CQM file (no DIMODCQM magic)"))
    try:
        members = _members(data, source)
        doc = json_loads(members.pop(MEMBER), source)
    except KeyError:
        raise FormatError(located(source, None, f"a CQM without the '{MEMBER}' member: not written by "
                                  "nonoqubo, so its clues are unknown")) from None
    except _ZIP_ERRORS as exc:
        raise _unreadable(source, exc) from None
    puzzle, fixed, presolve = read_metadata(doc, source)
    try:
        model = build_constrained(puzzle, fixed, presolve=presolve)
    except ValueError as exc:
        raise FormatError(located(source, None, f"the clues and fixed values in {MEMBER}: {exc}")) from None
    with model.to_cqm().to_file() as fh:
        written = fh.read()
    if _head(written) == _head(data) and _members(written, source) == members:
        return model  # byte for byte what dimod writes for these clues: nothing left to check
    _probe(data, source)
    try:
        cqm = dimod.ConstrainedQuadraticModel.from_file(io.BytesIO(data))
    except (*_ZIP_ERRORS, KeyError) as exc:  # KeyError: a header without a key dimod needs
        raise _unreadable(source, exc) from None
    check_cqm(model, cqm, source)
    return model


_ZIP_ERRORS = (ValueError, zipfile.BadZipFile, zipfile.LargeZipFile, OSError, EOFError, NotImplementedError,
               RuntimeError, TypeError, IndexError)


def _unreadable(source: str, exc: BaseException) -> FormatError:
    if isinstance(exc, KeyError):
        return FormatError(located(source, None, f"cannot read the CQM: its header has no {str(exc)[:60]} entry"))
    return FormatError(located(source, None, f"cannot read the CQM: {' '.join(str(exc).split())[:200]}"))


def _head(data: bytes) -> bytes:
    """The DIMODCQM header (magic, version, JSON) before the zip archive."""
    return data[:14 + int.from_bytes(data[10:14], "little")] if len(data) >= 14 else data


def _members(data: bytes, source: str) -> dict[str, bytes]:
    """Every member of the CQM's zip archive (CRC-checked), refusing implausible expansion."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        if sum(i.file_size for i in infos) > 1100 * len(data):
            raise FormatError(located(source, None, "the CQM's members claim more bytes than deflate can expand to"))
        return {i.filename: zf.read(i) for i in infos}


def _probe(data: bytes, source: str) -> None:
    """dimod's CQM loader run on *data* in a child process; a FormatError if it crashed there."""
    import subprocess
    import sys

    code = "import sys, dimod; dimod.ConstrainedQuadraticModel.from_file(sys.stdin.buffer)"
    proc = subprocess.run([sys.executable, "-c", code], input=data, capture_output=True)
    if proc.returncode < 0 or proc.returncode > 1:
        raise FormatError(located(source, None, f"damaged CQM file: dimod's loader crashed on it "
                                  f"(exit status {proc.returncode})"))


def check_cqm(model: ConstrainedModel, cqm: Any, source: str = "<cqm>") -> None:
    """Raise :class:`FormatError` unless *cqm* has exactly the variables and constraints of *model*."""
    if list(cqm.variables) != list(model.labels):
        raise FormatError(located(source, None, f"the CQM has {len(cqm.variables)} variables, the model of its "
                                  f"clues {model.num_vars} (or with other labels)"))
    if len(cqm.constraints) != model.num_constraints:
        raise FormatError(located(source, None, f"the CQM has {len(cqm.constraints)} constraints, the model of "
                                  f"its clues {model.num_constraints}"))
    labels = model.labels
    ptr, idx, cof = model.indptr.tolist(), model.indices.tolist(), model.coefs.tolist()
    for c, name in enumerate(model.names):
        comp = cqm.constraints.get(name)
        if comp is None:
            raise FormatError(located(source, None, f"constraint {name} is missing from the CQM"))
        lhs = comp.lhs
        want = {labels[v]: float(a) for v, a in zip(idx[ptr[c]:ptr[c + 1]], cof[ptr[c]:ptr[c + 1]])}
        got = {v: b for v, b in lhs.iter_linear() if b}
        if (got != want or lhs.num_interactions or comp.sense.value != SENSES[model.sense[c]]
                or comp.rhs - lhs.offset != model.rhs[c]):
            raise FormatError(located(source, None, f"constraint {name} differs from the model of the clues"))



def detect(head: bytes) -> bool:
    """dimod's CQM magic."""
    return head.startswith(MAGIC)
