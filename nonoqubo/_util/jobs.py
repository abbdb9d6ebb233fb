"""``-j N``: how many worker processes a command may start, and its one bound (``suite``, ``evaluate``, ``run``).

A leaf, so that the command line checks ``-j`` before any work (``cli/_options' jobs option``
defines the option, the commands call :func:`workers` first) and the library checks it again.

Examples:
    >>> workers(None) >= 1, workers(2)
    (True, 2)
"""

from __future__ import annotations

import os

from ..errors import NonoquboError

__all__ = ["MOST_JOBS", "workers"]

#: the most worker processes ``-j`` may ask (suite, evaluate, run, the figures): a number past it is no
#: machine's, and ``-j 10**20`` once made evaluate loop ``jobs x in-flight`` times before its first file
MOST_JOBS = 1024


def workers(jobs: int | None) -> int:
    """The number of worker processes: *jobs*, 1 to :data:`MOST_JOBS`, or the CPU count when None.

    Raises:
        NonoquboError: *jobs* is not a whole number of 1 to :data:`MOST_JOBS`.

    Examples:
        >>> workers(10**20)
        Traceback (most recent call last):
        nonoqubo.errors.NonoquboError: -j/--jobs must be at most 1,024 worker processes, not 100,000,000,000,000,000,000
    """
    if jobs is None:
        return max(1, min(MOST_JOBS, os.cpu_count() or 1))
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise NonoquboError(f"-j/--jobs must be a whole number of at least 1, not {jobs}")
    if jobs > MOST_JOBS:
        raise NonoquboError(f"-j/--jobs must be at most {MOST_JOBS:,} worker processes, not {jobs:,}")
    return jobs
