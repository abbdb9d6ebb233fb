"""``evaluate``'s whole work is the library's (campaign/outputs): the CLI prints what write_outputs returns."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonoqubo.campaign.evaluate import csv_text, evaluate
from nonoqubo.generation.families import parse_family
from nonoqubo.campaign.outputs import EvaluateOptions, check_outputs, command_line, table, write_outputs
from nonoqubo.campaign.suite import run_suite
from nonoqubo.errors import NonoquboError
from nonoqubo.inputs import load_model
from nonoqubo.solvers.sampling import sampleset_document, solve
from tests.support import run_cli


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("outputs")
    run_suite([], root / "suite", families=[parse_family("4x4:0.5:2:3")], jobs=1)
    for model in sorted((root / "suite").glob("*.qubo.json")):
        for sampler in ("sa", "tabu"):
            doc = sampleset_document(solve(load_model(str(model)), sampler, reads=5, seed=1))
            out = root / "runs" / sampler / model.name.replace(".qubo.json", ".json")
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(doc))
    return root / "suite", root / "runs"


def test_the_cli_prints_what_the_library_returns(campaign, tmp_path):
    suite, runs = campaign
    status, out, err = run_cli("evaluate", suite, runs, "-j", 1, "--csv", tmp_path / "cli.csv")
    assert status == 0, err
    done = write_outputs(EvaluateOptions(str(suite), (str(runs),), jobs=1, csv=str(tmp_path / "lib.csv")))
    assert out == done.stdout + "\n" and done.messages == [f"wrote {tmp_path / 'lib.csv'} (CSV table, "
                                                            f"{(tmp_path / 'lib.csv').stat().st_size:,} bytes)"]
    assert err == f"wrote {tmp_path / 'cli.csv'} (CSV table, {(tmp_path / 'cli.csv').stat().st_size:,} bytes)\n"
    assert done.stdout == table(evaluate(str(suite), [str(runs)], jobs=1))
    assert (tmp_path / "cli.csv").read_text() == (tmp_path / "lib.csv").read_text() == csv_text(done.groups)
    status, out, _ = run_cli("evaluate", suite, runs, "-j", 1, "--json")
    assert json.loads(out) == json.loads(write_outputs(EvaluateOptions(str(suite), (str(runs),), jobs=1,
                                                                       json=True)).stdout or "")


def test_quiet_with_a_file_prints_nothing_and_checks_come_first(campaign, tmp_path):
    suite, runs = campaign
    done = write_outputs(EvaluateOptions(str(suite), (str(runs),), jobs=1, quiet=True, csv=str(tmp_path / "f.csv")))
    assert done.stdout is None and (tmp_path / "f.csv").read_text().startswith("model,setting,stage")
    with pytest.raises(NonoquboError, match="cannot write"):
        check_outputs(EvaluateOptions(str(suite), (str(runs),), csv=str(tmp_path / "no" / "such" / "f.csv")))
    assert command_line(EvaluateOptions(str(suite), (str(runs),), jobs=2, json=True)) == \
        f"nonoqubo evaluate {suite} {runs} -j 2 --json"
