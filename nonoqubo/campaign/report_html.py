"""The HTML report of an evaluated campaign: one self-contained page that reads well and works offline.

``nonoqubo evaluate ... --report report.html`` writes one file that opens anywhere with
nothing beside it and fetches nothing: every figure (:mod:`nonoqubo.campaign.plots`) is an
SVG embedded as a ``data:image/svg+xml;base64,...`` URI, and the style sheet is in the page.
The page holds, in this order:

1. a header: what was run (the command line), when, nonoqubo's version, the machine the report
   was made on (platform, CPU count, Python), and per setting its sampler and parameters, where
   its time per run came from, and the machine its runs recorded (from the ``info["nonoqubo"]``
   record ``nonoqubo solve -o`` writes; "not recorded" otherwise), and how many model/setting
   pairs are set aside from p, TTS and the figures (solved by presolve, proven unsolvable), named;
2. the figures, each a ``<figure>`` with an alt text that says what it shows and a caption that
   says what every mark and bar is: success probability and TTS99 (or R99) against size with
   class medians, quartiles and censored bounds, the residual-energy histograms, the
   cell-conflict heat maps on one colour scale, the best pictures;
3. the table of figures per (model, setting, stage), in a scrolling wrapper, numbers as the CLI
   prints them (shares in percent; a censored cost as ``inf (>=bound)``), the set-aside pairs
   listed as not scored.

Every figure is shown at least as wide as its smallest text needs to render at
:data:`READABLE_PX` (9 CSS px, :func:`readable_width`): on a phone (390 px) the figures stand one
under the other, and a two-column figure scrolls sideways inside its own frame rather than
shrinking its text below that.  The page has a viewport ``<meta>``, headings in order, a table ``<caption>`` and ``scope``
on its header cells, and text colours of contrast at least 4.5:1 against their background
(:data:`CSS_COLOURS` lists the pairs; a test computes their ratios).

matplotlib is an optional dependency (``pip install "nonoqubo[campaign]"``):
:func:`require_matplotlib` says so before any work.
"""

from __future__ import annotations

import base64
import html
import math
import os
import re
from collections.abc import Callable, Sequence
from datetime import datetime, timezone
from typing import Any

from .._util import notebook
from .._version import __version__
from ..errors import MissingDependency, NonoquboError
from ..solvers.base import machine
from .aggregate import (CENSORED_NOTE, cost_cell, cost_metric, describe_time, group_stages, number, percent, solutions_label,
                        stages_to_draw)
from .evaluate import Evaluation, Group, scored, set_aside_named, status
from .plots import SMALLEST_TEXT, Plot, all_plots, figure_bytes, palette_colours, require_matplotlib

__all__ = ["CSS_COLOURS", "READABLE_PX", "STYLE", "check_report_path", "evaluation_html", "palette_colours",
           "readable_width", "render_report", "require_matplotlib"]

#: every (text colour, background colour) pair the style sheet uses
CSS_COLOURS = {
    "body": ("#1a1a1a", "#ffffff"),
    "muted": ("#4a4a4a", "#ffffff"),
    "table head": ("#1a1a1a", "#e8eef4"),
    "table stripe": ("#1a1a1a", "#f5f7f9"),
    "caption": ("#333333", "#ffffff"),
}

STYLE = """
html { -webkit-text-size-adjust: 100%; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.45;
       margin: 0; color: #1a1a1a; background: #ffffff; }
main { max-width: 80rem; margin: 0 auto; padding: 1rem; box-sizing: border-box; }
h1 { font-size: 1.5rem; margin: 0.5rem 0; } h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin-bottom: 0.3rem; }
code, .cmd { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 0.9em; overflow-wrap: anywhere; }
dl.meta { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; margin: 0; }
dl.meta dt { font-weight: 600; } dl.meta dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.muted { color: #4a4a4a; background: #ffffff; }
ul.settings { padding-left: 1.2rem; } ul.settings li { overflow-wrap: anywhere; }
figure { margin: 1.5rem 0; }
figure img { display: block; width: 100%; max-width: 100%; height: auto; background: #ffffff; }
.figscroll { overflow-x: auto; max-width: 100%; }

.pair { display: flex; flex-wrap: wrap; gap: 0 2rem; } .pair figure { flex: 1 1 24rem; min-width: 0; }
figcaption { color: #333333; background: #ffffff; font-size: 0.9rem; max-width: 60rem; margin-top: 0.4rem; }
.scroll { overflow-x: auto; max-width: 100%; border: 1px solid #c8ced6; }
table { border-collapse: collapse; font-size: 0.8rem; font-variant-numeric: tabular-nums; }
caption { text-align: left; padding: 0.4rem; color: #333333; background: #ffffff; caption-side: top; }
th, td { border-bottom: 1px solid #d5dae0; padding: 0.25rem 0.35rem; text-align: right; white-space: nowrap; }
thead th { color: #1a1a1a; background: #e8eef4; position: sticky; top: 0; }
tbody tr:nth-child(even) { color: #1a1a1a; background: #f5f7f9; }
th.name, td.name { text-align: left; }
td .source { font-size: 0.85em; white-space: normal; }
tbody th { position: sticky; left: 0; color: #1a1a1a; background: #ffffff; }
tbody tr:nth-child(even) th { color: #1a1a1a; background: #f5f7f9; }
@media (max-width: 40rem) { main { padding: 0.6rem; } dl.meta { grid-template-columns: 1fr; }
  dl.meta dd { margin-bottom: 0.4rem; } }
"""


