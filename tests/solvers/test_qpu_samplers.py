"""The QPU samplers: mock-dwave solves a small puzzle through FixedEmbeddingComposite (with a given
embedding, or one found and cached), its options are checked before anything runs, and dwave with no
Ocean configuration fails in one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.errors import EmbeddingError, PhysicalError, SolverError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models
from nonoqubo.qpu.embedding import find_embedding, model_summary, write_embedding
from nonoqubo.qpu.topology import parse_topology
from nonoqubo.solvers.base import SampleOptions
from nonoqubo.solvers.samplers import check_options
from nonoqubo.solvers.sampling import sampleset_document, solve

PICTURE = ["#.#", ".#.", "##."]
#: line logic fixes 10 of its 16 variables
PARTLY_LINE_SOLVABLE = ["...#", ".#.#", "...#", "#..#"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))


def test_mock_dwave_solves_a_small_puzzle_and_keeps_the_qpu_context():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=20, seed=3, qpu={"topology": "chimera:2"})
    assert result.best.valid and result.best.picture == tuple(PICTURE)
    info = result.batch.extra["sampleset_info"]
    context = info["embedding_context"]
    assert set(context["embedding"]) == set(result.qubo.labels)
    assert context["chain_strength"] == info["nonoqubo_qpu"]["chain_strength"]["value"]
    assert info["nonoqubo_qpu"]["chain_strength"]["rule"] == "uniform-torque"
    assert "qpu_access_time" in info["timing"] and "seconds_per_run" not in info  # the demo timing, and no second time
    record = result.batch.extra["run"]
    assert record["timing"]["seconds_per_run"] > 0 and record["sampler_reported"]["num_sweeps"] == 1000
    breaks = result.batch.extra["sampleset_vectors"]["chain_break_fraction"]
    assert breaks.shape == (20,) and ((breaks >= 0) & (breaks <= 1)).all()
    doc = sampleset_document(result)
    json.dumps(doc)  # the saved SampleSet is JSON
    assert "chain_break_fraction" in doc["vectors"] and doc["info"]["embedding_context"]["chain_strength"] > 0


def test_the_embedding_found_is_cached_and_a_given_one_is_used(tmp_path):
    puzzle = Puzzle.from_picture(PICTURE)
    first = solve(puzzle, "mock-dwave", reads=2, seed=1, qpu={"topology": "chimera:2"})
    assert first.batch.extra["sampleset_info"]["nonoqubo_qpu"]["embedding"]["from"].startswith("minorminer")
    again = solve(puzzle, "mock-dwave", reads=2, seed=1, qpu={"topology": "chimera:2"})
    assert again.batch.extra["sampleset_info"]["nonoqubo_qpu"]["embedding"]["from"] == "cache"
    qubo = Models.build(puzzle).qubo
    topology = parse_topology("chimera:2")
    emb = find_embedding(qubo, topology, seed=9)
    path = tmp_path / "emb.json"
    write_embedding(path, emb, model_summary(qubo), topology)
    given = solve(puzzle, "mock-dwave", reads=2, seed=1, qpu={"embedding": str(path), "chain_strength": "2.5"})
    context = given.batch.extra["sampleset_info"]["embedding_context"]
    assert {k: tuple(v) for k, v in context["embedding"].items()} == emb.chains
    assert context["chain_strength"] == 2.5


def test_presolve_needs_the_embedding_of_the_presolved_model(tmp_path):
    puzzle = Puzzle.from_picture(PARTLY_LINE_SOLVABLE)
    models = Models.build(puzzle)
    topology = parse_topology("chimera:4")
    emb = find_embedding(models.qubo, topology, seed=1)
    path = tmp_path / "full.json"
    write_embedding(path, emb, model_summary(models.qubo), topology)
    reduced = models.presolve()
    assert 0 < reduced.num_vars < models.qubo.num_vars
    with pytest.raises(EmbeddingError, match="another model"):
        solve(puzzle, "mock-dwave", reads=1, presolve=True, qpu={"embedding": str(path)})
    right = find_embedding(reduced, topology, seed=1)
    write_embedding(path, right, model_summary(reduced, presolved=True), topology)
    result = solve(puzzle, "mock-dwave", reads=10, seed=1, presolve=True, qpu={"embedding": str(path)})
    assert result.qubo.num_vars == reduced.num_vars and result.best.valid


@pytest.mark.parametrize("sampler,qpu,message", [
    ("sa", {"topology": "pegasus:2"}, "--topology applies only to the QPU samplers"),
    ("tabu", {"embedding": "e.json"}, "--embedding applies only"),
    ("exact", {"chain_strength": "2"}, "--chain-strength applies only"),
    ("mock-dwave", {}, "needs --topology"),
])
def test_qpu_options_are_checked_before_anything_runs(sampler, qpu, message):
    with pytest.raises(SolverError, match=message):
        check_options(SampleOptions(reads=1, qpu=qpu), sampler)


def test_a_chain_strength_that_is_not_a_number_is_refused():
    with pytest.raises(PhysicalError, match="--chain-strength"):
        check_options(SampleOptions(reads=1, qpu={"topology": "chimera:2", "chain_strength": "strong"}), "mock-dwave")


def test_mock_dwave_takes_sweeps_and_dwave_does_not():
    check_options(SampleOptions(reads=1, sweeps=10, qpu={"topology": "chimera:2"}), "mock-dwave")
    with pytest.raises(SolverError, match="--sweeps"):
        check_options(SampleOptions(reads=1, sweeps=10), "dwave")


def test_dwave_with_no_configuration_fails_in_one_line(tmp_path, monkeypatch):
    for key in ("DWAVE_API_TOKEN", "DWAVE_API_SOLVER", "DWAVE_API_ENDPOINT", "DWAVE_PROFILE", "DWAVE_API_REGION"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DWAVE_CONFIG_FILE", str(tmp_path / "none.conf"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    with pytest.raises(SolverError) as info:
        solve(Puzzle.from_picture(PICTURE), "dwave", reads=1)
    message = str(info.value)
    assert message.startswith("--sampler dwave: no D-Wave QPU is available") and "\n" not in message
    assert "dwave setup" in message


def test_a_mock_run_is_repeatable_with_a_seed():
    puzzle = Puzzle.from_picture(PICTURE)
    a = solve(puzzle, "mock-dwave", reads=5, seed=4, qpu={"topology": "chimera:2"})
    b = solve(puzzle, "mock-dwave", reads=5, seed=4, qpu={"topology": "chimera:2"})
    assert np.array_equal(a.batch.bits, b.batch.bits)


def test_dwave_takes_no_topology():
    with pytest.raises(SolverError, match="--topology does not apply to --sampler dwave"):
        check_options(SampleOptions(reads=1, qpu={"topology": "pegasus:16"}), "dwave")
