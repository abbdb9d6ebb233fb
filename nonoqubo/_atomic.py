"""Atomic file writes: a temporary file beside the target, renamed on success.

A run that fails half-way (an exception, Ctrl-C, a full disk) leaves no partial
file behind, and an existing file is replaced only by a complete new one.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["atomic_write"]


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on clean exit rename it onto *path*.

    ``path == "-"`` writes to standard output instead (no atomicity needed).

    Examples:
        >>> import tempfile, os
        >>> target = os.path.join(tempfile.mkdtemp(), "x.txt")
        >>> with atomic_write(target) as fh:
        ...     _ = fh.write("hello")
        >>> open(target).read()
        'hello'
    """
    if os.fspath(path) == "-":
        stream: IO[Any] = sys.stdout.buffer if binary else sys.stdout
        yield stream
        stream.flush()
        return
    target = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; match a normal open()
        mode = "wb" if binary else "w"
        kwargs: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
        with os.fdopen(fd, mode, **kwargs) as fh:
            yield fh
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
