"""``nonoqubo solve``: build, sample locally, decode, show.

The command owns the arguments (options checked by :func:`nonoqubo.solvers.samplers.check_options`
before the puzzle is read) and the hint when no sample is valid; solving is
:func:`nonoqubo.solvers.sampling.solve`'s, the report text :func:`nonoqubo.cli._common.emit`'s.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
from typing import Any

from .._util import progress
from .._util.atomic import atomic_write, check_not_input
from ..solvers.initial import LINE
from ..solvers.qpu import QPU_SAMPLERS, qpu_chain_breaks
from ..solvers.samplers import SAMPLER_TABLE, SAMPLERS, check_options
from ..pipeline import Models
from ..solvers.sampling import Prepared, SolveResult, models_of, prepare, sample_options, sampleset_document, solve
from ..solvers.schedule import parse_beta_schedule
from ..solvers.sweep import parse_sweep, setting_name, settings
from ..inputs import is_model_input, open_input
from ..errors import FormatError, MissingDependency, NonoquboError, SolverError
from ..model.estimate import check_fits
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ._common import (add_encoding_arguments, chain_break_lines, encoding_options,
                      add_force_argument, add_image_argument, add_puzzle_arguments, check_image_path, check_output_folder, emit,
                      add_presolve_argument, input_options, progress_enabled, solve_tournament,
                      wants_tournament_solve, write_image)
from ._qpu_options import QPU_EXAMPLES, add_qpu_options, qpu_inputs, qpu_options
from ._parser import TwoWords

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
says what cut the count: the --count cap or the time limit.

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
    parser.add_argument("--sampler", choices=SAMPLERS, default="sa", help="the local solver (default: sa)")
    parser.add_argument("--reads", type=int, default=10, metavar="N", help="number of samples, at least 1 (default: 10)")
    parser.add_argument("--seed", type=int, default=None, metavar="S",
                        help="random seed 0..4294967295, for repeatable runs (read r uses S + r)")
    parser.add_argument("--sweeps", type=int, default=None, metavar="N",
                        help="annealing sweeps per read, at least 1 (sa, openjij-sa, openjij-sqa; default 1000)")
    parser.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                        help="seconds per read, more than 0 (tabu, qbpp; qbpp default 1); cpsat: the whole search")
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="cpsat: search workers, at least 1 (default: CP-SAT's, every core; --count uses one)")
    parser.add_argument("--count", type=int, default=None, metavar="N",
                        help="cpsat: enumerate up to N solutions and say how many there are (exact when fewer "
                             "than N exist; --count 2 decides uniqueness)")
    add_presolve_argument(parser, "fix the variables the presolve decides before sampling (as 'build --presolve')")
    parser.add_argument("--tournament-answers", metavar="OUT", default=None,
                        help="cpsat on a multi-puzzle file (a tournament's questions): solve every puzzle (--time-limit "
                             "each) and write OUT, the answers ($N, rows of tab-separated 0/1); exit 3 when the time "
                             "limit stopped a puzzle")
    parser.add_argument("-o", "--output", metavar="SAMPLES.json",
                        help="also save the samples as a dimod SampleSet JSON of the full model "
                             "(fixed variables filled in), for 'nonoqubo decode', with the run's sampler, "
                             "parameters, timing and machine in info[\"nonoqubo\"] (for 'nonoqubo evaluate')")
    anneal = parser.add_argument_group("simulated annealing and tabu knobs (sa, tabu; openjij-sa, openjij-sqa where "
                                        "OpenJij has them)")
    anneal.add_argument("--beta-range", metavar="LO,HI",
                        help="sa, openjij-sa: first and last inverse temperature, 0 < LO < HI (default: the "
                             "sampler's range from the model's biases, about 0.02,23 here; 0.5,10 often does better)")
    anneal.add_argument("--beta-schedule", action=TwoWords, first="custom", metavar="KIND",
                        help="sa, openjij-sa: how beta runs from LO to HI: linear, geometric (the default), or custom "
                             "FILE (the betas, one per line or a JSON list, never decreasing; no --sweeps or "
                             "--beta-range then); openjij-sa's linear needs --beta-range")
    anneal.add_argument("--sweeps-per-beta", type=int, metavar="N",
                        help="sa, openjij-sa: sweeps held at each beta (default 1; --sweeps must be a multiple of it; "
                             "openjij-sa needs --beta-range with it)")
    anneal.add_argument("--restarts", type=int, metavar="R",
                        help="sa: R independent anneals per read, the read keeping the best (its time is all R); "
                             "tabu: the most restarts of one read (TabuSampler's num_restarts)")
    anneal.add_argument("--tenure", type=int, metavar="N",
                        help="tabu: the tabu list's length, 0 <= N < variables (default min(20, variables/4))")
    anneal.add_argument("--initial-states", metavar="line|FILE",
                        help="sa, tabu, openjij-sa, openjij-sqa, and the QPU samplers' reverse anneal: warm start: "
                             "'line' (line logic's fixings, random values elsewhere, from --seed) or a samples "
                             "file decode reads, or a picture (#/.) of the answer; read r starts from state r mod "
                             "K (SQA keeps it only with an --sqa-schedule that starts near s=1)")
    openjij = parser.add_argument_group("OpenJij schedules (openjij-sa, openjij-sqa)")
    openjij.add_argument("--beta-min", type=float, metavar="B",
                         help="openjij-sa: first inverse temperature (or give --beta-range LO,HI)")
    openjij.add_argument("--beta-max", type=float, metavar="B",
                         help="openjij-sa: last inverse temperature (or give --beta-range LO,HI)")
    openjij.add_argument("--beta", type=float, metavar="B", help="openjij-sqa: inverse temperature (default 5)")
    openjij.add_argument("--gamma", type=float, metavar="G",
                         help="openjij-sqa: initial transverse field, lowered to 0 (default 1)")
    openjij.add_argument("--trotter", type=int, metavar="N", help="openjij-sqa: Trotter slices (default 4)")
    openjij.add_argument("--sqa-schedule", metavar="FILE",
                         help="openjij-sqa: the whole schedule, rows 's sweeps' or 's beta sweeps' (s from 0, "
                              "all transverse field, to 1, none; never decreasing); no --sweeps then")
    parser.add_argument("--sweep", action="append", metavar="OPTION=V1:V2|FILE",
                        help="run one solve per setting and write each into -o DIR/SETTING/: "
                             "beta-range=0.1,10:0.5,10 (repeat for a grid), or a JSON/YAML file of "
                             "option -> values; then 'nonoqubo evaluate PUZZLE DIR' compares them")
    add_qpu_options(parser)
    parser.add_argument("--json", action="store_true",
                        help="print the report as JSON (schemas/report.schema.json)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress display and no hint; with -o or --image nothing at all but errors (the exit "
                             "status still says whether the best sample is valid)")
    add_image_argument(parser)
    add_force_argument(parser)
    parser.set_defaults(run=run, sweep_actions={name: action for action in parser._actions
                                                 for flag in action.option_strings
                                                 if (name := flag[2:]) in SWEEPABLE and flag.startswith("--")})
    return parser


def count_line(found: int, exact: bool, cut: str | None = None) -> str:
    """``solutions: exactly 1 (unique)`` / ``solutions: at least 2 (not unique; the --count cap stopped the count)``."""
    verdict = "unique" if exact and found == 1 else "not unique" if found > 1 else "none"
    if not exact and cut:
        verdict += "; the --count cap stopped the count" if cut == "limit" else "; the time limit stopped the count"
    return f"solutions: {'exactly' if exact else 'at least'} {found} ({verdict})"


def openjij_options(args: argparse.Namespace) -> dict[str, object]:
    """The OpenJij schedule options given on the command line (checked by the sampler)."""
    return {k: getattr(args, k) for k in ("beta_min", "beta_max", "beta", "gamma", "trotter", "sqa_schedule")
            if getattr(args, k) is not None}


def beta_schedule_of(args: argparse.Namespace) -> tuple[str | None, str | None]:
    """``--beta-schedule``'s kind and file (``custom FILE`` reaches here as one value, ``custom FILE``)."""
    return parse_beta_schedule(args.beta_schedule.split(None, 1)) if args.beta_schedule else (None, None)


