"""What the sub-commands share: arguments, their checks, and the text of a report.

This module owns the pieces more than one command uses, so that no command imports
another: the PUZZLE arguments and :func:`load_puzzle`, ``--force``, ``--image`` and its
check, output-folder checks, the progress switch, the "no solution" wording of line
logic's contradictions, and :func:`emit`, the text or JSON of decoded samples
(``decode``, ``solve``); the embedding search options of ``info --topology`` and ``suite
--embed`` and the status line of a search that holds the GIL (``embed``, ``info``); a whole
tournament collection's printing (``check``, ``decode``) and solving (``solve --tournament-answers``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .._util.atomic import atomic_write, check_not_input, check_writable, wrote
from ..answers.decode import Report
from ..answers.render import report_svg, text_picture
from ..errors import Contradiction, NonoquboError, NoSolution, PuzzleError
from ..inputs import open_input
from ..logic.presolve import DEFAULT_PRESOLVE, PRESOLVES
from ..model.puzzle import Puzzle
from ._options import add, add_deprecated
from ._parser import OneOf

__all__ = ["add_cache_argument", "add_embed_search_arguments", "add_encoding_arguments",
           "add_force_argument", "add_image_argument", "add_presolve_argument", "add_puzzle_arguments",
           "chain_break_lines", "probe_summary",
           "check_embed_search_options", "check_image_path", "check_output_folder", "document", "emit", "topology_file",
           "encoding_options", "input_options", "load_puzzle", "no_solution_names", "progress_enabled",
           "PROGRESS_COMMANDS", "add_progress_argument", "progress_stage", "report_lines",
           "verdict", "write_image", "say_wrote", "print_tournament", "refuse_in_tournament", "solve_tournament",
           "wants_tournament_solve"]

#: items printed per section in text mode (--json lists everything)
TEXT_LIMIT = 40


def add_puzzle_arguments(parser: argparse.ArgumentParser, name: str = "puzzle") -> None:
    """PUZZLE plus --from, --index and --name."""
    parser.add_argument(
        name,
        metavar=name.upper(),
        help="clue file in any supported format (see 'nonoqubo formats'); '-' reads standard input",
    )
    parser.add_argument(
        "--from", dest="from_format", metavar="FORMAT",
        help="clue format, when the file's extension and content do not tell",
    )
    parser.add_argument(
        "--index", type=int, default=None, metavar="N",
        help="which puzzle of a file that holds several: counted from 1 (webpbn XML, .nin, Tatham "
             "game ids; default the first), but from 0 in a Gecode C++ file, in the order of its "
             "specs[] table, like Gecode's own -size N",
    )
    parser.add_argument(
        "--name", dest="spec_name", metavar="NAME",
        help="which spec of a Gecode C++ file, by its declared name (e.g. castle)",
    )


def input_options(args: argparse.Namespace) -> dict[str, Any]:
    """The clue reader's options from ``--index`` and ``--name`` (only those given)."""
    options: dict[str, Any] = {}
    if getattr(args, "index", None) is not None:
        options["index"] = args.index
    if getattr(args, "spec_name", None) is not None:
        options["name"] = args.spec_name
    return options


def load_puzzle(args: argparse.Namespace, name: str = "puzzle") -> Puzzle:
    """Read the puzzle named on the command line (:func:`nonoqubo.inputs.open_input`: a clue file only)."""
    return open_input(getattr(args, name), what="clues", command=getattr(args, "command", None),
                      from_format=getattr(args, "from_format", None), options=input_options(args))


def check_output_folder(path: str | None, *inputs: str | None) -> None:
    """Refuse, before any work, an output file whose folder does not exist, or that is one of the
    command's *inputs* (every file it opens: no command writes over what it reads)."""
    check_writable(path)
    check_not_input(path, *inputs)


#: the commands that show progress, and so take ``--progress`` / ``--no-progress`` (:func:`add_progress_argument`)
PROGRESS_COMMANDS = ("build", "decode", "embed", "evaluate", "info", "run", "solve", "suite")


def add_progress_argument(parser: argparse.ArgumentParser) -> None:
    """``--progress`` / ``--no-progress``: progress shows on a terminal only, as git's does, unless forced either way."""
    parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                        help="show progress even when standard error is not a terminal (a log), or never "
                             "(default: on a terminal, without -q)")


