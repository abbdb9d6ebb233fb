"""Issue 30 items 5, 6 and 9: bounds drawn as bounds, labelled classes and time sources, -q and progress.

The campaign is small and made here: a random 5x5 family of three puzzles and three settings,
``anneal`` (simulated annealing, many successes), ``noise`` (uniformly random bits: no success, every
point a bound) at 12 reads and ``noise-big`` at 48 reads, each file recording a time per run of its
own, so the TTS plot is drawn.  Every expectation is computed here from its formula.
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import dimod
import numpy as np
import pytest

from tests.support import run_cli
from nonoqubo._util.progress import steps
from nonoqubo.campaign.aggregate import censored_bounds, group_stages, points
from nonoqubo.campaign.evaluate import evaluate
from nonoqubo.generation.families import parse_family
from nonoqubo.campaign.plots import cost_plot, figure_bytes, histogram_plots, p_plot
from nonoqubo.campaign.report_html import READABLE_PX, readable_width, render_report
from nonoqubo.campaign.suite import run_suite
from nonoqubo.inputs import load_model

SECONDS = {"anneal": 0.002, "noise": 0.001, "noise-big": 0.001}


def _sampleset(bits: np.ndarray, labels, seconds: float, setting: str) -> str:
    info = {"nonoqubo": {"sampler": setting, "parameters": {}, "timing": {"seconds_per_run": seconds,
                                                                        "time_source": "sampler timing"}}}
    ss = dimod.SampleSet.from_samples((bits, list(labels)), dimod.BINARY, energy=np.zeros(len(bits)), info=info)
    return json.dumps(ss.to_serializable())


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    from dwave.samplers import SimulatedAnnealingSampler

    root = tmp_path_factory.mktemp("bounds")
    run_suite([], root / "suite", families=[parse_family("5x5:0.5:3:1")], jobs=1)
    index = json.loads((root / "suite" / "index.json").read_text())["puzzles"]
    rng = np.random.default_rng(7)
    for entry in index:
        qubo = load_model(root / "suite" / entry["files"][0]["path"])
        ss = SimulatedAnnealingSampler().sample(qubo.to_bqm(), num_reads=20, num_sweeps=200, seed=1)
        annealed = ss.record.sample[:, [ss.variables.index(v) for v in qubo.labels]].astype(np.int8)
        noise = rng.integers(0, 2, (400, qubo.num_vars), np.int8)
        noise = noise[qubo.energy(noise) > 0]  # wrong pictures only: no success at all
        for setting, bits in (("anneal", annealed), ("noise", noise[:12]), ("noise-big", noise[12:60])):
            assert len(bits) == {"anneal": 20, "noise": 12, "noise-big": 48}[setting]
            folder = root / "runs" / setting
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{entry['name']}.json").write_text(_sampleset(bits, qubo.labels, SECONDS[setting], setting))
    return root


@pytest.fixture(scope="module")
def groups(campaign):
    return evaluate(str(campaign / "suite"), [str(campaign / "runs")], jobs=1)


def test_a_censored_point_sits_at_its_one_sided_bound(groups) -> None:
    pts = points(groups)
    cens = [pt for pt in pts if pt.censored]
    assert {pt.setting for pt in cens} == {"noise", "noise-big"} and all(not pt.censored for pt in pts
                                                                          if pt.setting == "anneal")
    for pt in cens:
        n = pt.samples
        want_p = 1 - 0.05 ** (1 / n)  # P(no success in n runs) = (1 - p)^n = 5 %
        assert pt.p_bound == pytest.approx(want_p, rel=1e-12)
        # the TTS bound is set by the time spent, n t, not by the runs alone: 1.537 n t
        assert pt.cost_bound == pytest.approx(SECONDS[pt.setting] * n * math.log(0.01) / math.log(0.05), rel=1e-9)
    assert all(pt.p_bound is None and pt.cost_bound is None for pt in pts if not pt.censored)
    p12, r12, t12 = censored_bounds(12, 0.001)
    p48, r48, t48 = censored_bounds(48, 0.001)
    assert p12 > p48 and t12 < t48  # fewer runs: a weaker p bound, and a lower cost bound


def _bound_lines(ax):
    """The lines of an axes drawn as bounds: open markers (white face) and arrow path markers."""
    from matplotlib.path import Path as MplPath

    opened = [ln for ln in ax.get_lines() if ln.get_linestyle() == "None" and ln.get_markerfacecolor() == "white"]
    arrows = [ln for ln in ax.get_lines() if isinstance(ln.get_marker(), MplPath)]
    return opened, arrows


def test_the_tables_show_a_censored_cost_as_its_bound(campaign, groups, tmp_path: Path) -> None:
    """No success: the CLI table, the report's table, the JSON and the CSV give the one-sided bound the figures draw."""
    status, text, err = run_cli("evaluate", campaign / "suite", campaign / "runs", "-j", "1")
    assert status == 0, err
    rows = {(line.split()[0], line.split()[1]): line for line in text.splitlines() if line.startswith("random-")}
    for g in groups:
        (f,) = [g.figures("raw")]
        line = rows[(g.model, g.setting)]
        if g.setting == "anneal" and f["valid"]:
            assert f["tts99_bound"] is None and "(>=" not in line
            continue
        n = {"noise": 12, "noise-big": 48}[g.setting]
        bound = SECONDS[g.setting] * math.log(0.01) / math.log(0.05 ** (1 / n))
        assert f["tts99_bound"] == pytest.approx(bound) and f["p_bound"] == pytest.approx(1 - 0.05 ** (1 / n))
        assert f"inf (>={bound:.3g})" in line
    assert any(line.startswith("inf (>=B): no run") for line in text.splitlines())
    # the report's table and its note
    page = render_report(groups)
    table = page[page.index("<table>"):page.index("</table>")]
    noisy = next(g for g in groups if g.setting == "noise-big")
    assert f"inf (&gt;={noisy.figures('raw')['tts99_bound']:.3g})" in table and "inf (&gt;=B)" in page
    # the JSON and the CSV carry the bounds as numbers
    status, text, err = run_cli("evaluate", campaign / "suite", campaign / "runs", "-j", "1", "--json",
                                "--csv", tmp_path / "f.csv")
    recs = {(r["model"], r["setting"]): r["raw"] for r in json.loads(text)["groups"]}
    assert recs[(noisy.model, "noise-big")]["tts99_bound"] == pytest.approx(noisy.figures("raw")["tts99_bound"])
    import csv

    by = {(r["model"], r["setting"]): r for r in csv.DictReader((tmp_path / "f.csv").open())}
    assert float(by[(noisy.model, "noise-big")]["r99_bound"]) == pytest.approx(noisy.figures("raw")["r99_bound"])



