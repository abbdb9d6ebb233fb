"""Everything ``nonoqubo evaluate`` makes of a campaign, in order: judge, then draw, write, print.

:func:`write_outputs` is the command's whole work for an :class:`EvaluateOptions` (what the
command line says): it judges the campaign (:func:`nonoqubo.campaign.evaluate.evaluate`), draws
the figures once for ``--report`` and ``--figures`` (:mod:`nonoqubo.campaign.plots`), writes the
HTML page (:mod:`nonoqubo.campaign.report_html`), the figures, the CSV
(:func:`~nonoqubo.campaign.evaluate.csv_text`) and the QOBLIB submission
(:mod:`nonoqubo.campaign.qoblib_submission`), and returns what is to be printed: the JSON or the
text table (:func:`table`) for standard output, the submission's line for standard error.
:func:`check_outputs` refuses, before any file is judged, everything it would refuse later.  The
CLI only parses the arguments into the options, shows progress, and prints.

The text table (:func:`table`) prints each group's numbers as :mod:`nonoqubo.campaign.aggregate`
makes them (:meth:`~nonoqubo.campaign.aggregate.Group.figures`): one row per model, setting and
stage (a polished row only where polishing changed an energy), encoding and weights columns in a
campaign of several variants; above it the groups set aside (solved by presolve, proven
unsolvable), under it the censored note, one line per setting (what it is, where its time per
run came from), what a QPU returned, and the most often wrong lines and cells.

Examples:
    >>> command_line(EvaluateOptions("suite", ("runs",), time=0.5, polish=True))
    'nonoqubo evaluate suite runs --time 0.5 --polish'
"""

from __future__ import annotations

import contextlib
import json
import os
import shlex
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ContextManager

from .._util.atomic import atomic_write, check_distinct_outputs, check_not_inputs, check_writable, wrote
from .._util.progress import Steps, steps as progress_steps
from ..errors import NonoquboError
from .aggregate import BY_OPTION, CENSORED_NOTE, by_setting, Group, cost_cell, group_stages, percent, solutions_label
from .evaluate import check_options, csv_text, evaluate, records, scored, set_aside, set_aside_named, status
from .qoblib_submission import check_submission, submission_line, write_submission
from .runs import describe, qpu_words

__all__ = ["EvaluateOptions", "Outputs", "check_outputs", "command_line", "header_lines", "setting_lines", "table",
           "write_outputs"]

#: a progress stage: ``stage(total, description, quiet=..., unit=...)`` as :func:`nonoqubo._util.progress.steps`
Stage = Callable[..., ContextManager[Steps]]


@dataclass(frozen=True)
class EvaluateOptions:
    """What ``nonoqubo evaluate`` is asked (its options, named as on the command line)."""

    model: str
    samples: tuple[str, ...]
    setting: str | None = None
    time: float | None = None
    polish: bool = False
    samples_format: str | None = None
    embedding: str | None = None
    chain_break: str | None = None
    json: bool = False
    csv: str | None = None
    report: str | None = None
    figures: str | None = None
    jobs: int | None = None
    quiet: bool = False
    submission: str | None = None
    submitter: str | None = None
    reference: str | None = None
    force: bool = False


@dataclass
class Outputs:
    """What :func:`write_outputs` made: the groups, and what is to be printed."""

    groups: list[Group]
    #: the JSON or the text table for standard output; None when ``-q`` leaves the files as the output
    stdout: str | None = None
    #: lines for standard error: every file written (:func:`nonoqubo._util.atomic.wrote`), the submission; none with ``-q``
    messages: list[str] = field(default_factory=list)


def command_line(options: EvaluateOptions) -> str:
    """The command as it was given (the options that differ from their defaults), for the report."""
    words = ["nonoqubo", "evaluate", options.model, *options.samples]
    for flag, value in (("--setting", options.setting), ("--time", options.time),
                        ("--samples-format", options.samples_format), ("--embedding", options.embedding),
                        ("--chain-break", options.chain_break), ("--csv", options.csv), ("--report", options.report),
                        ("--figures", options.figures), ("-j", options.jobs)):
        if value is not None:
            words += [flag, str(value)]
    words += [flag for flag, on in (("--polish", options.polish), ("--json", options.json),
                                    ("--force", options.force)) if on]
    return shlex.join(words)


