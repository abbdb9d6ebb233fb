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
  censored bound (an open marker with a down arrow at the one-sided 95 % bound
  :func:`~nonoqubo.campaign.aggregate.censored_bounds`, never joined to a measured point, counted
  in the caption); the size classes named along the top axis (log scales);
* ``tts-vs-size`` (``r99-vs-size`` without times): TTS99 in seconds, or R99 in runs when a
  setting's files record no time per run, drawn the same way (bounds with up arrows), each
  setting's legend entry saying where its time per run came from;
* ``energy-N``: residual-energy histograms, one panel per (model, setting), integer-centred
  bins, each panel's y axis scaled to its tallest bar, the polished outline (and its CSV rows)
  only where polishing changed the histogram, pages of :data:`PANELS_PER_PAGE` panels (every
  pair appears);
* ``conflicts-N``: how often each cell is in conflict, the same panels, on one colour scale
  shared by every panel of every page;
* ``best-N``: the best picture found for each model.

Style: one column (3.4 in) for the size plots, two columns (7 in) for the panels; 8 pt text;
the Okabe-Ito colour-blind-safe colours with a different marker per setting.  SVG text stays
text (``svg.fonttype`` "none": editable in a vector editor, searchable in the page), PDF fonts
are embedded as TrueType (``pdf.fonttype`` 42).  No layout engine runs: the axes are placed on
rectangles computed from the known text sizes (:func:`_cells`, :func:`_size_axes`), titles and
axis labels at fixed offsets, and the heat maps and pictures are images on one board axes per
page (:func:`_image_panel`), so drawing a figure measures no text and a page of 24 panels draws
in a fraction of the time a constrained layout took (``benchmarks/README.md``).

matplotlib is optional (the ``campaign`` extra): :func:`require_matplotlib` says so first.
"""

from __future__ import annotations

import contextlib
import functools
import io
import math
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

from .._util.atomic import atomic_write
from ..errors import MissingDependency, NonoquboError
from ..model.palette import Palette
from .aggregate import (
    MAX_BARS, ClassStat, Group, Point, best_pictures, bound_counts, class_places, class_stats,
    conflict_maps, conflict_scale, cost_label, cost_metric, csv_table, energy_panels, instance_marks, lowest_p, median_lines,
    points, stages_to_draw, time_notes, time_sources,
)
from .._util.jobs import workers

__all__ = [
    "PANELS_PER_PAGE", "Plot", "SMALLEST_TEXT", "all_plots", "check_figures_folder", "cost_plot", "count_plots", "drawn_plots", "figure_bytes", "heatmap_plots", "histogram_plots",
    "p_plot", "palette_colours", "picture_plots", "require_matplotlib", "write_figures",
]

#: panels on one page of small multiples (every pair is drawn, on as many pages as needed)
PANELS_PER_PAGE = 24
#: Okabe & Ito's colour-blind-safe palette (black last; it is also the instances' colour)
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000")
MARKERS = ("o", "s", "D", "^", "v", "P", "X", "h")
COLUMN = 3.4  # inches, one column of a two-column paper
#: the smallest text of any figure, in points (panel titles, the size classes); the report sizes figures from it
SMALLEST_TEXT = 6.5
PAGE = 7.0  # inches, both columns
_RC: dict[RcKeyType, Any] = {
    "font.size": 8, "axes.titlesize": 8, "axes.labelsize": 8, "xtick.labelsize": 7, "ytick.labelsize": 7,
    "legend.fontsize": 7, "axes.spines.top": False, "axes.spines.right": False, "lines.linewidth": 1.0,
    "svg.fonttype": "none", "pdf.fonttype": 42, "svg.hashsalt": "nonoqubo", "figure.dpi": 100,
    # the PDF's glyph tracker takes its subset size from ps.fonttype: at 42 a minus sign (U+2212) stays in
    # the one embedded subset of the font instead of starting a second (each subset is a fontTools run)
    "ps.fonttype": 42,
    "axes.titley": 1.0,
    "image.composite_image": False,  # the panels of a board stay one image each in SVG and PDF, not one raster  # titles at a fixed height above their axes: not moved above tick labels at each drawing
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
    #: its width in inches, kept when a worker drew it and sent back only the bytes (``figure`` None)
    width: float | None = None

    def width_inches(self) -> float:
        """The figure's width in inches."""
        return self.width if self.figure is None and self.width is not None else float(self.figure.get_size_inches()[0])

    def csv_text(self) -> str:
        """The numbers drawn, as CSV (:func:`~nonoqubo.campaign.aggregate.csv_table`: infinity as ``inf``, missing
        as an empty field)."""
        return csv_table(self.header, self.rows)


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
    """A figure without a layout engine: its axes are placed at rectangles computed here (:class:`_Box`)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height))


# -- fixed layout ------------------------------------------------------------------------------
# No layout engine: a constrained layout measured every text of every panel at every save (over
# half the drawing time of a page of 24 panels). The text sizes are known, so the margins are
# computed from them, in points, and every axes is placed with ``fig.add_axes``; titles and axis
# labels sit at fixed offsets (``axes.titley`` 1.0, ``set_label_coords``), so matplotlib does not
# measure the tick labels to move them either.
_PT = 1 / 72  # inches per point
_LINE = 1.2  # a line of text is its font size times this high (matplotlib's line spacing)
_TICK = 3.5 + 3.5  # points from an axis to its tick labels: tick length and pad
_LABEL_PAD = 4.0  # points between the tick labels and the axis label


@functools.lru_cache(maxsize=None)
def _text_width(text: str, points: float) -> float:
    """The width in points of one line of *text* at *points* in the figures' font (its glyphs' advances)."""
    from matplotlib.font_manager import FontProperties, findfont, get_font

    with _style():
        font = get_font(findfont(FontProperties(size=points)))
    font.set_size(points, 72)
    font.set_text(text, 0.0)
    return float(font.get_width_height()[0]) / 64


def _fit_lines(text: str, points: float, width: float) -> str:
    """*text* broken at spaces into lines no wider than *width* points (a word longer than that keeps its line)."""
    lines: list[str] = []
    for word in text.split():
        if lines and _text_width(f"{lines[-1]} {word}", points) <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return "\n".join(lines)


def _lines_high(lines: int, points: float) -> float:
    """Points taken by *lines* lines of text at *points*."""
    return lines * points * _LINE


def _place(fig: Any, left: float, bottom: float, width: float, height: float, **kw: Any) -> Any:
    """An axes at a rectangle given in inches from the figure's bottom left corner."""
    w, h = fig.get_size_inches()
    return fig.add_axes((left / w, bottom / h, max(width, 0.05) / w, max(height, 0.05) / h), **kw)


