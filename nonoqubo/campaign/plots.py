"""The report's figures, drawn with matplotlib as in annealing papers, each with the data behind it.

Every function here returns :class:`Plot` objects: a matplotlib ``Figure`` (made without pyplot
and without switching any global backend), its title, a caption that says what every mark and
bar is, an alt text that says what the figure shows, and the rows of the CSV that hold exactly
the numbers drawn.  The numbers come from :mod:`nonoqubo.campaign.aggregate`; the HTML page
that embeds the figures is :mod:`nonoqubo.campaign.report_html`'s, and ``evaluate --figures
DIR`` writes each one as SVG, PDF and CSV (:func:`write_figures`).

The figures:

* ``p-vs-size``: success probability against QUBO variables, per setting: class medians and
  interquartile ranges, instances faint behind with their 95 % Wilson intervals, p = 0 as a
  censored bound (log scales);
* ``tts-vs-size`` (``r99-vs-size`` without times): TTS99 in seconds, or R99 in runs when a
  setting's files record no time per run, drawn the same way;
* ``energy-N``: residual-energy histograms, one panel per (model, setting), integer-centred
  bins, pages of :data:`PANELS_PER_PAGE` panels (every pair appears);
* ``conflicts-N``: how often each cell is in conflict, the same panels, on one colour scale
  shared by every panel of every page;
* ``best-N``: the best picture found for each model.

Style: one column (3.4 in) for the size plots, two columns (7 in) for the panels; 8 pt text;
the Okabe-Ito colour-blind-safe colours with a different marker per setting.

matplotlib is optional (the ``campaign`` extra): :func:`require_matplotlib` says so first.
"""

from __future__ import annotations

import contextlib
import csv
import io
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

from .._util.atomic import atomic_write
from ..errors import MissingDependency, NonoquboError
from ..model.palette import Palette
from .aggregate import (
    ClassStat, Point, class_stats, cost_label, cost_metric, describe_time, points, stages_to_draw,
)
from .evaluate import Group

__all__ = [
    "PANELS_PER_PAGE", "Plot", "all_plots", "check_figures_folder", "cost_plot", "figure_bytes", "heatmap_plots", "histogram_plots",
    "p_plot", "palette_colours", "picture_plots", "require_matplotlib", "write_figures",
]

#: panels on one page of small multiples (every pair is drawn, on as many pages as needed)
PANELS_PER_PAGE = 24
#: Okabe & Ito's colour-blind-safe palette (black last; it is also the instances' colour)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "h")
COLUMN = 3.4  # inches, one column of a two-column paper
PAGE = 7.0  # inches, both columns
_RC: dict[RcKeyType, Any] = {
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
    "legend.fontsize": 7, "axes.spines.top": False, "axes.spines.right": False, "lines.linewidth": 1.0,
    "svg.fonttype": "path", "pdf.fonttype": 42, "svg.hashsalt": "nonoqubo", "figure.dpi": 100,
}


@dataclass
class Plot:
    """One figure with its words and its data."""

    name: str  # file stem: p-vs-size, energy-1, ...
    title: str
    caption: str
    alt: str
    figure: Any
    header: list[str] = field(default_factory=list)
    rows: list[list[Any]] = field(default_factory=list)
    #: the figure's bytes per format, drawn once (the report and --figures share the SVG)
    drawn: dict[str, bytes] = field(default_factory=dict, repr=False)

    def csv_text(self) -> str:
        """The numbers drawn, as CSV (infinity as ``inf``, missing as an empty field)."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(self.header)
        for row in self.rows:
            writer.writerow(["" if v is None else _cell(v) for v in row])
        return buf.getvalue()


def _cell(v: Any) -> Any:
    """A CSV field: a plain number (a NumPy scalar as the Python number it holds, never ``np.float64(...)``)."""
    if isinstance(v, np.generic):
        v = v.item()
    if isinstance(v, float):
        return "inf" if math.isinf(v) else repr(v)
    return v


def require_matplotlib() -> None:
    """Raise :class:`MissingDependency` now when matplotlib is missing (before any work is done)."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise MissingDependency("matplotlib", "campaign", "the HTML report and figures (--report, --figures)") from None


