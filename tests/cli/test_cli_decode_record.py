"""``decode`` honours the model a run records (issue 44 items 1, 2, 4; issue 42's decode stumbles).

A run that ``solve -o`` wrote at every encoding of the registry and a non-default weight set,
decoded against its clue file, gives the run's own energies: compared with the energies the
SampleSet itself carries (read by dimod, not by nonoqubo), and with the energies of the model
built independently (``Qubo.energy``).  A model file, or an ``--encoding``/``--weights``/
``--presolve`` given, that is not the recorded model is refused: exit 2, one line naming both.
Answers with no record take build's ``--encoding``/``--weights``.  The library road
(``nonoqubo.decode(puzzle, sampleset)``) goes the same way.
"""

from __future__ import annotations

import json
import os
import threading

import numpy as np
import pytest

import nonoqubo
from nonoqubo.answers.decode import Reports
from nonoqubo.answers.render import HTML_REPORTS, reports_html
from nonoqubo.clues import spec
from nonoqubo.errors import NonoquboError
from nonoqubo.model.build import build
from nonoqubo.model.encodings import REGISTRY
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.qpu.unembed import chain_breaks_of
from nonoqubo.samples import RawSamples
from nonoqubo.solvers.sampling import sampleset_document, solve
from tests.support import run_cli

dimod = pytest.importorskip("dimod")

PICTURE = ["#..##", ".#.#.", "###..", "#...#"]
WEIGHTS = "shape=2,order=3,cell=5"


@pytest.fixture
def clues(tmp_path):
    path = tmp_path / "p.yaml"
    path.write_text(spec.dumps(Puzzle.from_picture(PICTURE)))
    return path


def file_energies(path) -> list[float]:
    """The energies the SampleSet file carries, as dimod reads them."""
    return dimod.SampleSet.from_serializable(json.loads(path.read_text())).record.energy.tolist()


def run(clues, tmp_path, *options: str, name: str = "run.json"):
    out = tmp_path / name
    status, _, err = run_cli("solve", clues, "--reads", 6, "--sweeps", 3, "--seed", 5, "-q", "-o", out, *options)
    assert status in (0, 1), err
    return out


@pytest.mark.parametrize("encoding", [e.name for e in REGISTRY])
def test_a_run_at_every_encoding_and_weights_decodes_to_its_own_energies(clues, tmp_path, encoding):
    out = run(clues, tmp_path, "--encoding", encoding, "--weights", WEIGHTS)
    status, stdout, stderr = run_cli("decode", clues, out, "--all", "--json")
    assert status in (0, 1), stderr
    doc = json.loads(stdout)
    energies = [s["energy"] for s in doc["samples"]]
    assert energies == file_energies(out)
    assert max(energies) > 0  # 3 sweeps: the weights show in the energies
    # the energies of the model built on its own, from the pictures decoded
    qubo = build(Puzzle.from_picture(PICTURE), encoding=encoding, weights=WEIGHTS)
    bits = dimod.SampleSet.from_serializable(json.loads(out.read_text()))
    order = [list(bits.variables).index(label) for label in qubo.labels]
    assert qubo.energy(np.asarray(bits.record.sample)[:, order]).tolist() == energies
    assert (doc["encoding"], doc["weights"]) == (encoding, {"shape": 2, "order": 3, "cell": 5})
    lines = stderr.splitlines()
    assert len(lines) == 1 and f"the {encoding} model at weights {WEIGHTS}" in lines[0] and "p.yaml" in lines[0]
    assert run_cli("decode", clues, out, "-q")[2] == ""  # -q: no note


def test_a_presolved_run_decodes_against_the_presolved_model(clues, tmp_path):
    out = run(clues, tmp_path, "--presolve", "--weights", WEIGHTS)
    record = json.loads(out.read_text())["info"]["nonoqubo"]["model"]
    status, stdout, stderr = run_cli("decode", clues, out, "--all", "--json")
    doc = json.loads(stdout)
    assert [s["energy"] for s in doc["samples"]] == file_energies(out)
    assert (doc["variables"], doc["fixed"]) == (record["variables"], record["fixed"])
    assert "presolve line" in stderr