def _label_at(ax: Any, x_points: float | None = None, y_points: float | None = None) -> None:
    """Fix the axis labels at *x_points* below the axes and *y_points* left of it (no measuring at drawing)."""
    from matplotlib.transforms import offset_copy

    fig = ax.get_figure()
    if y_points is not None:
        ax.yaxis.set_label_coords(0, 0.5, transform=offset_copy(ax.transAxes, fig, x=-y_points, y=0, units="points"))
    if x_points is not None:
        ax.xaxis.set_label_coords(0.5, 0, transform=offset_copy(ax.transAxes, fig, x=0, y=-x_points, units="points"))


def figure_bytes(plot: Plot, fmt: str) -> bytes:
    """The figure as ``svg``, ``pdf`` or ``png`` bytes (no date or tool version inside, for stable files)."""
    if fmt not in plot.drawn:
        if plot.figure is None:
            raise NonoquboError(f"{plot.name}: drawn in a worker without {fmt}; draw it with that format")
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


def _class_names(stats: Sequence[ClassStat]) -> list[tuple[str, float]]:
    """The size classes as the top axis of a size plot names them (shortened), at their places (:func:`class_places`)."""
    return [(n.removeprefix("random ").replace("other, ", "").replace(" variables", " vars"), x)
            for n, x in class_places(stats)]


#: the size classes' names on the top axis are turned by this many degrees
_CLASS_ANGLE = 35.0


def _size_axes(fig: Any, stages: Sequence[str], stats: Sequence[ClassStat], legend_rows: int,
               span: tuple[float, float]) -> list[Any]:
    """The axes of a size plot, one per stage, stacked, on rectangles computed from the texts around them.

    Above the first: the size classes' names (turned, :data:`SMALLEST_TEXT`); below the last: the
    x axis label and the legend of *legend_rows* rows; on the left the y tick labels and label.
    The x axis runs over *span* (:func:`_x_span`), set here, never left to autoscaling.
    """
    from matplotlib.ticker import LogLocator, NullFormatter, StrMethodFormatter

    width, height = fig.get_size_inches()
    sin, cos = math.sin(math.radians(_CLASS_ANGLE)), math.cos(math.radians(_CLASS_ANGLE))
    names = _class_names(stats)
    tall = max((_text_width(n, SMALLEST_TEXT) * sin + SMALLEST_TEXT * cos for n, _ in names), default=0.0)
    title = _lines_high(1, 8) + 6.0 if len(stages) > 1 else 0.0
    top = 2.0 + title + (tall + 5.0 if names else 0.0)
    legend = 2 * 2.8 + legend_rows * _lines_high(1, 7) + (legend_rows - 1) * 3.5 + 2.0  # (pads: matplotlib's)
    bottom = legend + 2.0 + _TICK + _lines_high(1, 7) + _LABEL_PAD + _lines_high(1, 8)
    tick_w = _TICK + max(_text_width(t, 7) for t in ("0.0001", "1e+05"))
    left = 2.0 + _lines_high(1, 8) + _LABEL_PAD + tick_w
    # the last class name leans out to the right of its tick: room for what passes the axes' end
    right = 6.0 + max((_text_width(n, SMALLEST_TEXT) * cos - (1 - _log_place(x, span)) * (width * 72 - left - 40)
                       for n, x in names[-1:]), default=0.0)
    right = max(right, 6.0)
    gap = title + 6.0  # between two stages: the lower one's title
    box_h = (height * 72 - top - bottom - gap * (len(stages) - 1)) / len(stages)
    axes: list[Any] = []
    for k, stage in enumerate(stages):
        y0 = bottom + (len(stages) - 1 - k) * (box_h + gap)
        ax = _place(fig, left * _PT, y0 * _PT, width - (left + right) * _PT, box_h * _PT,
                    **({"sharex": axes[0]} if axes else {}))
        axes.append(ax)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(*span)
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
        # plain numbers (0.01, 1, 1e+03), not 10^k: no superscripts, whose small text a phone could not read
        ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        if k < len(stages) - 1:
            ax.tick_params(axis="x", labelbottom=False)
        _label_at(ax, x_points=_TICK + _lines_high(1, 7) + _LABEL_PAD - 3.0, y_points=tick_w + _LABEL_PAD - 3.0)
        if len(stages) > 1:
            lift = 1.0 + ((tall + 5.0) / box_h if k == 0 and names else 0.0)  # the first above the class names
            ax.set_title(f"{stage} samples" if stage == "raw" else "after steepest-descent polishing", loc="left",
                         y=lift)
    axes[-1].set_xlabel("QUBO variables")
    return axes


