"""``nonoqubo evaluate``: success probability, TTS99, residual energies and what breaks, per setting.

The command owns the arguments and the text table; judging the samples is
:mod:`nonoqubo.campaign.evaluate`'s, the figures :mod:`nonoqubo.campaign.plots`' (their numbers
:mod:`nonoqubo.campaign.aggregate`'s), the HTML report :mod:`nonoqubo.campaign.report_html`'s.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shlex
import sys
from typing import Any

from .._util.atomic import atomic_write
from ..campaign.aggregate import CENSORED_NOTE, cost_cell, group_stages, percent, solutions_label
from ..campaign.evaluate import BY_OPTION, Group, check_options, csv_text, evaluate, records, scored, set_aside, status
from ..campaign.runs import describe, qpu_words
from ..campaign.qoblib_submission import check_submission, submission_line, write_submission
from .._util.progress import steps
from ._common import add_force_argument, check_output_folder

ORDER = 65

HELP = "judge a benchmark campaign: success probability, TTS99, residual energy per model and setting"
DESCRIPTION = """\
Decode every sample file against MODEL (an exported model, a clue file, or a
folder written by 'nonoqubo suite') and report, per model and setting: the
samples, the success probability p with its 95 % Wilson interval, TTS99 =
t ln(0.01)/ln(1-p) with its interval (inf when p = 0, t when p >= 0.99), the
residual energy (min, quantiles, max), the share of samples with broken
walls / order violations / cell conflicts, and the lines and cells most often
wrong, and the distinct valid pictures the samples found ("solutions": found
of known, e.g. 2/3; the known count comes from a suite indexed with
'suite --truth', '>=2' when CP-SAT counted only up to its limit, '?' when
unknown).

