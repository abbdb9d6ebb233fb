"""``nonoqubo decode``: a solver's samples -> the picture, the verdict, and what is broken.

The command owns the arguments and the printing; the decode itself (opening the model, the
samples, the embedding, the chain-break method) is one call, :func:`nonoqubo.decoding.decode_samples`;
the report text (shared with ``solve``) is :func:`nonoqubo.cli._common.emit`'s.
"""

from __future__ import annotations

import argparse
import sys

from .._util.progress import spinner
from ..solvers.tournament import check_answers, is_answer_file, is_multi_puzzle
from ..decoding import decode_samples
from ..qpu.unembed import CHAIN_BREAK_METHODS
from ..samples import formats as sample_formats
from ._common import (add_encoding_arguments, add_force_argument, add_image_argument, add_presolve_argument,
                      chain_break_lines, check_image_path, emit, print_tournament, progress_enabled,
                      refuse_in_tournament, say_wrote)
from ._options import add, add_deprecated

ORDER = 50

HELP = "decode a solver's samples: the picture, valid or not, and every broken term"
DESCRIPTION = """\
Read the samples a solver returned for a model nonoqubo exported (the clues
travel inside the file) or for a clue file, and print the picture of the best
sample with the verdict.  An invalid sample is explained term by term: every
broken wall, every block-order violation, every cell where the row and the
column disagree (with the model's colour values), and every line of the
picture that does not match its clue.  The penalties listed add up to the
sample's QUBO energy.

Samples may be a dimod SampleSet JSON (to_serializable(); OpenJij's too), a
JSON object label -> value (or a list of them), a JSON list or lines of bits /
numbers in nonoqubo's variable order, a qbsolv or MQLib answer, a SCIP, CBC,
Gurobi, HiGHS or GLPK solution file, or a QPLIB .sol file; 0/1 or spins
-1/+1.  The format and the spins are detected from the content.  A model that
presolve left with no variables needs no SAMPLES.

MiniZinc's output for a model written with -o model.mzn (what
`minizinc --solver gecode model.mzn` prints, text or --output-mode json; with
-a every solution is a sample) is read as it is: each picture is encoded into
the QUBO's variables.  =====UNSATISFIABLE===== prints one line, exit 1.

OMMX answers (an ommx.v1.SampleSet or Solution saved with to_bytes(), or an
OMMX artifact archive holding one) are read from their file, against a .ommx
model or any other model or clue file.

A model file whose reading would take more memory than is available (about
10 bytes a byte of the file), or a clue file whose model would, is refused
before it is read or built, in one line with the estimate; --force goes on.

A tournament answer file ('$N' headers, rows of tab-separated 0/1) against a
question file of several puzzles is checked puzzle by puzzle, matched by
number, as 'nonoqubo check QUESTIONS ANSWERS' does: a line per failing puzzle,
the files' located problems, the total (exit 0 all solved, 1 not, 2 a problem
of a file).  Against one puzzle, its answers are pictures, decoded as samples.

The model: samples that 'solve -o' (or 'nonoqubo run') wrote record the
model they were drawn from (the encoding, the weights, the presolve).  Against
a clue file, decode builds that model, says so in one line on standard error
(-q: not), and reports the run's own energies.  A model file, or an
--encoding, --weights or --presolve given, that is not the recorded model is
refused in one line naming both.  Samples that record no run (another
solver's answer) are decoded against the model file, or against the clue
file's model in --encoding at --weights (build's options; default the
domain wall at weights 1).

exit status: 0 when the shown sample (with --all: the best sample) is valid,
1 when it is not, 2 on bad input or a model too large for the memory.

examples:
  nonoqubo decode logo.qubo.json sampleset.json
  nonoqubo decode logo.yaml answer.txt --all --json
  nonoqubo decode logo.qubo samples.json --image logo.svg
  nonoqubo decode logo.ommx openjij-answer.pb
  nonoqubo decode logo.mzn minizinc-answer.txt
  nonoqubo decode taai2011.taai taai2011-answers.txt
  nonoqubo decode logo.yaml run.json            (the model run.json's record names)
  nonoqubo decode logo.yaml qbsolv-answer.txt --encoding one-hot --weights cell=2

samples of the physical problem (on qubits, e.g. a QPU's answer to
'nonoqubo build ... --embedding EMB.json -o phys.json'):
  nonoqubo decode logo.qubo.json qpu-samples.json --embedding emb.json
  nonoqubo decode logo.yaml qpu-samples.json --embedding emb.json --chain-break discard
With --embedding the samples are labelled by qubit (a SampleSet of the
physical problem, {"qubit": value} objects, or vectors in increasing qubit
order); each chain's qubits give its variable's value by --chain-break, and
the fraction of broken chains (qubits that disagree) is reported per sample
and overall.  A SampleSet that Ocean's FixedEmbeddingComposite already
unembedded decodes without --embedding; its chain_break_fraction column is
reported.
"""