def _x_span(pts: Sequence[Point], stats: Sequence[ClassStat], settings: int) -> tuple[float, float]:
    """The x range of a size plot, from its data: every instance and class, the settings' sideways shifts, a margin.

    One size (a single model, or one size class) still gets a range: a factor of at least 3 either
    side of it (matplotlib's autoscaling gives a log axis of zero width there, which draws nothing).
    """
    xs = [float(v) for v in [*(pt.variables for pt in pts), *(st.variables for st in stats)] if v > 0]
    if not xs:
        return 1.0, 10.0
    lo, hi = min(xs), max(xs)
    shift = max(_offsets(max(settings, 1)))
    pad = max(1.15 * shift, (hi / lo) ** 0.06, math.sqrt(9.0 * lo / hi))
    return lo / pad, hi * pad


def _log_place(x: float, span: tuple[float, float]) -> float:
    """Where *x* falls along a size plot's log x axis over *span* (0 its left end, 1 its right)."""
    lo, hi = math.log(span[0]), math.log(span[1])
    return min(1.0, max(0.0, (math.log(x) - lo) / (hi - lo)))


def _y_room(ax: Any) -> None:
    """Widen a log y axis that autoscaling left narrower than a decade (no labelled tick, or one) to a factor of 16."""
    lo, hi = ax.get_ylim()
    if lo > 0 and hi / lo < 10.0:
        mid = math.sqrt(lo * hi)
        ax.set_ylim(min(lo, mid / 4), max(hi, mid * 4))


def _arrow_marker(up: bool) -> Any:
    """A marker that is an open arrow from the point up (or down): "the true value lies this way"."""
    from matplotlib.path import Path

    sign = 1.0 if up else -1.0
    verts = [(0.0, 0.3 * sign), (0.0, 1.0 * sign), (-0.35, 0.62 * sign), (0.0, 1.0 * sign), (0.35, 0.62 * sign)]
    codes = [Path.MOVETO, Path.LINETO, Path.MOVETO, Path.LINETO, Path.LINETO]
    return Path(verts, codes)


def _draw_bounds(ax: Any, x: np.ndarray, y: np.ndarray, colour: str, marker: str, up: bool, size: float,
                 alpha: float = 1.0) -> None:
    """Bounds: an open marker at the bound with an arrow pointing to where the true value lies."""
    ax.plot(x, y, linestyle="none", marker=marker, markersize=size, markerfacecolor="white", markeredgecolor=colour,
            markeredgewidth=0.9, alpha=alpha, zorder=4)
    ax.plot(x, y, linestyle="none", marker=_arrow_marker(up), markersize=size * 2.6, markerfacecolor="none",
            markeredgecolor=colour, markeredgewidth=0.9, alpha=alpha, zorder=4)


def _draw_size(ax: Any, pts: Sequence[Point], stats: Sequence[ClassStat], settings: Sequence[str], quantity: str) -> None:
    """Instances faint (Wilson bars; censored ones as open markers with arrows at their bound), class medians and IQRs bold.

    A bound is never joined by a line to a measured value: the lines between class medians
    break at a median that is only a bound.
    """
    offs = _offsets(len(settings))
    up = quantity != "p"  # a censored value is a lower bound of the cost, an upper bound of p
    for k, s in enumerate(settings):
        colour, marker = COLOURS[k % len(COLOURS)], MARKERS[k % len(MARKERS)]
        (x, y, lo, hi), (xb, yb) = instance_marks([pt for pt in pts if pt.setting == s], quantity)
        if x.size:
            ax.errorbar(x * offs[k], y, yerr=[y - lo, hi - y], fmt=".", color=colour, alpha=0.3, markersize=3,
                        elinewidth=0.6, capsize=0, zorder=1)
        if xb.size:
            _draw_bounds(ax, xb * offs[k], yb, colour, marker, up, 3.2, alpha=0.55)
        cs = [st for st in stats if st.setting == s]
        if cs:
            x = np.array([st.variables for st in cs]) * offs[k]
            med = np.array([st.median for st in cs])
            exact = np.array([not st.median_bound for st in cs])
            ax.errorbar(x, med, yerr=[med - np.array([st.q25 for st in cs]), np.array([st.q75 for st in cs]) - med],
                        fmt="none", ecolor=colour, elinewidth=1.4, capsize=2.5, zorder=3)
            # medians joined only within one kind of class (median_lines): a random family's sizes (one
            # density) solid, the variable-count bins of the other puzzles dotted; never a bound to
            # anything (the line breaks where the median is only a bound)
            for idx in median_lines(cs):
                ax.plot(x[idx], np.where(exact[idx], med[idx], np.nan), color=colour, linewidth=0.9,
                        linestyle="-" if cs[idx[0]].random else ":", zorder=3)
            ax.scatter(x[exact], med[exact], marker=marker, s=28, color=colour, edgecolors="white",
                       linewidths=0.5, zorder=4)
            if (~exact).any():
                _draw_bounds(ax, x[~exact], med[~exact], colour, marker, up, 5.5)


