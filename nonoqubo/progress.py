"""Progress bars on standard error for long builds and exports (tqdm).

A bar shows only when standard error is a terminal and ``--quiet`` is not
given, so pipes, logs and tests stay clean.  Writers call :func:`bar` with the
number of terms they will write and tick it once per chunk.

Examples:
    >>> with bar(10, "writing", enabled=False) as tick:
    ...     tick(10)
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator

__all__ = ["bar", "enabled"]


def enabled(quiet: bool = False) -> bool:
    """True when progress should show: stderr is a terminal and not *quiet*."""
    return not quiet and sys.stderr.isatty()


@contextlib.contextmanager
def bar(total: int | None, desc: str, enabled: bool = True, unit: str = " terms") -> Iterator[Callable[[int], None]]:
    """A progress bar of *total* steps; yields ``tick(n)`` that advances it by *n*.

    With ``enabled=False`` (or no tqdm installed) ``tick`` does nothing.
    """
    if not enabled:
        yield _nothing
        return
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a runtime dependency
        yield _nothing
        return
    with tqdm(total=total, desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False,
              dynamic_ncols=True) as t:
        yield t.update


def _nothing(n: int) -> None:
    return None
