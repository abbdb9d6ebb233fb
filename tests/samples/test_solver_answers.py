"""Real solvers' answers decode as they are: the committed files, and live runs where installed.

The answer files in ``tests/data/answers`` were written by the real programs
(``regenerate.py`` there; routes in ``tests/support/solver_runs.py``).  Each is decoded
unedited against the model file it answers, and checked against what the
solver itself said: the energy qbsolv printed plus the offset, the offset
minus MQLib's maximised objective, the energies OpenJij stored, or a MIP
solver's feasible answer (energy 0, the puzzle's solution).  Where a program
is installed it is also run live on the logo and its answer decoded.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

from tests.support import solver_runs
from nonoqubo import exports
from nonoqubo.samples import _detect

ANSWERS = Path(__file__).resolve().parents[1] / "data" / "answers"
MANIFEST = json.loads((ANSWERS / "MANIFEST.json").read_text())
ROUTES = {r.solver: r for r in solver_runs.ROUTES}
#: the samples format that must be detected for each solver's answer
DETECTED = {"qbsolv": "qbsolv", "qbsolv-stdout": "qbsolv", "MQLib": "mqlib", "SCIP": "scip", "CBC": "cbc", "Gurobi": "gurobi",
            "Gurobi-JSON": "gurobi-json", "Gurobi-JSON-detail": "gurobi-json",
            "HiGHS": "highs", "HiGHS-OMMX": "highs", "SCIP-OMMX": "scip", "SCIP-OMMX-zeros": "scip",
            "opt-mapper": "labelmap", "qiskit-optimization": "labelmap", "Amplify-Gurobi": "gurobi", "GLPK": "glpk",
            "OpenJij": "sampleset", "MiniZinc": "minizinc", "MiniZinc-json": "minizinc",
            "MiniZinc-dzn": "minizinc", "MiniZinc-stream": "minizinc"}


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[tuple[str, str], Path]:
    """Every (model, format) the answers need, built once."""
    directory = tmp_path_factory.mktemp("models")
    cache: dict[tuple[str, str], Path] = {}

    def get(model: str, fmt: str) -> Path:
        if (model, fmt) not in cache:
            cache[(model, fmt)] = solver_runs.write_model(model, fmt, directory)
        return cache[(model, fmt)]

    return get  # type: ignore[return-value]


def solution_picture(model: str) -> list[str]:
    stem, _ = solver_runs.MODELS[model]
    return json.loads((solver_runs.PUZZLES / f"{stem}.json").read_text())["solution"]


def independent_energy(solver: str, model_path: Path, answer: str) -> float | None:
    """The QUBO energy of the answer's bits, read here with a plain split and evaluated by ``Qubo.energy``."""
    if solver not in ("qbsolv", "qbsolv-stdout", "MQLib"):
        return None
    qubo = exports.load(str(model_path))
    if solver.startswith("qbsolv"):
        bits = [ln for ln in answer.splitlines() if re.fullmatch(r"[01]+", ln.strip())][-1].strip()
        x = np.array([int(c) for c in bits])
    else:
        x = np.array(answer.split("Solution:")[-1].split(), dtype=int)
    return float(qubo.energy(x[None, :])[0])


def check_answer(run_cli, solver: str, model: str, model_path: Path, answer_path: Path) -> dict:
    """Decode *answer_path* against *model_path* and check it against the solver's own word."""
    status, out, err = run_cli("decode", model_path, answer_path, "--json")
    assert status in (0, 1) and all(line.startswith("nonoqubo: note: ") for line in err.splitlines()), err
    assert err.count("\n") <= 1, err
    doc = json.loads(out)
    best = min(doc["samples"], key=lambda s: s["energy"])
    assert status == (0 if best["valid"] else 1)
    for sample in doc["samples"]:
        # qbsolv: printed x'Qx + offset; MQLib: offset - objective; OpenJij: its BQM energies; MIP: objective 0
        if solver in ("qbsolv", "qbsolv-stdout", "MQLib", "OpenJij") or "reported_energy" in sample:
            assert sample["reported_energy"] == sample["energy"], (solver, sample["index"])
    text = answer_path.read_text()
    expected = independent_energy(solver, model_path, text)
    if expected is not None:
        assert best["energy"] == expected
    if solver not in ("qbsolv", "qbsolv-stdout", "MQLib", "OpenJij"):  # a MIP solver's answer is feasible: the solution
        assert best["valid"] and best["picture"] == solution_picture(model)
    return doc


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_committed_answer_decodes_unedited(name, models, run_cli):
    entry = MANIFEST[name]
    model_path = models(entry["model"], entry["given"])
    check_answer(run_cli, entry["solver"], entry["model"], model_path, ANSWERS / name)