Runs are grouped by setting: what each file's run record says ('solve -o'
writes it: the sampler, every parameter but the seed and the reads, and the
encoding and weights of the model sampled), wherever the files lie, so a flat
folder of sa and tabu runs gives two rows.  A setting keeps its folder's name
when that folder holds exactly it (runs/sa-1000/), else it is named from the
record (sa sweeps=100); the lines under the table, and "setting_record" in
--json, say what each setting is.  A file that records no run is grouped by
its folder (or, in sub-folders, each sub-folder: runs/qbsolv/*.txt).
--setting NAME pools every file into one setting NAME, whatever they record.
A runs folder's other files (a log, a .out) are skipped, with one note.

Every run is scored against the model it was drawn from: its record's
encoding and weights.  Given a clue file or a suite folder, that model is
rebuilt from the clues; given a model file of another encoding or weights,
the run is refused.  A model presolve solved completely (0 variables) is
"solved by presolve" and a puzzle CP-SAT proved unsolvable ('suite --truth':
0 solutions) "unsolvable" (ground energy none, its best known energy beside):
both are counted above the table and left out of p, TTS and the figures.

The seconds per run t come from the files (the run record's seconds_per_run;
a real QPU's qpu_access_time per read; dimod SampleSet info timing, qbsolv's
seconds line, MQLib's runtime) or from --time; the table's lines name the
source.  --embedding EMB.json scores a QPU's qubit-labelled SampleSets, mapped
back through the embedding's chains as 'decode --embedding' does.  With a
suite folder as MODEL, a sample file belongs to the puzzle whose name starts
its file name.

A model file whose reading would take more memory than is available (about
10 bytes a byte of the file), or a clue file whose model would, is refused
first, in one line with the estimate (exit status 2); --force reads it anyway.

--polish runs a steepest descent from every sample first (dwave-samplers) and
reports the polished figures beside the raw ones.

--report writes one self-contained HTML page (works offline, figures embedded
as SVG): the command, date, version, machine and each setting's sampler and
parameters (as 'solve -o' records them), then the figures, then the table.
--figures DIR writes every figure as DIR/NAME.svg, NAME.pdf and NAME.csv (the
numbers drawn): p-vs-size, tts-vs-size (r99-vs-size when a setting's files
record no time per run: R99, the runs to 99 %, instead of seconds),
energy-N, conflicts-N, best-N (pages of 24 panels).  The size plots show per
setting the median and quartiles across the instances of each size class (a
random family of the suite, or a bin 2^k <= variables < 2^(k+1)) over the
instances drawn faintly; a model with no success (p = 0) is drawn as a bound
at the upper end of its 95 % Wilson interval (needs matplotlib: the campaign
extra).

--submission DIR --submitter NAME writes the campaign as a QOBLIB submission
(the Quantum Optimization Benchmarking Library): per instance DIR/NAME/ with
NAME_summary.csv (QOBLIB's 27 required columns: runs = reads, feasible and
successful runs = those of energy 0, mean seconds per run as CPU or QPU
runtime, the machine the run files record ...), NAME_solution.pbm (the best
sample's picture) and NAME_objective_time_series.json, which QOBLIB's
misc/check_submission.py accepts with the class's check/check_nonogram.py
(a class written by 'suite --layout qoblib').  One setting per instance; DIR
must be new or empty; --reference TEXT fills the Reference column.

Progress goes to standard error: a bar on a terminal; in a log or a batch job
one line per 10 % of the files (and of the figures) once a stage has run 5 s.
-q prints nothing but errors and warnings when --csv, --report or --figures
hold the output.  Censored points (no success) are drawn as one-sided 95 %
bounds: open markers with an arrow, never joined to measured points.

examples:
  nonoqubo evaluate logo.qubo.json runs/ --report report.html
  nonoqubo evaluate heart.non runs/              # runs/heart.sa.json, runs/heart.tabu.json: two rows
  nonoqubo evaluate logo.qubo.json qpu-runs/ --embedding emb.json
  nonoqubo evaluate suite/ runs/ --polish --json > figures.json
  nonoqubo evaluate suite/ runs/ --report report.html --figures figures/
  nonoqubo evaluate 10-nonogram/ runs/ --submission 10-nonogram/submissions/20261202_SA_Doe --submitter "J. Doe (ZIB)"
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("evaluate", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", metavar="MODEL", help="exported model, clue file, or suite folder")
    parser.add_argument("samples", nargs="+", metavar="SAMPLES", help="sample files and folders of them")
    parser.add_argument("--setting", metavar="NAME",
                        help="pool every file into one setting NAME (default: each file's run record, else its folder)")
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS",
                        help="seconds per run (overrides what the files record)")
    parser.add_argument("--polish", action="store_true",
                        help="also judge the samples after a steepest-descent pass (dwave-samplers)")
    parser.add_argument("--samples-format", metavar="FORMAT", help="the samples' format (default: detect per file)")
    parser.add_argument("--embedding", metavar="EMB.json",
                        help="the samples are a QPU's, on qubits: unembed them through this embedding (as decode)")
    parser.add_argument("--chain-break", metavar="METHOD", default=None,
                        help="with --embedding: how a broken chain gives its variable (default majority)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON instead of a table")
    parser.add_argument("--csv", metavar="FILE", help="also write the figures as CSV")
    parser.add_argument("--report", metavar="FILE", help="also write a self-contained HTML report with plots")
    parser.add_argument("--figures", metavar="DIR",
                        help="also write every figure as SVG, PDF and the CSV of its numbers into DIR, made if missing (default: none)")
    parser.add_argument("-j", "--jobs", type=int, default=None, metavar="N",
                        help="worker processes (default: the number of CPUs)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="print nothing but errors: no progress, and no table when --csv, --report or --figures "
                             "write the figures (--json still prints)")
    qoblib = parser.add_argument_group("QOBLIB submission")
    qoblib.add_argument("--submission", metavar="DIR", help="also write a QOBLIB submission into DIR (new or empty)")
    qoblib.add_argument("--submitter", metavar="NAME", help="the Submitter column: name(s) and affiliation(s)")
    qoblib.add_argument("--reference", metavar="TEXT",
                        help="the Reference column: a paper or repository (default: nonoqubo's version)")
    add_force_argument(parser)
    parser.set_defaults(run=run)
    return parser


_pct = percent


def _num(x: Any) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{x:.3g}"


_solutions = solutions_label


def command_line(args: argparse.Namespace) -> str:
    """The command as it was given (the options that differ from their defaults), for the report."""
    words = ["nonoqubo", "evaluate", args.model, *args.samples]
    for flag, value in (("--setting", args.setting), ("--time", args.time), ("--samples-format", args.samples_format),
                        ("--embedding", args.embedding), ("--chain-break", args.chain_break),
                        ("--csv", args.csv), ("--report", args.report), ("--figures", args.figures),
                        ("-j", args.jobs)):
        if value is not None:
            words += [flag, str(value)]
    words += [flag for flag, on in (("--polish", args.polish), ("--json", args.json), ("--force", args.force)) if on]
    return shlex.join(words)


def table(groups: list[Group]) -> str:
    """The terminal table (one line per model, setting and stage; encoding and weights columns when they vary)."""
    head: tuple[str, ...] = ("model", "setting", "stage", "samples", "p [95% CI]", "TTS99 s [95% CI]", "E min/med/q90",
            "walls", "order", "cells", "solutions")
    variants = {(g.info.get("encoding"), g.info.get("weights")) for g in groups}
    ab = len(variants) > 1
    if ab:
        head = head[:2] + ("encoding", "weights") + head[2:]
    rows = [head]
    censored = False
    for g in groups:
        for stage in group_stages(g):  # a polished row only where polishing changed an energy
            f = g.figures(stage)
            extra = (str(g.info.get("encoding")), str(g.info.get("weights"))) if ab else ()
            p_text = (f"{f['p']:.3f} [{f['p_lo']:.3f}, {f['p_hi']:.3f}]" if g.scored
                      else f"({status(g)}: not scored)")
            cost_text = cost_cell(f, "tts99", _num) if g.scored else "-"
            censored = censored or (g.scored and f["tts99_bound"] is not None)
            rows.append((g.model, g.setting, *extra, stage, str(f["samples"]), p_text, cost_text,
                         f"{f['energy_min']}/{f['energy_q50']}/{f['energy_q90']}",
                         _pct(f["share_broken_walls"]), _pct(f["share_order_violations"]),
                         _pct(f["share_cell_conflicts"]), _solutions(f)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = header_lines(groups)
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    if censored:
        lines.append(CENSORED_NOTE)
    lines += setting_lines(groups)
    for g in groups:
        f = g.figures("raw")
        if f["worst_lines"] or f["worst_cells"]:
            worst = ", ".join(f"{x['line']} {_pct(x['share'])}" for x in f["worst_lines"])
            cells = ", ".join(f"({x['row']},{x['column']}) {_pct(x['share'])}" for x in f["worst_cells"])
            lines.append(f"{g.model} / {g.setting}: most often wrong lines: {worst}; cells: {cells}")
    return "\n".join(lines)


def header_lines(groups: list[Group]) -> list[str]:
    """The lines above the table: the groups set aside from p, TTS and the figures, counted and named."""
    apart = set_aside(groups)
    out = []
    if apart["solved_by_presolve"]:
        pairs = apart["solved_by_presolve"]
        out.append(f"solved by presolve (0 variables left; not in p, TTS or the figures): {len(pairs)} of "
                   f"{len(groups)} model/setting pairs: " + ", ".join(f"{x['model']} / {x['setting']}" for x in pairs))
    if apart["unsolvable"]:
        pairs = apart["unsolvable"]
        out.append(f"proven unsolvable (CP-SAT: 0 solutions; ground energy none; not in p, TTS or the figures): "
                   f"{len(pairs)} of {len(groups)} model/setting pairs: "
                   + ", ".join(f"{x['model']} / {x['setting']} (best known energy {x['best_known_energy']})"
                               for x in pairs))
    return out


def setting_lines(groups: list[Group]) -> list[str]:
    """One line per setting under the table: what it is and where its time per run came from."""
    out = []
    seen: dict[str, set[str]] = {}
    for g in groups:
        what = (describe(g.setting_record) if g.setting_record is not None
                else "pooled by --setting" if g.grouped_by == BY_OPTION else "grouped by folder: the files record no run")
        seen.setdefault(g.setting, set()).add(f"{what}; time per run: {g.time_source}")
    for name, whats in sorted(seen.items()):
        out += [f"setting {name}: {w}" for w in sorted(whats)]
    # what a QPU (or the mock) returned, per model and setting: problem ids, timing, embedding, chain breaks
    out += [f"QPU {g.model} / {g.setting}: {qpu_words(g.run['qpu'])}"
            for g in groups if isinstance(g.run, dict) and isinstance(g.run.get("qpu"), dict)]
    return out


def run(args: argparse.Namespace) -> int:
    check_options(jobs=args.jobs, seconds=args.time)
    check_output_folder(args.csv, args.model, *args.samples)  # never over a file it reads
    if args.report or args.figures:  # a wrong name, a missing folder or matplotlib: say so before judging anything
        from ..campaign.plots import check_figures_folder, require_matplotlib
        from ..campaign.report_html import check_report_path

        check_report_path(args.report)
        check_output_folder(args.report, args.model, *args.samples)
        check_figures_folder(args.figures)
        require_matplotlib()
    check_submission(args.submission, args.submitter, args.model, args.samples, args.setting, args.force)
    quiet = args.quiet
    with steps(None, "judging sample files", quiet=quiet, unit=" files") as tick:
        groups = evaluate(args.model, args.samples, setting=args.setting, seconds=args.time,
                          polish=args.polish, samples_format=args.samples_format, jobs=args.jobs,
                          progress=tick, force=args.force, embedding=args.embedding, chain_break=args.chain_break,
                          # shown even with -q, as warnings are: files of the runs folder were not judged
                          note=lambda line: print(f"note: {line}", file=sys.stderr),
                          planned=tick.plan, in_order=bool(args.submission))
    report = plots = None
    drawn = scored(groups)  # solved by presolve, proven unsolvable: counted above the table, never drawn
    if (args.report or args.figures) and not drawn:
        from ..errors import NonoquboError

        raise NonoquboError("--report/--figures: every model is solved by presolve or proven unsolvable; "
                            "there is nothing to draw")
    if args.report or args.figures:
        from ..campaign.plots import count_plots, drawn_plots, write_figures

        formats = ("svg", "pdf") if args.figures else ("svg",)  # the report and --figures share the SVG
        with steps(count_plots(drawn), "drawing figures", quiet=quiet, unit=" figures") as tick:
            plots = drawn_plots(drawn, formats, jobs=args.jobs, progress=tick)
    if args.report:
        from ..campaign.report_html import render_report

        assert plots is not None  # made above for --report
        report = render_report(groups, title=f"nonoqubo evaluate {os.path.basename(args.model.rstrip('/'))}",
                               command=command_line(args), plots=plots)
    if args.figures and plots is not None:
        write_figures(plots, args.figures)
    if args.csv:
        with atomic_write(args.csv) as fh:
            fh.write(csv_text(groups))
    if report is not None:
        with atomic_write(args.report) as fh:
            fh.write(report)
    if args.submission:
        written = write_submission(groups, args.submission, submitter=args.submitter,
                                   from_suite=os.path.isdir(args.model), reference=args.reference)
        if not args.quiet:
            print(submission_line(written, args.submission), file=sys.stderr)
    if args.json:
        print(json.dumps({**set_aside(groups), "groups": records(groups)}, indent=1, allow_nan=False))
    elif not (quiet and (args.csv or args.report or args.figures)):  # -q: the files are the output
        print(table(groups))
    return 0