def _class_axis(ax: Any, stats: Sequence[ClassStat]) -> None:
    """The size classes named along the top of a size plot, at the variable count each is drawn at."""
    from matplotlib.ticker import NullLocator

    names = _class_names(stats)
    if not names:
        return
    top = ax.secondary_xaxis("top")
    top.set_xticks([x for _, x in names], [n for n, _ in names], rotation=_CLASS_ANGLE, ha="left",
                   rotation_mode="anchor", fontsize=SMALLEST_TEXT)
    top.xaxis.set_minor_locator(NullLocator())
    top.tick_params(axis="x", length=2, pad=1)
    top.xaxis.set_label_coords(0.5, 1.0)  # no label: nothing to measure and move at drawing


def _legend_labels(settings: Sequence[str], quantity: str, times: dict[str, str] | None = None) -> list[str]:
    """The texts of :func:`_legend`: a setting an entry, then the instances and the bounds."""
    up = quantity != "p"
    return ([s + (f" (t: {times[s]})" if times and s in times else "") for s in settings]
            + ["instance (95 % Wilson bar)", "no success: " + ("lower" if up else "upper") + " bound (open, arrow)"])


def _legend_columns(labels: Sequence[str], width: float) -> int:
    """Two columns when two of the widest entries fit side by side in *width* inches, else one.

    An entry is its marker (2 em), a pad (0.8 em) and its text at 7 pt; the columns are 2 em apart
    and the frame pads 0.4 em on each side (matplotlib's legend defaults).
    """
    em = 7.0
    entry = 2.8 * em + max((_text_width(t, 7) for t in labels), default=0.0)
    return 2 if 2 * entry + 2.0 * em + 0.8 * em + 4.0 <= width * 72 else 1


def _legend(fig: Any, settings: Sequence[str], quantity: str, times: dict[str, str] | None = None) -> None:
    """One entry per setting (with where its time per run came from, on a cost plot), the instances, the bounds."""
    from matplotlib.legend_handler import HandlerTuple
    from matplotlib.lines import Line2D

    up = quantity != "p"
    labels = _legend_labels(settings, quantity, times)
    handles: list[Any] = [Line2D([], [], color=COLOURS[k % len(COLOURS)], marker=MARKERS[k % len(MARKERS)],
                                 markersize=5) for k in range(len(settings))]
    handles.append(Line2D([], [], color="0.3", marker=".", linestyle="none", alpha=0.6))
    bound = (Line2D([], [], color="0.2", marker="o", markersize=5, markerfacecolor="white", linestyle="none"),
             Line2D([], [], color="0.2", marker=_arrow_marker(up), markersize=13, markerfacecolor="none",
                    linestyle="none"))
    handles.append(bound)
    fig.legend(handles=handles, labels=labels, loc="lower center", bbox_to_anchor=(0.5, 0.0), borderaxespad=0.2,
               ncols=_legend_columns(labels, fig.get_size_inches()[0]), frameon=False,
               handler_map={tuple: HandlerTuple(ndivide=1)})


def _legend_rows(labels: Sequence[str], width: float) -> int:
    """The rows of :func:`_legend` with *labels* in a figure *width* inches wide."""
    return math.ceil(len(labels) / _legend_columns(labels, width))


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
        axes = _size_axes(fig, stages, stats, _legend_rows(_legend_labels(settings, "p"), COLUMN),
                          _x_span(pts, stats, len(settings)))
        for ax, stage in zip(axes, stages):
            _draw_size(ax, [pt for pt in pts if pt.stage == stage], [st for st in stats if st.stage == stage],
                       settings, "p")
            ax.set_ylabel("success probability p")
            ax.set_ylim(lowest_p(pts) / 2, 1.5)
        _class_axis(axes[0], stats)
        _legend(fig, settings, "p")
    caption = (
        "Success probability p (the share of runs that end at energy 0, a valid picture) against model size "
        "(QUBO variables), one colour and marker per setting. " + _SIZE_WORDS.format(classes=_classes_note(stats))
        + " Open markers with a down arrow are bounds, not values: an instance with no success (p = 0, which a "
        "log axis cannot show) is drawn at p_bound = 1 - 0.05^(1/n) for its n runs (about 3/n), the one-sided "
        "95 % upper confidence bound of p: with no success in n runs, p is below it with 95 % confidence. That "
        "height depends on the runs alone, so a setting with fewer runs has a higher, weaker bound: it is no "
        "sign of a better setting. Such an instance enters its class's quantiles at its bound; a median it could "
        "still move is drawn open with a down arrow (an upper bound) and no line joins it." + _bounds_note(pts, stats)
        + _stage_note(groups, stages))
    censored = bound_counts(pts, stats)[0]
    alt = (f"Log-log plot of success probability against QUBO variables for {len(settings)} settings "
           f"({', '.join(settings)}): class medians with interquartile bars over faint instance points; "
           f"{censored} instance{'s' if censored != 1 else ''} with no success drawn as bounds.")
    return Plot("p-vs-size", "Success probability against size", caption, alt, fig, list(SIZE_HEADER),
                _rows(SIZE_HEADER, pts, stats))


