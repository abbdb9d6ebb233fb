"""Samples from objects in memory, not files: what :func:`samples_from` accepts, and how each is read.

A solver called from Python hands back an object, not a file: a dimod ``SampleSet`` (or its
``to_serializable()`` dict), an ``ommx.v1.SampleSet`` or ``Solution``, a pyqbpp ``Sol``, a
``{label: value}`` dict or a list of them, vectors in the model's variable order, or a
:class:`~nonoqubo.samples.SampleBatch` already made.  :func:`raw_from_object` tells which one it
is and reads it as the file format of the same shape would (the ``sampleset`` and ``ommx``
modules' own readers), into a :class:`~nonoqubo.samples.RawSamples`; :func:`samples_from` then
matches it like any file's samples (:func:`nonoqubo.samples.match`), so an object and its file
give the same batch and the same errors.  The samplers of ``solvers/`` and ``decode`` given an
object come in here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import SampleError
from ._batch import SampleBatch
from ._match import match
from ._raw import RawSamples

__all__ = ["raw_from_object", "samples_from"]


def samples_from(
    obj: Any,
    labels: Sequence[str],
    *,
    spin: bool | None = None,
    fixed: Mapping[str, int] | None = None,
    source: str = "<samples>",
) -> SampleBatch:
    """Samples from an in-memory object, matched to *labels*.

    Accepted: a :class:`SampleBatch` (checked against *labels*), a dimod
    ``SampleSet`` (or its ``to_serializable()`` dict), an ``ommx.v1.SampleSet`` or ``Solution``, a pyqbpp ``Sol`` (anything with ``var_count``,
    ``model_var(i)`` and ``get(var)``), a ``{label: value}`` dict, a list of
    such dicts, or a vector / list of vectors / 2-D array in the model's
    variable order.

    Examples:
        >>> samples_from([[1, 0], [0, 1]], ["a", "b"]).bits.tolist()
        [[1, 0], [0, 1]]
        >>> samples_from([-1, 1], ["a", "b"]).spin
        True
    """
    if isinstance(obj, SampleBatch):
        if list(obj.labels) != list(labels):
            raw = RawSamples(values=obj.bits, labels=list(obj.labels), energies=obj.energies,
                             num_occurrences=obj.num_occurrences, vartype="BINARY")
            return match(raw, labels, spin=False, fixed=fixed, source=obj.source)
        return obj.counted()  # a row counted 0 times is no sample
    return match(raw_from_object(obj, source), labels, spin=spin, fixed=fixed, source=source)


def raw_from_object(obj: Any, source: str = "<samples>") -> RawSamples:
    """The :class:`RawSamples` of an in-memory object (see :func:`samples_from`)."""
    if hasattr(obj, "record") and hasattr(obj, "variables") and hasattr(obj, "vartype"):
        from .sampleset import from_sampleset

        return from_sampleset(obj)
    if type(obj).__module__.startswith(("ommx", "builtins")) and type(obj).__name__ in ("SampleSet", "Solution"):
        from .ommx import loads  # an ommx.v1.SampleSet / Solution (or its Rust core)

        return loads(obj.to_bytes(), source=source)
    if hasattr(obj, "var_count") and hasattr(obj, "model_var") and hasattr(obj, "get"):
        n = int(obj.var_count)
        variables = [obj.model_var(i) for i in range(n)]
        return RawSamples(maps=[{str(v): int(obj.get(v)) for v in variables}], vartype="BINARY")
    if isinstance(obj, Mapping) and obj.get("type") in ("SampleSet", "Response") and "variable_labels" in obj:
        from .sampleset import from_serializable  # SampleSet.to_serializable(), not a label map

        return from_serializable(dict(obj), source)
    if isinstance(obj, Mapping):
        return RawSamples(maps=[obj])
    if isinstance(obj, (list, tuple)) and obj and all(isinstance(o, Mapping) for o in obj):
        return RawSamples(maps=list(obj))
    try:
        arr = np.asarray(obj)
    except (ValueError, TypeError):
        arr = None
    if arr is None or arr.dtype == object or arr.ndim not in (1, 2):
        raise SampleError(
            f"{source}: cannot read samples from a {type(obj).__name__}; give a SampleSet, a "
            "{label: value} dict, or vectors of 0/1 in the model's variable order"
        )
    return RawSamples(values=arr if arr.ndim == 2 else arr[None, :])