@contextlib.contextmanager
def _style() -> Iterator[None]:
    import matplotlib

    with matplotlib.rc_context(_RC):
        yield


def _figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def figure_bytes(plot: Plot, fmt: str) -> bytes:
    """The figure as ``svg``, ``pdf`` or ``png`` bytes (no date or tool version inside, for stable files)."""
    if fmt not in plot.drawn:
        buf = io.BytesIO()
        meta = {"svg": {"Date": None}, "pdf": {"CreationDate": None, "ModDate": None}}.get(fmt)
        with _style():
            plot.figure.savefig(buf, format=fmt, metadata=meta, dpi=150)
        plot.drawn[fmt] = buf.getvalue()
    return plot.drawn[fmt]


def check_figures_folder(folder: str | None) -> None:
    """Refuse, before any work, a ``--figures`` folder that is a file or lies under one.

    Raises:
        NonoquboError: the path names a file, or a parent of it is a file.
    """
    if not folder:
        return
    path = os.path.abspath(folder)
    while path and not os.path.exists(path):
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    if os.path.exists(path) and not os.path.isdir(path):
        raise NonoquboError(f"{folder}: --figures needs a folder, and {path} is a file")


# -- size plots --------------------------------------------------------------------------------
def _settings(groups: Sequence[Group]) -> list[str]:
    return sorted({g.setting for g in groups})


def _offsets(n: int) -> list[float]:
    """Multiplicative sideways offsets on a log x axis, so n settings at one size do not overlap."""
    step = 1.045
    return [step ** (k - (n - 1) / 2) for k in range(n)]


def _wrap(name: str, width: int = 20) -> str:
    """A long model name broken at its hyphen nearest the middle, for a panel title."""
    if len(name) <= width or "-" not in name:
        return name
    cuts = [i for i, ch in enumerate(name) if ch == "-"]
    cut = min(cuts, key=lambda i: abs(i - len(name) / 2))
    return name[:cut + 1] + "\n" + name[cut + 1:]


def _framed(ax: Any) -> None:
    """An image panel: no ticks, a thin frame on all four sides."""
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(True)
        side.set_linewidth(0.5)


def _size_axes(fig: Any, stages: Sequence[str]) -> list[Any]:
    from matplotlib.ticker import LogLocator, NullFormatter, StrMethodFormatter

    axes = list(fig.subplots(len(stages), 1, sharex=True, squeeze=False)[:, 0])
    for ax, stage in zip(axes, stages):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        if len(stages) > 1:
            ax.set_title(f"{stage} samples" if stage == "raw" else "after steepest-descent polishing", loc="left")
    axes[-1].set_xlabel("QUBO variables")
    return axes


