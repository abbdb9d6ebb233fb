"""The QPU road through the command line: embed -> build --embedding (phys.bqm, phys.json) -> qubit
samples -> decode --embedding; solve --sampler mock-dwave -> decode -> evaluate; bad input is one line,
exit 2, and no output file."""

from __future__ import annotations

import io
import json

import dimod
import numpy as np
import pytest

PICTURE = "#.##.\n.###.\n#...#\n##.##\n.#.#.\n"
PARTLY_LINE_SOLVABLE = "...#\n.#.#\n...#\n#..#\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def road(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    emb = tmp_path / "emb.json"
    status, _, err = run_cli("embed", puzzle, "--topology", "chimera:4", "--embed-seed", "2", "-o", emb)
    assert status == 0, err
    return tmp_path, puzzle, emb


def one_line_error(status, out, err, *files):
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1, err
    for f in files:
        assert not f.exists(), f


def test_build_writes_the_physical_problem_in_both_files(road, run_cli):
    tmp, puzzle, emb = road
    phys_json, phys_bqm = tmp / "phys.json", tmp / "phys.bqm"
    status, out, err = run_cli("build", puzzle, "--embedding", emb, "-o", phys_json, "-o", phys_bqm)
    assert status == 0, err
    assert "physical problem:" in err and "scale" in err and "chain strength" in err
    doc = json.loads(phys_json.read_text())
    bqm = dimod.BinaryQuadraticModel.from_file(io.BytesIO(phys_bqm.read_bytes()))
    again = dimod.BinaryQuadraticModel.from_ising({int(q): v for q, v in doc["h"].items()},
                                                  {(a, b): v for a, b, v in doc["J"]}, doc["offset"])
    assert bqm.vartype is dimod.SPIN and bqm == again
    chains = json.loads(emb.read_text())["embedding"]
    assert doc["nonoqubo"]["chains"] == chains
    assert doc["nonoqubo"]["model"]["hash"] == json.loads(emb.read_text())["model"]["hash"]
    h = np.array(list(doc["h"].values()))
    j = np.array([v for *_, v in doc["J"]])
    assert h.min() >= -4 and h.max() <= 4 and j.min() >= -1 and j.max() <= 1


@pytest.mark.parametrize("ranges", [("--h-range=-2,2", "--j-range=-0.5,0.5"),
                                    ("--h-range", "-2,2", "--j-range", "-0.5,0.5")])  # a negative LO as a value
def test_build_options(road, run_cli, ranges):
    tmp, puzzle, emb = road
    out_file = tmp / "p.json"
    status, _, err = run_cli("build", puzzle, "--embedding", emb, "-o", out_file, "--chain-strength", "3",
                             *ranges, "--precision", "0.9")
    assert status == 0, err
    meta = json.loads(out_file.read_text())["nonoqubo"]
    assert meta["chain_strength"]["logical"] == 3 and meta["chain_strength"]["scaled"] == pytest.approx(0.5)
    assert meta["h_range"] == [-2, 2] and meta["j_range"] == [-0.5, 0.5]
    warning = [line for line in err.splitlines() if line.startswith("warning:")]
    assert len(warning) == 1 and "--precision" in warning[0]


@pytest.mark.parametrize("extra,message", [
    (["--chain-strength", "strong"], "--chain-strength"),
    (["--chain-strength", "-2"], "--chain-strength"),
    (["--h-range", "1,-1"], "--h-range"),
    (["--j-range", "0,1"], "--j-range"),
    (["--j-range=-1,x"], "--j-range"),
    (["--ising"], "--ising"),
])
def test_bad_build_options_are_one_line(road, run_cli, extra, message):
    tmp, puzzle, emb = road
    target = tmp / "x.json"
    status, out, err = run_cli("build", puzzle, "--embedding", emb, "-o", target, *extra)
    one_line_error(status, out, err, target)
    assert message in err


def test_other_formats_are_refused_with_an_embedding(road, run_cli):
    tmp, puzzle, emb = road
    target = tmp / "m.qubo"
    status, out, err = run_cli("build", puzzle, "--embedding", emb, "-o", target)
    one_line_error(status, out, err, target)
    assert ".bqm" in err and ".json" in err


