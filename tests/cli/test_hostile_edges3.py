"""One regression test per class of issue 45 ("Edges 3"): the newest surfaces meet hostile input.

1. one path named by two outputs of a command (``solve -o x.svg --image x.svg``);
2. counts too large to run (``--sweeps 10000000000``, ``--reads 2**63``) and runs too large for memory;
3. pipes as option files (``--beta-schedule custom <(...)``, ``--initial-states <(...)``);
4. a sample counted 0 times (``num_occurrences`` 0) that was still counted;
5. samples of the wrong type (complex, datetime64) taken for 0/1;
6. a tournament answer file whose first answer has a short row, taken for a picture;
7. a puzzle whose model has no variables and an energy that is not 0: no solution.

Each test failed on the code before the fix.  The fuzz families of the same classes are in
``tests/support/fuzzing.py`` (``outputs``, ``counts``, ``streams``, ``occurrences``, ``sample-types``,
``tournament-answers``, ``empty-models``; FUZZING.md).  A pipe is what a shell's ``<(...)`` hands a
command: ``/dev/fd/N`` of a pipe whose writer has written and closed.
"""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import numpy as np
import pytest

from nonoqubo.errors import SampleError, SolverError, WriteError
from tests.support.fuzzing import SMALL, run_case

UNSOLVABLE = {"rows": [[2], []], "cols": [[], [2]]}  # every block placed; two cells disagree


def one_line(status_err: tuple[int, str, str], status: int = 2) -> str:
    code, _, err = status_err
    assert code == status and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)
    return err.strip()


def pipe_of(data: bytes) -> str:
    """``/dev/fd/N`` of a pipe holding *data*, its writer closed (what ``<(printf ...)`` gives)."""
    read, write = os.pipe()
    os.write(write, data)
    os.close(write)
    return f"/dev/fd/{read}"


@pytest.fixture(scope="module")
def small():
    """The 5x5 puzzle: its labels and the bits of its solution."""
    from nonoqubo import clues
    from nonoqubo.model.encoding import Layout

    puzzle = clues.load(SMALL)
    layout = Layout.of(puzzle)
    grid = np.array([[c == "#" for c in row] for row in puzzle.solution], np.int8)
    return puzzle, layout.labels(), [int(b) for b in np.asarray(layout.encode(grid)).ravel()]


# -- 1. one path for two outputs -----------------------------------------------------------------
def test_class1_solve_refuses_one_file_for_samples_and_image(tmp_path, run_cli):
    out = tmp_path / "x.svg"
    line = one_line(run_cli("solve", SMALL, "-o", out, "--image", tmp_path / "sub" / ".." / "x.svg", "--seed", "1"))
    assert f"-o and --image both name {out}" in line and "overwrite" in line
    assert not out.exists()


def test_class1_evaluate_refuses_one_file_for_csv_and_report(tmp_path, run_cli):
    run = tmp_path / "run.json"
    assert run_cli("solve", SMALL, "-o", run, "-q", "--seed", "1")[0] == 0
    page = tmp_path / "y.html"
    line = one_line(run_cli("evaluate", SMALL, run, "--csv", page, "--report", page))
    assert f"--csv and --report both name {page}" in line
    assert not page.exists()


def test_class1_build_refuses_a_link_to_another_output(tmp_path, run_cli):
    first = tmp_path / "a.qubo"
    first.write_text("old")
    (tmp_path / "b.qubo").symlink_to(first)
    line = one_line(run_cli("build", SMALL, "-o", first, "-o", tmp_path / "b.qubo"))
    assert "-o names" in line and "twice" in line
    assert first.read_text() == "old"


