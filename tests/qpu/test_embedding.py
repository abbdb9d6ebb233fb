"""Embeddings: found ones are valid (dwave's verify_embedding and an independent check), EMB.json reads back,
and load_embedding refuses every kind of bad file in one line."""

from __future__ import annotations

import json

import networkx as nx
import numpy as np
import pytest
from dwave.embedding import verify_embedding

from nonoqubo.errors import EmbeddingError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.pipeline import Models
from nonoqubo.qpu.embedding import (Embedding, find_embedding, interaction_graph_hash, load_embedding,
                                    model_summary, topology_of_embedding, write_embedding)
from nonoqubo.qpu.topology import dwave_networkx, parse_topology

SMALL = ["#.##.", ".###.", "#...#", "##.##", ".#.#."]


@pytest.fixture(scope="module")
def small() -> Qubo:
    return Models.build(Puzzle.from_picture(SMALL, name="small")).qubo


def independent_check(qubo: Qubo, chains: dict, graph: nx.Graph) -> None:
    """The definition of a minor embedding, written plainly (not the code under test, not dwave's)."""
    assert set(chains) == set(qubo.labels)
    used = [q for c in chains.values() for q in c]
    assert len(used) == len(set(used)), "chains overlap"
    assert set(used) <= set(graph.nodes())
    for label, chain in chains.items():
        assert chain and nx.is_connected(graph.subgraph(chain)), label
    for a, b in zip(qubo.row.tolist(), qubo.col.tolist()):
        ca, cb = chains[qubo.labels[a]], chains[qubo.labels[b]]
        assert any(graph.has_edge(x, y) for x in ca for y in cb), (qubo.labels[a], qubo.labels[b])


def source_graph(qubo: Qubo) -> nx.Graph:
    g = nx.Graph()
    g.add_nodes_from(qubo.labels)
    g.add_edges_from((qubo.labels[a], qubo.labels[b]) for a, b in zip(qubo.row.tolist(), qubo.col.tolist()))
    return g


@pytest.mark.parametrize("spec", ["chimera:4", "pegasus:4", "zephyr:2"])
def test_a_found_embedding_is_valid(small, spec):
    topology = parse_topology(spec)
    emb = find_embedding(small, topology, seed=3, tries=2, timeout=20)
    assert emb is not None and emb.topology == topology.spec
    assert list(emb.chains) == list(small.labels)  # the model's order
    assert verify_embedding(emb.as_dict(), source_graph(small), topology.graph)
    independent_check(small, emb.as_dict(), topology.graph)
    lengths = [len(c) for c in emb.chains.values()]
    assert emb.figures["qubits"] == sum(lengths) and emb.figures["longest_chain"] == max(lengths)
    assert emb.figures["tries"] == 2 and emb.figures["seed"] == 3
    assert emb.model_hash == interaction_graph_hash(small)


def test_tries_keep_the_best(small):
    topology = parse_topology("chimera:4")
    singles = [find_embedding(small, topology, seed=s, tries=1, timeout=20).figures for s in range(5)]
    best = find_embedding(small, topology, seed=0, tries=5, timeout=20).figures
    key = min((f["longest_chain"], f["qubits"]) for f in singles)
    assert (best["longest_chain"], best["qubits"]) == key


def test_variables_without_partners_get_a_qubit_of_their_own():
    q = Qubo.from_terms(["a", "b", "c", "d"], [1, 1, 1, 1], [(0, 1, 2)])
    topology = parse_topology("chimera:1")
    emb = find_embedding(q, topology, seed=1)
    independent_check(q, emb.as_dict(), topology.graph)
    alone = Qubo.from_terms(["a", "b"], [1, 1])
    emb = find_embedding(alone, topology, seed=1)
    assert emb.figures["qubits"] == 2
    independent_check(alone, emb.as_dict(), topology.graph)