def check_outputs(options: EvaluateOptions) -> None:
    """Refuse, before any file is judged, what :func:`write_outputs` would refuse.

    Raises:
        NonoquboError: a bad ``-j`` or ``--time``; an output file in a missing folder, or on what the
            command reads (:func:`~nonoqubo._util.atomic.check_not_inputs`: an input, a file of an
            input folder or its index, an output folder inside a SAMPLES folder); a ``--report`` not named ``.html``, a ``--figures`` folder that is a file, no
            matplotlib; what :func:`~nonoqubo.campaign.qoblib_submission.check_submission` refuses.
    """
    check_options(jobs=options.jobs, seconds=options.time)
    outputs = (("--csv", options.csv), ("--report", options.report), ("--figures", options.figures),
               ("--submission", options.submission))
    check_distinct_outputs(*outputs)  # no output over another
    # never over what it reads: MODEL, a sample file, the embedding, a file of SAMPLES' folders or of the suite
    # folder, its index; no output folder in a SAMPLES folder (the next evaluate would read its files as runs)
    check_not_inputs(outputs, (options.model, *options.samples, options.embedding), walked=options.samples)
    check_writable(options.csv)
    if options.report or options.figures:  # a wrong name, a missing folder or matplotlib: said before judging
        from .plots import check_figures_folder, require_matplotlib
        from .report_html import check_report_path

        check_report_path(options.report)
        check_writable(options.report)
        check_figures_folder(options.figures)
        require_matplotlib()
    check_submission(options.submission, options.submitter, options.model, list(options.samples), options.setting,
                     options.force)


@contextlib.contextmanager
def _silent(total: int | None, desc: str, **kw: Any) -> Iterator[Steps]:
    with progress_steps(total, desc, quiet=True) as tick:
        yield tick


def write_outputs(options: EvaluateOptions, *, stage: Stage | None = None,
                  note: Callable[[str], None] | None = None) -> Outputs:
    """Judge the campaign and write every output asked, in order (the module docstring).

    Args:
        options: what the command was asked (checked first, :func:`check_outputs`).
        stage: how a stage's progress is shown (:func:`nonoqubo._util.progress.steps`; default: not shown).
        note: called with a line naming the files of a runs folder that are no sample files.

    Returns:
        The groups, and the text to print (:class:`Outputs`).

    Raises:
        NonoquboError: what :func:`check_outputs` and :func:`~nonoqubo.campaign.evaluate.evaluate`
            refuse; ``--report``/``--figures`` when every group is set aside (nothing to draw).
    """
    check_outputs(options)
    stage = stage or _silent
    quiet = options.quiet
    with stage(None, "judging sample files", quiet=quiet, unit=" files") as tick:
        groups = evaluate(options.model, list(options.samples), setting=options.setting, seconds=options.time,
                          polish=options.polish, samples_format=options.samples_format, jobs=options.jobs,
                          progress=tick, force=options.force, embedding=options.embedding,
                          chain_break=options.chain_break, note=note, planned=tick.plan,
                          in_order=bool(options.submission))
    out = Outputs(groups)
    draw = bool(options.report or options.figures)
    drawn = scored(groups)  # solved by presolve, proven unsolvable: counted above the table, never drawn
    if draw and not drawn:
        raise NonoquboError("--report/--figures: every model is solved by presolve or proven unsolvable; "
                            "there is nothing to draw")
    plots = report = None
    if draw:
        from .plots import count_plots, drawn_plots

        formats = ("svg", "pdf") if options.figures else ("svg",)  # the report and --figures share the SVG
        with stage(count_plots(drawn), "drawing figures", quiet=quiet, unit=" figures") as tick:
            plots = drawn_plots(drawn, formats, jobs=options.jobs, progress=tick)
    if options.report:
        from .report_html import render_report

        assert plots is not None  # drawn above for --report
        report = render_report(groups, title=f"nonoqubo evaluate {os.path.basename(options.model.rstrip('/'))}",
                               command=command_line(options), plots=plots)
    said = []  # the files written, in the order written
    if options.figures and plots is not None:
        from .plots import write_figures

        files = write_figures(plots, options.figures)
        said.append(f"wrote {options.figures} (figures: {len(files)} files, SVG, PDF and CSV)")
    if options.csv:
        with atomic_write(options.csv) as fh:
            fh.write(csv_text(groups))
        said.append(wrote(options.csv, "CSV table"))
    if report is not None and options.report:
        with atomic_write(options.report) as fh:
            fh.write(report)
        said.append(wrote(options.report, "HTML report"))
    if options.submission:
        written = write_submission(groups, options.submission, submitter=options.submitter or "",
                                   from_suite=os.path.isdir(options.model), reference=options.reference)
        said.append(submission_line(written, options.submission))
    if not quiet:
        out.messages += said
    if options.json:
        out.stdout = json.dumps({**set_aside(groups), "groups": records(groups)}, indent=1, allow_nan=False)
    elif not (quiet and (options.csv or options.report or options.figures)):  # -q: the files are the output
        out.stdout = table(groups)
    return out


