"""What a sample reader returns (:class:`RawSamples`) and the helpers the readers share.

A private module, so that the registry (``nonoqubo.samples``) and the format
modules both import it and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["RawSamples", "loads_json"]


@dataclass
class RawSamples:
    """What a reader found in a file, before it is matched to the model."""

    values: np.ndarray | Sequence[Sequence[float]] | None = None
    labels: Sequence[Any] | None = None
    maps: list[Mapping[Any, Any]] | None = None
    energies: np.ndarray | Sequence[float] | None = None
    num_occurrences: np.ndarray | Sequence[int] | None = None
    vartype: str | None = None
    #: a variable the file leaves out is 0 (MIP solution files list only the nonzero ones)
    sparse: bool = False
    #: the file's energies lack the model's offset (qbsolv, MQLib: formats with no offset field)
    offset_excluded: bool = False
    #: pictures (``(H, W)`` colour indices) instead of variables: a CP solver's answers, encoded
    #: through the puzzle's layout when matched (:mod:`nonoqubo.samples._grid`)
    grids: list[Any] | None = None
    #: what else the file said that a caller may report: a dimod SampleSet's ``chain_break_fraction``
    #: column and ``embedding_context`` (what ``FixedEmbeddingComposite`` adds), read with the samples
    info: dict[str, Any] = field(default_factory=dict)


def loads_json(text: str, source: str) -> Any:
    """``json.loads`` with a located error."""
    from .._util.guard import json_loads

    return json_loads(text, source)
