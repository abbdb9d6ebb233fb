"""Solver samples -> a 0/1 matrix in the model's variable order.

A solver answers with bits, in one of many shapes.  Each *sample format* is a
module of this package (found by discovery; names starting with ``_`` are
skipped).  The protocol every format module follows, with the names it must
define, is documented once in :mod:`nonoqubo._util.discover`; a sample format
module defines the common names and::

    def detect(head: bytes) -> bool               # does this content look like it?
    def loads(data, *, source: str) -> RawSamples # str, or bytes when BINARY

Formats are tried in ``ORDER``.  A file with a NUL byte in its first 4 kB is
offered, whole, to the ``BINARY`` formats (OMMX's protobuf answers); any other
to the text formats, whose ``detect`` gets its first :data:`SNIFF` bytes, and
whose ``loads`` gets its text from :func:`nonoqubo._util.text.decode` (UTF-8,
else the module's ``LEGACY_ENCODING``, Latin-1 for the text formats).

``loads`` only reads the file's grammar; matching the values to the model
(labels or positions, 0/1 or spins, lengths) is done once, here, for every
format, so every reader gives the same errors.  Adding a format is adding a
module: ``nonoqubo/samples/highs.py`` with those names is picked up with
no change to this file.

A :class:`RawSamples` holds either

* ``maps``: one ``{label: value}`` dict per sample (label-keyed formats), or
* ``values``: an ``(S, M)`` array, with ``labels`` naming its columns or
  ``labels=None`` meaning "nonoqubo's variable order" (index-ordered vectors);
  integer labels are positions in that order too,

plus the ``energies`` and ``num_occurrences`` the file carried, and its
``vartype`` (``"BINARY"``, ``"SPIN"`` or ``None`` for "look at the values").
``sparse=True`` says a variable the file leaves out is 0 (MIP solution files
list only the nonzero ones); ``offset_excluded=True`` says the file's energies
lack the model's offset (qbsolv, MQLib), which the decoder then adds.  A model
with no variables (presolve fixed them all) takes an empty file, or a file with
no samples, as its one empty sample.

Labels are matched as written (``y0[0][1]``) or in the flat spelling of LP
files (``y0_0_1``).  Other programs' spellings are read with a note
(``SampleBatch.extra["notes"]``, printed by ``decode``): ``y_0_0_1`` (the OMMX name and
subscripts, qiskit-optimization), names by position when no name is the model's
(HiGHS's ``c0, c1, ...``, the OMMX adapters' ids ``0, 1, ...``: nonoqubo's
variable order), and ``auxiliary_for_linearized_objective`` (the OMMX SCIP
adapter's) and a bare ``0`` (Amplify's LP objective constant) are ignored.  Values may be 0/1 or spins -1/+1 (``x = (1 + s) / 2``);
spins are recognised by a ``-1`` (or by the vartype, or forced by ``spin=True``).

Examples:
    >>> batch = parse_samples("0110\\n1111", ["a", "b", "c", "d"])
    >>> batch.bits.tolist()
    [[0, 1, 1, 0], [1, 1, 1, 1]]
    >>> parse_samples('{"b": 1, "a": -1}', ["a", "b"]).bits.tolist()
    [[0, 1]]
"""

from __future__ import annotations

import itertools
import numbers
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from .._util import text as _textio
from .._util.discover import find, registry
from ._batch import SampleBatch
from ._raw import RawSamples, checked_occurrences, loads_json  # noqa: F401  (loads_json: for readers written against the old layout)
from ..model.encoding import bracket_name
from ..errors import SampleError, UnsupportedFormat

__all__ = ["RawSamples", "SampleBatch", "checked_occurrences", "formats", "get_format", "parse_raw", "parse_samples",
           "read_raw", "read_samples", "samples_from"]

#: more label problems than this are summarised as "... and N more"
_SHOW = 3


