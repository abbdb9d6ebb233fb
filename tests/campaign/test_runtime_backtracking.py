"""The runtime patterns scan whole answer files, so on long lines of bits they must stay linear.

Issue 24: ``^\\s*NUM\\s+seconds of classic cpu time`` with ``NUM = \\d+\\.?\\d*`` split a run of
*n* digits in *n* ways at each line start, so a file of 30 samples of 7,504 bits took 50 s to
evaluate. The steps are counted (tests/support/regex_steps), not timed: eight times the line
must take about eight times the steps, where the quadratic pattern took 64 times.
"""

from __future__ import annotations

import pytest

from nonoqubo.campaign import runtime
from tests.support.regex_steps import SHAPES, assert_linear

PATTERNS = [p for p, _, _ in runtime._PATTERNS] + [runtime._OMMX]

@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("k", range(len(PATTERNS)))
def test_a_runtime_pattern_is_linear_on_long_lines(k: int, shape: str) -> None:
    assert_linear(PATTERNS[k], shape)


def test_the_qbsolv_time_is_still_found_after_long_lines() -> None:
    text = "\n".join(["01" * 4000] * 3) + "\n 0.25 seconds of classic cpu time\n"
    assert runtime.seconds_per_run(text, reads=5) == 0.05
