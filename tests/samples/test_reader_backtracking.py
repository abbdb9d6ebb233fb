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
from tests.support.regex_steps import SHAPES, assert_linear

PATTERNS = sorted(
    {(info.name, name): value
     for info in pkgutil.iter_modules(nonoqubo.samples.__path__)
     for name, value in vars(importlib.import_module(f"nonoqubo.samples.{info.name}")).items()
     if isinstance(value, re.Pattern) and isinstance(value.pattern, str)}.items())

def test_the_readers_have_patterns() -> None:
    assert len(PATTERNS) >= 10


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("where", [f"{m}.{n}" for (m, n), _ in PATTERNS])
def test_a_reader_pattern_is_linear_on_long_lines(where: str, shape: str) -> None:
    assert_linear(dict((f"{m}.{n}", p) for (m, n), p in PATTERNS)[where], shape, where)
