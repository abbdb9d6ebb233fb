"""Gurobi JSON solution files (``model.write("answer.json")``, ``gurobi_cl ResultFile=answer.json``).

Grammar (Gurobi reference manual, "JSON solution format"; checked against gurobipy 13)::

    { "SolutionInfo": { "Status": 2, ..., "ObjVal": 0, "SolCount": 1, "PoolNObjVal": [ 0]},
      "Vars": [ { "VarName": "y0_0_0", "X": 1}, ...]}

With ``JSONSolDetail`` 0 (the default) ``Vars`` lists only the variables that
are not 0, so a variable left out is 0; with ``JSONSolDetail`` 1 it lists every
variable, each with ``PoolNX``, its value in every solution of the pool, and
``SolutionInfo.PoolNObjVal`` holds their objectives: every pool solution is
then a sample (the first is ``X``, the best).  ``Constrs`` (detail 1, or an LP
with duals) is ignored.  Names are the LP names (``y3_1_2``); see
:mod:`nonoqubo.samples._mip` for rounding.  A file with no ``Vars`` (status
infeasible, time limit with no solution) is a
:class:`~nonoqubo.errors.SampleError` that quotes the status.

Examples:
    >>> text = ('{ "SolutionInfo": { "Status": 2, "ObjVal": 0, "SolCount": 1}, '
    ...         '"Vars": [ { "VarName": "y0_0_0", "X": 1}]}')
    >>> raw = loads(text, source="x.json")
    >>> raw.labels, raw.values.tolist(), raw.sparse, list(raw.energies)
    (['y0_0_0'], [[1.0]], True, [0.0])
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np

from .._util.text import head_text
from ..errors import FormatError, SampleError
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from . import _mip
from ._raw import RawSamples, loads_json

__all__ = ["detect", "loads"]

NAME = "gurobi-json"
TITLE = "Gurobi JSON solution ({\"SolutionInfo\": ..., \"Vars\": [{\"VarName\", \"X\"}]})"
ALIASES = ("gurobi_json", "gurobi-json-sol")
ORDER = 15  # before labelmap, which takes any JSON object

#: Gurobi's optimisation status codes (reference manual, "Optimization status codes")
STATUS = {1: "LOADED", 2: "OPTIMAL", 3: "INFEASIBLE", 4: "INF_OR_UNBD", 5: "UNBOUNDED", 6: "CUTOFF",
          7: "ITERATION_LIMIT", 8: "NODE_LIMIT", 9: "TIME_LIMIT", 10: "SOLUTION_LIMIT", 11: "INTERRUPTED",
          12: "NUMERIC", 13: "SUBOPTIMAL", 14: "INPROGRESS", 15: "USER_OBJ_LIMIT", 16: "WORK_LIMIT",
          17: "MEM_LIMIT"}

_SIGNATURE = re.compile(r'^\{\s*"SolutionInfo"\s*:')


def detect(head: bytes) -> bool:
    """A JSON object that opens with Gurobi's ``"SolutionInfo"`` key."""
    return bool(_SIGNATURE.match(head_text(head).lstrip()))


def _number(value: Any, source: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise FormatError(f"{source}: {where}: {value!r} is not a number")
    return float(value)


def loads(text: str, *, source: str) -> RawSamples:
    """Read the solution (and, with ``JSONSolDetail`` 1, the pool) of a Gurobi JSON solution file.

    Raises:
        FormatError: not a Gurobi JSON solution (a missing or malformed ``Vars`` item).
        SampleError: the file holds no solution (the message gives Gurobi's status).
    """
    doc = loads_json(text, source)
    if not isinstance(doc, dict) or not isinstance(doc.get("SolutionInfo"), dict):
        raise FormatError(f"{source}: not a Gurobi JSON solution (no \"SolutionInfo\" object)")
    info = doc["SolutionInfo"]
    variables = doc.get("Vars")
    if variables is None:
        status = info.get("Status")
        name = STATUS.get(status, status) if isinstance(status, int) and not isinstance(status, bool) else status
        raise SampleError(f"{source}: Gurobi found no solution (status {name})")
    if not isinstance(variables, list):
        raise FormatError(f"{source}: \"Vars\" is not a list")
    names: list[str] = []
    values: list[float] = []
    pool: list[Any] = []
    for i, var in enumerate(variables):
        if not isinstance(var, dict) or not isinstance(var.get("VarName"), str) or "X" not in var:
            raise FormatError(f"{source}: Vars item {i} is not {{\"VarName\": name, \"X\": value}}")
        names.append(var["VarName"])
        values.append(_number(var["X"], source, f"variable {var['VarName'][:40]!r}"))
        pool.append(var.get("PoolNX"))
    objective = info.get("ObjVal")
    energy = None if objective is None else _number(objective, source, "ObjVal")
    objectives = info.get("PoolNObjVal")
    if (names and isinstance(objectives, list) and len(objectives) > 1
            and all(isinstance(p, list) and len(p) == len(objectives) for p in pool)):
        rows = np.array([[_number(v, source, f"variable {n[:40]!r}, PoolNX") for v in p]
                         for n, p in zip(names, pool)], dtype=np.float64).T
        energies = [_number(v, source, "PoolNObjVal") for v in objectives]
        return RawSamples(values=_mip.rounded(rows), labels=names, sparse=True, vartype="BINARY",
                          energies=energies)
    return _mip.raw(np.array(names, dtype=object), np.array(values, dtype=np.float64), energy)