@pytest.mark.parametrize("name", sorted(MANIFEST))
def test_committed_answer_format_is_detected(name):
    text = (ANSWERS / name).read_text()
    assert _detect(text, name).NAME == DETECTED[MANIFEST[name]["solver"]]


def test_every_route_has_committed_answers():
    for route in solver_runs.ROUTES:
        for model in route.models:
            assert solver_runs.answer_name(model, route) in MANIFEST


def test_committed_answers_cover_valid_and_invalid(run_cli, models):
    # qbsolv solved the 25x25 and MQLib (3 s) did not: both verdicts come from real files
    entry = MANIFEST["jwilk-data005.mqlib.txt"]
    status, out, _ = run_cli("decode", models("jwilk-data005", "mqlib"), ANSWERS / "jwilk-data005.mqlib.txt")
    assert status == 1 and "INVALID" in out
    objective = float((ANSWERS / "jwilk-data005.mqlib.txt").read_text().split(",")[3])
    assert f"best energy {int(372 - objective)}" in out and entry["solver"] == "MQLib"
    status, out, _ = run_cli("decode", models("jwilk-data005", "qbsolv"), ANSWERS / "jwilk-data005.qbsolv.txt")
    assert status == 0 and "VALID, energy 0" in out


#: routes whose live run took 7-30 s in a loaded suite run (SCIP through OMMX, qbsolv's 5 s search)
SLOW_ROUTES = {"SCIP-OMMX", "SCIP-OMMX-zeros", "qbsolv", "qbsolv-stdout"}
LIVE = [pytest.param(r.solver, m, marks=[pytest.mark.slow] if r.solver in SLOW_ROUTES else [])
        for r in solver_runs.ROUTES for m in r.models if m != "jwilk-data005"]


@pytest.mark.parametrize(("solver", "model"), LIVE)
def test_live_solver_answer_decodes(solver, model, models, run_cli, tmp_path, monkeypatch):
    route = ROUTES[solver]
    if not route.available():
        pytest.skip(f"{solver} is not installed")
    model_path = models(model, route.fmt)
    answer = tmp_path / solver_runs.answer_name(model, route)
    if solver == "MQLib":
        solver_runs.run_mqlib(model_path, answer, seconds=1)
    else:
        route.run(model_path, answer)
    check_answer(run_cli, solver, model, model_path, answer)


# -- MIP solution files: missing means 0, unknown is an error ------------------------------------
def test_mip_answers_leave_zeros_out(models, run_cli):
    lp = models("logo", "lp")
    listed = [ln for ln in (ANSWERS / "logo.scip.sol").read_text().splitlines()[1:] if ln.strip()]
    assert 0 < len(listed) < exports.load(str(models("logo", "qbsolv"))).num_vars  # SCIP omits the zeros
    status, _, _ = run_cli("decode", lp, ANSWERS / "logo.scip.sol")
    assert status == 0


