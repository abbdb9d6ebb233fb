"""What every streamed text writer of this package repeats, written once.

A text format module describes its file as a generator of ``(text, rows)``
chunks (see :func:`nonoqubo.exports._text.emit`); :func:`text_writer` turns
that generator into the module's ``dumps`` and ``dump``.  The integer-matrix
formats (qbsolv, qs, mqlib, mtx) are one header followed by the term lines of
:func:`nonoqubo.exports._coords.terms_of`; :func:`matrix_writer` needs only
the header.  Nothing here runs per term: the chunks go to the engines
(:mod:`._ascii`, :mod:`._text`) untouched.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import IO, Any

from . import _coords, _text

__all__ = ["matrix_writer", "text_writer"]

Chunks = Callable[[Any, bool], Iterator[tuple[Any, int]]]


def text_writer(name: str, chunks: Chunks, *, total: str = "num_terms") -> tuple[Callable[..., str], Callable[..., None]]:
    """``(dumps, dump)`` of the text format *name* whose file is ``chunks(model, ising)``.

    *total* names the model's attribute counted by the progress bar (the rows
    the chunks tick).
    """

    def dumps(model: Any, *, ising: bool = False) -> str:
        return _text.join(chunks(model, ising))

    def dump(model: Any, fp: IO[Any], *, ising: bool = False, progress: bool = False) -> None:
        _text.emit(fp, chunks(model, ising), total=getattr(model, total), desc=f"writing {name}", progress=progress)

    dumps.__doc__ = f"The {name} text of *model* (its Ising form with ``ising=True`` where the format has one)."
    dump.__doc__ = f"Write the {name} text of *model* to *fp* (a text or binary file)."
    return dumps, dump


def matrix_writer(conv: _coords.Convention, head: Callable[[Any, _coords.Terms], str]) -> tuple[Callable[..., str], Callable[..., None]]:
    """``(dumps, dump)`` of an integer-matrix text format: ``head(qubo, terms)``, then the term lines."""

    def chunks(qubo: Any, ising: bool = False) -> Iterator[tuple[Any, int]]:
        terms = _coords.terms_of(qubo, conv)
        yield head(qubo, terms), 0
        yield from terms.chunks()

    return text_writer(conv.name, chunks)