def progress_enabled(args: argparse.Namespace) -> bool:
    """Show progress as ``--progress`` / ``--no-progress`` say; else only on a terminal and without --quiet."""
    from .._util.progress import enabled

    return enabled(getattr(args, "quiet", False), getattr(args, "progress", None))


def progress_stage(args: argparse.Namespace) -> Any:
    """A counted stage's progress as the command line asks (:func:`nonoqubo._util.progress.steps`):
    ``stage(total, desc, unit=..., after=...)``, its lines written to a log only with ``--progress``."""
    from .._util.progress import steps

    def stage(total: int | None, desc: str, **kw: Any) -> Any:
        kw["quiet"] = not progress_enabled(args)
        return steps(total, desc, forced=getattr(args, "progress", None) is True, **kw)

    return stage


@contextlib.contextmanager
def no_solution_names(source: str) -> Iterator[None]:
    """A presolve's :class:`~nonoqubo.errors.Contradiction` becomes an error naming *source* and saying what it means.

    A solver's verdict (:class:`~nonoqubo.errors.NoSolution`, CP-SAT's proof) stays a verdict, and
    names *source* too.  Other puzzle errors (bad clues) pass as they are.
    """
    try:
        yield
    except NoSolution as exc:
        if str(exc).startswith(f"{source}:"):
            raise
        raise NoSolution(f"{source}: {exc}") from None
    except Contradiction as exc:
        who = "probing" if str(exc).startswith("probing:") else "line logic"
        raise PuzzleError(f"{source}: the puzzle has no solution, {who} proves it: {exc}") from None


class _Presolve(OneOf):
    """``--presolve [line|probe]``: ``args.presolve`` the switch (True), ``args.presolve_method`` the presolve.

    A :class:`~nonoqubo.cli._parser.OneOf`: the word after a bare ``--presolve`` is its value only
    when it names a presolve, so ``info --presolve PUZZLE`` keeps its puzzle.
    """

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        namespace.presolve = True
        namespace.presolve_method = self.checked(values)


def add_presolve_argument(parser: argparse.ArgumentParser | argparse._ArgumentGroup, what: str) -> None:
    """``--presolve [line|probe]`` (*what* it does): bare, line logic (as it always was); ``probe``, probing on top.

    ``args.presolve`` stays the switch every command read before (False without the option) and
    ``args.presolve_method`` names the presolve (``"line"`` by default).
    """
    parser.add_argument("--presolve", action=_Presolve, one_of=PRESOLVES, const=DEFAULT_PRESOLVE, default=False,
                        metavar="line|probe",
                        help=f"{what}: line logic (bare --presolve, the default) or 'probe' (one-cell probing on "
                             "top of it, then the model's variables where cells stay open: fixes more where line "
                             "logic stalls, slower; see 'info --truth')")
    parser.set_defaults(presolve_method=DEFAULT_PRESOLVE)


def probe_summary(probe: Any, seconds: float) -> str:
    """The line of what probing settled (``build``/``info --presolve probe``), from a
    :class:`~nonoqubo.logic.probe.ProbeResult` and the presolve's time."""
    rounds = f"{probe.rounds} round{'' if probe.rounds == 1 else 's'}"
    on_vars = "" if not probe.variable_rounds else (
        f" + {probe.variable_probes} on variables ({probe.variable_rounds} round{'' if probe.variable_rounds == 1 else 's'})")
    return (f"probing:     {probe.line_settled} -> {probe.settled} of {probe.cells} cells settled "
            f"({'solved' if probe.solved else 'not solved'}), {rounds}, {probe.probes} probes{on_vars} "
            f"({probe.contradictions} contradictions), {seconds:.3f} s")


def add_force_argument(parser: argparse.ArgumentParser) -> None:
    """``--force``: build even when the model's estimated size exceeds the available memory."""
    parser.add_argument("--force", action="store_true",
                        help="build or read the model even when the estimate of its size says it will not fit "
                             "in memory")


