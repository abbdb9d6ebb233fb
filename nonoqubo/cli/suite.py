"""``nonoqubo suite``: build a whole collection of puzzles into a folder of models with an index."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from .._util.atomic import INDEX_NAMES, check_not_inputs
from .._util.jobs import workers
from ..generation.families import parse_family
from ..campaign.qoblib import COMPRESSIONS, write_class
from .._util.progress import bar
from ..campaign.suite import CLUES_SUFFIX, run_suite, variants_of
from ..errors import NonoquboError
from ..records import INDEX_CSV, INDEX_JSON, NOT_KEPT
from ..model.encodings import DEFAULT, names
from ._parser import OneOf
from ._common import (add_embed_search_arguments, add_force_argument, add_presolve_argument, add_truth_arguments,
                      check_embed_search_options, progress_enabled)
from ._options import add

ORDER = 60

HELP = "build an instance library: many puzzles (files, folders, globs, random families) -> models + index"
DESCRIPTION = """\
Build the QUBO of every puzzle named (clue files in any format, folders of
them, globs, every puzzle of a multi-puzzle file, and random families) and
write one model per puzzle and format into DIR, with an index (index.json and
index.csv): name, source, size, variables, terms, offset, ground-state energy
(0, and what each format's convention makes of it), line-solvable or not,
variables after presolve, and the SHA-256 of every file.

Puzzles are built in parallel worker processes.  A puzzle that fails is
recorded in the index with its error and the others go on (exit status 1).
Run the same command again to resume: puzzles whose files are present and
match the index are skipped.

--random SIZES:DENSITY:COUNT[:SEED] adds a generated family, e.g.
'10x10,20x20:0.5:100:1' (100 random pictures of each size, black with
probability 0.5, seed 1).  With --unique only pictures whose puzzle CP-SAT
proves unique are kept (a search for a second solution finds none; needs
ortools, the 'cp' extra): these include the unique puzzles line logic alone
cannot solve, so '--random 30x30:0.5:100 --unique' gives hard unique
instances.  --unique=line keeps the older, stricter rule: only line-solvable
pictures (line logic settles every cell, which also proves uniqueness).
--unique=hard keeps only hard cores: puzzles CP-SAT proves unique that
one-cell probing does not settle (the tournament solvers must search them;
probing the model's variables may still settle some: the index's
cells_open_after_variable_probing says).  Random pictures are almost never
hard cores, so a --random member is made by repair: its random picture is
changed where CP-SAT's two solutions differ, keeping what one-cell probing
cannot settle, until CP-SAT proves it unique; --min-open CELLS asks for at
least CELLS cells open after one-cell probing, by default a quarter of the
member's cells, ceil(W*H/4) (100 at 20x20, 157 at 25x25; --min-open 0: at
least one), the target that steers the repair to hard pictures
('--random 20x20:0.5:6:1 --unique=hard -j 2': six 20x20 hard cores in
about 4 minutes on 2 shared cores, see benchmarks/README.md).  Each member's index entry records its uniqueness
proof (uniqueness_proof: CP-SAT's count up to 2 found exactly 1) and the
repair (repair_steps, repair_flips, repair_restarts, repair_seconds); hard
cores are rarer at small sizes (repair found none at 6x6 to 10x10), where
repair gives up with a message saying so.  The rule applies
to the puzzles of the files given too: one that fails it is not built, and
its index entry says "not-kept" and why.  --presolve probe writes probing's residual
models as NAME.presolved.EXT, and --truth or --presolve probe add each
puzzle's hardness label to the index (hardness: line-solvable,
probe-solvable or needs-search; variables_after_line,
variables_after_probe, probe_rounds, and the hard core's size:
cells_open_after_cell_probing, the cells one-cell probing leaves open, and
cells_open_after_variable_probing, those left once the model's variables
are probed too).
Each CP-SAT proof runs within --truth-time seconds (default 60): a draw
whose proof the limit stops is not kept (its uniqueness is unknown) and the
next picture is drawn; the index counts such draws (undecided_draws: the
family then leans to puzzles CP-SAT proves within the limit).  After 10 in a
row the member is recorded as failed, "uniqueness unknown (time limit)";
raise --truth-time and run again to resume.  Few random pictures of density
0.5 and size 30x30 or more are unique: such a member takes many draws.

--truth records per puzzle in the index what is true of it: the number of
solutions (CP-SAT counts up to --truth-limit, default 2: 1 with
solutions_exact true is proven unique, 2 with it false reads ">= 2"), whether
line logic alone solves it, and CP-SAT's time to the first solution
(solve_seconds) and to finish the count (proof_seconds); timed_out true when
--truth-time stopped a search (solutions_label "unknown (time limit)", never
unique).  'nonoqubo evaluate'
reads the counts from the index.

--encoding domain-wall,one-hot and --weights shape=A,order=B,cell=C
(repeatable) build every puzzle once per combination, the A/B comparison in
one command: NAME.domain-wall.EXT, NAME.one-hot.EXT, and with weights other
than 1 NAME.one-hot.w2-2-1.EXT (shape 2, order 2, cell 1); each is an index
entry that records its puzzle, encoding and weights, and 'nonoqubo evaluate
DIR RUNS' reports them side by side.  Constrained formats are written with
the domain-wall variant at weights 1 only.

