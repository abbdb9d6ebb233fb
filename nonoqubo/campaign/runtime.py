"""The time a solver spent per run, read from the answer file where the solver records it.

Time to solution needs the time of one run (one read, one anneal, one
restart).  Solvers write it in their own places; :func:`seconds_per_run`
looks, in this order, for:

==============================  ===========================================================  ==========
where                           text in the file                                             per run
==============================  ===========================================================  ==========
any JSON (nonoqubo's key)       ``"seconds_per_run": 0.002``                                 as is
D-Wave SampleSet ``info``       ``"qpu_access_time": 15000.5`` (microseconds, whole call)   / reads
D-Wave SampleSet ``info``       ``"qpu_anneal_time_per_sample": 20.0`` (microseconds)        as is
dwave-samplers ``info``         ``"timing": {... "sampling_ns": 187760 ...}``                 / reads
OMMX artifact annotations       ``"org.ommx.v1.sample-set.start": "2026-...Z"`` and ``.end``  / reads
qbsolv answer                   `` 0.01787 seconds of classic cpu time``                     / reads
MQLib ``-ps`` output            ``0.3,BURER2002,"m.mqlib",102,0.300854,[...]`` (5th field)   / reads
==============================  ===========================================================  ==========

:func:`time_per_run` also says where the time came from (``evaluate`` reports it as
``time_source``): ``"QPU access time"`` (D-Wave's ``qpu_access_time``: programming, anneals,
readouts and delays of the whole call, as the QPU reports it, per read), ``"sampler timing"``
(the solver measured its own runs: every other row of the table but the OMMX one), ``"wall
clock"`` (OMMX's start and end), or, for nonoqubo's key, the ``"time_source"`` written beside
it (``solve -o`` writes ``"sampler timing"`` or ``"wall clock"``; a file that does not say gives
``"recorded"``).  A QPU's access time is preferred to its anneal time per sample: the anneal
alone leaves out the programming and readout every run pays.

A file ``solve -o`` wrote carries its run record (:mod:`nonoqubo.campaign.runs`), and
:func:`recorded_time` reads the time from that record, not from a search of the text: its
``timing.seconds_per_run`` and ``time_source``, except that a run on a real QPU (sampler
``dwave``) is timed by the QPU's own ``qpu_access_time`` per read: the one the record summed over
every problem of the call (``sampler_reported.qpu.timing``: with spin-reversal transforms a call
is one QPU problem per transform), else the one in the SampleSet's ``info``.  A ``mock-dwave`` run's
``info["timing"]`` holds dwave-system's fixed demonstration figures, which are never read: its
record's one seconds per run (the wall clock of the call per read) is its time.

"whole call" figures are divided by the number of reads in the file
(``num_occurrences`` summed).  The search is by regular expression on the
text, so it costs nothing next to reading the samples, and it never fails:
a file that records no time gives ``None`` (then ``evaluate --time`` says it).
An OMMX artifact (``.ommx``, an OCI archive) keeps its manifest as plain JSON,
so the ``start`` / ``end`` annotations of its sample set (or solution) are
found in the file's bytes as they are.

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
    >>> time_per_run('{"seconds_per_run": 0.25, "time_source": "wall clock"}', reads=4)
    (0.25, 'wall clock')
    >>> time_per_run('{"timing": {"sampling_ns": 3000000}}', reads=3)
    (0.001, 'sampler timing')
    >>> time_per_run("0101", reads=1)
    (None, 'none')
    >>> time_per_run('{"timing": {"qpu_access_time": 16000.0, "qpu_anneal_time_per_sample": 20.0}}', reads=100)
    (0.00016, 'QPU access time')
    >>> recorded_time(RunRecord("sa", timing={"seconds_per_run": 0.002, "time_source": "sampler timing"}), "", 5)
    (0.002, 'sampler timing')
"""

from __future__ import annotations

import re
from datetime import datetime

