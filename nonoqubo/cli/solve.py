"""``nonoqubo solve``: build, sample locally, decode, show.

The command owns the arguments (options checked by :func:`nonoqubo.solvers.samplers.check_options`
before the puzzle is read) and the hint when no sample is valid; solving is
:func:`nonoqubo.solvers.sampling.solve`'s, the report text :func:`nonoqubo.cli._common.emit`'s.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from .._util import progress
from .._util.atomic import atomic_write, check_distinct_outputs, check_not_input
from ..errors import SolverError
from ..inputs import is_model_input
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..pipeline import Step
from ..qpu.sampler import chain_break_report
from ..solvers.base import SAMPLER_INFO
from ..solvers.initial import WORDS
from ..solvers.request import SolveRequest
from ..solvers.samplers import SAMPLER_TABLE
from ..records import file_digest
from ..solvers.sampling import prepare, read_for_solve, sampleset_json
from ._common import (add_encoding_arguments, add_force_argument, add_image_argument, add_presolve_argument,
                      add_puzzle_arguments, chain_break_lines, check_image_path, check_output_folder, emit,
                      input_options, no_solution_names, progress_enabled, say_wrote, solve_tournament,
                      wants_tournament_solve, write_image)
from ._qpu_options import QPU_EXAMPLES, qpu_inputs
from ._request import add_request_options, given_options, request_of_args
from ._options import add

if TYPE_CHECKING:
    from ..campaign.plan import Task
    from ..campaign.runner import TaskResult
    from ..solvers.base import Tick

ORDER = 70

HELP = "solve a puzzle locally (simulated annealing, tabu, exact, QUBO++, OpenJij SA/SQA, CP-SAT) and show the picture"
DESCRIPTION = f"""\
Build the QUBO of PUZZLE, sample it with a local solver, decode the samples
and print the best picture with its verdict (as `decode` does).  PUZZLE is a
clue file, built in --encoding with --weights, or a QUBO file nonoqubo wrote
(by its name: .qubo.json, .bqm, .qubo, ...; e.g. one model of a `suite`),
sampled as it is, in its own encoding and weights.  -o saves the
samples as a dimod SampleSet JSON, which `nonoqubo decode` reads back.  Its
info["nonoqubo"] records the run: the sampler and every parameter given, the
time of the whole call and of every read (the sampler's own per-read times where
it measures them: sa's sampling_ns, OpenJij's; else the wall clock), the
seconds per run `nonoqubo evaluate` uses for TTS99 and where they came from,
the nonoqubo version, the date and the machine (platform, CPU, CPU count).

samplers:
{chr(10).join(f"  {s.name:<11} {s.summary}" for s in SAMPLER_TABLE.values())}

On a terminal, sampling shows the reads done and the best energy so far.

cpsat (the cp extra: pip install "nonoqubo[cp]") is ground truth, not a QUBO
sampler: CP-SAT solves the puzzle itself (a Boolean per cell, an automaton per
line) and its solution comes back as a sample of the QUBO, energy 0.  It takes
--time-limit (the whole search) and --workers, not --reads.  --count N
enumerates up to N solutions (each one a sample) and prints how many there are
("exactly" when fewer than N exist): --count 2 tells whether the solution is
unique.  A puzzle with no solution prints one line and exits 1; a search the
time limit stops before a solution prints one line and exits 3 (with --json
each is a JSON object: "outcome" "no solution" or "time limit").  "at least N"
says what cut the count: the --count cap or the time limit.  --json gives
CP-SAT's own time for the search as "solve_seconds" (the run record of -o
keeps it, with its CPU time and status, under "sampler_reported"); the
command's wall time adds Python's model building and decoding.

