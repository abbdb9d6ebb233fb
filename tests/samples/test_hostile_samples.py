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


def test_samples_of_another_puzzle_say_so_and_which_size_they_fit(tmp_path, run_cli):
    """Issue 33, class 15: 'sample 0 has unknown variable ... and 16 more' for another puzzle's answer."""
    from tests.support import SHARED

    small, other = SHARED / "json" / "sgt-pattern-5x5.json", SHARED / "json" / "olsak-veze.json"
    answer = tmp_path / "veze-answer.json"
    assert run_cli("solve", other, "--sampler", "cpsat", "-o", answer)[0] == 0
    status, _, err = run_cli("decode", small, answer)
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert "another puzzle's variables" in err and "a puzzle of at least 4 x 4" in err and str(answer) in err


def test_a_model_file_presolves_in_info_as_in_solve(tmp_path, run_cli):
    """Issue 33, class 15: 'info MODEL --presolve' ignored presolve with a note, 'solve MODEL --presolve' presolved."""
    import json

    from tests.support import SHARED

    model = tmp_path / "m.qubo.json"
    assert run_cli("build", SHARED / "json" / "olsak-veze.json", "-o", model)[0] == 0
    status, out, err = run_cli("info", model, "--presolve", "--json")
    assert status == 0 and "note" not in err, err
    pre = json.loads(out)["presolve"]
    status, out, _ = run_cli("solve", model, "--presolve", "--sampler", "cpsat", "--json")
    assert status == 0 and json.loads(out)["fixed"] == pre["fixed_variables"]
    status, out, _ = run_cli("info", model, "--presolve")
    assert "presolve:    variables 24 -> " in out
