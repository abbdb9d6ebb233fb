"""The physical problem: brute force on tiny puzzles (its chain-intact ground states are exactly the
solutions), a larger puzzle's solution below broken and other chain-consistent states, the scaling into
the ranges, Ocean's embed_bqm as the reference, the files, and bad options."""

from __future__ import annotations

import io
import json

import dimod
import numpy as np
import pytest
from dwave.embedding import embed_bqm
from dwave.embedding.chain_strength import scaled, uniform_torque_compensation

from nonoqubo.errors import EmbeddingError, PhysicalError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.pipeline import Models
from nonoqubo.qpu.embedding import find_embedding
from nonoqubo.qpu.physical import (DEFAULT_PRECISION, chain_strength_bound, dumps_bqm, dumps_json,
                                   parse_chain_strength, parse_range, physical_problem)
from nonoqubo.qpu.topology import parse_topology
from tests.support.brute import all_assignments, all_spins

#: tiny puzzles (one with two solutions) and a small topology each
TINY = [
    (("#.#", ".#.", "##."), "chimera:2"),
    (("#..#", ".##.", "#..#"), "chimera:2"),
    (("#.", ".#"), "chimera:1"),  # two solutions: its transpose too
    (("##.", "#.#", ".##"), "pegasus:2"),
    ((".#.", "###", ".#."), "zephyr:1"),
]


def embedded(picture, spec, seed=1):
    qubo = Models.build(Puzzle.from_picture(list(picture))).qubo
    topology = parse_topology(spec)
    emb = find_embedding(qubo, topology, seed=seed, tries=3)
    assert emb is not None
    return qubo, topology, emb