def check_report_path(path: str | None) -> None:
    """Refuse a ``--report`` name that promises another format than the HTML page written.

    Raises:
        NonoquboError: the name does not end in ``.html`` or ``.htm``.
    """
    if path and os.path.splitext(path)[1].lower() not in (".html", ".htm"):
        raise NonoquboError(f"{path}: --report writes an HTML page; name the file .html "
                            "(print it to PDF from a browser if needed)")


def _esc(text: Any) -> str:
    return html.escape(str(text))


def _table(groups: Sequence[Group]) -> str:
    metric = cost_metric(scored(groups) or groups)  # the figures' metric: set-aside groups have no cost
    cost_head = "TTS99 s [95% CI]" if metric == "tts99" else "R99 runs [95% CI]"
    timed = any(g.seconds is not None for g in groups)
    head = ["model", "setting", "stage", "vars", "samples", "p [95% CI]", cost_head,
            *(["s / run"] if timed else []), "E min/med/q90", "walls", "order", "cells", "solutions"]
    names = {"model", "setting", "stage"}
    cells = "".join(f'<th scope="col"{" class=name" if h in names else ""}>{_esc(h)}</th>' for h in head)
    rows = []
    censored = False
    for g in groups:
        for stage in group_stages(g):
            f = g.figures(stage)
            # the cost falls as p rises: its interval is [cost(p_hi), cost(p_lo)], the _lo and _hi figures
            cost = cost_cell(f, metric) if g.scored else "-"
            censored = censored or (g.scored and f[metric + "_bound"] is not None)
            p_text = f"{f['p']:.3f} [{f['p_lo']:.3f}, {f['p_hi']:.3f}]" if g.scored else f"({status(g)}: not scored)"
            values = [f["samples"], p_text, cost,
                      *([number(f["seconds_per_run"])] if timed else []), f"{f['energy_min']}/{f['energy_q50']}/{f['energy_q90']}",
                      percent(f["share_broken_walls"]), percent(f["share_order_violations"]),
                      percent(f["share_cell_conflicts"]), solutions_label(f)]
            source = (f'<br><span class="source">t: {_esc(g.time_source if g.seconds is not None else "none")}</span>'
                      if timed else "")
            rows.append(f'<tr><th scope="row" class="name">{_esc(g.model)}</th><td class="name">{_esc(g.setting)}'
                        f'{source}</td><td class="name">{stage}</td><td>{g.info.variables}</td>'
                        + "".join(f"<td>{_esc(v)}</td>" for v in values) + "</tr>")
    unchanged = sum(g.polished is not None and len(group_stages(g)) == 1 for g in groups)
    explain = ("Per model, setting and stage (raw samples, and after polishing with --polish where polishing "
               "changed an energy"
               + (f"; for {unchanged} of {len(groups)} pairs it changed none, so they have no polished row"
                  if unchanged else "") + "): the "
               "samples judged; success probability p with its 95 % Wilson interval; "
               + ("TTS99 in seconds with its interval; " if metric == "tts99" else
                  "R99, the runs to reach a valid picture with 99 % probability, with its interval; ")
               + ("the seconds per run t (under each setting's name, where t came from: the sampler's own timing, "
                  "the wall clock around the runs, a QPU's access time, or --time); " if timed else "") + "residual energy minimum / median / 90 % quantile; the share of samples "
               "with a broken wall, an order violation, a cell conflict; and the distinct valid pictures "
               "found / the puzzle's number of solutions from the suite's index (>=2: CP-SAT counted up to "
               "its limit; ?: not recorded, see suite --truth). The JSON and CSV outputs hold every figure."
               + (f" {CENSORED_NOTE}." if censored else ""))
    return (f'<p class="muted">{_esc(explain)}</p>'
            f'<div class="scroll" role="region" aria-label="table of figures" tabindex="0"><table>'
            f"<caption>Figures per model, setting and stage</caption><thead><tr>{cells}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table></div>")


