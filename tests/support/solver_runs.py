"""Real solvers run on nonoqubo's files: the routes of the README's solver table, as code.

Each :data:`ROUTES` entry says which file a solver is given (a nonoqubo export
format), how the real program is run on it, and what answer file it writes.
Both ``tests/data/answers/regenerate.py`` (which writes the committed answer
files) and ``tests/test_solver_answers.py`` (which runs the installed solvers
live) use them, so the fixtures and the live runs are made the same way.

Programs: qbsolv and MQLib are binaries, found through ``NONOQUBO_QBSOLV`` /
``NONOQUBO_MQLIB`` or on ``PATH`` (build them with the project's
``clients/build.sh DEST``); SCIP through ``pyscipopt``, CBC through the binary
``pulp`` ships, Gurobi through ``gurobipy`` (its pip licence solves models up
to 2,000 variables and constraints), HiGHS through ``highspy``, GLPK through
``glpsol`` on ``PATH``, OpenJij through ``openjij``, MiniZinc with Gecode through ``minizinc``
and ``fzn-gecode`` on ``PATH`` (Debian's ``minizinc`` and ``flatzinc``).  :func:`available` says
whether a route's program is there.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.clues import spec

PUZZLES = Path(__file__).resolve().parents[1] / "data" / "puzzles" / "json"


# -- the models ---------------------------------------------------------------------------------
#: fixture models: name -> (puzzle file stem, presolve?)
MODELS = {
    "logo": ("qbpp-logo", False),
    "logo-presolved": ("qbpp-logo", True),
    "jwilk-data005": ("jwilk-data005", False),
    "heart": ("gecode-heart", False),  # 126 variables: SCIP solves its QUBO (through OMMX) in seconds
}


def write_model(model: str, fmt: str, directory: Path) -> Path:
    """Build fixture *model* and write it in export format *fmt* into *directory*; returns the path."""
    stem, presolve = MODELS[model]
    doc = json.loads((PUZZLES / f"{stem}.json").read_text())
    puzzle = spec.from_dict(doc, source=stem)
    qubo = build(puzzle)
    if presolve:
        from nonoqubo.logic.presolve import presolve_qubo

        qubo = presolve_qubo(puzzle, qubo)
    mod = exports.get_format(fmt)
    value = qubo
    if getattr(mod, "KIND", "qubo") == "constrained":
        from nonoqubo.model.constrained import build_constrained

        value = build_constrained(puzzle, fixed=dict(qubo.fixed) if presolve else None)
    kind = ".constrained" if mod.NAME.endswith("-constrained") else ""  # ommx and ommx-constrained share .ommx
    path = directory / f"{model}{kind}{'.' + mod.EXTENSIONS[0] if mod.EXTENSIONS else ''}"
    with exports.open_target(str(path), binary=bool(mod.BINARY)) as fh:
        exports.write(value, fh, mod)
    return path


# -- the programs -------------------------------------------------------------------------------
def binary(name: str) -> str | None:
    """The path of qbsolv / MQLib: ``NONOQUBO_<NAME>``, else ``PATH``."""
    path = os.environ.get(f"NONOQUBO_{name.upper()}")
    if path:
        return path if os.access(path, os.X_OK) else None
    return shutil.which(name)


def cbc_path() -> str | None:
    """The CBC binary pulp ships (or None)."""
    if importlib.util.find_spec("pulp") is None:
        return None
    import warnings

    import pulp

    with warnings.catch_warnings():  # PULP_CBC_CMD is deprecated for PuLP 4; its binary is what we want
        warnings.simplefilter("ignore", DeprecationWarning)
        path = pulp.apis.PULP_CBC_CMD().path
    return path if path and os.access(path, os.X_OK) else None


def run_qbsolv(model: Path, out: Path) -> None:
    subprocess.run([binary("qbsolv"), "-i", str(model), "-o", str(out.resolve()), "-r", "1"], check=True,
                   capture_output=True, timeout=600)


def run_qbsolv_stdout(model: Path, out: Path) -> None:
    """qbsolv with no -o and -v1: the answer on standard output, after every improvement it found."""
    done = subprocess.run([binary("qbsolv"), "-i", str(model), "-v1", "-r", "1"], check=True,
                          capture_output=True, text=True, timeout=600)
    out.write_text(done.stdout)


def run_mqlib(model: Path, out: Path, seconds: float = 3) -> None:
    done = subprocess.run([binary("mqlib"), "-fQ", model.name, "-h", "GLOVER2010", "-r", str(seconds), "-ps",
                           "-s", "1"], check=True, capture_output=True, text=True, timeout=600, cwd=model.parent)
    out.write_text(done.stdout)


def run_scip(model: Path, out: Path) -> None:
    import pyscipopt

    m = pyscipopt.Model()
    m.hideOutput()
    m.readProblem(str(model))
    m.optimize()
    m.writeBestSol(str(out))


def run_cbc(model: Path, out: Path) -> None:
    subprocess.run([cbc_path(), str(model), "solve", "solu", str(out)], check=True, capture_output=True,
                   timeout=600)


def run_gurobi(model: Path, out: Path) -> None:
    import gurobipy

    with contextlib.redirect_stdout(io.StringIO()):
        env = gurobipy.Env(empty=True)
        env.setParam("OutputFlag", 0)
        env.start()
        m = gurobipy.read(str(model), env=env)
        m.optimize()
        m.write(str(out))
        m.dispose()
        env.dispose()


def run_gurobi_json(model: Path, out: Path, detail: int = 0) -> None:
    """Gurobi's JSON solution: ``JSONSolDetail`` 0 lists the nonzero variables, 1 every one with its pool values."""
    import gurobipy

    with contextlib.redirect_stdout(io.StringIO()):
        env = gurobipy.Env(empty=True)
        env.setParam("OutputFlag", 0)
        env.start()
        m = gurobipy.read(str(model), env=env)
        m.setParam("JSONSolDetail", detail)
        m.optimize()
        m.write(str(out))
        m.dispose()
        env.dispose()