def knob_options(args: argparse.Namespace) -> dict[str, Any]:
    """The annealing knobs given on the command line, as :func:`~nonoqubo.solvers.sampling.solve` takes them."""
    kind, betas = beta_schedule_of(args)
    return {"beta_range": args.beta_range, "beta_schedule": kind, "beta_schedule_file": betas,
            "sweeps_per_beta": args.sweeps_per_beta, "restarts": args.restarts, "tenure": args.tenure,
            "initial_states": args.initial_states}


#: the options --sweep may vary (solve's long options without the dashes)
SWEEPABLE = ("sampler", "reads", "seed", "sweeps", "time-limit", "presolve", "beta-range", "beta-schedule",
             "sweeps-per-beta", "restarts", "tenure", "initial-states", "beta-min", "beta-max", "beta", "gamma",
             "trotter", "sqa-schedule", "chain-strength", "chain-strengths", "topology", "embedding", "solver",
             "annealing-time", "anneal-schedule", "reinitialize-state", "num-spin-reversal-transforms",
             "readout-thermalization", "programming-thermalization", "auto-scale", "answer-mode")


def _files_read(args: argparse.Namespace) -> tuple[str | None, ...]:
    """Every file the command reads, which no output may overwrite."""
    return (args.puzzle, *qpu_inputs(args), beta_schedule_of(args)[1],
            args.sqa_schedule, args.initial_states if args.initial_states != LINE else None)


