"""Count the steps a backtracking regex search takes, so a test can tell linear from quadratic.

Python's ``re`` says nothing about the work it did, and a wall-clock limit is flaky; this
module walks the parsed pattern the way a backtracking engine does (``sre``'s single-character
repeats are tried from the longest down, other repeats recursively) and counts every node it
tries. The count is deterministic, so a test compares the steps on a long line with those on a
line eight times shorter: a linear search takes about eight times as many, a catastrophic one
(two repeats that can split the same run of digits) about 64 times.

Examples:
    >>> import re
    >>> quadratic, linear = re.compile(r"^\\d+\\.?\\d*x", re.M), re.compile(r"^\\d+(?:\\.\\d*)?x", re.M)
    >>> search_steps(quadratic, "1" * 800) // search_steps(quadratic, "1" * 100)
    61
    >>> search_steps(linear, "1" * 800) // search_steps(linear, "1" * 100)
    7
"""

from __future__ import annotations

import re
import sys
from typing import Any, Callable

try:  # Python 3.11+: the parser is re._parser (sre_parse warns)
    from re import _parser as _sre_parse  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_parse as _sre_parse  # type: ignore[no-redef]

__all__ = ["Budget", "search_steps"]

_SINGLE = {"LITERAL", "NOT_LITERAL", "IN", "ANY"}


class Budget(Exception):
    """The search took more steps than it was allowed."""


def _category(name: str, ch: str) -> bool:
    positive = {
        "CATEGORY_DIGIT": ch.isdecimal(), "CATEGORY_SPACE": ch.isspace(),
        "CATEGORY_WORD": ch.isalnum() or ch == "_", "CATEGORY_LINEBREAK": ch == "\n",
    }
    for base, value in positive.items():
        if name == base:
            return value
        if name == base.replace("CATEGORY_", "CATEGORY_NOT_"):
            return not value
    raise NotImplementedError(name)


class _Search:
    def __init__(self, pattern: re.Pattern[str], text: str, budget: int) -> None:
        self.text, self.flags, self.budget, self.steps = text, pattern.flags, budget, 0
        self.tree = _sre_parse.parse(pattern.pattern, pattern.flags)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.budget:
            raise Budget(self.steps)

    def one(self, op: str, av: Any, ch: str) -> bool:
        if op == "LITERAL":
            return ch == chr(av)
        if op == "NOT_LITERAL":
            return ch != chr(av)
        if op == "ANY":
            return ch != "\n" or bool(self.flags & re.DOTALL)
        if op == "IN":
            negate, hit = False, False
            for iop, iav in av:
                name = str(iop)
                if name == "NEGATE":
                    negate = True
                elif name == "LITERAL":
                    hit = hit or ch == chr(iav)
                elif name == "RANGE":
                    hit = hit or iav[0] <= ord(ch) <= iav[1]
                elif name == "CATEGORY":
                    hit = hit or _category(str(iav), ch)
                else:
                    raise NotImplementedError(name)
            return hit != negate
        raise NotImplementedError(op)

    def seq(self, items: list[Any], i: int, pos: int, k: Callable[[int], bool]) -> bool:
        if i == len(items):
            return k(pos)
        op, av = items[i]
        op = str(op)
        nxt = lambda p: self.seq(items, i + 1, p, k)  # noqa: E731
        self.tick()
        text = self.text
        if op in _SINGLE:
            return pos < len(text) and self.one(op, av, text[pos]) and nxt(pos + 1)
        if op == "AT":
            name = str(av)
            multi = bool(self.flags & re.MULTILINE)
            ok = {
                "AT_BEGINNING": pos == 0 or (multi and text[pos - 1] == "\n"),
                "AT_BEGINNING_STRING": pos == 0,
                "AT_END": pos == len(text) or (pos == len(text) - 1 and text[pos] == "\n")
                or (multi and text[pos] == "\n"),
                "AT_END_STRING": pos == len(text),
            }
            if name not in ok:
                raise NotImplementedError(name)
            return ok[name] and nxt(pos)
        if op == "SUBPATTERN":
            return self.seq(list(av[-1]), 0, pos, nxt)
        if op == "BRANCH":
            return any(self.seq(list(alt), 0, pos, nxt) for alt in av[1])
        if op in ("MAX_REPEAT", "MIN_REPEAT"):
            lo, hi, sub = av
            sub = list(sub)
            greedy = op == "MAX_REPEAT"
            if len(sub) == 1 and str(sub[0][0]) in _SINGLE:
                sop, sav = str(sub[0][0]), sub[0][1]
                n = 0
                while n < hi and pos + n < len(text):
                    self.tick()
                    if not self.one(sop, sav, text[pos + n]):
                        break
                    n += 1
                if n < lo:
                    return False
                for count in (range(n, lo - 1, -1) if greedy else range(lo, n + 1)):
                    self.tick()
                    if nxt(pos + count):
                        return True
                return False

            def rep(count: int, p: int) -> bool:
                self.tick()
                more = lambda q: q != p and rep(count + 1, q)  # noqa: E731
                if count < lo:
                    return self.seq(sub, 0, p, lambda q: rep(count + 1, q))
                if greedy:
                    return (count < hi and self.seq(sub, 0, p, more)) or nxt(p)
                return nxt(p) or (count < hi and self.seq(sub, 0, p, more))
            return rep(0, pos)
        if op in ("ASSERT", "ASSERT_NOT"):
            direction, sub = av
            if direction != 1:
                raise NotImplementedError("lookbehind")
            found = self.seq(list(sub), 0, pos, lambda p: True)
            return (found if op == "ASSERT" else not found) and nxt(pos)
        raise NotImplementedError(op)


def search_steps(pattern: re.Pattern[str], text: str, *, budget: int = 10**7) -> int:
    """Steps a backtracking ``pattern.search(text)`` takes (``budget + 1`` when it takes more).

    Raises NotImplementedError for a construct it does not model (back references, lookbehind).
    """
    search = _Search(pattern, text, budget)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        for start in range(len(text) + 1):
            if search.seq(list(search.tree), 0, start, lambda p: True):
                break
    except Budget:
        return budget + 1
    finally:
        sys.setrecursionlimit(old)
    return search.steps


#: the length of the short line; the long one is eight times as long
SHORT = 400


def long_lines(n: int) -> dict[str, str]:
    """Answer-file shapes of about *n* characters that a backtracking pattern can be quadratic on."""
    return {
        "bits": "01" * (n // 2),
        "bits-lines": "\n".join(["01" * (n // 8)] * 4),
        "commas": ",".join("01" * (n // 4)),
        "spaces": " ".join("01" * (n // 4)),
        "number-and-bits": "1.5 " + "01" * (n // 2),
        "blank-lines": "\n" * n + "x",
        "spaces-only": " " * n + "x",
    }


#: the names of :func:`long_lines`' shapes
SHAPES = list(long_lines(8))


def assert_linear(pattern: re.Pattern[str], shape: str, where: str = "") -> None:
    """Eight times the line of *shape* costs *pattern* at most 16 times the steps (linear, with slack)."""
    small = search_steps(pattern, long_lines(SHORT)[shape])
    big = search_steps(pattern, long_lines(8 * SHORT)[shape], budget=16 * small)
    assert big <= 16 * small, f"{where or pattern.pattern!r} on {shape}: {small} steps, then more than {16 * small} for 8x"

