"""parse_topology: every family against dwave_networkx's own sizes, the properties JSON of a real QPU, refusals."""

from __future__ import annotations

import json

import pytest

from nonoqubo.errors import NonoquboError, TopologyError
from nonoqubo.qpu.topology import MAX_COUPLERS, MAX_QUBITS, Topology, dwave_networkx, graph_size, parse_topology

dnx = dwave_networkx()


@pytest.mark.parametrize("text, spec, graph", [
    ("chimera:4", "chimera:4,4,4", lambda: dnx.chimera_graph(4)),
    ("chimera:2,3", "chimera:2,3,4", lambda: dnx.chimera_graph(2, 3)),
    ("Chimera: 3, 2, 2", "chimera:3,2,2", lambda: dnx.chimera_graph(3, 2, 2)),
    ("pegasus:4", "pegasus:4", lambda: dnx.pegasus_graph(4)),
    ("pegasus:16", "pegasus:16", lambda: dnx.pegasus_graph(16)),
    ("zephyr:2", "zephyr:2,4", lambda: dnx.zephyr_graph(2)),
    ("zephyr:12,4", "zephyr:12,4", lambda: dnx.zephyr_graph(12, 4)),
    ("zephyr:3,2", "zephyr:3,2", lambda: dnx.zephyr_graph(3, 2)),
])
def test_each_family_is_the_dwave_networkx_graph(text, spec, graph):
    topology = parse_topology(text)
    want = graph()
    assert topology.spec == spec
    assert (topology.num_qubits, topology.num_couplers) == (want.number_of_nodes(), want.number_of_edges())
    assert set(topology.graph.edges()) == set(want.edges())
    assert topology.describe()["qubits"] == want.number_of_nodes()
    # the normalised spec reads back as the same graph
    assert parse_topology(topology.spec).num_couplers == want.number_of_edges()


def test_the_advantage_sizes():
    assert parse_topology("pegasus:16").num_qubits == 5640
    assert parse_topology("zephyr:12,4").num_qubits == 4800


@pytest.mark.parametrize("text, words", [
    ("pegasus", "not a topology"),
    ("pegasus:", "not a topology"),
    ("pegasus:0", "start at 2"),
    ("pegasus:1", "no qubits"),
    ("chimera:0", "start at 1"),
    ("zephyr:2,0", "at least 1"),
    ("pegasus:4,4", "pegasus:M"),
    ("chimera:1,2,3,4", "chimera:M[,N[,T]]"),
    ("pegasus:1000", "above 64"),
    ("hexagon:3", "not a topology"),
    ("missing.json", "cannot read"),
])
def test_a_spec_that_does_not_parse_is_one_line(text, words):
    with pytest.raises(TopologyError) as info:
        parse_topology(text)
    assert words in str(info.value) and "\n" not in str(info.value)
    assert isinstance(info.value, NonoquboError)


def _properties(tmp_path, doc, name="qpu.json"):
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def test_a_properties_file_keeps_only_its_working_qubits(tmp_path):
    graph = dnx.pegasus_graph(3)
    gone = sorted(graph.nodes())[::7]
    graph.remove_nodes_from(gone)
    doc = {"qubits": sorted(graph.nodes()), "couplers": [list(e) for e in graph.edges()],
           "topology": {"type": "pegasus", "shape": [3]}, "h_range": [-4.0, 4.0], "j_range": [-1.0, 1.0]}
    topology = parse_topology(_properties(tmp_path, doc))
    assert isinstance(topology, Topology) and topology.family == "file"
    assert topology.num_qubits == graph.number_of_nodes() and not set(gone) & set(topology.graph.nodes())
    assert set(map(frozenset, topology.graph.edges())) == set(map(frozenset, graph.edges()))
    assert topology.h_range == (-4.0, 4.0) and topology.j_range == (-1.0, 1.0)
    assert topology.spec == "file:" + str(tmp_path / "qpu.json")
    assert topology.describe()["declared"] == {"type": "pegasus", "shape": [3]}


def test_nodelist_and_edgelist_and_couplers_from_the_declared_topology(tmp_path):
    graph = dnx.zephyr_graph(1)
    nodes = sorted(graph.nodes())[3:]
    a = parse_topology(_properties(tmp_path, {"nodelist": nodes, "edgelist": [list(e) for e in graph.subgraph(nodes).edges()]}, "a.json"))
    b = parse_topology(_properties(tmp_path, {"nodelist": nodes, "topology": {"type": "zephyr", "shape": [1, 4]}}, "b.json"))
    assert a.graph_hash == b.graph_hash and a.num_couplers == graph.subgraph(nodes).number_of_edges()
    assert a.h_range is None and a.key == b.key  # the same graph: the same cache key
    # a DWaveSampler.properties dump nested under "properties" reads the same
    c = parse_topology(_properties(tmp_path, {"properties": {"qubits": nodes,
                                                             "couplers": [list(e) for e in graph.subgraph(nodes).edges()]}}, "c.json"))
    assert c.graph_hash == a.graph_hash


