"""The checks of the numeric options suite and evaluate share, made before any work (as ``solve`` does).

Examples:
    >>> workers(None) >= 1, workers(2)
    (True, 2)
    >>> run_seconds(0.5)
    0.5
"""

from __future__ import annotations

import math

from .._util.jobs import MOST_JOBS, workers  # -j's one bound, which the CLI checks too
from ..errors import NonoquboError

__all__ = ["MOST_JOBS", "run_seconds", "workers"]


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
