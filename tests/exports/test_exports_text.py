"""The vectorised number formatter and the metadata comment round trip."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nonoqubo.exports import _header, _text

ints = st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=60)


@settings(max_examples=60, deadline=None)
@given(ints, st.sampled_from([1, 2, 4]))
def test_format_lines_matches_python(values, den):
    arr = np.array(values, dtype=np.int64)
    got = _text.format_lines([arr, arr[::-1].copy()], [1, den]).decode().splitlines()
    for line, a, b in zip(got, values, values[::-1]):
        left, right = line.split(" ")
        assert left == str(a)
        whole, frac = divmod(abs(b), den)
        text = ("-" if b < 0 else "") + str(whole) + {0: "", 1: ".25" if den == 4 else ".5", 2: ".5", 3: ".75"}[frac if den == 4 else (2 * frac if den == 2 else 0)]
        assert right == text
        assert float(right) == b / den or abs(b) > 2**52


def test_rational_refuses_non_quarters():
    assert _text.rational(np.array([0.5, -1.25]))[1] == 4
    try:
        _text.rational(np.array([1 / 3]))
    except ValueError as exc:
        assert "1/4" in str(exc)
    else:  # pragma: no cover
        raise AssertionError("1/3 accepted")


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(1, 99), max_size=6), min_size=1, max_size=80),
       st.text(max_size=30), st.integers(5, 60))
def test_comment_lines_round_trip(rows, name, width):
    meta = {"format": "coo", "vartype": "SPIN", "offset": -2.5, "name": name, "rows": rows, "fixed": {"y0[0][1]": 1}}
    text = _header.comment_lines(meta, "c ", width=width)
    assert all(line.startswith("c ") for line in text.splitlines())
    back = _header.parse_comments(text.splitlines(), "c", "<t>")
    assert {k: back[k] for k in meta} == meta
