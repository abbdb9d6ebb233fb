"""The runtime patterns scan whole answer files, so on long lines of bits they must stay linear.

Issue 24: ``^\\s*NUM\\s+seconds of classic cpu time`` with ``NUM = \\d+\\.?\\d*`` split a run of
*n* digits in *n* ways at each line start, so a file of 30 samples of 7,504 bits took 50 s to
evaluate. The steps are counted (tests/support/regex_steps), not timed: eight times the line
must take about eight times the steps, where the quadratic pattern took 64 times.
"""

from __future__ import annotations

import pytest

from nonoqubo.campaign import runtime
from tests.support.regex_steps import search_steps

PATTERNS = [p for p, _, _ in runtime._PATTERNS] + [runtime._OMMX]

SHORT = 400


def _lines(n: int) -> dict[str, str]:
    return {
        "bits": "01" * (n // 2),
        "bits-lines": "\n".join(["01" * (n // 8)] * 4),
        "commas": ",".join("01" * (n // 4)),
        "spaces": " ".join("01" * (n // 4)),
        "number-and-bits": "1.5 " + "01" * (n // 2),
        "blank-lines": "\n" * n + "x",
        "spaces-only": " " * n + "x",
    }


@pytest.mark.parametrize("shape", list(_lines(8)))
@pytest.mark.parametrize("k", range(len(PATTERNS)))
def test_a_runtime_pattern_is_linear_on_long_lines(k: int, shape: str) -> None:
    pattern = PATTERNS[k]
    small = search_steps(pattern, _lines(SHORT)[shape])
    big = search_steps(pattern, _lines(8 * SHORT)[shape], budget=16 * small)
    assert big <= 16 * small, f"{pattern.pattern!r} on {shape}: {small} steps, then more than {16 * small} for 8x"


def test_the_qbsolv_time_is_still_found_after_long_lines() -> None:
    text = "\n".join(["01" * 4000] * 3) + "\n 0.25 seconds of classic cpu time\n"
    assert runtime.seconds_per_run(text, reads=5) == 0.05