def _draw_size(ax: Any, pts: Sequence[Point], stats: Sequence[ClassStat], settings: Sequence[str], quantity: str) -> None:
    """Instances faint (Wilson bars, censored as triangles at their bound), class medians and IQRs bold."""
    offs = _offsets(len(settings))
    upper = quantity != "p"  # a censored value is a lower bound of the cost, an upper bound of p
    for k, s in enumerate(settings):
        colour, marker = COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)]
        mine = [pt for pt in pts if pt.setting == s]
        ok = [pt for pt in mine if not pt.censored]
        if ok:
            x = np.array([pt.variables for pt in ok], float) * offs[k]
            if quantity == "p":
                y = np.array([pt.p for pt in ok])
                lo, hi = np.array([pt.p_lo for pt in ok]), np.array([pt.p_hi for pt in ok])
            else:
                y = np.array([pt.cost for pt in ok])
                lo, hi = np.array([pt.cost_lo for pt in ok]), np.array([pt.cost_hi for pt in ok])
            hi = np.where(np.isfinite(hi), hi, y)  # a p_lo of 0 leaves the cost's top open
            lo = np.where(lo > 0, lo, y)  # a p_lo of 0 leaves no bottom on a log axis
            ax.errorbar(x, y, yerr=[y - lo, hi - y], fmt=".", color=colour, alpha=0.3, markersize=3,
                        elinewidth=0.6, capsize=0, zorder=1)
        cens = [pt for pt in mine if pt.censored]
        if cens:
            x = np.array([pt.variables for pt in cens], float) * offs[k]
            y = np.array([pt.p_hi if quantity == "p" else pt.cost_lo for pt in cens])
            ax.scatter(x, y, marker="^" if upper else "v", s=14, facecolors="none", edgecolors=colour,
                       alpha=0.6, linewidths=0.8, zorder=2)
        cs = [st for st in stats if st.setting == s]
        if cs:
            x = np.array([st.variables for st in cs]) * offs[k]
            med = np.array([st.median for st in cs])
            ax.errorbar(x, med, yerr=[med - np.array([st.q25 for st in cs]), np.array([st.q75 for st in cs]) - med],
                        fmt="none", ecolor=colour, elinewidth=1.4, capsize=2.5, zorder=3)
            # medians joined only within one kind of class: a random family's sizes (one density) solid,
            # the variable-count bins of the other puzzles dotted; never a random family to another bin
            kinds: dict[str, list[int]] = {}
            for i, st in enumerate(cs):
                kinds.setdefault(st.size_class.rsplit(" d", 1)[-1] if st.random else "", []).append(i)
            for kind, idx in kinds.items():
                if len(idx) > 1:
                    ax.plot(x[idx], med[idx], color=colour, linewidth=0.9, linestyle="-" if kind else ":", zorder=3)
            exact = np.array([not st.median_bound for st in cs])
            ax.scatter(x[exact], med[exact], marker=marker, s=28, color=colour, edgecolors="white",
                       linewidths=0.5, zorder=4)
            if (~exact).any():
                ax.scatter(x[~exact], med[~exact], marker=marker, s=28, facecolors="white", edgecolors=colour,
                           linewidths=1.0, zorder=4)
                for xi, yi in zip(x[~exact], med[~exact]):
                    ax.annotate("", xy=(xi, yi * (1.8 if upper else 1 / 1.8)), xytext=(xi, yi),
                                arrowprops={"arrowstyle": "->", "color": colour, "lw": 0.9}, zorder=4)


def _legend(fig: Any, settings: Sequence[str], quantity: str) -> None:
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=COLOURS[k % len(COLOURS)], marker=MARKERS[k % len(MARKERS)], markersize=5,
                      label=s) for k, s in enumerate(settings)]
    handles.append(Line2D([], [], color="0.3", marker=".", linestyle="none", alpha=0.4, label="instance"))
    handles.append(Line2D([], [], color="0.3", marker="^" if quantity != "p" else "v", markerfacecolor="none",
                          linestyle="none", label="no success (bound)"))
    handles.append(Line2D([], [], color="0.3", marker="o", markerfacecolor="white", linestyle="none",
                          label="median is a bound"))
    fig.legend(handles=handles, loc="outside lower center", ncols=min(3, len(handles)), frameon=False)


def _classes_note(stats: Sequence[ClassStat]) -> str:
    seen: dict[str, tuple[int, bool]] = {}
    for st in stats:
        seen.setdefault(st.size_class, (st.instances, st.random))
    return ", ".join(f"{label} ({n} instance{'s' if n != 1 else ''})" for label, (n, _) in seen.items())


