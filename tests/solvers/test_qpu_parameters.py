"""The QPU parameters on the mock route: what the mock does with each, what the run record keeps (problem
ids, timing, parameters), reverse annealing from a state, spin-reversal transforms, histogram answers, no
auto-scale, the properties file's ranges, and bad values refused in one line before sampling."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.errors import QpuParameterError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models
from nonoqubo.solvers.sampling import sampleset_document, solve

PICTURE = ["#.#", ".#.", "##."]


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))


def record(result):
    return result.batch.extra["sampler_info"]["qpu"]


def test_annealing_time_sets_the_mocks_sweeps_and_the_estimated_timing():
    puzzle = Puzzle.from_picture(PICTURE)
    short = solve(puzzle, "mock-dwave", reads=4, seed=1, qpu={"topology": "chimera:2", "annealing_time": 2.0,
                                                           "readout_thermalization": 100.0})
    rec = record(short)
    assert rec["mock_annealer"]["num_sweeps"] == 100 and rec["parameters"]["annealing_time"] == 2.0
    timing = rec["timing"]
    assert timing["estimated"] and timing["qpu_anneal_time_per_sample"] == 2.0
    assert timing["qpu_access_time"] == pytest.approx(timing["qpu_programming_time"] + timing["qpu_sampling_time"])
    assert timing["qpu_sampling_time"] == pytest.approx(4 * (2.0 + 41.54 + 20.54 + 100.0))
    assert rec["problem_id"] and rec["problem_ids"] == [rec["problem_id"]]
    doc = sampleset_document(short)
    saved = doc["info"]["nonoqubo"]["sampler_reported"]["qpu"]
    assert saved["timing"]["qpu_access_time"] == timing["qpu_access_time"]  # the documented key
    json.dumps(doc)


def test_a_forward_schedule_drives_the_mocks_temperature():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=10, seed=2,
                   qpu={"topology": "chimera:2", "anneal_schedule": "0,0 10,0.5 30,0.5 40,1"})
    rec = record(result)
    assert rec["mock_annealer"]["num_sweeps"] == 2000 and "custom" in rec["mock_annealer"]["beta_schedule"]
    assert result.best.valid


def test_a_reverse_anneal_from_the_solution_stays_near_it():
    puzzle = Puzzle.from_picture(PICTURE)
    qubo = Models.build(puzzle).qubo
    from nonoqubo.solvers.sampling import solve as run
    exact = run(puzzle, "exact")
    truth = exact.batch.bits[[exact.best.index]]
    assert exact.best.valid
    for reinitialize in (True, False):
        result = run(puzzle, "mock-dwave", reads=10, seed=1,
                     qpu={"topology": "chimera:2", "anneal_schedule": "0,1 4,1", "initial_states": truth,
                          "reinitialize_state": reinitialize})
        # held at s=1, SA's coldest beta (where the smallest step up is still taken about 1% of the time)
        assert result.analysis.valid.sum() >= 3
        assert record(result)["parameters"]["reinitialize_state"] is reinitialize
    with pytest.raises(QpuParameterError, match="values a state"):
        run(puzzle, "mock-dwave", reads=2, qpu={"topology": "chimera:2", "anneal_schedule": "0,1 2,0.9 4,1",
                                                "initial_states": np.zeros((1, qubo.num_vars + 1))})


def test_spin_reversal_transforms_split_the_reads_into_problems():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=6, seed=1,
                   qpu={"topology": "chimera:2", "num_spin_reversal_transforms": 3})
    rec = record(result)
    assert len(result.analysis) == 6 and len(rec["problem_ids"]) == 3 and rec["reads_per_problem"] == 2
    assert rec["timing"]["problems"] == 3


def test_histogram_answers_keep_their_counts():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=20, seed=1, qpu={"topology": "chimera:2", "answer_mode": "histogram"})
    doc = sampleset_document(result)
    counts = doc["vectors"]["num_occurrences"]["data"]
    assert sum(counts) == 20 and len(counts) == len(result.analysis) < 20


def test_no_auto_scale_sends_nonoqubos_scaling_and_energies_stay_logical():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=5, seed=1, qpu={"topology": "chimera:2", "auto_scale": False,
                                                            "chain_strength": "uniform-torque:2"})
    rec = record(result)
    assert rec["ranges"]["auto_scale"] is False and rec["ranges"]["chain_coupler_min"] >= -2.0 - 1e-9
    assert rec["parameters"]["auto_scale"] is False
    assert result.best.valid and float(result.batch.energies.min()) == pytest.approx(0.0)
    info = result.batch.extra["sampleset_info"]["nonoqubo_qpu"]["chain_strength"]
    assert info["uniform_torque_prefactor"] == 2.0


def test_a_properties_file_narrows_what_the_mock_accepts(tmp_path):
    from nonoqubo.qpu.topology import dwave_networkx

    graph = dwave_networkx().chimera_graph(2)
    path = tmp_path / "qpu.json"
    path.write_text(json.dumps({"qubits": sorted(graph.nodes()), "couplers": sorted(map(sorted, graph.edges())),
                                "topology": {"type": "chimera", "shape": [2, 2, 4]}, "chip_id": "Test_QPU",
                                "annealing_time_range": [1.0, 50.0], "per_qubit_coupling_range": [-0.5, 0.5]}))
    puzzle = Puzzle.from_picture(PICTURE)
    with pytest.raises(QpuParameterError, match="1 to 50 µs"):
        solve(puzzle, "mock-dwave", reads=2, qpu={"topology": str(path), "annealing_time": 100.0})
    with pytest.raises(QpuParameterError, match="per_qubit_coupling_range .-0.5, 0.5.: the couplings of qubit"):
        solve(puzzle, "mock-dwave", reads=2, qpu={"topology": str(path)})


def test_a_clique_embedding_on_pegasus():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "mock-dwave", reads=5, seed=1, qpu={"topology": "pegasus:2", "clique": True})
    assert record(result)["embedding"]["clique"] is True


def test_the_cli_takes_the_qpu_options_and_decode_shows_the_call(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    samples = tmp_path / "s.json"
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "chimera:2", "--reads", "4",
                               "--seed", "1", "--annealing-time", "10", "--num-spin-reversal-transforms", "2",
                               "--solver", "Advantage_system4.1", "-o", samples)
    assert status == 0, err
    assert "QPU: Advantage_system4.1, problem" in out and "and 1 more" in out
    status, out, err = run_cli("decode", puzzle, samples)
    assert status == 0, err
    assert "qpu_access_time" in out and "estimated by the mock's timing model" in out
    assert "parameters sent: annealing_time=10.0, num_spin_reversal_transforms=2" in out
    emb = json.loads(samples.read_text())["info"]["nonoqubo"]["sampler_reported"]["qpu"]["embedding"]
    assert (f"embedding: {emb['qubits']} qubits, longest chain {emb['longest_chain']}, mean chain {emb['mean_chain']}"
            in out) and "chain breaks resolved by majority_vote" in out


@pytest.mark.parametrize("argv,message", [
    (["--annealing-time", "0.1"], "--annealing-time 0.1: this solver takes 0.5 to 2000"),
    (["--anneal-schedule", "0,0 10,0.6 5,1"], "t must increase"),
    (["--anneal-schedule", "0,0 10,0.6 20,0.4 30,1"], "may not decrease"),
    (["--anneal-schedule", "0,1 10,0.5 20,1"], "needs the state"),
    (["--anneal-schedule", "hello"], "neither t,s pairs"),
    (["--num-spin-reversal-transforms", "3"], "multiple of 3"),
    (["--readout-thermalization", "1e6"], "readout_thermalization_range"),
    (["--chain-strength", "uniform-torque:x"], "prefactor"),
    (["--threads", "0"], "--threads 0"),
    (["--clique", "--reads", "2"], "--clique embeds on Pegasus and Zephyr"),
])
def test_bad_qpu_options_are_one_line_before_sampling(tmp_path, run_cli, argv, message):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    out_file = tmp_path / "s.json"
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "chimera:2", "--reads", "4",
                               *argv, "-o", out_file)
    assert status == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert message in err and not out_file.exists()


def test_an_unknown_solver_name_is_one_line(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--solver", "Advantage9_system1")
    assert status == 2 and len(err.strip().splitlines()) == 1 and "--solver" in err
    status, out, err = run_cli("solve", puzzle, "--sampler", "sa", "--annealing-time", "5")
    assert status == 2 and "--annealing-time applies only to the QPU samplers" in err


def test_the_json_report_with_the_qpu_call_follows_the_schema(tmp_path, run_cli):
    import jsonschema
    from importlib import resources

    schema = json.loads(resources.files("nonoqubo.schemas").joinpath("report.schema.json").read_text())
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "chimera:2", "--reads", "4",
                               "--seed", "1", "--annealing-time", "10", "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["chain_breaks"]["qpu"]["timing"]["qpu_access_time"] > 0
    jsonschema.validate(doc, schema)