def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("decode", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", metavar="MODEL_OR_PUZZLE",
                        help="a model file nonoqubo exported, or a clue file")
    parser.add_argument("samples", metavar="SAMPLES", nargs="?",
                        help="the solver's samples ('-' reads standard input); may be left out for a "
                             "model presolve left with no variables")
    show = parser.add_mutually_exclusive_group()
    show.add_argument("--best", dest="which", action="store_const", const="best",
                      help="show the lowest-energy sample (the default)")
    show.add_argument("--all", dest="which", action="store_const", const="all",
                      help="show every sample")
    add(parser, "json", "the report (schemas/report.schema.json)")
    add(parser, "samples-format", ", ".join(sample_formats()))
    spin = parser.add_mutually_exclusive_group()
    spin.add_argument("--spin", dest="spin", action="store_const", const=True,
                      help="values are spins -1/+1 (default: detected)")
    spin.add_argument("--binary", dest="spin", action="store_const", const=False,
                      help="values are 0/1 (default: detected)")
    qpu = parser.add_argument_group("samples on qubits (the physical problem)")
    add(qpu, "embedding", "the samples are on qubits: map them back through its chains (it must be for MODEL, "
                          "or for its presolved model)")
    add(qpu, "chain-break", ", ".join(CHAIN_BREAK_METHODS) + " (default majority; dwave.embedding's majority_vote, "
                            "discard, weighted_random, MinimizeEnergy)")
    qpu.add_argument("--chain-break-seed", type=int, default=None, metavar="S",
                     help="seed of --chain-break weighted's random choices, for repeatable decodes")
    add_deprecated(qpu, "--seed", "--chain-break-seed", "chain_break_seed", why="--seed is a solve's random seed",
                   convert=int)
    model = parser.add_argument_group("the model of a clue file (for samples that record no run)")
    add_encoding_arguments(model)
    add_presolve_argument(model, "decode against the presolved model (a run's record says so itself)")
    add_image_argument(parser)
    add_force_argument(parser)
    add(parser, "quiet", "no notes on standard error (the model a run record names, how labels were read, the "
                         "'wrote FILE' line of --image)")
    parser.set_defaults(run=run, which="best", spin=None)
    return parser


def run(args: argparse.Namespace) -> int:
    if is_answer_file(args.samples) and is_multi_puzzle(args.model):  # a tournament's answers, puzzle by puzzle
        refuse_in_tournament(args, "a tournament answer file", {"image": "--image", "embedding": "--embedding",
                                                                "samples_format": "--samples-format",
                                                                "encoding": "--encoding", "weights": "--weights",
                                                                "presolve": "--presolve"})
        return print_tournament(check_answers(args.model, args.samples), args.json)
    check_image_path(args.image, args.model, args.samples, args.embedding)  # never over a file it reads
    with spinner(f"reading {args.model}", enabled=progress_enabled(args)):
        result = decode_samples(args.model, args.samples, which=args.which, format=args.samples_format,
                                spin=args.spin, embedding=args.embedding, chain_break=args.chain_break,
                                seed=args.chain_break_seed, force=args.force, encoding=args.encoding, weights=args.weights,
                                presolve=args.presolve_method if args.presolve else None)
    if result.model_note and not args.quiet:  # the model a run record names, built: one line says so
        print(f"nonoqubo: note: {result.model_note}", file=sys.stderr)
    if result.notes and not args.quiet:  # labels read another program's way (positions, y_0_0_0) or ignored
        print("nonoqubo: note: " + "; ".join(result.notes), file=sys.stderr)
    emit(result.decoder.puzzle, result.reports, result.summary(), args.which, as_json=args.json,
         source=result.source, image=args.image, best=result.best)
    if result.chain_breaks is not None and not args.json:
        print("\n" + "\n".join(chain_break_lines(result.chain_breaks, result.best.index)))
    if args.image:
        say_wrote(args.image, f"SVG picture of sample {result.best.index}", quiet=args.quiet)
    return 0 if result.best.valid else 1
