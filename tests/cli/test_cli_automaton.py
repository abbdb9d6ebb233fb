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


def test_decode_words_the_automaton_families_as_its_own(run_cli, tmp_path):
    """A broken automaton sample is reported in the encoding's words (states, transitions), not as blocks and shifts."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text("#.#\n.#.\n##.\n")
    model = tmp_path / "a.qubo.json"
    assert run_cli("build", puzzle, "--encoding", "automaton", "-o", model)[0] == 0
    n = json.loads(model.read_text())["num_variables"]
    samples = tmp_path / "s.txt"
    samples.write_text("1" * n + "\n")
    status, out, _ = run_cli("decode", model, samples)
    assert status == 1
    assert "(one state per cell)" in out and "(forbidden transitions)" in out and "(block order)" not in out
    assert "cells not in exactly one automaton state" in out and "forbidden automaton transitions" in out
    assert "a transition the clue's automaton does not make" in out and "of its shifts" not in out
