"""Opening what a command is given: a clue file, a model file nonoqubo wrote, standard input or text.

Every command that reads a puzzle or a model opens it here, through :func:`open_input`, so that
the rules of what a file is are written once:

* a **physical problem** (``build --embedding``'s ``phys.json``/``phys.bqm``, on qubits) is refused
  in one line that says what the command wants instead
  (:func:`nonoqubo.qpu.physical.check_not_physical`);
* a file whose **name says model** (:func:`names_a_model`: ``m.qubo``, ``m.coo``, ``m.qubo.json``)
  is read by that model format or refused with its error, never sniffed as clues; a command that
  takes only a puzzle refuses it by name (``what="clues"``), unless ``--from`` names a clue format;
* any other file is read as clues, or (``what="any"``, :func:`load_model`) tried as a model first
  and then as clues;
* ``"-"`` reads clues from standard input, and ``data=`` takes the content itself.

This module is the work layer's (ARCHITECTURE.md): it combines the clue readers, the model
readers and the memory guard, which sit below it; ``answers`` only decodes what it is handed.

Examples:
    >>> names_a_model("m.coo"), names_a_model("m.qubo.json"), names_a_model("x.json"), names_a_model("a.non")
    (True, True, False, False)
    >>> open_input("-", data=b"width 1\\nheight 1\\nrows\\n1\\ncolumns\\n1\\n", from_format="non").width
    1
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from . import clues, exports
from .errors import FormatError, ModelTooLarge, NonoquboError, PuzzleError, UnsupportedFormat
from .model.estimate import check_file_fits, check_fits
from .model.puzzle import Puzzle
from .qpu.physical import check_not_physical

__all__ = ["INPUT_KINDS", "is_model_input", "load_model", "names_a_model", "open_input"]

#: what a command accepts: ``clues`` only (a model file by its name is refused), ``models`` (a model file
#: by its name is read as a model, anything else as clues), ``any`` (any file tried as a model, then as clues)
INPUT_KINDS = ("clues", "models", "any")

#: the commands that read model files (named in the refusal of a model where a puzzle is wanted)
MODEL_COMMANDS = "'decode', 'info', 'convert', 'solve' and 'embed'"


def names_a_model(path: str | os.PathLike[str]) -> bool:
    """True when *path*'s extension names a model format, more precisely than any clue format does.

    Such a file is read by that model format's reader or refused with its error, never sniffed
    as something else (``m.qubo``, ``m.coo``, ``m.qubo.json``); ``x.json`` names both a model and
    a clue spec, so its content decides.
    """
    base = os.path.basename(os.fspath(path)).lower()

    def longest(mods: Sequence[Any]) -> int:
        return max((len(e) for m in mods for e in m.EXTENSIONS if base.endswith("." + e)), default=0)

    return longest(exports.formats()) > longest(clues.formats())


def is_model_input(source: str | os.PathLike[str], from_format: str | None = None) -> bool:
    """True when the command-line input *source* is a model file by its name.

    Standard input (``"-"``) is clues, and so is any file when ``--from`` names its clue format.
    This is the one guard every command applies (build, solve, info, and the refusal of
    :func:`open_input` with ``what="clues"``).
    """
    return os.fspath(source) != "-" and not from_format and names_a_model(source)


def load_model(path: str | os.PathLike[str], *, need_clues: bool = True, force: bool = False) -> Any:
    """Read an exported model file (its clues travel inside it), else a clue file.

    A file whose extension names a model format (:func:`names_a_model`) is read by that format
    only; other files are tried as a model, then as clues.

    Args:
        path: the file.
        need_clues: refuse a model that carries no clues (its samples could not be decoded).
        force: read a model, or take a puzzle, that the memory guard says would not fit.

    Returns:
        A ``Qubo`` (or constrained model) with its ``puzzle``, or a :class:`Puzzle`.

    Raises:
        FormatError: a model file damaged for its format (the format's own error), or one with
            no clues when *need_clues*.
        UnsupportedFormat: the file is neither an exported model nor a clue file.
        OSError: the file cannot be read ("No such file or directory" names it).
    """
    path = os.fspath(path)
    if not os.path.exists(path):
        raise FileNotFoundError(2, "No such file or directory", path)
    model_error: Exception | None = None
    try:
        model = exports.load(path, check=lambda p: check_file_fits(p, force=force))
    except ModelTooLarge:
        raise
    except (UnsupportedFormat, FormatError, NonoquboError, ValueError, KeyError) as exc:
        if names_a_model(path):
            raise
        model_error = exc
    else:
        if need_clues and getattr(model, "puzzle", None) is None:
            raise FormatError(
                f"{path}: this model file carries no clues, so its samples cannot be "
                "decoded; decode against the clue file instead"
            )
        return model
    try:
        puzzle = clues.load(path)
    except (UnsupportedFormat, FormatError, NonoquboError) as exc:
        if model_error is None:
            raise
        raise UnsupportedFormat(
            f"{path}: neither an exported model ({model_error}) nor a clue file ({exc})"
        ) from None
    check_fits(puzzle, path, force=force)  # decoding against clues builds the model's layout and geometry
    return puzzle


def open_input(
    source: str | os.PathLike[str],
    *,
    what: str = "clues",
    command: str | None = None,
    from_format: str | None = None,
    options: Mapping[str, Any] | None = None,
    data: bytes | str | None = None,
    need_clues: bool = True,
    force: bool = False,
) -> Any:
    """The puzzle or the model that *source* names, read by the rules of this module's docstring.

    Args:
        source: a path, ``"-"`` for standard input, or (with *data*) the name of the content.
        what: one of :data:`INPUT_KINDS`: ``clues`` (a puzzle only), ``models`` (a model file by its
            name is read as a model), ``any`` (any file tried as a model, then as clues).
        command: the sub-command, named in the refusals (a physical problem, a model where a puzzle is
            wanted).
        from_format: the clue format (``--from``); it makes *source* a clue file whatever its name.
        options: the clue reader's options (``index``, ``name``).
        data: the content itself (bytes or text), read as clues; *source* only names it.
        need_clues: (``any``, ``models``) refuse a model that carries no clues.
        force: (``any``, ``models``) read a model the memory guard says would not fit.

    Returns:
        A :class:`Puzzle`, or (``models``, ``any``) a ``Qubo`` or constrained model.

    Raises:
        PhysicalError: *source* is a physical problem on qubits.
        FormatError: a model by its name where a puzzle is wanted, ``--index``/``--name`` given to a
            format that takes neither, or a file damaged for its format.
        UnsupportedFormat: neither a clue file nor a model.
        OSError: the file cannot be read (a missing file says "No such file or directory").
    """
    if what not in INPUT_KINDS:
        raise ValueError(f"what must be one of {', '.join(INPUT_KINDS)}, not {what!r}")
    path = os.fspath(source)
    if data is None:
        check_not_physical(path, command or "decode")
    by_name = data is None and is_model_input(path, from_format)
    if by_name and what == "clues":
        raise FormatError(f"{path}: a model file by its name, not a clue file: '{command or 'this command'}' takes "
                          f"a puzzle; {MODEL_COMMANDS} read models")
    if by_name or (what == "any" and data is None and path != "-" and not from_format and not options):
        return load_model(path, need_clues=need_clues, force=force)
    return _read_clues(path, from_format, dict(options or {}), data)


def _read_clues(path: str, from_format: str | None, options: dict[str, Any], data: bytes | str | None) -> Puzzle:
    """The puzzle of a clue file, of standard input (``"-"``) or of *data*, with located errors."""
    try:
        if data is not None or path == "-":
            content = sys.stdin.buffer.read() if data is None else data
            return clues.loads(content, from_format, source="<stdin>" if path == "-" else path, **options)
        return clues.load(path, from_format, **options)
    except PuzzleError as exc:  # a reader that did not say where
        raise FormatError(f"{path}: {exc}") from None
    except TypeError as exc:
        if "unexpected options" in str(exc):
            what = "--name applies only to Gecode C++ files" if "name" in str(exc).split(":")[-1] \
                else "--index applies only to formats that hold several puzzles"
            raise FormatError(f"{path}: {what}") from None
        raise