_SIZE_WORDS = (
    "Bold markers joined by lines: the median across the instances of a size class; bold bars: their 25 % "
    "to 75 % quantiles (interquartile range, NumPy linear interpolation). Faint dots: the instances, at their "
    "own variable count, with thin bars for their 95 % Wilson score interval. Settings are shifted a little "
    "sideways so they do not hide each other. Size classes: each random family of the suite (one grid size and "
    "density) is one class; other puzzles are grouped by variable count n, 2^k <= n < 2^(k+1); a class is drawn "
    "at the median variable count of its instances. Solid lines join the medians of random families of one "
    "density, dotted lines those of the variable-count bins. Here: {classes}. Both axes are logarithmic."
)


def p_plot(groups: Sequence[Group]) -> Plot:
    """Success probability against size (see the module docstring)."""
    stages = stages_to_draw(groups)
    pts = points(groups, stages)
    stats = class_stats(pts, "p")
    settings = _settings(groups)
    with _style():
        fig = _figure(COLUMN, 2.2 * len(stages) + 0.9)
        axes = _size_axes(fig, stages)
        for ax, stage in zip(axes, stages):
            _draw_size(ax, [pt for pt in pts if pt.stage == stage], [st for st in stats if st.stage == stage],
                       settings, "p")
            ax.set_ylabel("success probability p")
            lows = [pt.p_hi if pt.censored else pt.p_lo if pt.p_lo > 0 else pt.p for pt in pts]
            lows = [v for v in lows if v > 0]
            ax.set_ylim(min(lows, default=0.01) / 2, 1.5)
        _legend(fig, settings, "p")
    censored = sum(pt.censored for pt in pts)
    caption = (
        "Success probability p (the share of runs that end at energy 0, a valid picture) against model size "
        "(QUBO variables), one colour and marker per setting. " + _SIZE_WORDS.format(classes=_classes_note(stats))
        + " Hollow down-triangles: an instance with no success (p = 0, which a log axis cannot show) drawn at the "
        "upper end of its 95 % Wilson interval, p_hi = z^2/(n + z^2) for n runs (z = 1.96): p is below it with 95 % "
        "confidence. Such an instance enters its class's quantiles at p_hi; a median it could still move is drawn "
        f"hollow with a down arrow (an upper bound). Censored instances here: {censored} of {len(pts)}."
        + _stage_note(groups, stages))
    alt = (f"Log-log plot of success probability against QUBO variables for {len(settings)} settings "
           f"({', '.join(settings)}): class medians with interquartile bars over faint instance points; "
           f"{censored} instance{'s' if censored != 1 else ''} with no success drawn as bounds.")
    return Plot("p-vs-size", "Success probability against size", caption, alt, fig, list(SIZE_HEADER),
                _rows(SIZE_HEADER, pts, stats))


def _stage_note(groups: Sequence[Group], stages: Sequence[str]) -> str:
    if len(stages) > 1:
        return " Top: the raw samples; bottom: the same samples after a steepest-descent pass (--polish)."
    if groups and all(g.polished is not None for g in groups):
        return " Polishing (--polish) changed no success count, so only the raw samples are drawn."
    return ""


#: the CSV columns of a size plot: a row per instance point, then a row per class statistic
SIZE_HEADER = ("level", *Point.__dataclass_fields__,
               *[f for f in ClassStat.__dataclass_fields__ if f not in Point.__dataclass_fields__])


def _rows(header: Sequence[str], pts: Sequence[Point], stats: Sequence[ClassStat]) -> list[list[Any]]:
    rows = []
    for pt in pts:
        d = {"level": "instance", **pt.row()}
        rows.append([d.get(h) for h in header])
    for st in stats:
        d = {"level": "class", **st.row()}
        rows.append([d.get(h) for h in header])
    return rows


def _time_note(groups: Sequence[Group]) -> str:
    by: dict[str, set[str]] = {}
    for g in groups:
        by.setdefault(g.setting, set()).add(describe_time(g))
    return "; ".join(f"{s}: {', '.join(sorted(v))}" for s, v in sorted(by.items()))


