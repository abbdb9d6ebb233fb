"""encoding.Completion: samples of a reduced model, completed with its fixings; one way for three callers.

presolve.complete, Decoder.complete and ConstrainedModel.full_assignment all
fill through it: they must give the same full assignment for the same model
and keep their own error messages.
"""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo.answers.decode import Decoder
from nonoqubo.errors import SampleError
from nonoqubo.logic.presolve import complete
from nonoqubo.model.build import build
from nonoqubo.model.constrained import build_constrained
from nonoqubo.model.encoding import Completion, Layout, bracket_name, flat_name
from nonoqubo.model.puzzle import Puzzle

MESSAGES = {"unknown": "unknown {label!r}", "unknown_fixed": "fixed {short!r}", "missing": "missing {label!r}"}


def test_a_round_trip_through_a_shuffled_reduction():
    rng = np.random.default_rng(2)
    full = [f"v{i}" for i in range(30)]
    truth = rng.integers(0, 2, (6, 30)).astype(np.int8)
    fixed_at = rng.choice(30, 11, replace=False)
    kept = rng.permutation(np.setdiff1d(np.arange(30), fixed_at))
    fixed = {full[i]: int(truth[0, i]) for i in fixed_at}
    truth[:, fixed_at] = truth[0, fixed_at]  # a fixed variable has one value in every sample
    c = Completion.of(full, [full[i] for i in kept], fixed)
    c.check(**MESSAGES)
    out = c.fill(truth[:, kept])
    assert out.dtype == np.int8 and np.array_equal(out, truth)
    assert np.array_equal(c.fill(truth[0, kept]), truth[:1])  # one sample as a vector


def test_the_full_model_is_completed_by_nothing():
    full = ["a", "b"]
    x = np.array([[1, 0]], np.int8)
    c = Completion.of(full, full, {})
    assert c.model_pos is None and c.fill(x) is x
    copied = c.fill(x, copy=True)
    assert copied is not x and np.array_equal(copied, x)
    assert Completion.of(full, ["a", "b"], {}).model_pos is None  # equal labels, in order
    assert Completion.of(full, ["b", "a"], {}).fill(x).tolist() == [[0, 1]]


@pytest.mark.parametrize("labels, fixed, message", [
    (["a", "x"], {"b": 1}, "unknown 'x'"),
    (["a"], {"y" * 100: 1}, f"fixed {'y' * 80!r}"),
    (["a"], {}, "missing 'b'"),
])
def test_each_problem_raises_its_callers_message(labels, fixed, message):
    c = Completion.of(["a", "b"], labels, fixed)
    with pytest.raises(SampleError) as exc:
        c.check(**MESSAGES)
    assert str(exc.value) == message


def _reduced_models():
    """A random picture's puzzle, its solution's assignment, and a third of it fixed (still feasible)."""
    rng = np.random.default_rng(4)
    grid = rng.random((7, 9)) < 0.5
    puzzle = Puzzle.from_picture(grid)
    lay = Layout.of(puzzle)
    truth = lay.encode(grid)
    at = np.sort(rng.choice(lay.num_vars, lay.num_vars // 3, replace=False))
    labels = lay.labels()
    fixed = {labels[i]: int(truth[i]) for i in at}
    return puzzle, lay, truth, fixed


def test_the_three_callers_complete_alike():
    puzzle, lay, truth, fixed = _reduced_models()
    qubo = build(puzzle).fix(fixed)
    cm = build_constrained(puzzle, fixed)
    assert list(qubo.labels) == cm.labels
    keep = np.flatnonzero([label not in fixed for label in lay.labels()])
    reduced = np.stack((truth[keep], 1 - truth[keep]))
    want = np.stack((truth, np.where(np.isin(np.arange(lay.num_vars), keep), 1 - truth, truth)))
    for got in (complete(qubo, reduced), Decoder(qubo).complete(reduced), cm.full_assignment(reduced)):
        assert got.dtype == np.int8 and np.array_equal(got, want)


def test_the_callers_keep_their_messages():
    puzzle, _lay, _truth, fixed = _reduced_models()
    qubo = build(puzzle).fix(fixed)
    with pytest.raises(SampleError, match="a sample must have"):
        complete(qubo, np.zeros((1, qubo.num_vars + 1), np.int8))
    cm = build_constrained(puzzle, fixed)
    with pytest.raises(SampleError, match="a sample of this model has"):
        cm.full_assignment(np.zeros((1, cm.num_vars + 1), np.int8))
    first = next(iter(fixed))
    partial = build(puzzle).fix({k: v for k, v in fixed.items() if k != first})

    class Lacking:  # a model that neither holds nor fixes `first`
        labels = [label for label in partial.labels if label != first]
        fixed = partial.fixed
        num_vars = len(labels)

    Lacking.puzzle = puzzle
    with pytest.raises(SampleError) as exc:
        Decoder(Lacking())
    assert str(exc.value) == (f"the model has neither a variable nor a fixed value for {first!r}; "
                              "it does not encode the whole puzzle")
    with pytest.raises(SampleError) as exc:
        complete(Lacking(), np.zeros((1, Lacking.num_vars), np.int8))  # type: ignore[arg-type]
    assert str(exc.value) == f"the model has neither a variable nor a fixed value for {first!r}"


def test_a_puzzle_without_variables_completes_the_empty_sample():
    qubo = build(Puzzle.from_picture(["#.", "##"])).fix({"y0[0][0]": 0, "z1[0][0]": 1})
    assert complete(qubo, [[]]).tolist() == [[0, 1]]
    assert Decoder(qubo).complete(np.zeros((1, 0), np.int8)).tolist() == [[0, 1]]


@pytest.mark.parametrize("label", ["y3[1][2]", "z0[20][5]", "x", "y3_1"])
def test_flat_and_bracket_names_invert_each_other(label):
    assert bracket_name(flat_name(label)) == label
