"""Plain values for JSON: what a sampler or a QPU returns, made writable as it is.

This module owns :func:`json_safe`, the one conversion of what a solver library hands back (NumPy
scalars and arrays, tuples, functions named in an ``info`` dict) into the values a JSON document
holds, so a run record or a SampleSet's ``info`` is written whatever the library put in it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["json_safe"]


def json_safe(value: Any) -> Any:
    """*value* with NumPy scalars and arrays made plain Python (lists, ints, floats), for JSON;
    keys become strings, tuples lists, and anything else JSON cannot hold (a function, as a
    sampler's ``chain_break_method``) its name, or its ``str``.

    Examples:
        >>> json_safe({"beta": np.float64(0.5), "range": np.array([1, 2]), "name": "sa"})
        {'beta': 0.5, 'range': [1, 2], 'name': 'sa'}
        >>> json_safe({"method": len, 3: (1, None)})
        {'method': 'len', '3': [1, None]}
    """
    if isinstance(value, Mapping):
        return {str(k): json_safe(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_safe(v) for v in value]
    if isinstance(value, np.ndarray):
        return json_safe(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (str, int, float)):
        return value
    return getattr(value, "__name__", str(value))