@pytest.mark.parametrize("which", ["p", "cost"])
def test_bounds_are_open_markers_with_arrows_never_joined(groups, which) -> None:
    plot = p_plot(groups) if which == "p" else cost_plot(groups)
    assert plot.name == ("p-vs-size" if which == "p" else "tts-vs-size")
    ax = plot.figure.axes[0]
    opened, arrows = _bound_lines(ax)
    pts = points(groups)
    bounds = sorted((pt.p_bound if which == "p" else pt.cost_bound) for pt in pts if pt.censored)
    drawn = sorted(float(y) for ln in opened for y in ln.get_ydata())
    medians = [r for r in (dict(zip(plot.header, row)) for row in plot.rows)
               if r["level"] == "class" and r["median_bound"]]
    assert drawn == pytest.approx(sorted(bounds + [r["median"] for r in medians]))
    assert sorted(float(y) for ln in arrows for y in ln.get_ydata()) == pytest.approx(drawn)
    # the arrows point to where the true value lies: down for p, up for the cost
    tip = [float(v[1]) for ln in arrows for v in ln.get_marker().vertices]
    assert (max(tip) > 0.9) == (which == "cost") and (min(tip) < -0.9) == (which == "p")
    # no line with a style joins anything at a bound's height
    for ln in ax.get_lines():
        if ln.get_linestyle() not in ("None", "none", ""):
            ys = np.asarray(ln.get_ydata(), float)
            assert not any(np.isclose(ys[np.isfinite(ys)], b).any() for b in bounds + [r["median"] for r in medians])
    legend = plot.figure.legends[0]
    texts = [t.get_text() for t in legend.get_texts()]
    assert any("bound" in t for t in texts) and all(t.get_visible() for t in legend.get_texts())
    n_cens = sum(pt.censored for pt in pts)
    assert f"Bounds here: {n_cens} of {len(pts)} instance points and {len(medians)} of" in plot.caption
    assert "1 - 0.05^(1/n)" in plot.caption


def test_size_classes_are_named_on_the_plot_and_time_sources_in_the_legend(groups) -> None:
    plot = cost_plot(groups)
    labels = [t.get_text() for ax in plot.figure.axes for top in ax.child_axes for t in top.get_xticklabels()]
    assert "5x5 d0.5" in labels
    texts = [t.get_text() for t in plot.figure.legends[0].get_texts()]
    for setting in SECONDS:
        assert f"{setting} (t: sampler timing)" in texts
    page = render_report(groups, plots=[plot])
    for g in groups:  # the table names each row's time source under its setting
        assert f'{g.setting}<br><span class="source">t: sampler timing</span>' in page


