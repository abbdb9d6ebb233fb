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

__all__ = ["run_seconds", "workers"]


def workers(jobs: int | None) -> int:
    """The number of worker processes: *jobs*, at least 1, or the CPU count when None.

    Raises:
        NonoquboError: *jobs* is not a whole number of at least 1.
    """
    if jobs is None:
        return max(1, os.cpu_count() or 1)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise NonoquboError(f"-j/--jobs must be a whole number of at least 1, not {jobs}")
    return jobs


def run_seconds(seconds: float | None, option: str = "--time") -> float | None:
    """*seconds* (``--time``) when it is a positive finite number of seconds, or None.

    Raises:
        NonoquboError: zero, negative, infinite or NaN.
    """
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or \
            not (math.isfinite(seconds) and seconds > 0):
        raise NonoquboError(f"{option} must be a positive number of seconds, not {seconds}")
    return float(seconds)