def _parameters(run: dict[str, Any] | None) -> str:
    if not run:
        return "sampler and parameters not recorded in the sample files"
    params = run.get("parameters") or {}
    given = ", ".join(f"{k} {v}" for k, v in params.items() if v not in (None, False, {}, []))
    return f"{run.get('sampler', '?')}" + (f" ({given})" if given else "")


def _machine_text(m: dict[str, Any] | None) -> str:
    if not m:
        return "not recorded"
    return (f"{m.get('platform', '?')}, {m.get('cpu_count', '?')} CPUs"
            + (f" ({m['cpus_usable']} usable)" if m.get("cpus_usable") else "")
            + f", Python {m.get('python', '?')}")


def _settings_list(groups: Sequence[Group]) -> str:
    by: dict[str, list[Group]] = {}
    for g in groups:
        by.setdefault(g.setting, []).append(g)
    items = []
    for s, mine in sorted(by.items()):
        run = next((g.run for g in mine if getattr(g, "run", None)), None)
        sources = sorted({describe_time(g) for g in mine if g.seconds is not None})
        timed = sum(g.seconds is not None for g in mine)
        time_text = (f"time per run: {'; '.join(sources)}" if timed == len(mine)
                     else f"no time per run recorded for {len(mine) - timed} of {len(mine)} models")
        machines = {_machine_text(m) for g in mine if g.run
                    for given in (g.run.get("machine"),)
                    for m in (given if isinstance(given, list) else [given])
                    if isinstance(m, dict)}
        items.append(f"<li><strong>{_esc(s)}</strong>: {_esc(_parameters(run))}; {len(mine)} models, "
                     f"{sum(g.files for g in mine)} sample files; {_esc(time_text)}"
                     + (f"; runs recorded on {_esc('; '.join(sorted(machines)))}" if machines else "") + "</li>")
    return f'<ul class="settings">{"".join(items)}</ul>' if items else "<p>No samples.</p>"


def _set_aside_text(groups: Sequence[Group]) -> str | None:
    """The header's line on the groups kept out of p, TTS and the figures, counted and named; None if none."""
    parts = set_aside_named(groups)
    if not parts:
        return None
    return (f"{sum(n for _, _, n, _ in parts)} of {len(groups)} model/setting pairs, not in p, TTS or the "
            "figures (listed in the table): " + "; ".join(f"{n} {kind} ({why}): {named}" for kind, why, n, named in parts))


def _header(groups: Sequence[Group], command: str | None, when: datetime) -> str:
    models = len({g.model for g in groups})
    drawn = scored(groups)
    rows = [("nonoqubo", __version__), ("date", when.strftime("%Y-%m-%d %H:%M UTC")),
            ("command", command or "not given"), ("machine", _machine_text(machine()) + " (where the report was made)"),
            ("campaign", f"{models} models, {len({g.setting for g in groups})} settings, "
                         f"{sum(g.files for g in groups)} sample files; {len(drawn)} of {len(groups)} "
                         "model/setting pairs scored")]
    aside = _set_aside_text(groups)
    if aside:
        rows.append(("set aside", aside))
    dl = "".join(f"<dt>{_esc(k)}</dt><dd{' class=cmd' if k == 'command' else ''}>{_esc(v)}</dd>" for k, v in rows)
    return f'<dl class="meta">{dl}</dl><h3>Settings</h3>{_settings_list(groups)}'


#: CSS pixels per inch of a figure on the page (a 7 in figure is 60rem wide, its text near 15 px)
PX_PER_INCH = 137
#: the smallest rendered text of a figure, in CSS pixels, on any screen (a phone's included)
READABLE_PX = 9.0
_FONT_SIZE = re.compile(rb"font-size: ?([0-9.]+)px")


def readable_width(svg: bytes, smallest: float | None = None) -> int:
    """The narrowest width (CSS px) at which every text of *svg* renders at :data:`READABLE_PX` or more.

    The figure's SVG is in points (``width="244.8pt"``, font sizes in the same units): at a
    width of ``W`` px a text of ``f`` units renders at ``f * W / width_pt`` px.
    """
    m = re.search(rb'width="([0-9.]+)pt"', svg)
    sizes = [float(v) for v in _FONT_SIZE.findall(svg)]
    if m is None or not (sizes or smallest):
        return 0
    small = min(sizes) if sizes else float(smallest or 0)
    return math.ceil(float(m.group(1)) * READABLE_PX / small)


