"""The example notebooks run from a fresh kernel, are committed clean, and show pictures.

``examples/*.ipynb`` are executed top to bottom with nbclient in a new kernel (ipykernel, the
interpreter running the tests, the working tree first on its path), from the ``examples/`` folder
as a reader opens them.  A cell that raises fails the test with the cell's traceback.  The
committed files hold no outputs (outputs are made where they are run, never reviewed in diffs).
The objects' own pictures (``_repr_svg_``/``_repr_html_``) are tested directly too, against the
drawings ``--image`` and ``--report`` write.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from tests.support import ROOT

EXAMPLES = ROOT / "examples"
NOTEBOOKS = sorted(EXAMPLES.glob("*.ipynb"))


def test_there_are_two_example_notebooks():
    assert {p.name for p in NOTEBOOKS} >= {"qbpp-logo.ipynb", "campaign.ipynb"}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_committed_notebooks_have_no_outputs(path):
    import nbformat

    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    for i, cell in enumerate(nb.cells):
        if cell.cell_type == "code":
            assert not cell.outputs and cell.execution_count is None, f"{path.name} cell {i} has outputs"


def _execute(path, monkeypatch):
    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.read(path, as_version=4)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep))
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}).execute()
    return nb


def _mimes(nb) -> list[str]:
    return [m for c in nb.cells if c.cell_type == "code" for o in c.outputs for m in o.get("data", {})]


@pytest.mark.slow
def test_the_logo_notebook_runs_and_draws(monkeypatch):
    nb = _execute(EXAMPLES / "qbpp-logo.ipynb", monkeypatch)
    assert _mimes(nb).count("image/svg+xml") >= 5  # puzzle, best, wrong, check, solved
    svgs = [o["data"]["image/svg+xml"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
            if "image/svg+xml" in o.get("data", {})]
    # the first picture is what its cell says, the clues around an empty grid; the last, the solved puzzle
    assert "QUBO++ logo: unsolved, 15x15" in svgs[0] and "solution" not in svgs[0].split("</title>")[0]
    assert "QUBO++ logo: solution, 15x15" in svgs[-1]
    text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "437 2756 120" in text
    htmls = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
             if "text/html" in o.get("data", {})]
    assert any('class="nonoqubo-reports"' in h and h.count("<svg") == 10 for h in htmls)  # every sample's picture


@pytest.mark.slow
def test_the_campaign_notebook_runs_and_shows_its_report(monkeypatch):
    nb = _execute(EXAMPLES / "campaign.ipynb", monkeypatch)
    htmls = [o["data"]["text/html"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
             if "text/html" in o.get("data", {})]
    assert any("<iframe" in h and "srcdoc=" in h for h in htmls)
    assert "image/svg+xml" in _mimes(nb)


# -- the objects' pictures -----------------------------------------------------------------------
def _logo():
    import nonoqubo

    return nonoqubo.load_puzzle(str(EXAMPLES / "qbpp-logo.yaml"))


def test_a_report_draws_what_decode_image_writes(tmp_path):
    import nonoqubo

    puzzle = _logo()
    qubo = nonoqubo.build(puzzle)
    report = nonoqubo.decode(qubo, np.zeros((1, qubo.num_vars), dtype=np.int8))[0]
    svg = report._repr_svg_()
    assert svg.startswith("<svg") and "INVALID, energy 120" in svg
    samples = tmp_path / "zeros.json"
    samples.write_text("[" + ",".join(["0"] * qubo.num_vars) + "]")
    model = tmp_path / "logo.qubo.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "nonoqubo", "build", str(EXAMPLES / "qbpp-logo.yaml"), "-o", str(model)],
                   check=True, env=env, capture_output=True)
    subprocess.run([sys.executable, "-m", "nonoqubo", "decode", str(model), str(samples), "--image",
                    str(tmp_path / "cli.svg")], env=env, capture_output=True)
    assert (tmp_path / "cli.svg").read_text() == svg


def test_the_reports_of_a_decode_draw_each_report_under_its_verdict():
    import nonoqubo

    qubo = nonoqubo.build(_logo())
    reports = nonoqubo.decode(qubo, np.vstack([np.zeros((1, qubo.num_vars), np.int8), np.ones((1, qubo.num_vars), np.int8)]))
    page = reports._repr_html_()
    assert page.startswith('<div class="nonoqubo-reports"><p>2 samples, 0 valid')
    for k, r in enumerate(reports):  # each one's picture is the one its own _repr_svg_ (decode --image) draws
        assert f"sample {k}: INVALID, energy {r.energy}" in page
        assert r._repr_svg_().replace('"title"', f'"title-{k}"').replace('"desc"', f'"desc-{k}"') \
            .replace('"title desc"', f'"title-{k} desc-{k}"') in page


def test_a_check_result_draws_what_check_image_writes(tmp_path):
    import nonoqubo

    puzzle = _logo()
    grid = ["." * 15] * 15
    result = nonoqubo.check(puzzle, grid)
    svg = result._repr_svg_()
    assert "INVALID: 30 lines do not match their clue" in svg
    (tmp_path / "grid.txt").write_text("\n".join(grid) + "\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "nonoqubo", "check", str(EXAMPLES / "qbpp-logo.yaml"),
                    str(tmp_path / "grid.txt"), "--image", str(tmp_path / "cli.svg")], env=env, capture_output=True)
    assert (tmp_path / "cli.svg").read_text() == svg
    good = nonoqubo.check(puzzle, (EXAMPLES / "qbpp-logo.answer.txt").read_text().split())
    assert good.valid and "VALID: the grid solves the puzzle" in good._repr_svg_()


def _title_fill(svg: str) -> str:
    import re

    return re.search(r'<text class="caption"[^>]* fill="(#[0-9a-f]{6})"', svg).group(1)


def test_the_title_colour_is_the_verdict_never_guessed_from_the_marks():
    """Issue 53: an INVALID sample whose picture has no mark (a broken wall, say) had its title in VALID's
    green; the colour now follows the verdict: green for VALID, red for INVALID, black for a puzzle's title."""
    import dataclasses

    import nonoqubo
    from nonoqubo.answers.render import GOOD, INK, WRONG, puzzle_svg, report_svg

    puzzle = _logo()
    qubo = nonoqubo.build(puzzle)
    answer = (EXAMPLES / "qbpp-logo.answer.txt").read_text().split()
    valid = nonoqubo.decode(qubo, _lowest(qubo))[0]
    assert valid.valid and _title_fill(report_svg(valid)) == GOOD
    unmarked = dataclasses.replace(valid, valid=False, energy=2)  # the same clean picture, an INVALID verdict
    svg = report_svg(unmarked)
    assert "INVALID" in svg and _title_fill(svg) == WRONG != GOOD
    assert _title_fill(nonoqubo.check(puzzle, answer)._repr_svg_()) == GOOD
    assert _title_fill(nonoqubo.check(puzzle, ["." * 15] * 15)._repr_svg_()) == WRONG
    assert _title_fill(puzzle_svg(puzzle)) == INK


