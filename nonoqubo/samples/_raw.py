"""What a sample reader returns (:class:`RawSamples`) and the helpers the readers share.

A private module, so that the registry (``nonoqubo.samples``) and the format
modules both import it and neither imports the other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["RawSamples", "checked_energies", "checked_occurrences", "loads_json"]

#: the largest ``num_occurrences`` of one sample (int64, and sums of many stay exact in a float64 weight)
MAX_OCCURRENCES = 2**53


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


def checked_occurrences(value: Any, samples: int, source: str) -> np.ndarray | None:
    """A file's ``num_occurrences`` as int64, or None when it gives none.

    Each count is a whole number from 0 to :data:`MAX_OCCURRENCES` (``3`` or ``3.0``; not
    ``"3"``, ``true``, ``1e30``, ``nan`` or ``-5``), one for each of the *samples* samples.  A
    negative count would be accepted silently as a weight (``samples -5 p 1.000`` in ``evaluate``):
    the worst outcome, so it is refused by name.

    Raises:
        FormatError: a list of another length, or a count that is not a whole number in range
            (one line naming the file and the sample).

    Examples:
        >>> checked_occurrences([2, 1.0], 2, "f.json").tolist()
        [2, 1]
        >>> checked_occurrences([1, -5], 2, "f.json")
        Traceback (most recent call last):
        ...
        nonoqubo.errors.FormatError: f.json: num_occurrences of sample 1 is -5: a count is a whole number from 0 to 9007199254740992
    """
    from ..errors import FormatError

    if value is None:
        return None
    items = value.tolist() if isinstance(value, np.ndarray) else value
    if not isinstance(items, (list, tuple)):
        raise FormatError(f"{source}: num_occurrences must be a list of counts, one per sample, not "
                          f"{type(items).__name__}")
    if len(items) != samples:
        raise FormatError(f"{source}: num_occurrences has {len(items)} counts but the file has {samples} samples")
    for s, count in enumerate(items):
        whole = isinstance(count, int) or (isinstance(count, float) and count.is_integer())
        if isinstance(count, bool) or not whole or not 0 <= count <= MAX_OCCURRENCES:
            raise FormatError(f"{source}: num_occurrences of sample {s} is {_shown(count)}: a count is a whole "
                              f"number from 0 to {MAX_OCCURRENCES}")
    return np.asarray(items, dtype=np.float64).astype(np.int64) if items else np.zeros(0, np.int64)


def checked_energies(value: Any, samples: int, source: str) -> np.ndarray | None:
    """A file's ``energies`` as float64 (finite numbers, one per sample), or None when it gives none.

    Raises:
        FormatError: a list of another length, or an energy that is not a finite number.
    """
    from ..errors import FormatError

    if value is None:
        return None
    items = value.tolist() if isinstance(value, np.ndarray) else value
    if not isinstance(items, (list, tuple)):
        raise FormatError(f"{source}: energies must be a list of numbers, one per sample, not {type(items).__name__}")
    if len(items) != samples:
        raise FormatError(f"{source}: energies has {len(items)} numbers but the file has {samples} samples")
    for s, energy in enumerate(items):
        if isinstance(energy, bool) or not isinstance(energy, (int, float)) or not abs(energy) < float("inf"):
            raise FormatError(f"{source}: the energy of sample {s} is {_shown(energy)}, not a finite number")
    return np.asarray(items, dtype=np.float64)


def _shown(value: Any) -> str:
    """*value* as a message shows it: at most 40 characters (JSON's spelling for text)."""
    text = repr(value) if not isinstance(value, int) or abs(value) < 10**30 else "a number of over 30 digits"
    return text if len(text) <= 40 else text[:37] + "..."
