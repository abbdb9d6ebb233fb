"""`nonoqubo embed` end to end: the file it writes is a valid embedding, the cache is used, every refusal is one line."""

from __future__ import annotations

import json

import minorminer
import pytest
from dwave.embedding import verify_embedding

from nonoqubo.inputs import load_model
from nonoqubo.clues import load as load_clues
from nonoqubo.model.build import build
from nonoqubo.qpu.embedding import interaction_graph_hash, load_embedding
from nonoqubo.qpu.topology import dwave_networkx, parse_topology
from tests.support import SHARED

VEZE = SHARED / "json" / "olsak-veze.json"          # 4x4, 24 variables, presolve fixes none
PATTERN = SHARED / "json" / "sgt-pattern-5x5.json"  # line-solvable: presolve fixes all 23


@pytest.fixture(autouse=True)
def cache(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv("NONOQUBO_CACHE", str(folder))
    return folder / "embeddings"


@pytest.fixture
def calls(monkeypatch):
    """Count minorminer's searches."""
    count = []
    real = minorminer.find_embedding

    def counting(*args, **kwargs):
        count.append(kwargs.get("random_seed"))
        return real(*args, **kwargs)

    monkeypatch.setattr(minorminer, "find_embedding", counting)
    return count


def _source_graph(qubo):
    import networkx as nx

    g = nx.Graph()
    g.add_nodes_from(qubo.labels)
    g.add_edges_from((qubo.labels[a], qubo.labels[b]) for a, b in zip(qubo.row.tolist(), qubo.col.tolist()))
    return g


def test_embed_a_clue_file(run_cli, tmp_path):
    out = tmp_path / "veze.emb.json"
    status, stdout, err = run_cli("embed", VEZE, "--topology", "pegasus:4", "-o", out, "--embed-seed", "2")
    assert status == 0, err
    qubo = build(load_clues(VEZE))
    topology = parse_topology("pegasus:4")
    emb = load_embedding(out, qubo=qubo, topology=topology)
    assert verify_embedding(emb.as_dict(), _source_graph(qubo), topology.graph)
    doc = json.loads(out.read_text())
    assert doc["model"] == {"hash": interaction_graph_hash(qubo), "variables": 24, "edges": qubo.num_quadratic,
                            "max_degree": int(qubo.degrees().max()), "name": qubo.puzzle.name, "presolved": False}
    fig = doc["figures"]
    assert fig["seed"] == 2 and fig["tries"] == 1
    assert f"{fig['qubits']} qubits, longest chain {fig['longest_chain']}" in stdout
    assert "24 variables" in stdout and "pegasus:4 (264 qubits" in stdout


def test_a_model_file_embeds_as_its_puzzle_does(run_cli, tmp_path, calls):
    model = tmp_path / "veze.bqm"
    assert run_cli("build", VEZE, "-o", model, "-q")[0] == 0
    assert run_cli("embed", model, "-t", "zephyr:2", "-o", tmp_path / "a.json")[0] == 0
    assert run_cli("embed", VEZE, "-t", "zephyr:2", "-o", tmp_path / "b.json")[0] == 0
    a, b = (json.loads((tmp_path / n).read_text()) for n in ("a.json", "b.json"))
    assert a["model"]["hash"] == b["model"]["hash"] == interaction_graph_hash(load_model(model))
    assert len(calls) == 1  # the same interaction graph: the second embed is the cache's
    assert a["embedding"] == b["embedding"]


def test_the_cache_is_hit_the_second_time(run_cli, tmp_path, calls, cache):
    args = ("embed", VEZE, "-t", "chimera:4", "--tries", "2", "--embed-seed", "5")
    status, first, _ = run_cli(*args, "-o", tmp_path / "1.json")
    assert status == 0 and calls == [5, 6]
    assert len(list(cache.glob("*.json"))) == 1
    status, second, _ = run_cli(*args, "-o", tmp_path / "2.json")
    assert status == 0 and calls == [5, 6], "minorminer ran again"
    assert "from the cache" in second and "from the cache" not in first
    assert (tmp_path / "1.json").read_text() == (tmp_path / "2.json").read_text()
    run_cli(*args, "-o", tmp_path / "3.json", "--no-cache")
    assert calls == [5, 6, 5, 6]
    run_cli("embed", VEZE, "-t", "chimera:4", "--tries", "2", "--embed-seed", "7", "-o", tmp_path / "4.json")
    assert calls[-2:] == [7, 8]  # another seed is another key


def test_a_damaged_cache_file_is_searched_again(run_cli, tmp_path, calls, cache):
    run_cli("embed", VEZE, "-t", "pegasus:4", "-o", tmp_path / "1.json")
    (cached,) = cache.glob("*.json")
    doc = json.loads(cached.read_text())
    label = next(iter(doc["embedding"]))
    doc["embedding"][label] = [10**6]
    cached.write_text(json.dumps(doc))
    status, out, _ = run_cli("embed", VEZE, "-t", "pegasus:4", "-o", tmp_path / "2.json")
    assert status == 0 and len(calls) == 2 and "from the cache" not in out
    load_embedding(tmp_path / "2.json", qubo=build(load_clues(VEZE)), topology=parse_topology("pegasus:4"))


def test_a_qpu_properties_file_with_missing_qubits(run_cli, tmp_path):
    graph = dwave_networkx().pegasus_graph(3)
    missing = set(sorted(graph.nodes())[1::4])
    graph.remove_nodes_from(missing)
    props = tmp_path / "qpu.json"
    props.write_text(json.dumps({"qubits": sorted(graph.nodes()), "couplers": [list(e) for e in graph.edges()],
                                 "topology": {"type": "pegasus", "shape": [3]}}))
    out = tmp_path / "e.json"
    status, stdout, err = run_cli("embed", VEZE, "-t", props, "-o", out)
    assert status == 0, err
    doc = json.loads(out.read_text())
    used = {q for chain in doc["embedding"].values() for q in chain}
    assert used and not used & missing
    assert doc["topology"]["spec"] == f"file:{props}" and doc["topology"]["path"] == "qpu.json"
    qubo = build(load_clues(VEZE))
    assert verify_embedding(doc["embedding"], _source_graph(qubo), graph)


def test_presolve_that_fixes_every_variable_is_not_an_error(run_cli, tmp_path):
    out = tmp_path / "e.json"
    status, stdout, err = run_cli("embed", PATTERN, "-t", "pegasus:4", "--presolve", "-o", out)
    assert status == 0, err
    assert "nothing to embed: presolve fixes every variable" in stdout
    doc = json.loads(out.read_text())
    assert doc["embedding"] == {} and doc["model"]["presolved"] and doc["model"]["variables"] == 0


def test_presolve_embeds_the_reduced_model(run_cli, tmp_path):
    from nonoqubo.generation.families import make, parse_family
    from nonoqubo.clues import dumps
    from nonoqubo.pipeline import Models

    puzzle = make(parse_family("5x5:0.5:1:1").members()[0])
    models = Models.build(puzzle)
    reduced = models.presolve()
    assert 0 < reduced.num_vars < models.qubo.num_vars  # the case this test is about
    clue = tmp_path / "p.non"
    clue.write_text(dumps(puzzle, "non"))
    out = tmp_path / "e.json"
    status, stdout, err = run_cli("embed", clue, "-t", "zephyr:2", "--presolve", "-o", out)
    assert status == 0, err
    emb = load_embedding(out, qubo=reduced, topology=parse_topology("zephyr:2"))
    assert list(emb.chains) == list(reduced.labels) and emb.model["presolved"]
    assert f"{reduced.num_vars} variables" in stdout and "presolved" in stdout


def test_presolve_of_a_one_hot_model_file_fixes_one_hot_variables(run_cli, tmp_path):
    """A model file is presolved in its own encoding (the one-hot labels, not the domain wall's)."""
    from nonoqubo.generation.families import make, parse_family
    from nonoqubo.clues import dumps
    from nonoqubo.pipeline import Models

    puzzle = make(parse_family("5x5:0.5:1:1").members()[0])
    reduced = Models.build(puzzle, encoding="one-hot").presolve()
    assert 0 < reduced.num_vars  # the case this test is about
    model = tmp_path / "m.qubo.json"
    clue = tmp_path / "p.non"
    clue.write_text(dumps(puzzle, "non"))
    assert run_cli("build", clue, "--encoding", "one-hot", "-o", model, "-q")[0] == 0
    out = tmp_path / "e.json"
    status, stdout, err = run_cli("embed", model, "-t", "zephyr:2", "--presolve", "-o", out)
    assert status == 0, err
    emb = load_embedding(out, qubo=reduced, topology=parse_topology("zephyr:2"))
    assert list(emb.chains) == list(reduced.labels) and emb.model["presolved"]


@pytest.mark.parametrize("args, words", [
    (("-t", "pegasus"), "not a topology"),
    (("-t", "pegasus:0"), "start at 2"),
    (("-t", "chimera:1", "--tries", "2", "--timeout", "5"), "no embedding of the model (24 variables"),
    (("-t", "pegasus:4", "--tries", "0"), "--tries 0"),
    (("-t", "pegasus:4", "--timeout", "0"), "--timeout 0"),
])
def test_every_refusal_is_one_line_exit_2_no_file(run_cli, tmp_path, args, words):
    out = tmp_path / "e.json"
    status, stdout, err = run_cli("embed", VEZE, *args, "-o", out)
    assert status == 2 and words in err and err.count("\n") == 1, err
    assert not out.exists() and stdout == ""


def test_no_embedding_names_the_model_and_the_topology(run_cli, tmp_path):
    status, _, err = run_cli("embed", VEZE, "-t", "chimera:1", "-o", tmp_path / "e.json", "--timeout", "5")
    qubo = build(load_clues(VEZE))
    assert status == 2
    assert (f"{qubo.num_quadratic} edges, max degree {int(qubo.degrees().max())}" in err
            and "chimera:1,1,4 (8 qubits" in err)


def test_a_properties_file_without_nodelist_is_refused(run_cli, tmp_path):
    props = tmp_path / "qpu.json"
    props.write_text(json.dumps({"edgelist": [[0, 1]]}))
    out = tmp_path / "e.json"
    status, _, err = run_cli("embed", VEZE, "-t", props, "-o", out)
    assert status == 2 and "no 'nodelist'" in err and str(props) in err and err.count("\n") == 1
    assert not out.exists()


def test_help_teaches(run_cli):
    status, out, _ = run_cli("embed", "--help")
    assert status == 0
    for words in ("pegasus:16", "zephyr:12,4", "--tries", "default 1", "NONOQUBO_CACHE", "examples:"):
        assert words in out


# -- info --topology and suite --embed ------------------------------------------------------------------

def test_info_topology_gives_raw_and_presolved(run_cli, calls):
    status, out, err = run_cli("info", PATTERN, "--topology", "zephyr:2", "--json")
    assert status == 0, err
    fit = json.loads(out)["embedding"]
    qubo = build(load_clues(PATTERN))
    assert fit["topology"]["spec"] == "zephyr:2,4" and fit["topology"]["qubits"] == 160
    raw = fit["raw"]
    assert raw["status"] == "ok" and raw["variables"] == qubo.num_vars and raw["edges"] == qubo.num_quadratic
    assert raw["qubits"] >= qubo.num_vars and raw["longest_chain"] >= 1
    assert fit["presolved"] == {"variables": 0, "edges": 0, "max_degree": 0,
                                "status": "nothing to embed: presolve fixes every variable"}
    assert len(calls) == 1
    status, text, _ = run_cli("info", PATTERN, "--topology", "zephyr:2")  # the same, from the cache
    assert len(calls) == 1
    assert f"-> {raw['qubits']} qubits, longest chain {raw['longest_chain']}" in text and "from the cache" in text
    assert "presolved: nothing to embed: presolve fixes every variable" in text


def test_info_topology_on_a_model_file_and_when_none_fits(run_cli, tmp_path):
    model = tmp_path / "veze.qubo"
    assert run_cli("build", VEZE, "-o", model, "-q")[0] == 0
    status, out, err = run_cli("info", model, "--topology", "chimera:1", "--embed-timeout", "5", "--json")
    assert status == 0, err
    fit = json.loads(out)["embedding"]
    assert fit["raw"]["status"] == "not found" and fit["raw"]["variables"] == 24
    assert fit["presolved"]["status"] == "not found"  # presolve fixes none of veze's variables
    status, text, _ = run_cli("info", model, "--topology", "chimera:1", "--embed-timeout", "5")
    assert "no embedding found in 1 try of at most 5 s" in text


@pytest.mark.parametrize("args, words", [
    (("--topology", "zephyr:0"), "start at 1"),
    (("--topology", "pegasus:4", "--embed-tries", "0"), "--embed-tries 0"),
])
def test_info_refuses_a_bad_topology_before_any_work(run_cli, args, words):
    status, out, err = run_cli("info", VEZE, *args)
    assert status == 2 and words in err and err.count("\n") == 1 and out == ""


def test_suite_embed_records_the_figures_in_the_index(run_cli, tmp_path, calls):
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", VEZE, PATTERN, "--embed", "pegasus:4", "-o", out, "-j", "1", "-q")
    assert status == 0, err
    entries = {e["name"]: e for e in json.loads((out / "index.json").read_text())["puzzles"]}
    veze, pattern = entries["olsak-veze"], entries["sgt-pattern-5x5"]
    assert veze["embed_topology"] == pattern["embed_topology"] == "pegasus:4"
    assert veze["embed_status"] == veze["embed_status_after_presolve"] == "ok"
    assert pattern["embed_status_after_presolve"] == "nothing to embed: presolve fixes every variable"
    assert "embed_qubits_after_presolve" not in pattern
    # the figures are those of the cached embedding of that model
    emb = json.loads(next(iter(
        f for f in (tmp_path / "cache" / "embeddings").glob("*.json")
        if json.loads(f.read_text())["model"]["hash"] == interaction_graph_hash(build(load_clues(VEZE))))).read_text())
    assert veze["embed_qubits"] == emb["figures"]["qubits"] and veze["embed_longest_chain"] == emb["figures"]["longest_chain"]
    header = (out / "index.csv").read_text().splitlines()[0].split(",")
    assert "embed_qubits" in header and "embed_longest_chain_after_presolve" in header
    # veze's raw and presolved model are the same graph: 1 search; pattern's raw: 1 more
    assert len(calls) == 2
    status, _, _ = run_cli("suite", VEZE, PATTERN, "--embed", "pegasus:4", "-o", tmp_path / "again", "-j", "1", "-q")
    assert status == 0 and len(calls) == 2  # a second suite embeds nothing: the cache


def test_suite_without_embed_has_no_embed_columns(run_cli, tmp_path):
    out = tmp_path / "suite"
    assert run_cli("suite", VEZE, "-o", out, "-j", "1", "-q")[0] == 0
    header = (out / "index.csv").read_text().splitlines()[0]
    assert "embed_" not in header
    assert not any(k.startswith("embed_") for k in json.loads((out / "index.json").read_text())["puzzles"][0])


def test_suite_refuses_a_bad_topology_before_any_work(run_cli, tmp_path):
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", VEZE, "--embed", "pegasus:1", "-o", out, "-q")
    assert status == 2 and "no qubits" in err and err.count("\n") == 1
    assert not out.exists()
