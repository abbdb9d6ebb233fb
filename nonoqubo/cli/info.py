"""``nonoqubo info``: the puzzle's size and the model's figures, of a clue file or of an exported model.

The command owns the arguments and the text; the figures are the library's
(:meth:`nonoqubo.pipeline.Models.figures`, :func:`nonoqubo.pipeline.model_figures`).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .. import exports
from ..inputs import names_a_model
from ..qpu.physical import check_not_physical
from .._util.progress import spinner, status_line
from ..errors import FormatError, UnsupportedFormat
from ..model.encodings import DEFAULT
from ..model.estimate import LONG_WORK_TERMS, check_file_fits, check_fits
from ..model.puzzle import Puzzle
from ..model.qubo import Qubo
from ..pipeline import Models, model_figures
from ._common import (add_embed_search_arguments, add_encoding_arguments, add_force_argument, add_presolve_argument,
                      add_puzzle_arguments, add_truth_arguments, check_embed_search_options, encoding_options,
                      load_puzzle, no_solution_names, progress_enabled)
from ._options import add

ORDER = 10

HELP = "print the puzzle's size and the QUBO's figures (variables, terms, offset, ...)"
DESCRIPTION = """\
Build the expanded domain-wall QUBO of PUZZLE and print its figures: the grid
size, variables (row/column), terms (linear/quadratic), offset, coefficient
range, largest variable degree and build time.

With --presolve, also run line logic: the share of the grid it settles,
whether the puzzle is line-solvable, and the variables and terms left once
the domain-wall variables it decides are fixed (what 'build --presolve'
exports).  A puzzle that line logic proves unsolvable is an error naming the
line.  --presolve probe probes on top of line logic (every open cell tried
each way, to a fixpoint; where cells stay open, every open domain-wall
variable, "block b starts at or after cell j", tried both ways too: what
'build --presolve probe' exports) and also gives its rounds, probes and
contradictions.

PUZZLE may also be a model nonoqubo exported (any format 'decode' reads:
.qubo, .coo, .qs, .qplib, .mps, .lp, .csv, .mtx, .npz, .bqm, .json, .cqm, ...):
info then prints the figures of the file as written and the metadata it
carries (the puzzle, counts, offset, the variables a presolve fixed).
--presolve presolves it as 'solve MODEL --presolve' does (in its own
encoding; a presolved file keeps its fixings and gains the rest).

