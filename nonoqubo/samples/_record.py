"""The run record a samples file carries: found in its text, one per file, and the model it names.

``solve -o`` (and ``nonoqubo run``) writes the record of its run into the SampleSet's
``info["nonoqubo"]`` (:func:`nonoqubo.solvers.sampling.run_record`): the sampler, its
``parameters`` (:meth:`~nonoqubo.solvers.request.SolveRequest.parameters`, ``presolve`` among
them) and the ``model`` sampled (its encoding, weights and how many variables presolve fixed).
The record's format is :class:`nonoqubo.records.RunRecord`'s (its version and every field checked);
this module finds it in an answer, shared by everything that reads answers back:

* :func:`searched_text` and :func:`run_records` find the records in a file's text (only those
  objects are parsed, by their key, not the whole file again); :func:`the_record` is a file's one
  record, refusing a file that holds the runs of different *settings* (:func:`setting_of`);
* :func:`record_of` is the record of what ``decode`` is handed: a file, standard input's text, a
  ``dimod.SampleSet`` in memory or its ``to_serializable()`` document;
* :func:`recorded_model` is the model the record names (:class:`RecordedModel`: encoding,
  weights, presolve), which ``decode`` builds and ``evaluate`` scores the run against.

``evaluate``'s grouping by setting (:mod:`nonoqubo.campaign.runs`) takes :func:`setting_of` and
:func:`key_of` from here.  The record lives in the samples layer because every reader of answers
(``decode``, ``evaluate``, a QOBLIB submission) sits below it or beside it.

Examples:
    >>> text = '{"info": {"nonoqubo": {"sampler": "sa", "parameters": {"seed": 1, "presolve": "probe"}, '\\
    ...        '"model": {"encoding": "one-hot", "weights": {"shape": 1, "order": 1, "cell": 5}}}}}'
    >>> model = recorded_model(the_record(text, "w.json"), "w.json")  # a version 1 record: no version
    >>> model.encoding.name, str(model.weights), model.presolve
    ('one-hot', 'shape=1,order=1,cell=5', 'probe')
    >>> model.words()
    'the one-hot model at weights shape=1,order=1,cell=5, presolve probe'
    >>> recorded_model(the_record('{"energy": [0]}', "x.json"), "x.json") is None
    True
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from typing import Any

from .._util.stream import read_bytes
from ..errors import RecordError, SampleError
from ..records import RUN_IDENTITY, RecordedModel, RunRecord, decode_at, quoted

__all__ = ["RUN_IDENTITY", "RecordedModel", "key_of", "record_of", "recorded_model", "run_records", "searched_text",
           "setting_of", "the_record"]

_RUN_KEY = re.compile(r'"nonoqubo"\s*:\s*\{')


def searched_text(data: bytes) -> str:
    """The text a samples file's timing and run record are searched in.

    Not the samples: the samples registry reads those (with each format's own bytes-to-text
    step).  The keys searched for are ASCII, so any byte may stand around them: undecodable bytes
    of a text file become U+FFFD, and a binary file (an archive) is read byte for byte.
    """
    if b"\x00" in data[:4096]:
        return data.decode("latin-1")
    return data.decode("utf-8-sig", errors="replace")


def run_records(text: str, source: str = "<samples>") -> list[RunRecord]:
    """Every run record (an ``info["nonoqubo"]`` object with a ``sampler``) in a file's *text*.

    Only those objects are parsed (found by their key), not the whole file again, each bounded
    (nesting, number sizes) and read by :meth:`RunRecord.from_dict`.

    Raises:
        RecordError: a record nested too deep, or one its format refuses (one line naming *source*).
    """
    out = []
    for m in _RUN_KEY.finditer(text):
        try:
            record, _ = decode_at(text, m.end() - 1, source)
        except RecordError:
            raise
        except ValueError:
            continue
        if isinstance(record, dict) and "sampler" in record:
            out.append(RunRecord.from_dict(record, source))
    return out


def the_record(text: str, source: str) -> RunRecord | None:
    """The one run record of a file, or None when it records none.

    Raises:
        SampleError: the file holds records of different settings (one line naming *source*).
        RecordError: a record its format refuses.
    """
    found = run_records(text, source)
    if not found:
        return None
    kinds = {key_of(setting_of(r, *r.model_words())) for r in found}
    if len(kinds) > 1:
        names = sorted({quoted(r.sampler) for r in found})
        raise SampleError(f"{source}: holds {len(found)} run records of {len(kinds)} different settings "
                          f"(samplers {', '.join(names)}); one file is the runs of one setting: split it")
    return found[0]


def setting_of(record: RunRecord, encoding: str | None, weights: str | None) -> dict[str, Any]:
    """The setting of a run record (:mod:`nonoqubo.campaign.runs`, :meth:`RunRecord.setting`), scored in
    *encoding* at *weights*."""
    return record.setting(encoding, weights)


def key_of(setting: Mapping[str, Any]) -> str:
    """A setting as one comparable string (its canonical JSON)."""
    return json.dumps(setting, sort_keys=True, default=str)


def record_of(samples: Any, source: str | None = None) -> RunRecord | None:
    """The run record of what ``decode`` is handed, or None when it records none.

    Args:
        samples: a samples file (a path; ``"-"``, standard input, is its reader's: the caller hands
            its text to :func:`the_record`), a ``dimod.SampleSet`` (its ``info["nonoqubo"]``), a
            ``to_serializable()`` document (a dict whose ``info`` holds it), or anything else (no record).
        source: the name messages give the samples (default: the path).

    Raises:
        SampleError: a file holding the runs of different settings (:func:`the_record`).
        RecordError: a record its format refuses.
        OSError: the file cannot be read.
    """
    if isinstance(samples, (str, os.PathLike)):
        if os.fspath(samples) == "-":
            return None
        path = os.fspath(samples)
        return the_record(searched_text(read_bytes(path, source or path)), source or path)  # a FIFO too
    info = samples.get("info") if isinstance(samples, Mapping) else getattr(samples, "info", None)
    record = info.get("nonoqubo") if isinstance(info, Mapping) else None
    if isinstance(record, Mapping) and "sampler" in record:
        return RunRecord.from_dict(dict(record), source or "the samples")
    return None


def recorded_model(record: RunRecord | None, source: str) -> RecordedModel | None:
    """The model *record* says its samples were drawn from (:meth:`RunRecord.recorded_model`); None when it
    names none.

    Raises:
        SampleError: a record whose model cannot be read (an unknown encoding), naming *source*.
    """
    if record is None:
        return None
    try:
        return record.recorded_model()
    except RecordError as exc:
        raise SampleError(f"{source}: {exc}") from None
