"""Every command that builds, reads or decodes a model checks the memory first (issue 24).

A small fake limit (``available_memory``) stands for a machine too small; nothing big is
allocated. A refusal is one line naming the file and the estimate, with ``--force``; exit
status 2, no traceback, no file left behind.
"""

from __future__ import annotations

import json

import pytest

from nonoqubo.model import estimate

LIMIT = 1_000_000


@pytest.fixture
def puzzle(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(json.dumps({"rows": [[1]] * 60, "cols": [[1]] * 60}))
    return path


@pytest.fixture
def model(tmp_path, puzzle, run_cli):
    path = tmp_path / "big.qubo.json"
    status, _, err = run_cli("build", puzzle, "-o", path)
    assert status == 0, err
    return path


def _refused(status: int, err: str, path, what: str) -> None:
    assert status == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"nonoqubo: error: {path}: {what}"), err
    assert "of memory available; add --force to" in lines[0], err


PUZZLE_REFUSAL = "the 60x60 puzzle's model would have 7,080 variables, up to "


def test_solve_refuses_before_building(tmp_path, puzzle, run_cli, monkeypatch):
    monkeypatch.setattr(estimate, "available_memory", lambda: LIMIT)
    out = tmp_path / "samples.json"
    status, _, err = run_cli("solve", puzzle, "--reads", "1", "-o", out)
    _refused(status, err, puzzle, PUZZLE_REFUSAL)
    assert not out.exists()


def test_solve_with_force_goes_on(puzzle, run_cli, monkeypatch):
    monkeypatch.setattr(estimate, "available_memory", lambda: LIMIT)
    status, _, err = run_cli("solve", puzzle, "--reads", "1", "--seed", "1", "--sweeps", "10", "-q", "--force")
    assert status in (0, 1) and "add --force" not in err


def test_decode_against_clues_refuses(tmp_path, puzzle, run_cli, monkeypatch):
    samples = tmp_path / "s.txt"
    samples.write_text("0" * 7080 + "\n")
    monkeypatch.setattr(estimate, "available_memory", lambda: LIMIT)
    status, _, err = run_cli("decode", puzzle, samples)
    _refused(status, err, puzzle, PUZZLE_REFUSAL)
    status, _, err = run_cli("decode", puzzle, samples, "--force")
    assert status == 1 and "add --force" not in err


@pytest.mark.parametrize("command", ["info", "decode"])
def test_a_model_file_is_refused_from_its_size_before_it_is_read(command, model, run_cli, monkeypatch):
    size = model.stat().st_size
    monkeypatch.setattr(estimate, "available_memory", lambda: size * estimate.READ_BYTES_PER_FILE_BYTE - 1)
    read = []
    monkeypatch.setattr("nonoqubo.exports.qubo_json.loads", lambda *a, **k: read.append(1))
    status, _, err = run_cli(command, model)
    _refused(status, err, model, "reading the ")
    assert "model file would take about" in err and not read


def test_info_of_a_model_file_with_force_reads_it(model, run_cli, monkeypatch):
    monkeypatch.setattr(estimate, "available_memory", lambda: 1)
    status, out, err = run_cli("info", model, "--force")
    assert status == 0 and "variables:   7080" in out, err


def test_evaluate_refuses_the_model(tmp_path, model, run_cli, monkeypatch):
    samples = tmp_path / "runs"
    samples.mkdir()
    (samples / "a.txt").write_text("0" * 7080 + "\n")
    monkeypatch.setattr(estimate, "available_memory", lambda: 1)
    status, _, err = run_cli("evaluate", model, samples, "-j", "1", "-q")
    _refused(status, err, model, "reading the ")


def test_suite_refuses_a_random_size_before_drawing_or_writing(tmp_path, run_cli, monkeypatch):
    monkeypatch.setattr(estimate, "available_memory", lambda: LIMIT)
    drawn = []
    monkeypatch.setattr("nonoqubo.campaign.suite.draw", lambda m, time_limit=None: drawn.append(m))
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", "--random", "10x10,100000x100000:0.5:1", "-o", out, "-j", "1")
    _refused(status, err, "--random 100000x100000:0.5", "a random 100000x100000 puzzle's model would have about ")
    assert not out.exists() and not drawn


def test_suite_records_a_puzzle_too_large_and_goes_on(tmp_path, puzzle, run_cli, monkeypatch):
    small = tmp_path / "small.json"
    small.write_text(json.dumps({"rows": [[1], [1]], "cols": [[1], [1]]}))
    monkeypatch.setattr(estimate, "available_memory", lambda: LIMIT)
    out = tmp_path / "suite"
    status, _, err = run_cli("suite", puzzle, small, "-o", out, "-j", "1")
    assert status == 1
    failed = [ln for ln in err.splitlines() if ln.startswith("nonoqubo: failed:")]
    assert len(failed) == 1 and f"{puzzle}: {PUZZLE_REFUSAL}" in failed[0] and "add --force" in failed[0]
    index = json.loads((out / "index.json").read_text())
    assert [e["status"] for e in sorted(index["puzzles"] if isinstance(index, dict) else index,
                                        key=lambda e: e["name"])] == ["error", "ok"]
    assert not list(out.glob("big*"))


@pytest.mark.parametrize("command", ["build", "info", "solve", "decode", "evaluate", "suite"])
def test_every_guarded_command_documents_force(command, run_cli):
    status, out, _ = run_cli(command, "--help")
    assert status == 0 and "--force" in out


def test_the_random_estimate_is_near_a_real_model():
    from nonoqubo.generation.families import make, parse_family

    real = estimate.estimate(make(parse_family("40x30:0.5:1:3").members()[0]))
    guess = estimate.estimate_random(40, 30, 0.5)
    assert 0.7 < guess.variables / real.variables < 1.4 and 0.5 < guess.terms / real.terms < 2
