"""Sample readers under hostile input: what the fuzzer's issue 33 campaign found in them."""

from __future__ import annotations

import pytest

from nonoqubo.errors import SampleError
from nonoqubo.samples import read_samples


def test_a_position_label_of_5000_digits_is_one_line(tmp_path):
    """A SCIP solution of position labels ('0', '1', ...), one of 5,000 digits: Python's int() limit was a traceback."""
    path = tmp_path / "answer.sol"
    path.write_text("objective value: 0\n0 1 \t(obj:0)\n" + "9" * 5000 + " 1 \t(obj:0)\n")
    with pytest.raises(SampleError) as info:
        read_samples(str(path), ["a", "b", "c"])
    message = str(info.value)
    assert str(path) in message and "0..2" in message and len(message) < 300
