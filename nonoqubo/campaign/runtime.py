"""The time a solver spent per run, read from the answer file where the solver records it.

Time to solution needs the time of one run (one read, one anneal, one
restart).  Solvers write it in their own places; :func:`seconds_per_run`
looks, in this order, for:

==============================  ===========================================================  ==========
where                           text in the file                                             per run
==============================  ===========================================================  ==========
any JSON (nonoqubo's key)       ``"seconds_per_run": 0.002``                                 as is
D-Wave SampleSet ``info``       ``"qpu_anneal_time_per_sample": 20.0`` (microseconds)        as is
D-Wave SampleSet ``info``       ``"qpu_access_time": 15000.5`` (microseconds, whole call)   / reads
dwave-samplers ``info``         ``"timing": {... "sampling_ns": 187760 ...}``                 / reads
OMMX artifact annotations       ``"org.ommx.v1.sample-set.start": "2026-...Z"`` and ``.end``  / reads
qbsolv answer                   `` 0.01787 seconds of classic cpu time``                     / reads
MQLib ``-ps`` output            ``0.3,BURER2002,"m.mqlib",102,0.300854,[...]`` (5th field)   / reads
==============================  ===========================================================  ==========

"whole call" figures are divided by the number of reads in the file
(``num_occurrences`` summed).  The search is by regular expression on the
text, so it costs nothing next to reading the samples, and it never fails:
a file that records no time gives ``None`` (then ``evaluate --time`` says it).
An OMMX artifact (``.ommx``, an OCI archive) keeps its manifest as plain JSON,
so the ``start`` / ``end`` annotations of its sample set (or solution) are
found in the file's bytes as they are.

:func:`run_time` is the same search that also says *where* the time came from (the report's
figures print it).  A SampleSet written by ``nonoqubo solve -o`` carries the record of its run
in ``info["nonoqubo"]`` (:func:`run_record`: sampler, parameters, timing, machine); its
``timing.seconds_per_run`` is a time per run (with ``time_source`` and ``per_run`` saying how
it was measured), and without it ``timing.wall_seconds`` is the whole call's time, divided by
the reads.

Examples:
    >>> seconds_per_run(' 0.5 seconds of classic cpu time', reads=1)
    0.5
    >>> seconds_per_run('{"info": {"timing": {"qpu_anneal_time_per_sample": 20.0}}}', reads=100)
    2e-05
    >>> seconds_per_run('{"timing": {"sampling_ns": 3000000}}', reads=3)
    0.001
    >>> seconds_per_run('0.3,BURER2002,"m.mqlib",102,0.300854,[0:2e-06]', reads=1)
    0.300854
    >>> seconds_per_run('"org.ommx.v1.sample-set.start":"2026-01-01T00:00:00Z",'
    ...                 '"org.ommx.v1.sample-set.end":"2026-01-01T00:00:02.5Z"', reads=5)
    0.5
    >>> seconds_per_run("0101", reads=1) is None
    True
"""

from __future__ import annotations

import json
import re
from datetime import datetime
from typing import Any

__all__ = ["run_record", "run_time", "seconds_per_run"]

#: A number, written so that a run of digits matches it in one way only: ``\d+\.?\d*`` splits
#: *n* digits in *n* ways, and a search over a long line of bits then backtracks through all of
#: them at every start (quadratic: 8,000 digits took 10 s).
_NUM = r"([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)"

#: (pattern, units per second, divide by the number of reads)
_PATTERNS: tuple[tuple[re.Pattern[str], float, bool], ...] = (
    (re.compile(r'"seconds_per_run"\s*:\s*' + _NUM), 1.0, False),
    (re.compile(r'"qpu_anneal_time_per_sample"\s*:\s*' + _NUM), 1e6, False),
    (re.compile(r'"qpu_access_time"\s*:\s*' + _NUM), 1e6, True),
    (re.compile(r'"sampling_ns"\s*:\s*' + _NUM), 1e9, True),
    (re.compile(r"^[ \t]*" + _NUM + r"[ \t]+seconds of classic cpu time", re.MULTILINE), 1.0, True),
    (re.compile(r'^[^,\n]*,[A-Za-z0-9_]+,"[^"\n]*",' + _NUM + "," + _NUM + ",", re.MULTILINE), 1.0, True),
)


