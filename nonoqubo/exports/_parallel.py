"""Pieces of a file made by worker threads, handed back in order.

NumPy releases the GIL in its gathers, scatters, sorts and copies, so two
threads really do assemble two pieces of a file at once (the machines this
runs on have 2 cores or more), while the caller writes the pieces already
made.  ``NONOQUBO_THREADS=1`` keeps all the work in the caller's thread.

Examples:
    >>> list(ordered_map(lambda x: x * x, range(5), threads=2))
    [0, 1, 4, 9, 16]
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

__all__ = ["THREADS", "ordered_map"]

#: worker threads (``NONOQUBO_THREADS`` overrides; 1 = in the caller's thread)
THREADS = int(os.environ.get("NONOQUBO_THREADS", min(2, os.cpu_count() or 1)))

T = TypeVar("T")
R = TypeVar("R")


def ordered_map(fn: Callable[[T], R], items: Iterable[T], threads: int | None = None) -> Iterator[R]:
    """``map(fn, items)`` computed by *threads* workers (default :data:`THREADS`), in order.

    At most two pieces per thread wait ahead of the caller, which bounds the
    memory held to a few pieces whatever the file's size.
    """
    items = list(items)
    workers = THREADS if threads is None else threads
    if workers <= 1 or len(items) <= 1:
        yield from map(fn, items)
        return
    with ThreadPoolExecutor(workers, thread_name_prefix="nonoqubo-pieces") as pool:
        pending: deque[Future[R]] = deque()
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) > 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
