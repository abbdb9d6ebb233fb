"""``nonoqubo build``: build the QUBO of a puzzle and write it in one or more file formats.

The command owns the arguments, the plan of outputs (checked before anything is built) and
the messages; building, presolving and writing are :mod:`nonoqubo.pipeline`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from .. import exports
from .._util.progress import spinner
from ..errors import NonoquboError, UnsupportedFormat
from ..model.estimate import LONG_WORK_TERMS, check_fits
from ..pipeline import Models, kind_of, write_files
from ._common import (add_encoding_arguments, add_force_argument, add_puzzle_arguments, check_output_folder,
                      encoding_options, load_puzzle, no_solution_names, progress_enabled)

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
    parser.set_defaults(run=run)
    return parser


def _plan(args: argparse.Namespace) -> list[tuple[str, Any]]:
    """(output, format module) pairs, checked before anything is built."""
    outs: list[str] = args.output
    fmts: list[str] = args.format or []
    args.model_options = encoding_options(args)
    if args.constrained and (args.model_options["encoding"] != "domain-wall" or args.weights is not None):
        raise NonoquboError("--constrained writes the domain-wall 0-1 program (no penalties to weigh); "
                            "it takes neither --encoding one-hot nor --weights")
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


def run(args: argparse.Namespace) -> int:
    plan = _plan(args)
    show = progress_enabled(args)
    say = (lambda msg: None) if args.quiet else (lambda msg: print(msg, file=sys.stderr))
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
    how = "" if before.encoding == "domain-wall" and before.weights.is_default else \
        f" ({before.encoding}, weights {before.weights})"
    say(f"built{title} {puzzle.width}x{puzzle.height}{how}: {before.num_vars} variables, {before.num_terms} terms "
        f"({before.num_linear} linear + {before.num_quadratic} quadratic), offset {before.offset} "
        f"in {models.build_seconds:.2f} s")
    if args.presolve:
        say(f"presolved: {before.num_vars} -> {qubo.num_vars} variables, {before.num_terms} -> {qubo.num_terms} terms, "
            f"{len(qubo.fixed)} fixed, offset {qubo.offset}")
    if qubo.num_vars == 0:  # a warning, shown even with -q: these files crash qbsolv and stop MQLib
        print(empty_model_note(args.output), file=sys.stderr)
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