@pytest.mark.parametrize("options, named", [
    (["--weights", "cell=1"], "--weights shape=1,order=1,cell=1"),
    (["--encoding", "one-hot"], "--encoding one-hot"),
    (["--presolve", "probe"], "--presolve probe"),
])
def test_options_that_disagree_with_the_record_are_refused(clues, tmp_path, options, named):
    out = run(clues, tmp_path, "--weights", WEIGHTS)
    status, stdout, stderr = run_cli("decode", clues, out, *options)
    assert status == 2 and stdout == ""
    assert len(stderr.splitlines()) == 1 and "Traceback" not in stderr
    assert f"domain-wall model at weights {WEIGHTS}" in stderr and named in stderr and "leave out" in stderr


def test_a_model_file_that_is_not_the_recorded_model_is_refused(clues, tmp_path):
    out = run(clues, tmp_path, "--encoding", "one-hot")
    model = tmp_path / "p.qubo.json"
    assert run_cli("build", clues, "-o", model, "-q")[0] == 0
    status, stdout, stderr = run_cli("decode", model, out)
    assert status == 2 and stdout == "" and len(stderr.splitlines()) == 1
    assert "one-hot model" in stderr and "p.qubo.json is the domain-wall model" in stderr and "clue file" in stderr
    right = tmp_path / "p.onehot.qubo.json"  # the model file it was drawn from: as it is, no note
    assert run_cli("build", clues, "--encoding", "one-hot", "-o", right, "-q")[0] == 0
    status, stdout, stderr = run_cli("decode", right, out, "--all", "--json")
    assert [s["energy"] for s in json.loads(stdout)["samples"]] == file_energies(out) and stderr == ""


def test_standard_input_carries_its_record_too(clues, tmp_path):
    out = run(clues, tmp_path, "--weights", WEIGHTS)
    status, stdout, stderr = run_cli("decode", clues, "-", "--all", "--json", stdin=out.read_text())
    assert [s["energy"] for s in json.loads(stdout)["samples"]] == file_energies(out)
    assert stderr.startswith("nonoqubo: note: <stdin> records its run's model")


def test_a_fifo_carries_its_record_too(clues, tmp_path):
    """A FIFO (or ``<(...)``) is read once: its run record and its samples come from the same bytes."""
    out = run(clues, tmp_path, "--weights", WEIGHTS)
    fifo = tmp_path / "answers.fifo"
    os.mkfifo(fifo)
    writer = threading.Thread(target=fifo.write_bytes, args=(out.read_bytes(),))
    writer.start()
    try:
        status, stdout, stderr = run_cli("decode", clues, fifo, "--all", "--json")
    finally:
        writer.join(timeout=20)
    assert status in (0, 1), stderr
    assert [s["energy"] for s in json.loads(stdout)["samples"]] == file_energies(out)
    assert "answers.fifo records its run's model" in stderr and WEIGHTS in stderr


def test_an_answer_with_no_record_takes_builds_encoding_and_weights(clues, tmp_path):
    qubo = build(Puzzle.from_picture(PICTURE), encoding="one-hot", weights="cell=2")
    bits = np.random.default_rng(1).integers(0, 2, (4, qubo.num_vars))
    answer = tmp_path / "answer.txt"
    answer.write_text("\n".join("".join(map(str, row)) for row in bits) + "\n")
    status, stdout, stderr = run_cli("decode", clues, answer, "--all", "--json", "--encoding", "one-hot",
                                     "--weights", "cell=2")
    doc = json.loads(stdout)
    assert [s["energy"] for s in doc["samples"]] == qubo.energy(bits).tolist() and stderr == ""
    assert doc["encoding"] == "one-hot" and doc["weights"]["cell"] == 2
    status, _, stderr = run_cli("decode", clues, answer, "--encoding", "no-such")
    assert status == 2 and len(stderr.splitlines()) == 1 and "--encoding" in stderr