# -- the registry ------------------------------------------------------------------------------
#: bytes of a text answer handed to the formats' detect() (every detector looks at less text)
SNIFF = 4 << 20


def formats() -> dict[str, ModuleType]:
    """Every sample format module, by NAME, in detection order."""
    return {m.NAME: m for m in registry(__name__)}


def get_format(name: str) -> ModuleType:
    """The module of sample format *name* (a ``NAME`` or one of a module's ``ALIASES``).

    Raises:
        UnsupportedFormat: unknown name (the message lists the known ones).
    """
    mod = find(registry(__name__), name)
    if mod is None:
        raise UnsupportedFormat(f"unknown samples format {name!r}; known formats: {', '.join(formats())}")
    return mod


def _detect(data: str | bytes, source: str) -> ModuleType:
    """The text format whose ``detect`` recognises *data* (text, or the bytes of a text file)."""
    head = data[:SNIFF] if isinstance(data, bytes) else data[:SNIFF].encode("utf-8", "replace")
    for mod in registry(__name__):
        if not mod.BINARY and mod.detect(head):
            return mod
    raise UnsupportedFormat(
        f"{source}: cannot tell the samples format from the content; name it with "
        f"--samples-format (one of: {', '.join(formats())})"
    )


def _binary_format(data: bytes, format: str | None) -> ModuleType | None:
    """The ``BINARY`` format module that reads *data*, or None for text.

    Named with *format*, or recognised by a binary module's ``detect(data)`` when the
    file is binary (a NUL byte in its first 4 kB).
    """
    if format:
        mod = get_format(format)
        return mod if mod.BINARY else None
    if b"\x00" not in data[:_textio.BINARY_PROBE]:
        return None
    return next((mod for mod in registry(__name__) if mod.BINARY and mod.detect(data)), None)


# -- entry points ------------------------------------------------------------------------------
# Two roads, as networkx's read_*/parse_*: read_* take a file (a path, never text: a name that is not
# a file is "No such file", not samples), parse_* take the content itself.
def read_samples(
    path: str | os.PathLike[str],
    labels: Sequence[str],
    *,
    format: str | None = None,
    spin: bool | None = None,
    fixed: Mapping[str, int] | None = None,
    source: str | None = None,
    puzzle: Any = None,
    encoding: Any = None,
) -> SampleBatch:
    """Read the samples file *path*, matched to *labels*.

    Args:
        path: the file (a ``str`` is always a path; :func:`parse_samples` reads text).
        labels: the model's variable labels, in its variable order.
        format: a sample format name; detected from the content when None.
        spin: True: values are spins (-1/+1); False: 0/1; None: detect.
        fixed: labels fixed out of the model (tolerated in label maps, ignored).
        source: a name for messages (default: the path).
        puzzle: the model's puzzle, which answers given as pictures (MiniZinc's) need.
        encoding: the model's encoding (an :class:`~nonoqubo.model.encodings.Encoding`; None: the
            default), which pictures are encoded in.

    Returns:
        The samples as a :class:`SampleBatch`.

    Raises:
        SampleError: a sample lacks variables, names unknown ones, has values
            other than 0/1 or -1/+1, or has the wrong length.
        UnsupportedFormat: the format cannot be told or is unknown.
        FormatError: the file is not valid in its format.
        OSError: the file cannot be read (``FileNotFoundError`` names a missing one).
    """
    raw, src = read_raw(path, format=format, source=source, empty_ok=not labels)
    return match(raw, labels, spin=spin, fixed=fixed, source=src, puzzle=puzzle, encoding=encoding)


def parse_samples(
    text: str,
    labels: Sequence[str],
    *,
    format: str | None = None,
    spin: bool | None = None,
    fixed: Mapping[str, int] | None = None,
    source: str = "<samples>",
    puzzle: Any = None,
    encoding: Any = None,
) -> SampleBatch:
    """The samples in *text* (the content of a samples file), matched to *labels*.

    The arguments and errors are :func:`read_samples`'s; *source* names the text in messages.
    """
    raw, src = parse_raw(text, format=format, source=source, empty_ok=not labels)
    return match(raw, labels, spin=spin, fixed=fixed, source=src, puzzle=puzzle, encoding=encoding)


