"""The run record: what one sampler call wrote of itself into its run file (``info["nonoqubo"]``).

``solve -o`` and ``nonoqubo run`` write it (:func:`nonoqubo.solvers.sampling.run_record` makes a
:class:`RunRecord` and writes its :meth:`~RunRecord.to_dict`); ``decode``, ``evaluate``, a campaign's
scan and a QOBLIB submission read it back with :meth:`RunRecord.from_dict`, and nothing else walks
its dict.  Its JSON Schema is ``schemas/run-record.schema.json``::

    {"version": 3,                               # this format's (RUN_RECORD_VERSION)
     "nonoqubo": "0.1.0",                        # the nonoqubo that wrote it
     "date": "2026-12-01T11:40:00Z",
     "sampler": "sa",
     "parameters": {"reads": 10, "seed": 1, ..., "presolve": false},   # SolveRequest.parameters()
     "sampler_reported": {...}, "timing": {"seconds_per_run": 0.002, ...}, "machine": {...},
     "model": {"encoding": "domain-wall", "weights": {"shape": 1, "order": 1, "cell": 1},
               "variables": 437, "full_variables": 437, "fixed": 0,
               "digest": "9f2c...", "source": "suite/logo.bqm"}}     # the sha256 of the file solved

A **failed** run (version 3): a campaign task its per-task time limit stopped (``run --task-time-limit``)
leaves a run file of no samples whose record has ``"failed": {"reason": "...", "seconds": 2.1, "limit": 2}``
(:class:`RunFailure`): the run is the task's (its identity is whole), so a campaign counts it done and
``evaluate`` counts it as a failed run of its group, never as samples.  Records of versions 1 and 2 have no
``failed`` and are read as they were.

A record of version 1 (nonoqubo 0.1.0 before this format had its own version: ``"version"`` was
nonoqubo's, a text) is read as such: it names no model digest, so a campaign counts it as a run of
an unknown model (:meth:`RunRecord.identity`).

A run's **identity** (:class:`RunIdentity`) is the whole of what says which run it is: the model
(its file's digest, encoding, weights, presolve), the sampler and every parameter (the seed and
the reads among them).  Two runs are the same run exactly when their identities are equal; a
campaign compares them whole (:meth:`RunIdentity.difference` names the first field that differs).

Examples:
    >>> rec = RunRecord.from_dict({"version": 2, "sampler": "sa", "parameters": {"seed": 1, "presolve": "probe"},
    ...     "model": {"encoding": "one-hot", "weights": {"shape": 1, "order": 1, "cell": 5}}}, "w.json")
    >>> rec.recorded_model().words()
    'the one-hot model at weights shape=1,order=1,cell=5, presolve probe'
    >>> RunRecord.from_dict({"version": 9, "sampler": "sa"}, "w.json")
    Traceback (most recent call last):
    nonoqubo.errors.RecordError: w.json: run record: version 9 is not one this nonoqubo reads (1, 2, 3); read it with the nonoqubo that wrote it, or write it again
    >>> RunRecord.from_dict({"version": 2, "sampler": "sa", "parameters": {"presolve": 1}}, "w.json")
    Traceback (most recent call last):
    nonoqubo.errors.RecordError: w.json: run record: parameters: presolve: true, false, line or probe, not 1
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .._util.plain import json_safe
from ..errors import RecordError
from ..model.encodings import Encoding, encoding_named
from ..model.encodings import names as encoding_names
from ..model.weights import Weights
from ._fields import Fields, check_version, quoted

__all__ = ["RUN_IDENTITY", "RUN_RECORD_VERSION", "RecordedModel", "RunFailure", "RunIdentity", "RunModel",
           "RunRecord"]

#: the version of the run record this nonoqubo writes (3: the optional ``failed``)
RUN_RECORD_VERSION = 3
#: the versions it reads
RUN_RECORD_VERSIONS = (1, 2, 3)
#: the parameters that say which runs were made and how many, not how one run is made: runs that differ
#: only in these are runs of one setting
RUN_IDENTITY = ("seed", "reads")
#: the presolve names (:data:`nonoqubo.logic.presolve.PRESOLVES`; here so the record needs no line logic)
_PRESOLVES = ("line", "probe")


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


@dataclass(frozen=True)
class RunModel:
    """What a run record says of the model sampled (its ``model``).

    Attributes:
        encoding: its encoding's name.
        weights: its weights.
        variables, full_variables, fixed: the variables sampled, before presolve, and fixed by it.
        digest: the sha256 of the file solved (the model file or the clue file), when the run knew it.
        source: that file, as the run named it.
    """

    encoding: str
    weights: Weights
    variables: int | None = None
    full_variables: int | None = None
    fixed: int | None = None
    digest: str | None = None
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"encoding": self.encoding, "weights": self.weights.as_dict()}
        for key in ("variables", "full_variables", "fixed", "digest", "source"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out

    @classmethod
    def from_dict(cls, doc: Any, where: str) -> RunModel:
        f = Fields(doc, f"{where}: model")
        weights = f.weights()
        digest = f.text("digest", True)
        if digest is not None and (len(digest) != 64 or digest.strip("0123456789abcdef")):
            raise f.fail("digest", "a sha256 (64 hex digits)", digest)
        return cls(f.text("encoding"), weights, f.integer("variables", True),
                   f.integer("full_variables", True), f.integer("fixed", True), digest, f.text("source", True))


@dataclass(frozen=True)
class RunFailure:
    """Why a run left no samples (a record's ``failed``, version 3): a campaign task stopped by its time limit.

    Attributes:
        reason: the failure in one line (the campaign log's).
        seconds: how long the task ran before it was stopped (sampling, not the model's reading).
        limit: the per-task time limit it ran past (``task-time-limit``), seconds.
    """

    reason: str
    seconds: float
    limit: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"reason": self.reason, "seconds": self.seconds, "limit": self.limit}

    @classmethod
    def from_dict(cls, doc: Any, where: str) -> RunFailure:
        f = Fields(doc, f"{where}: failed")
        seconds, limit = doc.get("seconds"), doc.get("limit")
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 <= seconds < float("inf"):
            raise f.fail("seconds", "a number of seconds (0 or more)", seconds)
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                                  or not 0 < limit < float("inf")):
            raise f.fail("limit", "a positive number of seconds or null", limit)
        return cls(f.text("reason"), float(seconds), None if limit is None else float(limit))


@dataclass(frozen=True)
class RunIdentity:
    """Which run a run is (the module docstring): compared whole, never a part of it."""

    digest: str | None
    encoding: str | None
    weights: str | None
    presolve: str | None
    sampler: str
    parameters: str  # canonical JSON

    def difference(self, other: RunIdentity, mine: str = "the file", theirs: str = "the plan") -> str:
        """The first field this identity has otherwise than *other*, both named: ``seed 2 in the file, 1 in the
        plan`` ("" when they are equal).

        Examples:
            >>> a = RunIdentity("ab" * 32, "domain-wall", "shape=1,order=1,cell=1", None, "sa", '{"seed": 2}')
            >>> a.difference(RunIdentity("ab" * 32, "one-hot", "shape=1,order=1,cell=1", None, "sa", '{"seed": 1}'))
            'encoding domain-wall in the file, one-hot in the plan'
        """
        for name in ("digest", "encoding", "weights", "presolve", "sampler"):
            a, b = getattr(self, name), getattr(other, name)
            if a != b:
                what = "model sha256" if name == "digest" else name
                return f"{what} {_short(a)} in {mine}, {_short(b)} in {theirs}"
        if self.parameters != other.parameters:
            ours, others = json.loads(self.parameters), json.loads(other.parameters)
            for key in sorted(set(ours) | set(others)):
                if ours.get(key, "unset") != others.get(key, "unset"):
                    return (f"{key} {quoted(ours.get(key, 'unset'))} in {mine}, "
                            f"{quoted(others.get(key, 'unset'))} in {theirs}")
        return ""


def _short(value: Any) -> str:
    if value is None:
        return "none"
    text = str(value)
    return text[:12] + "..." if len(text) == 64 else quoted(text) if len(text) > 40 else text


def canonical(value: Any) -> str:
    """A JSON value as one comparable string (sorted keys, plain values)."""
    return json.dumps(json_safe(value), sort_keys=True)


@dataclass(frozen=True)
class RunRecord:
    """One run's record (the module docstring).

    Attributes:
        sampler: the sampler's name.
        parameters: :meth:`SolveRequest.parameters <nonoqubo.solvers.request.SolveRequest.parameters>`.
        model: the model sampled (None: the run did not say).
        timing, machine, sampler_reported: as the run measured and reported them (plain JSON).
        date: when the sampling started (UTC).
        nonoqubo: the nonoqubo that wrote it.
        version: this format's version (:data:`RUN_RECORD_VERSION`).
        failed: why the run left no samples (:class:`RunFailure`), or None: a run that sampled.
    """

    sampler: str
    parameters: Mapping[str, Any] = field(default_factory=dict)
    model: RunModel | None = None
    timing: Mapping[str, Any] = field(default_factory=dict)
    machine: Mapping[str, Any] = field(default_factory=dict)
    sampler_reported: Mapping[str, Any] = field(default_factory=dict)
    date: str | None = None
    nonoqubo: str | None = None
    version: int = RUN_RECORD_VERSION
    failed: RunFailure | None = None

    # -- its format -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The record as the run file holds it (the module docstring)."""
        out: dict[str, Any] = {"version": self.version, "nonoqubo": self.nonoqubo, "date": self.date,
                               "sampler": self.sampler, "parameters": dict(self.parameters),
                               "sampler_reported": dict(self.sampler_reported), "timing": dict(self.timing),
                               "machine": dict(self.machine)}
        if self.model is not None:
            out["model"] = self.model.to_dict()
        if self.failed is not None:
            out["failed"] = self.failed.to_dict()
        return out

    @classmethod
    def from_dict(cls, doc: Any, source: str) -> RunRecord:
        """The record of *doc* (a run file's ``info["nonoqubo"]``), every field checked.

        Raises:
            RecordError: an unknown version, a field of the wrong type; one line naming *source*.
        """
        where = f"{source}: run record"
        f = Fields(doc, where)
        given = doc.get("version")
        if isinstance(given, str) or given is None:  # version 1: the field was nonoqubo's own version
            version, software = 1, given
        else:
            version, software = check_version(doc, "version", RUN_RECORD_VERSIONS, where), f.text("nonoqubo", True)
        params = f.mapping("parameters", optional=True) or {}
        p = Fields(params, f"{where}: parameters")
        p.integer("seed", True)
        p.integer("reads", True)
        presolve = params.get("presolve")
        if presolve is not None and not isinstance(presolve, bool) and presolve not in _PRESOLVES:
            raise p.fail("presolve", "true, false, " + " or ".join(_PRESOLVES), presolve)
        model = doc.get("model")
        failed = f.mapping("failed", True)
        if failed is not None and version < 3:
            raise f.fail("failed", f"absent from a version {version} record (a failed run's record is version 3)",
                         failed)
        return cls(f.text("sampler"), dict(params),
                   None if model is None or (isinstance(model, Mapping) and "encoding" not in model)
                   else RunModel.from_dict(model, where),
                   f.mapping("timing", True) or {}, f.mapping("machine", True) or {},
                   f.mapping("sampler_reported", True) or {}, f.text("date", True), software, version,
                   None if failed is None else RunFailure.from_dict(failed, where))

    # -- what it says ---------------------------------------------------------------------------
    @property
    def presolve(self) -> str | None:
        """The presolve the run applied: None, ``"line"`` or ``"probe"``."""
        value = self.parameters.get("presolve")
        return "line" if value is True else value or None

    def recorded_model(self) -> RecordedModel | None:
        """The model the record says its samples were drawn from (None when it names none).

        Raises:
            RecordError: an encoding this nonoqubo does not know.
        """
        if self.model is None:
            return None
        if self.model.encoding not in encoding_names():
            raise RecordError(f"run record: model: encoding {quoted(self.model.encoding)} is not one nonoqubo knows "
                              f"({', '.join(encoding_names())})")
        return RecordedModel(encoding_named(self.model.encoding), self.model.weights, self.presolve)

    def identity(self) -> RunIdentity:
        """Which run this is (the module docstring)."""
        model = self.model
        return RunIdentity(None if model is None else model.digest, None if model is None else model.encoding,
                           None if model is None else str(model.weights), self.presolve, self.sampler,
                           canonical(self.parameters))

    def setting(self, encoding: str | None, weights: str | None) -> dict[str, Any]:
        """The setting of the run (:mod:`nonoqubo.campaign.runs`), scored in *encoding* at *weights*: the
        sampler, every parameter but :data:`RUN_IDENTITY` and the unset ones, the encoding and weights."""
        params = self.parameters
        return {"sampler": self.sampler,
                "parameters": {k: params[k] for k in sorted(params) if k not in RUN_IDENTITY and not _unset(params[k])},
                "encoding": encoding, "weights": weights}

    def model_words(self) -> tuple[str | None, str | None]:
        """The encoding and weights (as canonical JSON) of the model sampled, for telling settings apart."""
        if self.model is None:
            return None, None
        return self.model.encoding, json.dumps(self.model.weights.as_dict(), sort_keys=True)

    def seconds_per_run(self) -> tuple[float | None, str | None]:
        """The record's time per run and where it came from (``timing``), or ``(None, None)``."""
        value = self.timing.get("seconds_per_run")
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or value == float("inf"):
            return None, None
        source = self.timing.get("time_source")
        return float(value), source if isinstance(source, str) and source else "recorded"

    def qpu_reported(self) -> Mapping[str, Any] | None:
        """What a QPU call reported of itself (``sampler_reported.qpu``), or None."""
        qpu = self.sampler_reported.get("qpu")
        return qpu if isinstance(qpu, Mapping) else None

    def qpu_access_time(self) -> float | None:
        """The ``qpu_access_time`` (µs) the record summed over every problem of a QPU call
        (``sampler_reported.qpu.timing``; with spin-reversal transforms one call is several QPU problems, and the
        SampleSet's own ``info`` holds at most one problem's timing), or None."""
        qpu = self.qpu_reported()
        timing = qpu.get("timing") if qpu is not None else None
        value = timing.get("qpu_access_time") if isinstance(timing, Mapping) else None
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
            return None
        return float(value)

    def summary(self) -> dict[str, Any]:
        """The part ``evaluate`` reports as ``run``: without the per-read lists."""
        timing = self.timing
        return {"sampler": self.sampler, "parameters": dict(self.parameters),
                "model": None if self.model is None else self.model.to_dict(),
                "version": self.nonoqubo, "machine": dict(self.machine),
                "timing": {k: timing.get(k) for k in ("seconds_per_run", "time_source", "per_run", "wall_seconds")}}


def _unset(value: Any) -> bool:
    """A parameter recorded as not set (None, an empty dict or list): the same as one not recorded.

    A file of an older nonoqubo that did not know a knob and a newer one that records it unset
    (``"beta_range": null``, ``"schedule": {}``) ran the same setting, the sampler's default.
    """
    return value is None or (isinstance(value, (dict, list)) and not value)