def test_class1_the_shared_helper():
    from nonoqubo._util.atomic import check_distinct_outputs

    check_distinct_outputs(("-o", "a.json"), ("--image", "a.svg"), ("--csv", None), ("--json", "/dev/null"),
                           ("--report", "/dev/null"))  # a device takes several outputs: it is not replaced
    with pytest.raises(WriteError, match=r"standard output is named twice \(-o - and --csv -\)"):
        check_distinct_outputs(("-o", "-"), ("--csv", "-"))
    with pytest.raises(WriteError, match="--figures and --submission both name"):
        check_distinct_outputs(("--figures", "out/"), ("--submission", "./out"))


def test_class1_a_hard_link_is_the_same_file(tmp_path):
    from nonoqubo._util.atomic import check_distinct_outputs

    (tmp_path / "a.csv").write_text("")
    os.link(tmp_path / "a.csv", tmp_path / "b.csv")
    with pytest.raises(WriteError, match="--csv and --report both name"):
        check_distinct_outputs(("--csv", tmp_path / "a.csv"), ("--report", tmp_path / "b.csv"))


# -- 2. numbers too large to run ---------------------------------------------------------------------
@pytest.mark.parametrize("option, value, bound", [
    ("--sweeps", "10000000000", "100,000,000"),
    ("--reads", str(2**63), "1,000,000"),
    ("--restarts", str(10**12), "1,000,000"),
    ("--sweeps-per-beta", str(10**10), "100,000,000"),
])
def test_class2_counts_past_their_bound_are_one_line(run_cli, option, value, bound):
    line = one_line(run_cli("solve", SMALL, option, value))
    assert line == f"nonoqubo: error: {option} must be at most {bound}, not {int(value):,}"


@pytest.mark.parametrize("argv, flag", [
    (["--sampler", "tabu", "--time-limit", "1e300"], "--time-limit"),
    (["--sampler", "cpsat", "--workers", "100000"], "--workers"),
    (["--sampler", "cpsat", "--count", str(10**9)], "--count"),
    (["--sampler", "openjij-sqa", "--trotter", str(10**9)], "--trotter"),
])
def test_class2_every_sampler_count_and_time_is_bounded(run_cli, argv, flag):
    assert f"{flag} must be at most" in one_line(run_cli("solve", SMALL, *argv))


def test_class2_a_sweep_setting_and_help_say_the_bound(run_cli, tmp_path):
    line = one_line(run_cli("solve", SMALL, "--sweep", "sweeps=10:10000000000", "-o", tmp_path / "runs"))
    assert "--sweep sweeps=10000000000: --sweeps must be at most 100,000,000" in line
    status, out, _ = run_cli("solve", "--help")
    assert status == 0 and "at most 1,000,000" in " ".join(out.split())


def test_class2_a_run_too_large_for_memory_is_refused_before_sampling(run_cli, monkeypatch):
    from nonoqubo.solvers import sampling

    monkeypatch.setattr(sampling, "available_memory", lambda: 10_000_000)
    line = one_line(run_cli("solve", SMALL, "--reads", "1000000"))
    assert "--reads 1,000,000 on the model's 23 variables would take about" in line and "ask for fewer" in line


def test_class2_the_memory_estimate_counts_samples_and_schedule():
    from nonoqubo import clues
    from nonoqubo.model.build import build
    from nonoqubo.solvers.request import SolveRequest
    from nonoqubo.solvers.sampling import check_memory

    qubo = build(clues.load(SMALL))
    small = check_memory(qubo, SolveRequest.of("sa", reads=10))
    assert small == 10 * (qubo.num_vars * 8 + 32) + 8 * 1000
    assert check_memory(qubo, SolveRequest.of("sa", reads=10, restarts=4, sweeps=5000)) == \
        40 * (qubo.num_vars * 8 + 32) + 8 * 5000
    with pytest.raises(SolverError, match="more than the 1.0 KB available"):
        check_memory(qubo, SolveRequest.of("sa", reads=10), memory=1024)


