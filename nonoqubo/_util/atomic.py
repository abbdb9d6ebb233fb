"""Atomic file writes: a temporary file beside the target, renamed on success.

A run that fails half-way (an exception, Ctrl-C, ``kill``, a full disk) leaves no partial
file behind, and an existing file is replaced only by a complete new one.  What the target
*is* decides how it is written:

* a regular file, or a name that does not exist yet: written to ``NAME.EXT.nonoqubo-tmp-XXXX``
  in the same directory (a name a user recognises if a power cut leaves one behind), then
  renamed onto the target;
* a symbolic link: its final target is written that way and the link stays a link;
* a device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe): written directly, as a
  shell redirection would; renaming a file over it would replace the device itself;
* ``-``: standard output, its bytes (text as UTF-8 with ``\\n``, as in a file); when its reader
  leaves, ``BrokenPipeError`` reaches the caller, who must not claim the file was written.

While a temporary file exists, SIGTERM is handled like SIGINT: the temporary file is removed
and the process exits with status 143 (128 + SIGTERM), as it would have without the handler.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import stat
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from typing import IO, Any

from ..errors import Terminated, WriteError
from .stream import is_stream

__all__ = ["INDEX_NAMES", "TEMP_MARK", "atomic_write", "check_distinct_outputs", "check_not_input", "check_not_inputs",
           "check_writable", "wrote"]

#: what every temporary file's name carries after the target's name
TEMP_MARK = ".nonoqubo-tmp-"


@contextlib.contextmanager
def atomic_write(path: str | os.PathLike[str], binary: bool = False) -> Iterator[IO[Any]]:
    """Open a temporary file for writing; on clean exit rename it onto *path*.

    ``path == "-"`` writes to standard output, a device or FIFO is written directly, and a
    symbolic link's target is replaced (the link is kept); see the module docstring.

    Raises:
        WriteError: *path* cannot be written (a missing or read-only folder, a full disk...); the
            message names *path*, never the temporary file, which is gone; an existing target is
            untouched.  ``BrokenPipeError`` (standard output's reader left) passes through.

    Examples:
        >>> import tempfile, os
        >>> target = os.path.join(tempfile.mkdtemp(), "x.txt")
        >>> with atomic_write(target) as fh:
        ...     _ = fh.write("hello")
        >>> open(target).read()
        'hello'
    """
    name = os.fspath(path)
    try:
        with _atomic(name, binary) as fh:
            yield fh
    except BrokenPipeError:  # the reader of standard output left: the caller decides
        raise
    except OSError as exc:
        if exc.filename is not None and os.fspath(exc.filename) != name and TEMP_MARK not in os.fspath(exc.filename):
            raise  # about another file the caller opened meanwhile
        raise WriteError(f"cannot write {name}: {exc.strerror or exc}") from None


@contextlib.contextmanager
def _atomic(path: str, binary: bool) -> Iterator[IO[Any]]:
    mode = "wb" if binary else "w"
    kwargs: dict[str, Any] = {} if binary else {"encoding": "utf-8", "newline": "\n"}
    if path == "-":
        with _standard_output(binary) as stream:
            yield stream
        return
    target = os.path.realpath(os.fspath(path))  # through symbolic links: the link itself stays
    try:
        kind = os.stat(target).st_mode
    except OSError:  # not there yet (or not reachable: the temporary file will say why)
        kind = stat.S_IFREG
    if not stat.S_ISREG(kind) and not stat.S_ISDIR(kind):
        with open(target, mode, **kwargs) as direct:  # a device or FIFO: no rename possible
            yield direct
        return
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=f"{os.path.basename(target)}{TEMP_MARK}", dir=directory)
    try:
        with _terminate_as_interrupt():
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; match a normal open()
            with os.fdopen(fd, mode, **kwargs) as fh:
                yield fh
            os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def check_writable(path: str | os.PathLike[str] | None) -> None:
    """Refuse, before any work, a file that could not be written for its folder: missing, or not a folder.

    The message is :func:`atomic_write`'s own (``cannot write PATH: reason``); ``-`` and None pass.

    Raises:
        WriteError: the folder of *path* does not exist or is not a folder.
    """
    if path is None or os.fspath(path) in ("", "-"):
        return
    name = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(name))
    if not os.path.isdir(folder):
        reason = "Not a directory" if os.path.lexists(folder) or _under_a_file(folder) else "No such file or directory"
        raise WriteError(f"cannot write {name}: {reason}")


def check_not_input(output: str | os.PathLike[str] | None, *sources: str | os.PathLike[str] | None) -> None:
    """Refuse an output that is one of the command's input files, by any path (another spelling, a link).

    *sources* are every file the command opens (the model, the samples, an embedding, a topology
    file ...); None and ``-`` are skipped, and so is a source that does not exist (a topology spec
    such as ``pegasus:16``).  A command checks this before any work, so nothing is overwritten.

    Raises:
        WriteError: *output* is the same file as one of *sources* (one line naming both).
    """
    if output is None or os.fspath(output) == "-":
        return
    for source in sources:
        if source is None or os.fspath(source) in ("", "-"):
            continue
        if _same_file(os.fspath(output), os.fspath(source)):  # a missing one (or a NUL byte): not the same file
            raise WriteError(f"cannot write {os.fspath(output)}: it is the input file {os.fspath(source)}; "
                             "name another output")


#: the index files a folder of models may hold (``suite``'s): inputs of whoever reads that folder, there or not yet
INDEX_NAMES = ("index.json", "index.csv")


def check_not_inputs(outputs: Sequence[tuple[str, str | os.PathLike[str] | None]],
                     inputs: Sequence[str | os.PathLike[str] | None], *,
                     walked: Sequence[str | os.PathLike[str] | None] = ()) -> None:
    """Refuse an output that lands on what the same command reads: a file, a file in a folder, a folder.

    :func:`check_not_input`'s sibling for commands that read folders.  *outputs* are ``(option,
    path)`` pairs (files or folders; None, ``-`` and a device or FIFO, written to but never
    replaced, pass); *inputs* are the files and folders the command is given; *walked* are those of
    the folders whose every file the command reads (``evaluate``'s SAMPLES: a file found there is
    a run).  Paths are compared through symbolic links (:func:`os.path.realpath`, and the file
    itself by device and inode, so a link in a folder to a file elsewhere counts).  An output is
    refused when it is

    * one of the *inputs* (a file), or a file that exists in an input folder or below (a sample
      file, a suite's model), or a link to one;
    * a folder's index file (:data:`INDEX_NAMES`), there or not yet: the next reading of the folder
      would take it for the index;
    * the same path as an input folder, or inside a *walked* folder (the next run would read
      what it wrote as input: ``evaluate --figures runs/sa``).

    A new output inside a folder read through its index (a suite folder: ``--submission
    10-nonogram/submissions/X``, QOBLIB's own layout) is allowed.  A command checks this before any
    work, so nothing is overwritten.

    Raises:
        WriteError: one line naming the option, the output and the input it would land on.

    Examples:
        >>> import tempfile
        >>> runs = tempfile.mkdtemp()
        >>> check_not_inputs([("--csv", os.path.join(runs, "..", "table.csv"))], ["model.json", runs], walked=[runs])
        >>> check_not_inputs([("--figures", os.path.join(runs, "figs"))], [runs], walked=[runs])  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        nonoqubo.errors.WriteError: --figures .../figs: it is inside the input folder ..., whose every file is read as input; name a path outside it
    """
    given = [(option, os.fspath(path)) for option, path in outputs
             if path is not None and os.fspath(path) not in ("", "-") and not is_stream(os.fspath(path))]
    if not given:
        return
    for option, name in given:
        _check_length(option, name)
    names = [os.fspath(p) for p in inputs if p is not None and os.fspath(p) not in ("", "-")]
    walked_real = {_real(os.fspath(p)) for p in walked if p is not None and os.path.isdir(p)}
    folders = [(name, _real(name)) for name in names if os.path.isdir(name)]
    for option, name in given:
        real = _real(name)
        for source in names:
            if not os.path.isdir(source) and (real == _real(source) or _same_file(name, source)):
                raise WriteError(f"{option} {name}: it is the input file {source}; name another output")
        for source, root in folders:
            inside = real == root or real.startswith(root.rstrip(os.sep) + os.sep)
            if not inside:
                continue
            if real != root and os.path.lexists(name) and not os.path.isdir(name):
                raise WriteError(f"{option} {name}: it is a file of the input folder {source}; name another output")
            if real == root or root in walked_real:
                raise WriteError(f"{option} {name}: it is the input folder {source}; name a folder outside it"
                                 if real == root else f"{option} {name}: it is inside the input folder {source}, "
                                 "whose every file is read as input; name a path outside it")
            if os.path.basename(real) in INDEX_NAMES and os.path.dirname(real) == root:
                raise WriteError(f"{option} {name}: it would be the index of the input folder {source}; "
                                 "name another output")
    existing = {_identity(name): (option, name) for option, name in given if os.path.isfile(name)}
    existing.pop(None, None)
    for source, root in folders if existing else ():
        for top, dirs, files in os.walk(source):
            dirs.sort()
            for file in files:
                path = os.path.join(top, file)
                hit = existing.get(_identity(path))
                if hit is not None:
                    raise WriteError(f"{hit[0]} {hit[1]}: it is the input file {path} (in the folder {source}); "
                                     "name another output")


#: the most bytes of a path the system opens (Linux's PATH_MAX): a longer output cannot be written
PATH_BYTES = 4096


def _check_length(option: str, name: str) -> None:
    """Refuse an output path no system call takes, before it is resolved: resolving a path of 80,000
    characters through its 5,000 folders took seconds (one ``lstat`` a folder, each walking the path again).

    Raises:
        WriteError: the path has more than :data:`PATH_BYTES` bytes (shown cut, with its length).
    """
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > PATH_BYTES:
        raise WriteError(f"cannot write {option} {name[:60]!r}... ({size:,} bytes): a path may have at most "
                         f"{PATH_BYTES:,} bytes")


def _real(path: str) -> str:
    """The normalised real path: every symbolic link on the way resolved."""
    return os.path.normcase(os.path.realpath(path))


def _identity(path: str) -> tuple[int, int] | None:
    """The file's device and inode (through links), None when it cannot be stat'ed."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return info.st_dev, info.st_ino


def check_distinct_outputs(*outputs: tuple[str, str | os.PathLike[str] | None]) -> None:
    """Refuse two outputs of one command that name the same file, whatever the spelling.

    *outputs* are ``(option, path)`` pairs, every file (or folder) the command will write, e.g.
    ``("-o", "x.svg"), ("--image", "./x.svg")``; None is skipped.  Two paths are the same when
    :func:`os.path.samefile` says so (both exist: a hard link, a symbolic link, another spelling)
    or when their normalised real paths are equal (``a/../x.svg`` and ``x.svg``, a name that does
    not exist yet, reached through a linked folder).  ``-`` (standard output) counts too: it can
    take one output.  A device or a FIFO that exists (``/dev/null``) may take several: it is not
    overwritten, only written to.  A command checks this before any work, so nothing is written.

    Raises:
        WriteError: two options name one path (one line naming both options and the path).

    Examples:
        >>> check_distinct_outputs(("-o", "a.json"), ("--image", "a.svg"), ("--csv", None))
        >>> check_distinct_outputs(("-o", "x.svg"), ("--image", "./x.svg"))
        Traceback (most recent call last):
        nonoqubo.errors.WriteError: -o and --image both name x.svg: one output would overwrite the other; name two files
    """
    seen: list[tuple[str, str, str]] = []  # (option, path as given, its normalised real path)
    for option, given in outputs:
        if given is None or os.fspath(given) == "":
            continue
        name = os.fspath(given)
        _check_length(option, name)
        if name != "-" and is_stream(name):  # /dev/null, a FIFO: written to, never replaced
            continue
        key = name if name == "-" else _real(name)
        for other, other_name, other_key in seen:
            if key == other_key or (name != "-" and other_name != "-" and _same_file(name, other_name)):
                raise WriteError(_twice(other, other_name, option, name))
        seen.append((option, name, key))


def _twice(first: str, first_name: str, second: str, name: str) -> str:
    """The message of two outputs on one path (``-o`` twice, or two options)."""
    if name == "-":
        options = f"{first} -" if first == second else f"{first} - and {second} -"
        return f"standard output is named twice ({options}): it can take one output"
    shown = first_name if os.path.normpath(name) == os.path.normpath(first_name) else f"{first_name} ({name})"
    who = f"{first} names {shown} twice" if first == second else f"{first} and {second} both name {shown}"
    return f"{who}: one output would overwrite the other; name two files"


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except (OSError, ValueError):  # one does not exist (or cannot: a NUL byte): the real paths decided
        return False


def wrote(path: str | os.PathLike[str], what: str) -> str:
    """The line a command prints (on standard error, unless ``-q``) for a file it has written.

    Every command says it the same way: the path, what the file holds, and its size (a folder:
    how many files; standard output: no size).

    >>> wrote("-", "qbsolv")
    'wrote standard output (qbsolv)'
    >>> wrote(__file__, "Python").startswith(f"wrote {__file__} (Python, ") and wrote(__file__, "x").endswith(" bytes)")
    True
    """
    name = os.fspath(path)
    if name == "-":
        return f"wrote standard output ({what})"
    if os.path.isdir(name):
        count = sum(len(files) for _, _, files in os.walk(name))
        return f"wrote {name} ({what}, {count} file{'s' * (count != 1)})"
    try:
        size = f", {os.path.getsize(name):,} bytes" if os.path.isfile(name) else ""
    except OSError:
        size = ""
    return f"wrote {name} ({what}{size})"


def _under_a_file(folder: str) -> bool:
    parent = os.path.dirname(folder)
    while parent and parent != folder and not os.path.exists(folder):
        folder, parent = parent, os.path.dirname(parent)
    return os.path.exists(folder) and not os.path.isdir(folder)


@contextlib.contextmanager
def _standard_output(binary: bool) -> Iterator[IO[Any]]:
    """Standard output's bytes, text written as a file would be (UTF-8, ``\\n``).

    A reader that leaves raises ``BrokenPipeError`` here, whatever wraps ``sys.stdout``; a
    ``sys.stdout`` with no byte stream (a ``StringIO``) is written as it is.  Under ``python -u``
    (``PYTHONUNBUFFERED``) standard output's byte stream is a raw ``FileIO``, whose ``write``
    may write part of the data and say so only in its return value (a pipe whose reader left
    takes 64 kB and drops the rest); it is wrapped in a buffered writer, which writes all or
    raises.
    """
    sys.stdout.flush()
    raw = getattr(sys.stdout, "buffer", None)
    if raw is None:
        yield sys.stdout
        return
    stream = io.BufferedWriter(raw) if isinstance(raw, io.RawIOBase) else raw
    try:
        if binary:
            yield stream
            stream.flush()
        else:
            text = io.TextIOWrapper(stream, encoding="utf-8", newline="\n", write_through=False)
            try:
                yield text
                text.flush()
            finally:
                text.detach()  # standard output itself stays open
    finally:
        if stream is not raw:
            stream.detach()


def _on_sigterm(signum: int, frame: Any) -> None:
    raise Terminated(128 + signum)


@contextlib.contextmanager
def _terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM raises :class:`~nonoqubo.errors.Terminated` meanwhile (when nobody else handles it)."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
