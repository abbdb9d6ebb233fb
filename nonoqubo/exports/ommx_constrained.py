"""OMMX artifact archive of the constrained model (``build --constrained -o model.ommx``).

The same ``.ommx`` file as :mod:`nonoqubo.exports.ommx` (see there for the
layout and the ``org.nonoqubo.*`` annotations), holding the 0-1 integer linear
program of :mod:`nonoqubo.model.constrained` instead of the QUBO: binary variables
named ``y``/``z`` with subscripts ``[i, k, p]``, a zero objective (minimise),
and one constraint per row named as in the LP file (``cell_i_j``,
``wall_y3_k1_p2``, ``order_z5_k0_p4``), stated as OMMX does, ``f(x) = 0`` or
``f(x) <= 0``.  ``ommx-highs-adapter`` and ``ommx-pyscipopt-adapter`` solve it
as it is::

    from ommx.artifact import Artifact
    from ommx_highs_adapter import OMMXHighsAdapter
    solution = OMMXHighsAdapter.solve(Artifact.load_archive("logo.ommx").instance)
    open("logo.solution", "wb").write(solution.to_bytes())   # nonoqubo decode logo.ommx logo.solution

Both modules share the ``.ommx`` extension: ``--constrained`` picks this one,
and reading a ``.ommx`` file gives the model it holds, whichever it is.

Examples:
    >>> from nonoqubo.model.constrained import build_constrained
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> loads(dumps(m), source="x.ommx").same_model(m)
    True
"""

from __future__ import annotations

import io
from typing import IO, Any

from ..errors import UnsupportedFormat
from ._defaults import ALIASES, HEURISTIC, ISING, LEGACY_ENCODING, OFFSET
from . import ommx as _archive

__all__ = ["detect", "dump", "dumps", "loads"]

NAME = "ommx-constrained"
TITLE = "OMMX artifact archive of the constrained 0-1 model (named constraints; HiGHS/SCIP adapters)"
EXTENSIONS = ("ommx",)
BINARY = True
KIND = "constrained"
ORDER = 111
WRITE_BYTES_PER_TERM = 160  # the random 100x100: 0.57 GB, rounded up

detect = _archive.detect
loads = _archive.loads


def dump(model: Any, fp: IO[bytes], *, ising: bool = False, progress: bool = False) -> None:
    """Write the OMMX artifact archive of the constrained *model* to *fp* (a binary file)."""
    if ising:
        raise UnsupportedFormat("the constrained model is over binary variables; it has no Ising form")
    _archive.dump_model(model, fp, "constrained", progress=progress)


def dumps(model: Any, *, ising: bool = False) -> bytes:
    """The ``.ommx`` bytes of the constrained *model*."""
    buf = io.BytesIO()
    dump(model, buf, ising=ising)
    return buf.getvalue()
