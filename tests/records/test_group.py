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


def test_of_makes_the_figures_plain_and_hides_the_p_and_tts_of_a_group_set_aside():
    import numpy as np

    from nonoqubo.records import NOT_SCORED, ModelInfo

    info = ModelInfo("logo.bqm", "logo", 3, 2, 12, "logo", solutions=0, solutions_exact=True)
    figures = {"p": np.float64(0.25), "tts99": float("inf"), "samples": np.int64(4)}
    scored = GroupRecord.of("logo", "sa", 1, info, "scored", "run record", None, figures, None, {"seed": np.int64(3)})
    assert scored.raw == {"p": 0.25, "tts99": "inf", "samples": 4} and type(scored.raw["samples"]) is int
    assert (scored.variables, scored.width, scored.height, scored.run) == (12, 3, 2, {"seed": 3})
    apart = GroupRecord.of("logo", "sa", 1, info, "unsolvable", "run record", None, figures, figures, None)
    assert apart.raw["samples"] == 4 and all(apart.raw[k] is None and apart.polished[k] is None for k in NOT_SCORED)
    assert GroupRecord.from_dict(json.loads(json.dumps(apart.to_dict())), "e.json") == apart
    assert info.unsolvable and info.line_names == ["row 1", "row 2", "column 1", "column 2", "column 3"]