@pytest.mark.parametrize(("name", "line"), [
    ("logo.scip.sol", "bogus_1_2    1 \t(obj:0)\n"),
    ("logo.gurobi.sol", "bogus_1_2 1\n"),
    ("logo.cbc.sol", "   999 bogus_1_2   1   0\n"),
])
def test_mip_answer_naming_an_unknown_variable_is_an_error(name, line, models, run_cli, tmp_path):
    bad = tmp_path / name
    bad.write_text((ANSWERS / name).read_text() + line)
    status, out, err = run_cli("decode", models("logo", "lp"), bad)
    assert status == 2 and out == ""
    assert "bogus" in err and str(bad) in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize(("name", "lineno"), [("logo.scip.sol", 5), ("logo.gurobi.sol", 5), ("logo.cbc.sol", 5)])
def test_mip_answer_with_a_broken_line_names_the_line(name, lineno, models, run_cli, tmp_path):
    lines = (ANSWERS / name).read_text().splitlines(keepends=True)
    lines[lineno - 1] = "this line is broken beyond repair x y z\n"
    bad = tmp_path / name
    bad.write_text("".join(lines))
    status, _, err = run_cli("decode", models("logo", "lp"), bad)
    assert status == 2 and f"{bad}:{lineno}:" in err and err.count("\n") == 1


def test_cbc_column_index_past_int64_is_one_line(models, run_cli, tmp_path):
    # found by the fuzzer (seed 11): a 30-digit column index ended in an OverflowError traceback
    lines = (ANSWERS / "logo.cbc.sol").read_text().splitlines(keepends=True)
    lines[3] = "   " + "9" * 30 + " " + lines[3].lstrip().partition(" ")[2]
    bad = tmp_path / "big.sol"
    bad.write_text("".join(lines))
    status, out, err = run_cli("decode", models("logo", "lp"), bad)
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: {bad}: a solution line does not start with a column index\n"


def test_scip_shell_solution_status_line_is_read(models, run_cli, tmp_path):
    # the SCIP shell's 'write solution' puts a status line before what writeBestSol writes
    answer = tmp_path / "shell.sol"
    answer.write_text("solution status: optimal solution found\n" + (ANSWERS / "logo.scip.sol").read_text())
    status, _, _ = run_cli("decode", models("logo", "lp"), answer)
    assert status == 0


def test_glpk_raw_write_file_is_refused_with_a_hint(models, run_cli, tmp_path):
    raw = tmp_path / "logo.glpk.raw"
    raw.write_text("c Problem:    \nc Rows:       823\nc Columns:    437\nc\ns mip 823 437 o 0\nj 1 1\ne o f\n")
    status, _, err = run_cli("decode", models("logo", "lp"), raw)
    assert status == 2 and "glpsol -o" in err


# -- qbsolv and MQLib forms --------------------------------------------------------------------
def test_qbsolv_old_form_and_verbose_output_read_the_last_answer(models, run_cli, tmp_path):
    new = (ANSWERS / "logo.qbsolv.txt").read_text().splitlines()
    header, bits = new[0], new[1]
    wrong = bits.replace("1", "x", 1).replace("0", "1", 1).replace("x", "0", 1)
    verbose = tmp_path / "verbose.txt"  # qbsolv -v1: every improvement, each after an options line
    verbose.write_text(f"{header}\n{wrong}\n-100.00000 Energy of solution\nchatter\n" + "\n".join(new) + "\n")
    old = tmp_path / "old.txt"  # qbsolv before 2017
    old.write_text(f"437 Number of bits in solution\n{bits}\n-120.00000 Energy of solution\n")
    for path in (verbose, old):
        status, out, _ = run_cli("decode", models("logo", "qbsolv"), path)
        assert status == 0, path


def test_mqlib_output_without_ps_says_to_add_it(models, run_cli, tmp_path):
    answer = tmp_path / "nops.txt"
    answer.write_text((ANSWERS / "logo.mqlib.txt").read_text().splitlines()[0] + "\n")
    status, _, err = run_cli("decode", models("logo", "mqlib"), answer)
    assert status == 2 and "-ps" in err and f"{answer}:1:" in err