# -- 3. pipes as inputs ----------------------------------------------------------------------------
def test_class3_a_beta_schedule_from_a_pipe_is_read_once(run_cli, tmp_path):
    out = tmp_path / "run.json"
    status, _, err = run_cli("solve", SMALL, "--beta-schedule", "custom", pipe_of(b"0.1\n1\n5\n"), "--seed", "1",
                             "-q", "-o", out)
    assert status in (0, 1), err
    assert json.loads(out.read_text())["info"]["nonoqubo"]["parameters"]["beta_schedule"] == "custom"


def test_class3_initial_states_from_a_pipe(run_cli, tmp_path, small):
    puzzle, _, _ = small
    picture = ("\n".join(puzzle.solution) + "\n").encode()
    status, _, err = run_cli("solve", SMALL, "--initial-states", pipe_of(picture), "--beta-range", "5,20",
                             "--seed", "1", "-q", "-o", tmp_path / "run.json")
    assert status == 0, err
    samples = (tmp_path / "run.json").read_bytes()
    status, _, err = run_cli("solve", SMALL, "--initial-states", pipe_of(samples), "--seed", "2", "-q",
                             "-o", tmp_path / "run2.json")
    assert status in (0, 1), err


def test_class3_an_embedding_and_a_sweep_file_from_pipes(run_cli, tmp_path):
    emb = tmp_path / "e.json"
    assert run_cli("embed", SMALL, "--topology", "chimera:4", "--embed-seed", "2", "-o", emb, "--no-cache", "-q")[0] == 0
    status, _, err = run_cli("solve", SMALL, "--sampler", "mock-dwave", "--embedding", pipe_of(emb.read_bytes()),
                             "--reads", "2", "--seed", "1", "-q", "-o", tmp_path / "run.json")
    assert status in (0, 1), err
    status, out, err = run_cli("solve", SMALL, "--sweep", pipe_of(b"sweeps: [10, 20]\n"), "--reads", "2",
                               "-o", tmp_path / "runs", "-q")
    assert status in (0, 1), err
    assert sorted(p.name for p in (tmp_path / "runs").iterdir()) == ["sweeps=10", "sweeps=20"]


def test_class3_a_fifo_nobody_writes_is_refused_after_the_timeout(run_cli, tmp_path, monkeypatch):
    from nonoqubo._util import stream

    monkeypatch.setattr(stream, "STREAM_SECONDS", 0.2)
    fifo = tmp_path / "betas"
    os.mkfifo(fifo)
    line = one_line(run_cli("solve", SMALL, "--beta-schedule", "custom", fifo))
    assert f"--beta-schedule custom {fifo}: nothing arrived for 0.2 s" in line


def test_class3_a_stream_past_its_limit_is_refused():
    from nonoqubo._util.stream import read_bytes
    from nonoqubo.errors import StreamError

    with pytest.raises(StreamError, match="more than 10 bytes arrived"):
        read_bytes(pipe_of(b"1\n" * 100), "--beta-schedule custom betas", limit=10)


# -- 4. a sample counted 0 times ----------------------------------------------------------------------
@pytest.fixture
def zero_counted(tmp_path, small):
    """A SampleSet whose one valid row is counted 0 times; the other row (every bit flipped) 5 times."""
    import dimod

    _, labels, bits = small
    flipped = [1 - b for b in bits]
    ss = dimod.SampleSet.from_samples([dict(zip(labels, bits)), dict(zip(labels, flipped))], "BINARY",
                                      energy=[0, 30], num_occurrences=[0, 5])
    path = tmp_path / "zero.json"
    path.write_text(json.dumps(ss.to_serializable()))
    return path


def test_class4_evaluate_counts_no_energy_of_a_row_seen_0_times(zero_counted, run_cli):
    status, out, err = run_cli("evaluate", SMALL, zero_counted, "--json")
    assert status == 0, err
    raw = json.loads(out)["groups"][0]["raw"]
    assert (raw["samples"], raw["valid"], raw["p"]) == (5, 0, 0.0)
    assert raw["energy_min"] > 0  # was 0: the energy of the row nobody saw