def test_no_embedding_on_a_too_small_topology(small):
    assert find_embedding(small, parse_topology("chimera:1"), seed=1, tries=2, timeout=5) is None


def test_missing_qubits_of_a_real_qpu_are_never_used(small, tmp_path):
    graph = dwave_networkx().pegasus_graph(4)
    missing = set(sorted(graph.nodes())[::3])
    graph.remove_nodes_from(missing)
    path = tmp_path / "qpu.json"
    path.write_text(json.dumps({"nodelist": sorted(graph.nodes()), "edgelist": [list(e) for e in graph.edges()]}))
    topology = parse_topology(str(path))
    emb = find_embedding(small, topology, seed=1, timeout=20)
    used = {q for c in emb.chains.values() for q in c}
    assert used and not used & missing
    independent_check(small, emb.as_dict(), graph)


def test_the_hash_is_the_labels_and_pairs_only(small):
    same = Qubo(small.labels, small.linear * 3, small.row.astype(np.int64), small.col, -small.quad, 7)
    assert interaction_graph_hash(same) == interaction_graph_hash(small)
    fewer = Qubo(small.labels, small.linear, small.row[1:], small.col[1:], small.quad[1:])
    assert interaction_graph_hash(fewer) != interaction_graph_hash(small)
    renamed = Qubo([f"v{i}" for i in range(small.num_vars)], small.linear, small.row, small.col, small.quad)
    assert interaction_graph_hash(renamed) != interaction_graph_hash(small)


@pytest.fixture(scope="module")
def written(small, tmp_path_factory):
    topology = parse_topology("pegasus:4")
    emb = find_embedding(small, topology, seed=1, timeout=20)
    path = tmp_path_factory.mktemp("emb") / "emb.json"
    write_embedding(path, emb, model_summary(small), topology)
    return path, emb, topology


def test_the_file_reads_back(small, written):
    path, emb, topology = written
    doc = json.loads(path.read_text())
    assert doc["kind"] == "embedding" and doc["topology"]["spec"] == "pegasus:4"
    assert doc["model"]["hash"] == interaction_graph_hash(small) and doc["model"]["variables"] == small.num_vars
    back = load_embedding(path, qubo=small, topology=topology)
    assert isinstance(back, Embedding) and back.chains == emb.chains and back.figures == emb.figures
    assert topology_of_embedding(back).spec == "pegasus:4"


def _mutate(path, tmp_path, change):
    doc = json.loads(path.read_text())
    change(doc)
    out = tmp_path / "bad.json"
    out.write_text(json.dumps(doc))
    return out


def _first(doc):
    return next(iter(doc["embedding"]))


def _swap_to_disconnected(doc, graph):
    """Give the first chain, made two qubits long, a second qubit no coupler joins to its first."""
    chains = doc["embedding"]
    label = _first(doc)
    used = {q for c in chains.values() for q in c}
    q0 = chains[label][0]
    far = next(q for q in sorted(graph.nodes()) if q not in used and not graph.has_edge(q0, q)
               and not any(graph.has_edge(q, x) for x in chains[label]))
    chains[label] = [q0, far]


@pytest.mark.parametrize("name, change, words", [
    ("a chain missing a variable", lambda d, g: d["embedding"].pop(_first(d)), "has no chain for variable"),
    ("another model's chain", lambda d, g: d["embedding"].update({"w9[9][9]": [999]}), "not a variable of the model"),
    ("an empty chain", lambda d, g: d["embedding"].update({_first(d): []}), "is empty"),
    ("a qubit in two chains", lambda d, g: d["embedding"].update(
        {_first(d): d["embedding"][_first(d)] + [list(d["embedding"].values())[1][0]]}), "in the chains of both"),
    ("a qubit not in the graph", lambda d, g: d["embedding"][_first(d)].append(10**6), "is not in the pegasus:4 graph"),
    ("a disconnected chain", _swap_to_disconnected, "is not connected"),
    ("another model's hash", lambda d, g: d["model"].update(hash="0" * 64), "for another model"),
    ("no embedding object", lambda d, g: d.pop("embedding"), "not an embedding file"),
    ("a chain of words", lambda d, g: d["embedding"].update({_first(d): ["a"]}), "list of qubit numbers"),
])
def test_every_refusal_is_one_line_naming_the_file(small, written, tmp_path, name, change, words):
    path, _, topology = written
    bad = _mutate(path, tmp_path, lambda d: change(d, topology.graph))
    with pytest.raises(EmbeddingError) as info:
        load_embedding(bad, qubo=small, topology=topology)
    message = str(info.value)
    assert words in message and str(bad) in message and "\n" not in message, name