On a file of several puzzles (a tournament's question file: 1,000 puzzles),
cpsat solves every puzzle (--time-limit each) and prints one line per puzzle
it did not solve and the total; --tournament-answers OUT writes the answers
in the tournaments' format ($N, then rows of tab-separated 0/1), which
'nonoqubo check QUESTIONS OUT' checks.  --index N solves one puzzle as usual.

The annealing knobs (see the sampling guide of the docs):
  nonoqubo solve P.non --beta-range 0.5,10 --sweeps 10000 --reads 100 --seed 1 -o run.json
  nonoqubo solve P.non --beta-schedule custom betas.txt --sweeps-per-beta 10
  nonoqubo solve P.non --restarts 8          (each read: the best of 8 anneals)
  nonoqubo solve P.non --sampler tabu --time-limit 0.5 --tenure 30 --restarts 100
  nonoqubo solve P.non --initial-states line --beta-range 2,20   (warm start)
  nonoqubo solve P.non --initial-states run.json --presolve      (from an earlier run)
  nonoqubo solve P.non --presolve probe --restarts 8    (SA restarts that keep probing's fixings)
  nonoqubo solve P.non --initial-states probe --restarts 8 --beta-range 2,20
                        (each restart from its own random completion of them)
  nonoqubo solve P.non --sampler pt --replicas 8 --beta-range 1,20 --sweeps 1000
  nonoqubo solve P.non --sampler pa --replicas 32 --sweeps 1000 --sweeps-per-beta 10
  nonoqubo solve P.non --sampler openjij-sa --beta-range 0.5,10 --beta-schedule linear --sweeps-per-beta 10
  nonoqubo solve P.non --reads 100 --seed 1 --sweep beta-range=0.1,10:0.5,10:1,10 -o runs/
  nonoqubo evaluate P.non runs/
Every parameter given is recorded in -o's info["nonoqubo"]["parameters"], a
flat record that `evaluate` shows as the setting.  A warm start is wiped out
by a hot start: with --initial-states give --beta-range a LO of 1 or more.
--sweep prepares every setting (its model, its warm start matched to it, its
QPU parameters and embedding checked) before the first one samples: a bad
setting stops the sweep in one line, with nothing sampled or written.

SQA (openjij-sqa): the seed trap and when it is the wrong tool.  OpenJij gives
every read of one call the same seed, so before this version --reads 100
--seed 1 was one read copied 100 times (the same energy on every read); now
read r gets seed S + r, one call per read.  A sweep of SQA costs about
--trotter sweeps of SA plus a fixed cost per read, so for finding solutions
fast SQA is the wrong tool: use sa (with --beta-range); use SQA to study
the transverse field (--gamma, --sqa-schedule).  A warm start in SQA is wiped
out by the transverse field of a schedule that starts at s=0 (the default):
give --sqa-schedule rows that start near s=1 (e.g. "0.9 50", "1 50").

A puzzle whose model would need more memory than is available is refused
before it is built, in one line with the estimate; --force builds it anyway.

exit status: 0 when the best sample solves the puzzle, 1 when it does not (or
cpsat proves the puzzle has no solution), 2 on bad input, a bad option, a model
too large for the memory, or a sampler that is missing or cannot take the model,
3 when cpsat's time limit came before a solution (of any puzzle of a collection).

examples:
  nonoqubo solve examples/qbpp-logo.yaml --sampler sa --reads 20 --seed 1
  nonoqubo solve examples/qbpp-logo.yaml --seed 1 -o samples.json
  nonoqubo decode examples/qbpp-logo.yaml samples.json
  nonoqubo solve examples/qbpp-logo.yaml --sampler cpsat --count 2
  nonoqubo solve taai2011.taai --sampler cpsat --time-limit 10 --tournament-answers answers.txt
  nonoqubo solve examples/qbpp-logo.yaml --encoding one-hot --weights cell=2
  nonoqubo suite --random 10x10:0.5:20:1 --encoding domain-wall,one-hot -o ab
  nonoqubo solve ab/random-10x10-d0.5-s1-0001.one-hot.qubo.json --seed 1 -o runs/oh-sa.json

the QPU workflow (the dwave extra: pip install "nonoqubo[dwave]"):
  nonoqubo solve puzzle.non --sampler mock-dwave --topology pegasus:6 -o samples.json
  nonoqubo solve puzzle.non --sampler mock-dwave --embedding emb.json --chain-strength 2
  nonoqubo solve puzzle.non --sampler dwave --embedding emb.json -o qpu-samples.json
mock-dwave runs dwave-system's FixedEmbeddingComposite over its
MockDWaveSampler for the topology, with simulated annealing (--sweeps) on the
qubits: chains, chain strength, majority-vote unembedding and chain breaks as
on a QPU, offline.  dwave does the same on the QPU your Ocean configuration
names (dwave setup, or DWAVE_API_TOKEN); with none it fails in one line.
Without --embedding an embedding is found with minorminer and cached.  -o
keeps the SampleSet's info (timing, embedding_context with the chains and
the chain strength) and its chain_break_fraction column, which decode reports;
info["nonoqubo"]["sampler_reported"]["qpu"] keeps the problem ids, the timing
(qpu_access_time and its parts, in microseconds; the mock's estimated), the
parameters sent and the ranges (docs/guides/annealer.md).

""" + QPU_EXAMPLES

#: what to try when no sample is valid (the last line of the output)
NO_VALID_HINT = (
    "nonoqubo: hint: no sample is valid; try more --sweeps (sa) or --reads, --presolve (line logic "
    "fixes what it can first), or the LP route: nonoqubo build PUZZLE --constrained -o m.lp, solve m.lp "
    "with HiGHS (highs m.lp --solution_file m.sol), then nonoqubo decode m.lp m.sol"
)


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("solve", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    add_encoding_arguments(parser)
    add_request_options(parser, ["sampling"])  # --sampler, --reads, --seed, --sweeps, --time-limit, --workers, --count
    add_presolve_argument(parser, "fix the variables the presolve decides before sampling (as 'build --presolve')")
    parser.add_argument("--tournament-answers", metavar="OUT", default=None,
                        help="cpsat on a multi-puzzle file (a tournament's questions): solve every puzzle (--time-limit "
                             "each) and write OUT, the answers ($N, rows of tab-separated 0/1); exit 3 when the time "
                             "limit stopped a puzzle")
    add(parser, "output", "also the samples, as a dimod SampleSet JSON of the full model (fixed variables filled "
                          "in), for 'nonoqubo decode', with the run's sampler, parameters, timing and machine in "
                          "info[\"nonoqubo\"] (for 'nonoqubo evaluate'); with --sweep a folder", metavar="SAMPLES.json")
    add_request_options(parser, ["anneal", "openjij"])
    parser.add_argument("--sweep", action="append", metavar="OPTION=V1:V2|FILE",
                        help="run one solve per setting and write each into -o DIR/SETTING/: "
                             "beta-range=0.1,10:0.5,10 (repeat for a grid), or a JSON/YAML file of "
                             "option -> values; then 'nonoqubo evaluate PUZZLE DIR' compares them")
    add_request_options(parser, ["qpu", "search"])
    add(parser, "json", "the report (schemas/report.schema.json)")
    add(parser, "quiet", "no progress display, no hint and no 'wrote FILE' line; with -o or --image nothing at all "
                         "but errors (the exit status still says whether the best sample is valid)")
    add_image_argument(parser)
    add_force_argument(parser)
    parser.set_defaults(run=run)
    return parser


def count_line(found: int, exact: bool, cut: str | None = None) -> str:
    """``solutions: exactly 1 (unique)`` / ``solutions: at least 2 (not unique; the --count cap stopped the count)``."""
    verdict = "unique" if exact and found == 1 else "not unique" if found > 1 else "none"
    if not exact and cut:
        verdict += "; the --count cap stopped the count" if cut == "limit" else "; the time limit stopped the count"
    return f"solutions: {'exactly' if exact else 'at least'} {found} ({verdict})"


def _files_read(args: argparse.Namespace, request: SolveRequest) -> tuple[str | None, ...]:
    """Every file the command reads, which no output may overwrite."""
    opts = request.options
    return (args.puzzle, *qpu_inputs(args), opts.beta_schedule_file, (opts.schedule or {}).get("sqa_schedule"),
            opts.initial_states if opts.initial_states not in WORDS else None)


def _step(args: argparse.Namespace, request: SolveRequest) -> Step | None:
    """The status line of the embedding search a QPU sampler makes without an embedding file (minutes, maybe)."""
    if not request.spec.qpu or (request.options.qpu or {}).get("embedding"):
        return None
    return lambda message: progress.status_line(f"{message} (embedding the model once; cached for the next run)",
                                                progress_enabled(args))


def _solve_source(args: argparse.Namespace, puzzle: Puzzle | Qubo) -> str | None:
    return args.puzzle if isinstance(puzzle, Qubo) or is_model_input(args.puzzle, args.from_format) else None


def run(args: argparse.Namespace) -> int:
    if wants_tournament_solve(args):  # a whole collection: every puzzle, one answer file (cpsat)
        return solve_tournament(args)
    if args.sweep:
        return run_sweep(args)
    request = request_of_args(args)  # every value checked before anything is read
    inputs = _files_read(args, request)  # no output over a file it reads
    check_image_path(args.image, *inputs)
    check_output_folder(args.output, *inputs)
    check_distinct_outputs(("-o", args.output), ("--image", args.image))  # neither overwrites the other
    puzzle = read_for_solve(args.puzzle, request, from_format=args.from_format, options=input_options(args),
                            force=args.force)
    with no_solution_names(args.puzzle):
        prepared = prepare(puzzle, request, source=_solve_source(args, puzzle),
                           digest=file_digest(args.puzzle) if os.path.isfile(args.puzzle) else None)
        with progress.reads(request.spec.progress_total(request.options), f"{request.sampler} sampling",
                            enabled=progress_enabled(args)) as tick:
            result = prepared.run(tick, _step(args, request))
    if args.output:
        with atomic_write(args.output) as fh:
            fh.write(sampleset_json(result))
    model = f"{request.sampler} sampler" + (" (presolved)" if request.presolve else "")
    summary = {
        "model": model,
        "variables": result.qubo.num_vars,
        "fixed": len(result.decoder.fixed),
        "num_samples": len(result.analysis),
        "num_valid": result.num_valid,
        "best_energy": int(result.analysis.energy.min()),
    }
    counted = result.batch.extra.get("count")
    if counted is not None:
        summary["solutions"] = {"count": counted["solutions"], "exact": counted["exact"], "limit": counted["limit"],
                                "cut": counted.get("cut")}
    reported = result.batch.extra.get(SAMPLER_INFO) or {}
    if request.spec.ground_truth and "solve_seconds" in reported:  # CP-SAT's own time for its search
        summary["solve_seconds"] = round(float(reported["solve_seconds"]), 6)
    breaks = chain_break_report(result.batch, result.batch.extra.get(SAMPLER_INFO))
    if breaks is not None:
        summary["chain_breaks"] = breaks
    if args.quiet and (args.output or args.image) and not args.json:  # -q: the files are the output, print nothing
        if args.image:
            write_image(args.image, result.puzzle, result.best)
        return 0 if result.best.valid else 1
    emit(result.puzzle, [result.best], summary, "best", as_json=args.json,
         source=model, image=args.image, best=result.best)
    if counted is not None and not args.json:
        print(f"\n{count_line(counted['solutions'], counted['exact'], counted.get('cut'))}")
    if breaks is not None and not args.json:
        print("\n" + "\n".join(chain_break_lines(breaks, result.best.index)))
    if not result.best.valid and not args.quiet:
        sys.stdout.flush()
        print(NO_VALID_HINT, file=sys.stderr)
    if args.output:
        say_wrote(args.output, "run file", quiet=args.quiet)
    if args.image:
        say_wrote(args.image, f"SVG picture of sample {result.best.index}", quiet=args.quiet)
    return 0 if result.best.valid else 1


def run_sweep(args: argparse.Namespace) -> int:
    """``solve --sweep``: every setting checked, the puzzle read once, one run file per setting under -o DIR
    (:func:`nonoqubo.campaign.sweep.run_sweep`: the campaign runner, in this process)."""
    from ..campaign.sweep import run_sweep as sweep, sweep_tasks

    if not args.output:
        raise SolverError("--sweep writes one run file per setting: give -o DIR (a folder)")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise SolverError(f"-o {args.output}: --sweep writes into a folder, and this is a file")
    if args.image:
        raise SolverError("--image shows one picture; with --sweep, decode a setting's run file instead")
    tasks = sweep_tasks(args.puzzle, given_options(args), args.sweep, args.output)  # every setting checked first
    for task in tasks:
        check_not_input(task.output, *_files_read(args, task.request))
    puzzle = read_for_solve(args.puzzle, tasks[0].request, from_format=args.from_format, options=input_options(args),
                            force=args.force)

    @contextlib.contextmanager
    def watch(task: Task) -> Iterator[tuple[Tick, Step | None]]:
        request = task.request
        with progress.reads(request.spec.progress_total(request.options), task.setting,
                            enabled=progress_enabled(args)) as tick:
            yield tick, _step(args, request)

    lines: list[dict[str, Any]] = []

    def done(task: Task, result: TaskResult) -> None:
        lines.append({"setting": task.setting, "file": task.output, "num_samples": result.samples,
                      "num_valid": result.valid, "best_energy": result.best_energy})
        if not args.json:
            print(f"{task.setting}: {result.valid} of {result.samples} valid, best energy {result.best_energy} "
                  f"-> {task.output}", flush=True)

    with no_solution_names(args.puzzle):
        results = sweep(tasks, puzzle, watch=watch, each=done)
    if args.json:
        print(json.dumps({"sweep": lines}, indent=2))
    elif not args.quiet:
        print(f"compare them: nonoqubo evaluate {args.puzzle} {args.output}")
    return 0 if any(result.valid for result in results) else 1
