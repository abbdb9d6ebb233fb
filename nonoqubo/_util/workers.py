"""Worker pools that belong to their command: however it ends, its workers end with it (STYLE.md §7).

Three ways a command ends, and what each does to a pool made by :func:`pool`:

* **Ctrl-C** (SIGINT to the terminal's whole process group) and **SIGTERM** (what ``scancel``,
  ``timeout``, ``docker stop`` and a batch queue's wall time send to the command alone): the command
  raises :class:`~nonoqubo.errors.Terminated` (exit status 143) for SIGTERM where Ctrl-C raises
  ``KeyboardInterrupt`` (:func:`terminate_as_interrupt`), so it stops the same way (its log line, its index saved, no torn
  file); leaving the ``with pool(...)`` block by an exception stops the workers at once (SIGTERM to
  each, SIGKILL a moment later) instead of waiting for their running tasks, which SIGTERM never reached.
  The workers ignore SIGINT: Ctrl-C is the command's to handle, and a worker's traceback is noise.
* **SIGKILL** (the OOM killer, ``kill -9``): nothing runs in the command, so each worker watches for
  its parent's death itself (:func:`die_with_parent`, the pool's initializer).  On Linux the kernel does
  it: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` (through ctypes, no dependency) kills the worker the moment
  its parent goes, even in the middle of a C loop that holds the GIL, which a thread could not
  interrupt.  Elsewhere (macOS, a libc without prctl) a daemon thread polls ``os.getppid()`` every
  :data:`WATCH_SECONDS` and ends the worker when it changes (the worker was re-parented to init).
  Both run, on Linux too: the thread also covers a parent that died before ``prctl`` was made.
  (The kernel's "parent" is the *thread* that forked the worker: make a pool from a thread that outlives
  it, as every command here does from its main thread.)

Examples:
    >>> with pool(2) as workers:
    ...     sorted(workers.map(abs, [-2, 1]))
    [1, 2]
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable, NamedTuple, Sequence

from ..errors import Terminated

__all__ = ["WATCH_SECONDS", "Overran", "die_with_parent", "pool", "stop_workers", "terminate_as_interrupt",
           "watched"]

#: how often a worker without ``prctl`` looks whether its parent is still there
WATCH_SECONDS = 1.0
#: how long a stopped worker is given to end on SIGTERM before SIGKILL
GRACE_SECONDS = 2.0
_PR_SET_PDEATHSIG = 1


def _parent_death_signal() -> bool:
    """Ask the Linux kernel to SIGKILL this process when its parent dies; whether it could."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent(parent: int | None = None) -> None:
    """Make this (worker) process end when its parent does (the module docstring); a pool's initializer.

    Args:
        parent: the pid the worker was started by (default: its parent now); a worker whose parent is
            already another (its command died before this ran) ends at once.
    """
    start = os.getppid()
    if parent is not None and start != parent and multiprocessing.get_start_method(allow_none=True) != "forkserver":
        os._exit(1)  # the command died while this worker started
    _parent_death_signal()
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # the command's SIGTERM handler is not the worker's
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the command, which stops its workers

    def watch() -> None:
        while True:
            time.sleep(WATCH_SECONDS)
            if os.getppid() != start:
                os._exit(1)

    threading.Thread(target=watch, name="nonoqubo-parent-watch", daemon=True).start()


def _processes(executor: ProcessPoolExecutor) -> list[Any]:
    # the pool's worker processes: CPython keeps them in ``_processes`` (3.8 to 3.14); read-only use
    return list((getattr(executor, "_processes", None) or {}).values())


def stop_workers(executor: ProcessPoolExecutor) -> None:
    """End *executor*'s worker processes now (SIGTERM, then SIGKILL after :data:`GRACE_SECONDS`), without
    waiting for the tasks they run; the pool is broken after it."""
    processes = _processes(executor)
    for process in processes:
        with contextlib.suppress(Exception):
            process.terminate()
    end = time.monotonic() + GRACE_SECONDS
    for process in processes:
        with contextlib.suppress(Exception):
            process.join(max(0.0, end - time.monotonic()))
            if process.is_alive():
                process.kill()
                process.join(1.0)


@contextlib.contextmanager
def pool(jobs: int, context: Any = None) -> Iterator[ProcessPoolExecutor]:
    """A process pool of *jobs* workers that die with this process (the module docstring).

    Leaving the block normally waits for the tasks, as ``with ProcessPoolExecutor()`` does; leaving it
    by an exception (Ctrl-C, SIGTERM, a failure) cancels the queued tasks and stops the workers at once.
    """
    executor = ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=die_with_parent,
                                   initargs=(os.getpid(),))
    try:
        yield executor
    except BaseException:
        stop_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated(128 + signum)


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While in the block, SIGTERM raises :class:`~nonoqubo.errors.Terminated` (the ``SystemExit`` of status 143)
    in the main thread, so a command unwinds on it as it does on Ctrl-C.  Outside the main thread: nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_terminated)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


class Overran(NamedTuple):
    """What :func:`watched` gives for an item whose call ran past its limit: its process was killed *seconds* after
    the call marked its start."""

    seconds: float


Mark = Callable[[float], None]


def watched(call: Callable[[Any, Mark], Any], items: Sequence[Any], limit: float, grace: float = 1.0) -> list[Any]:
    """``call(item, mark)`` of every item, in order, in a child process (forked) this one kills when a call runs
    *grace* seconds past *limit*: what holds a time limit where the call cannot be stopped from inside (a C loop
    that holds the GIL) and its process is not the command's to kill (a thread of a Dask worker).

    The clock of an item starts when its call says so, ``mark(time.perf_counter())`` (a model read before its
    sampling is not counted); an item killed past its limit gives :class:`Overran` (the seconds since its mark)
    and the items after it go on in a new child.  The child dies with this process (:func:`die_with_parent`);
    forked, it has every module and cached model of this one already (a Dask worker is not a daemon's
    ``multiprocessing`` parent, so the fork is ``os.fork`` itself).  POSIX only.

    Raises:
        ChildProcessError: the child ended before its results (killed from outside, out of memory).
    """
    results: list[Any] = []
    while len(results) < len(items):
        results.extend(_one_child(call, items[len(results):], limit, grace))
    return results


def _one_child(call: Callable[[Any, Mark], Any], items: Sequence[Any], limit: float, grace: float) -> list[Any]:
    """The results of one child of :func:`watched`: all of *items*, or up to the one it was killed in."""
    reader, writer = multiprocessing.Pipe(duplex=False)
    parent = os.getpid()
    with warnings.catch_warnings():  # Python 3.12+ warns of fork in a threaded process: the child runs no thread's lock
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: results through the pipe, then out without any of the parent's exit handlers
        status = 0
        try:
            reader.close()
            die_with_parent(parent)
            for item in items:
                writer.send(("done", call(item, lambda since: writer.send(("start", since)))))
        except BaseException:
            status = 1
        finally:
            os._exit(status)
    writer.close()
    out: list[Any] = []
    since: float | None = None
    try:
        while len(out) < len(items):
            wait = None if since is None else max(0.0, since + limit + grace - time.perf_counter())
            if not reader.poll(wait):
                os.kill(pid, signal.SIGKILL)
                out.append(Overran(time.perf_counter() - (since or 0.0)))
                break
            try:
                what, value = reader.recv()
            except EOFError:
                raise ChildProcessError("its process ended before it gave a result (killed, or out of memory?)") from None
            if what == "start":
                since = value
            else:
                out.append(value)
                since = None
    finally:
        reader.close()
        if len(out) < len(items):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    return out