def cost_plot(groups: Sequence[Group]) -> Plot:
    """TTS99 (seconds) or R99 (runs) against size (see the module docstring)."""
    stages = stages_to_draw(groups)
    metric = cost_metric(groups)
    pts = points(groups, stages, metric)
    stats = class_stats(pts, metric)
    settings = _settings(groups)
    with _style():
        fig = _figure(COLUMN, 2.2 * len(stages) + 0.9)
        axes = _size_axes(fig, stages)
        for ax, stage in zip(axes, stages):
            _draw_size(ax, [pt for pt in pts if pt.stage == stage], [st for st in stats if st.stage == stage],
                       settings, metric)
            ax.set_ylabel(cost_label(metric))
            if metric == "r99":
                ax.set_ylim(bottom=0.7)
        _legend(fig, settings, metric)
    censored = sum(pt.censored for pt in pts)
    if metric == "tts99":
        what = ("TTS99, the time to reach a valid picture with 99 % probability: TTS99 = t R99 with "
                "R99 = ln(0.01)/ln(1 - p) runs (at least one run) and t the seconds per run. "
                f"Where t came from, per setting: {_time_note(groups)}.")
        name, title = "tts-vs-size", "TTS99 against size"
    else:
        missing = sorted({g.setting for g in groups if g.seconds is None})
        what = ("R99, the number of runs needed to reach a valid picture with 99 % probability: "
                "R99 = ln(0.01)/ln(1 - p), at least one run. R99 is drawn instead of TTS99 because the sample "
                f"files of {', '.join(missing)} record no time per run (give one with --time, or save the "
                "samples with a solver that records it).")
        name, title = "r99-vs-size", "Runs to 99 % (R99) against size"
    caption = (what + " One colour and marker per setting. " + _SIZE_WORDS.format(classes=_classes_note(stats))
               + " The faint bars are the cost at the two ends of p's 95 % Wilson interval. Hollow up-triangles: "
               "an instance with no success (p = 0, infinite cost) drawn at the cost of the upper end of its "
               "Wilson interval, p_hi = z^2/(n + z^2) for n runs: with 95 % confidence the true cost is at least "
               "that (a lower bound, not a value). Such an instance enters its class's quantiles at that bound; "
               f"a median it could still move is drawn hollow with an up arrow (a lower bound). Censored instances "
               f"here: {censored} of {len(pts)}." + _stage_note(groups, stages)
               + (" The polished TTS99 uses the same time per run: the descent's own time is not counted."
                  if metric == "tts99" and len(stages) > 1 else ""))
    unit = "seconds" if metric == "tts99" else "runs"
    alt = (f"Log-log plot of {cost_label(metric)} in {unit} against QUBO variables for {len(settings)} settings "
           f"({', '.join(settings)}): class medians with interquartile bars over faint instance points; "
           f"{censored} instance{'s' if censored != 1 else ''} with no success drawn as lower bounds.")
    return Plot(name, title, caption, alt, fig, list(SIZE_HEADER), _rows(SIZE_HEADER, pts, stats))


# -- small multiples ---------------------------------------------------------------------------
def _pages(items: Sequence[Any], per_page: int) -> list[Sequence[Any]]:
    return [items[i:i + per_page] for i in range(0, len(items), per_page)] or [[]]


def _ordered(groups: Sequence[Group]) -> list[Group]:
    """Model-major (by size, then name), settings in order within a model: a row per model."""
    return sorted(groups, key=lambda g: (g.info["variables"], g.model, g.setting))


def _grid(count: int, ncol: int, panel_h: float, panel_w: float) -> tuple[Any, list[Any]]:
    """A figure of *count* panels, *ncol* a row, at most :data:`PAGE` wide; unused cells hidden."""
    ncol = max(1, min(ncol, count))
    nrow = max(1, math.ceil(count / ncol))
    fig = _figure(min(PAGE, panel_w * ncol + 0.4), panel_h * nrow + 0.6)
    axes = list(fig.subplots(nrow, ncol, squeeze=False).flat)
    for ax in axes[count:]:
        ax.set_axis_off()
    return fig, axes[:count]