def read_raw(path: str | os.PathLike[str], *, format: str | None = None, source: str | None = None,
             empty_ok: bool = False) -> tuple[RawSamples, str]:
    """The samples of the file *path* as its format reads them, not yet matched to a model, and their source name.

    :func:`read_samples` without the matching (see it for the arguments); *empty_ok*: an empty
    file is one empty sample (a model with no variables).  Samples labelled by something other
    than the model's variables (``decode --embedding``: qubits) are matched by the caller.
    """
    path = os.fspath(path)
    src = source or path
    data = Path(path).read_bytes()
    binary = _binary_format(data, format)
    if binary is not None:
        return binary.loads(data, source=src), src
    mod = get_format(format) if format else None
    text_file = b"\x00" not in data[:_textio.BINARY_PROBE]
    if empty_ok and text_file and not _textio.head_text(data).strip():  # an empty answer, no variables
        return RawSamples(maps=[{}]), src
    if mod is None and text_file:
        mod = _detect(data, src)
    text = _textio.decode(data, src, what="samples file", error=SampleError,
                          legacy=mod.LEGACY_ENCODING if mod is not None else None)
    assert mod is not None  # mod is None only for a binary file, which decode refused
    return mod.loads(text, source=src), src


def parse_raw(text: str, *, format: str | None = None, source: str = "<samples>",
              empty_ok: bool = False) -> tuple[RawSamples, str]:
    """The samples in *text* as their format reads them, not yet matched (see :func:`read_raw`)."""
    if not isinstance(text, str):
        raise TypeError(f"parse_raw takes the samples' text, not a {type(text).__name__}; read a file with read_raw")
    if not text.strip() and empty_ok:  # an empty answer for a model with no variables
        return RawSamples(maps=[{}]), source
    mod = get_format(format) if format else _detect(text, source)
    return mod.loads(text, source=source), source


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
        return obj
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


# -- matching raw samples to the model ---------------------------------------------------------
def _label_key(label: Any) -> Any:
    """Labels as the model spells them: flat ``y0_0_1`` becomes ``y0[0][1]``."""
    return bracket_name(label) if isinstance(label, str) else label


#: a flat label whose bracketed form is a plain rewrite (ASCII digits, no leading zeros)
_PLAIN_FLAT = re.compile(r"[yz](?:0|[1-9][0-9]*)_(?:0|[1-9][0-9]*)_(?:0|[1-9][0-9]*)")


def _label_keys(labels: Iterable[Any]) -> list[Any]:
    """:func:`_label_key` of many labels: the common ``y0_0_1`` is rewritten with two
    string replaces (about 3x faster than parsing it); anything else is parsed."""
    plain = _PLAIN_FLAT.fullmatch
    return [k.replace("_", "[", 1).replace("_", "][") + "]" if isinstance(k, str) and plain(k) else _label_key(k)
            for k in labels]


def _lookup(index: dict[str, int], keys: list[Any]) -> np.ndarray:
    """Positions of *keys* in *index* (-1 where absent), int64."""
    return np.fromiter(map(index.get, keys, itertools.repeat(-1)), np.int64, len(keys))


def _is_index_label(label: Any) -> bool:
    return isinstance(label, numbers.Integral) and not isinstance(label, bool)


