"""Penalty weights (issue 22): the grammar, the weighted models, and bad values refused in one line.

The weighted model equals the weighted sum of the independently built families term for term
in ``test_onehot.py``; here: that weights 1 are today's model exactly, that a weighted model
stays 0 exactly at the solution, and the command line.
"""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo.errors import WeightsError
from nonoqubo.model.build import build
from nonoqubo.model.encodings import geometry_of, names
from nonoqubo.model.weights import DEFAULT_WEIGHTS, Weights, parse_weights
from tests.model.references import FAMILIES
from tests.support import ROOT

LOGO = ROOT / "tests" / "data" / "puzzles" / "json" / "qbpp-logo.json"


@pytest.mark.parametrize("text,want", [
    ("shape=2,order=3,cell=4", (2, 3, 4)), ("cell=7", (1, 1, 7)), (" order = 2 , shape=5", (5, 2, 1)),
    ("shape=+3", (3, 1, 1)),
])
def test_parse_weights(text, want):
    assert tuple(parse_weights(text)) == want


@pytest.mark.parametrize("text,says", [
    ("shape=0", "shape=0: a weight is a positive integer"), ("cell=-1", "cell=-1: a weight is a positive"),
    ("foo=2", "unknown family 'foo'"), ("shape=1.5", "shape=1.5: a weight is a positive"),
    ("shape", "'shape' is not family=weight"), ("shape=1,shape=2", "shape is given twice"),
    ("shape=", "shape=: a weight is a positive"), ("", "'' is not family=weight"),
    ("shape=99999999999", "a weight is a positive integer"),
])
def test_bad_weights_are_one_line(text, says):
    with pytest.raises(WeightsError, match=says.replace("(", r"\(").replace("+", r"\+")) as info:
        parse_weights(text)
    assert "\n" not in str(info.value)


def test_weights_of_mappings_and_texts():
    assert Weights.of(None) is DEFAULT_WEIGHTS and Weights.of({"order": 4}) == Weights(1, 4, 1)
    assert str(Weights(2, 1, 3)) == "shape=2,order=1,cell=3" and parse_weights(str(Weights(2, 1, 3))) == (2, 1, 3)
    for bad in ({"shape": 0}, {"cell": True}, {"x": 1}, {"order": 1.0}):
        with pytest.raises(WeightsError):
            Weights.of(bad)


@pytest.mark.parametrize("encoding", names())
def test_weights_one_is_the_unweighted_model(logo, encoding):
    a, b = build(logo, encoding=encoding), build(logo, encoding=encoding, weights="shape=1,order=1,cell=1")
    assert a == b and a.quad.dtype == np.int8


@pytest.mark.parametrize("encoding", names())
@pytest.mark.parametrize("weights", [(2, 2, 1), (1, 1, 2), (7, 1, 1), (1, 100, 90)])
def test_weighted_models_are_zero_at_the_solution_and_positive_elsewhere(logo, encoding, weights):
    q = build(logo, encoding=encoding, weights=weights)
    sol = geometry_of(logo, encoding=encoding).encode(logo.solution_grid())
    assert int(q.energy(sol)[0]) == 0
    x = np.random.default_rng(1).integers(0, 2, (200, q.num_vars))
    assert (q.energy(x) > 0).all()
    assert q.weights == Weights(*weights)
    # the weights scale the families: the energy is the weighted sum of the unweighted families' energies
    labels, families = FAMILIES[encoding](logo)
    assert list(q.labels) == labels
    per_family = [np.array([fam.energy(dict(zip(labels, row.tolist()))) for row in x[:20]])
                  for fam in (families["shape"], families["order"], families["cell"])]
    want = sum(w * e for w, e in zip(weights, per_family))
    np.testing.assert_array_equal(q.energy(x[:20]), want)


def test_wide_weights_widen_the_bias_type(logo):
    q = build(logo, encoding="one-hot", weights="cell=100")
    assert q.quad.dtype == np.int16 and int(q.quad.max()) > 127
    sol = geometry_of(logo, encoding="one-hot").encode(logo.solution_grid())
    assert int(q.energy(sol)[0]) == 0


@pytest.mark.parametrize("command", ["build", "info"])
@pytest.mark.parametrize("value", ["shape=0", "cell=-1", "foo=2", "shape=1.5", "shape", "order=1,order=2"])
def test_bad_weights_on_the_command_line_are_one_line_exit_2(run_cli, tmp_path, command, value):
    out = tmp_path / "m.coo"
    argv = [command, LOGO, "--weights", value] + (["-o", out] if command == "build" else [])
    status, stdout, stderr = run_cli(*argv)
    assert status == 2 and stdout == ""
    assert stderr.count("\n") == 1 and stderr.startswith("nonoqubo: error: --weights: ")
    assert not out.exists()


def test_unknown_encoding_and_constrained_one_hot_are_refused(run_cli, tmp_path):
    status, _, stderr = run_cli("build", LOGO, "--encoding", "two-hot", "-o", tmp_path / "m.coo")
    assert status == 2 and "unknown encoding 'two-hot'; known: domain-wall, one-hot" in stderr
    for extra in (["--encoding", "one-hot"], ["--weights", "cell=2"]):
        status, _, stderr = run_cli("build", LOGO, "--constrained", *extra, "-o", tmp_path / "m.lp")
        assert status == 2 and stderr.count("\n") == 1 and "--constrained" in stderr
    assert not list(tmp_path.iterdir())