def test_polished_rows_only_where_polishing_changed_an_energy(groups) -> None:
    import copy
    import dataclasses

    same = copy.copy(groups[0])
    same.polished = same.raw
    assert group_stages(same) == ["raw"]
    changed = copy.copy(groups[0])
    values = changed.raw.values.copy()
    values[-1] += 1  # the samples of the highest energy one higher: an energy changed
    changed.polished = dataclasses.replace(changed.raw, values=values)
    assert group_stages(changed) == ["raw", "polished"]
    rows = [r[2] for r in histogram_plots([same])[0].rows]
    assert set(rows) == {"raw"}
    page = render_report([same], plots=[])
    assert ">polished<" not in page and "it changed none, so they have no polished row" in page


def test_histograms_scale_their_y_axis_to_their_data(groups) -> None:
    plot = histogram_plots(groups)[0]
    shares: dict[tuple[str, str], float] = {}
    for model, setting, _, _, _, _, share in plot.rows:
        shares[(model, setting)] = max(shares.get((model, setting), 0.0), share)
    panels = [ax for ax in plot.figure.axes if ax.axison]
    assert len(panels) == len(shares)
    for ax in panels:
        title = ax.get_title().splitlines()
        top = ax.get_ylim()[1]
        tallest = max(share for model, setting, *_, share in plot.rows if setting == title[-1]
                      and model.replace("\n", "") == "".join(title[:-1]))
        assert tallest <= top <= max(1.1, tallest * 1.6) and (tallest > 0.5 or top < 1)


def test_svg_text_stays_text_and_pdf_fonts_are_embedded(groups) -> None:
    plot = p_plot(groups)
    svg = figure_bytes(plot, "svg")
    assert b"<text" in svg and b"success probability p" in svg  # editable text, not glyph paths
    pdf = figure_bytes(plot, "pdf")
    assert b"/FontFile2" in pdf  # TrueType embedded (pdf.fonttype 42)
    width = readable_width(svg)
    sizes = [float(v) for v in re.findall(rb"font-size: ?([0-9.]+)px", svg)]
    points_wide = float(re.search(rb'width="([0-9.]+)pt"', svg).group(1))
    assert min(sizes) * width / points_wide >= READABLE_PX
    assert width <= 370  # a column figure fits a phone (390 px less the page's padding)


def test_quiet_prints_nothing_but_errors(campaign, tmp_path: Path) -> None:
    suite = campaign / "suite"
    status, out, err = run_cli("suite", "--random", "4x4:0.5:1:1", "-o", tmp_path / "s", "-j", "1", "-q")
    assert (status, out, err) == (0, "", "")
    model = sorted(Path(campaign / "suite").glob("*.qubo.json"))[0]
    status, out, err = run_cli("solve", model, "--reads", "4", "--seed", "1", "-q", "-o", tmp_path / "x.json")
    assert status in (0, 1) and (out, err) == ("", "") and (tmp_path / "x.json").exists(), err
    status, out, err = run_cli("evaluate", suite, campaign / "runs", "-q", "-j", "1", "--csv", tmp_path / "e.csv")
    assert (status, out, err) == (0, "", "") and (tmp_path / "e.csv").exists()
    status, out, err = run_cli("evaluate", suite, campaign / "runs", "-q", "-j", "1", "--time", "-1")
    assert status == 2 and out == "" and err.count("\n") == 1  # an error still says so, in one line


def test_build_quiet_prints_nothing(tmp_path: Path) -> None:
    from tests.support import ROOT

    status, out, err = run_cli("build", ROOT / "examples" / "qbpp-logo.yaml", "-q", "-o", tmp_path / "m.bqm")
    assert (status, out, err) == (0, "", "")


def test_forced_progress_in_a_log_is_a_line_per_ten_percent() -> None:
    log = io.StringIO()
    with steps(None, "judging sample files", quiet=False, stream=log, unit=" files", forced=True) as tick:
        tick.plan(54)
        for _ in range(54):
            tick(1)
    lines = log.getvalue().splitlines()
    assert len(lines) == 10 and lines[-1] == "judging sample files: 100 % (54 of 54 files)"
    assert [int(line.split(": ")[1].split(" %")[0]) // 10 for line in lines] == list(range(1, 11))
    quiet, unforced = io.StringIO(), io.StringIO()
    with steps(54, "x", quiet=True, stream=quiet, forced=True) as tick:
        tick(54)
    with steps(54, "x", quiet=False, stream=unforced, after=0.0) as tick:  # not a terminal, not forced: nothing
        tick(54)
    assert quiet.getvalue() == unforced.getvalue() == ""


def test_evaluate_reports_progress_in_a_log_only_when_forced(campaign) -> None:
    status, out, err = run_cli("evaluate", campaign / "suite", campaign / "runs", "-j", "1", "--progress")
    assert status == 0 and out.startswith("model")
    judged = [line for line in err.splitlines() if line.startswith("judging sample files:")]
    assert judged[-1] == "judging sample files: 100 % (9 of 9 files)" and len(judged) == 9
