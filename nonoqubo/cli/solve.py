"""``nonoqubo solve``: build, sample locally, decode, show."""

from __future__ import annotations

import argparse

from ..solve import SAMPLERS, solve
from ._common import add_puzzle_arguments, load_puzzle
from .decode import add_image_argument, emit

ORDER = 70

HELP = "solve a puzzle locally (simulated annealing, tabu, exact, QUBO++) and show the picture"
DESCRIPTION = """\
Build the QUBO of PUZZLE, sample it with a local solver, decode the samples
and print the best picture with its verdict (as `decode` does).

samplers:
  sa     simulated annealing (dwave-samplers; the default)
  tabu   tabu search (dwave-samplers)
  exact  every assignment (dimod.ExactSolver); at most 24 variables
  qbpp   QUBO++ EasySolver (pyqbpp); at most 100 variables without a licence
  openjij-sa   OpenJij simulated annealing (--beta-min, --beta-max)
  openjij-sqa  OpenJij simulated quantum annealing (--beta, --gamma, --trotter)

exit status: 0 when the best sample solves the puzzle, 1 when it does not,
2 on bad input or a sampler that is missing or cannot take the model.

example:
  nonoqubo solve examples/qbpp-logo.yaml --sampler sa --reads 20 --seed 1
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("solve", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    parser.add_argument("--sampler", choices=SAMPLERS, default="sa", help="the local solver (default: sa)")
    parser.add_argument("--reads", type=int, default=10, metavar="N", help="number of samples (default: 10)")
    parser.add_argument("--seed", type=int, default=None, metavar="S", help="random seed, for repeatable runs")
    parser.add_argument("--sweeps", type=int, default=None, metavar="N",
                        help="annealing sweeps per read (sa, openjij-sa, openjij-sqa; default 1000)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="time per read (tabu) or per run (qbpp; default 1)")
    openjij = parser.add_argument_group("OpenJij schedules (openjij-sa, openjij-sqa)")
    openjij.add_argument("--beta-min", type=float, metavar="B", help="openjij-sa: first inverse temperature")
    openjij.add_argument("--beta-max", type=float, metavar="B", help="openjij-sa: last inverse temperature")
    openjij.add_argument("--beta", type=float, metavar="B", help="openjij-sqa: inverse temperature (default 5)")
    openjij.add_argument("--gamma", type=float, metavar="G",
                         help="openjij-sqa: initial transverse field, lowered to 0 (default 1)")
    openjij.add_argument("--trotter", type=int, metavar="N", help="openjij-sqa: Trotter slices (default 4)")
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON (schemas/report.schema.json)")
    add_image_argument(parser)
    parser.set_defaults(run=run)
    return parser


def openjij_options(args: argparse.Namespace) -> dict[str, object]:
    """The OpenJij schedule options given on the command line (checked by the sampler)."""
    return {k: getattr(args, k) for k in ("beta_min", "beta_max", "beta", "gamma", "trotter")
            if getattr(args, k) is not None}


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle(args)
    result = solve(puzzle, args.sampler, reads=args.reads, seed=args.seed,
                   sweeps=args.sweeps, time_limit=args.time_limit, options=openjij_options(args))
    summary = {
        "model": f"{args.sampler} sampler",
        "variables": result.qubo.num_vars,
        "fixed": 0,
        "num_samples": len(result.analysis),
        "num_valid": result.num_valid,
        "best_energy": int(result.analysis.energy.min()),
    }
    emit(puzzle, [result.best], summary, "best", as_json=args.json,
         source=f"{args.sampler} sampler", image=args.image, best=result.best)
    return 0 if result.best.valid else 1
