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
qbsolv answer                   `` 0.01787 seconds of classic cpu time``                     / reads
MQLib ``-ps`` output            ``0.3,BURER2002,"m.mqlib",102,0.300854,[...]`` (5th field)   / reads
==============================  ===========================================================  ==========

"whole call" figures are divided by the number of reads in the file
(``num_occurrences`` summed).  The search is by regular expression on the
text, so it costs nothing next to reading the samples, and it never fails:
a file that records no time gives ``None`` (then ``evaluate --time`` says it).
OMMX sample sets record no solver time and are not searched.

Examples:
    >>> seconds_per_run(' 0.5 seconds of classic cpu time', reads=1)
    0.5
    >>> seconds_per_run('{"info": {"timing": {"qpu_anneal_time_per_sample": 20.0}}}', reads=100)
    2e-05
    >>> seconds_per_run('{"timing": {"sampling_ns": 3000000}}', reads=3)
    0.001
    >>> seconds_per_run('0.3,BURER2002,"m.mqlib",102,0.300854,[0:2e-06]', reads=1)
    0.300854
    >>> seconds_per_run("0101", reads=1) is None
    True
"""

from __future__ import annotations

import re

__all__ = ["seconds_per_run"]

_NUM = r"([-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"

#: (pattern, factor to seconds, divide by the number of reads)
_PATTERNS: tuple[tuple[re.Pattern[str], float, bool], ...] = (
    (re.compile(r'"seconds_per_run"\s*:\s*' + _NUM), 1.0, False),
    (re.compile(r'"qpu_anneal_time_per_sample"\s*:\s*' + _NUM), 1e-6, False),
    (re.compile(r'"qpu_access_time"\s*:\s*' + _NUM), 1e-6, True),
    (re.compile(r'"sampling_ns"\s*:\s*' + _NUM), 1e-9, True),
    (re.compile(r"^\s*" + _NUM + r"\s+seconds of classic cpu time", re.MULTILINE), 1.0, True),
    (re.compile(r'^[^,\n]*,[A-Za-z0-9_]+,"[^"\n]*",' + _NUM + "," + _NUM + ",", re.MULTILINE), 1.0, True),
)


def seconds_per_run(text: str, reads: int) -> float | None:
    """Seconds per run recorded in a solver's answer *text* holding *reads* runs, or None.

    Args:
        text: the whole answer file.
        reads: how many runs (samples, counting repeats) the file holds.
    """
    for pattern, factor, per_call in _PATTERNS:
        m = pattern.search(text)
        if m is None:
            continue
        value = float(m.group(m.lastindex or 1)) * factor
        if value < 0:
            continue
        return value / max(1, reads) if per_call else value
    return None