With --truth, also count the puzzle's solutions with CP-SAT (up to
--truth-limit, default 2, which decides uniqueness; needs ortools, the 'cp'
extra), say whether line logic alone solves it, and give CP-SAT's time to
the first solution and to finish the count (the proof).  In --json these are
the object "truth": solutions, solutions_exact (false: "at least"),
solutions_label, solutions_limit, unique, line_solvable, solve_seconds,
proof_seconds, timed_out.  Beside the count goes the puzzle's hardness
label: line-solvable, probe-solvable (probing settles what line logic
leaves) or needs-search (a hard core: probing stalls too), with the
variables left after line logic and after probing (in --json: hardness,
variables_after_line, variables_after_probe, settled_by_line,
settled_by_probe, probe_rounds), and the hard core's size counted two ways,
each named: the cells one-cell probing leaves open
(cells_open_after_cell_probing: each open cell tried in each colour with
line logic, as the tournament solvers' lookahead does) and the cells left
once nonoqubo also probes the model's variables
(cells_open_after_variable_probing; variables_after_probe counts its
variables).  Each CP-SAT search runs within --truth-time
seconds (default 60); a count it stops is never unique ("unknown (time
limit)").  A model file that carries its clues is counted too.

--encoding one-hot (and --weights) give the figures of that model instead;
its size is counted before it is built (one-hot has O(d^2) order terms per
pair of blocks).  A model file says its own encoding and weights.

With --topology T (pegasus:16, zephyr:12,4, chimera:16, or a QPU properties
.json; see 'nonoqubo embed --help'; needs the 'dwave' extra), also say
whether the model fits on that QPU: minorminer embeds the full model and the
presolved one (a model file: as written, and presolved when it carries its
clues), and info gives the qubits and the longest and mean chain of each, or
that none was found, or that presolve left nothing to embed.  Embeddings come
from and go to the cache 'nonoqubo embed' uses.  In --json: the object
"embedding": {"topology": {...}, "raw": {...}, "presolved": {...}}.

A model with no variables whose one assignment has an energy that is not 0
(the clues place every block, and cells disagree) proves that the puzzle has
no solution: info adds "solutions:   none: ..." (in --json: "no_solution")
and exits 1.

examples:
  nonoqubo info examples/qbpp-logo.yaml --presolve
  nonoqubo info examples/qbpp-logo.yaml --encoding one-hot
  nonoqubo info examples/qbpp-logo.yaml --truth --json
  nonoqubo info logo.qubo
  nonoqubo info puzzle.non --topology pegasus:16 --embed-timeout 300
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("info", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    add_puzzle_arguments(parser)
    add(parser, "json", "the figures, as one object")
    add_presolve_argument(parser, "also report what the presolve settles and the reduced model's size")
    add_truth_arguments(parser, "is it unique? Also say whether line logic solves it, and time the solve and the "
                                "proof")
    add_encoding_arguments(parser)
    add(parser, "topology", "also embed the model and the presolved one on it and give their qubits and chains "
                            "(default none)")
    add_embed_search_arguments(parser)
    add_force_argument(parser)
    parser.set_defaults(run=run)
    return parser


def _exported_model(args: argparse.Namespace) -> tuple[Any | None, Puzzle | None]:
    """``(model, None)`` when PUZZLE is a file nonoqubo exported, else ``(None, the puzzle if read)``.

    A ``.json`` file may be a QUBO JSON or a clue spec: when it is not a model it
    is read as clues once, here, and that puzzle is handed back.
    """
    if args.puzzle == "-" or args.from_format or args.index is not None or getattr(args, "spec_name", None):
        return None, None
    def fits(path: str) -> None:
        check_file_fits(path, force=args.force)

    if names_a_model(args.puzzle):  # read by that format or refused with its error
        return exports.load(args.puzzle, check=fits), None
    try:
        return exports.load(args.puzzle, check=fits), None
    except UnsupportedFormat:
        return None, None
    except FormatError as model_error:  # x.json: a QUBO JSON by its name, or a clue spec?
        try:
            return None, load_puzzle(args)
        except UnsupportedFormat:
            raise model_error from None


def print_model(path: str, info: dict[str, Any]) -> None:
    """The text of `info` on an exported model."""
    if info["width"] is None:
        print(f"{path}: a {info['kind']} model that carries no clues")
    else:
        title = f" {info['name']!r}" if info["name"] else ""
        print(f"{path}: the {info['kind']} model of puzzle{title}, {info['width']} x {info['height']} (width x height)")
    print(f"variables:   {info['variables']}")
    if info["kind"] == "constrained":
        kinds = ", ".join(f"{n} {k}" for k, n in info["constraint_kinds"].items())
        print(f"constraints: {info['constraints']} ({kinds}), {info['nonzeros']} nonzeros")
    else:
        print(f"terms:       {info['terms']} ({info['linear_terms']} linear + {info['quadratic_terms']} quadratic)")
        print(f"offset:      {info['offset']}")
        print(f"coefficients: {info['coefficient_min']} .. {info['coefficient_max']}")
        print(f"max degree:  {info['max_degree']}")
        print_encoding(info)
    if info["fixed_variables"]:
        by = "probing" if info.get("presolved_by") == "probe" else "line logic"
        print(f"presolved:   {info['fixed_variables']} variables fixed by {by} "
              f"({info['fixed_to_one']} to 1, {info['fixed_variables'] - info['fixed_to_one']} to 0); "
              "the file's variables are the ones left")


def print_presolve(info: dict[str, Any], pre: dict[str, Any]) -> None:
    """The lines of ``--presolve``: what line logic settles, and the model before and after."""
    print(f"{'presolve:   ' if pre.get('presolve') == 'probe' else 'line logic: '} {pre['settled_cells']} of "
          f"{pre['cells']} cells settled "
          f"({pre['settled_percent']:.2f} %), line-solvable: {'yes' if pre['line_solvable'] else 'no'}")
    print(f"presolve:    variables {info['variables']} -> {pre['variables_after_presolve']} "
          f"({pre['fixed_variables']} fixed), terms {info['terms']} -> {pre['terms_after_presolve']}, "
          f"offset {info['offset']} -> {pre['offset_after_presolve']}")
    if pre.get("presolve") == "probe":
        print(f"probing:     {pre['line_settled_cells']} -> {pre['settled_cells']} of {pre['cells']} cells settled "
              f"({'solved' if pre['probe_solvable'] else 'not solved'}), {pre['probe_rounds']} round"
              f"{'' if pre['probe_rounds'] == 1 else 's'}, {pre['probe_probes']} probes"
              + (f" + {pre['probe_variable_probes']} on variables ({pre['probe_variable_rounds']} round"
                 f"{'' if pre['probe_variable_rounds'] == 1 else 's'})" if pre.get("probe_variable_rounds") else "")
              + f" ({pre['probe_contradictions']} contradictions)")
    print(f"presolve time: {pre['presolve_seconds']:.3f} s")


def _presolve_model(model: Any, path: str, show: bool, method: str = "line") -> dict[str, Any]:
    """``info MODEL --presolve``: the model file presolved as ``solve MODEL --presolve`` presolves it.

    One meaning for one option (issue 33): line logic fixes the variables it decides, in the
    model's own encoding and weights; a model that was presolved already keeps its fixings and
    gains the rest.

    Raises:
        FormatError: a constrained model (no QUBO to presolve), or a model that carries no clues.
        PuzzleError: line logic proves the puzzle has no solution.
    """
    if not isinstance(model, Qubo):
        raise FormatError(f"{path}: --presolve presolves a QUBO model; this is a constrained model (its 0-1 "
                          "program is written from the clues: 'build --constrained --presolve' gives the reduced one)")
    if model.puzzle is None:
        raise FormatError(f"{path}: --presolve needs the clues, and this model file carries none; give the clue "
                          "file, or a model nonoqubo wrote")
    with spinner("presolving", enabled=show), no_solution_names(path):
        return Models(model.puzzle, model, presolve_method=method).presolve_figures()


def print_encoding(info: dict[str, Any]) -> None:
    """The encoding line, for a model that is not the default encoding at weights 1."""
    weights = info.get("weights") or {}
    if info.get("encoding", DEFAULT.name) != DEFAULT.name or any(v != 1 for v in weights.values()):
        print(f"encoding:    {info.get('encoding')}, weights "
              + ",".join(f"{k}={v}" for k, v in weights.items()))


def _truth(args: argparse.Namespace, puzzle: Puzzle | None, encoding: Any = DEFAULT) -> dict[str, Any] | None:
    """The ``truth`` object of ``--truth`` (None without it or without clues): CP-SAT's count and the
    hardness label (:func:`nonoqubo.logic.hardness.hardness`, the variables of *encoding*)."""
    if not getattr(args, "truth", False) or puzzle is None:
        return None
    from ..logic.hardness import hardness
    from ..solvers.cpsat import check_truth_options, truth

    check_truth_options(args.truth_limit, args.truth_time)
    with spinner("counting solutions (CP-SAT)", enabled=progress_enabled(args)):
        found = truth(puzzle, args.truth_limit, time_limit=args.truth_time).to_dict()
    with spinner("probing (hardness)", enabled=progress_enabled(args)):
        found.update(hardness(puzzle, encoding).to_dict())
    return found


def print_truth(found: dict[str, Any]) -> None:
    """The text of ``--truth``."""
    verdict = ("unique" if found["unique"] else "none" if found["solutions"] == 0 and found["solutions_exact"]
               else "not unique" if found["solutions"] > 1 else "undecided: raise --truth-time")
    print(f"solutions:   {found['solutions_label']} ({verdict}; CP-SAT, counted up to {found['solutions_limit']})")
    print(f"line logic:  {'solves it' if found['line_solvable'] else 'does not solve it alone'}")
    if "hardness" in found:
        print(f"hardness:    {hardness_text(found)}")
    print(f"CP-SAT time: {found['solve_seconds']:.3f} s to solve, {found['proof_seconds']:.3f} s to count")


def hardness_text(found: dict[str, Any]) -> str:
    """``probe-solvable (variables 400 -> 212 after line logic -> 0 after probing)``, then the open-cells line:
    ``open cells:  0 of 100 after one-cell probing, 0 after probing the model's variables``."""
    if found["variables_after_line"] is None:
        return f"{found['hardness']} (line logic finds a contradiction)"
    after = "a contradiction" if found["variables_after_probe"] is None else found["variables_after_probe"]
    text = (f"{found['hardness']} (variables {found['variables']} -> {found['variables_after_line']} after line "
            f"logic -> {after} after probing)")
    if found.get("cells_open_after_cell_probing") is not None:  # the hard core's size, both ways, each named
        text += (f"\nopen cells:  {found['cells_open_after_cell_probing']} of {found['cells']} after one-cell "
                 f"probing, {found['cells_open_after_variable_probing']} after probing the model's variables")
    return text


def _topology(args: argparse.Namespace) -> Any:
    """The ``--topology`` (parsed before any work), or None."""
    if not getattr(args, "topology", None):
        return None
    from ..qpu.topology import parse_topology

    check_embed_search_options(args)
    return parse_topology(args.topology)


def _fit(args: argparse.Namespace, topology: Any, raw: Any, presolved: Any) -> dict[str, Any]:
    """The ``embedding`` object: the topology, and :func:`nonoqubo.qpu.cache.fit_figures` of each model."""
    from ..qpu.cache import fit_figures

    show = progress_enabled(args)
    out: dict[str, Any] = {"topology": topology.describe()}
    for name, qubo in (("raw", raw), ("presolved", presolved)):
        if qubo is None:
            continue
        def step(message: str, name: str = name) -> Any:
            return status_line(f"{message} ({name} model)", show)

        out[name] = fit_figures(qubo, topology, presolved=name == "presolved" or bool(qubo.fixed),
                                seed=args.embed_seed, tries=args.embed_tries, timeout=args.embed_timeout,
                                use_cache=not args.no_cache, step=step)
    return out


def print_fit(fit: dict[str, Any]) -> None:
    """The text of ``--topology``."""
    top = fit["topology"]
    print(f"on {top['spec']} ({top['qubits']} qubits, {top['couplers']} couplers):")
    for name in ("raw", "presolved"):
        fig = fit.get(name)
        if fig is None:
            continue
        what = f"  {name + ':':10} {fig['variables']} variables, {fig['edges']} edges, max degree {fig['max_degree']}"
        if fig["status"] == "ok":
            cached = ", from the cache" if fig.get("cached") else ""
            print(f"{what} -> {fig['qubits']} qubits, longest chain {fig['longest_chain']}, mean chain "
                  f"{fig['mean_chain']:.2f} ({fig['seconds']:.2f} s{cached})")
        elif fig["status"] == "not found":
            print(f"{what} -> no embedding found in {fig['tries']} tr{'y' if fig['tries'] == 1 else 'ies'} of at "
                  f"most {fig['timeout']:g} s")
        else:
            print(f"  {name + ':':10} {fig['status']}")


def run(args: argparse.Namespace) -> int:
    options = encoding_options(args)  # before any work: one line, exit 2
    check_not_physical(args.puzzle, "info")
    if getattr(args, "truth", False):
        from ..solvers.cpsat import require

        require("--truth")
    topology = _topology(args)
    model, puzzle = _exported_model(args)
    if model is not None:
        figures_ = model_figures(model)
        found = _truth(args, getattr(model, "puzzle", None), getattr(model, "encoding", DEFAULT))
        if found is not None:
            figures_["truth"] = found
        elif getattr(args, "truth", False):
            print("nonoqubo: note: --truth needs the clues; this model carries none", file=sys.stderr)
        if args.presolve:  # what solve MODEL --presolve does: line logic fixes what it decides
            figures_["presolve"] = _presolve_model(model, args.puzzle, progress_enabled(args), args.presolve_method)
        if topology is not None:
            from ..pipeline import qubo_to_embed

            qubo, _ = qubo_to_embed(model, presolve=False, source=args.puzzle)
            reduced = None
            if not qubo.fixed and qubo.puzzle is not None:
                with no_solution_names(args.puzzle):
                    reduced, _ = qubo_to_embed(qubo, presolve=True, source=args.puzzle)
            figures_["embedding"] = _fit(args, topology, qubo, reduced)
        none = _no_solution(model, figures_)
        if args.json:
            print(json.dumps(figures_, indent=2))
        else:
            print_model(args.puzzle, figures_)
            if figures_.get("presolve"):
                print_presolve(figures_, figures_["presolve"])
            if found is not None:
                print_truth(found)
            if topology is not None:
                print_fit(figures_["embedding"])
            _print_no_solution(none)
        return 1 if none else 0
    if puzzle is None:
        puzzle = load_puzzle(args)
    est = check_fits(puzzle, args.puzzle, force=args.force, encoding=options["encoding"])
    if est.terms > LONG_WORK_TERMS:
        print(f"estimate: {est}", file=sys.stderr, flush=True)
    show = progress_enabled(args)
    with spinner("building QUBO", enabled=show):
        models = Models.build(puzzle, **options, presolve=args.presolve_method)
    info = models.figures()
    if getattr(args, "presolve", False):
        with spinner("presolving", enabled=show), no_solution_names(args.puzzle):
            info["presolve"] = models.presolve_figures()
    with no_solution_names(args.puzzle):
        found = _truth(args, puzzle, options["encoding"])
    if found is not None:
        info["truth"] = found
    if topology is not None:
        with no_solution_names(args.puzzle):
            reduced = models.presolve()
        info["embedding"] = _fit(args, topology, models.qubo, reduced)
    none = _no_solution(models.qubo, info)
    if args.json:
        print(json.dumps(info, indent=2))
        return 1 if none else 0
    title = f" {info['name']!r}" if info["name"] else ""
    print(f"puzzle{title}: {info['width']} x {info['height']} (width x height)")
    if puzzle.is_colour:
        print(f"colours:     {puzzle.num_colours} on {puzzle.palette.background.name}: {puzzle.palette.legend()}")
    print(f"variables:   {info['variables']} ({info['row_variables']} row + {info['column_variables']} column)")
    print(f"terms:       {info['terms']} ({info['linear_terms']} linear + {info['quadratic_terms']} quadratic)")
    print(f"offset:      {info['offset']}")
    print(f"coefficients: {info['coefficient_min']} .. {info['coefficient_max']}")
    print(f"max degree:  {info['max_degree']}")
    print_encoding(info)
    print(f"build time:  {info['build_seconds']:.3f} s")
    pre = info.get("presolve")
    if pre:
        print_presolve(info, pre)
    if found is not None:
        print_truth(found)
    if topology is not None:
        print_fit(info["embedding"])
    _print_no_solution(none)
    return 1 if none else 0


def _no_solution(model: Any, figures: dict[str, Any]) -> str | None:
    """Why the model proves that its puzzle has no solution (:attr:`Qubo.no_solution`), also put in *figures*
    as ``no_solution``; None when it does not."""
    why = getattr(model, "no_solution", None) if isinstance(model, Qubo) else None
    if why is not None:
        figures["no_solution"] = why
    return why


def _print_no_solution(why: str | None) -> None:
    if why is not None:
        print(f"solutions:   none: the puzzle has no solution: {why}")
