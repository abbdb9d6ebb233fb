"""dimod ``SampleSet`` JSON: what Ocean samplers return, saved with ``to_serializable()``.

Grammar (``sampleset_schema`` 3.x, dimod 0.12)::

    {"type": "SampleSet", "version": {"sampleset_schema": "3.2.0"},
     "variable_labels": [...], "variable_type": "BINARY" | "SPIN",
     "record": ..., "sample_data": {... bit-packed ...},
     "vectors": {"energy": {...}, "num_occurrences": {...}}, "info": {...}}

OpenJij's ``Response.to_serializable()`` writes the same document with
``"type": "Response"`` (its ``Response`` subclasses dimod's ``SampleSet``): it
is read the same way.  The file is read with ``dimod.SampleSet.from_serializable``
(dimod is a runtime dependency), so every version dimod reads is accepted.  Every sample
is kept, with its energy and occurrence count.  Labels may be the model's
(``y0[0][1]``), their flat spelling (``y0_0_1``) or integers ``0..N-1`` (the
variable order, as in a BQM read from a COO or qbsolv file).

Origin: ``dimod.SampleSet.to_serializable`` (dimod#289).

Examples:
    >>> import dimod
    >>> ss = dimod.SampleSet.from_samples([{"a": 1, "b": 0}], "BINARY", energy=[3])
    >>> raw = loads(json.dumps(ss.to_serializable()), source="x")
    >>> raw.values.tolist(), list(raw.labels), raw.energies.tolist()
    ([[1, 0]], ['a', 'b'], [3.0])
"""

from __future__ import annotations

import json  # noqa: F401  (used by the doctest)
import re
from typing import Any

import numpy as np

from .._util.text import head_text
from ..errors import FormatError
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples, checked_occurrences, loads_json

NAME = "sampleset"
TITLE = "dimod SampleSet JSON (SampleSet.to_serializable(); OpenJij's \"type\": \"Response\" too)"
ALIASES = ("dimod", "ocean", "openjij", "response")
ORDER = 10

#: the document types: dimod's, and OpenJij's Response (a SampleSet subclass)
TYPES = ("SampleSet", "Response")
_SIGNATURE = re.compile(r'"type"\s*:\s*"(?:SampleSet|Response)"')


def detect(head: bytes) -> bool:
    """A JSON object whose ``type`` is ``SampleSet`` (dimod) or ``Response`` (OpenJij)."""
    text = head_text(head)
    return text.lstrip().startswith("{") and bool(_SIGNATURE.search(text[:1_000_000]))


def from_sampleset(sampleset: Any) -> RawSamples:
    """The raw samples of an in-memory ``dimod.SampleSet``."""
    record = sampleset.record
    vectors = record.dtype.names or ()
    info: dict[str, Any] = {}
    if "chain_break_fraction" in vectors:  # unembedded by FixedEmbeddingComposite: kept for the report
        info["chain_break_fraction"] = np.asarray(record.chain_break_fraction, np.float64)
        context = sampleset.info.get("embedding_context") if isinstance(sampleset.info, dict) else None
        if isinstance(context, dict):
            info["embedding_context"] = context
        record_info = sampleset.info.get("nonoqubo") if isinstance(sampleset.info, dict) else None
        reported = record_info.get("sampler_reported") if isinstance(record_info, dict) else None
        if isinstance(reported, dict) and isinstance(reported.get("qpu"), dict):  # solve's QPU record
            info["qpu"] = reported["qpu"]
    return RawSamples(
        values=np.asarray(record.sample),
        labels=list(sampleset.variables),
        energies=np.asarray(record.energy, dtype=np.float64) if "energy" in vectors else None,
        num_occurrences=np.asarray(record.num_occurrences, dtype=np.int64) if "num_occurrences" in vectors else None,
        vartype=sampleset.vartype.name,
        info=info,
    )


def loads(text: str, *, source: str) -> RawSamples:
    """Read a serialised SampleSet.

    Raises:
        FormatError: not JSON, or not a SampleSet dimod can read.
    """
    return from_serializable(loads_json(text, source), source)


def from_serializable(doc: Any, source: str) -> RawSamples:
    """The raw samples of a ``SampleSet.to_serializable()`` document (already parsed).

    Raises:
        FormatError: not a SampleSet dimod can read.
    """
    import dimod

    if not isinstance(doc, dict) or doc.get("type") not in TYPES:
        raise FormatError(f"{source}: not a dimod SampleSet (no \"type\": \"SampleSet\" or OpenJij's \"Response\")")
    doc = {**doc, "type": "SampleSet"}
    try:
        sampleset = dimod.SampleSet.from_serializable(doc)
    except Exception as exc:  # dimod raises KeyError/ValueError/TypeError on damaged files
        raise FormatError(f"{source}: dimod cannot read this SampleSet: {type(exc).__name__}: {exc}") from None
    raw = from_sampleset(sampleset)
    checked_occurrences(raw.num_occurrences, len(sampleset), source)  # dimod keeps a negative count
    return raw