def read_input(args: argparse.Namespace) -> Puzzle | Qubo:
    """The puzzle (checked to fit in memory in its encoding) or the QUBO model file PUZZLE names.

    A model file is sampled as it is: --encoding and --weights, which say how to build a clue
    file, are refused with it rather than ignored.
    """
    path = args.puzzle
    by_name = is_model_input(path, args.from_format)
    args.model_options = {} if by_name else encoding_options(args)  # checked first: a bad --weights is one line
    read = open_input(path, what="models", command="solve", from_format=args.from_format,
                      options=input_options(args), force=args.force)
    if isinstance(read, Puzzle):
        check_fits(read, path, force=args.force, encoding=args.model_options["encoding"])  # before building
        return read
    if not isinstance(read, Qubo):
        raise FormatError(f"{path}: a constrained model, not a QUBO: 'solve' samples QUBO files (or builds "
                          "one from a clue file); solve this one with an ILP solver (see 'nonoqubo formats')")
    if args.encoding is not None or args.weights is not None:
        raise FormatError(f"{path}: a model file keeps its own encoding ({read.encoding}, weights "
                          f"{read.weights}); --encoding and --weights apply to clue files")
    return read


def checked_options(args: argparse.Namespace) -> tuple[dict[str, object], dict[str, Any], dict[str, Any]]:
    """``(schedule, qpu, knobs)`` of *args*, every value checked (:func:`check_options`), before anything is read."""
    schedule = openjij_options(args)
    qpu = qpu_options(args)
    knobs = knob_options(args)
    options = sample_options(reads=args.reads, seed=args.seed, sweeps=args.sweeps, time_limit=args.time_limit,
                             schedule=schedule, workers=args.workers, count=args.count, qpu=qpu, **knobs)
    check_options(options, args.sampler)  # before the puzzle is read or anything built
    if args.sampler in QPU_SAMPLERS and not args.embedding:  # minorminer may search for minutes: say so
        qpu["step"] = lambda message: progress.status_line(f"{message} (embedding the model once; cached for the next run)",
                                                  progress_enabled(args))
    return schedule, qpu, knobs