def match(raw: RawSamples, labels: Sequence[str], *, spin: bool | None = None,
          fixed: Mapping[str, int] | None = None, source: str = "<samples>", puzzle: Any = None,
          encoding: Any = None) -> SampleBatch:
    """Match *raw* samples to the model's *labels*; checks everything (see :func:`read_samples`).

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
    )


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


def _name_list(names: list[Any]) -> str:
    more = f" and {len(names) - _SHOW} more" if len(names) > _SHOW else ""
    return ", ".join(repr(m) for m in names[:_SHOW]) + more


def _missing_message(source: str, s: int, missing: list[str]) -> str:
    return f"{source}: sample {s} lacks variable {_name_list(missing)}"


def _unknown_message(source: str, s: int, unknown: list[Any], keys: Sequence[Any] = (),
                     labels: Sequence[str] = ()) -> str:
    """The line for labels the model lacks; when they are another puzzle's, it says so and which size they fit.

    Examples:
        >>> _unknown_message("s.json", 0, ["y7[0][0]"], ["y0[0][0]", "y7[0][0]", "z9[0][0]"], ["y0[0][0]", "z0[0][0]"])
        "s.json: sample 0 holds another puzzle's variables ('y7[0][0]'): its labels name rows up to 8 and columns up to 10 (a puzzle of at least 10 x 8, width x height), this model's name rows up to 1 and columns up to 1"
    """
    theirs, ours = _lines_named(keys), _lines_named(labels)
    if theirs is not None and ours is not None and theirs != ours:
        (rows, cols), (h, w) = theirs, ours
        return (f"{source}: sample {s} holds another puzzle's variables ({_name_list(unknown)}): its labels name "
                f"rows up to {rows} and columns up to {cols} (a puzzle of at least {cols} x {rows}, width x height), "
                f"this model's name rows up to {h} and columns up to {w}")
    if keys and 2 * len(unknown) > len(keys):
        return (f"{source}: sample {s} has unknown variable {_name_list(unknown)}: {len(unknown)} of its "
                f"{len(keys)} labels are not this model's, so the samples are another puzzle's or another "
                "encoding's (labels are y{i}[k][p] / z{j}[k][p], or y{i}_k_p)")
    return (f"{source}: sample {s} has unknown variable {_name_list(unknown)} "
            "(labels are y{i}[k][p] / z{j}[k][p], or y{i}_k_p)")


#: ``y3[0][1]`` (row 3), ``z2[1][0]`` (column 2): the domain wall's labels, by line
_LINE_LABEL = re.compile(r"([yz])(0|[1-9][0-9]{0,5})\[")


def _lines_named(labels: Iterable[Any]) -> tuple[int, int] | None:
    """``(rows, columns)`` the domain-wall labels among *labels* name (the largest index + 1), or None."""
    most = {"y": 0, "z": 0}
    for label in labels:
        m = _LINE_LABEL.match(label) if isinstance(label, str) else None
        if m:
            most[m.group(1)] = max(most[m.group(1)], int(m.group(2)) + 1)
    return (most["y"], most["z"]) if most["y"] and most["z"] else None


#: the column the OMMX SCIP adapter adds for a quadratic objective (SCIP takes linear objectives only)
AUXILIARY = "auxiliary_for_linearized_objective"
#: ``y_0_0_0``: the OMMX name ``y`` and subscripts ``[i, k, p]`` joined by ``_`` (qiskit-optimization,
#: ommx-qiskit-opt-mapper-adapter)
_SUBSCRIPTED = re.compile(r"([yz])_(0|[1-9][0-9]*)_(0|[1-9][0-9]*)_(0|[1-9][0-9]*)")
#: columns named by position: HiGHS's ``c0, c1, ...`` (a model given without names), OMMX ids ``0, 8, 18``
_POSITION = {"HiGHS": re.compile(r"c(0|[1-9][0-9]*)"), "OMMX": re.compile(r"0|[1-9][0-9]*")}
_POSITION_NOTE = {
    "HiGHS": "its columns are named by position (c0, c1, ...: HiGHS was given the model without names); "
             "read as the model's variables in order",
    "OMMX": "its variables are named by OMMX id (0, 1, ...: the OMMX adapters' names); "
            "read as the model's variables in order (ids are nonoqubo's variable order)",
}


def _columns(keys: list[Any], index: dict[str, int], fixed: Mapping[str, int], labels: list[str],
             source: str, s: int, notes: list[str] | None) -> np.ndarray:
    """The model position of every key: -2 for a key that is ignored (fixed, or a known stray).

    Keys the model lacks are read the ways other programs write them, each with a note:
    ``y_0_0_0`` (OMMX name and subscripts), positions (``c0`` of HiGHS, OMMX ids ``0``),
    :data:`AUXILIARY` and a bare ``0`` (a constant, left by Amplify's LP round trip) ignored.

    Raises:
        SampleError: a key that is none of these (the message names it).
    """
    cols = _lookup(index, keys)
    lost = np.flatnonzero(cols < 0).tolist()
    if not lost:
        return cols
    said = notes if notes is not None else []
    rest = []
    for i in lost:
        key = keys[i]
        if key in fixed:
            cols[i] = -2
        elif key == AUXILIARY:
            cols[i] = -2
            said.append(f"{source}: the column {AUXILIARY!r} (the OMMX SCIP adapter's, for a quadratic "
                        "objective) is not a model variable: ignored")
        else:
            rest.append(i)
    if not rest:
        return cols
    named = int((cols >= 0).sum())
    if named == 0 and all(isinstance(keys[i], str) for i in rest):
        for who, pattern in _POSITION.items():
            found = [m for i in rest if (m := pattern.fullmatch(keys[i])) is not None]
            if len(found) == len(rest):
                n = len(labels)
                for i, m in zip(rest, found):
                    digits = m.group(1) if m.groups() else m.group(0)
                    pos = int(digits) if len(digits) <= 18 else n  # int() of 5,000 digits is Python's error
                    if pos >= n:
                        raise SampleError(f"{source}: sample {s} has variable {keys[i][:30]!r}, position "
                                          f"{pos if len(digits) <= 18 else digits[:18] + '...'}, but the "
                                          f"model's variables are 0..{n - 1}")
                    cols[i] = pos
                said.append(f"{source}: {_POSITION_NOTE[who]}")
                return cols
    unknown = []
    for i in rest:
        key = keys[i]
        m = _SUBSCRIPTED.fullmatch(key) if isinstance(key, str) else None
        pos = index.get(f"{m.group(1)}{m.group(2)}[{m.group(3)}][{m.group(4)}]", -1) if m else -1
        if pos >= 0:
            cols[i] = pos
            said.append(f"{source}: labels such as 'y_0_0_0' (the OMMX name and subscripts joined by '_', "
                        "as qiskit-optimization writes them) read as y{i}[k][p] / z{j}[k][p]")
        elif m is None and named and key == "0":
            cols[i] = -2
            said.append(f"{source}: the variable '0' is not a model variable (a constant, as Amplify's "
                        "LP round trip leaves it): ignored")
        elif m is not None and f"{m.group(1)}{m.group(2)}[{m.group(3)}][{m.group(4)}]" in fixed:
            cols[i] = -2
        else:
            unknown.append(key)
    if unknown:
        raise SampleError(_unknown_message(source, s, unknown, keys, labels))
    return cols


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
        keys = _label_keys(sample)
        cols_arr = _columns(keys, index, fixed, labels, source, s, notes)
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
            raise SampleError(_missing_message(source, s, [labels[i] for i in np.flatnonzero(~seen)]))
    return values


def _number(v: Any) -> float:
    if isinstance(v, bool):
        return float(v)
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
    keys = _label_keys(raw_labels)
    cols = _columns(keys, index, fixed, labels, source, 0, notes)
    keep = cols >= 0
    seen = np.zeros(len(labels), bool)
    seen[cols[keep]] = True
    if keep.sum() != seen.sum():
        raise SampleError(f"{source}: the samples give a variable twice (as y0[0][1] and y0_0_1?)")
    if not sparse and not seen.all():
        raise SampleError(_missing_message(source, 0, [labels[i] for i in np.flatnonzero(~seen)]))
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
