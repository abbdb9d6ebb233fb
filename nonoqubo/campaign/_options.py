"""The check of a number of seconds evaluate and run share, made before any work (as ``solve`` does);
``-j``'s is :func:`nonoqubo._util.jobs.workers`.

Examples:
    >>> run_seconds(0.5)
    0.5
"""

from __future__ import annotations

import math

from ..errors import NonoquboError

__all__ = ["run_seconds"]


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
