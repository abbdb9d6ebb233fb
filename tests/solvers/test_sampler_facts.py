"""Sampler facts live on the sampler table (issue 40 item 2): asked of an entry, never decided by a name.

Whether a sampler is deterministic, samples through an embedding on a QPU, is timed by a QPU's access
time, counts ``--reads`` or solves the puzzle itself is a field of its
:class:`~nonoqubo.solvers.samplers.SamplerSpec`.  Two lists of names once disagreed (the QOBLIB summary
filed a mock QPU run's wall clock as "QPU Runtime" while the runtime module did not count it as QPU
time); here a source scan keeps any code outside the table from comparing a sampler with a name, and a
real mock run is shown never to be called QPU time.
"""

from __future__ import annotations

import ast
import csv
import json

import pytest

from nonoqubo.records import RunRecord
from nonoqubo.campaign.runtime import WALL_CLOCK, qpu_timed, recorded_time
from nonoqubo.solvers.samplers import QPU_ACCESS, SAMPLER_TABLE, SAMPLERS, known_sampler

from tests.support import ROOT

#: the one module that may name samplers: the table
TABLE = ROOT / "nonoqubo" / "solvers" / "samplers.py"


def _names(node: ast.AST) -> list[str]:
    """The sampler names a literal (a string, or a tuple/list/set/frozenset of them) holds."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if node.value in SAMPLERS or node.value == "qpu" else []
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [n for e in node.elts for n in _names(e)]
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("frozenset", "set", "tuple") and node.args:
        return _names(node.args[0])
    return []


def name_branches(source: str, where: str) -> list[str]:
    """Every comparison of something called a sampler with a sampler's name in *source* (``args.sampler ==
    "cpsat"``, ``record.get("sampler") in QPU_SAMPLERS``-style literals), and every module-level list of
    two or more sampler names (a second table)."""
    found = []
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            about_sampler = any("sampler" in ast.unparse(o) for o in operands)
            named = [n for o in operands for n in _names(o)]
            if about_sampler and named:
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(set(_names(node.value))) >= 2:
            found.append(f"{where}:{node.lineno}: a list of samplers {sorted(set(_names(node.value)))}")
    return found


def test_no_code_outside_the_table_branches_on_a_samplers_name():
    bad = []
    for path in sorted((ROOT / "nonoqubo").rglob("*.py")):
        if path != TABLE:
            bad += name_branches(path.read_text(), str(path.relative_to(ROOT)))
    assert not bad, "decided by a sampler's name, not by its table entry:\n" + "\n".join(bad)


def test_the_scan_catches_the_branches_it_replaced():
    old = ('DETERMINISTIC = frozenset({"exact", "cpsat"})\n'
           'def f(args, record):\n'
           '    if args.sampler in ("mock-dwave", "dwave") and not args.embedding:\n        pass\n'
           '    return record.get("sampler") == "dwave"\n')
    assert len(name_branches(old, "old.py")) == 3


def test_every_entry_says_its_facts():
    facts = {name: (s.deterministic, s.qpu, s.timing, s.reads_counted, s.ground_truth)
             for name, s in SAMPLER_TABLE.items()}
    assert facts["exact"][:2] == (True, False) and not facts["exact"][3]
    assert facts["cpsat"][0] and facts["cpsat"][4]
    assert facts["mock-dwave"][1] and facts["mock-dwave"][2] == WALL_CLOCK  # a QPU road, but never QPU time
    assert facts["dwave"][1] and facts["dwave"][2] == QPU_ACCESS
    assert [n for n, f in facts.items() if f[2] == QPU_ACCESS] == ["dwave"]
    assert known_sampler("qpu") is None and not qpu_timed("qpu") and not qpu_timed("mock-dwave")


@pytest.mark.slow
def test_a_mock_qpu_run_is_never_called_qpu_time(tmp_path, run_cli):
    pytest.importorskip("dwave.system")
    cls = tmp_path / "10-nonogram"
    status, _, err = run_cli("suite", "--layout", "qoblib", "--random", "4x4:0.5:1:2", "-o", cls)
    assert status == 0, err
    name = "random-4x4-d0.5-s2-0001"
    runs = tmp_path / "runs" / "mock"
    runs.mkdir(parents=True)
    run = runs / f"{name}.json"
    status, _, err = run_cli("solve", cls / "instances" / f"{name}.non", "--sampler", "mock-dwave", "--topology",
                             "pegasus:4", "--reads", 5, "--seed", 1, "-q", "-o", run)
    assert status in (0, 1), err
    text = run.read_text()
    record = json.loads(text)["info"]["nonoqubo"]
    assert "qpu_access_time" in text  # the mock's estimated QPU timing is in the file ...
    assert recorded_time(RunRecord.from_dict(record, "run.json"), text, 5)[1] == WALL_CLOCK  # ... and never its time
    out = cls / "submissions" / "20261204_mock_Tester"
    status, _, err = run_cli("evaluate", cls, runs, "-q", "-j", 1, "--submission", out, "--submitter", "T. Tester")
    assert status == 0, err
    with open(out / name / f"{name}_summary.csv", newline="", encoding="utf-8") as fh:
        row = next(csv.DictReader(fh))
    assert row["QPU Runtime"] == "N/A" and row["CPU Runtime"] != "N/A" and row["Total Runtime"] == row["CPU Runtime"]
    assert row["Algorithm Type"] == "stochastic"


def test_a_real_qpus_run_record_is_qpu_time():
    record = {"sampler": "dwave", "timing": {"seconds_per_run": 0.5, "time_source": WALL_CLOCK},
              "sampler_reported": {"qpu": {"timing": {"qpu_access_time": 20000.0}}}}
    assert recorded_time(RunRecord.from_dict(record, "run.json"), "", 10) == (0.002, QPU_ACCESS)
