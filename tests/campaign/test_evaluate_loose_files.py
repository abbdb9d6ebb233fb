"""A sample file named on the command line is named by its run record, or by its own name; never by
whatever folder it happens to sit in (``evaluate FILE samples.json`` in ``~/Downloads`` is not the
setting ``Downloads``)."""

from __future__ import annotations

import json

from nonoqubo.campaign.evaluate import evaluate
from tests.support import ROOT, run_cli

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


def _run_file(folder, name: str, sampler: str = "sa"):
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / name
    status, _, err = run_cli("solve", LOGO, "--sampler", sampler, "--seed", "1", "--reads", "3", "-q", "-o", out)
    assert out.is_file(), err
    return out


def test_a_lone_run_file_is_named_from_its_record_not_its_folder(tmp_path):
    run = _run_file(tmp_path / "Downloads", "samples.json")
    [group] = evaluate(str(LOGO), [str(run)], jobs=1)
    assert group.setting == "sa"


def test_a_lone_file_without_a_record_is_named_by_its_own_name(tmp_path):
    run = _run_file(tmp_path / "Downloads", "samples.json")
    doc = json.loads(run.read_text())
    del doc["info"]["nonoqubo"]  # a SampleSet made by hand: no run record
    bare = tmp_path / "Downloads" / "by-hand.json"
    bare.write_text(json.dumps(doc))
    [group] = evaluate(str(LOGO), [str(bare)], jobs=1)
    assert group.setting == "by-hand"


def test_a_runs_folder_still_names_its_setting(tmp_path):
    _run_file(tmp_path / "runs" / "sa-1000", "logo.json")
    [group] = evaluate(str(LOGO), [str(tmp_path / "runs")], jobs=1)
    assert group.setting == "sa-1000"


def test_two_lone_files_of_two_samplers_are_told_apart_by_their_records(tmp_path):
    a = _run_file(tmp_path / "x", "a.json", "sa")
    b = _run_file(tmp_path / "x", "b.json", "tabu")
    assert sorted(g.setting for g in evaluate(str(LOGO), [str(a), str(b)], jobs=1)) == ["sa", "tabu"]