--embed TOPOLOGY records per puzzle whether its model fits on a QPU: minorminer
embeds the full and the presolved model on TOPOLOGY (pegasus:16, zephyr:12,4,
chimera:16 or a QPU properties .json, as 'nonoqubo embed' takes it; needs the
'dwave' extra), and the index gets embed_topology, embed_status ("ok", "not
found", or "nothing to embed: presolve fixes every variable"), embed_qubits,
embed_longest_chain, embed_mean_chain, embed_seconds and the same with
_after_presolve.  Embeddings go to the cache 'nonoqubo embed' reads, so a
model is embedded once across runs; --embed-timeout bounds each search.

Every puzzle's model is checked against the memory available before it is
built; one that would not fit is recorded as failed with the estimate.  A
--random size is checked from its size before any picture is drawn, and one
too large refuses the whole command (exit status 2).  --force builds anyway.

examples:
  nonoqubo suite tests/data/puzzles/json -o suite -f qbsolv -f bqm --presolve
  nonoqubo suite 'puzzles/**/*.non' --random 10x10,20x20:0.5:50:1 --unique -o suite -j 2
  nonoqubo suite --random 30x30:0.5:100 --unique --truth -o hard
  nonoqubo suite --random 15x15:0.5:100 --unique=line -o easy
  nonoqubo suite --random 10x10:0.5:20 --encoding domain-wall,one-hot --weights cell=1 --weights cell=2 -o ab
  nonoqubo suite tests/data/puzzles/json --embed pegasus:16 --embed-timeout 120 -o fits -j 2
  nonoqubo suite --layout qoblib --random 10x10:0.5:20:1 --unique --truth --compress xz -o 10-nonogram

--layout qoblib writes the puzzles as a problem class of QOBLIB (the Quantum
Optimization Benchmarking Library): instances/ (the clues, .non), the QUBO
as models/binary_unconstrained/qs_files/*.qs and the 0-1 linear program as
models/binary_linear/lp_files/*.lp, each folder with QOBLIB's metrics.csv
and README table, solutions/ (a PBM picture where a solution is known: given,
line logic or CP-SAT), check/check_nonogram.py (exit 0 valid, 1 invalid, 2
error) and the READMEs QOBLIB's CONTRIBUTING asks for.  DIR must be new or
empty; black-and-white puzzles only; the formats, --presolve, --encoding,
--weights and --embed do not apply.  --compress xz writes .qs.xz and .lp.xz
as QOBLIB ships them.  'nonoqubo evaluate DIR RUNS --submission ...' then
writes a submission (see 'nonoqubo evaluate --help').
"""


#: the rules of ``--unique``
UNIQUE_RULES = ("cpsat", "line", "hard")


class _Unique(OneOf):
    """``--unique [cpsat|line|hard]`` (bare: cpsat): a word after a bare ``--unique`` that is not a rule is a
    puzzle (``suite --unique puzzles/ -o DIR``), unless it reads as a mistyped rule (``--unique lines``)."""

    def words(self, after: Sequence[str]) -> int | None:
        word = after[0] if after else ""
        mistyped = word.startswith(self.one_of) and not os.path.exists(word) and not any(c in word for c in "*?[")
        return 1 if word in self.one_of or mistyped else 0

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        if values not in self.one_of:  # one line, before any work
            parser.exit(2, f"nonoqubo: error: --unique must be 'cpsat', 'line' or 'hard', not {values!r}\n")
        namespace.unique = values


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("suite", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLES",
                        help="clue files, folders (read recursively) and globs")
    add(parser, "output", "the suite's folder", metavar="DIR", required=True)
    add(parser, "format", "repeat for several (default: qubo-json)")
    add_presolve_argument(parser, "also write NAME.presolved.EXT, with the variables the presolve decides fixed")
    parser.add_argument("--random", action="append", default=[], metavar="SIZES:DENSITY:COUNT[:SEED]",
                        help="a generated family of random pictures (repeat for several)")
    parser.add_argument("--unique", action=_Unique, one_of=UNIQUE_RULES, const="cpsat", default=None,
                        metavar="cpsat|line|hard",
                        help="keep generated pictures (and puzzles of the files given) whose puzzle is unique: "
                             "proven by CP-SAT (the default, "
                             "needs ortools), with --unique=line only line-solvable ones, with --unique=hard only "
                             "hard cores (proven unique and not settled by one-cell probing; random members are made "
                             "by repair)")
    parser.add_argument("--min-open", type=int, default=None, metavar="CELLS",
                        help="with --unique=hard and --random: each member keeps at least CELLS cells open after "
                             "one-cell probing (its index entry's cells_open_after_cell_probing; default: a quarter "
                             "of the member's cells, ceil(W*H/4), 100 at 20x20; 0: at least one)")
    add_truth_arguments(parser, "record per puzzle their number, line-solvability and the solve and proof times in "
                                "the index", unique=True)
    add(parser, "encoding", f"build each puzzle in these ({', '.join(names())}; comma-separated); default: "
                            f"{DEFAULT.name} only, files named as without variants", metavar="NAME[,NAME]")
    add(parser, "weights", "repeat for several weightings, each combined with every --encoding", repeat=True)
    parser.add_argument("--embed", metavar="TOPOLOGY",
                        help="also embed every full and presolved model on this QPU topology (pegasus:16, "
                             "zephyr:12,4, a properties .json; needs the 'dwave' extra) and record the qubits and "
                             "chains in the index (default none)")
    add_embed_search_arguments(parser)
    parser.add_argument("--layout", choices=("suite", "qoblib"), default="suite",
                        help="suite: models and index in DIR (the default); qoblib: a QOBLIB problem class")
    parser.add_argument("--compress", choices=COMPRESSIONS, default="none",
                        help="with --layout qoblib: compress the .qs and .lp files (xz: NAME.qs.xz; default none)")
    add(parser, "jobs")
    add(parser, "quiet", "no progress bar and no summary")
    add_force_argument(parser)
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    workers(args.jobs)  # -j's bound, before any work: one line, exit 2
    # no clue file given is where the suite writes: its index files (suite DIR/index.json -o DIR), or a member's
    # clue copy NAME.clues.json (suite DIR/heart.clues.json -o DIR rewrote the input as the suite's spec file)
    given = [p for p in args.puzzles if os.path.isfile(p)]
    written = [*INDEX_NAMES, *(os.path.basename(p) for p in given if p.endswith(CLUES_SUFFIX))]
    check_not_inputs([("-o", os.path.join(args.output, name)) for name in written], given)
    if args.min_open and not args.random:
        raise NonoquboError(f"--min-open {args.min_open}: it applies to --random families with --unique=hard")
    families = [parse_family(text, unique=args.unique, min_open=args.min_open) for text in args.random]
    if args.layout == "qoblib" or args.compress != "none":
        return _qoblib(args, families)
    encodings = None if args.encoding is None else [e.strip() for e in args.encoding.split(",")]
    variants = variants_of(encodings, args.weights)  # checked before any work: one line, exit 2
    if args.embed:
        check_embed_search_options(args)
    show = progress_enabled(args)
    with bar(None, "building suite", enabled=show, unit=" puzzles") as tick:
        result = run_suite(args.puzzles, args.output, formats=args.format or ["qubo-json"],
                           presolve=args.presolve, presolve_method=args.presolve_method, families=families, jobs=args.jobs, progress=tick,
                           status=tick.note if show else None, force=args.force, truth=args.truth, truth_limit=args.truth_limit,
                           truth_time=args.truth_time, variants=variants, embed=args.embed, unique=args.unique,
                           embed_search=(args.embed_seed, args.embed_tries, args.embed_timeout, not args.no_cache))
    if not args.quiet:
        print(f"{len(result.entries)} puzzles: {result.built} built, {result.skipped} up to date, "
              f"{result.failed} failed, "
              + (f"{result.not_kept} not kept (--unique), " if result.not_kept else "")
              + (f"{result.kept} entries of the folder's index kept, " if result.kept else "")
              + f"in {result.seconds:.1f} s; index: "
              f"{os.path.join(args.output, INDEX_JSON)}, {os.path.join(args.output, INDEX_CSV)}",
              file=sys.stderr)
        for e in result.entries:
            if e.get("status") not in ("ok", NOT_KEPT):
                error = str(e.get("error"))
                where = "" if error.startswith(str(e["source"])) else f"{e['source']}: "
                print(f"nonoqubo: failed: {where}{error}", file=sys.stderr)
    return 1 if result.failed else 0


def _qoblib(args: argparse.Namespace, families: list) -> int:
    """``--layout qoblib``: refuse what does not apply (one line, exit 2), write the class, say what it holds."""
    if args.layout != "qoblib":
        raise NonoquboError("--compress applies to --layout qoblib only")
    given = [flag for flag, on in (("-f", args.format), ("--presolve", args.presolve), ("--encoding", args.encoding),
                                   ("--weights", args.weights), ("--embed", args.embed)) if on]
    if given:
        raise NonoquboError(f"--layout qoblib: {', '.join(given)} do(es) not apply (a class holds one .qs and one .lp "
                            "model per instance: domain wall, weights 1, not presolved)")
    with bar(None, "writing the QOBLIB class", enabled=progress_enabled(args), unit=" puzzles") as tick:
        result = write_class(args.puzzles, args.output, families=families, compress=args.compress,
                             truth=args.truth, truth_limit=args.truth_limit, truth_time=args.truth_time,
                             force=args.force, progress=tick)
    if not args.quiet:
        print(f"{result.built} instances ({result.solved} with a known solution) in {result.seconds:.1f} s: "
              f"QOBLIB class {args.output}; index: {os.path.join(args.output, INDEX_JSON)}", file=sys.stderr)
    return 0