def _figure(plot: Plot, svg: bytes, wide: bool) -> str:
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg).decode("ascii")
    least = readable_width(svg, SMALLEST_TEXT)
    width = max(least, round(plot.width_inches() * PX_PER_INCH))
    # never narrower than its text can be read: on a narrow screen a wide figure scrolls sideways in its frame
    return (f'<figure class="{"page" if wide else "column"}" id="{_esc(plot.name)}">'
            f'<div class="figscroll" role="region" aria-label="{_esc(plot.title)}" tabindex="0">'
            f'<img alt="{_esc(plot.alt)}" src="{uri}" style="min-width: {least}px; max-width: {width}px"></div>'
            f"<figcaption><strong>{_esc(plot.title)}.</strong> {_esc(plot.caption)}</figcaption></figure>")


def render_report(groups: Sequence[Group], title: str = "nonoqubo campaign", *, command: str | None = None,
                  plots: Sequence[Plot] | None = None, when: datetime | None = None,
                  progress: Callable[[int], None] | None = None) -> str:
    """The whole report as one HTML document (a string).

    Args:
        groups: what :func:`~nonoqubo.campaign.evaluate.evaluate` returned, every group: the ones
            set aside (solved by presolve, proven unsolvable) are counted and named in the
            header and listed in the table, and kept out of the figures.
        title: the page's title and first heading.
        command: the command line that made it, shown in the header.
        plots: the figures (default :func:`~nonoqubo.campaign.plots.all_plots` of *groups*).
        when: the date shown (default now, UTC).
        progress: called with 1 after each figure is drawn.

    Raises:
        MissingDependency: matplotlib is not installed.
    """
    require_matplotlib()  # fail early, before any work
    # solved by presolve, proven unsolvable: counted in the header and listed in the table, never drawn
    plots = list(plots) if plots is not None else all_plots(scored(groups))
    when = when or datetime.now(timezone.utc)
    figures = []
    sections = [("vs-size", "Success and cost against size"), ("energy", "Residual energy"),
                ("conflicts", "Where the samples are wrong"), ("best", "Best pictures")]
    done: set[str] = set()
    pair: list[str] = []
    for plot in plots:
        for key, heading in sections:
            if key in plot.name and heading not in done:
                if pair:
                    figures.append(f'<div class="pair">{"".join(pair)}</div>')
                    pair = []
                figures.append(f"<h3>{_esc(heading)}</h3>")
                done.add(heading)
                break
        size_plot = plot.name.endswith("vs-size")
        (pair if size_plot else figures).append(_figure(plot, figure_bytes(plot, "svg"), wide=not size_plot))
        if progress is not None:
            progress(1)
    if pair:
        figures.append(f'<div class="pair">{"".join(pair)}</div>')
    stages = stages_to_draw(groups)
    polish_note = (" Polished figures (--polish) are drawn only where polishing changed a success count."
                   if any(g.polished is not None for g in groups) and len(stages) == 1 else "")
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title>", f"<style>{STYLE}</style>", "</head>", "<body>", "<main>",
        f"<h1>{_esc(title)}</h1>",
        "<section aria-labelledby='run'><h2 id='run'>What was run</h2>", _header(groups, command, when), "</section>",
        "<section aria-labelledby='figs'><h2 id='figs'>Figures</h2>",
        '<p class="muted">p: the share of runs that reach energy 0 (a valid picture), with its 95 % Wilson score '
        "interval. R99 = ln(0.01)/ln(1 - p) runs, at least one, infinite when p = 0; TTS99 = t R99 with t the "
        "seconds per run. Energies are residual energies (the ground state is 0)." + _esc(polish_note) + "</p>",
        *figures, "</section>",
        "<section aria-labelledby='tab'><h2 id='tab'>Table of figures</h2>", _table(groups), "</section>",
        "</main>", "</body>", "</html>",
    ]
    return "\n".join(parts) + "\n"


def evaluation_html(groups: Sequence[Group], height: int = 720) -> str | None:
    """The report of *groups* for a notebook: :func:`render_report`'s page in a frame of *height* pixels.

    The page goes in an ``<iframe srcdoc=...>`` so its style sheet styles only itself, not the
    notebook around it.  Without matplotlib it returns None, and Jupyter shows the text ``repr``.
    """
    try:
        require_matplotlib()
    except MissingDependency:
        return None
    page = render_report(groups)
    return (f'<iframe title="nonoqubo campaign report" srcdoc="{html.escape(page, quote=True)}" '
            f'style="width: 100%; height: {int(height)}px; border: 1px solid #ccc"></iframe>')


notebook.register(Evaluation, "html", evaluation_html)
