"""``nonoqubo build``: build the QUBO of a puzzle and write it in one or more file formats.

The command owns the arguments, the plan of outputs (checked before anything is built) and
the messages; building, presolving and writing are :mod:`nonoqubo.pipeline`'s.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from typing import Any

from .. import exports
from .._util.progress import spinner
from ..answers.decode import load_model, names_a_model
from ..errors import NonoquboError, UnsupportedFormat
from ..model.encodings import DEFAULT, encodings
from ..model.estimate import LONG_WORK_TERMS, check_fits
from ..model.qubo import Qubo
from ..pipeline import Models, kind_of, write_files
from ..qpu.physical import (DEFAULT_PRECISION, build_physical, check_not_physical, parse_chain_strength, parse_range, physical_format,
                            write_physical)
from ._common import (add_chain_strength_argument, add_encoding_arguments, add_force_argument, add_puzzle_arguments,
                      check_output_folder, encoding_options, load_puzzle, no_solution_names, progress_enabled)

ORDER = 20

HELP = "build the QUBO of PUZZLE and write it as a file (qbsolv, COO, dimod BQM, QPLIB, ...)"
DESCRIPTION = """\
Build the expanded domain-wall QUBO of PUZZLE and write it to OUT, in the
format named by OUT's extension or by -f (see 'nonoqubo formats').  Give -o
several times to write several formats from one build; '-o -' writes to
standard output (name the format with -f).  Every file carries the clues, the
labels (or the rule that gives them), the counts and the offset, so a
solver's samples can be decoded from the file alone.  Files are written
atomically: a failed run leaves no file behind.

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
    parser.add_argument("-o", "--output", action="append", required=True, metavar="OUT",
                        help="file to write ('-' for standard output); repeat for several formats")
    parser.add_argument("-f", "--format", action="append", metavar="FORMAT",
                        help="output format (default: from OUT's extension); once for all outputs or once per -o")
    parser.add_argument("--ising", action="store_true",
                        help="write the Ising form (h, J, offset; s = 2x - 1) in formats that can carry it")
    parser.add_argument("--presolve", action="store_true",
                        help="fix the variables line logic decides before writing (recorded in the file)")
    parser.add_argument("--constrained", action="store_true",
                        help="write the constrained 0-1 model (formats of kind 'constrained': cqm, lp, mps, ommx)")
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress bars and no summary")
    add_encoding_arguments(parser)
    add_force_argument(parser)
    qpu = parser.add_argument_group("the physical problem (--embedding)")
    qpu.add_argument("--embedding", metavar="EMB.json",
                     help="write the problem on qubits through this embedding ('nonoqubo embed'), as .bqm or .json")
    add_chain_strength_argument(qpu)
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