def add_encoding_arguments(parser: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    """``--encoding`` and ``--weights``: which QUBO of the puzzle (``build``, ``info``, ``solve``, ``decode``).

    Neither has a value when not given, so a command can tell a model file's own encoding from an
    asked one; :func:`encoding_options` gives the defaults (the default encoding, weights 1).
    The help lists the registered encodings (:mod:`nonoqubo.model.encodings`).
    """
    from ..model.encodings import DEFAULT, encodings

    add(parser, "encoding", "; ".join(f"{e.name}{' (default)' if e is DEFAULT else ''}: {e.title}" for e in encodings()))
    add(parser, "weights", "any subset, e.g. --weights cell=2")  # None when not given: encoding_options


def encoding_options(args: argparse.Namespace) -> dict[str, Any]:
    """``{"encoding": Encoding, "weights": Weights}`` from ``--encoding``/``--weights``, checked.

    Raises:
        UnknownEncoding: an unknown encoding (one line, exit 2).
        WeightsError: bad weights (one line, exit 2).
    """
    from ..model.encodings import encoding_named
    from ..model.weights import Weights, parse_weights

    encoding = encoding_named(getattr(args, "encoding", None), "--encoding")
    text = getattr(args, "weights", None)
    return {"encoding": encoding, "weights": Weights() if text is None else parse_weights(text)}


def add_truth_arguments(parser: argparse.ArgumentParser, what: str, unique: bool = False) -> None:
    """``--truth`` (*what* it adds), ``--truth-limit N`` and ``--truth-time SECONDS``: CP-SAT's solution count.

    *unique*: the command also has ``--unique``, whose CP-SAT proofs ``--truth-time`` limits too.
    """
    from ..solvers.cpsat import TRUTH_TIME

    parser.add_argument("--truth", action="store_true", help=f"count the solutions with CP-SAT: {what}")
    parser.add_argument("--truth-limit", type=int, default=2, metavar="N",
                        help="count solutions up to N (default 2: enough to prove uniqueness)")
    also = ", and of each --unique proof (a draw it stops is not kept)" if unique else ""
    parser.add_argument("--truth-time", type=float, default=TRUTH_TIME, metavar="SECONDS",
                        help=f"CP-SAT time limit per search of --truth{also} (default {TRUTH_TIME:g}); a count "
                             "it stops is never unique: it reads 'unknown (time limit)', or '>= k' after k >= 2")


def say_wrote(path: str, what: str, quiet: bool = False) -> None:
    """Say on standard error that *path* was written (:func:`nonoqubo._util.atomic.wrote`), unless *quiet*.

    Every command that writes a file says so this way, after what it prints on standard output
    (flushed first, so the line comes after it in a terminal and in a pipe alike).
    """
    if quiet:
        return
    sys.stdout.flush()
    print(wrote(path, what), file=sys.stderr)


def add_image_argument(parser: argparse.ArgumentParser, what: str = "the picture of the best sample") -> None:
    parser.add_argument(
        "--image", metavar="OUT.svg",
        help=f"also draw {what} as SVG (the file name must end in .svg): the grid with its clues, "
             "cells where row and column disagree ringed (the row's value as the fill, the column's as "
             "a small square), failing lines' clues bold and underlined with a marker, and a key",
    )


def check_image_path(path: str | None, *inputs: str | None) -> None:
    """Refuse an --image name that promises another format than the SVG that would be written, or
    that is one of the command's *inputs*."""
    if path and Path(path).suffix.lower() != ".svg":
        raise NonoquboError(f"{path}: --image writes SVG only; name the file .svg "
                            "(convert it afterwards, e.g. rsvg-convert -o out.png out.svg)")
    check_output_folder(path, *inputs)


def topology_file(spec: str | None) -> str | None:
    """The file a ``--topology`` names (``PATH.json`` or ``file:PATH``), or None for a family spec."""
    if not spec:
        return None
    return spec[5:] if spec.lower().startswith("file:") else spec


def document(puzzle: Puzzle, reports: list[Report], summary: dict[str, Any], which: str) -> dict[str, Any]:
    """The JSON document of ``decode --json`` (``schemas/report.schema.json``, kind 'decode')."""
    doc: dict[str, Any] = {
        "kind": "decode",
        "puzzle": {"name": puzzle.name, "width": puzzle.width, "height": puzzle.height},
    }
    doc.update(summary)
    doc["shown"] = which
    doc["samples"] = [r.to_dict() for r in reports]
    return doc


def emit(puzzle: Puzzle, reports: list[Report], summary: dict[str, Any], which: str, *,
         as_json: bool, source: str, image: str | None, best: Report) -> None:
    """Print the reports (text or JSON) and draw the image of *best* if asked."""
    if image:
        write_image(image, puzzle, best)
    if as_json:
        print(json.dumps(document(puzzle, reports, summary, which), indent=1))
        return
    n, k = summary["num_samples"], summary["num_valid"]
    print(f"{source}: {n} sample{'s' * (n != 1)}, {k} valid, best energy {summary['best_energy']}"
          + (" (samples numbered from 0, as in --json)" if n > 1 else ""))
    for k, r in enumerate(reports):
        if k:  # a blank line between two reports, none under the summary
            print()
        label = f"sample {r.index}" + (" (best)" if r is best else "")
        print("\n".join(report_lines(puzzle, r, label)))


def verdict(r: Report) -> str:
    """The report's verdict line (:attr:`Report.verdict`)."""
    return r.verdict


def report_lines(puzzle: Puzzle, r: Report, label: str) -> list[str]:
    """The text of one report: verdict, picture with marks, then every broken term."""
    h = puzzle.height
    extra = ""
    if r.num_occurrences is not None and r.num_occurrences != 1:
        extra = f", seen {r.num_occurrences} times"
    lines = [f"{label}: {verdict(r)}{extra}"]
    rows = [t for t in r.failing_line_index if t < h]
    cols = [t - h for t in r.failing_line_index if t >= h]
    lines += text_picture(r.grid, conflicts=r.conflicts, failing_rows=rows, failing_cols=cols, palette=r.palette)
    if len(r.palette) > 2:
        lines.append(f"(colours: {r.palette.legend()})")
    if r.valid:
        return lines
    lines.append("(X / o: a cell shown in a colour / as background where the row and the column give "
                 "different colours; < and ^: a line that does not match its clue)")
    sections = (
        (r.encoding.shape_section, r.broken_walls),
        (r.encoding.order_section, r.order_violations),
        ("cells where the row and the column disagree", r.cell_conflicts),
        ("lines that do not match their clue", r.failing_lines),
        ("violated constraints", r.violated_constraints or []),
    )
    for title, items in sections:
        if not items:
            continue
        lines.append(f"{title} ({len(items)}):")
        lines += [f"  {item}" for item in items[:TEXT_LIMIT]]
        if len(items) > TEXT_LIMIT:
            lines.append(f"  ... and {len(items) - TEXT_LIMIT} more (--json lists them all)")
    return lines


def write_image(path: str, puzzle: Puzzle, r: Report) -> None:
    """Draw report *r* as SVG into *path* (atomically): :func:`~nonoqubo.answers.render.report_svg`."""
    svg = report_svg(r, puzzle)
    with atomic_write(path) as fh:
        fh.write(svg)


class _SearchOption(argparse.Action):
    """Stores the value, and in ``args.embed_spelled`` the option's name as typed (``--tries`` or
    ``--embed-tries``), so that a refusal names the option the user wrote."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> None:
        setattr(namespace, self.dest, values)
        namespace.embed_spelled = {**(getattr(namespace, "embed_spelled", None) or {}), self.dest: option_string}


def add_embed_search_arguments(parser: argparse.ArgumentParser, *, short: bool = False) -> None:
    """``--embed-seed``, ``--embed-tries``, ``--embed-timeout`` and ``--no-cache``: the minorminer search of
    ``embed``, ``info --topology`` and ``suite --embed``, one definition (the limits are
    :func:`nonoqubo.qpu.embedding.check_search`'s, checked by :func:`check_embed_search_options`).

    *short*: also ``--tries`` and ``--timeout``, the names ``embed`` has always taken (the same options,
    two names each), and ``--seed``, a deprecated alias of ``--embed-seed`` (``--seed`` is a solve's
    random seed: :mod:`nonoqubo.cli._options`).
    """
    from ..qpu.embedding import MAX_TIMEOUT, MAX_TRIES, SEED_LIMIT

    def names(word: str) -> list[str]:
        return [f"--embed-{word}", *([f"--{word}"] if short else [])]

    if short:
        add_deprecated(parser, "--seed", "--embed-seed", "embed_seed", why="--seed is a solve's random seed", convert=int)
    parser.add_argument("--embed-seed", dest="embed_seed", action=_SearchOption, type=int, default=1, metavar="N",
                        help=f"minorminer's random seed of the first try, 0..{SEED_LIMIT - 1}; try i uses N + i "
                             "(default 1)")
    parser.add_argument(*names("tries"), dest="embed_tries", action=_SearchOption, type=int, default=1, metavar="N",
                        help="searches per model; the best is kept: the shortest longest chain, then the fewest "
                             f"qubits (default 1, at most {MAX_TRIES})")
    parser.add_argument(*names("timeout"), dest="embed_timeout", action=_SearchOption, type=float, default=1000.0,
                        metavar="SECONDS",
                        help=f"time limit of each try, minorminer's timeout (default 1000, minorminer's own; at "
                             f"most {MAX_TIMEOUT:g})")
    add_cache_argument(parser)


def add_cache_argument(parser: argparse.ArgumentParser) -> None:
    """``--no-cache``: bypass the embedding cache (``embed``, ``info --topology``, ``suite --embed``)."""
    parser.add_argument("--no-cache", action="store_true",
                        help="neither read nor write the embedding cache ($NONOQUBO_CACHE/embeddings, default "
                             "~/.cache/nonoqubo/embeddings)")


def check_embed_search_options(args: argparse.Namespace) -> None:
    """Refuse, before any work, a search minorminer cannot run or that would not end
    (:func:`nonoqubo.qpu.embedding.check_search`), naming each option as it was typed."""
    from ..qpu.embedding import check_search

    spelled = getattr(args, "embed_spelled", None) or {}

    def prefix(word: str) -> str:  # "--embed-" or, for embed's short names, "--"
        return str(spelled.get(f"embed_{word}", f"--embed-{word}"))[:-len(word)]

    check_search(args.embed_seed, 1, 1.0, prefix=prefix("seed"))
    check_search(1, args.embed_tries, 1.0, prefix=prefix("tries"))
    check_search(1, 1, args.embed_timeout, prefix=prefix("timeout"))


def chain_break_lines(breaks: dict, best: int) -> list[str]:
    """The text report of the chain breaks: overall, then the best sample and (a few) others."""
    per = breaks["per_sample"]
    kept = breaks.get("kept", list(range(len(per))))
    chains = breaks.get("chains")
    of = f" of {chains} chains" if chains else ""
    head = (f"chain breaks ({breaks['method']}): {breaks['overall']:.2%}{of} broken over all reads"
            + (f"; chain strength {breaks['chain_strength']:.4g}" if isinstance(breaks.get("chain_strength"),
                                                                                (int, float)) else ""))
    lines = [head]
    if breaks.get("samples_kept") is not None and breaks["samples_kept"] != breaks.get("samples_read"):
        lines.append(f"discard kept {breaks['samples_kept']} of {breaks['samples_read']} samples (the ones with "
                     "every chain intact; decoded samples are numbered among those)")
    if 0 <= best < len(kept):
        lines.append(f"best sample {best}: {per[kept[best]]:.2%} of its chains broken")
    shown = per[:TEXT_LIMIT]
    lines.append("per sample read: " + ", ".join(f"{f:.1%}" for f in shown)
                 + (f", ... ({len(per) - TEXT_LIMIT} more in --json)" if len(per) > TEXT_LIMIT else ""))
    return lines + qpu_lines(breaks.get("qpu"))


def qpu_lines(qpu: dict | None) -> list[str]:
    """The QPU call's lines: solver and problem ids, the access time and its parts, the parameters sent."""
    if not qpu:
        return []
    ids = qpu.get("problem_ids") or []
    lines = [f"QPU: {qpu.get('solver')}, problem {ids[0] if ids else 'id unknown'}"
             + (f" and {len(ids) - 1} more (one per spin-reversal transform)" if len(ids) > 1 else "")]
    timing = qpu.get("timing") or {}
    if "qpu_access_time" in timing:
        parts = ", ".join(f"{key.removeprefix('qpu_').replace('_', ' ')} {timing[key]:,.2f}"
                          for key in ("qpu_programming_time", "qpu_sampling_time", "qpu_anneal_time_per_sample")
                          if key in timing)
        lines.append(f"qpu_access_time {timing['qpu_access_time']:,.2f} µs ({parts})"
                     + ("; estimated by the mock's timing model, not measured" if qpu.get("estimated") else ""))
    emb = qpu.get("embedding") or {}
    if emb.get("qubits") is not None:
        lines.append(f"embedding: {emb['qubits']} qubits, longest chain {emb.get('longest_chain')}, mean chain "
                     f"{emb.get('mean_chain')}" + (f", from {emb['from']}" if emb.get("from") else "")
                     + (f"; chain breaks resolved by {qpu['chain_break_method']}" if qpu.get("chain_break_method") else ""))
    params = qpu.get("parameters") or {}
    if params or qpu.get("num_spin_reversal_transforms"):
        shown = {**params, **({"num_spin_reversal_transforms": qpu["num_spin_reversal_transforms"]}
                              if qpu.get("num_spin_reversal_transforms") else {})}
        lines.append("parameters sent: " + ", ".join(f"{k}={v}" for k, v in shown.items()))
    return lines


# -- whole tournament collections (check, decode, solve) ------------------------------------------
def refuse_in_tournament(args: argparse.Namespace, what: str, names: dict[str, str]) -> None:
    """Refuse, in one line before any work, the options *names* (``dest: --flag``) given with a whole collection.

    Raises:
        NonoquboError: one of them is given; *what* says which mode makes it meaningless.
    """
    given = [flag for dest, flag in names.items() if getattr(args, dest, None) not in (None, False)]
    if given:
        raise NonoquboError(f"{', '.join(given)}: {what} covers every puzzle of {args_puzzle(args)}; "
                            f"{'this option applies' if len(given) == 1 else 'these options apply'} to one puzzle")


def args_puzzle(args: argparse.Namespace) -> str:
    """The clue file the command was given (``PUZZLE`` or ``MODEL_OR_PUZZLE``)."""
    return str(getattr(args, "puzzle", None) or getattr(args, "model", ""))


def print_tournament(outcome: Any, as_json: bool) -> int:
    """Print a :class:`~nonoqubo.solvers.tournament.TournamentOutcome` (its lines, or its JSON); its exit status."""
    if as_json:
        print(json.dumps(outcome.to_dict(), indent=1))
    else:
        print("\n".join(outcome.lines()))
    return int(outcome.exit_status)


def solve_tournament(args: argparse.Namespace) -> int:
    """``solve PUZZLES --sampler cpsat [--tournament-answers OUT]``: every puzzle of the file
    (:func:`nonoqubo.solvers.tournament.solve_all`), one answer file."""
    from ..solvers.tournament import solve_all

    refuse_in_tournament(args, "--tournament-answers", {
        "output": "-o", "image": "--image", "count": "--count", "presolve": "--presolve",
        "embedding": "--embedding", "topology": "--topology", "encoding": "--encoding", "weights": "--weights",
        "sweep": "--sweep"})
    if args.tournament_answers:
        check_output_folder(args.tournament_answers, args.puzzle)
    with progress_stage(args)(None, "cpsat solving", unit=" puzzles") as tick:
        outcome = solve_all(args.puzzle, format=args.from_format, time_limit=args.time_limit, workers=args.workers,
                            answers_out=args.tournament_answers, plan=tick.plan, tick=lambda done: tick(1))
    status = print_tournament(outcome, args.json)
    if args.tournament_answers:
        say_wrote(args.tournament_answers, "tournament answers", quiet=args.quiet)
    return status


def wants_tournament_solve(args: argparse.Namespace) -> bool:
    """``solve`` on a whole collection (:func:`nonoqubo.solvers.tournament.solves_collection`): ``--tournament-answers``,
    or cpsat on a multi-puzzle file with no --index/--name."""
    from ..solvers.tournament import solves_collection

    return solves_collection(args.puzzle, sampler=args.sampler, format=args.from_format,
                             one_puzzle=args.index is not None or args.spec_name is not None,
                             answers_out=args.tournament_answers or None)
