"""The checks of the numeric options suite and evaluate share, made before any work (as ``solve`` does).

Examples:
    >>> workers(None) >= 1, workers(2)
    (True, 2)
    >>> run_seconds(0.5)
    0.5
"""

from __future__ import annotations

import math
import os

from ..errors import NonoquboError

__all__ = ["MOST_JOBS", "run_seconds", "workers"]

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


def run_seconds(seconds: float | None) -> float | None:
    """*seconds* (``--time``) when it is a positive finite number of seconds, or None.

    Raises:
        NonoquboError: zero, negative, infinite or NaN.
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not (math.isfinite(seconds) and seconds > 0):
        raise NonoquboError(f"--time must be a positive number of seconds, not {seconds}")
    return float(seconds)
