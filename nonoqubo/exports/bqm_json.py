"""dimod's serializable BQM document (``BinaryQuadraticModel.to_serializable``, ``bqm_schema`` 3.0.0).

The object dimod 0.12 writes and ``BinaryQuadraticModel.from_serializable``
reads back::

    {"type": "BinaryQuadraticModel", "version": {"bqm_schema": "3.0.0"},
     "use_bytes": false, "index_type": "int32", "bias_type": "float64",
     "num_variables": n, "num_interactions": m, "variable_labels": [...],
     "variable_type": "BINARY", "offset": c, "info": {...},
     "linear_biases": [...], "quadratic_biases": [...],
     "quadratic_head": [...], "quadratic_tail": [...]}

Energy: ``offset + sum linear_biases[v] x_v + sum_t quadratic_biases[t]
x[head[t]] x[tail[t]]``, each pair once, indices 0-based into
``variable_labels`` (the QUBO++ labels, kept).  nonoqubo writes the document
itself (no dimod needed), integers as integers (dimod reads them as float64),
and its self-describing metadata (clues, fixed variables, counts) in
``info``, which the schema provides for free-form data.  With ``--ising`` the
variable type is SPIN and the biases are ``h``, ``J``.

Examples:
    >>> from nonoqubo.model.qubo import Qubo
    >>> q = Qubo.from_terms(["a", "b"], [-1, 1], [(0, 1, 2)], offset=4)
    >>> doc = json.loads(dumps(q))
    >>> doc["variable_labels"], doc["linear_biases"], doc["quadratic_head"], doc["offset"]
    (['a', 'b'], [-1, 1], [0], 4)
    >>> loads(dumps(q)) == q
    True
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import FormatError, located
from ..model.qubo import Qubo
from ._defaults import ALIASES, BINARY, HEURISTIC, KIND, LEGACY_ENCODING, OFFSET, WRITE_BYTES_PER_TERM
from . import _header, _json, _writer

NAME = "bqm-json"
TITLE = "dimod BQM.to_serializable() JSON (bqm_schema 3.0.0), labels kept, metadata in 'info'"
EXTENSIONS = ("bqm.json",)
ISING = True
ORDER = 30


def _chunks(qubo: Qubo, ising: bool):
    linear, row, col, quad, offset, vartype = _header.model_arrays(qubo, ising)
    meta = _header.describe(qubo, NAME, vartype=vartype, offset=offset, labels_listed=True,
                            terms=int(np.count_nonzero(linear)) + quad.size)
    head = {
        "type": "BinaryQuadraticModel",
        "version": {"bqm_schema": "3.0.0"},
        "use_bytes": False,
        "index_type": "int32" if qubo.num_vars < 2**31 else "int64",
        "bias_type": "float64",
        "num_variables": qubo.num_vars,
        "num_interactions": int(quad.size),
        "variable_labels": [str(x) for x in qubo.labels],
        "variable_type": vartype,
        "offset": meta["offset"],
        "info": meta,
    }
    yield "{" + "".join(f"{json.dumps(k)}: {_json.compact(v)}, " for k, v in head.items()), 0
    for key, values, last in (("linear_biases", linear, False), ("quadratic_biases", quad, True),
                              ("quadratic_head", row, False), ("quadratic_tail", col, False)):
        yield ("" if key == "linear_biases" else ", ") + f'"{key}": ', 0
        yield from _json.array(values, tick_rows=last)
    yield "}\n", 0


dumps, dump = _writer.text_writer(NAME, _chunks, total="num_quadratic")


def loads(data: str | bytes, *, source: str = "<bqm.json>") -> Qubo:
    """The :class:`Qubo` of a dimod serializable BQM written by nonoqubo.

    Raises:
        FormatError: not JSON, not a BQM document, ``use_bytes`` data, or no nonoqubo ``info``.
    """
    doc = _json.parse(data, source)
    if not isinstance(doc, dict) or doc.get("type") != "BinaryQuadraticModel":
        raise FormatError(located(source, None, "not a dimod serializable BinaryQuadraticModel"))
    if doc.get("use_bytes"):
        raise FormatError(located(source, None, "use_bytes=true documents are not supported; write with use_bytes=False"))
    meta = doc.get("info") or {}
    if "fixed" not in meta or "labels" not in meta:
        raise FormatError(located(source, None, "no nonoqubo metadata in 'info' (clues, fixed variables)"))
    meta = dict(meta, vartype=doc.get("variable_type", "BINARY"))
    try:
        labels = [str(x) for x in doc["variable_labels"]]
        return _header.to_qubo(
            meta, np.asarray(doc["linear_biases"], np.float64), np.asarray(doc["quadratic_head"], np.int64),
            np.asarray(doc["quadratic_tail"], np.int64), np.asarray(doc["quadratic_biases"], np.float64),
            doc["offset"], source, labels,
        )
    except (KeyError, TypeError, ValueError, OverflowError) as exc:
        if isinstance(exc, FormatError):
            raise
        raise FormatError(located(source, None, f"missing or malformed key: {_header.malformed(exc)}")) from None



def detect(head: bytes) -> bool:
    """A dimod BQM document."""
    return b'"type": "BinaryQuadraticModel"' in head[:200] or b'"type":"BinaryQuadraticModel"' in head[:200]