def test_a_missing_coupler_between_interacting_chains(small, written, tmp_path):
    path, _, topology = written
    doc = json.loads(path.read_text())
    # move a variable with partners onto one free qubit far from every other chain
    used = {q for c in doc["embedding"].values() for q in c}
    label = small.labels[int(small.row[0])]
    neighbours = {q for c in doc["embedding"].values() for q in c}
    lonely = next(q for q in sorted(topology.graph.nodes())
                  if q not in used and not any(topology.graph.has_edge(q, x) for x in neighbours))
    doc["embedding"][label] = [lonely]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    with pytest.raises(EmbeddingError, match=f"no coupler of pegasus:4 joins the chains of {label.replace('[', '.')}"):
        load_embedding(bad, qubo=small, topology=topology)


def test_invalid_json_is_an_embedding_error(tmp_path):
    bad = tmp_path / "e.json"
    bad.write_text("{")
    with pytest.raises(EmbeddingError, match="invalid JSON"):
        load_embedding(bad)


def test_a_file_topology_is_found_beside_the_embedding(small, tmp_path):
    graph = dwave_networkx().chimera_graph(4)
    qpu = tmp_path / "qpu" / "props.json"
    qpu.parent.mkdir()
    qpu.write_text(json.dumps({"qubits": sorted(graph.nodes()), "couplers": [list(e) for e in graph.edges()]}))
    topology = parse_topology(str(qpu))
    emb = find_embedding(small, topology, seed=1, timeout=20)
    out = tmp_path / "runs" / "emb.json"
    out.parent.mkdir()
    write_embedding(out, emb, model_summary(small), topology)
    assert json.loads(out.read_text())["topology"]["path"] == "../qpu/props.json"
    back = load_embedding(out, qubo=small)
    assert topology_of_embedding(back).graph_hash == topology.graph_hash


def test_a_changed_or_missing_topology_file_is_refused(small, tmp_path):
    from nonoqubo.errors import TopologyError

    graph = dwave_networkx().chimera_graph(4)
    qpu = tmp_path / "props.json"
    qpu.write_text(json.dumps({"nodelist": sorted(graph.nodes()), "edgelist": [list(e) for e in graph.edges()]}))
    topology = parse_topology(str(qpu))
    out = tmp_path / "emb.json"
    write_embedding(out, find_embedding(small, topology, seed=1, timeout=20), model_summary(small), topology)
    graph.remove_node(0)  # the QPU lost a qubit since
    qpu.write_text(json.dumps({"nodelist": sorted(graph.nodes()), "edgelist": [list(e) for e in graph.edges()]}))
    with pytest.raises(TopologyError, match="not the one the embedding"):
        topology_of_embedding(load_embedding(out))
    qpu.unlink()
    with pytest.raises(TopologyError, match="is not found"):
        topology_of_embedding(load_embedding(out))


def test_find_embedding_refuses_bad_search_options(small):
    topology = parse_topology("chimera:2")
    with pytest.raises(EmbeddingError, match="--tries 0"):
        find_embedding(small, topology, tries=0)
    with pytest.raises(EmbeddingError, match="--timeout"):
        find_embedding(small, topology, timeout=0)
