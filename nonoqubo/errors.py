"""Exceptions raised by nonoqubo.

This module owns every exception class of the package (nothing else defines
one).  Every exception users see derives from :class:`NonoquboError`, and each
also inherits the builtin that describes it best (``ValueError``,
``ImportError`` ...), so callers may catch either.  Messages are one line, name
the place (file, line, sample, variable) and say what is wrong; the CLI prints
them as they are and exits 2.

Three more classes are internal signals, never shown as messages: two of
:mod:`nonoqubo._util.guard` (:class:`RefusedNumber`, :class:`YamlRefused`), which
the guard turns into a located :class:`FormatError` before they could reach a
caller, and :class:`Terminated`, the ``SystemExit`` that
:mod:`nonoqubo._util.atomic` raises on SIGTERM so that a temporary file is removed
before the process ends with status 143.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "Contradiction",
    "EmbeddingError",
    "EncodingError",
    "FormatError",
    "LockHeld",
    "MissingDependency",
    "ModelTooLarge",
    "NoSolution",
    "NonoquboError",
    "PhysicalError",
    "PuzzleError",
    "QoblibError",
    "QpuParameterError",
    "SampleError",
    "SolverError",
    "StreamError",
    "Terminated",
    "TimeLimit",
    "TopologyError",
    "UnknownEncoding",
    "UnsupportedFormat",
    "WeightsError",
    "WriteError",
    "located",
]


class NonoquboError(Exception):
    """Base class of every error nonoqubo raises on purpose."""


class PuzzleError(NonoquboError, ValueError):
    """The clues do not describe a valid black-and-white nonogram."""


class Contradiction(PuzzleError):
    """Line logic or probing proved that the puzzle has no solution (a cell or line no value fits).

    Raised by presolving (:mod:`nonoqubo.logic`); a command names its clue file around it
    (``FILE: the puzzle has no solution, line logic proves it: ...``).  A :class:`PuzzleError`
    (bad clues) is not one.
    """


class FormatError(NonoquboError, ValueError):
    """A file or string is not valid in the format it was read as.

    The message starts with the place, ``source:line:`` (or ``source:`` when no
    line applies), as compilers do, so editors can jump to it.
    """


class SampleError(NonoquboError, ValueError):
    """A solver sample cannot be matched to the model's variables."""


class NoSolution(NonoquboError, ValueError):
    """A solver proved that the puzzle has no solution (MiniZinc's ``=====UNSATISFIABLE=====``, CP-SAT's INFEASIBLE).

    An answer, not bad input: the command line prints the message as its one line and exits 1.
    """


class UnsupportedFormat(NonoquboError, NotImplementedError):
    """A format name or file extension nonoqubo does not know."""


class MissingDependency(NonoquboError, ImportError):
    """An optional package is needed for this and is not installed."""

    def __init__(self, package: str, extra: str, purpose: str) -> None:
        super().__init__(
            f"{purpose} needs the '{package}' package, which is not installed; "
            f'install it with: pip install "nonoqubo[{extra}]" '
            f'(in a clone of the repository: pip install -e ".[{extra}]")'
        )
        self.package = package
        self.extra = extra


class SolverError(NonoquboError, RuntimeError):
    """A sampler cannot take this model or these options, or failed."""


class TimeLimit(SolverError):
    """A search stopped by its time limit before it decided (no solution yet, or a proof unfinished)."""


class QpuParameterError(SolverError):
    """A QPU parameter the solver's properties forbid (an annealing time out of range, a schedule that is
    not monotone where it must be, too many points...) or a physical problem out of the solver's ranges."""


class TopologyError(NonoquboError, ValueError):
    """A ``--topology`` that names no QPU graph: a spec that does not parse, or a properties JSON without qubits."""


class EmbeddingError(NonoquboError, ValueError):
    """An embedding file that is damaged, for another model, or invalid on its topology; or none was found."""


class ModelTooLarge(NonoquboError, MemoryError):
    """The model of a puzzle would not fit this machine's memory."""


class WeightsError(NonoquboError, ValueError):
    """A ``--weights`` value (``shape=A,order=B,cell=C``, positive integers) nonoqubo refuses."""


class EncodingError(NonoquboError, ValueError):
    """An encoding cannot be used: a name nonoqubo does not know, or a puzzle the encoding cannot encode."""


class UnknownEncoding(EncodingError):
    """An encoding name that is not in :data:`nonoqubo.model.encodings.REGISTRY` (``--encoding``, a file's
    ``encoding`` metadata, ``build(encoding=...)``): ``SOURCE: unknown encoding 'x'; known: ...``."""


class StreamError(NonoquboError):
    """An input file that is a stream (a FIFO, ``/dev/fd/N``) sent nothing for the timeout, or more than its limit
    (:mod:`nonoqubo._util.stream`)."""


class LockHeld(NonoquboError, OSError):
    """A folder another process works in (its lock file names the holder): ``nonoqubo run`` on a runs folder."""


class WriteError(NonoquboError, OSError):
    """A file cannot be written (``cannot write PATH: reason``); nothing is left behind."""


class RecordError(NonoquboError, ValueError):
    """A file a campaign keeps (a run record, a suite's index, an evaluation's group record) that its format
    (:mod:`nonoqubo.records`) refuses: an unknown version, a field of the wrong type; one line naming the file."""


class QoblibError(NonoquboError, ValueError):
    """A QOBLIB problem class or submission cannot be made as asked (``suite --layout qoblib``,
    ``evaluate --submission``): an instance name no file system and QOBLIB's checker take, a
    folder that is not empty, a missing submitter, runs of several settings for one instance."""


class PhysicalError(NonoquboError, ValueError):
    """The physical (embedded) problem cannot be made or read: chains that do not fit the model,
    a bad chain strength, range or precision, or qubit samples that do not cover the chains."""


class Note(UserWarning):
    """What was read is taken, but not as the user may have meant: one line the CLI prints as ``nonoqubo: note:``.

    Raised as a warning (``warnings.warn(Note(...))``), never as an error: the command goes on.  The
    message names the file and the place, as an error's does.
    """


class RefusedNumber(ValueError):
    """Internal to :func:`nonoqubo._util.guard.json_loads`: a JSON number it refuses (made a FormatError)."""


class YamlRefused(Exception):
    """Internal to :func:`nonoqubo._util.guard.yaml_load`: a refused YAML node, at ``mark`` (made a FormatError)."""

    def __init__(self, mark: Any, problem: str) -> None:  # a yaml Mark (.line, .column); no yaml import here
        super().__init__(problem)
        self.mark, self.problem = mark, problem


class Terminated(SystemExit):
    """Internal to :func:`nonoqubo._util.atomic.atomic_write`: SIGTERM arrived while a temporary file was open.

    A ``SystemExit`` (status ``128 + SIGTERM``, 143), so it unwinds like Ctrl-C: the
    temporary file is removed on the way out and the process exits as it would have
    without the handler; no ``except Exception`` swallows it.
    """


def located(source: str | None, line: int | None, message: str) -> str:
    """Prefix *message* with ``source:line:`` in the compiler style.

    Examples:
        >>> located("logo.non", 12, "row 3: '2,x' is not a number")
        "logo.non:12: row 3: '2,x' is not a number"
        >>> located(None, None, "empty input")
        '<input>: empty input'
    """
    where = source or "<input>"
    if line is not None:
        where = f"{where}:{line}"
    return f"{where}: {message}"
