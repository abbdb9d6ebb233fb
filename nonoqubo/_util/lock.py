"""A lock file that lets one process at a time work in a folder (``nonoqubo run``'s runs folder).

The lock is a small JSON file, ``{"pid": ..., "host": ..., "since": ...}``, made whole and at once:
its text is written to a temporary file that is then hard-linked to the lock's name (``os.link``
fails when the name exists, on local disks and on NFS alike), or, where a file system has no
hard links, created with ``O_CREAT | O_EXCL``.  Exactly one of two processes that try at the same
moment gets it (Snakemake's and Nextflow's working-folder locks work the same way).

* **Held.**  Another process's lock is refused in one line naming the holder: its pid, its host and
  since when (:class:`~nonoqubo.errors.LockHeld`).
* **Stale.**  A lock whose process is gone (its pid is not running on this host) was left by a killed
  run; it is taken over: under a second, short-lived lock (``NAME.takeover``, made the same way),
  the lock is read again and removed only if it is still the stale one, then made anew.  Two
  processes that find it stale together cannot both take it.
* **Another host's.**  Its pid cannot be checked from here: the lock is refused as held, and the
  message says how to clear it (remove the file once that run is known to be gone).
* **Released** when the block ends, however it ends but SIGKILL (which leaves a stale lock).

Examples:
    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "runs.lock")
    >>> with hold(path, "runs/"):
    ...     os.path.exists(path)
    True
    >>> os.path.exists(path)
    False
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import time
from collections.abc import Iterator
from datetime import datetime, timezone
from ..errors import LockHeld

__all__ = ["Holder", "hold", "holder_of"]

#: how long a lock file that is still empty (being made by O_EXCL) is waited for
SETTLE_SECONDS = 1.0


class Holder(dict):  # type: ignore[type-arg]
    """A lock's content: ``pid``, ``host``, ``since`` (a UTC time), and a ``token`` unique to the taking."""

    def describe(self) -> str:
        return f"pid {self.get('pid')} on {self.get('host')}, since {self.get('since')}"

    def alive(self) -> bool:
        """Whether the holder may still run: True for another host's (it cannot be checked from here)."""
        if self.get("host") != socket.gethostname():
            return True
        pid = self.get("pid")
        if isinstance(pid, bool) or not isinstance(pid, int) or pid <= 0:
            return False
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:  # another user's process: it runs
            return True
        except OSError:
            return False
        return True


def _mine() -> Holder:
    return Holder(pid=os.getpid(), host=socket.gethostname(),
                  since=datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
                  token=f"{os.getpid()}-{time.time_ns()}")


def holder_of(path: str) -> Holder | None:
    """The lock at *path*: its holder, an empty :class:`Holder` for a file that is not a whole lock (being
    made, or garbage), or None when there is none."""
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            text = fh.read(4096)
    except FileNotFoundError:
        return None
    except OSError:
        return Holder()
    try:
        doc = json.loads(text)
    except ValueError:
        return Holder()
    return Holder(doc) if isinstance(doc, dict) else Holder()


def _create(path: str, holder: Holder) -> bool:
    """Make the lock *path* holding *holder*, whole and at once; False when it exists."""
    text = json.dumps(holder)
    temp = f"{path}.{holder['token']}.tmp"
    try:
        with open(temp, "x", encoding="utf-8") as fh:
            fh.write(text)
        try:
            os.link(temp, path)
            return True
        except FileExistsError:
            return False
        except OSError:  # no hard links on this file system: O_EXCL, then the text
            pass
    finally:
        with contextlib.suppress(OSError):
            os.remove(temp)
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(text)
    return True


def _settled(path: str) -> Holder | None:
    """The lock at *path*, waiting up to :data:`SETTLE_SECONDS` for one that is being made."""
    end = time.monotonic() + SETTLE_SECONDS
    holder = holder_of(path)
    while holder is not None and not holder and time.monotonic() < end:
        time.sleep(0.05)
        holder = holder_of(path)
    return holder


def _take_over(path: str, stale: Holder) -> None:
    """Remove the stale lock *path*, if it is still *stale*, under ``PATH.takeover``."""
    guard = f"{path}.takeover"
    me = _mine()
    if not _create(guard, me):
        other = _settled(guard)
        if other is not None and other and other.alive():
            return  # another process takes it over now; the caller tries again
        with contextlib.suppress(OSError):
            os.remove(guard)  # a takeover that died halfway
        if not _create(guard, me):
            return
    try:
        if _settled(path) == stale:
            with contextlib.suppress(FileNotFoundError):
                os.remove(path)
    finally:
        if holder_of(guard) == me:
            with contextlib.suppress(OSError):
                os.remove(guard)


def _refusal(path: str, what: str, holder: Holder) -> LockHeld:
    if not holder:
        return LockHeld(f"{path}: {what} is locked by a lock file that is not whole (not a lock nonoqubo wrote?); "
                        f"if no run uses {what}, remove {path}")
    where = "" if holder.get("host") == socket.gethostname() else \
        f"; a lock of another host cannot be checked from here: if that run is gone, remove {path}"
    return LockHeld(f"{path}: {what} is in use by another run ({holder.describe()}){where}")


@contextlib.contextmanager
def hold(path: str, what: str) -> Iterator[Holder]:
    """Hold the lock *path* (on *what*, a name for messages) for the block (the module docstring).

    Raises:
        LockHeld: another living process holds it, or its holder cannot be checked (another host).
    """
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    me = _mine()
    for _ in range(5):
        if _create(path, me):
            break
        holder = _settled(path)
        if holder is None:
            continue  # released meanwhile
        if not holder or holder.alive():  # a living holder, or a file still not whole after waiting
            raise _refusal(path, what, holder)
        _take_over(path, holder)
    else:
        raise LockHeld(f"{path}: cannot take the lock on {what} (other runs take it at the same time)")
    try:
        yield me
    finally:
        if holder_of(path) == me:
            with contextlib.suppress(OSError):
                os.remove(path)
