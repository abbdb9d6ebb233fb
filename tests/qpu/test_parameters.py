"""A QPU's parameters against its properties: schedules (forward, reverse, pauses), ranges, names, the
properties file, and the physical problem's ranges (extended J range, per-qubit coupling sums)."""

from __future__ import annotations

import json

import dimod
import pytest

from nonoqubo.errors import EmbeddingError, QpuParameterError, TopologyError
from nonoqubo.qpu.cache import cache_key
from nonoqubo.qpu.embedding import check_search_options
from nonoqubo.qpu.parameters import (DEFAULT_PROPERTIES, check_schedule, parse_schedule, solver_parameters,
                                     solver_properties, topology_of_solver)
from nonoqubo.qpu.physical import parse_chain_strength, read_chain_strengths, torque_prefactor
from nonoqubo.qpu.ranges import fit_ranges
from nonoqubo.qpu.topology import parse_topology


@pytest.mark.parametrize("name,spec", [
    ("Advantage_system4.1", "pegasus:16"), ("advantage_system6.4", "pegasus:16"), ("advantage", "pegasus:16"),
    ("Advantage2_system1.6", "zephyr:12,4"), ("advantage2", "zephyr:12,4"), ("Advantage2_prototype2.6", "zephyr:6,4"),
    ("DW_2000Q_6", "chimera:16,16,4"),
])
def test_qpu_names_map_to_their_graphs(name, spec):
    assert topology_of_solver(name) == spec
    assert parse_topology(name).spec == spec


def test_the_real_sizes_of_the_named_graphs():
    assert parse_topology("Advantage_system4.1").num_qubits == 5640
    assert parse_topology("Advantage2_system1.6").num_qubits == 4800


def test_an_unknown_name_is_one_line():
    with pytest.raises(TopologyError, match="Advantage_system4.1"):
        parse_topology("Advantage3_system1")


@pytest.mark.parametrize("text,expected", [
    ("0,0 10,0.5 20,1", [[0, 0], [10, 0.5], [20, 1]]),
    ("0,1; 5,0.4; 15,0.4; 20,1", [[0, 1], [5, 0.4], [15, 0.4], [20, 1]]),
])
def test_schedules_parse(text, expected):
    assert parse_schedule(text) == expected


def test_a_schedule_file_in_json_or_lines(tmp_path):
    (tmp_path / "s.json").write_text("[[0, 0], [12, 0.6], [40, 1]]")
    (tmp_path / "s.txt").write_text("# t s\n0 0\n12 0.6\n40 1\n")
    assert parse_schedule(str(tmp_path / "s.json")) == parse_schedule(str(tmp_path / "s.txt"))


@pytest.mark.parametrize("schedule,message", [
    ([[0, 0], [10, 0.6], [8, 1]], "t must increase"),
    ([[0, 0], [10, 0.6], [20, 0.5], [30, 1]], "may not decrease"),
    ([[0, 0.5], [20, 1]], "s=0 .forward anneal. or s=1"),
    ([[0, 0], [20, 0.9]], "last point must be at s=1"),
    ([[0, 0], [3000, 1]], "longer than this solver's longest anneal"),
    ([[0, 0], [0.1, 1]], "fastest is 2 per µs"),
    ([[0, 0]], "2 to 12"),
    ([[float(t), t / 13] for t in range(14)], "14 points; this solver takes 2 to 12"),
    ([[0, 0], [10, 1.5], [20, 1]], "s lies in"),
    ([[1, 0], [20, 1]], "at t=0"),
])
def test_schedules_the_solver_refuses(schedule, message):
    with pytest.raises(QpuParameterError, match=message):
        check_schedule(schedule, DEFAULT_PROPERTIES)


def test_a_properties_file_changes_what_is_allowed():
    props = solver_properties({"max_anneal_schedule_points": 4})
    with pytest.raises(QpuParameterError, match="5 points; this solver takes 2 to 4"):
        check_schedule([[0, 0], [1, 0.2], [2, 0.4], [3, 0.6], [4, 1]], props)


@pytest.mark.parametrize("qpu,message", [
    ({"annealing_time": 0.1}, r"--annealing-time 0.1: this solver takes 0.5 to 2000 µs"),
    ({"annealing_time": 5000.0}, "annealing_time_range"),
    ({"annealing_time": 5.0, "anneal_schedule": "0,0 5,1"}, "give one"),
    ({"anneal_schedule": "0,1 5,0.5 10,1"}, "reverse anneal: it needs the state"),
    ({"initial_states": True}, "starts at s=1"),
    ({"reinitialize_state": False}, "applies to a reverse anneal"),
    ({"num_spin_reversal_transforms": 3}, "multiple of 3"),
    ({"num_spin_reversal_transforms": -1}, "at least 0"),
    ({"readout_thermalization": 20000.0}, "readout_thermalization_range"),
    ({"programming_thermalization": -1.0}, "programming_thermalization_range"),
    ({"answer_mode": "all"}, "raw, histogram"),
    ({"num_spin_reversal_transforms": 2, "initial_states": True, "anneal_schedule": "0,1 5,0.5 10,1"},
     "does not flip the initial state"),
])
def test_parameters_the_solver_refuses(qpu, message):
    with pytest.raises(QpuParameterError, match=message):
        solver_parameters(qpu, DEFAULT_PROPERTIES, reads=10)