@pytest.mark.parametrize("doc, words", [
    ({"edgelist": [[0, 1]]}, "no 'nodelist'"),
    ([1, 2], "JSON object"),
    ({"nodelist": []}, "is empty"),
    ({"nodelist": [0, "a"]}, "list of qubit numbers"),
    ({"nodelist": [0, 1]}, "no 'edgelist'"),
    ({"nodelist": [0, 1], "edgelist": [[0, 2]]}, "qubit 2, which is not in 'nodelist'"),
    ({"nodelist": [0, 1], "edgelist": [[0]]}, "pairs"),
    ({"nodelist": [0, 1], "edgelist": [[0, 1]], "j_range": [1, -1]}, "low < high"),
    # issue 33, class 3: no coupler at all, or a declared shape whose couplers miss every listed qubit
    ({"nodelist": [0, 1], "edgelist": []}, "no coupler joins two of its 2 qubits"),
    ({"qubits": [0, 1], "couplers": []}, "no coupler joins two of its 2 qubits"),
    ({"nodelist": [900000, 900001], "topology": {"type": "chimera", "shape": [1]}}, "couplers miss every qubit"),
    ({"nodelist": [0, 1], "topology": {"type": "zephyr", "shape": [15, 64]}}, "more than the 50,000 qubits"),
    ({"nodelist": [0, 2**40]}, "integers from 0 to"),
])
def test_a_bad_properties_file_is_one_line_naming_it(tmp_path, doc, words):
    path = _properties(tmp_path, doc)
    with pytest.raises(TopologyError) as info:
        parse_topology(path)
    assert words in str(info.value) and path in str(info.value) and "\n" not in str(info.value)


def test_invalid_json_is_a_topology_error(tmp_path):
    path = tmp_path / "qpu.json"
    path.write_text("{nodelist")
    with pytest.raises(TopologyError, match="invalid JSON"):
        parse_topology(str(path))


@pytest.mark.parametrize("family, shape, make", [
    ("chimera", (3, 5, 2), lambda: dnx.chimera_graph(3, 5, 2)), ("chimera", (1, 1, 7), lambda: dnx.chimera_graph(1, 1, 7)),
    ("pegasus", (2,), lambda: dnx.pegasus_graph(2)), ("pegasus", (7,), lambda: dnx.pegasus_graph(7)),
    ("zephyr", (1, 1), lambda: dnx.zephyr_graph(1, 1)), ("zephyr", (5, 3), lambda: dnx.zephyr_graph(5, 3)),
])
def test_graph_size_counts_what_dwave_networkx_builds(family, shape, make):
    graph = make()
    assert graph_size(family, shape) == (graph.number_of_nodes(), graph.number_of_edges())


@pytest.mark.parametrize("text", ["zephyr:15,64", "chimera:64,64,64", "pegasus:64", "chimera:64,64,16"])
def test_a_graph_too_large_is_refused_before_it_is_built(text, monkeypatch):
    """Issue 33, class 1: each size under 64, the graph far over the cap; nothing is built."""
    monkeypatch.setattr(dnx, "zephyr_graph", None)  # a call would fail the test with a TypeError
    monkeypatch.setattr(dnx, "chimera_graph", None)
    monkeypatch.setattr(dnx, "pegasus_graph", None)
    with pytest.raises(TopologyError) as info:
        parse_topology(text)
    assert f"more than the {MAX_QUBITS:,} qubits and {MAX_COUPLERS:,} couplers" in str(info.value)


def test_the_largest_qpus_are_under_the_cap():
    for spec in ("pegasus:16", "zephyr:15,4", "chimera:16"):
        family, _, sizes = spec.partition(":")
        shape = {"pegasus": (16,), "zephyr": (15, 4), "chimera": (16, 16, 4)}[family]
        qubits, couplers = graph_size(family, shape)
        assert qubits <= MAX_QUBITS and couplers <= MAX_COUPLERS, spec


@pytest.mark.parametrize("text", ["pegasus:" + "9" * 5000, "zephyr:4," + "1" * 400, "chimera:" + "7" * 4301 + ",2"])
def test_a_size_of_thousands_of_digits_is_one_line(text):
    """Issue 33, class 2: Python's int() refuses more than 4,300 digits; the spec is refused first, and cut."""
    with pytest.raises(TopologyError) as info:
        parse_topology(text)
    assert "sizes above 64" in str(info.value) and len(str(info.value)) < 200


def test_leading_zeros_are_a_size_not_a_long_number():
    assert parse_topology("pegasus:00000000004").spec == "pegasus:4"


def test_a_name_with_a_nul_byte_is_one_line():
    with pytest.raises(TopologyError, match="cannot read"):
        parse_topology("qpu\0.json")


def test_an_unreadable_name_with_a_newline_stays_on_one_line():
    """Found by the fuzzer's topology-spec family (a YAML bomb pasted into --topology)."""
    with pytest.raises(TopologyError) as info:
        parse_topology("a: &a [1,1]\nb: &b [*a,*a]\n.json")
    assert "\n" not in str(info.value) and "cannot read" in str(info.value)
