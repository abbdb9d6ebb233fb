"""Every command that writes a file says so, as ``build`` does: ``wrote PATH (WHAT, N bytes)`` on
standard error, after what it prints on standard output; ``-q`` silences the line.

The size is the file's size on disk (checked against ``os.path.getsize``), so the line cannot
claim a file that was not written.
"""

from __future__ import annotations

import os
import re

import pytest

from nonoqubo._util.atomic import wrote
from tests.support import ROOT, SHARED

LOGO = ROOT / "examples" / "qbpp-logo.yaml"
ANSWER = ROOT / "examples" / "qbpp-logo.answer.txt"
VEZE = SHARED / "json" / "olsak-veze.json"  # 4x4, 24 variables: a quick embedding


def _said(err: str, path) -> str:
    """The one 'wrote PATH (...)' line of *err* for *path*, its size checked against the file."""
    lines = [line for line in err.splitlines() if line.startswith(f"wrote {path} (")]
    assert len(lines) == 1, err
    size = re.search(r", ([\d,]+) bytes\)$", lines[0])
    assert size and int(size.group(1).replace(",", "")) == os.path.getsize(path), lines[0]
    return lines[0]


@pytest.fixture(scope="module")
def samples(tmp_path_factory):
    """A run file of the logo (``solve -o``), and its model file."""
    from tests.support import run_cli

    folder = tmp_path_factory.mktemp("wrote")
    out = folder / "samples.json"
    status, _, err = run_cli("solve", LOGO, "--seed", "1", "--reads", "4", "-q", "-o", out)
    assert status in (0, 1) and out.is_file(), err
    model = folder / "logo.qubo"
    assert run_cli("build", LOGO, "-o", model, "-q")[0] == 0
    return out, model


def test_the_line_names_the_file_what_it_holds_and_its_size(tmp_path):
    path = tmp_path / "a.txt"
    path.write_text("x" * 1234)
    assert wrote(path, "text") == f"wrote {path} (text, 1,234 bytes)"
    assert wrote("-", "qbsolv") == "wrote standard output (qbsolv)"
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "f").write_text("")
    assert wrote(tmp_path / "d", "figures") == f"wrote {tmp_path / 'd'} (figures, 1 file)"


@pytest.mark.parametrize("quiet", [False, True], ids=["says", "-q"])
def test_convert_says_what_it_wrote(run_cli, tmp_path, quiet):
    out = tmp_path / "logo.non"
    status, stdout, err = run_cli("convert", LOGO, out, *(["-q"] if quiet else []))
    assert status == 0 and out.is_file(), err
    if quiet:
        assert err == "" and stdout == ""
    else:
        assert _said(err, out).startswith(f"wrote {out} (non clues, ")


@pytest.mark.parametrize("quiet", [False, True], ids=["says", "-q"])
def test_decode_image_says_what_it_wrote(run_cli, samples, tmp_path, quiet):
    run, model = samples
    out = tmp_path / "best.svg"
    status, stdout, err = run_cli("decode", model, run, "--image", out, *(["-q"] if quiet else []))
    assert out.is_file() and "best energy" in stdout, err
    if quiet:
        assert "wrote" not in err
    else:
        assert re.fullmatch(rf"wrote {re.escape(str(out))} \(SVG picture of sample \d+, [\d,]+ bytes\)", _said(err, out))


@pytest.mark.parametrize("quiet", [False, True], ids=["says", "-q"])
def test_check_image_says_what_it_wrote(run_cli, tmp_path, quiet):
    out = tmp_path / "grid.svg"
    status, stdout, err = run_cli("check", LOGO, ANSWER, "--image", out, *(["-q"] if quiet else []))
    assert status == 0 and out.is_file() and stdout.startswith("VALID"), err
    assert ("wrote" in err) is not quiet
    if not quiet:
        _said(err, out)


def test_solve_says_what_it_wrote_and_q_silences_it(run_cli, tmp_path):
    out, image = tmp_path / "run.json", tmp_path / "best.svg"
    status, stdout, err = run_cli("solve", LOGO, "--seed", "1", "--reads", "4", "-o", out, "--image", image)
    assert out.is_file() and image.is_file(), err
    assert _said(err, out).startswith(f"wrote {out} (run file, ")
    assert "(SVG picture of sample " in _said(err, image)
    status, stdout, err = run_cli("solve", LOGO, "--seed", "1", "--reads", "4", "-o", out, "-q")
    assert stdout == "" and err == ""


@pytest.mark.parametrize("quiet", [False, True], ids=["says", "-q"])
def test_embed_says_what_it_wrote(run_cli, tmp_path, monkeypatch, quiet):
    pytest.importorskip("minorminer")
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))
    out = tmp_path / "emb.json"
    status, stdout, err = run_cli("embed", VEZE, "--topology", "pegasus:4", "-o", out, *(["-q"] if quiet else []))
    assert status == 0 and out.is_file(), err
    if quiet:
        assert stdout == "" and err == ""
    else:
        assert _said(err, out).startswith(f"wrote {out} (embedding, ")


def test_evaluate_says_every_file_it_wrote_after_the_table(samples, tmp_path):
    pytest.importorskip("matplotlib")
    import subprocess
    import sys

    run, _ = samples
    report, csv, figures = tmp_path / "r.html", tmp_path / "t.csv", tmp_path / "figs"
    args = [sys.executable, "-m", "nonoqubo", "evaluate", str(LOGO), str(run), "--report", str(report),
            "--csv", str(csv), "--figures", str(figures), "-j", "1"]
    done = subprocess.run(args, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
    assert done.returncode == 0, done.stdout
    _said(done.stdout, report)
    assert "(HTML report, " in _said(done.stdout, report) and "(CSV table, " in _said(done.stdout, csv)
    lines = done.stdout.splitlines()
    figure_line = next(i for i, line in enumerate(lines) if line.startswith(f"wrote {figures} (figures: "))
    assert f"{len(os.listdir(figures))} files" in lines[figure_line]
    assert figure_line > next(i for i, line in enumerate(lines) if line.startswith("model "))  # after the table
    quiet = subprocess.run(args + ["-q"], cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           timeout=300)
    assert quiet.returncode == 0 and quiet.stdout == "", quiet.stdout


def test_tournament_answers_say_what_they_wrote(run_cli, tmp_path):
    pytest.importorskip("ortools")
    collection = tmp_path / "two.taai"
    collection.write_text("$1\n1\n1\n1\n1\n$2\n1\n1\n1\n1\n")  # two 2x2 puzzles: columns, then rows
    out = tmp_path / "answers.txt"
    status, stdout, err = run_cli("solve", collection, "--sampler", "cpsat", "--tournament-answers", out)
    if status == 2 and "error" in err:  # the collection's own grammar refused: say why
        pytest.fail(err)
    assert out.is_file() and _said(err, out).startswith(f"wrote {out} (tournament answers, ")
    status, stdout, err = run_cli("solve", collection, "--sampler", "cpsat", "--tournament-answers", out, "-q")
    assert "wrote" not in err