def test_good_parameters_become_sampler_keywords():
    out = solver_parameters({"annealing_time": 100, "readout_thermalization": 10, "auto_scale": False,
                             "answer_mode": "histogram", "anneal_schedule": None}, DEFAULT_PROPERTIES, reads=10)
    assert out == {"annealing_time": 100.0, "readout_thermalization": 10.0, "auto_scale": False,
                   "answer_mode": "histogram"}
    reverse = solver_parameters({"anneal_schedule": "0,1 5,0.45 15,0.45 20,1", "initial_states": True,
                                 "reinitialize_state": True}, DEFAULT_PROPERTIES, reads=10)
    assert reverse["anneal_schedule"][0] == [0.0, 1.0] and reverse["reinitialize_state"] is True
    with pytest.raises(QpuParameterError, match="num_reads_range"):
        solver_parameters({}, DEFAULT_PROPERTIES, reads=20000)


def write_properties(tmp_path, **extra):
    path = tmp_path / "qpu.json"
    path.write_text(json.dumps({"qubits": [0, 1, 4, 5], "couplers": [[0, 4], [0, 5], [1, 4], [1, 5]],
                                "topology": {"type": "chimera", "shape": [1, 1, 4]}, **extra}))
    return path


def test_a_properties_file_is_read_for_its_ranges(tmp_path):
    topology = parse_topology(str(write_properties(tmp_path, extended_j_range=[-3, 1], annealing_time_range=[1, 100],
                                                   per_qubit_coupling_range=[-5.0, 4.0], chip_id="Test_QPU")))
    assert topology.properties["extended_j_range"] == [-3.0, 1.0]
    assert topology.properties["chip_id"] == "Test_QPU"
    with pytest.raises(QpuParameterError, match="1 to 100 µs"):
        solver_parameters({"annealing_time": 200}, solver_properties(topology.properties), reads=1)


@pytest.mark.parametrize("extra,message", [
    ({"extended_j_range": [1, -2]}, "'extended_j_range' must be \\[LO, HI\\] with LO < 0 < HI"),
    ({"per_qubit_coupling_range": "wide"}, "per_qubit_coupling_range"),
    ({"annealing_time_range": [0, 10]}, "0 < LO < HI"),
    ({"max_anneal_schedule_points": 1.5}, "max_anneal_schedule_points"),
])
def test_a_malformed_properties_file_is_one_line(tmp_path, extra, message):
    with pytest.raises(TopologyError, match=message):
        parse_topology(str(write_properties(tmp_path, **extra)))


def chain_problem():
    bqm = dimod.BQM({"a": 0.5, "b": 0.0}, {("a", "b"): -1.0}, 0.0, "SPIN")
    return bqm, {"a": [0, 4], "b": [1]}, [(0, 4), (1, 4), (0, 5), (1, 5)]


def test_without_auto_scale_chains_use_the_extended_j_range():
    bqm, chains, couplers = chain_problem()
    fit = fit_ranges(bqm, chains, couplers, 3.0, solver_properties(), auto_scale=False)
    assert fit["chain_coupler_min"] == pytest.approx(-2.0)  # the chain at the extended range's end
    assert fit["j_min"] >= -2.0 and fit["h_max"] <= 4.0
    auto = fit_ranges(bqm, chains, couplers, 3.0, solver_properties(), auto_scale=True)
    assert auto["chain_coupler_min"] == pytest.approx(-1.0)  # the QPU scales into j_range only


def test_the_per_qubit_coupling_range_names_the_worst_qubit():
    bqm, chains, couplers = chain_problem()
    props = solver_properties({"per_qubit_coupling_range": [-1.2, 1.2]})
    with pytest.raises(QpuParameterError, match=r"per_qubit_coupling_range \[-1.2, 1.2\]: the couplings of qubit 4 "
                                                r"add up to -1.333"):
        fit_ranges(bqm, chains, couplers, 3.0, props, auto_scale=True)
    fit = fit_ranges(bqm, chains, couplers, 3.0, props, auto_scale=False)  # nonoqubo scales it inside
    assert fit["per_qubit_min"] >= -1.2 - 1e-9


def test_per_chain_strengths():
    bqm, chains, couplers = chain_problem()
    weak = fit_ranges(bqm, chains, couplers, {"a": 0.5, "b": 3.0}, solver_properties(), auto_scale=False)
    strong = fit_ranges(bqm, chains, couplers, {"a": 3.0, "b": 3.0}, solver_properties(), auto_scale=False)
    assert weak["scale"] > strong["scale"]


def test_chain_strength_rules(tmp_path):
    assert parse_chain_strength("uniform-torque:2.0") == "uniform-torque:2"
    assert torque_prefactor("uniform-torque:2") == 2.0 and torque_prefactor("uniform-torque") == 1.414
    with pytest.raises(Exception, match="prefactor"):
        parse_chain_strength("uniform-torque:-1")
    path = tmp_path / "cs.json"
    path.write_text(json.dumps({"a": 2.5}))
    assert read_chain_strengths(str(path), ["a", "b"]) == {"a": 2.5}
    path.write_text(json.dumps({"z": 2.5}))
    with pytest.raises(Exception, match="'z' is not a variable"):
        read_chain_strengths(str(path), ["a", "b"])
    path.write_text(json.dumps({"a": 0}))
    with pytest.raises(Exception, match="positive number"):
        read_chain_strengths(str(path), ["a", "b"])


def test_the_search_knobs_are_checked_and_part_of_the_cache_key():
    t = parse_topology("chimera:1")
    base = cache_key("h", t, 1, 1, 10.0)
    assert base == cache_key("h", t, 1, 1, 10.0, {"threads": 1, "chainlength_patience": 10, "clique": None})
    assert len({base, cache_key("h", t, 1, 1, 10.0, {"threads": 2}),
                cache_key("h", t, 1, 1, 10.0, {"chainlength_patience": 3}),
                cache_key("h", t, 1, 1, 10.0, {"clique": True})}) == 4
    with pytest.raises(EmbeddingError, match="--chainlength-patience -1"):
        check_search_options({"chainlength_patience": -1})
