"""Physical samples back to the model: a solution spread over its chains with minority qubits flipped
decodes valid by majority vote with the right break fractions; discard, weighted, minimize-energy; every
sample shape decode reads; bad qubit samples are one line."""

from __future__ import annotations

import json

import dimod
import numpy as np
import pytest

from nonoqubo.answers.decode import Decoder
from nonoqubo.errors import PhysicalError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.pipeline import Models
from nonoqubo.qpu.embedding import find_embedding
from nonoqubo.qpu.topology import parse_topology
from nonoqubo.qpu.unembed import chain_break_column, qubit_spins, unembed
from nonoqubo.samples import RawSamples, match

PICTURE = ["#.##.", ".###.", "#...#", "##.##", ".#.#."]


@pytest.fixture(scope="module")
def setup():
    puzzle = Puzzle.from_picture(PICTURE)
    qubo = Models.build(puzzle).qubo
    emb = find_embedding(qubo, parse_topology("chimera:4"), seed=5, tries=2)
    assert emb is not None
    grid = np.array([[c == "#" for c in row] for row in PICTURE], np.int8)
    bits = match(RawSamples(grids=[grid]), qubo.labels, puzzle=puzzle).bits[0]
    assert qubo.energy(bits[None, :])[0] == 0
    return puzzle, qubo, emb, bits


def physical(emb, bits, flips=()):
    """{qubit: spin} of *bits* on the chains, with the qubits in *flips* flipped."""
    out = {}
    for v, chain in zip(emb.chains, bits.tolist()):
        for q in emb.chains[v]:
            out[q] = 2 * chain - 1
    for q in flips:
        out[q] = -out[q]
    return out