def test_class4_decode_shows_no_picture_of_a_row_seen_0_times(zero_counted, run_cli):
    status, out, err = run_cli("decode", SMALL, zero_counted, "--json")
    assert status == 1, err  # no valid sample
    doc = json.loads(out)
    assert [s["num_occurrences"] for s in doc["samples"]] == [5]


def test_class4_every_row_seen_0_times_is_no_sample(small):
    import nonoqubo
    from nonoqubo.samples import SampleBatch

    puzzle, labels, bits = small
    batch = SampleBatch(bits=np.array([bits], np.int8), labels=labels, num_occurrences=np.array([0]))
    with pytest.raises(SampleError, match="every sample is counted 0 times"):
        nonoqubo.decode(puzzle, batch)


# -- 5. samples of the wrong type -------------------------------------------------------------------
@pytest.mark.parametrize("kind", ["complex128", "complex64", "datetime64[D]", "timedelta64[s]"])
def test_class5_arrays_that_are_not_numbers_are_refused(small, kind):
    import nonoqubo

    puzzle, _, bits = small
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # NumPy's ComplexWarning leaked before
        with pytest.raises(SampleError, match="must be 0 or 1"):
            nonoqubo.decode(puzzle, np.array([bits]).astype(kind))


@pytest.mark.parametrize("value", [complex(1, 0), np.complex128(1), np.datetime64(1, "D")])
def test_class5_label_maps_of_complex_or_dates_are_refused(small, value):
    import nonoqubo

    puzzle, labels, _ = small
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(SampleError):
            nonoqubo.decode(puzzle, {label: value for label in labels})


def test_class5_integers_bools_and_exact_floats_still_are_samples(small):
    import nonoqubo

    puzzle, _, bits = small
    for kind in (np.int8, np.uint64, bool, np.float32, np.float64):
        assert nonoqubo.decode(puzzle, np.array([bits]).astype(kind))[0].valid
    with pytest.raises(SampleError, match="value 0.5"):
        nonoqubo.decode(puzzle, np.array([bits], np.float64) * 0.5)


# -- 6. a tournament answer file with a short row in its first answer --------------------------------
@pytest.fixture
def tournament(tmp_path, small):
    puzzle, _, _ = small
    question = "\n".join("\t".join(map(str, c)) or "0" for c in (*puzzle.cols, *puzzle.rows))
    questions = tmp_path / "q.taai"
    questions.write_text(f"$1\n{question}\n$2\n{question}\n")
    rows = ["\t".join("1" if c == "#" else "0" for c in r) for r in puzzle.solution]
    return questions, rows


@pytest.mark.parametrize("broken", [1, 2])
def test_class6_a_short_row_is_that_answer_s_error_whichever_answer(tmp_path, tournament, run_cli, broken):
    questions, rows = tournament
    short = ["1\t0", *rows[1:]]
    answers = [short if n == broken else rows for n in (1, 2)]
    path = tmp_path / "short.txt"
    path.write_text("".join(f"${n}\n" + "\n".join(a) + "\n" for n, a in zip((1, 2), answers)))
    status, out, err = run_cli("check", questions, path)
    assert status == 1, err
    line = 3 if broken == 1 else 9
    assert f"{path}:{line}: ${broken}, row 2 has 5 cells, row 1 has 2" in out
    assert "1 of 2 puzzles solved; 1 broken" in out


def test_class6_detection_reads_the_headers_not_the_first_answer_alone():
    from nonoqubo.samples import tournament

    assert tournament.detect(b"$1\n1\t0\n1\t1\t0\t0\n$2\n0\t0\n")
    assert not tournament.detect(b"$1\n1\n1 1\n1\n$2\n1 1\n1\n")  # clue lines: a question file


