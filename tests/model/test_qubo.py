"""Qubo: canonical form, exact energies (both evaluation paths), the Ising form."""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo.errors import SampleError
from nonoqubo.model.qubo import Qubo
from tests.support.brute import all_assignments


def direct_energy(labels, linear, triples, offset, x):
    """E(x) written out term by term, the definition itself."""
    e = offset + sum(a * x[i] for i, a in enumerate(linear))
    return e + sum(b * x[i] * x[j] for i, j, b in triples)


def random_terms(rng, n, m, spread):
    triples = [(int(rng.integers(n)), int(rng.integers(n)), int(rng.integers(-spread, spread + 1))) for _ in range(m)]
    linear = rng.integers(-spread, spread + 1, n).tolist()
    return linear, triples


@pytest.mark.parametrize("spread", [3, 10_000])  # few distinct biases (grouped path) and many
def test_from_terms_and_energy_match_the_definition(spread):
    rng = np.random.default_rng(spread)
    n = 9
    labels = [f"v{i}" for i in range(n)]
    linear, triples = random_terms(rng, n, 150, spread)
    q = Qubo.from_terms(labels, linear, triples, offset=7)
    assert (q.row < q.col).all() and (q.quad != 0).all()
    assert (np.diff(q.row * n + q.col) > 0).all()
    states = all_assignments(n)
    expected = [direct_energy(labels, linear, triples, 7, s) for s in states.tolist()]
    assert q.energy(states).tolist() == expected


def test_duplicates_merge_and_cancel():
    q = Qubo.from_terms(["a", "b"], [0, 0], [(0, 1, 2), (1, 0, -2), (0, 0, 5)])
    assert q.num_quadratic == 0 and q.linear.tolist() == [5, 0]


def test_ising_form_has_the_same_energies():
    rng = np.random.default_rng(3)
    linear, triples = random_terms(rng, 6, 40, 5)
    q = Qubo.from_terms([str(i) for i in range(6)], linear, triples, offset=-4)
    ising = q.to_ising()
    x = ((np.arange(64)[:, None] >> np.arange(6)) & 1).astype(np.int8)
    s = 2 * x - 1
    spin_energy = ising.offset + s @ ising.h + np.sum(ising.J * s[:, ising.row] * s[:, ising.col], axis=1)
    np.testing.assert_array_equal(spin_energy, q.energy(x).astype(float))
    bqm = q.to_bqm("SPIN")
    np.testing.assert_array_equal(bqm.energies((s, q.labels)), q.energy(x).astype(float))


def test_energy_refuses_bad_samples():
    q = Qubo.from_terms(["a", "b"], [1, 1], [(0, 1, 1)])
    with pytest.raises(SampleError, match="must have 2 values"):
        q.energy([0, 1, 1])
    with pytest.raises(SampleError, match="must be 0 or 1"):
        q.energy([[-1, 1]])
    with pytest.raises(SampleError, match="no such variable"):
        q.fix({"c": 1})
    with pytest.raises(SampleError, match="values are 0 or 1"):
        q.fix({"a": 2})
