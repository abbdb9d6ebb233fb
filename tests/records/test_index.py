"""A suite's index (``nonoqubo.records.index``): its format and version, its one list of models, the family
fields the generator writes; and issue 54's class 2 (``suite -o DIR`` over an index.json) from outside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonoqubo.errors import NonoquboError, RecordError
from nonoqubo.records import SUITE_INDEX_VERSION, SuiteIndex, safe_name
from tests.support.record_schemas import validator


@pytest.fixture(scope="module")
def suite(tmp_path_factory) -> Path:
    from tests.support import run_cli

    root = tmp_path_factory.mktemp("index") / "suite"
    status, _, err = run_cli("suite", "--random", "4x4:0.5:2:3", "-o", root, "-f", "bqm", "--presolve", "-j", 1, "-q")
    assert status == 0, err
    return root


def test_the_written_index_has_its_version_its_schema_and_the_family_fields(suite):
    doc = json.loads((suite / "index.json").read_text())
    validator("suite-index").validate(doc)
    assert doc["version"] == SUITE_INDEX_VERSION and doc["suite"] == "nonoqubo"
    entry = doc["puzzles"][0]
    assert entry["family"] == {"kind": "random", "width": 4, "height": 4, "density": 0.5, "seed": 3, "number": 1}
    assert {f["kind"] for f in entry["files"]} == {"qubo"}
    index = SuiteIndex.from_dict(doc, "index.json", str(suite))
    assert index.to_dict() == doc


def test_models_are_the_full_and_presolved_qubo_files_with_their_digests(suite):
    index = SuiteIndex.read(str(suite))
    assert index is not None
    models = index.models()
    assert [m.name for m in models] == ["random-4x4-d0.5-s3-0001", "random-4x4-d0.5-s3-0001.presolved",
                                        "random-4x4-d0.5-s3-0002", "random-4x4-d0.5-s3-0002.presolved"]
    assert models[0].path.endswith(".bqm") and models[0].clues.endswith(".clues.json")
    assert all(m.digest and len(m.digest) == 64 for m in models)


def test_a_version_1_index_is_read_and_a_constrained_file_is_not_a_qubo_model():
    doc = {"puzzles": [{"name": "a", "status": "ok", "clues": {"path": "a.clues.json", "sha256": "0" * 64},
                        "files": [{"format": "lp", "variant": "full", "path": "a.lp",
                                   "convention": "feasibility: zero objective, every constraint holds"}]}]}
    index = SuiteIndex.from_dict(doc, "s/index.json", "s")
    assert index.version == 1 and [(m.name, m.path) for m in index.models()] == [("a", "s/a.clues.json")]


@pytest.mark.parametrize("doc, words", [
    ({"version": 7, "puzzles": []}, "version 7 is not one this nonoqubo reads"),
    ({"results": []}, "puzzles: missing"),
    ({"suite": "other", "puzzles": []}, "suite: 'nonoqubo'"),
    ({"puzzles": [{"name": "a/b"}]}, "name: a file name"),
    ({"puzzles": [{"name": "a", "files": [{"path": "../../etc/x"}]}]}, "path: a path inside the suite's folder"),
    ({"puzzles": [{"name": "a"}, {"name": "a"}]}, "given twice"),
    ({"puzzles": [{"name": "a", "family": {"kind": "random", "width": "4"}}]}, "family: width: a whole number"),
    ({"puzzles": [{"name": "a", "weights": {"cell": 0}}]}, "puzzles.0.: weights: cell: a whole number from 1"),
])
def test_a_broken_index_is_refused_in_one_line(doc, words):
    with pytest.raises(RecordError, match=words.replace("(", r"\(")):
        SuiteIndex.from_dict(doc, "s/index.json", "s")
    if "given twice" not in words:  # a schema cannot say names are unique; it refuses the rest
        assert not validator("suite-index").is_valid(doc)


def test_safe_names():
    assert safe_name("random-4x4-d0.5-s3-0001") and safe_name("café.one-hot")
    assert not any(safe_name(n) for n in ("", "..", "a/b", "a\\b", "/x", "a\0b", "x..y"))


def test_models_in_refuses_a_folder_that_holds_no_built_model_in_one_line(tmp_path):
    with pytest.raises(NonoquboError, match=r"^plan.yaml: suite: .*missing: no such folder"):
        SuiteIndex.models_in(str(tmp_path / "missing"), "plan.yaml: suite: ")
    with pytest.raises(NonoquboError, match=r"has no index.json of a suite"):
        SuiteIndex.models_in(str(tmp_path), "MODEL ")
    (tmp_path / "index.json").write_text(json.dumps({"version": 2, "suite": "nonoqubo", "puzzles": [
        {"name": "a", "status": "error", "error": "bad clues"}]}))
    with pytest.raises(NonoquboError, match=r"holds no model that was built \(status ok\)"):
        SuiteIndex.models_in(str(tmp_path), "MODEL ")