def _bounds_note(pts: Sequence[Point], stats: Sequence[ClassStat]) -> str:
    """How many drawn points are bounds: instances and class medians."""
    censored, medians = bound_counts(pts, stats)
    return (f" Bounds here: {censored} of {len(pts)} instance points and {medians} of {len(stats)} class medians"
            f"; the other {len(pts) - censored + len(stats) - medians} points are measured values.")


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
    """The CSV rows of a size plot: an instance's row per point, then a class's per statistic."""
    rows = [{"level": "instance", **asdict(pt)} for pt in pts] + [{"level": "class", **asdict(st)} for st in stats]
    return [[row.get(h) for h in header] for row in rows]


def cost_plot(groups: Sequence[Group]) -> Plot:
    """TTS99 (seconds) or R99 (runs) against size (see the module docstring)."""
    stages = stages_to_draw(groups)
    metric = cost_metric(groups)
    pts = points(groups, stages, metric)
    stats = class_stats(pts, metric)
    settings = _settings(groups)
    times = time_sources(groups) if metric == "tts99" else None
    with _style():
        fig = _figure(COLUMN, 2.2 * len(stages) + 0.9)
        axes = _size_axes(fig, stages, stats, _legend_rows(_legend_labels(settings, metric, times), COLUMN),
                          _x_span(pts, stats, len(settings)))
        for ax, stage in zip(axes, stages):
            _draw_size(ax, [pt for pt in pts if pt.stage == stage], [st for st in stats if st.stage == stage],
                       settings, metric)
            ax.set_ylabel(cost_label(metric))
            if metric == "r99":
                ax.set_ylim(bottom=0.7)
            _y_room(ax)
        _class_axis(axes[0], stats)
        _legend(fig, settings, metric, times)
    if metric == "tts99":
        what = ("TTS99, the time to reach a valid picture with 99 % probability: TTS99 = t R99 with "
                "R99 = ln(0.01)/ln(1 - p) runs (at least one run) and t the seconds per run. "
                f"Where t came from, per setting: {time_notes(groups)}.")
        name, title = "tts-vs-size", "TTS99 against size"
    else:
        missing = sorted({g.setting for g in groups if g.seconds is None})
        what = ("R99, the number of runs needed to reach a valid picture with 99 % probability: "
                "R99 = ln(0.01)/ln(1 - p), at least one run. R99 is drawn instead of TTS99 because the sample "
                f"files of {', '.join(missing)} record no time per run (give one with --time, or save the "
                "samples with a solver that records it).")
        name, title = "r99-vs-size", "Runs to 99 % (R99) against size"
    per = "1.537 n t (at least 1.54 times the sampling time n t spent without a success)" if metric == "tts99" \
        else "1.537 n runs"
    caption = (what + " One colour and marker per setting" + ("; the legend says where each setting's t came from"
                                                               if metric == "tts99" else "") + ". "
               + _SIZE_WORDS.format(classes=_classes_note(stats))
               + " The faint bars are the cost at the two ends of p's 95 % Wilson interval. Open markers with an up "
               "arrow are bounds, not values: an instance with no success (p = 0, infinite cost) is drawn at the "
               f"cost of p_bound = 1 - 0.05^(1/n) for its n runs, R99(p_bound) = n ln(0.01)/ln(0.05), that is {per}: "
               "with 95 % confidence the true cost is at least that (a lower bound; more runs without a success push "
               "it up). Such an instance enters its class's quantiles at that bound; a median it could still move is "
               "drawn open with an up arrow (a lower bound) and no line joins it." + _bounds_note(pts, stats)
               + _stage_note(groups, stages)
               + (" The polished TTS99 uses the same time per run: the descent's own time is not counted."
                  if metric == "tts99" and len(stages) > 1 else ""))
    unit = "seconds" if metric == "tts99" else "runs"
    censored = bound_counts(pts, stats)[0]
    alt = (f"Log-log plot of {cost_label(metric)} in {unit} against QUBO variables for {len(settings)} settings "
           f"({', '.join(settings)}): class medians with interquartile bars over faint instance points; "
           f"{censored} instance{'s' if censored != 1 else ''} with no success drawn as lower bounds.")
    return Plot(name, title, caption, alt, fig, list(SIZE_HEADER), _rows(SIZE_HEADER, pts, stats))


# -- small multiples ---------------------------------------------------------------------------
def _pages(items: Sequence[Any], only: int | None) -> tuple[int, list[tuple[int, Sequence[Any]]]]:
    """How many pages of :data:`PANELS_PER_PAGE` *items* make (one, empty, for none), and the pages numbered
    from 1: every one, or with *only* that page alone."""
    pages = [items[i:i + PANELS_PER_PAGE] for i in range(0, len(items), PANELS_PER_PAGE)] or [[]]
    return len(pages), [(n, page) for n, page in enumerate(pages, 1) if only is None or n == only]


