"""Progress on standard error for long builds, presolves, writes and sampling.

Progress shows only when standard error is a terminal and ``--quiet`` is not
given, so pipes, logs and tests stay clean; when it is off every helper here
does nothing at all (no thread, no tqdm import).

Three shapes, by what can be counted:

* :func:`bar`: a tqdm bar of *total* steps (terms written); ``tick(n)`` advances it.
* :func:`reads`: sampling, ``reads done / total, best energy so far``;
  ``tick(done, energy)`` after every read.
* :func:`spinner`: a stage that cannot be counted (building the QUBO, line
  logic): the stage's name, a turning mark and the seconds elapsed, redrawn
  by a background thread, erased when the stage ends.
* :func:`status_line`: a stage that holds the GIL (minorminer's search), so no
  thread could redraw a clock: its message, written once, erased when it ends.

Examples:
    >>> with bar(10, "writing", enabled=False) as tick:
    ...     tick(10)
    >>> with reads(3, enabled=False) as tick:
    ...     tick(1, 12.0)
    >>> with spinner("building QUBO", enabled=False):
    ...     pass
    >>> with status_line("minorminer: try 1/3", enabled=False):
    ...     pass
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator

__all__ = ["bar", "enabled", "reads", "spinner", "status_line"]


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


@contextlib.contextmanager
def reads(total: int, desc: str = "sampling", enabled: bool = True) -> Iterator[Callable[[int, float], None]]:
    """A bar of *total* reads showing the best energy so far; yields ``tick(done, energy)``."""
    if not enabled:
        yield _nothing2
        return
    from tqdm import tqdm

    best = [float("inf")]
    with tqdm(total=total, desc=desc, unit=" reads", file=sys.stderr, leave=False, dynamic_ncols=True) as t:

        def tick(done: int, energy: float) -> None:
            best[0] = min(best[0], energy)
            t.set_postfix_str(f"best energy {best[0]:g}", refresh=False)
            t.update(done - t.n)
            if done == total:
                t.refresh()  # the last state is drawn even when the reads came faster than tqdm redraws

        yield tick


@contextlib.contextmanager
def spinner(stage: str, enabled: bool = True, interval: float = 0.2) -> Iterator[None]:
    """``stage |  3 s`` on standard error, redrawn every *interval* seconds until the block ends."""
    if not enabled:
        yield
        return
    stop = threading.Event()
    start = time.perf_counter()
    marks = "|/-\\"

    def draw() -> None:
        k = 0
        while not stop.wait(interval if k else 0):
            sys.stderr.write(f"\r{stage} {marks[k % 4]} {time.perf_counter() - start:4.0f} s")
            sys.stderr.flush()
            k += 1

    thread = threading.Thread(target=draw, name="nonoqubo-spinner", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        sys.stderr.write("\r" + " " * (len(stage) + 10) + "\r")
        sys.stderr.flush()


@contextlib.contextmanager
def status_line(message: str, enabled: bool) -> Iterator[None]:
    """*message* on standard error while the block runs, erased after (a search that holds the GIL, such as
    minorminer's, would freeze a spinner's clock, so this line has none)."""
    if not enabled:
        yield
        return
    sys.stderr.write(f"\r{message} ...")
    sys.stderr.flush()
    try:
        yield
    finally:
        sys.stderr.write("\r" + " " * (len(message) + 4) + "\r")
        sys.stderr.flush()


def _nothing(n: int) -> None:
    return None


def _nothing2(done: int, energy: float) -> None:
    return None