# -- 7. a model with no variables whose energy is not 0 -------------------------------------------------
@pytest.fixture
def unsolvable(tmp_path):
    path = tmp_path / "u.json"
    path.write_text(json.dumps(UNSOLVABLE))
    return path


def test_class7_build_says_there_is_no_solution(unsolvable, tmp_path, run_cli):
    status, out, err = run_cli("build", unsolvable, "-o", tmp_path / "u.qubo.json")
    assert status == 1 and "line logic solved" not in err, (out, err)
    assert out.strip() == (f"nonoqubo: {unsolvable}: the puzzle has no solution: its model has no variables and "
                           "its one assignment has energy 2, not 0")
    assert not (tmp_path / "u.qubo.json").exists()


def test_class7_info_says_there_is_no_solution(unsolvable, run_cli):
    status, out, _ = run_cli("info", unsolvable)
    assert status == 1 and "solutions:   none: the puzzle has no solution" in out
    status, out, _ = run_cli("info", unsolvable, "--json")
    assert status == 1 and "energy 2" in json.loads(out)["no_solution"]


@pytest.mark.parametrize("sampler", ["sa", "tabu", "exact", "cpsat", "qbpp", "openjij-sa"])
def test_class7_every_sampler_says_there_is_no_solution(unsolvable, run_cli, sampler):
    if sampler == "cpsat":
        pytest.importorskip("ortools")
    if sampler == "qbpp":
        pytest.importorskip("pyqbpp")
    if sampler == "openjij-sa":
        pytest.importorskip("openjij")
    status, out, err = run_cli("solve", unsolvable, "--sampler", sampler)
    assert status == 1 and err == "", (out, err)
    expected = "CP-SAT proved that the puzzle has no solution" if sampler == "cpsat" else \
        "the puzzle has no solution: its model has no variables and its one assignment has energy 2, not 0"
    assert expected in out and "INVALID" not in out


def test_class7_a_solvable_empty_model_still_solves(tmp_path, run_cli):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"rows": [[2], []], "cols": [[1], [1]]}))
    assert run_cli("build", path, "-o", tmp_path / "s.qubo.json", "-q")[0] == 0
    for sampler in ("sa", "cpsat"):
        status, out, err = run_cli("solve", path, "--sampler", sampler)
        assert status == 0 and "VALID" in out, (sampler, out, err)


def test_class7_the_cases_stay_inside_the_fuzz_contract(unsolvable):
    kind, detail = run_case(["solve", str(unsolvable)], [str(unsolvable)])
    assert kind == "invalid", detail
    assert Path(unsolvable).exists()


# -- what the fuzz families found on their first runs --------------------------------------------------
@pytest.mark.parametrize("brk", ["\n", "\x0c", "\x1c", "\u2028", "\r"])
def test_fuzz_a_line_break_in_an_output_name_stays_on_one_line(tmp_path, run_cli, brk):
    line = one_line(run_cli("solve", SMALL, "-o", tmp_path / f"no-such-folder{brk}x" / "a.json"))
    assert "cannot write" in line and repr(brk)[1:-1] in line


def test_fuzz_a_count_of_a_thousand_digits_in_a_sweep(tmp_path, run_cli):
    line = one_line(run_cli("solve", SMALL, "--sweep", "sweeps=10:" + "2" * 1000, "-o", tmp_path / "runs"))
    assert "--sweeps must be at most 100,000,000, not a number of 1,000 digits" in line


@pytest.mark.parametrize("number, says", [("9" * 5000, "5000 digits"), ("1" + "0" * 400, "401 digits")])
def test_fuzz_huge_integers_in_a_json_list_of_betas(tmp_path, run_cli, number, says):
    betas = tmp_path / "betas.json"
    betas.write_text(f"[0.5, {number}]")
    line = one_line(run_cli("solve", SMALL, "--beta-schedule", "custom", betas))
    assert f"--beta-schedule custom {betas}" in line and says in line