def _plan(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """(output, format module) pairs, checked before anything is built."""
    outs: list[str] = args.output
    fmts: list[str] = args.format or []
    encoding = args.model_options["encoding"]
    if args.constrained and not encoding.constrained:
        has = ", ".join(e.name for e in encodings() if e.constrained)
        raise NonoquboError(f"--constrained writes a 0-1 program, which the {encoding.name} encoding has none of "
                            f"(encodings with one: {has}); leave out --encoding {encoding.name}")
    if args.constrained and args.weights is not None:
        raise NonoquboError("--constrained writes a 0-1 program (no penalties to weigh); it takes no --weights")
    if fmts and len(fmts) not in (1, len(outs)):
        raise NonoquboError(f"-f was given {len(fmts)} times for {len(outs)} outputs; give it once, or once per -o")
    plan = []
    for k, out in enumerate(outs):
        name = fmts[k] if len(fmts) > 1 else (fmts[0] if fmts else None)
        if name:
            mod = exports.get_format(name)
        elif out == "-":
            raise UnsupportedFormat("'-o -' needs a format: add -f FORMAT (see 'nonoqubo formats')")
        else:
            mod = exports.format_for_path(out, "constrained" if args.constrained else None)
        if args.ising and not getattr(mod, "ISING", False):
            able = ", ".join(m.NAME for m in exports.formats() if getattr(m, "ISING", False))
            raise UnsupportedFormat(f"{out}: the {mod.NAME} format cannot carry an Ising model; --ising works with: {able}")
        if args.constrained and kind_of(mod) != "constrained":
            able = ", ".join(m.NAME for m in exports.formats("constrained")) or "none installed"
            raise NonoquboError(f"{out}: --constrained writes the constrained model, which the {mod.NAME} format "
                                f"(a QUBO format) cannot hold; constrained formats: {able}")
        plan.append((out, mod))
    for out in outs:
        check_output_folder(out, args.puzzle)
    if outs.count("-") > 1:
        raise NonoquboError("standard output is named twice (-o -): it can take one model")
    if len({os.path.abspath(o) for o, _ in plan if o != "-"}) < sum(1 for o, _ in plan if o != "-"):
        raise NonoquboError("the same output file is named twice")
    return plan


def empty_model_note(outputs: list[str]) -> str:
    """What to say when the model has no variables left (line logic solved the puzzle)."""
    target = next((o for o in outputs if o != "-"), "MODEL")
    return (f"note: line logic solved the puzzle: the model has no variables left, so there is nothing "
            f"for a solver to do (qbsolv crashes and MQLib stops on a 0-variable file); see the picture "
            f"with: nonoqubo decode {target}")


def _physical_plan(args: argparse.Namespace) -> list[tuple[str, str]]:
    """(output, "bqm" | "json") pairs of a build with --embedding, checked before anything is built."""
    if args.embedding is None:
        given = [flag for flag, value in (("--chain-strength", args.chain_strength), ("--h-range", args.h_range),
                                          ("--j-range", args.j_range), ("--precision", args.precision))
                 if value is not None]
        if given:
            raise NonoquboError(f"{given[0]} applies only with --embedding (the physical problem on qubits)")
        return []
    for flag, on in (("--ising", args.ising), ("--constrained", args.constrained)):
        if on:
            raise NonoquboError(f"{flag} does not apply with --embedding: the physical problem is an Ising "
                                "model on qubits (.bqm or .json)")
    fmts: list[str] = args.format or []
    if fmts and len(fmts) not in (1, len(args.output)):
        raise NonoquboError(f"-f was given {len(fmts)} times for {len(args.output)} outputs; give it once, or once per -o")
    plan = [(out, physical_format(out, fmts[k] if len(fmts) > 1 else (fmts[0] if fmts else None)))
            for k, out in enumerate(args.output)]
    parse_chain_strength(args.chain_strength or "uniform-torque")
    for flag, value in (("--h-range", args.h_range), ("--j-range", args.j_range)):
        if value is not None:
            parse_range(value, flag)
    if args.precision is not None and not (math.isfinite(args.precision) and args.precision >= 0):
        raise NonoquboError(f"--precision must be a number of at least 0, not {args.precision}")
    for out, _ in plan:
        check_output_folder(out, args.puzzle)
    if len({os.path.abspath(o) for o, _ in plan}) < len(plan):
        raise NonoquboError("the same output file is named twice")
    return plan


def run_physical(args: argparse.Namespace, plan: list[tuple[str, str]], qubo: Any, said: list[str]) -> None:
    """Embed *qubo* through --embedding and write the physical problem (the files of *plan*), then
    print the build's summary lines *said* and the physical problem's."""
    problem = build_physical(qubo, args.embedding, chain_strength=args.chain_strength or "uniform-torque",
                             h_range=args.h_range, j_range=args.j_range,
                             precision=DEFAULT_PRECISION if args.precision is None else args.precision)
    if problem.warning:  # shown even with -q: the file may not be worth sending
        print(problem.warning, file=sys.stderr)
    write_physical(problem, plan)
    if not args.quiet:
        for line in said:
            print(line, file=sys.stderr)
        print(problem.summary(), file=sys.stderr)
        for out, fmt in plan:
            size = f", {os.path.getsize(out):,} bytes" if out != "-" else ""
            print(f"wrote {'standard output' if out == '-' else out} (physical problem, {fmt}{size})", file=sys.stderr)


def run_physical_of_model(args: argparse.Namespace, physical: list[tuple[str, str]]) -> int:
    """``build MODEL_FILE --embedding``: the physical problem of a model file nonoqubo wrote (a
    suite's model, with its encoding, weights and fixings), as it is."""
    if args.encoding is not None or args.weights is not None or args.presolve:
        raise NonoquboError(f"{args.puzzle}: a model file is embedded as it is; --encoding, --weights and "
                            "--presolve apply to clue files")
    model = load_model(args.puzzle, force=args.force)
    if not isinstance(model, Qubo):
        raise NonoquboError(f"{args.puzzle}: a constrained model has no physical problem; give a QUBO file")
    said = [] if args.quiet else [f"read {args.puzzle}: {model.num_vars} variables, {model.num_terms} terms "
                                  f"({model.encoding}, weights {model.weights})"]
    run_physical(args, physical, model, said)
    return 0


def run(args: argparse.Namespace) -> int:
    args.model_options = encoding_options(args)  # checked first: a bad --weights is one line
    check_not_physical(args.puzzle, "build")
    physical = _physical_plan(args)
    if physical and args.puzzle != "-" and not args.from_format and names_a_model(args.puzzle):
        return run_physical_of_model(args, physical)
    plan = [] if physical else _plan(args)
    show = progress_enabled(args)
    said: list[str] = []  # with --embedding the summary waits for the embedding's checks: an error is one line
    say = (lambda msg: None) if args.quiet else \
        said.append if physical else (lambda msg: print(msg, file=sys.stderr))
    puzzle = load_puzzle(args)
    est = check_fits(puzzle, args.puzzle, force=args.force,
                     write_bytes_per_term=max((mod.WRITE_BYTES_PER_TERM for _, mod in plan), default=0),
                     encoding=args.model_options["encoding"])
    if est.terms > LONG_WORK_TERMS:
        say(f"estimate: {est}")
    with spinner("building QUBO", enabled=show):  # one vectorised call: no steps to count
        models = Models.build(puzzle, **args.model_options)
    before = qubo = models.qubo
    if args.presolve:  # before any summary: an unsolvable puzzle is one line of error, nothing else
        with spinner("presolving (line logic)", enabled=show), no_solution_names(args.puzzle):
            qubo = models.presolve()
    variant = "presolved" if args.presolve else "full"
    title = f" {puzzle.name!r}" if puzzle.name else ""
    how = "" if before.encoding is DEFAULT and before.weights.is_default else \
        f" ({before.encoding}, weights {before.weights})"
    say(f"built{title} {puzzle.width}x{puzzle.height}{how}: {before.num_vars} variables, {before.num_terms} terms "
        f"({before.num_linear} linear + {before.num_quadratic} quadratic), offset {before.offset} "
        f"in {models.build_seconds:.2f} s")
    if args.presolve:
        say(f"presolved: {before.num_vars} -> {qubo.num_vars} variables, {before.num_terms} -> {qubo.num_terms} terms, "
            f"{len(qubo.fixed)} fixed, offset {qubo.offset}")
    if qubo.num_vars == 0:  # a warning, shown even with -q: these files crash qbsolv and stop MQLib
        print(empty_model_note(args.output), file=sys.stderr)
    if physical:
        run_physical(args, physical, qubo, said)
        return 0
    if any(kind_of(mod) == "constrained" for _, mod in plan):
        with spinner("building the constrained model", enabled=show):
            model = models.constrained(variant)
        parts = ", ".join(f"{n} {kind}" for kind, n in model.counts().items())
        say(f"constrained model: {model.num_vars} variables, {model.num_constraints} constraints ({parts})")
    # every file renamed into place only when all are written; QUBO writers tick their own bar,
    # the constrained ones (HiGHS, dimod) get a spinner
    write_files(models, plan, variant=variant, ising=args.ising, progress=show,
                step=lambda message: spinner(message, enabled=show))
    for out, mod in plan:
        size = f", {os.path.getsize(out):,} bytes" if out != "-" else ""
        say(f"wrote {'standard output' if out == '-' else out} ({mod.NAME}{', Ising' if args.ising else ''}{size})")
    return 0
