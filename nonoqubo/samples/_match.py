"""Matching a reader's samples to a model: the one :func:`match` of every answer, whatever its format.

A format's ``loads`` only reads its file's grammar and returns a
:class:`~nonoqubo.samples.RawSamples`; :func:`match` does the rest, once for every format, so
every reader gives the same errors.  Pictures (``grids``, a CP solver's answers) are first
encoded through the puzzle's layout (:mod:`._grid`); samples keyed by label (``maps``) and
labelled columns are put in the model's variable order (each label read by :mod:`._labels`),
integer labels and unlabelled vectors by position, and every length is checked; a ``sparse``
answer (a MIP solution file) leaves the variables it does not list at 0.  The values become 0/1
bits: spins -1/+1 are read as ``x = (1 + s) / 2``, recognised by a ``-1`` (or by the file's
vartype, or forced by ``spin=True``).  A model with no variables (presolve fixed them all) takes
an answer with no samples as its one empty sample.  The result is a
:class:`~nonoqubo.samples.SampleBatch`.

Examples:
    >>> match(RawSamples(maps=[{"b": 1, "a": -1}]), ["a", "b"]).bits.tolist()
    [[0, 1]]
    >>> match(RawSamples(values=[[0, 1, 1]]), ["a", "b"])
    Traceback (most recent call last):
    ...
    nonoqubo.errors.SampleError: <samples>: sample 0 has 3 values but the model has 2 variables
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import SampleError
from ._batch import SampleBatch
from ._labels import key_columns, label_keys, missing_message
from ._raw import RawSamples

__all__ = ["match"]


def match(raw: RawSamples, labels: Sequence[str], *, spin: bool | None = None,
          fixed: Mapping[str, int] | None = None, source: str = "<samples>", puzzle: Any = None,
          encoding: Any = None) -> SampleBatch:
    """Match *raw* samples to the model's *labels*; checks everything (see :func:`~nonoqubo.samples.read_samples`).

    Pictures (``raw.grids``) are encoded first, in the model's *encoding* (an
    :class:`~nonoqubo.model.encodings.Encoding`; None: the default, as for bare clues).
    """
    if raw.grids is not None:
        raw = _from_grids(raw, puzzle, source, encoding)
    labels = list(labels)
    n = len(labels)
    index = dict(zip(labels, range(n)))
    fixed = dict(fixed or {})
    notes: list[str] = []
    if n == 0 and _no_samples(raw):  # a model presolved to nothing: its one sample is the empty one
        raw = RawSamples(maps=[{}], energies=raw.energies if _size(raw.energies) == 1 else None,
                         vartype="BINARY", offset_excluded=raw.offset_excluded)
    if raw.maps is not None:
        values = _from_maps(raw.maps, labels, index, fixed, source, sparse=raw.sparse, notes=notes)
    else:
        if isinstance(raw.values, list):  # rows of a text file, maybe ragged
            if raw.labels is None:
                for s, row in enumerate(raw.values):
                    if len(row) != n:
                        raise SampleError(
                            f"{source}: sample {s} has {len(row)} values but the model has "
                            f"{n} variables"
                        )
            if len({len(row) for row in raw.values}) > 1:
                raise SampleError(f"{source}: the samples do not all have the same length")
            values = np.asarray(raw.values)
        else:
            values = np.asarray(raw.values)
        if values.ndim == 1:
            values = values[None, :]
        if values.ndim != 2:
            raise SampleError(f"{source}: samples must be vectors, got an array of shape {values.shape}")
        if raw.labels is not None and not all(_is_index_label(v) for v in raw.labels):
            values = _reorder(values, raw.labels, labels, index, fixed, source, sparse=raw.sparse, notes=notes)
        elif raw.labels is not None:  # integer labels: positions in the variable order
            names = []
            for pos in raw.labels:
                if not 0 <= int(pos) < n:
                    raise SampleError(
                        f"{source}: sample 1 has unknown variable index {int(pos)} "
                        f"(the model's variables are 0..{n - 1})"
                    )
                names.append(labels[int(pos)])
            values = _reorder(values, names, labels, index, fixed, source, sparse=raw.sparse, notes=notes)
        if values.shape[1] != n:
            s = 0
            raise SampleError(
                f"{source}: sample {s} has {values.shape[1]} values but the model has "
                f"{n} variables"
            )
    bits, is_spin = _to_bits(values, labels, raw.vartype, spin, source)
    return SampleBatch(
        bits=bits, labels=labels,
        energies=None if raw.energies is None else np.asarray(raw.energies, dtype=np.float64),
        num_occurrences=None if raw.num_occurrences is None else np.asarray(raw.num_occurrences, dtype=np.int64),
        spin=is_spin, source=source,
        extra={**({"offset_excluded": True} if raw.offset_excluded else {}),
               **({"notes": list(dict.fromkeys(notes))} if notes else {})},
    ).counted()  # a row counted 0 times is no sample


def _from_grids(raw: RawSamples, puzzle: Any, source: str, encoding: Any = None) -> RawSamples:
    """The pictures of *raw* as labelled samples of the full layout (what the fixed variables are too)."""
    from ._grid import assignments

    if puzzle is None:
        raise SampleError(f"{source}: the answers are pictures, which need the puzzle's clues to decode; "
                          "decode them against the model file or the clue file")
    if not raw.grids:
        raise SampleError(f"{source}: no samples")
    bits, full = assignments(puzzle, raw.grids, source, encoding)
    return RawSamples(values=bits, labels=full, energies=raw.energies, vartype="BINARY")


def _size(seq: Any) -> int:
    return 0 if seq is None else len(seq)


def _no_samples(raw: RawSamples) -> bool:
    """No sample at all (what a solver returns for a model with no variables, e.g. dimod's ExactSolver)."""
    if raw.maps is not None:
        return len(raw.maps) == 0
    if raw.values is None:
        return True
    if isinstance(raw.values, list):
        return len(raw.values) == 0
    values = np.asarray(raw.values)
    return values.ndim == 2 and values.shape[0] == 0


def _is_index_label(label: Any) -> bool:
    return isinstance(label, numbers.Integral) and not isinstance(label, bool)


def _from_maps(maps: list[Mapping[Any, Any]], labels: list[str], index: dict[str, int],
               fixed: Mapping[str, int], source: str, *, sparse: bool = False,
               notes: list[str] | None = None) -> np.ndarray:
    n = len(labels)
    if not maps:
        raise SampleError(f"{source}: no samples")
    values = np.zeros((len(maps), n), dtype=np.float64)
    for s, sample in enumerate(maps):
        if not isinstance(sample, Mapping):
            raise SampleError(f"{source}: sample {s} is not a {{label: value}} object")
        keys = label_keys(sample)
        cols_arr = key_columns(keys, index, fixed, labels, source, s, notes)
        row = values[s]
        try:
            vals = np.array([_number(v) for v in sample.values()], dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise SampleError(f"{source}: sample {s}: {exc}") from None
        keep = cols_arr >= 0
        seen = np.zeros(n, bool)
        seen[cols_arr[keep]] = True
        row[cols_arr[keep]] = vals[keep]
        if keep.sum() != seen.sum():
            raise SampleError(f"{source}: sample {s} gives a variable twice (as y0[0][1] and y0_0_1?)")
        if not sparse and not seen.all():
            raise SampleError(missing_message(source, s, [labels[i] for i in np.flatnonzero(~seen)]))
    return values


#: NumPy's kinds of value that are no samples, what a message calls them (strings and objects are read as text)
_NOT_NUMBERS = {"c": "complex numbers", "m": "time spans", "M": "dates", "V": "raw records"}


def _number(v: Any) -> float:
    if isinstance(v, (bool, np.bool_)):
        return float(v)
    if isinstance(v, numbers.Complex) and not isinstance(v, numbers.Real):  # float() would drop the imaginary part
        raise ValueError(f"{v!r} is a complex number, not 0 or 1")
    if isinstance(v, numbers.Number):
        return float(v)  # type: ignore[arg-type]
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            pass
    raise ValueError(f"{v!r} is not a number")


def _reorder(values: np.ndarray, raw_labels: Sequence[Any], labels: list[str],
             index: dict[str, int], fixed: Mapping[str, int], source: str, *,
             sparse: bool = False, notes: list[str] | None = None) -> np.ndarray:
    keys = label_keys(raw_labels)
    cols = key_columns(keys, index, fixed, labels, source, 0, notes)
    keep = cols >= 0
    seen = np.zeros(len(labels), bool)
    seen[cols[keep]] = True
    if keep.sum() != seen.sum():
        raise SampleError(f"{source}: the samples give a variable twice (as y0[0][1] and y0_0_1?)")
    if not sparse and not seen.all():
        raise SampleError(missing_message(source, 0, [labels[i] for i in np.flatnonzero(~seen)]))
    out = np.zeros((values.shape[0], len(labels)), dtype=values.dtype)
    out[:, cols[keep]] = values[:, keep]
    return out


def _to_bits(values: np.ndarray, labels: list[str], vartype: str | None, spin: bool | None,
             source: str) -> tuple[np.ndarray, bool]:
    """0/1 int8 bits of *values*, converting spins; one clear error for a bad value."""
    if values.shape[0] == 0:
        raise SampleError(f"{source}: no samples")
    if values.dtype == bool:
        values = values.astype(np.int8)
    if values.dtype.kind in _NOT_NUMBERS:  # complex (its imaginary part would be dropped), dates, raw bytes
        raise SampleError(f"{source}: sample values must be 0 or 1 (or spins -1/+1): integers, booleans or floats, "
                          f"not {_NOT_NUMBERS[values.dtype.kind]} ({values.dtype})")
    if values.dtype.kind not in "iuf":
        try:
            values = values.astype(np.float64)
        except (TypeError, ValueError):
            raise SampleError(f"{source}: sample values must be numbers") from None
    is_spin: bool
    if spin is not None:
        is_spin = bool(spin)
    elif vartype is not None:
        is_spin = vartype.upper() == "SPIN"
    else:
        is_spin = bool((values == -1).any())
    allowed = (-1, 1) if is_spin else (0, 1)
    bad = ~np.isin(values, allowed)
    if bad.any():
        s, i = (int(v) for v in np.argwhere(bad)[0])
        v = values[s, i]
        shown = int(v) if float(v).is_integer() else float(v)
        if is_spin:
            why = "spins must be -1 or +1" + (" (0 and -1 are mixed)" if v == 0 else "")
        else:
            why = "values must be 0 or 1 (or spins -1/+1)"
        raise SampleError(f"{source}: sample {s}, variable {labels[i]!r}: value {shown!r}: {why}")
    bits = ((values + 1) // 2 if is_spin else values).astype(np.int8)
    return bits, is_spin
