"""Input files that are streams: a FIFO, ``/dev/fd/N`` (a shell's ``<(...)``), a device; read once, with a timeout.

A regular file can be measured (``stat``) and read as often as a command likes.  A stream cannot:
its size is 0 before it is read, ``os.path.isfile`` says it is no file, and what one read takes
is gone for the next.  A command that checks an option's file before the work and reads it again
for the work (``solve --beta-schedule custom <(...)``: the betas checked, then annealed) would
see an empty file the second time.  :func:`read_bytes` is the one reading of an option's file:

* a regular file is read as it is (after ``limit`` is checked against its size);
* a FIFO or a pipe is read once, as a stream, never measured first: in chunks until its writer
  closes it, refused when more than ``limit`` bytes arrive or when no byte arrives for
  ``timeout`` seconds (a FIFO nobody writes); its bytes are kept for this process, keyed by the
  pipe itself (device and inode), so the next read of the same path gets the same bytes;
* a character device (``/dev/stdin`` on a terminal, ``/dev/zero``) is read the same way, not kept.

:func:`is_file_like` is what the option checks ask instead of ``os.path.isfile``: a regular file
or a stream.

Examples:
    >>> import os, tempfile
    >>> fifo = os.path.join(tempfile.mkdtemp(), "betas")
    >>> os.mkfifo(fifo)
    >>> is_file_like(fifo), os.path.isfile(fifo)
    (True, False)
    >>> read_bytes(fifo, "--beta-schedule custom betas", timeout=0.05)
    Traceback (most recent call last):
    nonoqubo.errors.StreamError: --beta-schedule custom betas: nothing arrived for 0.05 s (a pipe or FIFO nobody writes, or never closes?); give a regular file
"""

from __future__ import annotations

import errno
import os
import select
import stat
import time
from pathlib import Path

from ..errors import StreamError

__all__ = ["STREAM_LIMIT", "STREAM_SECONDS", "is_file_like", "is_regular", "is_stream", "file_kind", "read_bytes",
           "read_regular"]

#: seconds a stream may stay silent (no byte, no end) before the read is refused
STREAM_SECONDS = 10.0
#: bytes a stream may hold when the caller names no smaller limit (1 GiB)
STREAM_LIMIT = 1 << 30
_CHUNK = 1 << 16
#: the bytes of every pipe read so far, by (device, inode): a second read gets the same bytes
_KEPT: dict[tuple[int, int], bytes] = {}


def is_stream(path: str | os.PathLike[str]) -> bool:
    """True when *path* exists and is neither a regular file nor a folder (a FIFO, a pipe, a device)."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` *mode* is, in words: ``"a FIFO"``, ``"a character device"`` ...

    >>> file_kind(os.stat("/dev/null").st_mode), file_kind(os.stat(".").st_mode)
    ('a character device', 'a folder')
    """
    for test, words in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"),
                        (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return words
    return "not a regular file"


def is_regular(path: str | os.PathLike[str]) -> bool:
    """True when *path* is a regular file (through links), asked with ``stat``, never opened.

    What a command that walks a folder asks of each file it finds before reading it: a FIFO, a
    socket or a link to ``/dev/zero`` there is no run and no model (:func:`read_regular`).
    """
    try:
        return stat.S_ISREG(os.stat(path).st_mode)
    except (OSError, ValueError):
        return False


def read_regular(path: str | os.PathLike[str], what: str | None = None, *, limit: int = STREAM_LIMIT) -> bytes:
    """The bytes of *path*, a regular file; anything else refused in one line, never read and never waited on.

    The reader of the files a command finds rather than is given (a run file a plan's folder holds, a
    sample file found by walking a folder): a FIFO there would block an ``open()`` for ever (no writer)
    and a link to ``/dev/zero`` never ends, so the file is opened without blocking (``O_NONBLOCK``)
    and checked on its descriptor (``fstat``: the file opened, not a name that may change meanwhile)
    before one byte is read.

    Raises:
        StreamError: not a regular file (a FIFO, a device, a socket), or more than *limit* bytes; one
            line naming *what* (default the path).
        OSError: it cannot be opened or read.

    Examples:
        >>> read_regular("/dev/zero")
        Traceback (most recent call last):
        nonoqubo.errors.StreamError: /dev/zero: a character device, not a regular file; it is not read
    """
    name = os.fspath(path)
    shown = name if what is None else what
    try:
        fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket (or a FIFO opened otherwise): nothing to read as a file
            raise StreamError(f"{shown}: {file_kind(os.stat(name).st_mode)}, not a regular file; it is not read") from None
        raise
    with os.fdopen(fd, "rb") as fh:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise StreamError(f"{shown}: {file_kind(info.st_mode)}, not a regular file; it is not read")
        if info.st_size > limit:
            raise StreamError(f"{shown}: {info.st_size:,} bytes; it may hold at most {limit:,}")
        return fh.read()


def is_file_like(path: str | os.PathLike[str]) -> bool:
    """True when *path* can be read as a file: a regular file, or a stream (:func:`is_stream`)."""
    return os.path.isfile(path) or is_stream(path)


def read_bytes(path: str | os.PathLike[str], what: str, *, limit: int = STREAM_LIMIT,
               timeout: float | None = None) -> bytes:
    """The bytes of the file *path*, a regular file or a stream (see the module docstring).

    Args:
        path: the file.
        what: how a message names it: the option and the path (``--beta-schedule custom /dev/fd/63``).
        limit: the most bytes it may hold.
        timeout: seconds a stream may stay silent (default :data:`STREAM_SECONDS`, read when called).

    Raises:
        StreamError: more than *limit* bytes, or a stream silent for *timeout* seconds (one line naming *what*).
        OSError: it cannot be opened or read (the caller says so in its words).
    """
    name = os.fspath(path)
    info = os.stat(name)
    if stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode):
        if info.st_size > limit:
            raise StreamError(f"{what}: {info.st_size:,} bytes; it may hold at most {limit:,}")
        return Path(name).read_bytes()
    key = (info.st_dev, info.st_ino)
    if stat.S_ISFIFO(info.st_mode) and key in _KEPT:
        return _KEPT[key]
    data = _drain(name, what, limit, STREAM_SECONDS if timeout is None else timeout)
    if stat.S_ISFIFO(info.st_mode):
        _KEPT[key] = data
    return data


def _drain(name: str, what: str, limit: int, timeout: float) -> bytes:
    """Every byte of the stream *name* until its end; refused past *limit* or after *timeout* silent seconds."""
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)  # a FIFO without a writer yet: no wait in open()
    chunks: list[bytes] = []
    size = 0
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise StreamError(f"{what}: nothing arrived for {timeout:g} s (a pipe or FIFO nobody writes, or "
                                 "never closes?); give a regular file")
            if not poller.poll(left * 1000):
                continue
            try:
                chunk = os.read(fd, _CHUNK)
            except BlockingIOError:  # woken without data (a writer came and went): wait on
                continue
            if not chunk:
                return b"".join(chunks)
            size += len(chunk)
            if size > limit:
                raise StreamError(f"{what}: more than {limit:,} bytes arrived; it may hold at most {limit:,}")
            chunks.append(chunk)
            deadline = time.monotonic() + timeout
    finally:
        os.close(fd)