#: where each of :data:`_PATTERNS` is, said in the report
_SOURCES = (
    '"seconds_per_run" in the file',
    'D-Wave info qpu_anneal_time_per_sample',
    'D-Wave info qpu_access_time / reads',
    'dwave-samplers info timing.sampling_ns / reads',
    "qbsolv's seconds of classic cpu time / reads",
    "MQLib's runtime / reads",
)

_OMMX = re.compile(r'"org\.ommx\.v1\.(?:sample-set|solution)\.(start|end)"\s*:\s*"([^"]+)"')


def _ommx_seconds(text: str) -> float | None:
    """``end - start`` of an OMMX artifact's annotations, in seconds."""
    found = {m.group(1): m.group(2) for m in _OMMX.finditer(text)}
    if len(found) < 2:
        return None
    try:
        start, end = (datetime.fromisoformat(found[k].replace("Z", "+00:00")) for k in ("start", "end"))
    except ValueError:
        return None
    return (end - start).total_seconds()


def seconds_per_run(text: str, reads: int) -> float | None:
    """Seconds per run recorded in a solver's answer *text* holding *reads* runs, or None.

    Args:
        text: the whole answer file.
        reads: how many runs (samples, counting repeats) the file holds.
    """
    return run_time(text, reads)[0]


def run_record(text: str) -> dict[str, Any] | None:
    """The ``info["nonoqubo"]`` record of a SampleSet written by ``nonoqubo solve -o``, or None.

    It is a dict (``sampler``, ``parameters``, ``timing``, ``machine``, ``version``, ``date``);
    any other file, or one that is not JSON, gives None.  Only a text that opens with ``{`` and
    names ``"nonoqubo"`` is parsed.
    """
    head = text.lstrip()[:1]
    if head != "{" or '"nonoqubo"' not in text:
        return None
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    info = doc.get("info") if isinstance(doc, dict) else None
    record = info.get("nonoqubo") if isinstance(info, dict) else None
    return record if isinstance(record, dict) else None


def _positive(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return float(value) if value >= 0 else None


def run_time(text: str, reads: int) -> tuple[float | None, str | None]:
    """Seconds per run recorded in *text*, and where they came from (``(None, None)``: nowhere).

    A ``nonoqubo solve -o`` record comes first (``timing.seconds_per_run``, else
    ``timing.wall_seconds / reads``), then every place :func:`seconds_per_run` looks.

    Examples:
        >>> run_time('{"timing": {"sampling_ns": 3000000}}', reads=3)
        (0.001, 'dwave-samplers info timing.sampling_ns / reads')
        >>> run_time('{"info": {"nonoqubo": {"timing": {"seconds_per_run": 0.002, '
        ...          '"time_source": "wall clock"}}}}', reads=3)
        (0.002, 'nonoqubo solve: wall clock')
        >>> run_time('{"info": {"nonoqubo": {"timing": {"wall_seconds": 0.5}}}}', reads=5)
        (0.1, 'nonoqubo solve: wall time of the call / reads')
    """
    record = run_record(text)
    timing = record.get("timing") if record is not None else None
    if isinstance(timing, dict):
        per_run = _positive(timing.get("seconds_per_run"))
        if per_run is not None:
            how = timing.get("time_source") or timing.get("per_run") or "seconds_per_run"
            return per_run, f"nonoqubo solve: {how}"
        total = _positive(timing.get("wall_seconds"))
        if total is not None:
            return total / max(1, reads), "nonoqubo solve: wall time of the call / reads"
    for k, (pattern, units, per_call) in enumerate(_PATTERNS):
        if k == 1 and '"org.ommx.v1.' in text:
            span = _ommx_seconds(text)
            if span is not None and span >= 0:
                return span / max(1, reads), "OMMX sample-set start/end annotations / reads"
        m = pattern.search(text)
        if m is None:
            continue
        value = float(m.group(m.lastindex or 1)) / units
        if value < 0:
            continue
        return (value / max(1, reads) if per_call else value), _SOURCES[k]
    return None, None
