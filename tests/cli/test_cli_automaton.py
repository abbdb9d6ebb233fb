"""``--encoding automaton`` end to end: build, info, solve and decode through the CLI."""

from __future__ import annotations

import json

from tests.support import ROOT

PUZZLE = ROOT / "tests" / "data" / "puzzles" / "json" / "sgt-pattern-5x5.json"


def test_build_info_solve_decode(run_cli, tmp_path):
    model = tmp_path / "m.qubo.json"
    status, out, err = run_cli("build", PUZZLE, "--encoding", "automaton", "-o", model)
    assert status == 0, err
    assert "automaton" in err + out
    status, out, _ = run_cli("info", model)
    assert status == 0 and "encoding:    automaton" in out and "variables:   114" in out
    samples = tmp_path / "runs.json"
    status, _, err = run_cli("solve", model, "--sampler", "sa", "--reads", "8", "--sweeps", "10", "--seed", "3",
                             "-o", samples)
    assert status in (0, 1), err
    status, out, _ = run_cli("decode", model, samples, "--all", "--json")
    doc = json.loads(out)
    reports = doc["samples"]
    assert len(reports) == 8
    for r in reports:
        assert sum(r["penalties"].values()) == r["energy"]
    assert any(not r["valid"] for r in reports)