def solve_arguments(args: argparse.Namespace, puzzle: Puzzle | Qubo, schedule: dict[str, object],
                    qpu: dict[str, Any], knobs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of :func:`solve` (and :func:`prepare`) for the options of *args*."""
    return dict(**args.model_options, reads=args.reads, seed=args.seed, sweeps=args.sweeps, time_limit=args.time_limit,
                presolve="probe" if args.presolve_method == "probe" else args.presolve, options=schedule,
                workers=args.workers, count=args.count, qpu=qpu,
                source=args.puzzle if isinstance(puzzle, Qubo) else None, **knobs)


def solve_once(args: argparse.Namespace, puzzle: Puzzle | Qubo, schedule: dict[str, object], qpu: dict[str, Any],
               knobs: dict[str, Any], label: str | None = None) -> SolveResult:
    """One :func:`solve` of *puzzle* with the options of *args*, with a progress display."""
    total = 1 if args.sampler == "exact" else args.reads
    with progress.reads(total, label or f"{args.sampler} sampling", enabled=progress_enabled(args)) as tick:
        return solve(puzzle, args.sampler, tick=tick, **solve_arguments(args, puzzle, schedule, qpu, knobs))


def run(args: argparse.Namespace) -> int:
    if wants_tournament_solve(args):  # a whole collection: every puzzle, one answer file (cpsat)
        return solve_tournament(args)
    if args.sweep:
        return run_sweep(args)
    schedule, qpu, knobs = checked_options(args)
    inputs = _files_read(args)  # no output over a file it reads
    check_image_path(args.image, *inputs)
    check_output_folder(args.output, *inputs)
    puzzle = read_input(args)
    result = solve_once(args, puzzle, schedule, qpu, knobs)
    if args.output:
        with atomic_write(args.output) as fh:
            json.dump(sampleset_document(result), fh)
    model = f"{args.sampler} sampler" + (" (presolved)" if args.presolve else "")
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
    breaks = qpu_chain_breaks(result.batch)
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
    return 0 if result.best.valid else 1


def setting_args(args: argparse.Namespace, setting: dict[str, str]) -> argparse.Namespace:
    """A copy of *args* with the swept options of *setting* set as the command line would set them."""
    ns = copy.copy(args)
    for option, text in setting.items():
        action = args.sweep_actions[option]
        if option == "presolve":  # --presolve[=line|probe]: true/false, or the presolve by name
            word = text.lower()
            if word in ("true", "1", "yes", "false", "0", "no"):
                ns.presolve = word in ("true", "1", "yes")
                ns.presolve_method = "line"
            elif word in ("line", "probe"):
                ns.presolve, ns.presolve_method = True, word
            else:
                raise SolverError(f"--sweep: presolve={text}: its values are true, false, line and probe")
            continue
        if action.nargs == 0:  # a switch
            if text.lower() not in ("true", "false", "1", "0", "yes", "no"):
                raise SolverError(f"--sweep: {option} is a switch; its values are true and false, not {text!r}")
            value: Any = text.lower() in ("true", "1", "yes")
        elif action.nargs == "+":
            value = text.split()
        else:
            try:
                value = action.type(text) if callable(action.type) else text
            except (TypeError, ValueError):
                raise SolverError(f"--sweep: {option}={text}: not a valid value of --{option}") from None
            if action.choices is not None and value not in action.choices:
                raise SolverError(f"--sweep: {option}={text}: choose from {', '.join(map(str, action.choices))}")
        setattr(ns, action.dest, value)
    return ns


def prepare_settings(args: argparse.Namespace, puzzle: Puzzle | Qubo,
                     plan: list[tuple[str, argparse.Namespace, Any]]) -> list[Prepared]:
    """Every setting of a sweep prepared (:func:`~nonoqubo.solvers.sampling.prepare`): its model built
    (once per presolve method, shared), its warm start matched to it, its QPU parameters and embedding
    checked, before the first setting samples.  A bad one is one line naming its setting."""
    models: dict[str, Models] = {}
    base = models_of(puzzle, **args.model_options, source=args.puzzle if isinstance(puzzle, Qubo) else None)
    ready: list[Prepared] = []
    for name, ns, (schedule, qpu, knobs) in plan:
        ns.model_options = args.model_options
        method = "probe" if ns.presolve_method == "probe" else "line"
        shared = models.setdefault(method, Models(base.puzzle, base.qubo, presolve_method=method))
        earlier = next((p.decoder for p in ready if p.models is shared and bool(p.presolve) == bool(ns.presolve)), None)
        try:
            ready.append(prepare(puzzle, ns.sampler, models=shared, decoder=earlier,
                                 **solve_arguments(ns, puzzle, schedule, qpu, knobs)))
        except MissingDependency:
            raise
        except NonoquboError as exc:
            raise SolverError(f"--sweep {name}: {exc}") from None
    return ready


def sweep_file_name(path: str) -> str:
    """The run file's name in each setting's folder: PUZZLE's file name without its format endings, ``.json``.

    ``random-10x10-0.5-s1-0001.one-hot.qubo.json`` -> ``random-10x10-0.5-s1-0001.one-hot.json``, so
    a suite's ``evaluate`` finds its puzzle by the name's start.
    """
    name = os.path.basename(path.rstrip("/\\")) or "puzzle"
    while (stem := os.path.splitext(name))[1][1:].isalpha() and stem[0]:
        name = stem[0]
    return name + ".json"


def run_sweep(args: argparse.Namespace) -> int:
    """``solve --sweep``: every setting checked, the puzzle read once, one run file per setting under -o DIR."""
    if not args.output:
        raise SolverError("--sweep writes one run file per setting: give -o DIR (a folder)")
    if os.path.exists(args.output) and not os.path.isdir(args.output):
        raise SolverError(f"-o {args.output}: --sweep writes into a folder, and this is a file")
    if args.image:
        raise SolverError("--image shows one picture; with --sweep, decode a setting's run file instead")
    grid = parse_sweep(args.sweep, SWEEPABLE)
    file_name = sweep_file_name(args.puzzle)
    plan = []
    for setting in settings(grid):  # every setting checked before anything is read or sampled
        ns = setting_args(args, setting)
        try:
            plan.append((setting_name(setting), ns, checked_options(ns)))
        except NonoquboError as exc:
            raise SolverError(f"--sweep {setting_name(setting)}: {exc}") from None
        check_not_input(os.path.join(args.output, plan[-1][0], file_name), *_files_read(ns))
    puzzle = read_input(args)
    ready = prepare_settings(args, puzzle, plan)  # every setting's model and inputs, before any sampling
    lines, any_valid = [], False
    for (name, ns, _), prepared in zip(plan, ready):
        total = 1 if ns.sampler == "exact" else ns.reads
        with progress.reads(total, name, enabled=progress_enabled(ns)) as tick:
            result = prepared.run(tick)
        folder = os.path.join(args.output, name)
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, file_name)
        with atomic_write(path) as fh:
            json.dump(sampleset_document(result), fh)
        any_valid |= result.best.valid
        lines.append({"setting": name, "file": path, "num_samples": len(result.analysis),
                      "num_valid": result.num_valid, "best_energy": int(result.analysis.energy.min())})
        if not args.json:
            print(f"{name}: {result.num_valid} of {len(result.analysis)} valid, best energy "
                  f"{lines[-1]['best_energy']} -> {path}", flush=True)
    if args.json:
        print(json.dumps({"sweep": lines}, indent=2))
    elif not args.quiet:
        print(f"compare them: nonoqubo evaluate {args.puzzle} {args.output}")
    return 0 if any_valid else 1
