"""``suite -o DIR`` over an index.json and a suite whose index is hostile (issue 54 classes 2 and 7).

A foreign index.json is refused in one line and left as it was; an existing suite's entries are kept
(merged) and the summary says so; an index nested 100,000 deep stops ``run`` and ``evaluate`` in one
line.  Each fails on the code before the records package (it replaced the foreign index, dropped the
earlier suite's entries, and answered the nesting with ``RecursionError``... or a silent rebuild).
"""

from __future__ import annotations

import json


def test_an_index_nested_100000_deep_is_refused(tmp_path, run_cli):  # issue 54 class 7
    (tmp_path / "suite").mkdir()
    (tmp_path / "suite" / "index.json").write_text('{"puzzles": ' + "[" * 100_000 + "]" * 100_000 + "}")
    plan = tmp_path / "plan.yaml"
    plan.write_text("suite: suite\nsettings: {sa: {sampler: sa}}\n")
    for args in (("run", plan), ("evaluate", tmp_path / "suite", plan)):
        status, _, err = run_cli(*args)
        assert status == 2 and "nesting deeper than" in err and err.count("\n") == 1 and "Traceback" not in err


def test_suite_refuses_an_index_no_suite_wrote_and_writes_nothing(tmp_path, run_cli):
    out = tmp_path / "out"
    out.mkdir()
    foreign = out / "index.json"
    foreign.write_text('{"experiment": "mine, not a suite\'s"}\n')
    status, _, err = run_cli("suite", "--random", "4x4:0.5:1:3", "-o", out, "-j", 1, "-q")
    assert status == 2 and err.count("\n") == 1 and "not the index of a suite" in err and str(foreign) in err
    assert foreign.read_text() == '{"experiment": "mine, not a suite\'s"}\n'
    assert sorted(p.name for p in out.iterdir()) == ["index.json"]


def test_suite_merges_an_existing_suites_entries_and_says_so(tmp_path, run_cli):
    out = tmp_path / "out"
    status, _, err = run_cli("suite", "--random", "4x4:0.5:2:3", "-o", out, "-j", 1, "-q")
    assert status == 0, err
    status, _, err = run_cli("suite", "--random", "5x5:0.5:1:4", "-o", out, "-j", 1)
    assert status == 0, err
    names = [e["name"] for e in json.loads((out / "index.json").read_text())["puzzles"]]
    assert names == ["random-5x5-d0.5-s4-0001", "random-4x4-d0.5-s3-0001", "random-4x4-d0.5-s3-0002"]
    assert "2 entries of the folder's index kept" in err
    assert all((out / f"{n}.qubo.json").exists() for n in names)
