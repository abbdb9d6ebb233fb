"""``nonoqubo build``: build the QUBO of a puzzle and write it in one or more file formats.

The command owns the arguments and the messages; the plan of outputs, every option checked once
before anything is read or built, is :class:`nonoqubo.pipeline.BuildPlan`, and building,
presolving and writing are :mod:`nonoqubo.pipeline`'s too.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._util.atomic import wrote
from .._util.progress import spinner
from ..errors import NonoquboError
from ..inputs import open_input
from ..model.encodings import DEFAULT
from ..model.estimate import LONG_WORK_TERMS, check_fits
from ..model.qubo import Qubo
from ..pipeline import BuildPlan, Models, write_files
from ..qpu.physical import build_physical, write_physical
from ._common import (add_encoding_arguments, add_force_argument, add_presolve_argument,
                      add_puzzle_arguments, load_puzzle, no_solution_names, probe_summary, progress_enabled)
from ._options import add

ORDER = 20

HELP = "build the QUBO of PUZZLE and write it as a file (qbsolv, COO, dimod BQM, QPLIB, ...)"
DESCRIPTION = """\
Build the expanded domain-wall QUBO of PUZZLE and write it to OUT, in the
format named by OUT's extension or by -f (see 'nonoqubo formats').  Give -o
several times to write several formats from one build; '-o -' writes to
standard output (name the format with -f).  Every file carries the clues, the
labels (or the rule that gives them), the counts and the offset, so a
solver's samples can be decoded from the file alone.  Files are written
atomically: a failed run leaves no file behind, and two -o that name one file
(by any spelling or link) are refused.  A model with no variables whose one
assignment has an energy that is not 0 proves that the puzzle has no
solution: build says so in one line, writes nothing and exits 1.

--encoding one-hot builds the one-hot model instead (one variable per
possible shift of every block) and --weights shape=A,order=B,cell=C weighs the
three penalty families; both are recorded in every file, so 'decode', 'info'
and 'evaluate' read them back.  --constrained writes the domain-wall 0-1
program only and refuses --encoding one-hot and --weights.

examples:
  nonoqubo build examples/qbpp-logo.yaml -o logo.qubo.json
  nonoqubo build logo.yaml --encoding one-hot --weights cell=2 -o logo.onehot.qubo
  nonoqubo build logo.yaml -o logo.bqm -o logo.qubo -o logo.qs
  nonoqubo build logo.yaml -o - -f coo --ising | head

