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
* :func:`steps`: a long stage of counted steps: a tqdm bar on a terminal; in a log or a pipe
  nothing, unless progress is *forced* (``--progress``, as git's), then one line per 10 % done
  (``judging sample files: 30 % (16 of 54)``).

Progress is for a person at a terminal, as git's is: what a command prints to a file or a pipe
is the same on a fast machine and a slow one.  ``--progress`` forces it anyway (a batch job's
log), ``--no-progress`` silences it on a terminal (:func:`nonoqubo.cli._common.add_progress_argument`).

Examples:
    >>> with bar(10, "writing", enabled=False) as tick:
    ...     tick(10)
    >>> with reads(3, enabled=False) as tick:
    ...     tick(1, 12.0)
    >>> with spinner("building QUBO", enabled=False):
    ...     pass
    >>> with status_line("minorminer: try 1/3", enabled=False):
    ...     pass
    >>> import io
    >>> log = io.StringIO()
    >>> with steps(4, "judging", quiet=False, stream=log) as tick:  # not a terminal: nothing
    ...     tick(4)
    >>> log.getvalue()
    ''
    >>> with steps(4, "judging", quiet=False, stream=log, forced=True) as tick:
    ...     for _ in range(4):
    ...         tick(1)
    >>> print(log.getvalue(), end="")
    judging: 25 % (1 of 4)
    judging: 50 % (2 of 4)
    judging: 75 % (3 of 4)
    judging: 100 % (4 of 4)
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, TextIO

__all__ = ["Steps", "Tick", "bar", "enabled", "reads", "spinner", "status_line", "steps"]


def enabled(quiet: bool = False, forced: bool | None = None) -> bool:
    """True when progress should show: *forced* when given (``--progress``, ``--no-progress``), else
    when standard error is a terminal and not *quiet*."""
    if forced is not None:
        return forced
    return not quiet and sys.stderr.isatty()


class Tick:
    """What :func:`bar` yields: ``tick(n)`` advances the bar by *n*; ``tick.note(line)`` shows *line* beside it
    (the latest line per name before its first ``": "``, so workers' lines stand side by side)."""

    def __init__(self, bar: Any = None) -> None:
        self._bar = bar
        self._notes: dict[str, str] = {}

    def __call__(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def note(self, line: str) -> None:
        if self._bar is None:
            return
        who, _, what = line.partition(": ")
        self._notes[who] = what or who
        self._bar.set_postfix_str("; ".join(f"{k}: {v}" if v != k else v for k, v in self._notes.items()),
                                  refresh=False)


@contextlib.contextmanager
def bar(total: int | None, desc: str, enabled: bool = True, unit: str = " terms",
        clock: float = 1.0) -> Iterator[Tick]:
    """A progress bar of *total* steps; yields a :class:`Tick`: ``tick(n)`` advances it by *n*.

    The bar is redrawn every *clock* seconds even without a tick, so its elapsed time keeps
    running through a long step (a suite member that takes minutes to repair), and so does a
    ``tick.note(line)`` (the repair's step).  With ``enabled=False`` (or no tqdm installed) ``tick``
    does nothing.
    """
    if not enabled:
        yield Tick()
        return
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a runtime dependency
        yield Tick()
        return
    with tqdm(total=total, desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False,
              dynamic_ncols=True) as t:
        stop = threading.Event()

        def redraw() -> None:
            while not stop.wait(clock):
                t.refresh()

        thread = threading.Thread(target=redraw, name="nonoqubo-bar-clock", daemon=True)
        thread.start()
        try:
            yield Tick(t)
        finally:
            stop.set()
            thread.join()


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


#: seconds a stage runs before :func:`steps` reports it in a forced log (a short command prints nothing)
LOG_AFTER = 0.0


class Steps:
    """What :func:`steps` yields: ``tick(n)`` after *n* more steps, ``tick.plan(total)`` once the total is known.

    On a terminal it drives a tqdm bar (*bar*); elsewhere it writes a line each time the done
    count crosses another 10 % of the total, once *after* seconds have passed since it started.
    """

    def __init__(self, total: int | None, desc: str, stream: TextIO | None, after: float, unit: str,
                 bar: Any = None) -> None:
        self.total, self.desc, self.stream, self.after, self.unit, self.bar = total, desc, stream, after, unit, bar
        self.done = 0
        self.said = 0  # tenths already reported
        self.start = time.perf_counter()

    def plan(self, total: int) -> None:
        """The number of steps, when it is known only after the stage began."""
        self.total = total
        if self.bar is not None:
            self.bar.total = total
            self.bar.refresh()

    def __call__(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
            return
        if self.stream is None or not self.total:
            return
        tenths = min(10, self.done * 10 // self.total)
        if tenths > self.said and time.perf_counter() - self.start >= self.after:
            self.said = tenths
            self.stream.write(f"{self.desc}: {100 * self.done // self.total} % ({self.done} of {self.total}{self.unit})\n")
            self.stream.flush()


@contextlib.contextmanager
def steps(total: int | None, desc: str, *, quiet: bool, stream: TextIO | None = None, after: float = LOG_AFTER,
          unit: str = "", forced: bool = False) -> Iterator[Steps]:
    """Progress of *total* counted steps (None: given later with ``tick.plan``); yields a :class:`Steps`.

    Nothing with *quiet*.  On a terminal (*stream*, default standard error, is a TTY) a tqdm
    bar; elsewhere (a log, a pipe, a batch job) nothing, unless *forced*: then one line per 10 %
    of the steps, once the stage has run *after* seconds.
    """
    out = sys.stderr if stream is None else stream
    if quiet or not (forced or out.isatty()):
        yield Steps(total, desc, None, after, unit)
        return
    if out.isatty():
        try:
            from tqdm import tqdm
        except ImportError:  # pragma: no cover - tqdm is a runtime dependency
            yield Steps(total, desc, None, after, unit)
            return
        # whole counts (tasks, files): unit_scale would draw 5 of 54 as "5.00/54.0"
        with tqdm(total=total, desc=desc, unit=unit or " steps", file=out, leave=False,
                  dynamic_ncols=True) as t:
            yield Steps(total, desc, out, after, unit, bar=t)
        return
    yield Steps(total, desc, out, after, unit)


def _nothing2(done: int, energy: float) -> None:
    return None