def _lowest(qubo):
    """The lowest-energy of ten annealing reads of *qubo* (seed 1: the logo's is a solution), as a 1-row bit array."""
    from dwave.samplers import SimulatedAnnealingSampler

    sampleset = SimulatedAnnealingSampler().sample(qubo.to_bqm(), num_reads=10, seed=1)
    bits = sampleset.record.sample[:, [sampleset.variables.index(v) for v in qubo.labels]].astype(np.int8)
    return bits[[int(np.argmin(qubo.energy(bits)))]]


def test_a_puzzle_draws_its_clues_and_known_solution():
    from nonoqubo import Puzzle

    p = Puzzle.from_picture(["#.", "##"], name="tiny")
    assert "tiny: solution, 2x2" in p._repr_svg_()
    bare = p.with_solution(None)
    svg = bare._repr_svg_()
    assert svg.startswith("<svg") and "tiny: unsolved, 2x2" in svg


@pytest.mark.slow
def test_an_evaluation_draws_the_report_in_a_frame(tmp_path):
    import html

    from nonoqubo.campaign.evaluate import Evaluation, evaluate

    samples = tmp_path / "runs" / "sa"
    samples.mkdir(parents=True)
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "nonoqubo", "solve", str(EXAMPLES / "qbpp-logo.yaml"), "--seed", "1",
                    "--reads", "4", "--sweeps", "200", "-q", "-o", str(samples / "logo.json")], env=env,
                   capture_output=True)
    groups = evaluate(str(EXAMPLES / "qbpp-logo.yaml"), [str(tmp_path / "runs")], jobs=1)
    assert isinstance(groups, Evaluation) and isinstance(groups, list) and len(groups) == 1
    frame = groups._repr_html_()
    assert frame.startswith("<iframe") and "srcdoc=" in frame
    page = html.unescape(frame.split('srcdoc="', 1)[1].split('"', 1)[0])
    assert page.startswith("<!DOCTYPE html>") and "data:image/svg+xml;base64," in page


def test_without_a_renderer_jupyter_gets_none():
    from nonoqubo._util import notebook

    class Plain:
        pass

    assert notebook.show(Plain(), "svg") is None
    with pytest.raises(ValueError, match="mime"):
        notebook.register(Plain, "png", str)
