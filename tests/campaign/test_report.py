"""The report's numbers (campaign/aggregate), its figures (campaign/plots, --figures) and its page.

Every figure is checked against values computed here from the samples themselves: energies from
``Qubo.energy``, the Wilson interval from its formula, quantiles from ``numpy.quantile``, and
whether a class quantile is only a bound by moving the censored instances to a huge value and
seeing whether the quantile moves.
"""

from __future__ import annotations

import csv
import json
import math
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import dimod
import numpy as np
import pytest

from tests.support import ROOT
from tests.support.wcag import contrast
from nonoqubo.inputs import load_model
from nonoqubo.campaign.aggregate import class_stats, cost_metric, points, size_class
from nonoqubo.campaign.evaluate import evaluate
from nonoqubo.generation.families import parse_family
from nonoqubo.campaign.plots import all_plots, cost_plot
from nonoqubo.campaign.report_html import CSS_COLOURS, STYLE, render_report
from nonoqubo.campaign.suite import run_suite

PUZZLES = ROOT / "tests" / "data" / "puzzles" / "json"
Z = 1.959963984540054


def wilson(k: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval, from its textbook formula."""
    p = k / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return (centre - half if k else 0.0), (centre + half if k < n else 1.0)


def p_bound(n: int) -> float:
    """The one-sided 95 % upper bound of p after no success in n runs (Clopper-Pearson): 0.05 = (1 - p)^n."""
    return 1.0 - 0.05 ** (1.0 / n)


def r99(p: float) -> float:
    return math.inf if p == 0 else 1.0 if p >= 0.99 else max(1.0, math.log(0.01) / math.log(1 - p))


def sampleset(bits: np.ndarray, labels, info: dict | None = None) -> str:
    ss = dimod.SampleSet.from_samples((bits, list(labels)), dimod.BINARY, energy=np.zeros(len(bits)),
                                      info=info or {})
    return json.dumps(ss.to_serializable())


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """A suite (a random 6x6 family of 4 and three shared puzzles) and three settings of samples.

    ``anneal``: simulated annealing, few sweeps (some valid, some not); ``noise``: uniformly random
    bits (no success: every instance censored); ``mixed``: half of each.  No file records a time.
    """
    from dwave.samplers import SimulatedAnnealingSampler

    root = tmp_path_factory.mktemp("report")
    suite = root / "suite"
    run_suite([str(PUZZLES / n) for n in ("gecode-heart.json", "dejoue-note-nin.json", "gecode-pinwheel.json")],
              suite, families=[parse_family("6x6:0.5:4:3")], jobs=1, truth=True)
    index = json.loads((suite / "index.json").read_text())["puzzles"]
    rng = np.random.default_rng(23)
    truth: dict[tuple[str, str], tuple[np.ndarray, np.ndarray]] = {}
    for entry in index:
        name = entry["name"]
        qubo = load_model(suite / entry["files"][0]["path"])
        annealed = SimulatedAnnealingSampler().sample(qubo.to_bqm(), num_reads=40, num_sweeps=12, seed=5)
        a = annealed.record.sample[:, [annealed.variables.index(v) for v in qubo.labels]].astype(np.int8)
        noise = rng.integers(0, 2, size=(30, qubo.num_vars), dtype=np.int8)
        mixed = np.concatenate((a[:20], noise[:20]))
        for setting, bits in (("anneal", a), ("noise", noise), ("mixed", mixed)):
            folder = root / "runs" / setting
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"{name}.json").write_text(sampleset(bits, qubo.labels))
            truth[(name, setting)] = (bits, qubo.energy(bits).astype(np.int64))
    return {"root": root, "suite": suite, "truth": truth, "index": {e["name"]: e for e in index}}


@pytest.fixture(scope="module")
def groups(campaign):
    return evaluate(str(campaign["suite"]), [str(campaign["root"] / "runs")], jobs=1)


def test_points_equal_independent_values(campaign, groups) -> None:
    pts = points(groups)
    assert cost_metric(groups) == "r99" and len(pts) == 7 * 3  # no file records a time: runs to 99 %
    censored = 0
    for pt in pts:
        _, e = campaign["truth"][(pt.model, pt.setting)]
        n, k = e.size, int((e == 0).sum())
        lo, hi = wilson(k, n)
        assert (pt.samples, pt.valid, pt.censored) == (n, k, k == 0)
        assert pt.p == pytest.approx(k / n) and pt.p_lo == pytest.approx(lo, abs=1e-12)
        assert pt.p_hi == pytest.approx(hi, abs=1e-12)
        assert pt.cost == pytest.approx(r99(k / n), rel=1e-12) and pt.cost_lo == pytest.approx(r99(hi))
        if k == 0:  # the censored bound: R99 at the upper end of the Wilson interval, z^2 / (n + z^2)
            assert hi == pytest.approx(Z * Z / (n + Z * Z)) and math.isfinite(pt.cost_lo) and pt.cost_lo > 1
        censored += k == 0
        assert pt.variables == campaign["index"][pt.model]["variables"]
    noise = [pt for pt in pts if pt.setting == "noise"]
    assert all(pt.censored for pt in noise) and 0 < censored < len(pts)
    assert any(0 < pt.p < 1 for pt in pts if pt.setting == "anneal")


def _expected_class(model: str, variables: int) -> str:
    if model.startswith("random-6x6-d0.5-"):
        return "random 6x6 d0.5"
    k = math.floor(math.log2(variables))
    return f"other, {2 ** k}-{2 ** (k + 1) - 1} variables"


def test_class_quantiles_equal_independent_values(campaign, groups) -> None:
    pts = points(groups)
    for quantity in ("p", "r99"):
        stats = class_stats(pts, quantity)
        seen = 0
        for st in stats:
            mine = [pt for pt in pts if pt.setting == st.setting and pt.stage == st.stage
                    and _expected_class(pt.model, pt.variables) == st.size_class]
            assert len(mine) == st.instances > 0
            seen += len(mine)
            cens = np.array([campaign["truth"][(pt.model, pt.setting)][1].min() > 0 for pt in mine])
            assert st.censored == int(cens.sum())
            if quantity == "p":
                vals = np.array([p_bound(pt.samples) if c else pt.valid / pt.samples for pt, c in zip(mine, cens)])
                far = np.where(cens, -1e12, vals)  # a censored p is at most its bound: push it to the far end
            else:
                vals = np.array([r99(p_bound(pt.samples)) if c else r99(pt.valid / pt.samples)
                                 for pt, c in zip(mine, cens)])
                far = np.where(cens, 1e12, vals)
            want = np.quantile(vals, [0.25, 0.5, 0.75])
            moved = np.quantile(far, [0.25, 0.5, 0.75])
            got = [st.q25, st.median, st.q75]
            assert got == pytest.approx(list(want), rel=1e-12)
            assert [st.q25_bound, st.median_bound, st.q75_bound] == [bool(not np.isclose(a, b))
                                                                     for a, b in zip(want, moved)]
            assert st.variables == np.median([pt.variables for pt in mine])
        assert seen == len(pts)
        assert any(st.median_bound for st in stats) and any(not st.median_bound for st in stats)


def test_size_classes() -> None:
    family = {"kind": "random", "width": 6, "height": 6, "density": 0.5, "seed": 3, "number": 2}
    assert size_class(family, 51).label == "random 6x6 d0.5"
    assert size_class(family, 20).random
    for n in (1, 2, 3, 64, 127, 128, 437, 1000):
        k = math.floor(math.log2(n))
        assert size_class(None, n).label == f"other, {2 ** k}-{2 ** (k + 1) - 1} variables"


def test_a_campaign_without_times_draws_finite_r99(groups) -> None:
    plot = cost_plot(groups)
    assert plot.name == "r99-vs-size" and "record no time per run" in plot.caption
    assert "R99" in plot.figure.axes[0].get_ylabel()
    rows = [dict(zip(plot.header, r)) for r in plot.rows]
    drawn = [r for r in rows if r["level"] == "instance" and not r["censored"]]
    assert drawn and all(math.isfinite(r["cost"]) and r["cost"] >= 1 for r in drawn)
    assert all(math.isfinite(r["cost_lo"]) for r in rows if r["level"] == "instance")  # censored: a finite bound
    ys = [y for line in plot.figure.axes[0].get_lines() for y in line.get_ydata()]
    assert ys and not any(math.isinf(y) for y in ys)  # nan: where a median line breaks at a bound


def test_times_from_solve_records_give_tts99_and_say_where(campaign, tmp_path: Path) -> None:
    """A SampleSet with solve -o's info record (per-run seconds) gives TTS99 = t R99 in seconds."""
    runs = tmp_path / "runs" / "timed"
    runs.mkdir(parents=True)
    t = {}
    for k, name in enumerate(sorted(campaign["index"])):
        bits, _ = campaign["truth"][(name, "anneal")]
        t[name] = 0.001 * (k + 1)
        labels = load_model(campaign["suite"] / campaign["index"][name]["files"][0]["path"]).labels
        info = {"nonoqubo": {"sampler": "sa", "parameters": {"reads": 40, "sweeps": 12},
                             "timing": {"seconds_per_run": t[name], "time_source": "sampler timing",
                                        "read_seconds": [t[name]] * len(bits)}}}
        (runs / f"{name}.json").write_text(sampleset(bits, labels, info))
    timed = evaluate(str(campaign["suite"]), [str(runs)], jobs=1)
    assert cost_metric(timed) == "tts99"
    for g in timed:
        assert g.seconds == pytest.approx(t[g.model]) and g.time_source == "sampler timing"
        assert g.run["sampler"] == "sa" and "read_seconds" not in g.run["timing"]
    plot = cost_plot(timed)
    assert plot.name == "tts-vs-size" and "timed: sampler timing" in plot.caption
    for row in (dict(zip(plot.header, r)) for r in plot.rows if r[0] == "instance"):
        _, e = campaign["truth"][(row["model"], "anneal")]
        assert row["cost"] == pytest.approx(t[row["model"]] * r99(float((e == 0).mean())))
    page = render_report(timed, command="nonoqubo evaluate suite runs")
    assert "sa (reads 40, sweeps 12)" in page and "TTS99 s [95% CI]" in page


def _csv(path: Path) -> list[dict[str, str]]:
    return list(csv.DictReader(path.open()))


@pytest.fixture(scope="module")
def cli_outputs(campaign):
    """``evaluate --json --figures DIR --report FILE`` run once, as a user runs it."""
    import contextlib
    import io

    from nonoqubo.cli import main

    out, report = campaign["root"] / "figures", campaign["root"] / "report.html"
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        status = main(["evaluate", str(campaign["suite"]), str(campaign["root"] / "runs"), "--json",
                       "--figures", str(out), "--report", str(report), "-j", "1", "-q"])
    assert status == 0
    return {"json": buf.getvalue(), "figures": out, "report": report}


def test_figures_folder_matches_the_json(cli_outputs) -> None:
    out, text = cli_outputs["figures"], cli_outputs["json"]
    doc = {(g["model"], g["setting"]): g for g in json.loads(text)["groups"]}
    names = sorted(p.stem for p in out.glob("*.csv"))
    assert names == ["best-1", "conflicts-1", "energy-1", "p-vs-size", "r99-vs-size"]
    for name in names:
        assert ET.parse(out / f"{name}.svg").getroot().tag == "{http://www.w3.org/2000/svg}svg"
        assert (out / f"{name}.pdf").read_bytes().startswith(b"%PDF-")
    for name, key in (("p-vs-size", "p"), ("r99-vs-size", "r99")):
        rows = [r for r in _csv(out / f"{name}.csv") if r["level"] == "instance"]
        assert len(rows) == len(doc)
        for r in rows:
            f = doc[(r["model"], r["setting"])]["raw"]
            assert (int(r["samples"]), int(r["valid"])) == (f["samples"], f["valid"])
            for col, want in (("p", f["p"]), ("p_lo", f["p_lo"]), ("p_hi", f["p_hi"]), ("cost", f["r99"])):
                assert (r[col] == "inf") if want == "inf" else float(r[col]) == pytest.approx(want, rel=1e-12), col
        classes = [r for r in _csv(out / f"{name}.csv") if r["level"] == "class"]
        for c in classes:  # a class median from the JSON, with the censored at their bounds
            mine = [f["raw"] for (m, s), f in doc.items() if s == c["setting"] and
                    _expected_class(m, f["variables"]) == c["size_class"]]
            vals = [(p_bound(f["samples"]) if key == "p" else r99(p_bound(f["samples"]))) if f["valid"] == 0 else
                    (f["p"] if key == "p" else f["r99"]) for f in mine]
            assert float(c["median"]) == pytest.approx(float(np.median(vals)), rel=1e-12)
    hist = _csv(out / "energy-1.csv")
    for (model, setting), g in doc.items():
        mine = [r for r in hist if (r["model"], r["setting"], r["stage"]) == (model, setting, "raw")]
        assert sum(int(r["samples"]) for r in mine) == g["raw"]["samples"]
        used = [(int(r["energy_from"]), int(r["energy_to"])) for r in mine if int(r["samples"]) > 0]
        assert used[0][0] <= g["raw"]["energy_min"] <= used[0][1]
        assert used[-1][0] <= g["raw"]["energy_max"] <= used[-1][1]
        at0 = [int(r["samples"]) for r in mine if (r["energy_from"], r["energy_to"]) == ("0", "0")]
        assert len(at0) <= 1 and sum(at0) == g["raw"]["valid"]  # energy 0 keeps a bin of its own
        # the bins tile the energies: each starts after the last ends
        spans = [(int(r["energy_from"]), int(r["energy_to"])) for r in mine]
        assert all(b[0] == a[1] + 1 for a, b in zip(spans, spans[1:]))
    heat = _csv(out / "conflicts-1.csv")
    for (model, setting), g in doc.items():
        shares = {(int(r["row"]), int(r["column"])): float(r["share"]) for r in heat
                  if (r["model"], r["setting"]) == (model, setting)}
        assert len(shares) == g["width"] * g["height"]
        for cell in g["raw"]["worst_cells"]:
            assert shares[(cell["row"], cell["column"])] == pytest.approx(cell["share"])
    best = {r["model"]: r for r in _csv(out / "best-1.csv")}
    for model, r in best.items():
        assert int(r["energy"]) == min(g["raw"]["best_energy"] for (m, _), g in doc.items() if m == model)


def test_every_pair_is_drawn_on_pages(groups, monkeypatch) -> None:
    import nonoqubo.campaign.plots as plots

    monkeypatch.setattr(plots, "PANELS_PER_PAGE", 5)
    drawn = plots.histogram_plots(groups)
    assert len(drawn) == math.ceil(len(groups) / 5)
    pairs = [{(r[0], r[1]) for r in p.rows} for p in drawn]
    assert set().union(*pairs) == {(g.model, g.setting) for g in groups}
    assert sum(len(p) for p in pairs) == len(groups)  # each pair on one page only
    heat = plots.heatmap_plots(groups)
    scales = {tuple(ax.images[0].get_clim()) for p in heat for ax in p.figure.axes if ax.images}
    assert len(scales) == 1  # one colour scale on every panel of every page


def test_histogram_bins_are_centred_on_integers(groups) -> None:
    (plot, *_) = all_plots(groups)[2:3]
    for ax in plot.figure.axes:
        for bar in ax.patches:
            centre = bar.get_x() + bar.get_width() / 2
            assert centre == pytest.approx(round(centre))
        if ax.patches:
            assert all(float(t).is_integer() for t in ax.get_xticks())


# -- the page ------------------------------------------------------------------------------------
class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data):
        self.text.append(data)


