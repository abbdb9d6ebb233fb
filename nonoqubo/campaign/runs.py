"""What a run file records of its run, and the *setting* a campaign groups runs by.

``solve -o`` (and ``nonoqubo run``) writes the record of its run into the SampleSet's ``info["nonoqubo"]``
(:func:`nonoqubo.solvers.sampling.run_record`): the sampler, its parameters, the model sampled
(encoding, weights, the variables presolve left), the timing and the machine.  ``evaluate``
groups runs by what that record says, never by the folder a file lies in:

* a **setting** (:func:`setting_of`) is the sampler, *every* parameter of the record but the
  ones that only say which runs and how many (:data:`~nonoqubo.solvers.request.RUN_IDENTITY`: the
  seed and the number of reads), and the encoding and weights of the model the runs were drawn
  from.  The parameters are a :class:`~nonoqubo.solvers.request.SolveRequest`'s, as
  :meth:`~nonoqubo.solvers.request.SolveRequest.parameters` recorded them.  The parameters
  are taken as the record has them, so a parameter a sampler records tomorrow becomes part of
  the setting with no change here; one recorded as unset (``null``, ``{}``, ``[]``) is the
  sampler's default, the same as one an older file does not record;
* two files of one setting are pooled, wherever they lie; two settings in one folder are two
  groups;
* a file that records no run (a SampleSet made by hand, a bit-string file, qbsolv's output) has
  no setting of its own: its folder names it, as before (``runs/qbsolv/*.txt`` is ``qbsolv``), and a
  file named on the command line its own name (``out.txt`` is ``out``).

The reading of a record (:func:`searched_text`, :func:`run_records`, :func:`the_record`) and a
setting's key (:func:`setting_of`, :func:`key_of`) are the samples layer's (``samples/_record``,
which ``decode`` reads a run's model with too), re-exported here.

A setting's **name** (:func:`setting_names`) is the folder's when that folder (a runs folder given
to ``evaluate``, or one of its sub-folders) holds exactly that setting (so ``runs/sa-1000/`` stays
``sa-1000``); a file named on the command line gives no folder name; otherwise it is made from the record: the
sampler, then the parameters, encoding and weights that tell it apart from the campaign's other
settings of that sampler (``sa sweeps=100``, ``sa sweeps=1000``, ``tabu``).  :func:`describe`
spells a whole setting out for the table and the report.

Examples:
    >>> rec = RunRecord("sa", {"reads": 10, "seed": 3, "sweeps": 100})
    >>> setting_of(rec, "domain-wall", "shape=1,order=1,cell=1")["parameters"]
    {'sweeps': 100}
    >>> a = setting_of(rec, "domain-wall", "shape=1,order=1,cell=1")
    >>> b = setting_of(RunRecord("tabu", {"seed": 1}), "domain-wall", "shape=1,order=1,cell=1")
    >>> sorted(setting_names({key_of(a): a, key_of(b): b}, {key_of(a): {"runs"}, key_of(b): {"runs"}},
    ...                      {"runs": {key_of(a), key_of(b)}}).values())
    ['sa', 'tabu']
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..records import RunRecord
from ..samples import RUN_IDENTITY, key_of, run_records, searched_text, setting_of, the_record

__all__ = ["RUN_IDENTITY", "describe", "key_of", "qpu_of", "qpu_words", "run_records", "searched_text",
           "setting_names", "setting_of", "summary", "the_record"]


def summary(record: RunRecord) -> dict[str, Any]:
    """The part of a record ``evaluate`` reports as ``run`` (:meth:`RunRecord.summary`: without the per-read
    lists); a QPU (or mock) call's record adds ``qpu`` (:func:`qpu_of`)."""
    out = record.summary()
    qpu = qpu_of(record)
    if qpu is not None:
        out["qpu"] = qpu
    return out


def qpu_of(record: RunRecord) -> dict[str, Any] | None:
    """What a QPU call returned, as ``evaluate`` reports it, or None for another sampler.

    The record's ``sampler_reported.qpu`` (:mod:`nonoqubo.solvers.qpu`) as ``decode`` shows it
    (:func:`nonoqubo.qpu.unembed.qpu_summary`: the solver, the problem ids, the timing parts in
    microseconds, ``estimated`` for the mock, the parameters sent, the embedding's figures), with
    the chain strength and the chain-break fractions beside.

    Examples:
        >>> qpu_of(RunRecord("sa")) is None
        True
        >>> q = qpu_of(RunRecord("dwave", sampler_reported={"qpu": {"solver": "Advantage_system4.1", "problem_ids": ["p1"],
        ...         "timing": {"qpu_access_time": 9289.0}, "embedding": {"qubits": 68, "longest_chain": 3},
        ...         "chain_breaks": {"mean": 0.01, "max": 0.1, "reads_with_a_break": 2}}}))
        >>> q["embedding"], q["timing"], q["chain_breaks"]["reads_with_a_break"]
        ({'qubits': 68, 'longest_chain': 3}, {'qpu_access_time': 9289.0}, 2)
    """
    from ..qpu.unembed import qpu_summary

    qpu = record.qpu_reported()
    if qpu is None:
        return None
    return {**qpu_summary(dict(qpu)), "chain_strength": qpu.get("chain_strength"), "chain_breaks": qpu.get("chain_breaks")}


