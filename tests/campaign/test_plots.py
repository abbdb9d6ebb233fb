"""The report's figures show their data however little there is (:mod:`nonoqubo.campaign.plots`).

README's tour evaluates one model with one setting: one size class, one instance. Each figure is
drawn to a real canvas and checked as a reader sees it: every drawn point lies inside its axes'
limits, and every text (tick labels, axis labels, legend, the colour bar's label, titles) lies
inside the figure.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.support import ROOT
from nonoqubo.campaign.evaluate import evaluate
from nonoqubo.campaign.plots import all_plots, cost_plot, p_plot

pytest.importorskip("matplotlib")


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    """The README tour's campaign: ``solve examples/qbpp-logo.yaml --seed 1`` then ``evaluate`` of its samples."""
    from tests.support import run_cli

    folder = tmp_path_factory.mktemp("tour")
    samples = folder / "samples.json"
    status, _, err = run_cli("solve", str(ROOT / "examples" / "qbpp-logo.yaml"), "--seed", "1", "-q",
                              "-o", str(samples))
    assert status == 0, err
    return evaluate(str(ROOT / "examples" / "qbpp-logo.yaml"), [str(samples)], jobs=1)


def _renderer(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    return canvas.get_renderer()


def _outside(fig) -> list[str]:
    """Where the drawn texts and legends of *fig* reach outside it, by more than a pixel (empty when all fit).

    The figure's tight bounding box holds every drawn artist (the tick labels matplotlib draws,
    axis labels, titles, legends, the colour bar's label, texts on the board).
    """
    renderer = _renderer(fig)
    inside = fig.bbox
    tight = fig.get_tightbbox(renderer).transformed(fig.dpi_scale_trans)  # inches to pixels
    sides = {"left": inside.x0 - tight.x0, "bottom": inside.y0 - tight.y0, "right": tight.x1 - inside.x1,
             "top": tight.y1 - inside.y1}
    return [f"{side} by {over:.1f} px" for side, over in sides.items() if over > 1.0]


def _tick_labels_shown(ax) -> list[str]:
    """The x tick labels a reader sees: drawn, non-empty, at a tick inside the axis range."""
    renderer = _renderer(ax.figure)
    lo, hi = ax.get_xlim()
    shown = []
    for tick in ax.xaxis.get_major_ticks():
        if lo <= tick.get_loc() <= hi and tick.label1.get_visible() and tick.label1.get_text():
            tick.label1.get_window_extent(renderer)
            shown.append(tick.label1.get_text())
    return shown


def test_size_plots_of_one_class_draw_their_point_inside_the_axes(tour) -> None:
    for plot in (p_plot(tour), cost_plot(tour)):
        ax = plot.figure.axes[0]
        x0, x1 = ax.get_xlim()
        y0, y1 = ax.get_ylim()
        assert x1 / x0 >= 2, f"{plot.name}: an x axis of no width ({x0}, {x1})"
        from matplotlib.collections import PathCollection

        drawn = np.concatenate([line.get_xydata() for line in ax.get_lines() if len(line.get_xydata())]
                               + [c.get_offsets() for c in ax.collections
                                  if isinstance(c, PathCollection) and len(c.get_offsets())])
        drawn = drawn[np.isfinite(drawn).all(axis=1)]
        assert len(drawn), plot.name
        assert ((drawn[:, 0] > x0) & (drawn[:, 0] < x1)).all(), (plot.name, drawn, (x0, x1))
        assert ((drawn[:, 1] > y0) & (drawn[:, 1] < y1)).all(), (plot.name, drawn, (y0, y1))
        # the class's variable count (437 for the logo) is between two labelled ticks
        labels = [float(t) for t in _tick_labels_shown(ax)]
        variables = float(plot.rows[0][plot.header.index("variables")])
        assert len(labels) >= 2 and min(labels) < variables < max(labels), (plot.name, labels)
        ys = [t for t in ax.get_yticks() if y0 <= t <= y1]
        assert ys, f"{plot.name}: no labelled y tick"


@pytest.mark.parametrize("kind", ["p-vs-size", "tts-vs-size", "energy-1", "conflicts-1", "best-1"])
def test_every_text_of_the_tour_figures_is_inside_the_figure(tour, kind) -> None:
    plots = {p.name: p for p in all_plots(tour)}
    assert _outside(plots[kind].figure) == []


def test_many_settings_fit_their_legend(tour) -> None:
    """Five settings with long names: the legend takes one column rather than leave the figure."""
    import dataclasses

    groups = [dataclasses.replace(tour[0], setting=f"setting-with-a-long-name-{k}") for k in range(5)]
    for plot in (p_plot(groups), cost_plot(groups)):
        assert _outside(plot.figure) == [], plot.name
