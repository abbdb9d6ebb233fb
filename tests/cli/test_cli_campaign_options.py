"""`evaluate` and `suite` check their options before any work, as `solve` does."""

from __future__ import annotations

import os

import pytest

from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    from nonoqubo.cli import main

    base = tmp_path_factory.mktemp("campaign")
    model, answers = base / "m.qubo", base / "a.json"
    assert main(["build", str(LOGO), "-o", str(model), "-q"]) == 0
    assert main(["solve", str(LOGO), "--sampler", "sa", "--seed", "1", "--reads", "2", "-o", str(answers)]) in (0, 1)
    return model, answers


@pytest.mark.parametrize("option,message", [
    (["--time", "-1"], "--time must be a positive number of seconds, not -1.0"),
    (["--time", "nan"], "--time must be a positive number of seconds, not nan"),
    (["--time", "inf"], "--time must be a positive number of seconds, not inf"),
    (["--time", "0"], "--time must be a positive number of seconds, not 0.0"),
    (["-j", "0"], "-j/--jobs must be a whole number of at least 1, not 0"),
    (["-j", "-3"], "-j/--jobs must be a whole number of at least 1, not -3"),
])
def test_evaluate_refuses_a_bad_number(option, message, files, tmp_path, run_cli):
    model, answers = files
    status, out, err = run_cli("evaluate", model, answers, *option, "--csv", tmp_path / "x.csv", "-q")
    assert (status, out) == (2, "")
    assert err == f"nonoqubo: error: {message}\n"
    assert os.listdir(tmp_path) == []


def test_evaluate_writes_its_report_only_as_html(files, tmp_path, run_cli):
    model, answers = files
    target = tmp_path / "r.pdf"
    status, out, err = run_cli("evaluate", model, answers, "--report", target, "-q")
    assert (status, out) == (2, "")
    assert err.startswith(f"nonoqubo: error: {target}: --report writes an HTML page") and len(err.splitlines()) == 1
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("jobs", ["0", "-3"])
def test_suite_refuses_a_bad_job_count_before_making_its_folder(jobs, tmp_path, run_cli):
    status, _, err = run_cli("suite", LOGO, "-o", tmp_path / "s", "-j", jobs)
    assert status == 2
    assert err == f"nonoqubo: error: -j/--jobs must be a whole number of at least 1, not {jobs}\n"
    assert os.listdir(tmp_path) == []