def run_highs(model: Path, out: Path) -> None:
    import highspy

    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.readModel(str(model))
    h.run()
    h.writeSolution(str(out), 0)


def _ommx_instance(model: Path):
    from ommx.artifact import Artifact

    return Artifact.load_archive(str(model)).instance


def run_highs_ommx(model: Path, out: Path) -> None:
    """The OMMX HiGHS adapter hands HiGHS the model without names: its solution names columns c0, c1, ..."""
    from ommx_highs_adapter import OMMXHighsAdapter

    highs = OMMXHighsAdapter(_ommx_instance(model)).solver_input
    highs.setOptionValue("output_flag", False)
    highs.run()
    highs.writeSolution(str(out), 0)


def run_scip_ommx(model: Path, out: Path, zeros: bool = False) -> None:
    """The OMMX SCIP adapter names variables by OMMX id and adds a column for the quadratic objective."""
    from ommx_pyscipopt_adapter import OMMXPySCIPOptAdapter

    scip = OMMXPySCIPOptAdapter(_ommx_instance(model)).solver_input
    scip.hideOutput()
    scip.optimize()
    scip.writeBestSol(str(out), write_zeros=zeros)


def run_opt_mapper(model: Path, out: Path) -> None:
    """ommx-qiskit-opt-mapper-adapter's problem (names ``y_0_0_0``), solved by the addon's Gurobi solver."""
    import ommx_qiskit_opt_mapper_adapter as adapter
    from qiskit_addon_opt_mapper.solvers import GurobiSolver

    problem = adapter.from_ommx(_ommx_instance(model))
    with contextlib.redirect_stdout(io.StringIO()):
        result = GurobiSolver().solve(problem)
    out.write_text(json.dumps(result.variables_dict) + "\n")


def run_qiskit_optimization(model: Path, out: Path) -> None:
    """The same problem as a qiskit-optimization QuadraticProgram (through docplex), its GurobiOptimizer."""
    import ommx_qiskit_opt_mapper_adapter as adapter
    from qiskit_addon_opt_mapper.translators import to_docplex_mp
    from qiskit_optimization.algorithms import GurobiOptimizer
    from qiskit_optimization.translators import from_docplex_mp

    program = from_docplex_mp(to_docplex_mp(adapter.from_ommx(_ommx_instance(model))))
    with contextlib.redirect_stdout(io.StringIO()):
        result = GurobiOptimizer().solve(program)
    out.write_text(json.dumps(result.variables_dict) + "\n")


