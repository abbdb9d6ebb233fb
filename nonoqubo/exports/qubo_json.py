"""nonoqubo's own QUBO JSON document (``schemas/qubo.schema.json``).

One object, one key a line, the big arrays last, so ``head`` shows what the
file is::

    {
      "format": "nonoqubo-qubo",
      "format_version": 1,
      "nonoqubo": "0.1.0",
      "convention": "E(x) = offset + sum_i linear[i] x_i + ...",
      "vartype": "BINARY",
      "num_variables": 437, "num_terms": 2756, "num_linear": 399, "num_quadratic": 2357,
      "offset": 120,
      "puzzle": {"name": ..., "width": 15, "height": 15, "rows": [[7], ...], "cols": [...]},
      "fixed": {},
      "labels": ["y0[0][0]", ...],
      "linear": [...],
      "quadratic": {"row": [...], "col": [...], "bias": [...]}
    }

Convention (stated in the file too): ``E(x) = offset + sum_i linear[i] x_i +
sum_t bias[t] x[row[t]] x[col[t]]`` with ``row[t] < col[t]``: the upper
triangle, each pair once, full coefficient; indices are 0-based positions in
``labels``.  BINARY files hold integers only.  With ``--ising`` the vartype is
SPIN and the same keys hold ``h``, ``J`` and the Ising offset (multiples of
1/4), over ``s = 2x - 1``.  ``puzzle`` is ``null`` for a model without clues;
``fixed`` lists variables removed by presolve, with their values.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b"], [-1, 1], [(0, 1, 2)], offset=4)
    >>> doc = json.loads(dumps(q))
    >>> doc["linear"], doc["quadratic"], doc["offset"]
    ([-1, 1], {'row': [0], 'col': [1], 'bias': [2]}, 4)
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _header, _json, _writer

NAME = "qubo-json"
TITLE = "nonoqubo's QUBO JSON (schemas/qubo.schema.json): labels, integer linear/quadratic lists, offset, clues"
EXTENSIONS = ("qubo.json", "json")
ISING = True
ORDER = 10

FORMAT_ID = "nonoqubo-qubo"
FORMAT_VERSION = 1
CONVENTIONS = {
    "BINARY": (
        "E(x) = offset + sum_i linear[i]*x_i + sum_t quadratic.bias[t]*x[quadratic.row[t]]*x[quadratic.col[t]], "
        "x_i in {0,1}; upper triangle (row < col), each pair once, full coefficient; indices are 0-based "
        "positions in labels; energy 0 exactly at a solution of the puzzle"
    ),
    "SPIN": (
        "E(s) = offset + sum_i linear[i]*s_i + sum_t quadratic.bias[t]*s[quadratic.row[t]]*s[quadratic.col[t]], "
        "s_i in {-1,+1}, x_i = (1 + s_i)/2 gives the BINARY model; upper triangle (row < col), each pair once, "
        "full coefficient; indices are 0-based positions in labels"
    ),
}


def _chunks(qubo: Qubo, ising: bool):
    linear, row, col, quad, offset, vartype = _header.model_arrays(qubo, ising)
    meta = _header.describe(qubo, NAME, vartype=vartype, offset=offset, labels_listed=True,
                            terms=int(np.count_nonzero(linear)) + quad.size)
    p = qubo.puzzle
    head = {
        "format": FORMAT_ID,
        "format_version": FORMAT_VERSION,
        "nonoqubo": meta["nonoqubo"],
        "convention": CONVENTIONS[vartype],
        "vartype": vartype,
        "num_variables": qubo.num_vars,
        "num_terms": meta["terms"],
        "num_linear": int(np.count_nonzero(linear)),
        "num_quadratic": int(quad.size),
        "offset": meta["offset"],
        "encoding": meta["encoding"],
        "weights": meta["weights"],
        "puzzle": None if p is None else {
            "name": p.name, "width": p.width, "height": p.height,
            **({"palette": meta["palette"]} if "palette" in meta else {}), "rows": meta["rows"], "cols": meta["cols"],
        },
        **({"presolve": meta["presolve"]} if "presolve" in meta else {}),  # probing only: line logic's as before
        "fixed": meta["fixed"],
        "labels": [str(x) for x in qubo.labels],
    }
    yield "{\n" + "".join(f"  {json.dumps(k)}: {_json.compact(v)},\n" for k, v in head.items()), 0
    yield '  "linear": ', 0
    yield from _json.array(linear)
    yield ',\n  "quadratic": {"row": ', 0
    yield from _json.array(row)
    yield ', "col": ', 0
    yield from _json.array(col)
    yield ', "bias": ', 0
    yield from _json.array(quad, tick_rows=True)
    yield "}\n}\n", 0


dumps, dump = _writer.text_writer(NAME, _chunks, total="num_quadratic")


def loads(data: str | bytes, *, source: str = "<qubo.json>") -> Qubo:
    """The :class:`Qubo` of a QUBO JSON document.

    Raises:
        FormatError: not JSON, not this format, or inconsistent arrays.
    """
    doc = _json.parse(data, source)
    del data  # the parsed document is several times the text; do not hold both
    if not isinstance(doc, dict) or doc.get("format") != FORMAT_ID:
        raise FormatError(located(source, None, f"not a nonoqubo QUBO JSON document (no \"format\": \"{FORMAT_ID}\")"))
    if doc.get("format_version") != FORMAT_VERSION:
        raise FormatError(located(source, None, f"QUBO JSON format_version {doc.get('format_version')!r} is not supported "
                                  f"(this nonoqubo reads {FORMAT_VERSION})"))
    try:
        quad = doc["quadratic"]  # each list is let go once it is an array
        linear = np.asarray(doc.pop("linear"), dtype=np.float64)
        row = np.asarray(quad.pop("row"), dtype=np.int64)
        col = np.asarray(quad.pop("col"), dtype=np.int64)
        bias = np.asarray(quad.pop("bias"), dtype=np.float64)
        labels = [str(x) for x in doc["labels"]]
        meta: dict[str, Any] = {"vartype": doc["vartype"], "fixed": doc.get("fixed") or {},
                                **{k: doc[k] for k in ("encoding", "weights", "presolve") if k in doc}}
    except (KeyError, TypeError, AttributeError, ValueError, OverflowError) as exc:
        raise FormatError(located(source, None, f"missing or malformed key: {_header.malformed(exc)}")) from None
    if not (row.size == col.size == bias.size):
        raise FormatError(located(source, None, "quadratic row, col and bias differ in length"))
    puzzle = doc.get("puzzle")
    if puzzle:
        meta.update(name=puzzle.get("name"), rows=puzzle.get("rows"), cols=puzzle.get("cols"))
        if puzzle.get("palette") is not None:
            meta["palette"] = puzzle["palette"]
    return _header.to_qubo(meta, linear, row, col, bias, doc.get("offset", 0), source, labels)



def detect(head: bytes) -> bool:
    """The document's first key names this format."""
    return f'"format": "{FORMAT_ID}"'.encode() in head[:200]
