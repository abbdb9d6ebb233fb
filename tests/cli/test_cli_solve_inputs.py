"""``solve`` takes what a user has: a clue file built in --encoding/--weights, or a QUBO file
(one model of a suite, a ``build`` output) sampled as it is, so an A/B campaign is sampled
with nonoqubo itself: suite -> solve every model -> evaluate."""

from __future__ import annotations

import json

import numpy as np
import pytest

from nonoqubo.inputs import load_model
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models

from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"
#: a 5x5 with a unique solution that SA finds in a few reads
SMALL = ["##.#.", "#..##", ".###.", "##..#", "..###"]


@pytest.fixture
def small(tmp_path):
    path = tmp_path / "small.non"
    puzzle = Puzzle.from_picture(SMALL, name="small")
    lines = ["title small", f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    lines += [",".join(map(str, r)) or "0" for r in puzzle.rows] + ["", "columns"]
    lines += [",".join(map(str, c)) or "0" for c in puzzle.cols]
    path.write_text("\n".join(lines) + "\n")
    return path


def _labels(document: dict) -> list[str]:
    return [str(v) for v in document["variable_labels"]]


@pytest.mark.parametrize("encoding, weights", [("domain-wall", "shape=1,order=1,cell=1"), ("one-hot", "cell=2")])
def test_a_model_file_is_sampled_as_written_and_its_samples_decode_against_it(run_cli, small, tmp_path, encoding,
                                                                                weights):
    model = tmp_path / "m.qubo.json"
    status, _, err = run_cli("build", small, "--encoding", encoding, "--weights", weights, "-o", model, "-q")
    assert status == 0, err
    samples = tmp_path / "s.json"
    status, out, err = run_cli("solve", model, "--seed", "3", "--reads", "20", "-o", samples, "--json", "-q")
    assert status == 0, err
    report = json.loads(out)
    assert report["num_valid"] > 0 and report["samples"][0]["valid"]
    written = load_model(model)
    document = json.loads(samples.read_text())
    assert sorted(_labels(document)) == sorted(written.labels)  # the model's own variables: its encoding's labels
    status, out, err = run_cli("decode", model, samples, "--all", "--json")
    assert status == 0, err
    decoded = json.loads(out)
    energies = written.energy(_sample_rows(document, list(written.labels)))
    assert sorted(r["energy"] for r in decoded["samples"]) == sorted(energies.tolist())
    assert decoded["num_valid"] == report["num_valid"]


def _sample_rows(document: dict, labels: list[str]) -> np.ndarray:
    """The samples as a 0/1 matrix in the order of *labels*."""
    import dimod

    sampleset = dimod.SampleSet.from_serializable(document)
    column = {str(v): i for i, v in enumerate(sampleset.variables)}
    return sampleset.record.sample[:, [column[label] for label in labels]]


def test_a_clue_file_is_built_in_the_encoding_asked_for(run_cli, small, tmp_path):
    samples = tmp_path / "s.json"
    status, _, err = run_cli("solve", small, "--encoding", "one-hot", "--weights", "order=2", "--seed", "1",
                             "-o", samples, "-q")
    assert status == 0, err
    model = tmp_path / "oh.bqm"
    assert run_cli("build", small, "--encoding", "one-hot", "--weights", "order=2", "-o", model, "-q")[0] == 0
    assert sorted(_labels(json.loads(samples.read_text()))) == sorted(load_model(model).labels)
    status, _, err = run_cli("decode", model, samples)
    assert status == 0, err


def test_presolving_a_model_file_fixes_what_building_presolved_fixes(run_cli, tmp_path):
    model = tmp_path / "logo.bqm"
    assert run_cli("build", LOGO, "--encoding", "one-hot", "-o", model, "-q")[0] == 0
    again = tmp_path / "logo-pre.bqm"
    assert run_cli("build", LOGO, "--encoding", "one-hot", "--presolve", "-o", again, "-q")[0] == 0
    full, pre = load_model(model), load_model(again)
    mine = Models(full.puzzle, full).presolve()
    assert dict(mine.fixed) == dict(pre.fixed)
    assert mine.same_model(pre)
    assert dict(Models(pre.puzzle, pre).presolve().fixed) == dict(pre.fixed)  # presolving twice changes nothing
    status, out, err = run_cli("solve", model, "--presolve", "--seed", "1", "--json", "-q")
    assert status == 0, err


def test_encoding_options_are_refused_with_a_model_file(run_cli, small, tmp_path):
    model = tmp_path / "m.qubo"
    assert run_cli("build", small, "--encoding", "one-hot", "-o", model, "-q")[0] == 0
    for extra in (["--encoding", "domain-wall"], ["--weights", "cell=2"]):
        status, out, err = run_cli("solve", model, *extra)
        assert status == 2 and out == ""
        assert err.count("\n") == 1 and "keeps its own encoding (one-hot" in err


def test_a_constrained_model_is_refused_in_one_line(run_cli, small, tmp_path):
    model = tmp_path / "m.lp"
    assert run_cli("build", small, "--constrained", "-o", model, "-q")[0] == 0
    status, out, err = run_cli("solve", model)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and "m.lp: a constrained model, not a QUBO" in err


def test_a_suite_of_variants_is_sampled_and_evaluated_side_by_side(run_cli, tmp_path):
    suite = tmp_path / "ab"
    status, _, err = run_cli("suite", "--random", "5x5:0.5:2", "--encoding", "domain-wall,one-hot", "-o", suite,
                             "-q", "-j", "1")
    assert status == 0, err
    runs = tmp_path / "runs"
    runs.mkdir()
    models = sorted(suite.glob("*.qubo.json"))
    assert len(models) == 4
    for model in models:
        name = model.name[: -len(".qubo.json")]
        status, _, err = run_cli("solve", model, "--seed", "1", "--reads", "10", "--sweeps", "200", "-q",
                                 "-o", runs / f"{name}.sa.json")
        assert status in (0, 1), err
    status, out, err = run_cli("evaluate", suite, runs, "--json")
    assert status == 0, err
    records = json.loads(out)
    records = records["groups"] if isinstance(records, dict) else records
    assert sorted(r["encoding"] for r in records) == ["domain-wall", "domain-wall", "one-hot", "one-hot"]
    assert all(np.isfinite(float(r["raw"]["tts99"])) or r["raw"]["p"] == 0 for r in records if "tts99" in r["raw"])
