"""Answers at the edges (issue 24, items 12-14): Gurobi JSON, position-named columns, odd labels."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tests.support import DATA, SHARED
from nonoqubo import clues
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout, flat_name
from nonoqubo.errors import FormatError, SampleError
from nonoqubo.samples import parse_samples

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"


@pytest.fixture(scope="module")
def logo():
    return clues.load(str(LOGO_JSON))


def _solution_bits(puzzle) -> np.ndarray:
    return Layout.of(puzzle).encode(puzzle.solution_grid()).astype(int)


# -- Gurobi JSON -------------------------------------------------------------------------------
def _gurobi_json(labels, rows, *, detail: bool) -> str:
    info = {"Status": 2, "ObjVal": 0, "SolCount": len(rows), "PoolNObjVal": [0] * len(rows)}
    if detail:
        variables = [{"VarName": flat_name(k), "X": int(rows[0][i]), "PoolNX": [int(r[i]) for r in rows]}
                     for i, k in enumerate(labels)]
    else:
        variables = [{"VarName": flat_name(k), "X": 1} for k, v in zip(labels, rows[0]) if v]
    return json.dumps({"SolutionInfo": info, "Vars": variables})


def test_gurobi_json_detail_0_lists_only_nonzero_variables(logo):
    q = build(logo)
    x = _solution_bits(logo)
    batch = parse_samples(_gurobi_json(q.labels, [x], detail=False), q.labels)
    assert batch.bits.tolist() == [x.tolist()] and batch.energies.tolist() == [0.0]


def test_gurobi_json_detail_1_reads_the_pool(logo):
    q = build(logo)
    x = _solution_bits(logo)
    other = x.copy()
    other[:5] ^= 1
    batch = parse_samples(_gurobi_json(q.labels, [x, other], detail=True), q.labels)
    assert batch.bits.tolist() == [x.tolist(), other.tolist()]


def test_gurobi_json_without_a_solution_says_the_status():
    text = '{ "SolutionInfo": { "Status": 3, "SolCount": 0}}'
    with pytest.raises(SampleError, match=r"x\.json: Gurobi found no solution \(status INFEASIBLE\)"):
        parse_samples(text, ["a"], source="x.json")
    with pytest.raises(FormatError, match=r"x\.json: Vars item 0"):
        parse_samples('{"SolutionInfo": {}, "Vars": [3]}', ["a"], source="x.json")


# -- variables named by position ----------------------------------------------------------------
ANSWERS = DATA / "answers"


@pytest.fixture(scope="module")
def model_files(tmp_path_factory):
    from tests.support import solver_runs

    directory = tmp_path_factory.mktemp("edge-models")
    return lambda model, fmt: solver_runs.write_model(model, fmt, directory)


@pytest.mark.parametrize("fmt", ["ommx-constrained", "ommx", "lp", "mps"])
def test_highs_columns_named_by_position_read_against_any_model_file(fmt, model_files, run_cli):
    status, out, err = run_cli("decode", str(model_files("logo", fmt)), str(ANSWERS / "logo.highs-ommx.sol"))
    assert status == 0 and "VALID, energy 0" in out
    assert err.startswith("nonoqubo: note: ") and "c0, c1" in err and err.count("\n") == 1


@pytest.mark.parametrize("answer", ["heart.scip-ommx.sol", "heart.scip-ommx-zeros.sol"])
@pytest.mark.parametrize("fmt", ["ommx", "lp", "mps"])
def test_scip_ommx_ids_read_against_any_model_file(answer, fmt, model_files, run_cli):
    status, out, err = run_cli("decode", str(model_files("heart", fmt)), str(ANSWERS / answer))
    assert status == 0 and "VALID, energy 0" in out and "OMMX id" in err and err.count("\n") == 1
    assert ("auxiliary_for_linearized_objective" in err) == answer.endswith("zeros.sol")


def test_a_position_past_the_model_is_an_error_naming_it(logo):
    labels = build(logo).labels
    text = "Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n# Columns 2\nc0 1\nc9999 1\n"
    with pytest.raises(SampleError, match=r"x\.sol: sample 0 has variable 'c9999', position 9999, but the model's "
                                          r"variables are 0\.\.436"):
        parse_samples(text, labels, source="x.sol")


def test_positions_are_not_guessed_when_labels_are_mixed(logo):
    labels = build(logo).labels
    with pytest.raises(SampleError, match="unknown variable 'c1'"):
        parse_samples(json.dumps({labels[0]: 1, "c1": 0}), labels, source="x.json")


# -- y_0_0_0 labels and Amplify's constant ------------------------------------------------------
@pytest.mark.parametrize("answer", ["heart.opt-mapper.json", "heart.qiskit-optimization.json"])
@pytest.mark.parametrize("fmt", ["ommx", "lp", "qubo.json"])
def test_subscripted_labels_are_read_with_a_note(answer, fmt, model_files, run_cli):
    status, out, err = run_cli("decode", str(model_files("heart", fmt)), str(ANSWERS / answer))
    assert status == 0 and "VALID, energy 0" in out
    assert err.count("\n") == 1 and "'y_0_0_0'" in err and err.count("y_0_0_0") == 1


def test_amplify_constant_variable_is_ignored_with_a_note(model_files, run_cli):
    status, out, err = run_cli("decode", str(model_files("logo", "lp")), str(ANSWERS / "logo.amplify-gurobi.sol"))
    assert status == 0 and "VALID, energy 0" in out and "the variable '0'" in err and err.count("\n") == 1


def test_subscripted_labels_of_fixed_variables_and_unknown_ones(logo):
    q = build(logo)
    x = _solution_bits(logo)
    sample = {"_".join([k[0]] + k[1:].replace("[", " ").replace("]", " ").split()): int(v)
              for k, v in zip(q.labels, x)}
    assert parse_samples(json.dumps(sample), q.labels).bits.tolist() == [x.tolist()]
    with pytest.raises(SampleError, match="unknown variable 'y_99_0_0'"):
        parse_samples(json.dumps({**sample, "y_99_0_0": 1}), q.labels)
    with pytest.raises(SampleError, match="unknown variable '0'"):  # a lone '0' among positions is no constant
        parse_samples(json.dumps({"0": 1, "x": 0}), q.labels)