def chain_view(problem, spins: np.ndarray):
    """(intact (S,), the logical bits (S, N) from each chain's first qubit) of physical *spins*."""
    pos = {q: k for k, q in enumerate(problem.qubits)}
    intact = np.ones(len(spins), bool)
    first = []
    for chain in problem.chains.values():
        cols = [pos[q] for q in chain]
        intact &= (spins[:, cols] == spins[:, cols[:1]]).all(axis=1)
        first.append(cols[0])
    return intact, ((spins[:, first] + 1) // 2).astype(np.int8)


def spread(problem, bits: np.ndarray) -> np.ndarray:
    """Logical *bits* (S, N) spread over their chains: physical spins (S, Q) in problem.qubits order."""
    pos = {q: k for k, q in enumerate(problem.qubits)}
    out = np.empty((bits.shape[0], len(pos)), np.int8)
    for v, chain in enumerate(problem.chains.values()):
        out[:, [pos[q] for q in chain]] = (2 * bits[:, [v]] - 1)
    return out


@pytest.mark.parametrize("picture,spec", TINY)
@pytest.mark.parametrize("strength", ["uniform-torque", "scaled", "bound"])
def test_brute_force_ground_states_are_exactly_the_solutions(picture, spec, strength):
    qubo, topology, emb = embedded(picture, spec)
    chosen = chain_strength_bound(qubo) * 1.01 if strength == "bound" else strength
    problem = physical_problem(qubo, emb.chains, topology, chain_strength=chosen)
    n = len(problem.qubits)
    assert n <= 22
    states = all_spins(n)
    energy = problem.energy(states)
    ground = energy.min()
    assert ground == pytest.approx(0, abs=1e-9)  # a solution spread over its chains: scaled logical energy 0
    at_ground = np.isclose(energy, ground, atol=1e-9)
    intact, bits = chain_view(problem, states)
    assert intact[at_ground].all(), "a ground state with a broken chain"
    # the logical solutions, by brute force over the logical model itself
    x = all_assignments(qubo.num_vars)
    solutions = {tuple(r) for r in x[qubo.energy(x) == 0].tolist()}
    assert {tuple(r) for r in bits[at_ground].tolist()} == solutions
    # every chain-intact state's energy is scale x its logical energy; the recorded gap bound holds
    logical = qubo.energy(bits[intact])
    assert np.allclose(energy[intact], problem.scale * logical)
    excited = energy[intact & ~at_ground]
    meta = problem.metadata()
    assert excited.min() >= meta["gap"]["scaled_lower_bound"] - 1e-9
    assert meta["gap"]["scaled_lower_bound"] == problem.scale


@pytest.mark.parametrize("picture,spec", TINY[:2])
def test_above_the_bound_every_broken_chain_costs_more_than_the_ground(picture, spec):
    qubo, topology, emb = embedded(picture, spec)
    problem = physical_problem(qubo, emb.chains, topology, chain_strength=chain_strength_bound(qubo) * 1.001)
    states = all_spins(len(problem.qubits))
    energy = problem.energy(states)
    intact, bits = chain_view(problem, states)
    assert (~intact).any()
    # the bound's argument: aligning a broken chain never raises the energy, so the best broken
    # state is above the best intact one with the same chain values
    assert energy[~intact].min() > energy.min() + 1e-9


def test_the_logical_gap_of_tiny_puzzles_is_two():
    """What the docstring says of the gap: brute force finds the first excited energy 2 on each."""
    for picture, _ in TINY:
        qubo = Models.build(Puzzle.from_picture(list(picture))).qubo
        x = all_assignments(qubo.num_vars)
        energies = np.unique(qubo.energy(x))
        assert energies[0] == 0 and energies[1] == 2, picture


def test_the_cell_terms_add_up_to_an_even_number():
    """Why an energy of 1 is rare: over the grid both views' colours add up to the clue total."""
    from nonoqubo.answers.decode import Decoder

    for picture in (["#..#", ".##.", "#..#"], ["##.#.", ".#.##", "#...#", "###.."]):
        qubo = Models.build(Puzzle.from_picture(picture)).qubo
        analysis = Decoder(qubo).analyse(np.random.default_rng(0).integers(0, 2, (2000, qubo.num_vars), np.int8))
        cells = analysis.energy - analysis.broken.sum(axis=1) - analysis.order.sum(axis=1)
        assert (cells % 2 == 0).all()
        assert (analysis.row_colour.sum(axis=1) == analysis.col_colour.sum(axis=1)).all()


@pytest.fixture(scope="module")
def larger():
    """A random 6x6 on pegasus:4 (about 50 variables, too many qubits for brute force)."""
    rng = np.random.default_rng(7)
    picture = ["".join("#" if v else "." for v in row) for row in rng.random((6, 6)) < 0.55]
    puzzle = Puzzle.from_picture(picture)
    qubo = Models.build(puzzle).qubo
    topology = parse_topology("pegasus:4")
    emb = find_embedding(qubo, topology, seed=2, tries=2)
    assert emb is not None and emb.figures["longest_chain"] >= 2
    return puzzle, picture, qubo, topology, emb


def solution_bits(puzzle, picture, qubo):
    """The picture as the model's variables (the samples reader encodes pictures through the layout)."""
    from nonoqubo.samples import RawSamples, match

    grid = np.array([[c == "#" for c in row] for row in picture], np.int8)
    return match(RawSamples(grids=[grid]), qubo.labels, puzzle=puzzle).bits


@pytest.mark.parametrize("strength", ["uniform-torque", "scaled"])
def test_the_solution_on_its_chains_is_below_broken_and_other_states(larger, strength):
    puzzle, picture, qubo, topology, emb = larger
    problem = physical_problem(qubo, emb.chains, topology, chain_strength=strength)
    bits = solution_bits(puzzle, picture, qubo)
    assert qubo.energy(bits)[0] == 0
    solution = spread(problem, bits)
    e0 = problem.energy(solution)[0]
    assert e0 == pytest.approx(0, abs=1e-9)
    # every single qubit of every chain longer than 1, flipped: a broken chain
    pos = {q: k for k, q in enumerate(problem.qubits)}
    flips = [pos[q] for chain in problem.chains.values() if len(chain) > 1 for q in chain]
    broken = np.repeat(solution, len(flips), axis=0)
    broken[np.arange(len(flips)), flips] *= -1
    assert (problem.energy(broken) > e0 + 1e-9).all()
    # random chain-consistent states: scale x their (positive) logical energy
    rng = np.random.default_rng(3)
    others = rng.integers(0, 2, (300, qubo.num_vars), dtype=np.int8)
    others = others[qubo.energy(others) > 0]
    assert (problem.energy(spread(problem, others)) >= e0 + problem.scale - 1e-9).all()


@pytest.mark.parametrize("h_range,j_range", [(None, None), ("-2,2", "-0.5,1"), ("-0.1,4", "-1,0.3")])
def test_the_coefficients_lie_in_the_ranges_and_one_reaches_its_end(larger, h_range, j_range):
    _, _, qubo, topology, emb = larger
    problem = physical_problem(qubo, emb.chains, topology, h_range=h_range, j_range=j_range)
    hlo, hhi = parse_range(h_range, "h") if h_range else (-4.0, 4.0)
    jlo, jhi = parse_range(j_range, "j") if j_range else (-1.0, 1.0)
    h, (_, _, j), _ = problem.bqm.to_numpy_vectors(variable_order=problem.qubits)
    eps = 1e-12
    assert h.min() >= hlo - eps and h.max() <= hhi + eps
    assert j.min() >= jlo - eps and j.max() <= jhi + eps
    ends = [h.max() / hhi, h.min() / hlo, j.max() / jhi, j.min() / jlo]
    assert max(ends) == pytest.approx(1.0)  # the scale is the largest that fits
    meta = problem.metadata()
    assert meta["h_range"] == [hlo, hhi] and meta["j_range"] == [jlo, jhi]
    assert meta["chain_strength"]["scaled"] == pytest.approx(meta["chain_strength"]["logical"] * meta["scale"])


def test_the_ranges_of_a_properties_file_are_used(tmp_path, larger):
    _, _, qubo, topology, emb = larger
    props = {"qubits": sorted(topology.graph.nodes()), "couplers": [list(e) for e in topology.graph.edges()],
             "h_range": [-2.0, 2.0], "j_range": [-0.5, 0.5]}
    path = tmp_path / "props.json"
    path.write_text(json.dumps(props))
    problem = physical_problem(qubo, emb.chains, parse_topology(str(path)))
    assert problem.h_range == (-2.0, 2.0) and problem.j_range == (-0.5, 0.5)
    _, (_, _, j), _ = problem.bqm.to_numpy_vectors()
    assert j.min() >= -0.5 - 1e-12


@pytest.mark.parametrize("strength", ["uniform-torque", "scaled", 3.5])
def test_the_problem_is_oceans_embed_bqm_scaled(larger, strength):
    _, _, qubo, topology, emb = larger
    problem = physical_problem(qubo, emb.chains, topology, chain_strength=strength)
    spin = qubo.to_bqm("SPIN")
    expected_cs = {"uniform-torque": uniform_torque_compensation(spin), "scaled": scaled(spin)}.get(strength, strength)
    assert problem.chain_strength == pytest.approx(expected_cs)
    reference = embed_bqm(spin, {k: list(v) for k, v in emb.chains.items()}, topology.graph,
                          chain_strength=expected_cs)
    reference.scale(problem.scale)
    states = np.random.default_rng(1).choice(np.array([-1, 1], np.int8), (50, len(problem.qubits)))
    ours = problem.energy(states)
    theirs = dimod.SampleSet.from_samples_bqm((states, problem.qubits), reference).record.energy
    assert np.allclose(ours, theirs)


def test_the_precision_warning(larger):
    _, _, qubo, topology, emb = larger
    quiet = physical_problem(qubo, emb.chains, topology)
    assert quiet.precision == DEFAULT_PRECISION
    assert quiet.smallest_logical == pytest.approx(0.25 * quiet.scale)  # the Ising biases are multiples of 1/4
    assert quiet.smallest_physical <= quiet.smallest_logical + 1e-12  # chains split the biases further
    loud = physical_problem(qubo, emb.chains, topology, precision=quiet.smallest_logical * 1.5)
    assert loud.warning is not None and "\n" not in loud.warning and "--precision" in loud.warning
    assert quiet.warning is None if quiet.smallest_logical >= DEFAULT_PRECISION else quiet.warning


def test_the_json_file_is_the_problem(larger):
    _, _, qubo, topology, emb = larger
    problem = physical_problem(qubo, emb.chains, topology)
    doc = json.loads(dumps_json(problem))
    h = {int(q): v for q, v in doc["h"].items()}
    J = {(a, b): v for a, b, v in doc["J"]}
    assert all(a < b for a, b in J) and [list(p) for p in J] == sorted([list(p) for p in J])
    again = dimod.BinaryQuadraticModel.from_ising(h, J, doc["offset"])
    states = np.random.default_rng(2).choice(np.array([-1, 1], np.int8), (20, len(problem.qubits)))
    assert np.allclose(dimod.SampleSet.from_samples_bqm((states, problem.qubits), again).record.energy,
                       problem.energy(states))
    meta = doc["nonoqubo"]
    assert meta["kind"] == "physical" and meta["model"]["hash"] == emb.model_hash
    assert {k: tuple(v) for k, v in meta["chains"].items()} == emb.chains
    assert meta["scale"] == problem.scale and meta["send_with"] == {"auto_scale": False}
    assert meta["chain_strength"]["rule"] == "uniform-torque"


def test_the_bqm_file_reads_in_dimod(larger):
    from dimod.serialization.fileview import read_header

    _, _, qubo, topology, emb = larger
    problem = physical_problem(qubo, emb.chains, topology, chain_strength="scaled")
    data = dumps_bqm(problem)
    bqm = dimod.BinaryQuadraticModel.from_file(io.BytesIO(data))
    assert bqm.vartype is dimod.SPIN and list(bqm.variables) == problem.qubits
    assert bqm == problem.bqm
    meta = read_header(io.BytesIO(data), b"DIMODBQM").data["nonoqubo"]
    assert meta["kind"] == "physical" and meta["chain_strength"]["rule"] == "scaled"
    assert len(meta["chains"]) == qubo.num_vars


def test_an_embedding_for_another_model_is_refused(larger):
    _, _, qubo, topology, emb = larger
    other = Models.build(Puzzle.from_picture(["#.", ".#"])).qubo
    with pytest.raises(EmbeddingError, match="another model"):
        physical_problem(other, emb.chains, topology)
    chains = dict(emb.chains)
    chains.pop(qubo.labels[0])
    with pytest.raises(EmbeddingError, match="no chain"):
        physical_problem(qubo, chains, topology)


@pytest.mark.parametrize("text", ["strong", "-1", "0", "nan", "inf", ""])
def test_a_chain_strength_that_is_not_a_positive_number_is_refused(text):
    with pytest.raises(PhysicalError, match="--chain-strength") as info:
        parse_chain_strength(text)
    assert "\n" not in str(info.value)


@pytest.mark.parametrize("text", ["1,-1", "0,1", "-1,0", "a,b", "-1", "-1,1,2", "-inf,1"])
def test_a_range_that_is_not_lo_below_zero_below_hi_is_refused(text):
    with pytest.raises(PhysicalError, match="--h-range"):
        parse_range(text, "--h-range")


def test_a_model_of_one_chain_per_variable_needs_no_chain_strength():
    qubo = Qubo.from_terms(["a", "b"], [1, -1], [(0, 1, 2)])
    problem = physical_problem(qubo, {"a": (0,), "b": (4,)}, parse_topology("chimera:1"), chain_strength=100)
    # no chain coupler, so the chain strength does not set the scale: J = 2/4 = 0.5 scaled to 1
    assert problem.scale == pytest.approx(2.0)
    assert dict(problem.bqm.quadratic) == {(0, 4): pytest.approx(1.0)} or \
        dict(problem.bqm.quadratic) == {(4, 0): pytest.approx(1.0)}