def test_decode_help_shows_builds_options():
    status, stdout, _ = run_cli("decode", "--help")
    _, build_help, _ = run_cli("build", "--help")
    for option in ("--encoding NAME", "--weights shape=A,order=B,cell=C", "-q, --quiet"):
        assert option in stdout and (option.startswith("-q") or option in build_help)


def test_no_blank_line_under_the_summary(clues, tmp_path):
    out = run(clues, tmp_path)
    status, stdout, _ = run_cli("decode", clues, out, "--all")
    lines = stdout.splitlines()
    assert lines[1].startswith("sample 0")
    assert lines.count("") == 5  # one between each two of the 6 reports


# -- the library road ------------------------------------------------------------------------------
@pytest.mark.parametrize("encoding", ["one-hot", "automaton"])
def test_the_library_decodes_a_sampleset_against_its_recorded_model(encoding):
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "sa", reads=5, sweeps=3, seed=2, encoding=encoding, weights=WEIGHTS)
    sampleset = dimod.SampleSet.from_serializable(sampleset_document(result))
    reports = nonoqubo.decode(puzzle, sampleset)
    assert [r.energy for r in reports] == sampleset.record.energy.tolist()
    assert reports[0].encoding.name == encoding
    assert [r.energy for r in nonoqubo.decode(puzzle, sampleset_document(result))] == sampleset.record.energy.tolist()
    with pytest.raises(NonoquboError, match="--weights shape=1,order=1,cell=1 asks for another model"):
        nonoqubo.decode(puzzle, sampleset, weights="cell=1")


def test_the_library_returns_reports_that_show_their_pictures():
    puzzle = Puzzle.from_picture(PICTURE)
    result = solve(puzzle, "sa", reads=3, sweeps=2, seed=1)
    reports = nonoqubo.decode(puzzle, dimod.SampleSet.from_serializable(sampleset_document(result)))
    assert isinstance(reports, Reports) and isinstance(reports, list)
    assert reports == list(reports) and len(reports) == 3 and reports[1:] == [reports[1], reports[2]]
    html = reports._repr_html_()
    assert html is not None and html.count("<svg") == 3 and reports.summary() in html
    for k, r in enumerate(reports):
        assert f"sample {r.index}: {r.verdict}" in html and f'id="title-{k}"' in html
    many = Reports([reports[0]] * (HTML_REPORTS + 5))
    assert reports_html(many).count("<svg") == HTML_REPORTS and "and 5 more" in reports_html(many)


# -- issue 42: where a read-back embedding came from -------------------------------------------------
def test_a_read_back_embedding_names_the_file_not_now_cached():
    raw = RawSamples(values=[[0]], labels=["a"], info={
        "chain_break_fraction": [0.0], "qpu": {"embedding": {"qubits": 3, "from": "minorminer (now cached)"}}})
    assert chain_breaks_of(raw, "run.json")["qpu"]["embedding"]["from"] == \
        "run.json's run record (the run found it with minorminer)"


def test_decode_of_a_mock_run_says_the_embedding_came_from_the_file(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))
    puzzle = Puzzle.from_picture(["#.#", ".#.", "##."])
    clues = tmp_path / "small.yaml"
    clues.write_text(spec.dumps(puzzle))
    result = solve(puzzle, "mock-dwave", reads=3, seed=3, qpu={"topology": "chimera:2"})
    out = tmp_path / "mock.json"
    out.write_text(json.dumps(sampleset_document(result)))
    status, stdout, _ = run_cli("decode", clues, out)
    assert "now cached" not in stdout
    assert f"from {out}'s run record (the run found it with minorminer)" in stdout
