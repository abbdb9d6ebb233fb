"""The HTML report of an evaluated campaign: one self-contained page, plots as embedded PNG.

``nonoqubo evaluate ... --report report.html`` writes one file that opens
anywhere with nothing beside it: every plot is a PNG drawn by matplotlib
(``Figure`` objects on the Agg canvas, no pyplot and no global backend
switch) and embedded as a ``data:image/png;base64,...`` URI.  The page holds:

1. a table of the figures per (model, setting), raw and polished;
2. success probability against model size (variables) per setting, with the
   Wilson intervals as error bars;
3. TTS99 against size per setting (log scale; settings that never succeed on a
   model have no point there);
4. residual-energy histograms, one panel per (model, setting);
5. heat maps of how often each cell is in conflict, one per (model, setting);
6. the best picture found for each model.

Panels beyond :data:`MAX_PANELS` are left out (the page says so): a report
is for reading, the JSON/CSV output has every figure.

matplotlib is an optional dependency (``pip install "nonoqubo[campaign]"``):
:func:`require_matplotlib` says so before any work.  The module owns the page and its
plots; :func:`palette_colours` is the colour map a colour puzzle's picture is drawn in.
"""

from __future__ import annotations

import base64
import html
import io
import math
import os
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import MissingDependency, NonoquboError
from .evaluate import Group
from ..model.palette import Palette

__all__ = ["MAX_PANELS", "check_report_path", "palette_colours", "render_report", "require_matplotlib"]

#: most histogram / heat-map panels drawn
MAX_PANELS = 24

_STYLE = """
body { font-family: sans-serif; margin: 2em; color: #222; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: right; }
th { background: #eee; } td.name { text-align: left; }
img { max-width: 100%; }
"""


def check_report_path(path: str | None) -> None:
    """Refuse a ``--report`` name that promises another format than the HTML page written.

    Raises:
        NonoquboError: the name does not end in ``.html`` or ``.htm``.
    """
    if path and os.path.splitext(path)[1].lower() not in (".html", ".htm"):
        raise NonoquboError(f"{path}: --report writes an HTML page; name the file .html "
                            "(print it to PDF from a browser if needed)")


def require_matplotlib() -> None:
    """Raise :class:`MissingDependency` now when matplotlib is missing (before any work is done)."""
    _figure(1, 1)


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependency("matplotlib", "campaign", "the HTML report (--report)") from None
    return Figure(figsize=(width, height), dpi=90, layout="constrained")


def _png(fig: Any) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    return base64.b64encode(buf.getvalue()).decode("ascii")


def _img(fig: Any, alt: str) -> str:
    return f'<img alt="{html.escape(alt)}" src="data:image/png;base64,{_png(fig)}">'


def _stages(groups: Sequence[Group]) -> list[str]:
    return ["raw", "polished"] if groups and all(g.polished is not None for g in groups) else ["raw"]


