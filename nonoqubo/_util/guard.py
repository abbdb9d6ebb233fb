"""Guards every reader shares against hostile or broken input.

A reader must answer any input with a value or one located :class:`FormatError`,
quickly and in bounded memory.  The traps this module closes, each once for all
readers:

* **Huge integers.**  ``int("9" * 5000)`` raises ``ValueError: Exceeds the limit
  (4300 digits)`` and shorter ones overflow ``int64`` later.  No count, size,
  index or clue in any format nonoqubo reads needs more than :data:`MAX_DIGITS`
  digits, so :func:`integer` refuses longer numbers with a located error.
* **Deep nesting.**  Python's ``json`` and PyYAML's composer recurse once per
  level, so 100,000 ``[`` end in ``RecursionError``.  :func:`json_loads` measures
  the depth in one linear pass before parsing; :func:`yaml_load` counts it while
  composing.  Neither accepts more than :data:`MAX_DEPTH` levels.
* **Non-finite numbers.**  ``1e400``, ``inf`` and ``NaN`` are refused in JSON
  (:func:`json_loads`) and in arrays (:func:`finite`).
* **YAML alias bombs.**  Ten levels of nine aliases are a 300-byte file that
  expands to 10^9 nodes; :func:`yaml_load` counts the expanded nodes as it
  composes and refuses more than a few per byte of input.
* **Claimed sizes.**  A header that says 10^11 variables must not become a
  10^11-element allocation: :func:`claimed` checks a count against what the
  file's length can hold before anything is allocated.

Its two internal signals, :class:`~nonoqubo.errors.RefusedNumber` and
:class:`~nonoqubo.errors.YamlRefused`, are defined in :mod:`nonoqubo.errors` like every
exception, and never leave this module.

Examples:
    >>> integer("42", "a.non", 3, "width")
    42
    >>> integer("9" * 30, "a.non", 3, "width")
    Traceback (most recent call last):
    nonoqubo.errors.FormatError: a.non:3: width: a number of 30 digits (999999999999999999...) is too large
    >>> json_loads('[[1, 2], {"a": 3}]', "x.json")
    [[1, 2], {'a': 3}]
    >>> json_loads("[" * 1000, "x.json")
    Traceback (most recent call last):
    nonoqubo.errors.FormatError: x.json: nesting deeper than 100 levels
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

import numpy as np

from ..errors import FormatError, RefusedNumber, YamlRefused, located

__all__ = ["MAX_DEPTH", "MAX_DIGITS", "claimed", "duplicate_json_key", "finite", "integer", "json_loads", "json_value_at",
           "yaml_load"]

#: digits of the largest integer any reader accepts (int64 has 19)
MAX_DIGITS = 18
#: nesting levels of the deepest JSON/YAML document any reader accepts
MAX_DEPTH = 100
#: expanded YAML nodes allowed per byte of input (plus a constant), aliases included
YAML_NODES_PER_BYTE = 4


def integer(token: str | bytes, source: str, line: int | None = None, what: str = "number") -> int:
    """``int(token)`` for a token of digits (an optional sign), at most :data:`MAX_DIGITS` digits.

    Raises:
        FormatError: the token is not an integer or is too long; the message names the place.
    """
    text = token.decode("latin-1") if isinstance(token, bytes) else token
    text = text.strip()
    digits = text.lstrip("+-").lstrip("0")
    if len(digits) > MAX_DIGITS:
        raise FormatError(located(source, line, f"{what}: a number of {len(digits)} digits "
                                                f"({digits[:MAX_DIGITS]}...) is too large"))
    if not text.lstrip("+-").isdigit() or not text.isascii() or text[:2] in ("+-", "-+", "--", "++"):
        raise FormatError(located(source, line, f"{what}: {text[:40]!r} is not a whole number"))
    return int(text)


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.S)
#: a string (dropped whole) or a run of anything but brackets and quotes: what is left is the brackets
_BRACKETS_ONLY = re.compile(_STRING.pattern + r'|[^\[\]{}"]+', re.S)
_OPEN = np.zeros(256, np.int8)
_OPEN[[ord("["), ord("{")]] = 1
_OPEN[[ord("]"), ord("}")]] = -1


def nesting_depth(text: str) -> int:
    """The deepest ``[``/``{`` nesting of JSON *text*, strings ignored (linear time).

    One pass keeps only the brackets outside strings, so the work space is the brackets, not
    copies of the text (the int64 running sum over every byte took 18 times a 55 MB model file).
    """
    brackets = _BRACKETS_ONLY.sub("", text)
    if not brackets:
        return 0
    raw = np.frombuffer(brackets.encode("ascii"), np.uint8)
    return int(np.cumsum(_OPEN[raw], dtype=np.int64).max(initial=0))


def _json_int(token: str) -> int:
    if len(token) > MAX_DIGITS and len(token.lstrip("-").lstrip("0")) > MAX_DIGITS:
        raise RefusedNumber(f"a number of {len(token.lstrip('-'))} digits is too large")
    return int(token)


def _json_float(token: str) -> float:
    value = float(token)
    if not math.isfinite(value):
        raise RefusedNumber(f"the number {token[:40]} is out of range")
    return value


def _json_constant(token: str) -> float:
    raise RefusedNumber(f"{token} is not a number JSON allows")


#: the decoder of :func:`json_value_at`: the number rules of :func:`json_loads`
_BOUNDED = json.JSONDecoder(parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant)


def json_value_at(text: str, start: int, source: str) -> tuple[Any, int]:
    """The JSON value that starts at *start* in *text*, and where it ends (``raw_decode``), bounded as
    :func:`json_loads` is: a value inside a larger text (a run record found in a samples file) is parsed
    alone, never the whole text.

    Raises:
        json.JSONDecodeError: no JSON value starts there (a ``ValueError``).
        FormatError: the value nests deeper than :data:`MAX_DEPTH` levels, or holds a number it refuses;
            one line naming *source*.

    Examples:
        >>> json_value_at('x = {"a": [1, 2]} ...', 4, "f.json")
        ({'a': [1, 2]}, 17)
        >>> json_value_at('{"a": ' + "9" * 30 + '}', 0, "f.json")
        Traceback (most recent call last):
        nonoqubo.errors.FormatError: f.json: a number of 30 digits is too large
    """
    try:
        value, end = _BOUNDED.raw_decode(text, start)
    except RecursionError:
        raise FormatError(located(source, None, f"nesting deeper than {MAX_DEPTH} levels")) from None
    except RefusedNumber as exc:
        raise FormatError(located(source, None, str(exc))) from None
    if nesting_depth(text[start:end]) > MAX_DEPTH:
        raise FormatError(located(source, None, f"nesting deeper than {MAX_DEPTH} levels"))
    return value, end


def duplicate_json_key(text: str) -> tuple[str, int, int] | None:
    """The first key given twice in one object of JSON *text*, with the lines of both (linear time; the text
    is valid JSON), or None.

    Examples:
        >>> duplicate_json_key('{"a": 1,\\n "b": {"a": 2},\\n "a": 3}')
        ('a', 1, 3)
    """
    stack: list[dict[str, int]] = []
    line, counted = 1, 0
    for match in re.finditer(_STRING.pattern + r"|[\[\]{}]", text):
        token = match.group()
        if token in "[{":
            stack.append({})
        elif token in "]}":
            stack.pop()
        elif stack and re.match(r"\s*:", text[match.end():match.end() + 64]):
            key = json.loads(token)
            line += text.count("\n", counted, match.start())  # from the last key on: linear in all
            counted = match.start()
            if key in stack[-1]:
                return key, stack[-1][key], line
            stack[-1][key] = line
    return None


def _unique_pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        raise RefusedNumber("")  # a duplicate key: located by duplicate_json_key
    return out


def json_loads(text: str | bytes, source: str, line: int | None = None, unique_keys: bool = False) -> Any:
    """``json.loads`` that refuses deep nesting, huge integers and non-finite numbers; and, with *unique_keys*, a
    key given twice in one object (naming the key and both lines: JSON itself takes the last silently).

    Raises:
        FormatError: invalid JSON or a refused value, located at *source* (and the line).
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8-sig", "replace")
    if nesting_depth(text) > MAX_DEPTH:
        raise FormatError(located(source, line, f"nesting deeper than {MAX_DEPTH} levels"))
    try:
        return json.loads(text, parse_int=_json_int, parse_float=_json_float, parse_constant=_json_constant,
                          object_pairs_hook=_unique_pairs if unique_keys else None)
    except json.JSONDecodeError as exc:
        where = f"{source}:{exc.lineno + (line or 1) - 1}:{exc.colno}"
        raise FormatError(f"{where}: invalid JSON: {exc.msg}") from None
    except RefusedNumber as exc:
        twice = duplicate_json_key(text) if not str(exc) else None
        if twice is not None:
            key, first, second = twice
            shift = (line or 1) - 1
            raise FormatError(f"{source}:{second + shift}: key {key!r} is given twice (lines {first + shift} and "
                              f"{second + shift}); a key may appear once in a mapping") from None
        raise FormatError(located(source, line, str(exc) or "a key is given twice in one object")) from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise FormatError(located(source, line, f"nesting deeper than {MAX_DEPTH} levels")) from None


def yaml_load(text: str, source: str, unique_keys: bool = False) -> Any:
    """``yaml.safe_load`` with a depth limit, an alias-expansion limit and bounded integers; and, with
    *unique_keys*, no key given twice in one mapping (naming the key and both lines; YAML forbids it, and
    PyYAML takes the last silently).  A merge key (``<<: *base``) may still be overridden.

    Raises:
        FormatError: invalid YAML or a refused document, located at *source*:line:column.
    """
    import yaml

    budget = YAML_NODES_PER_BYTE * len(text) + 10_000

    class Loader(yaml.SafeLoader):
        depth = 0
        expanded = 0
        sizes: dict[int, int] = {}

        def compose_node(self, parent: Any, index: Any) -> Any:
            mark = self.peek_event().start_mark
            if self.check_event(yaml.AliasEvent):
                node = super().compose_node(parent, index)
                self.expanded += self.sizes.get(id(node), 1)
                if self.expanded > budget:
                    raise YamlRefused(mark, "aliases expand to too many nodes for the file's size (an alias bomb?)")
                return node
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise YamlRefused(mark, f"nesting deeper than {MAX_DEPTH} levels")
            before = self.expanded
            node = super().compose_node(parent, index)
            self.depth -= 1
            self.expanded += 1
            self.sizes[id(node)] = self.expanded - before
            return node

        def construct_yaml_int(self, node: Any) -> int:
            digits = re.sub(r"[^0-9a-fA-F]", "", str(node.value))
            if len(digits.lstrip("0")) > MAX_DIGITS:
                raise YamlRefused(node.start_mark, f"a number of {len(digits)} digits is too large")
            return super().construct_yaml_int(node)

        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            if unique_keys and isinstance(node, yaml.MappingNode):
                seen: dict[Any, int] = {}
                for key_node, _ in node.value:
                    if key_node.tag == "tag:yaml.org,2002:merge":
                        continue
                    key = self.construct_object(key_node, deep=True)
                    try:
                        earlier = seen.get(key)
                    except TypeError:  # an unhashable key: PyYAML's own message follows
                        continue
                    if earlier is not None:
                        raise YamlRefused(key_node.start_mark, f"key {key!r} is given twice (lines {earlier} and "
                                                               f"{key_node.start_mark.line + 1}); a key may appear "
                                                               "once in a mapping")
                    seen[key] = key_node.start_mark.line + 1
            return super().construct_mapping(node, deep=deep)

    Loader.sizes = {}
    Loader.add_constructor("tag:yaml.org,2002:int", Loader.construct_yaml_int)
    try:
        return yaml.load(text, Loader=Loader)  # noqa: S506 - a SafeLoader subclass
    except YamlRefused as exc:
        raise FormatError(f"{source}:{exc.mark.line + 1}:{exc.mark.column + 1}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        where = f":{mark.line + 1}:{mark.column + 1}" if mark is not None else ""
        raise FormatError(f"{source}{where}: invalid YAML: {' '.join(str(problem).split())}") from None
    except (ValueError, TypeError, OverflowError, RecursionError) as exc:
        raise FormatError(located(source, None, f"invalid YAML: {' '.join(str(exc).split())[:200]}")) from None


def claimed(count: int, available: int, source: str, line: int | None, what: str) -> int:
    """*count* items announced by a header, checked against the *available* most the file can hold.

    A header may not announce more than the file's content can describe (each item takes at
    least one byte somewhere, so the file's length is a safe bound); checking before allocating
    keeps a 20-byte file from asking for terabytes.

    Raises:
        FormatError: negative, or more than *available*.
    """
    if count < 0:
        raise FormatError(located(source, line, f"{what} {count} is negative"))
    if count > available:
        raise FormatError(located(source, line, f"the header announces {count} {what} but the file "
                                                f"can hold at most {available}"))
    return count


def finite(values: np.ndarray, source: str, what: str, line: int | None = None) -> np.ndarray:
    """*values* unchanged when every element is finite and fits int64's range, else a FormatError."""
    arr = np.asarray(values)
    if arr.dtype.kind == "f" and arr.size:
        bad = ~np.isfinite(arr) | (np.abs(arr) >= 2.0 ** 63)
        if bad.any():
            raise FormatError(located(source, line, f"{what} {float(arr.ravel()[np.flatnonzero(bad.ravel())[0]])!r} is not a finite "
                                                    "number in range"))
    return values