from ..records import RunRecord
from ..solvers.samplers import QPU_ACCESS, SAMPLER_TIMING, WALL_CLOCK, known_sampler

__all__ = ["QPU_ACCESS", "SAMPLER_TIMING", "WALL_CLOCK", "qpu_timed", "recorded_time", "seconds_per_run",
           "time_per_run"]

#: A number, written so that a run of digits matches it in one way only: ``\d+\.?\d*`` splits
#: *n* digits in *n* ways, and a search over a long line of bits then backtracks through all of
#: them at every start (quadratic: 8,000 digits took 10 s).
_NUM = r"([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)"

_ACCESS = re.compile(r'"qpu_access_time"\s*:\s*' + _NUM)

#: (pattern, units per second, divide by the number of reads)
_PATTERNS: tuple[tuple[re.Pattern[str], float, bool], ...] = (
    (re.compile(r'"seconds_per_run"\s*:\s*' + _NUM), 1.0, False),
    (_ACCESS, 1e6, True),
    (re.compile(r'"qpu_anneal_time_per_sample"\s*:\s*' + _NUM), 1e6, False),
    (re.compile(r'"sampling_ns"\s*:\s*' + _NUM), 1e9, True),
    (re.compile(r"^[ \t]*" + _NUM + r"[ \t]+seconds of classic cpu time", re.MULTILINE), 1.0, True),
    (re.compile(r'^[^,\n]*,[A-Za-z0-9_]+,"[^"\n]*",' + _NUM + "," + _NUM + ",", re.MULTILINE), 1.0, True),
)


_SOURCE = re.compile(r'"time_source"\s*:\s*"([^"\n]{1,40})"')

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
    return time_per_run(text, reads)[0]


def time_per_run(text: str, reads: int) -> tuple[float | None, str]:
    """:func:`seconds_per_run` and where the time came from (the module docstring); ``(None, "none")``."""
    for k, (pattern, units, per_call) in enumerate(_PATTERNS):
        if k == 1 and '"org.ommx.v1.' in text:
            span = _ommx_seconds(text)
            if span is not None and span >= 0:
                return span / max(1, reads), WALL_CLOCK
        m = pattern.search(text)
        if m is None:
            continue
        value = float(m.group(m.lastindex or 1)) / units
        if value < 0:
            continue
        source = QPU_ACCESS if pattern is _ACCESS else SAMPLER_TIMING
        if k == 0:
            said = _SOURCE.search(text)
            source = said.group(1) if said else "recorded"
        return (value / max(1, reads) if per_call else value), source
    return None, "none"


def qpu_timed(sampler: object) -> bool:
    """Whether runs of *sampler* (a run record's ``sampler``) are timed by a QPU's access time: asked of its
    entry in the sampler table (only a real QPU's; ``mock-dwave``'s QPU timing is an estimate, so its runs
    are timed by the wall clock).  A sampler the table does not know is not.

    Examples:
        >>> qpu_timed("dwave"), qpu_timed("mock-dwave"), qpu_timed("qpu"), qpu_timed(None)
        (True, False, False, False)
    """
    spec = known_sampler(sampler)
    return spec is not None and spec.qpu_timed


def recorded_time(record: RunRecord, text: str, reads: int) -> tuple[float | None, str]:
    """The time per run of a file with a run record (the module docstring), and its source.

    Args:
        record: the file's run record (``info["nonoqubo"]``).
        text: the whole file (searched for a real QPU's ``qpu_access_time``).
        reads: the runs the file holds.
    """
    if qpu_timed(record.sampler):
        summed = record.qpu_access_time()  # summed over every problem of the call
        if summed is not None:
            return summed / 1e6 / max(1, reads), QPU_ACCESS
        m = _ACCESS.search(text)
        if m is not None and float(m.group(1)) >= 0:
            return float(m.group(1)) / 1e6 / max(1, reads), QPU_ACCESS
    seconds, source = record.seconds_per_run()
    if seconds is not None:
        return seconds, source or "recorded"
    return time_per_run(text, reads)
