"""Which model variable each label of an answer names: every program's spelling, read in one place.

A format module hands on the labels its file wrote, as written; :func:`key_columns` turns them
into the model's columns for every format alike (:func:`nonoqubo.samples.match` calls it), so
every reader gives the same errors.  Labels are matched as written (``y0[0][1]``) or in the flat
spelling of LP files (``y0_0_1``; :func:`label_keys` rewrites it).  Other programs' spellings are
read with a note (``SampleBatch.extra["notes"]``, printed by ``decode``): ``y_0_0_1`` (the OMMX
name and subscripts, qiskit-optimization), names by position when no name is the model's (HiGHS's
``c0, c1, ...``, the OMMX adapters' ids ``0, 1, ...``: nonoqubo's variable order), and
:data:`AUXILIARY` (the OMMX SCIP adapter's) and a bare ``0`` (Amplify's LP objective constant) are
ignored.  A label the model lacks is one error line, which says so when the labels are another
puzzle's (and which size they fit); a variable a sample lacks is :func:`missing_message`'s line.

Examples:
    >>> label_keys(["y0_0_1", "y0[0][1]", 3])
    ['y0[0][1]', 'y0[0][1]', 3]
    >>> notes = []
    >>> key_columns(["c1", "c0"], {"a": 0, "b": 1}, {}, ["a", "b"], "s.sol", 0, notes).tolist()
    [1, 0]
    >>> print(notes[0])
    s.sol: its columns are named by position (c0, c1, ...: HiGHS was given the model without names); read as the model's variables in order
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import SampleError
from ..model.encoding import bracket_name

__all__ = ["AUXILIARY", "key_columns", "label_keys", "missing_message"]

#: more label problems than this are summarised as "... and N more"
_SHOW = 3


def _label_key(label: Any) -> Any:
    """Labels as the model spells them: flat ``y0_0_1`` becomes ``y0[0][1]``."""
    return bracket_name(label) if isinstance(label, str) else label


#: a flat label whose bracketed form is a plain rewrite (ASCII digits, no leading zeros)
_PLAIN_FLAT = re.compile(r"[yz](?:0|[1-9][0-9]*)_(?:0|[1-9][0-9]*)_(?:0|[1-9][0-9]*)")


def label_keys(labels: Iterable[Any]) -> list[Any]:
    """:func:`_label_key` of many labels: the common ``y0_0_1`` is rewritten with two
    string replaces (about 3x faster than parsing it); anything else is parsed."""
    plain = _PLAIN_FLAT.fullmatch
    return [k.replace("_", "[", 1).replace("_", "][") + "]" if isinstance(k, str) and plain(k) else _label_key(k)
            for k in labels]


def _lookup(index: dict[str, int], keys: list[Any]) -> np.ndarray:
    """Positions of *keys* in *index* (-1 where absent), int64."""
    return np.fromiter(map(index.get, keys, itertools.repeat(-1)), np.int64, len(keys))


def _name_list(names: list[Any]) -> str:
    more = f" and {len(names) - _SHOW} more" if len(names) > _SHOW else ""
    return ", ".join(repr(m) for m in names[:_SHOW]) + more


def missing_message(source: str, s: int, missing: list[str]) -> str:
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


def key_columns(keys: list[Any], index: dict[str, int], fixed: Mapping[str, int], labels: list[str],
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
