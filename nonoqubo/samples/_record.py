"""The run record a samples file carries: found in its text, one per file, and the model it names.

``solve -o`` (and ``nonoqubo run``) writes the record of its run into the SampleSet's
``info["nonoqubo"]`` (:func:`nonoqubo.solvers.sampling.run_record`): the sampler, its
``parameters`` (:meth:`~nonoqubo.solvers.request.SolveRequest.parameters`, ``presolve`` among
them) and the ``model`` sampled (its encoding, weights and how many variables presolve fixed).
This module is the one reading of it, shared by everything that reads answers back:

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
    >>> model = recorded_model(the_record(text, "w.json"), "w.json")
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
from dataclasses import dataclass
from typing import Any

from .._util.stream import read_bytes
from ..errors import NonoquboError, SampleError
from ..model.encodings import Encoding, encoding_named
from ..model.weights import Weights

__all__ = ["RUN_IDENTITY", "RecordedModel", "key_of", "record_of", "recorded_model", "run_records", "searched_text",
           "setting_of", "the_record"]

#: the parameters that say which runs were made and how many, not how one run is made: runs that differ
#: only in these are runs of one setting
RUN_IDENTITY = ("seed", "reads")

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


def run_records(text: str) -> list[dict[str, Any]]:
    """Every run record (an ``info["nonoqubo"]`` object with a ``sampler``) in a file's *text*.

    Only those objects are parsed (found by their key), not the whole file again.
    """
    out = []
    decoder = json.JSONDecoder()
    for m in _RUN_KEY.finditer(text):
        try:
            record, _ = decoder.raw_decode(text, m.end() - 1)
        except ValueError:
            continue
        if isinstance(record, dict) and "sampler" in record:
            out.append(record)
    return out


def the_record(text: str, source: str) -> dict[str, Any] | None:
    """The one run record of a file, or None when it records none.

    Raises:
        SampleError: the file holds records of different settings (one line naming *source*).
    """
    found = run_records(text)
    if not found:
        return None
    kinds = {key_of(setting_of(r, *_model_words(r))) for r in found}
    if len(kinds) > 1:
        names = sorted({str(r.get("sampler")) for r in found})
        raise SampleError(f"{source}: holds {len(found)} run records of {len(kinds)} different settings "
                          f"(samplers {', '.join(names)}); one file is the runs of one setting: split it")
    return found[0]


def _model_words(record: Mapping[str, Any]) -> tuple[str | None, str | None]:
    model: Mapping[str, Any] = given if isinstance(given := record.get("model"), dict) else {}
    weights = model.get("weights")
    return model.get("encoding"), None if weights is None else json.dumps(weights, sort_keys=True)


def setting_of(record: Mapping[str, Any], encoding: str | None, weights: str | None) -> dict[str, Any]:
    """The setting of a run record (:mod:`nonoqubo.campaign.runs`), scored in *encoding* at *weights*:
    the sampler, every parameter but :data:`RUN_IDENTITY` and the unset ones, the encoding and weights."""
    params = given if isinstance(given := record.get("parameters"), dict) else {}
    return {"sampler": record.get("sampler"),
            "parameters": {k: params[k] for k in sorted(params) if k not in RUN_IDENTITY and not _unset(params[k])},
            "encoding": encoding, "weights": weights}


def _unset(value: Any) -> bool:
    """A parameter recorded as not set (None, an empty dict or list): the same as one not recorded.

    A file of an older nonoqubo that did not know a knob and a newer one that records it unset
    (``"beta_range": null``, ``"schedule": {}``) ran the same setting, the sampler's default.
    """
    return value is None or (isinstance(value, (dict, list)) and not value)


def key_of(setting: Mapping[str, Any]) -> str:
    """A setting as one comparable string (its canonical JSON)."""
    return json.dumps(setting, sort_keys=True, default=str)


def record_of(samples: Any, source: str | None = None) -> dict[str, Any] | None:
    """The run record of what ``decode`` is handed, or None when it records none.

    Args:
        samples: a samples file (a path; ``"-"``, standard input, is its reader's: the caller hands
            its text to :func:`the_record`), a ``dimod.SampleSet`` (its ``info["nonoqubo"]``), a
            ``to_serializable()`` document (a dict whose ``info`` holds it), or anything else (no record).
        source: the name messages give the samples (default: the path).

    Raises:
        SampleError: a file holding the runs of different settings (:func:`the_record`).
        OSError: the file cannot be read.
    """
    if isinstance(samples, (str, os.PathLike)):
        if os.fspath(samples) == "-":
            return None
        path = os.fspath(samples)
        return the_record(searched_text(read_bytes(path, source or path)), source or path)  # a FIFO too
    info = samples.get("info") if isinstance(samples, Mapping) else getattr(samples, "info", None)
    record = info.get("nonoqubo") if isinstance(info, Mapping) else None
    return dict(record) if isinstance(record, Mapping) and "sampler" in record else None


@dataclass(frozen=True)
class RecordedModel:
    """The model a run record says its samples were drawn from.

    Attributes:
        encoding: the model's encoding.
        weights: its penalty weights.
        presolve: the presolve the run applied before sampling (``"line"``, ``"probe"``), or None.
    """

    encoding: Encoding
    weights: Weights
    presolve: str | None = None

    def words(self) -> str:
        """The model in words: ``the one-hot model at weights shape=1,order=1,cell=5, presolve line``."""
        return (f"the {self.encoding.name} model at weights {self.weights}"
                + (f", presolve {self.presolve}" if self.presolve else ""))


def recorded_model(record: Mapping[str, Any] | None, source: str) -> RecordedModel | None:
    """The model *record* says its samples were drawn from; None when the record names no model.

    The encoding and weights are the record's ``model``; the presolve its ``parameters.presolve``
    (``false``: none, ``true``: line logic, or the presolve's name).

    Raises:
        SampleError: a record whose model cannot be read (an unknown encoding, bad weights), naming *source*.
    """
    from ..logic.presolve import PRESOLVES

    model = record.get("model") if record is not None else None
    if record is None or not isinstance(model, Mapping) or "encoding" not in model:
        return None
    params = given if isinstance(given := record.get("parameters"), Mapping) else {}
    presolve = params.get("presolve")
    try:
        if presolve not in (None, False, True) and presolve not in PRESOLVES:
            raise NonoquboError(f"presolve {presolve!r} is not one of {', '.join(PRESOLVES)}")
        return RecordedModel(encoding_named(model["encoding"]),
                             Weights.of(model.get("weights"), source=f"{source}: run record weights"),
                             "line" if presolve is True else presolve or None)
    except NonoquboError as exc:
        raise SampleError(f"{source}: run record: {exc}") from None