def test_qpu_options_without_an_embedding_are_refused(road, run_cli):
    tmp, puzzle, _ = road
    target = tmp / "m.bqm"
    status, out, err = run_cli("build", puzzle, "-o", target, "--chain-strength", "2")
    one_line_error(status, out, err, target)
    assert "--embedding" in err


def test_an_embedding_for_another_model_is_refused(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PARTLY_LINE_SOLVABLE)
    emb = tmp_path / "emb.json"
    assert run_cli("embed", puzzle, "--topology", "chimera:4", "-o", emb)[0] == 0
    target = tmp_path / "phys.json"
    status, out, err = run_cli("build", puzzle, "--presolve", "--embedding", emb, "-o", target)
    one_line_error(status, out, err, target)
    assert "another model" in err
    # the presolved model's embedding is the one for --presolve
    pre = tmp_path / "pre.json"
    assert run_cli("embed", puzzle, "--topology", "chimera:4", "--presolve", "-o", pre)[0] == 0
    status, _, err = run_cli("build", puzzle, "--presolve", "--embedding", pre, "-o", target)
    assert status == 0, err
    assert json.loads(target.read_text())["nonoqubo"]["model"]["presolved"] is True


def test_decode_qubit_samples_through_the_chains(road, run_cli):
    tmp, puzzle, emb = road
    phys = tmp / "phys.json"
    assert run_cli("build", puzzle, "--embedding", emb, "-o", phys)[0] == 0
    model = tmp / "m.qubo.json"
    assert run_cli("build", puzzle, "-o", model)[0] == 0
    # the solution on the chains: decode the picture to the model's variables first
    solved = tmp / "solution.json"
    assert run_cli("solve", puzzle, "--sampler", "cpsat", "-o", solved)[0] == 0
    ss = dimod.SampleSet.from_serializable(json.loads(solved.read_text()))
    values = dict(ss.first.sample)
    chains = json.loads(phys.read_text())["nonoqubo"]["chains"]
    long_chains = [v for v, c in chains.items() if len(c) >= 3]
    assert long_chains, "the embedding has no chain of 3 qubits"
    qubits = {q: 2 * int(values[v]) - 1 for v, c in chains.items() for q in c}
    broken = dict(qubits)
    broken[chains[long_chains[0]][0]] *= -1  # a minority qubit of one chain
    samples = tmp / "qpu.json"
    samples.write_text(json.dumps(dimod.SampleSet.from_samples([qubits, broken], dimod.SPIN,
                                                               energy=[0, 0]).to_serializable()))
    status, out, err = run_cli("decode", model, samples, "--embedding", emb, "--all", "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["num_valid"] == 2
    breaks = doc["chain_breaks"]
    assert breaks["method"] == "majority" and breaks["chains"] == len(chains)
    assert breaks["per_sample"] == [0.0, pytest.approx(1 / len(chains))]
    status, out, _ = run_cli("decode", puzzle, samples, "--embedding", emb, "--chain-break", "discard")
    assert status == 0 and "discard kept 1 of 2 samples" in out and "chain breaks (discard)" in out
    # a qubit of a chain missing: one line
    del qubits[chains[long_chains[0]][1]]
    partial = tmp / "partial.json"
    partial.write_text(json.dumps([{str(q): v for q, v in qubits.items()}]))
    status, out, err = run_cli("decode", model, partial, "--embedding", emb)
    one_line_error(status, out, err)
    assert f"lacks qubit {chains[long_chains[0]][1]}" in err
    status, out, err = run_cli("decode", model, samples, "--embedding", emb, "--chain-break", "foo")
    one_line_error(status, out, err)
    assert "--chain-break" in err
    status, out, err = run_cli("decode", model, samples, "--chain-break", "majority")
    one_line_error(status, out, err)


def test_the_mock_route_end_to_end(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    samples = tmp_path / "samples.json"
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "chimera:2", "--reads", "20",
                               "--seed", "1", "-o", samples)
    assert status == 0, err
    assert "VALID" in out and "chain breaks (majority_vote (FixedEmbeddingComposite))" in out
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "chimera:2", "--reads", "5",
                               "--seed", "1", "--json")
    assert status == 0, err
    breaks = json.loads(out)["chain_breaks"]
    assert len(breaks["per_sample"]) == 5 and breaks["chains"] == 6 and breaks["chain_strength"] > 0
    status, out, err = run_cli("decode", puzzle, samples, "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["num_samples"] == 20 and doc["num_valid"] >= 1
    assert doc["chain_breaks"]["method"] == "from the sample set" and len(doc["chain_breaks"]["per_sample"]) == 20
    status, out, err = run_cli("decode", puzzle, samples)
    assert "chain breaks (from the sample set)" in out and "chain strength" in out
    status, out, err = run_cli("evaluate", puzzle, samples, "--json")
    assert status == 0, err
    group = json.loads(out)["groups"][0]
    assert group["raw"]["samples"] == 20 and group["raw"]["valid"] == doc["num_valid"]
    assert group["raw"]["seconds_per_run"] > 0  # the mock's measured time, not its demonstration figures


@pytest.mark.parametrize("argv,message", [
    (["--sampler", "sa", "--topology", "chimera:2"], "--topology applies only"),
    (["--sampler", "mock-dwave"], "needs --topology"),
    (["--sampler", "mock-dwave", "--topology", "chimera:2", "--chain-strength", "x"], "--chain-strength"),
    (["--sampler", "mock-dwave", "--topology", "nothing:3"], ""),
])
def test_bad_solve_options_are_one_line(tmp_path, run_cli, argv, message):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    target = tmp_path / "s.json"
    status, out, err = run_cli("solve", puzzle, *argv, "-o", target)
    one_line_error(status, out, err, target)
    assert message in err


def test_a_physical_file_given_as_the_model_is_one_line(road, run_cli):
    tmp, puzzle, emb = road
    for name in ("phys.json", "phys.bqm"):
        phys = tmp / name
        assert run_cli("build", puzzle, "--embedding", emb, "-o", phys)[0] == 0
        status, out, err = run_cli("decode", phys, tmp / "whatever.json")
        one_line_error(status, out, err)
        assert "physical problem on qubits" in err and "--embedding" in err


def test_solve_on_a_qpu_with_no_configuration_is_one_line(tmp_path, run_cli, monkeypatch):
    for key in ("DWAVE_API_TOKEN", "DWAVE_API_SOLVER", "DWAVE_API_ENDPOINT", "DWAVE_PROFILE", "DWAVE_API_REGION"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("DWAVE_CONFIG_FILE", str(tmp_path / "none.conf"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    target = tmp_path / "s.json"
    status, out, err = run_cli("solve", puzzle, "--sampler", "dwave", "-o", target)
    one_line_error(status, out, err, target)
    assert "no D-Wave QPU is available" in err and "mock-dwave" in err


def test_mock_dwave_on_a_qpu_properties_file_with_a_missing_qubit(tmp_path, run_cli):
    from nonoqubo.qpu.topology import parse_topology

    graph = parse_topology("chimera:2").graph
    dead = 0
    props = {"topology": {"type": "chimera", "shape": [2, 2, 4]},
             "qubits": [q for q in sorted(graph.nodes()) if q != dead],
             "couplers": [[a, b] for a, b in graph.edges() if dead not in (a, b)],
             "h_range": [-2.0, 2.0], "j_range": [-1.0, 1.0]}
    qpu = tmp_path / "qpu.json"
    qpu.write_text(json.dumps(props))
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    samples = tmp_path / "s.json"
    status, out, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", qpu, "--seed", "2",
                               "-o", samples)
    assert status == 0, err
    info = json.loads(samples.read_text())["info"]
    used = {q for chain in info["embedding_context"]["embedding"].values() for q in chain}
    assert dead not in used and used <= set(props["qubits"])


def test_decode_a_clue_file_with_the_presolved_models_embedding(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PARTLY_LINE_SOLVABLE)
    pre = tmp_path / "pre.json"
    assert run_cli("embed", puzzle, "--topology", "chimera:4", "--presolve", "-o", pre)[0] == 0
    solved = tmp_path / "solution.json"
    assert run_cli("solve", puzzle, "--sampler", "cpsat", "-o", solved)[0] == 0
    values = dict(dimod.SampleSet.from_serializable(json.loads(solved.read_text())).first.sample)
    chains = json.loads(pre.read_text())["embedding"]
    samples = tmp_path / "qpu.json"
    samples.write_text(json.dumps({str(q): 2 * int(values[v]) - 1 for v, c in chains.items() for q in c}))
    status, out, err = run_cli("decode", puzzle, samples, "--embedding", pre, "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["num_valid"] == 1 and doc["variables"] == len(chains) and doc["fixed"] > 0
    assert doc["chain_breaks"]["overall"] == 0


def test_a_sampler_reads_phys_bqm_and_decode_reads_its_answer_unedited(tmp_path, run_cli):
    from dwave.samplers import SimulatedAnnealingSampler

    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    emb, phys = tmp_path / "emb.json", tmp_path / "phys.bqm"
    assert run_cli("embed", puzzle, "--topology", "chimera:2", "-o", emb)[0] == 0
    assert run_cli("build", puzzle, "--embedding", emb, "-o", phys)[0] == 0
    bqm = dimod.BinaryQuadraticModel.from_file(io.BytesIO(phys.read_bytes()))
    answer = SimulatedAnnealingSampler().sample(bqm, num_reads=20, seed=1)
    samples = tmp_path / "answer.json"
    samples.write_text(json.dumps(answer.to_serializable()))
    status, out, err = run_cli("decode", puzzle, samples, "--embedding", emb, "--json")
    assert status == 0, err
    doc = json.loads(out)
    assert doc["num_samples"] == 20 and doc["num_valid"] >= 1
    # the physical energy of a valid sample is 0: a solution on intact chains, scaled
    best = answer.first
    assert best.energy == pytest.approx(0, abs=1e-9)


def test_build_embeds_a_model_file_as_it_is(road, run_cli):
    """A suite's model file (its puzzle inside) gives the same physical problem as its clue file."""
    tmp, puzzle, emb = road
    model = tmp / "m.qubo.json"
    assert run_cli("build", puzzle, "-o", model, "-q")[0] == 0
    from_model, from_clues = tmp / "a.json", tmp / "b.json"
    status, _, err = run_cli("build", model, "--embedding", emb, "-o", from_model)
    assert status == 0, err
    assert run_cli("build", puzzle, "--embedding", emb, "-o", from_clues, "-q")[0] == 0
    a, b = json.loads(from_model.read_text()), json.loads(from_clues.read_text())
    assert a["h"] == b["h"] and a["J"] == b["J"] and a["offset"] == b["offset"]
    out = tmp / "c.json"
    for extra in (["--presolve"], ["--encoding", "one-hot"], ["--encoding", "domain-wall"], ["--weights", "cell=2"]):
        one_line_error(*run_cli("build", model, "--embedding", emb, "-o", out, *extra), out)


@pytest.mark.parametrize("command", ["info", "solve", "embed", "build", "decode"])
def test_a_physical_file_given_as_a_model_is_one_line_that_says_what_to_give(road, run_cli, command):
    tmp, puzzle, emb = road
    for phys in (tmp / "phys.json", tmp / "phys.bqm"):
        assert run_cli("build", puzzle, "--embedding", emb, "-o", phys, "-q")[0] == 0
        out = tmp / "out.json"
        extra = {"embed": ["--topology", "chimera:4", "-o", out], "build": ["-o", out],
                 "decode": [tmp / "phys.json"]}.get(command, [])
        status, stdout, err = run_cli(command, phys, *extra)
        one_line_error(status, stdout, err, out)
        assert "a physical problem on qubits" in err and "logical model" in err