def test_contrast_of_the_page_colours() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") < 4.5 < contrast("#767676", "#ffffff")  # the known AA threshold
    for what, (fg, bg) in CSS_COLOURS.items():
        assert contrast(fg, bg) >= 4.5, what
    # every colour the style sheet sets as text or background is in a checked pair
    rules = re.findall(r"([^{}]+)\{([^}]*)\}", STYLE)
    text = {c.lower() for _, body in rules for c in re.findall(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", body)}
    backs = {c.lower() for _, body in rules for c in re.findall(r"background:\s*(#[0-9a-fA-F]{6})", body)}
    assert text <= {fg for fg, _ in CSS_COLOURS.values()}
    assert backs <= {bg for _, bg in CSS_COLOURS.values()}
    for _, body in rules:  # a rule that sets a text colour sets the background it is read on
        fg = re.search(r"(?<![-\w])color:\s*(#[0-9a-fA-F]{6})", body)
        if fg:
            bg = re.search(r"background:\s*(#[0-9a-fA-F]{6})", body)
            assert bg and contrast(fg.group(1), bg.group(1)) >= 4.5, body


def test_the_page_header_table_and_alt_texts(campaign, groups, cli_outputs) -> None:
    page = cli_outputs["report"].read_text()
    command = (f"nonoqubo evaluate {campaign['suite']} {campaign['root'] / 'runs'} --report {cli_outputs['report']} "
               f"--figures {cli_outputs['figures']} -j 1 --json")
    parser = _Page()
    parser.feed(page)
    tags = parser.tags
    text = " ".join(parser.text)
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in tags
    heads = [int(t[1]) for t, _ in tags if re.fullmatch(r"h[1-6]", t)]
    assert heads[0] == 1 and all(b - a <= 1 for a, b in zip(heads, heads[1:]))  # no level skipped
    from nonoqubo import __version__

    for needed in (__version__, "UTC", command, "CPUs", "Python",
                   "anneal", "noise", "mixed"):
        assert needed in text, needed
    imgs = [a for t, a in tags if t == "img"]
    assert len(imgs) == len(all_plots(groups)) == sum(t == "figure" for t, _ in tags)
    for a in imgs:
        assert a["src"].startswith("data:image/svg+xml;base64,") and len(a["alt"]) > 60
    assert len({a["alt"] for a in imgs}) == len(imgs)
    assert sum(t == "caption" for t, _ in tags) == 1
    ths = [a for t, a in tags if t == "th"]
    assert ths and all(a.get("scope") in ("col", "row") for a in ths)
    # figures before the table; nothing fetched from elsewhere
    assert page.index("<figure") < page.index("<table")
    assert not re.search(r"""(src|href)=["']?(https?:|//)""", page) and "url(" not in page and "@import" not in page
    # shares as percentages, as the CLI prints them
    f = groups[0].figures()
    assert f"{100 * f['share_cell_conflicts']:.1f}%" in page
    # distinct solutions found beside the count in the suite's index (suite --truth), per model and setting
    rows = re.findall(r'<tr><th scope="row" class="name">([^<]+)</th><td class="name">([^<]+)</td>'
                      r'<td class="name">raw</td>(?:<td>[^<]*</td>)*?<td>(\d+)/(&gt;=)?(\d+|\?)</td></tr>', page)
    assert len(rows) == len(groups)
    for model, setting, found, atleast, known in rows:
        entry = campaign["index"][model]
        bits, e = campaign["truth"][(model, setting)]  # a valid assignment is one picture
        assert int(found) == len(np.unique(bits[e == 0], axis=0)) and known == str(entry["solutions"])
        assert bool(atleast) == (not entry["solutions_exact"])


def test_polished_panels_only_when_polishing_changes_something(campaign, tmp_path: Path) -> None:
    groups = evaluate(str(campaign["suite"]), [str(campaign["root"] / "runs" / "anneal")], jobs=1, polish=True)
    changed = any(g.polished.valid != g.raw.valid for g in groups)
    assert changed  # a dozen sweeps leave samples a descent repairs
    plot = all_plots(groups)[0]
    assert [ax.get_title(loc="left") for ax in plot.figure.axes] == ["raw samples", "after steepest-descent polishing"]
    # the same groups with polished tallies equal to the raw: one panel, and the caption says why
    for g in groups:
        g.polished = g.raw
    plot = all_plots(groups)[0]
    assert len(plot.figure.axes) == 1 and "changed no success count" in plot.caption


def test_figures_folder_that_is_a_file_is_one_line_before_any_work(campaign, tmp_path: Path, run_cli) -> None:
    blocker = tmp_path / "taken"
    blocker.write_text("a file\n")
    for target in (blocker, blocker / "figures"):
        status, out, err = run_cli("evaluate", campaign["suite"], campaign["root"] / "runs", "--figures", target)
        assert status == 2 and not out and err.count("\n") == 1 and "--figures" in err and str(blocker) in err
    assert blocker.read_text() == "a file\n"


def test_a_time_given_on_the_command_line_is_named_as_the_source(campaign, groups) -> None:
    timed = evaluate(str(campaign["suite"]), [str(campaign["root"] / "runs" / "anneal")], jobs=1, seconds=0.5)
    plot = cost_plot(timed)
    assert plot.name == "tts-vs-size" and "anneal: given with --time" in plot.caption