def _fmt(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if math.isinf(value):
            return "inf"
        return f"{value:.4g}"
    return str(value)


def _table(groups: Sequence[Group]) -> str:
    cols = [("samples", "samples"), ("valid", "valid"), ("p", "p"), ("p_lo", "p low"), ("p_hi", "p high"),
            ("seconds_per_run", "s / run"), ("tts99", "TTS99 s"), ("tts99_lo", "TTS99 low"),
            ("tts99_hi", "TTS99 high"), ("r99", "runs 99%"), ("energy_min", "E min"),
            ("energy_q50", "E median"), ("energy_q90", "E q90"), ("share_broken_walls", "broken walls"),
            ("share_order_violations", "order viol."), ("share_cell_conflicts", "cell conflicts")]
    head = "".join(f"<th>{html.escape(t)}</th>" for t in ("model", "setting", "stage", "variables")) + "".join(
        f"<th>{html.escape(t)}</th>" for _, t in cols)
    rows = []
    for g in groups:
        for stage in _stages(groups):
            f = g.figures(stage)
            cells = "".join(f"<td>{html.escape(_fmt(f[k]))}</td>" for k, _ in cols)
            rows.append(f'<tr><td class="name">{html.escape(g.model)}</td><td class="name">'
                        f"{html.escape(g.setting)}</td><td class=\"name\">{stage}</td>"
                        f"<td>{g.info['variables']}</td>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _against_size(groups: Sequence[Group], key: str, title: str, log: bool) -> str:
    fig = _figure(7, 4)
    ax = fig.add_subplot()
    settings = sorted({g.setting for g in groups})
    for colour, s in enumerate(settings):
        for stage in _stages(groups):
            mine = sorted((g for g in groups if g.setting == s), key=lambda g: g.info["variables"])
            xs, ys, lo, hi = [], [], [], []
            for g in mine:
                f = g.figures(stage)
                y = f[key]
                if y is None or not math.isfinite(y):
                    continue
                xs.append(g.info["variables"])
                ys.append(y)
                low, high = f[f"{key}_lo"], f[f"{key}_hi"]
                lo.append(y - low if low is not None else 0.0)
                hi.append((high - y) if high is not None and math.isfinite(high) else 0.0)
            if xs:
                ax.errorbar(xs, ys, yerr=[lo, hi], marker="o" if stage == "raw" else "s", capsize=3, color=f"C{colour % 10}",
                            linestyle="-" if stage == "raw" else "--", label=f"{s} ({stage})")
    ax.set_xlabel("variables")
    ax.set_ylabel(title)
    if log:
        ax.set_yscale("log")
    if ax.has_data():
        ax.legend(fontsize="small")
    else:
        ax.text(0.5, 0.5, "no finite value", ha="center", va="center", transform=ax.transAxes)
    return _img(fig, title)


def _small_multiples(count: int, height: float) -> tuple[Any, list[Any]]:
    """A figure with *count* panels, four a row; the unused cells of the last row are hidden."""
    ncol = min(4, count)
    nrow = math.ceil(count / ncol)
    fig = _figure(3.2 * ncol, height * nrow)
    axes = list(fig.subplots(nrow, ncol, squeeze=False).flat)
    for ax in axes[count:]:
        ax.set_axis_off()
    return fig, axes[:count]


def _panels(groups: Sequence[Group], kind: str) -> str:
    shown = list(groups)[:MAX_PANELS]
    if not shown:
        return "<p>No samples.</p>"
    fig, axes = _small_multiples(len(shown), 2.6)
    for ax, g in zip(axes, shown):
        title = f"{g.model} / {g.setting}"
        if kind == "hist":
            e, w = g.raw.energies, g.raw.weights
            bins = np.arange(int(e.min()), int(e.max()) + 2) if e.max() - e.min() < 60 else 40
            ax.hist(e, bins=bins, weights=w, color="tab:blue", alpha=0.7, label="raw")
            if g.polished is not None:
                ax.hist(g.polished.energies, bins=bins, weights=g.polished.weights, color="tab:orange",
                        alpha=0.6, label="polished")
                ax.legend(fontsize="x-small")
            ax.set_xlabel("residual energy")
        else:
            share = g.raw.cell_wrong.reshape(g.info["height"], g.info["width"]) / max(1, g.raw.samples)
            # a model no sample gets wrong gets the full 0..1 scale, not a 0..1e-9 one
            im = ax.imshow(share, cmap="magma", vmin=0.0, vmax=float(share.max()) or 1.0)
            fig.colorbar(im, ax=ax, shrink=0.8)
            ax.set_xticks([])
            ax.set_yticks([])
        ax.set_title(title, fontsize="small")
    what = "residual-energy histograms" if kind == "hist" else "cell-conflict heat maps"
    note = (f"<p>First {MAX_PANELS} of {len(groups)} (model, setting) pairs.</p>"
            if len(groups) > MAX_PANELS else "")
    return note + _img(fig, what)


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


def _best_pictures(groups: Sequence[Group]) -> str:
    best: dict[str, Group] = {}
    for g in groups:
        if g.model not in best or g.raw.best_energy < best[g.model].raw.best_energy:
            best[g.model] = g
    shown = list(best.values())[:MAX_PANELS]
    if not shown:
        return "<p>No samples.</p>"
    fig, axes = _small_multiples(len(shown), 3.0)
    for ax, g in zip(axes, shown):
        cmap = palette_colours(g.raw.palette)
        ax.imshow(g.raw.best_grid, cmap=cmap, vmin=0, vmax=cmap.N - 1, interpolation="nearest")
        ax.set_title(f"{g.model}: E = {g.raw.best_energy} ({g.setting})", fontsize="small")
        ax.set_xticks([])
        ax.set_yticks([])
    return _img(fig, "best pictures")


def render_report(groups: Sequence[Group], title: str = "nonoqubo campaign") -> str:
    """The whole report as one HTML document (a string).

    Raises:
        MissingDependency: matplotlib is not installed.
    """
    require_matplotlib()  # fail early, before any work
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>", f"<style>{_STYLE}</style>", "</head>", "<body>",
        f"<h1>{html.escape(title)}</h1>",
        "<p>p: success probability (energy 0) with its 95 % Wilson interval; TTS99 = t ln(0.01)/ln(1-p), "
        "at least one run, infinite when p = 0; energies are residual energies (ground state 0).</p>",
        "<h2>Figures</h2>", _table(groups),
        "<h2>Success probability against size</h2>", _against_size(groups, "p", "success probability", False),
        "<h2>TTS99 against size</h2>", _against_size(groups, "tts99", "TTS99 (s)", True),
        "<h2>Residual energy</h2>", _panels(groups, "hist"),
        "<h2>How often each cell is wrong (row and column views disagree)</h2>", _panels(groups, "heat"),
        "<h2>Best picture of each model</h2>", _best_pictures(groups),
        "</body>", "</html>",
    ]
    return "\n".join(parts) + "\n"