def _cells(count: int, ncol: int, panel_h: float, panel_w: float, *, title_lines: int, ticks: bool = False,
           ylabel: bool = False, xlabel: bool = False, below: float = 0.0) -> tuple[Any, list[tuple[float, ...]],
                                                                            tuple[float, float]]:
    """A figure of *count* panels, *ncol* a row, at most :data:`PAGE` wide, and its panels' rectangles.

    Every cell of the grid holds a panel and the texts around it: *title_lines* lines of
    :data:`SMALLEST_TEXT` above it, tick labels left and below when *ticks*; the figure keeps a
    margin on the left for a y axis label (*ylabel*), one at the bottom for an x axis label
    (*xlabel*) and *below* more points under that (a legend, a colour bar).  Returns the figure,
    the panels' (left, bottom, width, height) in inches and the points from a panel to its x
    and y axis labels.
    """
    ncol = max(1, min(ncol, count))
    nrow = max(1, math.ceil(count / ncol))
    fig = _figure(min(PAGE, panel_w * ncol + 0.4), panel_h * nrow + 0.6)
    width, height = (float(v) for v in fig.get_size_inches())
    tick_w = _TICK + _text_width("0.000", 7) if ticks else 2.0  # the widest y tick label of a share
    tick_h = _TICK + _lines_high(1, 7) if ticks else 2.0
    label = _LABEL_PAD + _lines_high(1, 8)
    left = (label if ylabel else 0.0) + 2.0
    bottom = (label if xlabel else 0.0) + below
    title = _lines_high(title_lines, SMALLEST_TEXT) + 6.0 + 1.0  # (6: the title's pad)
    right = 10.0 if ticks else 2.0  # the last x tick label may reach past its axes
    cell_w = (width - (left + right) * _PT) / ncol
    cell_h = (height - (2.0 + bottom) * _PT) / nrow
    rects: list[tuple[float, ...]] = []
    for k in range(count):
        r, c = divmod(k, ncol)
        top = height - 2.0 * _PT - r * cell_h  # the cell's top: its title, its axes, its tick labels
        rects.append((left * _PT + c * cell_w + tick_w * _PT, top - cell_h + tick_h * _PT,
                      cell_w - (tick_w + 6.0) * _PT, cell_h - (tick_h + title) * _PT))
    return fig, rects, (tick_h + _LABEL_PAD - 3.0, tick_w + _LABEL_PAD - 3.0)


def _grid(count: int, ncol: int, panel_h: float, panel_w: float, **kw: Any) -> tuple[Any, list[Any]]:
    """:func:`_cells` with an axes on every panel, its axis labels at fixed offsets."""
    fig, rects, (below, beside) = _cells(count, ncol, panel_h, panel_w, **kw)
    axes = [_place(fig, *rect) for rect in rects]
    for ax in axes:
        _label_at(ax, x_points=below, y_points=beside)
    return fig, axes


def _board(fig: Any) -> Any:
    """One axes over the whole figure, its units inches, no axis drawn: where the image panels are drawn."""
    width, height = fig.get_size_inches()
    board = fig.add_axes((0, 0, 1, 1))
    board.set_axis_off()
    board.set_xlim(0, width)
    board.set_ylim(0, height)
    return board


def _image_panel(board: Any, rect: tuple[float, ...], data: np.ndarray, title: str, **kw: Any) -> Any:
    """*data* drawn as an image of square cells, as large as fits *rect* and centred in it, framed, titled.

    One image, one frame and one title per panel on a shared board (an axes per panel, with its
    axis machinery, cost most of a page's drawing).
    """
    from matplotlib.patches import Rectangle

    x0, y0, w, h = rect
    rows, cols = data.shape[:2]
    cell = min(w / max(cols, 1), h / max(rows, 1))
    iw, ih = cell * cols, cell * rows
    left, bottom = x0 + (w - iw) / 2, y0 + (h - ih) / 2
    image = board.imshow(data, extent=(left, left + iw, bottom, bottom + ih), aspect="auto", origin="upper",
                         interpolation="nearest", **kw)
    board.add_patch(Rectangle((left, bottom), iw, ih, fill=False, linewidth=0.5, edgecolor="black", zorder=3))
    board.text(left + iw / 2, bottom + ih + 6.0 * _PT, title, ha="center", va="baseline", fontsize=SMALLEST_TEXT,
               linespacing=_LINE)
    return image


def _ncol(groups: Sequence[Group]) -> int:
    n = len(_settings(groups))
    return n if 1 <= n <= 4 else 4


def _bars(left: np.ndarray, width: np.ndarray, height: np.ndarray) -> Any:
    """Bars from 0 to *height* as one collection (one artist per panel, not one per bar: drawing is fast)."""
    from matplotlib.collections import PolyCollection

    right = left + width
    verts = np.stack([np.stack([left, np.zeros_like(left)], 1), np.stack([left, height], 1),
                      np.stack([right, height], 1), np.stack([right, np.zeros_like(left)], 1)], axis=1)
    return PolyCollection(list(verts), facecolors=COLOURS[0], edgecolors="none", linewidths=0)


def _share_top(top: float) -> float:
    """The top of a histogram's y axis: a little above its tallest bar, on a round value (at most 1)."""
    return next(step for step in (0.01, 0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75, 1.0, 1.1) if top * 1.08 <= step)


