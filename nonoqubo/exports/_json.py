"""JSON pieces shared by the JSON export formats (qubo-json, bqm-json)."""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from .._util.guard import json_loads
from . import _text

__all__ = ["array", "compact", "parse"]


def array(values: np.ndarray, tick_rows: bool = False):
    """A JSON array of numbers as ``(text, rows)`` chunks (integers bare, quarters as decimals)."""
    num, den = _text.rational(values)
    if not num.size:
        yield "[]", 0
        return
    yield "[", 0
    held = None  # each chunk is held back one step: the last one loses its trailing comma
    for part, rows in _text.data_chunks([num], [den], end=","):
        if held is not None:
            yield held
        held = part, (rows if tick_rows else 0)
    if held is not None:
        yield held[0][:-1], held[1]
    yield "]", 0


def compact(value: Any) -> str:
    """*value* as JSON with no spaces (non-ASCII kept)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def parse(data: str | bytes, source: str) -> Any:
    """``json.loads`` with a located FormatError."""
    return json_loads(data, source)