def minority_flips(emb, bits, rng, chains_to_break):
    """Flip fewer than half the qubits of each chosen chain (one of two in a +1 chain: a tie keeps +1)."""
    flips, broken = [], []
    for v, value in zip(emb.chains, bits.tolist()):
        chain = emb.chains[v]
        if len(broken) == chains_to_break:
            break
        if len(chain) >= 3:
            k = int(rng.integers(1, (len(chain) - 1) // 2 + 1))
        elif len(chain) == 2 and value == 1:
            k = 1
        else:
            continue
        flips += rng.choice(chain, k, replace=False).tolist()
        broken.append(v)
    return flips, broken


def test_minority_flips_decode_valid_by_majority_with_the_right_break_fractions(setup):
    puzzle, qubo, emb, bits = setup
    rng = np.random.default_rng(11)
    samples, expected = [], []
    for breaks in (0, 1, 3, 6):
        flips, broken = minority_flips(emb, bits, rng, breaks)
        assert len(broken) == breaks, "the embedding has too few long chains for this test"
        samples.append(physical(emb, bits, flips))
        expected.append(breaks / qubo.num_vars)
    result = unembed(RawSamples(maps=samples), emb.chains, qubo, "majority")
    assert (result.bits == bits).all()
    assert np.allclose(result.fractions, expected)
    assert result.overall == pytest.approx(np.mean(expected))
    decoder = Decoder(qubo)
    assert decoder.analyse(result.bits).valid.all()


def test_discard_keeps_the_samples_with_intact_chains(setup):
    _, qubo, emb, bits = setup
    rng = np.random.default_rng(2)
    flips, _ = minority_flips(emb, bits, rng, 2)
    raw = RawSamples(maps=[physical(emb, bits, flips), physical(emb, bits), physical(emb, bits, flips)])
    result = unembed(raw, emb.chains, qubo, "discard")
    assert result.kept.tolist() == [1] and (result.bits == bits).all()
    assert result.summary()["samples_read"] == 3 and result.summary()["samples_kept"] == 1
    with pytest.raises(PhysicalError, match="discard leaves none"):
        unembed(RawSamples(maps=[physical(emb, bits, flips)]), emb.chains, qubo, "discard")


@pytest.mark.parametrize("method", ["weighted", "minimize-energy", "majority", "discard"])
def test_every_method_decodes_intact_chains_as_they_are(setup, method):
    _, qubo, emb, bits = setup
    result = unembed(RawSamples(maps=[physical(emb, bits)] * 2), emb.chains, qubo, method)
    assert (result.bits == bits).all() and result.overall == 0


def test_minimize_energy_repairs_a_broken_chain_to_the_lower_energy(setup):
    _, qubo, emb, bits = setup
    long = next(v for v in emb.chains if len(emb.chains[v]) >= 2)
    half = emb.chains[long][: len(emb.chains[long]) // 2 or 1]
    result = unembed(RawSamples(maps=[physical(emb, bits, half)]), emb.chains, qubo, "minimize-energy")
    # only that chain is broken; MinimizeEnergy gives it the value of lower logical energy: the solution's
    assert qubo.energy(result.bits)[0] == 0


def test_samples_in_every_shape(setup):
    _, qubo, emb, bits = setup
    sample = physical(emb, bits)
    qubits = sorted(sample)
    as_text = RawSamples(maps=[{str(q): v for q, v in sample.items()}])
    as_binary = RawSamples(maps=[{q: (v + 1) // 2 for q, v in sample.items()}])
    labelled = RawSamples(values=np.array([[sample[q] for q in qubits]]), labels=qubits, vartype="SPIN")
    vectors = RawSamples(values=[[sample[q] for q in qubits]])
    extra = RawSamples(maps=[{**sample, 99999: 1}])  # a qubit outside the chains is ignored
    for raw in (as_text, as_binary, labelled, vectors, extra):
        assert (unembed(raw, emb.chains, qubo).bits == bits).all()


def test_a_sampleset_of_the_physical_problem(setup, tmp_path):
    from nonoqubo.samples import read_raw

    _, qubo, emb, bits = setup
    sample = physical(emb, bits)
    ss = dimod.SampleSet.from_samples([sample, sample], dimod.SPIN, energy=[0.0, 0.0])
    path = tmp_path / "qpu.json"
    path.write_text(json.dumps(ss.to_serializable()))
    raw, _ = read_raw(path)
    assert (unembed(raw, emb.chains, qubo).bits == bits).all()


def test_a_missing_qubit_is_one_line_naming_it_and_its_variable(setup):
    _, qubo, emb, bits = setup
    sample = physical(emb, bits)
    label = next(v for v in emb.chains if len(emb.chains[v]) >= 2)
    gone = emb.chains[label][-1]
    del sample[gone]
    with pytest.raises(PhysicalError) as info:
        unembed(RawSamples(maps=[sample]), emb.chains, qubo, source="q.json")
    message = str(info.value)
    assert f"lacks qubit {gone} of the chain of {label}" in message and message.startswith("q.json: sample 0")
    assert "\n" not in message


@pytest.mark.parametrize("raw,match_text", [
    (RawSamples(maps=[{"y0[0][0]": 1}]), "not a qubit number"),
    (RawSamples(values=[[1, 0, 1]]), "qubits"),
    (RawSamples(maps=[{0: 2}]), "lacks qubit|not"),
])
def test_bad_qubit_samples_are_refused(setup, raw, match_text):
    _, qubo, emb, _ = setup
    with pytest.raises(PhysicalError, match=match_text):
        unembed(raw, emb.chains, qubo)


def test_a_value_that_is_not_a_spin(setup):
    _, qubo, emb, bits = setup
    sample = physical(emb, bits)
    sample[next(iter(sample))] = 3
    with pytest.raises(PhysicalError, match="value 3"):
        qubit_spins(RawSamples(maps=[sample]), emb.chains)


def test_an_unknown_method_is_refused(setup):
    _, qubo, emb, bits = setup
    with pytest.raises(PhysicalError, match="--chain-break"):
        unembed(RawSamples(maps=[physical(emb, bits)]), emb.chains, qubo, "foo")


def test_the_chain_break_column_of_an_unembedded_sampleset(tmp_path):
    ss = dimod.SampleSet.from_samples([{"a": 1}, {"a": 0}], dimod.BINARY, energy=[0, 1],
                                      chain_break_fraction=[0.0, 0.5], num_occurrences=[3, 1],
                                      info={"embedding_context": {"chain_strength": 2.0, "embedding": {"a": [0, 1]},
                                                                  "chain_break_method": "majority_vote"}})
    path = tmp_path / "s.json"
    path.write_text(json.dumps(ss.to_serializable()))
    column = chain_break_column(path)
    assert column["per_sample"] == [0.0, 0.5] and column["overall"] == pytest.approx(0.5 / 4)
    assert column["chain_strength"] == 2.0 and column["chains"] == 1
    plain = tmp_path / "p.json"
    plain.write_text(json.dumps(dimod.SampleSet.from_samples([{"a": 1}], dimod.BINARY, energy=[0]).to_serializable()))
    assert chain_break_column(plain) is None


def test_spins_or_bits_can_be_forced(setup):
    _, qubo, emb, bits = setup
    ones = RawSamples(maps=[{q: 1 for c in emb.chains.values() for q in c}])
    assert (unembed(ones, emb.chains, qubo, spin=True).bits == 1).all()
    assert (unembed(ones, emb.chains, qubo, spin=False).bits == 1).all()
    zeros = RawSamples(maps=[{q: 0 for c in emb.chains.values() for q in c}])
    assert (unembed(zeros, emb.chains, qubo).bits == 0).all()
    with pytest.raises(PhysicalError, match="not a spin"):
        unembed(zeros, emb.chains, qubo, spin=True)


def test_weighted_is_reproducible_by_its_seed_and_leaves_numpy_alone():
    """Issue 33, class 14: --chain-break weighted was not reproducible and had no seed."""
    q = Qubo.from_terms([f"v{i}" for i in range(40)], [0] * 40)
    chains = {f"v{i}": (2 * i, 2 * i + 1) for i in range(40)}  # every chain broken: +1 and -1
    raw = RawSamples(maps=[{q_: (1 if q_ % 2 else -1) for q_ in range(80)}])
    np.random.seed(123)
    before = np.random.get_state()[1].copy()
    runs = {seed: [unembed(raw, chains, q, "weighted", seed=seed).bits.tolist() for _ in range(3)] for seed in (1, 2)}
    assert np.array_equal(np.random.get_state()[1], before)  # the global stream is put back
    for seed, bits in runs.items():
        assert bits[0] == bits[1] == bits[2], seed
    assert runs[1][0] != runs[2][0]  # 2^-40 that two seeds agree
    result = unembed(raw, chains, q, "weighted", seed=7)
    assert result.summary()["seed"] == 7 and "seed" not in unembed(raw, chains, q, "majority").summary()
    with pytest.raises(PhysicalError, match="--chain-break-seed"):
        unembed(raw, chains, q, "weighted", seed=-1)
