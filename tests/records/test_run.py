"""The run record (``nonoqubo.records.run``): its format, version, field types, identity and schema.

Issue 54's classes 6 to 9 from outside (``decode`` and ``evaluate`` of a hostile record) are in
``tests/cli/test_hostile_records.py``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nonoqubo.errors import RecordError
from nonoqubo.records import RUN_RECORD_VERSION, RunRecord
from nonoqubo.records._fields import MAX_QUOTED, quoted
from nonoqubo.solvers.request import SolveRequest
from tests.support.record_schemas import a_run_file, validator


@pytest.fixture(scope="module")
def solved(tmp_path_factory) -> tuple[Path, Path]:
    return a_run_file(tmp_path_factory.mktemp("record"))


def test_a_written_record_round_trips_and_its_schema_holds_it(solved):
    doc = json.loads(solved[1].read_text())["info"]["nonoqubo"]
    assert doc["version"] == RUN_RECORD_VERSION and len(doc["model"]["digest"]) == 64
    record = RunRecord.from_dict(doc, "run.json")
    assert record.to_dict() == doc
    validator("run-record").validate(doc)


def test_identity_is_compared_whole(solved):
    record = RunRecord.from_dict(json.loads(solved[1].read_text())["info"]["nonoqubo"], "run.json")
    request = SolveRequest.of("sa", reads=3, sweeps=5, seed=1)
    model = record.model
    assert model is not None and model.digest is not None
    assert request.matches(record, model.digest, model.encoding, model.weights)
    for other in (SolveRequest.of("sa", reads=3, sweeps=5, seed=2), SolveRequest.of("sa", reads=3, sweeps=6, seed=1),
                  SolveRequest.of("sa", reads=3, sweeps=5, seed=1, presolve=True)):
        assert not other.matches(record, model.digest, model.encoding, model.weights)
    assert not request.matches(record, "0" * 64, model.encoding, model.weights)


def test_a_400_digit_weight_in_memory_is_refused_too():
    with pytest.raises(RecordError, match="weights: cell: a whole number from 1"):
        RunRecord.from_dict({"version": 2, "sampler": "sa", "model": {"encoding": "domain-wall",
                                                                       "weights": {"cell": 10 ** 400}}}, "x.json")


def test_quoted_cuts_every_kind_of_value():
    assert quoted("x") == "'x'" and quoted(None) == "None"
    for value in ("x" * 10**6, [1] * 10**5, {"k": "v" * 10**5}, 10 ** 4000):
        assert len(quoted(value)) < MAX_QUOTED + 40


def test_a_version_1_record_is_read():
    old = {"version": "0.1.0", "sampler": "sa", "parameters": {"seed": 1, "presolve": False},
           "model": {"encoding": "domain-wall", "weights": {"shape": 1, "order": 1, "cell": 1}}}
    record = RunRecord.from_dict(old, "old.json")
    assert record.version == 1 and record.nonoqubo == "0.1.0" and record.identity().digest is None


@pytest.mark.parametrize("change", [
    lambda r: r.update(version=9), lambda r: r["parameters"].update(presolve=1), lambda r: r.pop("sampler"),
    lambda r: r["model"]["weights"].update(cell=0), lambda r: r["model"].update(digest="not a digest"),
    lambda r: r["parameters"].update(seed=-1),
])
def test_the_schema_refuses_a_broken_record_and_so_does_from_dict(solved, change):
    record = json.loads(solved[1].read_text())["info"]["nonoqubo"]
    change(record)
    assert not validator("run-record").is_valid(record)
    with pytest.raises(RecordError):
        RunRecord.from_dict(record, "run.json")
