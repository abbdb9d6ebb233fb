"""The one bytes-to-text step of every reader: clue files, QUBO files, solver answers.

:func:`decode` is the only place file bytes become text, with one behaviour:

1. text (``str``) is taken as it is;
2. a NUL byte in the first 4 kB means a binary file: an error ``<source>: this is
   a binary file, not a <what>``;
3. the bytes are UTF-8, a byte-order mark stripped;
4. bytes that are not UTF-8 are read in the format's ``LEGACY_ENCODING`` when it
   declares one (old clue files and solver logs are often Latin-1: the numbers are
   ASCII either way), else refused: ``<source>: not UTF-8 text (byte 0x.. at offset n)``.

:func:`head_text` is what a text format's ``detect(head: bytes)`` looks at.

Examples:
    >>> decode(b"\\xef\\xbb\\xbf5 10", "a.nin", what="clue file")
    '5 10'
    >>> decode(b"Fran\\xe7ois", "a.non", what="clue file", legacy="latin-1")
    'François'
    >>> decode(b"Fran\\xe7ois", "a.coo", what="QUBO file")
    Traceback (most recent call last):
    nonoqubo.errors.FormatError: a.coo: not UTF-8 text (byte 0xe7 at offset 4)
"""

from __future__ import annotations

from ..errors import FormatError

__all__ = ["BINARY_PROBE", "QUOTE_LIMIT", "decode", "head_text", "quoted"]

#: characters of a value an error message quotes before cutting it short
QUOTE_LIMIT = 40


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """*value* quoted for an error message (its ``repr``), a long one cut short with its length.

    Examples:
        >>> quoted("2,x")
        "'2,x'"
        >>> quoted("0" * 437)
        "'0000000000000000000000000000000000000000...' (437 characters)"
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}"[:-1] + f"...' ({len(value)} characters)"
    return repr(value) if len(repr(value)) <= limit + 2 else repr(value)[:limit] + "..."


#: bytes at the start of a file searched for a NUL (the mark of a binary file)
BINARY_PROBE = 4096


def decode(data: str | bytes, source: str, *, what: str, legacy: str | None = None,
           error: type[Exception] = FormatError) -> str:
    """*data* as text (see the module's documentation); *error* is the exception class raised."""
    if isinstance(data, str):
        return data
    if b"\x00" in data[:BINARY_PROBE]:
        raise error(f"{source}: this is a binary file, not a {what}")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if legacy:
            return data.decode(legacy)
        raise error(f"{source}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start})") from None


def head_text(head: bytes | str) -> str:
    """The start of a file as a text detector sees it: UTF-8, BOM stripped, bad bytes replaced.

    (A ``str`` is taken as it is, for callers that hold text already.)
    """
    return head if isinstance(head, str) else head.decode("utf-8-sig", "replace")