def histogram_plots(groups: Sequence[Group], only: int | None = None) -> list[Plot]:
    """Residual-energy histograms, a panel per (model, setting), pages of :data:`PANELS_PER_PAGE`.

    With *only* (a page number, from 1) only that page is made, on the scales of them all (a worker's share).
    """
    ordered = energy_panels(groups)  # every number drawn: bins, counts, shares, the model's span (aggregate)
    total, pages = _pages(ordered, only)
    out = []
    for number, page in pages:
        header = ["model", "setting", "stage", "energy_from", "energy_to", "samples", "share"]
        rows: list[list[Any]] = []
        any_polished = any(panel.polished is not None for panel in page)
        with _style():
            from matplotlib.ticker import MaxNLocator

            titles = [f"{_wrap(panel.group.model, 30)}\n{panel.group.setting}" for panel in page]
            fig, axes = _grid(len(page), _ncol(groups), 1.45, 2.4, title_lines=max((t.count("\n") + 1 for t in titles),
                                                                                    default=1),
                              ticks=True, ylabel=True, xlabel=True, below=16.0 if any_polished else 0.0)
            for ax, panel, title in zip(axes, page, titles):
                g, raw, polished = panel.group, panel.raw, panel.polished
                wide = 0.9 * (raw.last - raw.first + 1)
                ax.add_collection(_bars((raw.first + raw.last) / 2 - wide / 2, wide, raw.share))
                rows += [[g.model, g.setting, "raw", int(xi), int(xe), int(ci), si]
                         for xi, xe, ci, si in zip(raw.first, raw.last, raw.samples, raw.share)]
                if polished is not None:
                    rows += [[g.model, g.setting, "polished", int(xi), int(xe), int(ci), si]
                             for xi, xe, ci, si in zip(polished.first, polished.last, polished.samples, polished.share)]
                    edges = np.concatenate((polished.first - 0.5, [polished.last[-1] + 0.5]))
                    ax.stairs(polished.share, edges, color="black", linewidth=1.0, label="polished")
                ax.set_xlim(panel.low - 0.7 * panel.width, panel.high + 0.7 * panel.width)
                ax.set_ylim(0, _share_top(panel.tallest))
                ax.xaxis.set_major_locator(MaxNLocator(integer=True, nbins=5))
                ax.set_title(title, fontsize=SMALLEST_TEXT)
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
                           loc="lower center", bbox_to_anchor=(0.5, 0.0), borderaxespad=0.2, ncols=2, frameon=False)
        widths = {panel.group.model: panel.width for panel in page}
        wide = sorted(m for m in widths if widths[m] > 1)
        caption = (
            f"Residual energy (the energy above the ground state 0; 0 is a valid picture) of the samples, one "
            f"panel per model and setting (page {number} of {total}; {len(ordered)} pairs in all, "
            "ordered by model size). Bars: the share of samples at each integer energy, one bar per integer, "
            "centred on it. Each panel's y axis runs from 0 to a round value just above its tallest bar (read "
            "the scale of each panel: heights are comparable within a panel, not between panels); the x axis is "
            "shared by a model's panels."
            + (f" Models whose energies span more than {MAX_BARS} integers have bars of several integers each "
               f"({', '.join(f'{m}: {widths[m]}' for m in wide)}; energy 0 keeps a bar of its own); the CSV gives "
               "each bar's range." if wide else "")
            + (" Black outline: the same samples after steepest-descent polishing (drawn only where it differs)."
               if any_polished else ""))
        alt = (f"Small multiples, page {number} of {total}: bar charts of the share of samples at each residual "
               f"energy for {len(page)} model and setting pairs, from {page[0].group.model} to "
               f"{page[-1].group.model}." if page else "No samples.")
        out.append(Plot(f"energy-{number}", f"Residual energy (page {number} of {total})", caption, alt, fig,
                        header, rows))
    return out


def heatmap_plots(groups: Sequence[Group], only: int | None = None) -> list[Plot]:
    """How often each cell is in conflict, a panel per pair, one colour scale shared by every page.

    *only*: make that page alone (its number, from 1).
    """
    maps = conflict_maps(groups)  # the shares and their one scale (aggregate)
    vmax = conflict_scale(maps)
    total, pages = _pages(maps, only)
    out = []
    for number, page in pages:
        header = ["model", "setting", "row", "column", "share"]
        rows: list[list[Any]] = []
        with _style():
            fig_w = min(PAGE, 2.0 * max(1, min(_ncol(groups), len(page))) + 0.4)
            bar_h = 0.6 * (fig_w - 4 * _PT) / 40 / _PT
            # the colour bar's label in as many lines as the figure's width needs (the caption says the rest)
            label = _fit_lines("share of samples with the cell in conflict", 8, (fig_w - 8 * _PT) * 72)
            under = _TICK + _lines_high(1, 7) + _LABEL_PAD + _lines_high(label.count("\n") + 1, 8)
            fig, rects, _ = _cells(len(page), _ncol(groups), 1.45, 2.0, title_lines=max(
                (_wrap(m.group.model, 30).count("\n") + 2 for m in page), default=1), below=bar_h + under + 4.0)
            board = _board(fig)
            image = None
            for rect, m in zip(rects, page):
                g = m.group
                image = _image_panel(board, rect, m.share, f"{_wrap(g.model, 30)}\n{g.setting}", cmap="viridis",
                                     vmin=0.0, vmax=vmax)
                rows += [[g.model, g.setting, r, c, share] for r, c, share in m.cells()]
            if image is not None:
                width = fig.get_size_inches()[0] - 4 * _PT  # the colour bar: 60 % of the panels' width, 1/40 as high
                cax = _place(fig, 2 * _PT + 0.2 * width, under * _PT, 0.6 * width, bar_h * _PT)
                bar = fig.colorbar(image, cax=cax, orientation="horizontal")
                _label_at(cax, x_points=_TICK + _lines_high(1, 7) + _LABEL_PAD - 3.0)
                bar.set_label(label, fontfeatures=["-liga"], linespacing=_LINE, va="top")  # "fl" as two glyphs: no second font subset in the PDF
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