# -- the text table ----------------------------------------------------------------------------
def table(groups: Sequence[Group]) -> str:
    """The terminal table (one line per model, setting and stage; encoding and weights columns when they vary)."""
    head: tuple[str, ...] = ("model", "setting", "stage", "samples", "p [95% CI]", "TTS99 s [95% CI]",
                             "E min/med/q90", "walls", "order", "cells", "solutions")
    variants = {(g.info.encoding, g.info.weights) for g in groups}
    ab = len(variants) > 1
    if ab:
        head = head[:2] + ("encoding", "weights") + head[2:]
    failed = any(g.failed_runs for g in groups)  # runs a time limit stopped: a column only when there are some
    if failed:
        at = head.index("samples") + 1
        head = head[:at] + ("failed runs",) + head[at:]
    rows = [head]
    censored = False
    for g in groups:
        for stage in group_stages(g):  # a polished row only where polishing changed an energy
            f = g.figures(stage)
            extra = (g.info.encoding, g.info.weights) if ab else ()
            p_text = (f"{f['p']:.3f} [{f['p_lo']:.3f}, {f['p_hi']:.3f}]" if g.scored
                      else f"({status(g)}: not scored)")
            cost_text = cost_cell(f, "tts99") if g.scored else "-"
            censored = censored or (g.scored and f["tts99_bound"] is not None)
            rows.append((g.model, g.setting, *extra, stage, str(f["samples"]),
                         *((str(g.failed_runs),) if failed else ()), p_text, cost_text,
                         f"{f['energy_min']}/{f['energy_q50']}/{f['energy_q90']}" if f["samples"] else "-",
                         percent(f["share_broken_walls"]), percent(f["share_order_violations"]),
                         percent(f["share_cell_conflicts"]), solutions_label(f)))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = header_lines(groups)
    lines += ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    if censored:
        lines.append(CENSORED_NOTE)
    lines += setting_lines(groups)
    for g in groups:
        f = g.figures("raw")
        if f["worst_lines"] or f["worst_cells"]:
            worst = ", ".join(f"{x['line']} {percent(x['share'])}" for x in f["worst_lines"])
            cells = ", ".join(f"({x['row']},{x['column']}) {percent(x['share'])}" for x in f["worst_cells"])
            lines.append(f"{g.model} / {g.setting}: most often wrong lines: {worst}; cells (row,column, "
                         f"from 1): {cells}")
    return "\n".join(lines)


def header_lines(groups: Sequence[Group]) -> list[str]:
    """The lines above the table: the groups set aside from p, TTS and the figures, counted and named."""
    return [f"{kind} ({why}; not in p, TTS or the figures): {n} of {len(groups)} model/setting pairs: {named}"
            for kind, why, n, named in set_aside_named(groups)]


def setting_lines(groups: Sequence[Group]) -> list[str]:
    """One line per setting under the table: what it is and where its time per run came from; then what a QPU returned."""
    def what(g: Group) -> str:
        said = (describe(g.setting_record) if g.setting_record is not None
                else "pooled by --setting" if g.grouped_by == BY_OPTION else "grouped by folder: the files record no run")
        return f"{said}; time per run: {g.time_source}"

    out = [f"setting {name}: {w}" for name, whats in sorted(by_setting(groups, what).items()) for w in whats]
    # what a QPU (or the mock) returned, per model and setting: problem ids, timing, embedding, chain breaks
    out += [f"QPU {g.model} / {g.setting}: {qpu_words(g.run['qpu'])}"
            for g in groups if isinstance(g.run, dict) and isinstance(g.run.get("qpu"), dict)]
    return out
