"""The strict field reading every record of this package shares: types checked, values quoted short.

A record's ``from_dict`` takes each field through :class:`Fields`, which refuses a value of the
wrong type (``true`` is not a number, ``1`` is not ``true``) in one line naming the file, the
record and the field, and quotes the value with :func:`quoted` (at most :data:`MAX_QUOTED`
characters: a 10 MB value is not echoed into a 10 MB error line).  :func:`loads` is the one JSON
reading of a record file (:func:`nonoqubo._util.guard.json_loads`: nesting, huge integers and
non-finite numbers refused before anything walks the value).

Examples:
    >>> quoted("x" * 1000)[:20], len(quoted("x" * 1000)) < 120
    ("'xxxxxxxxxxxxxxxxxxx", True)
    >>> Fields({"a": 1}, "f.json: run record").integer("a")
    1
    >>> Fields({"a": True}, "f.json: run record").integer("a")
    Traceback (most recent call last):
    nonoqubo.errors.RecordError: f.json: run record: a: a whole number, not True
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from .._util.guard import json_loads, json_value_at
from ..errors import FormatError, RecordError
from ..model.weights import FAMILIES, Weights

__all__ = ["MAX_QUOTED", "Fields", "check_version", "decode_at", "loads", "quoted"]

#: the longest quotation of a value in an error line (then ``... (N characters)``)
MAX_QUOTED = 60
#: a whole number a record may hold (a count, a seed): below 10**18, as every reader's
MAX_WHOLE = 10 ** 18
#: the largest weight a record holds (the ``--weights`` grammar's: nine digits)
MAX_WEIGHT = 10 ** 9


def quoted(value: Any) -> str:
    """*value* as an error line shows it: its ``repr`` (JSON for a dict or list), cut to :data:`MAX_QUOTED`."""
    try:
        text = json.dumps(value) if isinstance(value, (dict, list)) else repr(value)
    except (TypeError, ValueError, RecursionError):  # not JSON, too deep, an int of more digits than Python prints
        text = f"<{type(value).__name__}>"
    return text if len(text) <= MAX_QUOTED else f"{text[:MAX_QUOTED]}... ({len(text):,} characters)"


def loads(text: str | bytes, source: str) -> Any:
    """The JSON document of a record file (bounded: :func:`~nonoqubo._util.guard.json_loads`).

    Raises:
        RecordError: invalid JSON, nesting too deep, a number too large; one line naming *source*.
    """
    try:
        return json_loads(text, source)
    except FormatError as exc:
        raise RecordError(str(exc)) from None


def decode_at(text: str, start: int, source: str) -> tuple[Any, int]:
    """The JSON value that starts at *start* in *text* (``raw_decode``), bounded as :func:`loads` is
    (:func:`~nonoqubo._util.guard.json_value_at`).

    Raises:
        ValueError: no JSON value starts there.
        RecordError: one nested deeper than :data:`~nonoqubo._util.guard.MAX_DEPTH` levels, or a number
            refused (naming *source*).
    """
    try:
        return json_value_at(text, start, f"{source}: run record")
    except FormatError as exc:
        raise RecordError(str(exc)) from None


def check_version(doc: Mapping[str, Any], key: str, known: tuple[int, ...], where: str) -> int:
    """The format version *doc* records under *key* (an integer of *known*).

    Raises:
        RecordError: another version: one line naming the file and the versions this nonoqubo reads.
    """
    version = doc.get(key)
    if isinstance(version, bool) or not isinstance(version, int) or version not in known:
        raise RecordError(f"{where}: version {quoted(version)} is not one this nonoqubo reads "
                          f"({', '.join(map(str, known))}); read it with the nonoqubo that wrote it, or write it again")
    return version


class Fields:
    """The fields of one record's dict, read with their types checked (the module docstring).

    Args:
        doc: the record's dict (refused when it is not one).
        where: what names it in an error: ``FILE: run record`` .
    """

    def __init__(self, doc: Any, where: str) -> None:
        if not isinstance(doc, Mapping):
            raise RecordError(f"{where}: a JSON object, not {quoted(doc)}")
        self.doc, self.where = doc, where

    def fail(self, key: str, what: str, value: Any) -> RecordError:
        return RecordError(f"{self.where}: {key}: {what}, not {quoted(value)}")

    def _get(self, key: str, optional: bool) -> tuple[bool, Any]:
        if key not in self.doc or (optional and self.doc[key] is None):
            if not optional:
                raise RecordError(f"{self.where}: {key}: missing")
            return False, None
        return True, self.doc[key]

    def text(self, key: str, optional: bool = False) -> Any:
        found, value = self._get(key, optional)
        if found and not isinstance(value, str):
            raise self.fail(key, "text", value)
        return value

    def integer(self, key: str, optional: bool = False, low: int = 0) -> Any:
        found, value = self._get(key, optional)
        if found and (isinstance(value, bool) or not isinstance(value, int) or not low <= value < MAX_WHOLE):
            raise self.fail(key, "a whole number" if low <= 0 else f"a whole number from {low}", value)
        return value

    def number(self, key: str, optional: bool = False) -> Any:
        found, value = self._get(key, optional)
        if found and (isinstance(value, bool) or not isinstance(value, (int, float)) or value != value
                      or value in (float("inf"), float("-inf")) or abs(value) >= MAX_WHOLE):
            raise self.fail(key, "a finite number", value)
        return value

    def boolean(self, key: str, optional: bool = False) -> Any:
        found, value = self._get(key, optional)
        if found and not isinstance(value, bool):
            raise self.fail(key, "true or false", value)
        return value

    def mapping(self, key: str, optional: bool = False) -> Any:
        found, value = self._get(key, optional)
        if found and not isinstance(value, Mapping):
            raise self.fail(key, "a JSON object", value)
        return value

    def weights(self, key: str = "weights") -> Weights:
        """Penalty weights: ``{family: whole number from 1}`` (absent: the default)."""
        given = self.mapping(key, optional=True) or {}
        for family, value in given.items():
            if family not in FAMILIES:
                raise self.fail(key, f"families {', '.join(FAMILIES)}", dict(given))
            if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value < MAX_WEIGHT:
                raise RecordError(f"{self.where}: {key}: {family}: a whole number from 1 to {MAX_WEIGHT - 1}, "
                                  f"not {quoted(value)}")
        return Weights.of(dict(given))

    def items(self, key: str, optional: bool = False) -> Any:
        found, value = self._get(key, optional)
        if found and not isinstance(value, list):
            raise self.fail(key, "a list", value)
        return value
