"""Every pattern a sample reader keeps at module level stays linear on long lines of bits.

The same check as tests/campaign/test_runtime_backtracking.py (issue 24: a quadratic pattern made
``evaluate`` take 50 s on 30 samples of 7,504 bits), over the readers' compiled patterns. Steps
are counted, not timed.
"""

from __future__ import annotations

import importlib
import pkgutil
import re

import pytest

import nonoqubo.samples
from tests.support.regex_steps import search_steps

PATTERNS = sorted(
    {(info.name, name): value
     for info in pkgutil.iter_modules(nonoqubo.samples.__path__)
     for name, value in vars(importlib.import_module(f"nonoqubo.samples.{info.name}")).items()
     if isinstance(value, re.Pattern) and isinstance(value.pattern, str)}.items())

SHORT = 400


def _lines(n: int) -> dict[str, str]:
    return {
        "bits": "01" * (n // 2),
        "bits-lines": "\n".join(["01" * (n // 8)] * 4),
        "commas": ",".join("01" * (n // 4)),
        "spaces": " ".join("01" * (n // 4)),
        "blank-lines": "\n" * n + "x",
        "spaces-only": " " * n + "x",
    }


def test_the_readers_have_patterns() -> None:
    assert len(PATTERNS) >= 10


@pytest.mark.parametrize("shape", list(_lines(8)))
@pytest.mark.parametrize("where", [f"{m}.{n}" for (m, n), _ in PATTERNS])
def test_a_reader_pattern_is_linear_on_long_lines(where: str, shape: str) -> None:
    pattern = dict((f"{m}.{n}", p) for (m, n), p in PATTERNS)[where]
    small = search_steps(pattern, _lines(SHORT)[shape])
    big = search_steps(pattern, _lines(8 * SHORT)[shape], budget=16 * small)
    assert big <= 16 * small, f"{where} on {shape}: {small} steps, then more than {16 * small} for 8x"
