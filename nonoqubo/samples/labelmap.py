"""JSON label maps: ``{label: value}`` for one sample, or a list of them for many.

Grammar::

    {"y0[0][0]": 1, "y0[0][1]": 0, ..., "z14[2][3]": 1}
    [{...}, {...}]                                   # several samples
    {"samples": [{...}, ...], "energies": [...], "num_occurrences": [...]}

Labels are the model's (``y{i}[k][p]``, ``z{j}[k][p]``) or the flat spelling
LP/MPS tools use (``y0_0_1``).  Values are 0/1, ``true``/``false`` or spins
-1/+1.  Every variable of the model must appear (variables fixed by presolve
may appear too, and are ignored).  ``energies`` are finite numbers and ``num_occurrences``
whole numbers from 0, one of each per sample (:func:`._raw.checked_occurrences`).

Examples:
    >>> loads('{"a": 1, "b": 0}', source="x").maps
    [{'a': 1, 'b': 0}]
"""

from __future__ import annotations

from .._util.text import head_text
from ..errors import FormatError
from ._defaults import BINARY, EXTENSIONS, HEURISTIC, KIND, LEGACY_ENCODING
from ._raw import RawSamples, checked_energies, checked_occurrences, loads_json

NAME = "labelmap"
TITLE = "JSON object label -> value (or a list of them)"
ALIASES = ("json", "dict", "map")
ORDER = 20


def detect(head: bytes) -> bool:
    """A JSON object (not a SampleSet), or a JSON list whose first item is an object."""
    text = head_text(head)
    start = text.lstrip()
    if start.startswith("{"):
        return True
    return start.startswith("[") and start[1:].lstrip().startswith("{")


def loads(text: str, *, source: str) -> RawSamples:
    """Read one label map or a list of them.

    Raises:
        FormatError: not JSON, or not objects of label -> value.
    """
    doc = loads_json(text, source)
    energies = occurrences = None
    if isinstance(doc, dict) and isinstance(doc.get("samples"), list):
        energies, occurrences = doc.get("energies"), doc.get("num_occurrences")
        doc = doc["samples"]
    maps = doc if isinstance(doc, list) else [doc]
    for s, item in enumerate(maps):
        if not isinstance(item, dict):
            raise FormatError(f"{source}: sample {s} is not a JSON object of label -> value")
    return RawSamples(maps=maps, energies=checked_energies(energies, len(maps), source),
                      num_occurrences=checked_occurrences(occurrences, len(maps), source))
