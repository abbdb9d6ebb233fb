"""Regenerate the solver answer files in this folder by running the REAL solvers.

Usage, from the repository root::

    python tests/data/answers/regenerate.py [--build-clients PATH/TO/build.sh] [--only SOLVER ...]

Every answer file here was written by a real program on a model nonoqubo
exported (the routes are in ``tests/support/solver_runs.py``; the models are the
QUBO++ logo, the logo presolved to nothing, Gecode's 9x9 heart, and the 25x25
``tests/data/puzzles/json/jwilk-data005.json``):

=========  ===================  =============================================
solver     given                answer file
=========  ===================  =============================================
qbsolv     MODEL.qubo           MODEL.qbsolv.txt   (qbsolv -i -o, seed 1)
qbsolv     MODEL.qubo           MODEL.qbsolv-stdout.txt (no -o, -v1: its standard output)
MQLib      MODEL.mqlib          MODEL.mqlib.txt    (-h GLOVER2010 -r 3 -ps -s 1)
SCIP       MODEL.lp             MODEL.scip.sol     (pyscipopt writeBestSol)
CBC        MODEL.lp             MODEL.cbc.sol      (pulp's cbc: solve solu)
Gurobi     MODEL.lp             MODEL.gurobi.sol   (gurobipy, pip licence)
Gurobi     MODEL.lp             MODEL.gurobi.json  (gurobipy write, JSONSolDetail 0)
Gurobi     MODEL.lp             MODEL.gurobi-detail.json (JSONSolDetail 1: every variable, the pool)
HiGHS      MODEL.lp             MODEL.highs.sol    (highspy writeSolution, raw)
HiGHS      MODEL.ommx (ILP)     MODEL.highs-ommx.sol (OMMXHighsAdapter, writeSolution raw: c0, c1, ...)
SCIP       MODEL.ommx (QUBO)    MODEL.scip-ommx.sol (OMMXPySCIPOptAdapter, writeBestSol: OMMX ids)
SCIP       MODEL.ommx (QUBO)    MODEL.scip-ommx-zeros.sol (the same, write_zeros: the auxiliary column)
mapper     MODEL.ommx (QUBO)    MODEL.opt-mapper.json (ommx-qiskit-opt-mapper-adapter, GurobiSolver: y_0_0_0)
qiskit     MODEL.ommx (QUBO)    MODEL.qiskit-optimization.json (QuadraticProgram via docplex, GurobiOptimizer)
Amplify    MODEL.lp             MODEL.amplify-gurobi.sol (amplify load_lp/save_lp, then gurobipy: a '0' variable)
GLPK       MODEL.lp             MODEL.glpk.txt     (glpsol -o)
OpenJij    MODEL.bqm            MODEL.openjij.json (SASampler, to_serializable)
MiniZinc   MODEL.mzn            MODEL.minizinc.txt (minizinc --solver gecode: its output, unedited)
MiniZinc   MODEL.mzn            MODEL.minizinc.json (the same with --output-mode json)
MiniZinc   MODEL.mzn            MODEL.minizinc-dzn.txt (--output-mode dzn -s --output-time)
MiniZinc   MODEL.mzn            MODEL.minizinc-stream.jsonl (--json-stream -s --output-time)
=========  ===================  =============================================

qbsolv and MQLib are found through ``NONOQUBO_QBSOLV`` / ``NONOQUBO_MQLIB``
or ``PATH``; ``--build-clients SCRIPT`` (or ``NONOQUBO_CLIENTS_BUILD``) first
builds both from source with the project's ``clients/build.sh`` into a
temporary folder.  A solver that is not installed is skipped (its old files
stay).  ``MANIFEST.json`` records, for every file, the solver, the model and
the command; the tests decode every file it lists, unedited.  Models with no
variables are not given to qbsolv (it crashes), MQLib (it stops: "Illegal
dimension: 0") or GLPK (glpsol refuses an LP with no variables).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))  # the repository root: its nonoqubo and tests packages

from tests.support import solver_runs  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--build-clients", metavar="BUILD_SH", default=os.environ.get("NONOQUBO_CLIENTS_BUILD"),
                        help="the project's clients/build.sh: build qbsolv and MQLib from source first")
    parser.add_argument("--only", nargs="*", metavar="SOLVER", help="regenerate only these solvers' files")
    args = parser.parse_args()
    manifest_path = HERE / "MANIFEST.json"
    manifest = json.loads(manifest_path.read_text()) if manifest_path.exists() else {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        if args.build_clients:
            subprocess.run(["bash", args.build_clients, str(work / "clients")], check=True)
            os.environ["NONOQUBO_QBSOLV"] = str(work / "clients" / "qbsolv")
            os.environ["NONOQUBO_MQLIB"] = str(work / "clients" / "MQLib")
        for route in solver_runs.ROUTES:
            if args.only and route.solver.lower() not in {s.lower() for s in args.only}:
                continue
            if not route.available():
                print(f"skipped {route.solver}: not installed", file=sys.stderr)
                continue
            for model in route.models:
                given = solver_runs.write_model(model, route.fmt, work)
                name = solver_runs.answer_name(model, route)
                route.run(given, HERE / name)
                manifest[name] = {"solver": route.solver, "model": model, "given": route.fmt,
                                  "command": route.command}
                print(f"wrote {name} ({route.solver} on {given.name})", file=sys.stderr)
    manifest_path.write_text(json.dumps(dict(sorted(manifest.items())), indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
