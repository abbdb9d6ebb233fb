"""The group record ``evaluate --json`` writes (``nonoqubo.records.group``): version, fields, schema."""

from __future__ import annotations

import json

import pytest

from nonoqubo.clues import spec
from nonoqubo.errors import RecordError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.records import GROUP_RECORD_VERSION, GroupRecord
from tests.support.record_schemas import validator


def test_evaluate_writes_group_records_its_schema_and_from_dict_take(tmp_path, run_cli):
    clues = tmp_path / "p.yaml"
    clues.write_text(spec.dumps(Puzzle.from_picture(["#.#", ".#."])))
    run = tmp_path / "p.json"
    assert run_cli("solve", clues, "--reads", 2, "--sweeps", 5, "--seed", 1, "-q", "-o", run)[0] in (0, 1)
    status, out, err = run_cli("evaluate", clues, run, "-j", 1, "-q", "--json")
    assert status == 0, err
    doc = json.loads(out)
    validator("evaluation").validate(doc)
    (group,) = doc["groups"]
    assert group["version"] == GROUP_RECORD_VERSION
    assert GroupRecord.from_dict(group, "e.json").to_dict() == group


@pytest.mark.parametrize("change, words", [
    (lambda g: g.update(version=2), "version 2 is not one"),
    (lambda g: g.update(files="3"), "files: a whole number"),
    (lambda g: g.update(status="fine"), "status: scored or solved by presolve or unsolvable"),
    (lambda g: g.pop("raw"), "raw: missing"),
])
def test_a_broken_group_record_is_refused_by_its_class_and_its_schema(change, words):
    good = GroupRecord("m", "sa", 1, 4, 2, 2, "m", "domain-wall", "shape=1,order=1,cell=1", "scored", "run record",
                       None, {"p": 1.0}).to_dict()
    bad = dict(good)
    change(bad)
    with pytest.raises(RecordError, match=words):
        GroupRecord.from_dict(bad, "e.json")
    assert not validator("evaluation").is_valid({"groups": [bad]})
    assert validator("evaluation").is_valid({"groups": [good]})