def qpu_words(qpu: Mapping[str, Any]) -> str:
    """A :func:`qpu_of` summary (possibly pooled: a value that differs between files is a list) in one line.

    Examples:
        >>> qpu_words({"solver": "mock-dwave", "problem_ids": ["p1"], "estimated": True,
        ...            "timing": {"qpu_access_time": 9289.0, "qpu_programming_time": 8468.2,
        ...                          "qpu_sampling_time": 820.8, "problems": 1},
        ...            "embedding": {"qubits": 68, "longest_chain": 3, "mean_chain": 1.619}, "chain_strength": 1.61,
        ...            "chain_breaks": {"mean": 0.0, "max": 0.0, "reads_with_a_break": 0}})
        'solver mock-dwave; problem id p1; qpu_access_time 9289 µs (estimated, programming 8468, sampling 820.8); embedding 68 qubits, longest chain 3, mean 1.619; chain strength 1.61; chain breaks mean 0, max 0, 0 reads with a break'
    """
    def text(v: Any) -> str:
        if isinstance(v, list):
            return "/".join(text(x) for x in v)
        return f"{v:.4g}" if isinstance(v, float) else str(v)

    ids = [str(i) for i in _flat(qpu.get("problem_ids"))]
    timing = qpu.get("timing") or {}
    parts = [f"{k[4:-5]} {text(timing[k])}" for k in ("qpu_programming_time", "qpu_sampling_time") if k in timing]
    est = qpu.get("estimated")
    words = [f"solver {text(qpu.get('solver'))}",
             (f"problem id {ids[0]}" if len(ids) == 1 else f"{len(ids)} problems ({', '.join(ids)})") if ids
             else "no problem id"]
    if "qpu_access_time" in timing:
        note = ", ".join((["estimated"] if est is True else ["estimated for some files"] if est else []) + parts)
        words.append(f"qpu_access_time {text(timing['qpu_access_time'])} µs" + (f" ({note})" if note else ""))
    emb = qpu.get("embedding") or {}
    if emb.get("qubits") is not None:
        words.append(f"embedding {text(emb['qubits'])} qubits, longest chain {text(emb.get('longest_chain'))}, "
                     f"mean {text(emb.get('mean_chain'))}")
    if qpu.get("chain_strength") is not None:
        words.append(f"chain strength {text(qpu['chain_strength'])}")
    breaks = qpu.get("chain_breaks")
    if isinstance(breaks, Mapping):
        words.append(f"chain breaks mean {text(breaks.get('mean'))}, max {text(breaks.get('max'))}, "
                     f"{text(breaks.get('reads_with_a_break'))} reads with a break")
    return "; ".join(words)


def _flat(value: Any) -> list[Any]:
    if isinstance(value, list):
        return [x for v in value for x in _flat(v)]
    return [] if value is None else [value]


def _value(v: Any) -> str:
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True, separators=(",", ":"))
    return str(v)


def describe(setting: Mapping[str, Any]) -> str:
    """A whole setting in words: ``sa: sweeps=1000, presolve=False; domain-wall, weights shape=1,order=1,cell=1``."""
    params = ", ".join(f"{k}={_value(v)}" for k, v in setting.get("parameters", {}).items()
                       if v not in (None, {}, []))
    return (f"{setting.get('sampler')}" + (f": {params}" if params else "")
            + f"; {setting.get('encoding')}, weights {setting.get('weights')}")


def _told_apart(setting: Mapping[str, Any], others: Sequence[Mapping[str, Any]]) -> str:
    """The sampler, and what tells *setting* apart from the *others* (every setting of the campaign)."""
    same = [o for o in others if o.get("sampler") == setting.get("sampler")]
    words = [str(setting.get("sampler"))]
    keys = sorted({k for o in same for k in o.get("parameters", {})})
    for k in keys:
        values = {_value(o.get("parameters", {}).get(k)) for o in same}
        if len(values) > 1:
            words.append(f"{k}={_value(setting.get('parameters', {}).get(k))}")
    for what in ("encoding", "weights"):
        if len({str(o.get(what)) for o in others}) > 1:
            words.append(str(setting.get(what)))
    return " ".join(words)


def setting_names(settings: Mapping[str, Mapping[str, Any]], folders_of: Mapping[str, set[str]],
                  settings_in: Mapping[str, set[str]]) -> dict[str, str]:
    """A unique name per setting key (the module docstring).

    Args:
        settings: the recorded settings by key.
        folders_of: per key, the folder names its files lie in.
        settings_in: per folder name, the keys of every group whose files lie there (recorded or not).
    """
    names: dict[str, str] = {}
    taken: set[str] = set()
    for key in settings:
        folders = folders_of.get(key, set())
        if len(folders) == 1 and settings_in.get(next(iter(folders)), set()) == {key}:
            names[key] = next(iter(folders))
    taken.update(names.values())
    taken.update(f for f, keys in settings_in.items() if any(k not in settings for k in keys))
    others = list(settings.values())
    for key, setting in settings.items():
        if key in names:
            continue
        name = _told_apart(setting, others)
        if name in taken or list(names.values()).count(name):
            name = f"{setting.get('sampler')} ({describe(setting)})"
        names[key] = name
    return names