the physical problem (on a QPU's qubits, through an embedding from 'nonoqubo embed'):
  nonoqubo build logo.yaml --embedding emb.json -o phys.bqm -o phys.json
  nonoqubo build suite/NAME.qubo.json --embedding emb.json -o phys.json   (a model file, as it is)
With --embedding the output is the logical Ising model embedded on the qubits:
each variable's bias spread over its chain, each coupling over the couplers
between two chains, the chain couplers set to -chain strength, and every
coefficient scaled by one factor into the hardware's ranges (auto_scale's
rule; send it with auto_scale=False).  .bqm is a dimod BQM file (SPIN,
labelled by qubit); .json is {"h": {qubit: bias}, "J": [[q1, q2, bias], ...],
"offset": ..., "nonoqubo": {...}}, what DWaveSampler().sample_ising(h, J)
takes.  Both record the chains, the scale factor, the chain strength before
and after scaling, the ranges and the model's hash.  With --presolve the
embedding must be for the presolved model.
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("build", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    add(parser, "output", "a model file ('-' for standard output); repeat for several formats", metavar="OUT",
        required=True, repeat=True)
    add(parser, "format", "default from OUT's extension; once for all outputs or once per -o")
    parser.add_argument("--ising", action="store_true",
                        help="write the Ising form (h, J, offset; s = 2x - 1) in formats that can carry it")
    add_presolve_argument(parser, "fix the variables the presolve decides before writing (recorded in the file)")
    parser.add_argument("--constrained", action="store_true",
                        help="write the constrained 0-1 model (formats of kind 'constrained': cqm, lp, mps, ommx)")
    add(parser, "quiet", "no progress bars and no summary")
    add_encoding_arguments(parser)
    add_force_argument(parser)
    qpu = parser.add_argument_group("the physical problem (--embedding)")
    add(qpu, "embedding", "write the problem on qubits through it, as .bqm or .json")
    add(qpu, "chain-strength")
    qpu.add_argument("--h-range", metavar="LO,HI", default=None,
                     help="the QPU's h range the biases are scaled into (default: the embedding's topology file's "
                          "h_range, else -4,4, an Advantage system's; e.g. --h-range -2,2)")
    qpu.add_argument("--j-range", metavar="LO,HI", default=None,
                     help="the QPU's J range the couplings are scaled into (default: the topology file's j_range, "
                          "else -1,1)")
    qpu.add_argument("--precision", type=float, default=None, metavar="P",
                     help="warn when the smallest logical coefficient after scaling is below P (default "
                          "0.02: the order of the integrated control errors of D-Wave's 'Error Sources for "
                          "Problem Representation', a few %% of the J range)")
    parser.set_defaults(run=run)
    return parser


def empty_model_note(outputs: list[str], method: str = "line") -> str:
    """What to say when the model has no variables left (line logic, or probing, solved the puzzle)."""
    target = next((o for o in outputs if o != "-"), "MODEL")
    return (f"note: {'probing' if method == 'probe' else 'line logic'} solved the puzzle: the model has no variables left, so there is nothing "
            f"for a solver to do (qbsolv crashes and MQLib stops on a 0-variable file); see the picture "
            f"with: nonoqubo decode {target}")


def make_plan(args: argparse.Namespace) -> BuildPlan:
    """The :class:`~nonoqubo.pipeline.BuildPlan` of the command line: every option checked once."""
    return BuildPlan.make(args.puzzle, args.output, args.format, from_format=args.from_format,
                          encoding=args.encoding, weights=args.weights, ising=args.ising,
                          presolve=args.presolve_method if args.presolve else False,
                          constrained=args.constrained, embedding=args.embedding, chain_strength=args.chain_strength,
                          h_range=args.h_range, j_range=args.j_range, precision=args.precision)


def run_physical(args: argparse.Namespace, plan: BuildPlan, qubo: Any, said: list[str]) -> None:
    """Embed *qubo* through the plan's embedding and write the physical problem (the plan's files), then
    print the build's summary lines *said* and the physical problem's."""
    assert plan.embedding is not None
    problem = build_physical(qubo, plan.embedding, chain_strength=plan.chain_strength,
                             h_range=plan.h_range, j_range=plan.j_range, precision=plan.precision,
                             outputs=[out for out, _ in plan.physical])
    if problem.warning:  # shown even with -q: the file may not be worth sending
        print(problem.warning, file=sys.stderr)
    write_physical(problem, list(plan.physical))
    if not args.quiet:
        for line in said:
            print(line, file=sys.stderr)
        print(problem.summary(), file=sys.stderr)
        for out, fmt in plan.physical:
            print(wrote(out, f"physical problem, {fmt}"), file=sys.stderr)


def run_physical_of_model(args: argparse.Namespace, plan: BuildPlan) -> int:
    """``build MODEL_FILE --embedding``: the physical problem of a model file nonoqubo wrote (a
    suite's model, with its encoding, weights and fixings), as it is."""
    model = open_input(plan.source, what="models", command="build", force=args.force)
    if not isinstance(model, Qubo):
        raise NonoquboError(f"{args.puzzle}: a constrained model has no physical problem; give a QUBO file")
    said = [] if args.quiet else [f"read {args.puzzle}: {model.num_vars} variables, {model.num_terms} terms "
                                  f"({model.encoding}, weights {model.weights})"]
    run_physical(args, plan, model, said)
    return 0


def run(args: argparse.Namespace) -> int:
    plan = make_plan(args)
    if plan.reads_model:
        return run_physical_of_model(args, plan)
    show = progress_enabled(args)
    said: list[str] = []  # with --embedding the summary waits for the embedding's checks: an error is one line
    say = (lambda msg: None) if args.quiet else \
        said.append if plan.physical else (lambda msg: print(msg, file=sys.stderr))
    puzzle = load_puzzle(args)
    est = check_fits(puzzle, args.puzzle, force=args.force, write_bytes_per_term=plan.write_bytes_per_term,
                     encoding=plan.encoding)
    if est.terms > LONG_WORK_TERMS:
        say(f"estimate: {est}")
    with spinner("building QUBO", enabled=show):  # one vectorised call: no steps to count
        models = Models.build(puzzle, encoding=plan.encoding, weights=plan.weights, presolve=plan.presolve_method)
    before = qubo = models.qubo
    if plan.presolve:  # before any summary: an unsolvable puzzle is one line of error, nothing else
        with spinner(f"presolving ({'probing' if plan.presolve_method == 'probe' else 'line logic'})",
                     enabled=show), no_solution_names(args.puzzle):
            qubo = models.presolve()
    title = f" {puzzle.name!r}" if puzzle.name else ""
    how = "" if before.encoding is DEFAULT and before.weights.is_default else \
        f" ({before.encoding}, weights {before.weights})"
    say(f"built{title} {puzzle.width}x{puzzle.height}{how}: {before.num_vars} variables, {before.num_terms} terms "
        f"({before.num_linear} linear + {before.num_quadratic} quadratic), offset {before.offset} "
        f"in {models.build_seconds:.2f} s")
    if plan.presolve:
        say(f"presolved: {before.num_vars} -> {qubo.num_vars} variables, {before.num_terms} -> {qubo.num_terms} terms, "
            f"{len(qubo.fixed)} fixed, offset {qubo.offset}")
        if models.probe is not None:
            say(probe_summary(models.probe, models.presolve_seconds))
    qubo.check_solvable(args.puzzle)  # no variables and an energy that is not 0: no solution, nothing written
    if qubo.num_vars == 0:  # a warning, shown even with -q: these files crash qbsolv and stop MQLib
        print(empty_model_note(args.output, plan.presolve_method), file=sys.stderr)
    if plan.physical:
        run_physical(args, plan, qubo, said)
        return 0
    if plan.has_constrained:
        with spinner("building the constrained model", enabled=show):
            model = models.constrained(plan.variant)
        parts = ", ".join(f"{n} {kind}" for kind, n in model.counts().items())
        say(f"constrained model: {model.num_vars} variables, {model.num_constraints} constraints ({parts})")
    # every file renamed into place only when all are written; QUBO writers tick their own bar,
    # the constrained ones (HiGHS, dimod) get a spinner
    write_files(models, list(plan.targets), variant=plan.variant, ising=plan.ising, progress=show,
                step=lambda message: spinner(message, enabled=show))
    for out, mod in plan.targets:
        say(wrote(out, f"{mod.NAME}{', Ising' if plan.ising else ''}"))
    return 0
