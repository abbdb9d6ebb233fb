"""Solver answers: the registry of answer (samples) formats, and the reading of an answer.

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
(labels or positions, 0/1 or spins, lengths) is done once for every format, by
:func:`match`, so every reader gives the same errors.  Adding a format is adding a
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

Labels are matched as written (``y0[0][1]``), in the flat spelling of LP files
(``y0_0_1``) or, with a note (``SampleBatch.extra["notes"]``, printed by
``decode``), as other programs write them (qiskit-optimization's ``y_0_0_1``,
HiGHS's ``c0, c1, ...``, the OMMX adapters' ids).  Values may be 0/1 or spins
-1/+1 (``x = (1 + s) / 2``); spins are recognised by a ``-1`` (or by the vartype,
or forced by ``spin=True``).

This module is the registry (:func:`formats`, :func:`get_format`, the sniffing)
and the reading of an answer: ``read_*`` take a file, ``parse_*`` its text;
``*_raw`` stop at the reader's :class:`RawSamples`, ``*_samples`` go on to a
:class:`SampleBatch`.  Each other thing is a private module of its own,
re-exported here (the rest of nonoqubo imports this package, not them):

* ``_raw``: :class:`RawSamples`, what a reader returns, and the checks the readers share;
* ``_match``: :func:`match`, a reader's samples matched to the model's variables;
* ``_labels``: every program's spelling of a label, read as the model's column;
* ``_batch``: :class:`SampleBatch`, what every answer becomes;
* ``_in_memory``: :func:`samples_from`, samples from objects in memory (SampleSets, dicts, vectors);
* ``_record``: the run record an answer carries (``solve -o``'s ``info["nonoqubo"]``): :func:`the_record`,
  :func:`record_of`, and :func:`recorded_model`, the model it names (``decode`` builds it, ``evaluate``
  scores against it);
* ``_grid``: pictures as the layout's variables; ``_mip``: what the MIP solution readers share;
  ``_defaults``: the protocol values most formats share.

Examples:
    >>> batch = parse_samples("0110\\n1111", ["a", "b", "c", "d"])
    >>> batch.bits.tolist()
    [[0, 1, 1, 0], [1, 1, 1, 1]]
    >>> parse_samples('{"b": 1, "a": -1}', ["a", "b"]).bits.tolist()
    [[0, 1]]
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

from .._util import text as _textio
from .._util.discover import find, registry
from .._util.stream import read_bytes
from ._batch import SampleBatch
from ._in_memory import raw_from_object, samples_from
from ._labels import AUXILIARY
from ._match import match
from ._raw import RawSamples, checked_occurrences, loads_json  # loads_json: for readers written against the old layout
from ._record import (RUN_IDENTITY, RecordedModel, key_of, record_of, recorded_model, run_records, searched_text,
                      setting_of, the_record)
from ..errors import SampleError, UnsupportedFormat

__all__ = ["AUXILIARY", "RUN_IDENTITY", "SNIFF", "RawSamples", "RecordedModel", "SampleBatch", "checked_occurrences",
           "formats", "get_format", "key_of", "loads_json", "match", "parse_raw", "parse_samples", "raw_from_bytes",
           "raw_from_object", "read_raw", "read_samples", "record_of", "recorded_model", "run_records", "samples_from",
           "searched_text", "setting_of", "the_record"]


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
    return raw_from_bytes(read_bytes(path, src), format=format, source=src, empty_ok=empty_ok)  # a FIFO read once


def raw_from_bytes(data: bytes, *, format: str | None = None, source: str = "<samples>",
                   empty_ok: bool = False) -> tuple[RawSamples, str]:
    """The samples in a file's bytes *data*, read as :func:`read_raw` reads a file named *source*.

    For a caller that has the bytes already (``decode`` reads a file once: its run record, then its
    samples, from the same bytes; a FIFO cannot be read twice).
    """
    src = source
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