def _ncol(groups: Sequence[Group]) -> int:
    n = len(_settings(groups))
    return n if 1 <= n <= 4 else 4


def _energy_hist(tally: Any, lo: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """(first energy of every bin, weighted counts): bins of *width* integers from *lo* to the maximum.

    Energy 0 (a valid picture) always has a bin of its own: with ``lo = 0`` the wide bins start at 1.
    """
    e, w = tally.energies, tally.weights
    start = 1 if lo == 0 and width > 1 else lo
    idx = np.where(e < start, 0, (e - start) // width + (start != lo))
    counts = np.bincount(idx, weights=w, minlength=int(idx.max()) + 1)
    firsts = start + width * (np.arange(counts.size) - (start != lo))
    if start != lo:
        firsts[0] = lo
    return firsts, counts


def _bin_ends(firsts: np.ndarray, lo: int, width: int) -> np.ndarray:
    """The last energy of every bin (:func:`_energy_hist`'s first energies)."""
    ends = firsts + width - 1
    if lo == 0 and width > 1:
        ends[0] = 0
    return ends


#: most bars in one histogram panel: a wider energy range is binned by whole numbers of integers
MAX_BARS = 60


def _bin_width(low: int, high: int) -> int:
    return max(1, math.ceil((high - low + 1) / MAX_BARS))


def histogram_plots(groups: Sequence[Group]) -> list[Plot]:
    """Residual-energy histograms, a panel per (model, setting), pages of :data:`PANELS_PER_PAGE`."""
    ordered = _ordered(groups)
    pages = _pages(ordered, PANELS_PER_PAGE)
    span: dict[str, tuple[int, int]] = {}
    for g in ordered:
        tallies = [g.raw] + ([g.polished] if g.polished is not None else [])
        lo = min(int(t.energies.min()) for t in tallies)
        hi = max(int(t.energies.max()) for t in tallies)
        old = span.get(g.model, (lo, hi))
        span[g.model] = (min(old[0], lo), max(old[1], hi))
    widths = {m: _bin_width(lo, hi) for m, (lo, hi) in span.items()}
    out = []
    for number, page in enumerate(pages, 1):
        header = ["model", "setting", "stage", "energy_from", "energy_to", "samples", "share"]
        rows: list[list[Any]] = []
        with _style():
            from matplotlib.ticker import MaxNLocator

            fig, axes = _grid(len(page), _ncol(groups), 1.45, 2.4)
            any_polished = False
            for ax, g in zip(axes, page):
                lo, hi = span[g.model]
                wid = widths[g.model]
                x, c = _energy_hist(g.raw, lo, wid)
                ends = _bin_ends(x, lo, wid)
                n = max(1, g.raw.samples)
                ax.bar((x + ends) / 2, c / n, width=0.9 * (ends - x + 1), color=COLOURS[0], label="raw")
                rows += [[g.model, g.setting, "raw", int(xi), int(xe), int(ci), ci / n]
                         for xi, xe, ci in zip(x, ends, c)]
                if g.polished is not None:
                    px, pc = _energy_hist(g.polished, lo, wid)
                    pe = _bin_ends(px, lo, wid)
                    rows += [[g.model, g.setting, "polished", int(xi), int(xe), int(ci), ci / n]
                             for xi, xe, ci in zip(px, pe, pc)]
                    if not (np.array_equal(px, x) and np.array_equal(pc, c)):
                        any_polished = True
                        edges = np.concatenate((px - 0.5, [pe[-1] + 0.5]))
                        ax.stairs(pc / n, edges, color="black", linewidth=1.0, label="polished")
                ax.set_xlim(lo - 0.7 * wid, hi + 0.7 * wid)
                ax.set_ylim(0, 1)
                ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
                ax.set_title(f"{_wrap(g.model, 30)}\n{g.setting}", fontsize=6.5)
            for k, ax in enumerate(axes):
                if k % max(1, min(_ncol(groups), len(page))) == 0:
                    ax.set_ylabel("share of samples")
            for ax in axes[-min(len(axes), _ncol(groups)):]:
                ax.set_xlabel("residual energy")
            if any_polished:
                from matplotlib.lines import Line2D
                from matplotlib.patches import Patch

                fig.legend(handles=[Patch(color=COLOURS[0], label="raw samples"),
                                    Line2D([], [], color="black", label="after polishing")],
                           loc="outside lower center", ncols=2, frameon=False)
        total = len(pages)
        wide = sorted(m for m in {g.model for g in page} if widths[m] > 1)
        caption = (
            f"Residual energy (the energy above the ground state 0; 0 is a valid picture) of the samples, one "
            f"panel per model and setting (page {number} of {total}; {len(ordered)} pairs in all, "
            "ordered by model size). Bars: the share of samples at each integer energy, one bar per integer, "
            "centred on it. The y axis runs from 0 to 1 in every panel; the x axis is shared by a model's panels."
            + (f" Models whose energies span more than {MAX_BARS} integers have bars of several integers each "
               f"({', '.join(f'{m}: {widths[m]}' for m in wide)}; energy 0 keeps a bar of its own); the CSV gives "
               "each bar's range." if wide else "")
            + (" Black outline: the same samples after steepest-descent polishing (drawn only where it differs)."
               if any_polished else ""))
        alt = (f"Small multiples, page {number} of {total}: bar charts of the share of samples at each residual "
               f"energy for {len(page)} model and setting pairs, from {page[0].model} to {page[-1].model}."
               if page else "No samples.")
        out.append(Plot(f"energy-{number}", f"Residual energy (page {number} of {total})", caption, alt, fig,
                        header, rows))
    return out


def _conflict_share(g: Group) -> np.ndarray:
    return g.raw.cell_wrong.reshape(g.info["height"], g.info["width"]) / max(1, g.raw.samples)


def heatmap_plots(groups: Sequence[Group]) -> list[Plot]:
    """How often each cell is in conflict, a panel per pair, one colour scale shared by every page."""
    ordered = _ordered(groups)
    top = max((float(_conflict_share(g).max()) for g in ordered), default=0.0)
    vmax = top if top > 0 else 1.0
    pages = _pages(ordered, PANELS_PER_PAGE)
    total = len(pages)
    out = []
    for number, page in enumerate(pages, 1):
        header = ["model", "setting", "row", "column", "share"]
        rows: list[list[Any]] = []
        with _style():
            fig, axes = _grid(len(page), _ncol(groups), 1.45, 2.0)
            image = None
            for ax, g in zip(axes, page):
                share = _conflict_share(g)
                image = ax.imshow(share, cmap="viridis", vmin=0.0, vmax=vmax, interpolation="nearest")
                _framed(ax)
                ax.set_title(f"{_wrap(g.model, 30)}\n{g.setting}", fontsize=6.5)
                rr, cc = np.nonzero(share >= 0)
                rows += [[g.model, g.setting, int(r) + 1, int(c) + 1, float(share[r, c])] for r, c in zip(rr, cc)]
            if image is not None:
                bar = fig.colorbar(image, ax=axes, location="bottom", shrink=0.6, aspect=40, pad=0.01)
                bar.set_label("share of samples with the cell in conflict (row and column views disagree)")
        caption = (
            f"How often each cell is in conflict: the share of samples whose row view and column view of the cell "
            f"disagree, one panel per model and setting (page {number} of {total}, raw samples). Every panel "
            f"of every page uses the same colour scale, from 0 (dark) to {vmax:.3g} (yellow, the largest share "
            "in the campaign), so equal colours are equal shares.")
        alt = (f"Heat maps, page {number} of {total}: the share of samples with each cell in conflict for "
               f"{len(page)} model and setting pairs on one shared colour scale from 0 to {vmax:.3g}."
               if page else "No samples.")
        out.append(Plot(f"conflicts-{number}", f"Cell conflicts (page {number} of {total})", caption, alt, fig,
                        header, rows))
    return out


def palette_colours(palette: Palette) -> Any:
    """A matplotlib colour map with one colour per palette entry, background first.

    A colour without RGB is drawn by its name when matplotlib knows it, else in a grey.
    """
    from matplotlib.colors import ListedColormap, is_color_like

    colours = []
    for k, c in enumerate((palette.background, *palette.colours)):
        if c.rgb:
            colours.append("#" + c.rgb)
        elif is_color_like(c.name):
            colours.append(c.name)
        else:
            colours.append(str(0.85 - 0.7 * k / max(len(palette) - 1, 1)))
    return ListedColormap(colours)


def picture_plots(groups: Sequence[Group]) -> list[Plot]:
    """The best (lowest-energy) picture found for each model, over every setting."""
    best: dict[str, Group] = {}
    for g in _ordered(groups):
        if g.model not in best or g.raw.best_energy < best[g.model].raw.best_energy:
            best[g.model] = g
    shown = list(best.values())
    pages = _pages(shown, PANELS_PER_PAGE)
    out = []
    for number, page in enumerate(pages, 1):
        rows: list[list[Any]] = []
        with _style():
            fig, axes = _grid(len(page), 5, 1.65, 1.4)
            for ax, g in zip(axes, page):
                cmap = palette_colours(g.raw.palette)
                ax.imshow(g.raw.best_grid, cmap=cmap, vmin=0, vmax=cmap.N - 1, interpolation="nearest")
                ax.set_title(f"{_wrap(g.model)}\nE = {g.raw.best_energy} ({g.setting})", fontsize=6.5)
                _framed(ax)
                rows.append([g.model, g.setting, g.raw.best_energy, "/".join(g.raw.palette.picture(g.raw.best_grid))])
        caption = (f"The lowest-energy picture the samples of any setting found for each model (page {number} "
                   f"of {len(pages)}), with its residual energy E (0: a valid picture) and the setting that found "
                   "it; each cell is drawn in its colour as the rows read it.")
        alt = (f"Grid of {len(page)} pictures, the best sample found for each model, from {page[0].model} to "
               f"{page[-1].model}." if page else "No samples.")
        out.append(Plot(f"best-{number}", f"Best picture of each model (page {number} of {len(pages)})",
                        caption, alt, fig, ["model", "setting", "energy", "picture"], rows))
    return out


def all_plots(groups: Sequence[Group]) -> list[Plot]:
    """Every figure of the report, in its order."""
    return [p_plot(groups), cost_plot(groups), *histogram_plots(groups), *heatmap_plots(groups),
            *picture_plots(groups)]


def write_figures(plots: Sequence[Plot], folder: str, progress: Callable[[int], None] | None = None) -> list[str]:
    """Write every plot as ``NAME.svg``, ``NAME.pdf`` and ``NAME.csv`` into *folder* (made if missing).

    Args:
        plots: the figures (:func:`all_plots`).
        folder: where to write them; files of the same names are replaced.
        progress: called with 1 after each figure.

    Returns:
        The paths written.
    """
    os.makedirs(folder, exist_ok=True)
    written = []
    for plot in plots:
        if progress is not None:
            progress(1)
        for fmt in ("svg", "pdf"):
            path = os.path.join(folder, f"{plot.name}.{fmt}")
            with atomic_write(path, binary=True) as fh:
                fh.write(figure_bytes(plot, fmt))
            written.append(path)
        path = os.path.join(folder, f"{plot.name}.csv")
        with atomic_write(path) as fh:
            fh.write(plot.csv_text())
        written.append(path)
    return written