def picture_plots(groups: Sequence[Group], only: int | None = None) -> list[Plot]:
    """The best (lowest-energy) picture found for each model, over every setting.

    *only*: make that page alone (its number, from 1).
    """
    total, pages = _pages(best_pictures(groups), only)
    out = []
    for number, page in pages:
        rows: list[list[Any]] = []
        with _style():
            titles = [f"{_wrap(g.model)}\nE = {g.raw.best_energy} ({g.setting})" for g in page]
            fig, rects, _ = _cells(len(page), 5, 1.65, 1.4, title_lines=max((t.count("\n") + 1 for t in titles),
                                                                             default=1))
            board = _board(fig)
            for rect, g, title in zip(rects, page, titles):
                cmap = palette_colours(g.raw.palette)
                _image_panel(board, rect, g.raw.best_grid, title, cmap=cmap, vmin=0, vmax=cmap.N - 1)
                rows.append([g.model, g.setting, g.raw.best_energy, "/".join(g.raw.palette.picture(g.raw.best_grid))])
        caption = (f"The lowest-energy picture the samples of any setting found for each model (page {number} "
                   f"of {total}), with its residual energy E (0: a valid picture) and the setting that found "
                   "it; each cell is drawn in its colour as the rows read it.")
        alt = (f"Grid of {len(page)} pictures, the best sample found for each model, from {page[0].model} to "
               f"{page[-1].model}." if page else "No samples.")
        out.append(Plot(f"best-{number}", f"Best picture of each model (page {number} of {total})",
                        caption, alt, fig, ["model", "setting", "energy", "picture"], rows))
    return out


def all_plots(groups: Sequence[Group]) -> list[Plot]:
    """Every figure of the report, in its order."""
    return [p_plot(groups), cost_plot(groups), *histogram_plots(groups), *heatmap_plots(groups),
            *picture_plots(groups)]


#: the figure makers of :func:`all_plots`: the paged ones take the page to make (a worker's task is one page)
_KINDS: dict[str, Callable[..., Any]] = {
    "energy": histogram_plots, "conflicts": heatmap_plots, "best": picture_plots, "p": p_plot, "cost": cost_plot,
}
_ORDER = ("p", "cost", "energy", "conflicts", "best")


def _tasks(groups: Sequence[Group]) -> list[tuple[str, int | None]]:
    """Every figure as (kind, page): the pages of the small multiples one by one, costliest kinds first."""
    pairs = math.ceil(len(groups) / PANELS_PER_PAGE) or 1
    models = math.ceil(len({g.model for g in groups}) / PANELS_PER_PAGE) or 1
    return ([("energy", k) for k in range(1, pairs + 1)] + [("conflicts", k) for k in range(1, pairs + 1)]
            + [("best", k) for k in range(1, models + 1)] + [("p", None), ("cost", None)])


def _made_and_drawn(task: tuple[str, int | None, Sequence[Group], tuple[str, ...]]) -> list[Plot]:
    """One page of one kind of figure made and drawn in every format (in a worker): the plots come back drawn."""
    kind, page, groups, formats = task
    made = _KINDS[kind](groups) if page is None else _KINDS[kind](groups, only=page)
    plots = made if isinstance(made, list) else [made]
    for plot in plots:
        for fmt in formats:
            figure_bytes(plot, fmt)
        plot.width = float(plot.figure.get_size_inches()[0])
        plot.figure = None  # the bytes travel back, not the matplotlib objects
    return plots


def count_plots(groups: Sequence[Group]) -> int:
    """How many figures :func:`all_plots` makes (two size plots and the pages of the panels)."""
    return len(_tasks(groups))


def drawn_plots(groups: Sequence[Group], formats: Sequence[str] = ("svg",), jobs: int | None = 1,
                progress: Callable[[int], None] | None = None) -> list[Plot]:
    """:func:`all_plots`, each figure drawn in *formats*, with *jobs* worker processes.

    With ``jobs > 1`` every figure (each size plot, each page of histograms, heat maps and
    pictures) is made and drawn in a worker; what comes back is the plots with their bytes
    (``figure`` None, ``width`` their width in inches).  *progress* is called with 1 per figure.
    """
    formats = tuple(formats)
    jobs = workers(jobs)
    if jobs <= 1:
        plots = all_plots(groups)
        for plot in plots:
            for fmt in formats:
                figure_bytes(plot, fmt)
            if progress is not None:
                progress(1)
        return plots
    from .._util.workers import pool

    tasks = _tasks(groups)
    done: dict[tuple[str, int | None], list[Plot]] = {}
    with pool(min(jobs, len(tasks))) as executor:  # workers that die with the command
        futures = {executor.submit(_made_and_drawn, (kind, page, groups, formats)): (kind, page) for kind, page in tasks}
        from concurrent.futures import as_completed

        for future in as_completed(futures):
            done[futures[future]] = future.result()
            if progress is not None:
                progress(len(done[futures[future]]))
    return [plot for kind in _ORDER for task in tasks if task[0] == kind for plot in done[task]]


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