# -- models presolved to nothing ---------------------------------------------------------------
def test_build_says_line_logic_solved_the_puzzle(run_cli, tmp_path):
    out = tmp_path / "logo.qubo"
    status, _, err = run_cli("build", solver_runs.PUZZLES / "qbpp-logo.json", "--presolve", "-q", "-o", out)
    assert status == 0 and "line logic solved the puzzle" in err and "no variables" in err


@pytest.mark.parametrize("fmt", ["qbsolv", "mqlib", "lp", "qplib", "qubo-json"])
def test_empty_model_decodes_without_samples(fmt, models, run_cli, tmp_path):
    model = models("logo-presolved", fmt)
    status, out, err = run_cli("decode", model)
    assert status == 0 and "VALID, energy 0" in out and err == ""
    assert "\n".join(solution_picture("logo")) in out
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    status, out, _ = run_cli("decode", model, empty)
    assert status == 0 and "VALID" in out


def test_empty_model_decodes_an_empty_sampleset(models):
    import dimod

    from nonoqubo.answers.decode import decode

    model = exports.load(str(models("logo-presolved", "bqm")))
    sampleset = dimod.ExactSolver().sample(dimod.BinaryQuadraticModel("BINARY"))  # no samples at all
    assert len(sampleset) == 0
    assert [r.valid for r in decode(model, sampleset)] == [True]


def test_model_with_variables_still_needs_samples(models, run_cli):
    status, _, err = run_cli("decode", models("logo", "qbsolv"))
    assert status == 2 and "437 variables" in err and err.count("\n") == 1


# -- QPLIB: what its real readers read ---------------------------------------------------------
@pytest.mark.parametrize("model", sorted(solver_runs.MODELS))
def test_pyqplib_reads_every_qplib_and_its_energy_matches(model, models):
    pyqplib = pytest.importorskip("pyqplib")
    path = models(model, "qplib")
    qubo = exports.load(str(path))
    problem = pyqplib.read_problem(str(path))
    assert problem.description.num_vars == qubo.num_vars
    x = np.random.default_rng(1).integers(0, 2, (4, qubo.num_vars))
    got = [problem.obj_val(xi.astype(float)) for xi in x]
    assert np.allclose(got, qubo.energy(x))


def test_ommx_reads_the_qplib_with_the_same_energy(models):
    ommx = pytest.importorskip("ommx.v1")
    path = models("logo", "qplib")
    qubo = exports.load(str(path))
    instance = ommx.Instance.load_qplib(str(path))
    ids = [v.id for v in instance.decision_variables]
    x = np.random.default_rng(2).integers(0, 2, (2, qubo.num_vars))
    got = [instance.objective.evaluate({i: float(xi[k]) for k, i in enumerate(ids)}) for xi in x]
    assert np.allclose(got, qubo.energy(x))


def test_qplib_is_written_as_qplib_types_its_unconstrained_binary_instances(models):
    lines = models("logo", "qplib").read_text().splitlines()
    assert lines[1] == "QBN"  # QPLIB_3506, 3565, 3642 ... are classified QBN on the QPLIB site
    assert lines[-2:] == ["0 # number of non-default variable names", "0 # number of non-default constraint names"]


def test_qplib_files_of_earlier_versions_still_read_as_meant():
    # earlier nonoqubo versions listed the names and wrote each pair's coefficient undoubled
    from nonoqubo.exports import qplib
    from nonoqubo.model.qubo import Qubo

    q = Qubo.from_terms(["a", "b", "c"], [-1, 1, 0], [(0, 1, 2), (1, 2, -3)], offset=4)
    new = qplib.dumps(q)
    old = (new.replace("2 1 4\n3 2 -6\n", "2 1 2\n3 2 -3\n").replace('"labels":"layout"', '"labels":"listed"')
           .replace('"labels":["a","b","c"]', '"labels":"listed"')
           .replace("0 # number of non-default variable names", "3 # number of non-default variable names\n1 a\n2 b\n3 c"))
    assert old != new and "1 a\n" in old
    assert qplib.loads(old) == q == qplib.loads(new)
