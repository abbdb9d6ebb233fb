"""`nonoqubo evaluate` on samples whose validity is known: every figure recomputed independently."""

from __future__ import annotations

import base64
import csv
import json
import math
from html.parser import HTMLParser
from pathlib import Path

import dimod
import numpy as np
import pytest

from tests.support import SHARED
from nonoqubo import exports
from nonoqubo.model.build import build
from nonoqubo.clues import spec
from nonoqubo.answers.decode import decode
from nonoqubo.model.encoding import Layout
from nonoqubo.campaign.evaluate import evaluate, polisher, runs_to_solution, wilson
from nonoqubo.campaign.report_html import render_report
from nonoqubo.campaign.suite import run_suite

LOGO = SHARED / "json" / "qbpp-logo.json"
Q = (0.1, 0.25, 0.5, 0.75, 0.9)


def flipped(x: np.ndarray, flips: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One copy of *x* per entry of *flips*, with that many distinct bits flipped."""
    out = np.repeat(x[None, :], flips.size, axis=0)
    for s, k in enumerate(flips):
        pos = rng.choice(x.size, size=int(k), replace=False)
        out[s, pos] ^= 1
    return out


@pytest.fixture(scope="module")
def campaign(tmp_path_factory):
    """The logo (unique solution) and two settings of samples: solutions and solutions with flipped bits.

    ``annealer``: one SampleSet with repeats (num_occurrences) and D-Wave timing in its info;
    ``heuristic``: two bit-string files, no timing (given with ``seconds``).
    """
    root = tmp_path_factory.mktemp("campaign")
    puzzle = spec.from_dict(json.loads(LOGO.read_text()), source=str(LOGO))
    qubo = build(puzzle)
    model = root / "logo.qubo.json"
    exports.dump(qubo, model)
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    rng = np.random.default_rng(15)
    settings = {}
    a = flipped(x, rng.choice([0, 0, 1, 2, 3, 8], size=40), rng)
    occ = rng.integers(1, 6, size=40)
    ss = dimod.SampleSet.from_samples((a, qubo.labels), dimod.BINARY, energy=qubo.energy(a).astype(float),
                                      num_occurrences=occ, info={"timing": {"qpu_anneal_time_per_sample": 20.0}})
    (root / "runs" / "annealer").mkdir(parents=True)
    (root / "runs" / "annealer" / "logo.json").write_text(json.dumps(ss.to_serializable()))
    settings["annealer"] = (a, occ, 20e-6)
    (root / "runs" / "heuristic").mkdir()
    parts = [flipped(x, rng.choice([0, 1, 4], size=n), rng) for n in (25, 15)]
    for k, part in enumerate(parts):
        (root / "runs" / "heuristic" / f"logo-{k}.txt").write_text(
            "\n".join("".join(map(str, row)) for row in part) + "\n")
    b = np.concatenate(parts)
    settings["heuristic"] = (b, np.ones(len(b), np.int64), None)
    return {"root": root, "model": model, "qubo": qubo, "puzzle": puzzle, "settings": settings}


def expected(qubo, bits: np.ndarray, w: np.ndarray, t: float | None) -> dict:
    """The figures, computed here from Qubo.energy and the textbook formulas."""
    e = qubo.energy(bits)
    n = int(w.sum())
    k = int(w[e == 0].sum())
    p = k / n
    z = 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    lo, hi = (centre - half if k else 0.0), (centre + half if k < n else 1.0)

    def r99(q: float) -> float:
        return math.inf if q == 0 else 1.0 if q >= 0.99 else max(1.0, math.log(0.01) / math.log(1 - q))

    rep = np.repeat(e, w)
    return {"samples": n, "valid": k, "p": p, "p_lo": lo, "p_hi": hi, "r99": r99(p),
            "tts99": None if t is None else t * r99(p), "tts99_lo": None if t is None else t * r99(hi),
            "tts99_hi": None if t is None else t * r99(lo), "energy_min": int(e.min()),
            "energy_max": int(e.max()), "energy_mean": float(rep.mean()),
            **{f"energy_q{round(q * 100):02d}": int(np.quantile(rep, q, method="inverted_cdf")) for q in Q}}


def test_figures_equal_independent_values(campaign) -> None:
    groups = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], jobs=1, seconds=None)
    assert [(g.setting, g.files) for g in groups] == [("annealer", 1), ("heuristic", 2)]
    for g in groups:
        bits, w, t = campaign["settings"][g.setting]
        got, want = g.figures(), expected(campaign["qubo"], bits, w, t)
        for key, value in want.items():
            if isinstance(value, float) and math.isfinite(value):
                assert got[key] == pytest.approx(value, rel=1e-12), (g.setting, key)
            else:
                assert got[key] == value, (g.setting, key)
        assert 0 < got["valid"] < got["samples"]
        # broken-term shares against the per-sample reports of decode()
        reports = decode(campaign["puzzle"], bits)
        for share, attr in (("share_broken_walls", "broken_walls"), ("share_order_violations", "order_violations"),
                            ("share_cell_conflicts", "cell_conflicts")):
            hits = np.array([bool(getattr(r, attr)) for r in reports])
            assert got[share] == pytest.approx(w[hits].sum() / w.sum()), share
        # the most often wrong cell: counted here from the reports
        counts = np.zeros((15, 15))
        for r, k in zip(reports, w):
            counts += k * r.conflicts
        top = got["worst_cells"][0]
        assert top["share"] == pytest.approx(counts.max() / w.sum())
        assert counts[top["row"] - 1, top["column"] - 1] == counts.max()
        assert got["best_energy"] == 0 and got["best_picture"] == list(campaign["puzzle"].solution)


def test_time_from_the_command_line_overrides_the_files(campaign) -> None:
    groups = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], jobs=1, seconds=0.5)
    for g in groups:
        f = g.figures()
        assert f["seconds_per_run"] == 0.5 and f["tts99"] == pytest.approx(0.5 * f["r99"])


def test_workers_give_the_same_figures(campaign) -> None:
    one = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], jobs=1)
    two = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], jobs=2)
    assert [g.figures() for g in one] == [g.figures() for g in two]


def test_polish_never_raises_an_energy(campaign) -> None:
    qubo = campaign["qubo"]
    bits, w, _ = campaign["settings"]["annealer"]
    raw = qubo.energy(bits)
    polished = polisher(str(campaign["model"]))(bits.copy())
    after = qubo.energy(polished)
    assert (after <= raw).all() and (after < raw).any()
    # one flipped bit from the (unique) solution: the steepest step flips it back
    flips = np.count_nonzero(bits != Layout.of(campaign["puzzle"]).encode(campaign["puzzle"].solution_grid()), axis=1)
    assert (after[flips <= 1] == 0).all()
    groups = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], polish=True, jobs=1)
    for g in groups:
        r, p = g.figures("raw"), g.figures("polished")
        assert p["samples"] == r["samples"] and p["valid"] >= r["valid"]
        for key in ("energy_min", "energy_max", *(f"energy_q{round(q * 100):02d}" for q in Q)):
            assert p[key] <= r[key]
        b, ww, _ = campaign["settings"][g.setting]
        e = qubo.energy(polisher(str(campaign["model"]))(b.copy()))
        assert p["valid"] == int(ww[e == 0].sum())


class _Checker(HTMLParser):
    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.images: list[str] = []
        self.doctype = False

    def handle_decl(self, decl: str) -> None:
        self.doctype = self.doctype or decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag == "img":
            self.images.append(dict(attrs)["src"])
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def test_html_report_is_valid_with_embedded_plots(campaign, tmp_path: Path, run_cli) -> None:
    out = tmp_path / "report.html"
    status, text, err = run_cli("evaluate", campaign["model"], campaign["root"] / "runs", "--polish",
                                "--report", out, "--csv", tmp_path / "f.csv", "-j", "1")
    assert status == 0, err
    checker = _Checker()
    checker.feed(out.read_text())
    checker.close()
    assert checker.doctype and not checker.errors and not checker.stack
    assert len(checker.images) == 5  # p, TTS99, histograms, heat maps, best pictures
    for src in checker.images:
        assert src.startswith("data:image/svg+xml;base64,")
        assert b"<svg" in base64.b64decode(src.split(",", 1)[1])[:400]
    assert "annealer" in text and "polished" in text
    rows = list(csv.DictReader((tmp_path / "f.csv").open()))
    assert [(r["setting"], r["stage"]) for r in rows] == [
        ("annealer", "raw"), ("annealer", "polished"), ("heuristic", "raw"), ("heuristic", "polished")]
    assert render_report([]).count("<img") == 5  # an empty campaign still renders (every figure, empty)


def test_json_output_and_bad_samples(campaign, tmp_path: Path, run_cli) -> None:
    status, text, _ = run_cli("evaluate", campaign["model"], campaign["root"] / "runs" / "heuristic",
                              "--json", "-j", "1")
    doc = json.loads(text)
    (g,) = doc["groups"]
    assert status == 0 and g["setting"] == "heuristic" and g["raw"]["tts99"] is None
    bad = tmp_path / "bad" / "run.txt"
    bad.parent.mkdir()
    bad.write_text("0101\n")
    report = tmp_path / "r.html"
    status, text, err = run_cli("evaluate", campaign["model"], campaign["root"] / "runs", bad,
                                "--report", report, "-j", "2")
    assert status == 2 and err.count("\n") == 1 and str(bad) in err and not text
    assert not report.exists()


def test_statistics_conventions() -> None:
    assert wilson(5, 10) == pytest.approx((0.2365930905, 0.7634069095))  # the textbook example
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert runs_to_solution(0.0) == math.inf and runs_to_solution(1.0) == 1.0
    assert runs_to_solution(0.995) == 1.0
    assert runs_to_solution(0.01) == pytest.approx(math.log(0.01) / math.log(0.99))


def test_a_suite_folder_as_the_model(tmp_path: Path) -> None:
    suite = tmp_path / "suite"
    webpbn1 = SHARED / "json" / "gecode-webpbn1.json"
    run_suite([str(LOGO), str(webpbn1)], suite, formats=["qubo-json"], jobs=1)
    runs = tmp_path / "runs" / "sa"
    runs.mkdir(parents=True)
    for path in (LOGO, webpbn1):
        p = spec.from_dict(json.loads(path.read_text()), source=str(path))
        x = Layout.of(p).encode(p.solution_grid())
        (runs / f"{path.stem}-r1.txt").write_text("".join(map(str, x)) + "\n" + "".join(map(str, 1 - x)) + "\n")
    groups = evaluate(str(suite), [str(tmp_path / "runs")], jobs=1)
    assert sorted((g.model, g.setting, g.figures()["p"]) for g in groups) == [
        ("gecode-webpbn1", "sa", 0.5), ("qbpp-logo", "sa", 0.5)]
    (runs / "stranger.txt").write_text("01\n")
    with pytest.raises(Exception, match="matches no puzzle"):
        evaluate(str(suite), [str(tmp_path / "runs")], jobs=1)


def test_missing_matplotlib_is_one_line_with_the_install_hint(campaign, tmp_path: Path, run_cli,
                                                              monkeypatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)  # import fails as if not installed
    report = tmp_path / "r.html"
    status, out, err = run_cli("evaluate", campaign["model"], campaign["root"] / "runs", "--report", report)
    assert status == 2 and not out and err.count("\n") == 1
    assert 'pip install "nonoqubo[campaign]"' in err and not report.exists()


@pytest.mark.parametrize("command", ["suite", "evaluate"])
def test_help_has_examples(command: str, run_cli) -> None:
    status, out, _ = run_cli(command, "--help")
    assert status == 0 and "examples:" in out and f"nonoqubo {command} " in out


def test_time_per_run_from_qbsolv_answers(campaign, tmp_path: Path) -> None:
    """qbsolv prints its CPU seconds after the answer: that is t of TTS99 (one answer a file)."""
    puzzle = campaign["puzzle"]
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    runs = tmp_path / "qbsolv"
    runs.mkdir()
    for k, (bits, seconds) in enumerate(((x, 0.25), (1 - x, 0.75))):
        (runs / f"answer{k}.txt").write_text(
            f"{x.size} Number of bits in solution\n{''.join(map(str, bits))}\n"
            f"-120.00000 Energy of solution\n4 Number of Partitioned calls\n {seconds:.5f} seconds of classic cpu time\n")
    (g,) = evaluate(str(campaign["model"]), [str(runs)], jobs=1)
    f = g.figures()
    assert (f["samples"], f["valid"], f["seconds_per_run"]) == (2, 1, 0.5)
    assert f["tts99"] == pytest.approx(0.5 * math.log(0.01) / math.log(0.5))


def test_real_solver_answers_give_their_recorded_times(tmp_path: Path) -> None:
    """The committed qbsolv and MQLib answers for the logo: p = 1, TTS99 = the time each recorded."""
    answers = Path(__file__).resolve().parents[1] / "data" / "answers"
    for setting, name in (("qbsolv", "logo.qbsolv.txt"), ("mqlib", "logo.mqlib.txt")):
        (tmp_path / "runs" / setting).mkdir(parents=True)
        (tmp_path / "runs" / setting / name).write_bytes((answers / name).read_bytes())
    groups = {g.setting: g.figures() for g in evaluate(str(LOGO), [str(tmp_path / "runs")], jobs=1)}
    qbsolv_seconds = float((answers / "logo.qbsolv.txt").read_text().split(" seconds of classic cpu time")[0].split()[-1])
    mqlib_seconds = float((answers / "logo.mqlib.txt").read_text().splitlines()[0].split(",")[4])
    for setting, seconds in (("qbsolv", qbsolv_seconds), ("mqlib", mqlib_seconds)):
        f = groups[setting]
        assert (f["samples"], f["p"], f["energy_max"]) == (1, 1.0, 0)
        assert f["seconds_per_run"] == seconds == f["tts99"]


def test_time_per_run_from_an_ommx_archive(tmp_path: Path) -> None:
    """An OMMX sample set's start/end annotations (in the archive's manifest) give t."""
    from datetime import datetime, timedelta, timezone

    adapter = pytest.importorskip("ommx_openjij_adapter")
    from ommx.artifact import Artifact, ArtifactBuilder

    puzzle = spec.from_dict(json.loads(LOGO.read_text()), source=str(LOGO))
    model = tmp_path / "logo.ommx"
    exports.dump(build(puzzle), model)
    sample_set = adapter.OMMXOpenJijSAAdapter.sample(Artifact.load_archive(str(model)).instance,
                                                      num_reads=4, num_sweeps=500, seed=1)
    start = datetime(2026, 11, 30, 12, 0, 0, tzinfo=timezone.utc)
    sample_set.start, sample_set.end = start, start + timedelta(seconds=2)
    (tmp_path / "runs" / "openjij").mkdir(parents=True)
    builder = ArtifactBuilder.new_archive_unnamed(str(tmp_path / "runs" / "openjij" / "answer.ommx"))
    builder.add_sample_set(sample_set)
    builder.build()
    (g,) = evaluate(str(model), [str(tmp_path / "runs")], jobs=1)
    f = g.figures()
    assert f["samples"] == 4 and f["seconds_per_run"] == pytest.approx(0.5)


def test_worst_cells_of_a_colour_puzzle_are_cells_of_its_grid(tmp_path: Path) -> None:
    """Colour models have one cell term per (cell, colour): the tally counts cells, not slots."""
    from nonoqubo.clues import load

    puzzle = load(SHARED / "colour" / "olsak-acorn.json")  # 50x35, 4 colours, with its solution
    qubo = build(puzzle)
    model = tmp_path / "acorn.npz"
    exports.dump(qubo, model)
    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    bits = flipped(x, np.random.default_rng(3).choice([1, 2, 5], size=30), np.random.default_rng(4))
    (tmp_path / "runs" / "flips").mkdir(parents=True)
    (tmp_path / "runs" / "flips" / "acorn.txt").write_text("\n".join("".join(map(str, r)) for r in bits) + "\n")
    (group,) = evaluate(str(model), [str(tmp_path / "runs")], jobs=1, seconds=None)
    got = group.figures()
    counts = np.zeros(puzzle.shape)
    for r in decode(puzzle, bits):
        counts += r.conflicts
    assert got["worst_cells"], "flipped solutions have cell conflicts"
    for cell in got["worst_cells"]:
        assert 1 <= cell["row"] <= puzzle.height and 1 <= cell["column"] <= puzzle.width
        assert cell["share"] == pytest.approx(counts[cell["row"] - 1, cell["column"] - 1] / len(bits))
    assert got["worst_cells"][0]["share"] == pytest.approx(counts.max() / len(bits))
    # the best picture is written in the palette's characters, every colour kept
    assert set("".join(got["best_picture"])) == set(puzzle.palette.chars)


def test_html_report_draws_a_colour_best_picture_in_its_colours(tmp_path: Path) -> None:
    from nonoqubo.clues import load
    from nonoqubo.campaign.report_html import palette_colours

    puzzle = load(SHARED / "colour" / "olsak-acorn.json")
    cmap = palette_colours(puzzle.palette)
    assert cmap.N == len(puzzle.palette) == 5
    rgba = [tuple(round(v, 3) for v in cmap(k)) for k in range(cmap.N)]
    assert rgba[0] == (1.0, 1.0, 1.0, 1.0) and len(set(rgba)) == 5  # white background, 4 distinct colours


def test_the_text_says_its_cells_count_from_1(campaign, run_cli) -> None:
    """The most often wrong cells are printed 1-based (row, column), as the decode reports count them."""
    status, out, _ = run_cli("evaluate", campaign["model"], campaign["root"] / "runs", "--time", "1")
    assert status == 0
    groups = evaluate(str(campaign["model"]), [str(campaign["root"] / "runs")], jobs=1, seconds=1.0)
    for g in groups:
        top = g.figures("raw")["worst_cells"][0]
        assert f"cells (row,column, from 1): ({top['row']},{top['column']})" in out
    status, help_text, _ = run_cli("evaluate", "--help")
    assert status == 0 and "counted from 1" in help_text