def run_amplify_gurobi(model: Path, out: Path) -> None:
    """Amplify's LP round trip (load_lp, save_lp: the objective becomes a bare ``0``), solved by Gurobi."""
    import amplify

    amplified = model.with_name(model.stem + ".amplify.lp")
    amplify.save_lp(amplify.load_lp(str(model))[0], str(amplified))
    run_gurobi(amplified, out)


def run_glpk(model: Path, out: Path) -> None:
    subprocess.run(["glpsol", "--lp", str(model), "-o", str(out)], check=True, capture_output=True, timeout=600)


def run_openjij(model: Path, out: Path) -> None:
    import dimod
    import openjij

    with open(model, "rb") as fh:
        bqm = dimod.BinaryQuadraticModel.from_file(fh)
    response = openjij.SASampler().sample(bqm, num_reads=2, seed=1)
    out.write_text(json.dumps(response.to_serializable()))


def run_minizinc(model: Path, out: Path, *mode: str) -> None:
    """``minizinc --solver gecode model.mzn`` (Debian's minizinc and flatzinc), its standard output unedited."""
    proc = subprocess.run(["minizinc", "--solver", "gecode", *mode, str(model)], capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        raise RuntimeError(f"minizinc failed: {proc.stderr.strip()[-300:]}")
    out.write_text(proc.stdout)


def run_minizinc_json(model: Path, out: Path) -> None:
    run_minizinc(model, out, "--output-mode", "json")


def run_minizinc_dzn(model: Path, out: Path) -> None:
    run_minizinc(model, out, "--output-mode", "dzn", "--statistics", "--output-time")


def run_minizinc_stream(model: Path, out: Path) -> None:
    run_minizinc(model, out, "--json-stream", "--statistics", "--output-time")


def minizinc_available() -> bool:
    """minizinc on PATH and it finds Gecode (``fzn-gecode``)."""
    if shutil.which("minizinc") is None or shutil.which("fzn-gecode") is None:
        return False
    proc = subprocess.run(["minizinc", "--solvers"], capture_output=True, text=True)
    return "org.gecode.gecode" in proc.stdout


@dataclass(frozen=True)
class Route:
    """A solver: the nonoqubo file it is given, how it runs, the answer file it writes."""

    solver: str
    fmt: str  # nonoqubo export format of the file the solver is given
    suffix: str  # the answer file's name ends with this
    run: Callable[[Path, Path], None]
    available: Callable[[], bool]
    command: str  # the command line, as the README shows it
    models: tuple[str, ...]  # the fixture models it answers (0-variable models crash qbsolv and MQLib)


def _module(name: str) -> Callable[[], bool]:
    return lambda: importlib.util.find_spec(name) is not None


ROUTES = (
    Route("qbsolv", "qbsolv", "qbsolv.txt", run_qbsolv, lambda: binary("qbsolv") is not None,
          "qbsolv -i m.qubo -o answer.txt", ("logo", "jwilk-data005")),
    Route("qbsolv-stdout", "qbsolv", "qbsolv-stdout.txt", run_qbsolv_stdout, lambda: binary("qbsolv") is not None,
          "qbsolv -i m.qubo -v1 > answer.txt", ("logo",)),
    Route("MQLib", "mqlib", "mqlib.txt", run_mqlib, lambda: binary("mqlib") is not None,
          "MQLib -fQ m.mqlib -h GLOVER2010 -r 5 -ps > answer.txt", ("logo", "jwilk-data005")),
    Route("SCIP", "lp", "scip.sol", run_scip, _module("pyscipopt"),
          "scip -c 'read m.lp optimize write solution answer.sol quit'",
          ("logo", "logo-presolved", "jwilk-data005")),
    Route("CBC", "lp", "cbc.sol", run_cbc, lambda: cbc_path() is not None,
          "cbc m.lp solve solu answer.sol", ("logo", "logo-presolved", "jwilk-data005")),
    Route("Gurobi", "lp", "gurobi.sol", run_gurobi, _module("gurobipy"),
          "gurobi_cl ResultFile=answer.sol m.lp", ("logo", "logo-presolved")),
    Route("Gurobi-JSON", "lp", "gurobi.json", run_gurobi_json, _module("gurobipy"),
          "gurobi_cl ResultFile=answer.json m.lp", ("logo", "logo-presolved")),
    Route("Gurobi-JSON-detail", "lp", "gurobi-detail.json", lambda m, o: run_gurobi_json(m, o, 1),
          _module("gurobipy"), "gurobi_cl JSONSolDetail=1 ResultFile=answer.json m.lp", ("logo",)),
    Route("HiGHS", "lp", "highs.sol", run_highs, _module("highspy"),
          "highs m.lp --solution_file answer.sol", ("logo", "logo-presolved", "jwilk-data005")),
    Route("HiGHS-OMMX", "ommx-constrained", "highs-ommx.sol", run_highs_ommx, _module("ommx_highs_adapter"),
          "OMMXHighsAdapter(instance).solver_input: run(), writeSolution('answer.sol', 0)", ("logo",)),
    Route("SCIP-OMMX", "ommx", "scip-ommx.sol", run_scip_ommx, _module("ommx_pyscipopt_adapter"),
          "OMMXPySCIPOptAdapter(instance).solver_input: optimize(), writeBestSol('answer.sol')", ("heart",)),
    Route("SCIP-OMMX-zeros", "ommx", "scip-ommx-zeros.sol", lambda m, o: run_scip_ommx(m, o, zeros=True),
          _module("ommx_pyscipopt_adapter"),
          "OMMXPySCIPOptAdapter(instance).solver_input: optimize(), writeBestSol('answer.sol', write_zeros=True)",
          ("heart",)),
    Route("opt-mapper", "ommx", "opt-mapper.json", run_opt_mapper, _module("ommx_qiskit_opt_mapper_adapter"),
          "from_ommx(instance), GurobiSolver().solve(problem).variables_dict -> answer.json", ("heart",)),
    Route("qiskit-optimization", "ommx", "qiskit-optimization.json", run_qiskit_optimization,
          lambda: _module("qiskit_optimization")() and _module("ommx_qiskit_opt_mapper_adapter")(),
          "from_docplex_mp(to_docplex_mp(from_ommx(instance))), GurobiOptimizer().solve(qp).variables_dict "
          "-> answer.json", ("heart",)),
    Route("Amplify-Gurobi", "lp", "amplify-gurobi.sol", run_amplify_gurobi, _module("amplify"),
          "amplify.save_lp(amplify.load_lp('m.lp')[0], 'a.lp'); gurobi_cl ResultFile=answer.sol a.lp", ("logo",)),
    Route("GLPK", "lp", "glpk.txt", run_glpk, lambda: shutil.which("glpsol") is not None,
          "glpsol --lp m.lp -o answer.txt", ("logo",)),
    Route("OpenJij", "bqm", "openjij.json", run_openjij, _module("openjij"),
          "SASampler().sample(BQM.from_file(m.bqm)).to_serializable() -> answer.json", ("logo",)),
    Route("MiniZinc", "minizinc", "minizinc.txt", run_minizinc, minizinc_available,
          "minizinc --solver gecode m.mzn > answer.txt", ("logo", "logo-presolved", "jwilk-data005")),
    Route("MiniZinc-json", "minizinc", "minizinc.json", run_minizinc_json, minizinc_available,
          "minizinc --solver gecode --output-mode json m.mzn > answer.json", ("logo", "jwilk-data005")),
    Route("MiniZinc-dzn", "minizinc", "minizinc-dzn.txt", run_minizinc_dzn, minizinc_available,
          "minizinc --solver gecode --output-mode dzn -s --output-time m.mzn > answer.txt", ("logo",)),
    Route("MiniZinc-stream", "minizinc", "minizinc-stream.jsonl", run_minizinc_stream, minizinc_available,
          "minizinc --solver gecode --json-stream -s --output-time m.mzn > answer.jsonl", ("logo", "jwilk-data005")),
)


def answer_name(model: str, route: Route) -> str:
    """The committed answer file of *route* on fixture *model*."""
    return f"{model}.{route.suffix}"
