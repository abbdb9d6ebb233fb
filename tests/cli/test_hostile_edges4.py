"""One regression test per class of issue 54 ("Edges 4") this branch closes: 1, 3, 4, 5 and 10.

1. an output on an input of the same command (``evaluate SUITE RUNS --csv runs/sa/X.json``, ``--csv
   suite/index.json``, a link to one; ``suite DIR/index.json -o DIR``);
3. a FIFO, or a link to ``/dev/zero``, at a run-file path: ``run`` (even ``--dry-run``) and ``evaluate``
   blocked for ever (and ``suite``, walking a folder of clue files, waited 10 s or read 1 GiB);
4. ``-j 10**20``: evaluate looped ``jobs x in-flight`` times before its first file;
5. pt and pa: every count within its bound, yet their product hours of work (``--replicas 1000000``);
10. ``evaluate --figures runs/sa``: its PDFs broke the next evaluate.

Each test failed on the code before the fix (a hang is caught by the fuzz harness's timer,
:func:`tests.support.fuzzing.run_case`: ``hang`` instead of ``error``).  The fuzz families of the same
classes are in ``tests/support/fuzzing.py`` (``input-outputs``, ``found-streams``, ``jobs``, ``work``,
``output-folders``; FUZZING.md).  Classes 2, 6, 7, 8 and 9 are the "records" branch's.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from nonoqubo.errors import SolverError, StreamError, WriteError
from tests.support import run_cli as support_run_cli
from tests.support.fuzzing import SMALL, run_case


def one_line(status_err: tuple[int, str, str], status: int = 2) -> str:
    code, _, err = status_err
    assert code == status and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (code, err)
    return err.strip()


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> Path:
    """A suite of the 5x5 puzzle and a runs folder of two sa runs of it: ``suite/``, ``runs/sa/*.json``."""
    root = tmp_path_factory.mktemp("edges4")
    assert support_run_cli("suite", SMALL, "-o", root / "suite", "-j", 1, "-q")[0] == 0
    (root / "runs" / "sa").mkdir(parents=True)
    for seed in (1, 2):
        status, _, err = support_run_cli("solve", SMALL, "-o", root / "runs" / "sa" / f"sgt-pattern-5x5.s{seed}.json",
                                         "--reads", 4, "--sweeps", 50, "--seed", seed, "-q")
        assert status == 0, err
    return root


@pytest.fixture
def work(campaign, tmp_path) -> Path:
    """A copy of :func:`campaign` this test may change."""
    shutil.copytree(campaign / "suite", tmp_path / "suite")
    shutil.copytree(campaign / "runs", tmp_path / "runs")
    return tmp_path


def snapshot(*folders: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for f in folders for p in sorted(f.rglob("*")) if p.is_file()}


# -- 1. no output on an input ---------------------------------------------------------------------
@pytest.mark.parametrize("option, target", [
    ("--csv", "runs/sa/sgt-pattern-5x5.s1.json"),  # a run file found in SAMPLES
    ("--csv", "suite/index.json"),  # the suite's index
    ("--csv", "suite/index.csv"),
    ("--csv", "suite/sgt-pattern-5x5.qubo.json"),  # a model the suite's index names
    ("--report", "link.html"),  # a link to a run file
])
def test_class1_evaluate_writes_no_output_on_an_input(work, run_cli, option, target):
    (work / "link.html").symlink_to(work / "runs" / "sa" / "sgt-pattern-5x5.s2.json")
    before = snapshot(work / "suite", work / "runs")
    line = one_line(run_cli("evaluate", work / "suite", work / "runs", option, work / target, "-j", 1))
    assert f"{option} {work / target}" in line and "input" in line
    assert snapshot(work / "suite", work / "runs") == before


def test_class1_a_link_in_a_runs_folder_to_a_file_elsewhere(work, run_cli):
    outside = work / "elsewhere.json"
    shutil.copy(work / "runs" / "sa" / "sgt-pattern-5x5.s1.json", outside)
    (work / "runs" / "sa" / "sgt-pattern-5x5.s3.json").symlink_to(outside)
    before = outside.read_bytes()
    line = one_line(run_cli("evaluate", SMALL, work / "runs", "--csv", outside, "-j", 1))
    assert f"--csv {outside}: it is the input file" in line and "sgt-pattern-5x5.s3.json" in line
    assert outside.read_bytes() == before


def test_class1_suite_writes_no_index_over_a_clue_file(tmp_path, run_cli):
    clues = tmp_path / "index.json"
    shutil.copy(SMALL, clues)
    before = clues.read_bytes()
    line = one_line(run_cli("suite", clues, "-o", tmp_path, "-j", 1, "-q"))
    assert f"-o {clues}: it is the input file {clues}" in line
    assert clues.read_bytes() == before


def test_class1_suite_writes_no_clue_copy_over_a_clue_file(tmp_path, run_cli):
    clues = tmp_path / "heart.clues.json"
    shutil.copy(SMALL, clues)  # not the suite's own spec form: rewriting it loses the file as given
    before = clues.read_bytes()
    line = one_line(run_cli("suite", clues, "-o", tmp_path, "-j", 1, "-q"))
    assert f"-o {clues}: it is the input file {clues}" in line
    assert clues.read_bytes() == before
    assert run_cli("suite", clues, "-o", tmp_path / "elsewhere", "-j", 1, "-q")[0] == 0


def test_class1_run_appends_no_log_to_its_plan(work):
    plan = work / "x.log"  # runs: x, so the campaign log is x.log: the plan itself
    plan.write_text("suite: suite\nruns: x\nseeds: [1]\nsettings:\n  sa: {sampler: sa, reads: 2, sweeps: 10}\n")
    before = plan.read_bytes()
    line = one_line(support_run_cli("run", plan, "-j", 1, "-q"))
    assert f"{plan}: runs: the campaign log beside" in line and "the plan file itself" in line  # plan.read_plan
    assert plan.read_bytes() == before and not (work / "x").exists()


def test_class1_the_shared_helper(tmp_path):
    from nonoqubo._util.atomic import check_not_inputs

    runs, model = tmp_path / "runs", tmp_path / "model.json"
    runs.mkdir()
    model.write_text("{}")
    (runs / "a.json").write_text("{}")
    os.link(model, tmp_path / "hard.csv")
    check_not_inputs([("--csv", tmp_path / "table.csv"), ("--json", "/dev/null"), ("-o", "-"), ("--x", None)],
                     [model, runs], walked=[runs])
    for output, words in [(tmp_path / "hard.csv", "it is the input file"), (runs / "a.json", "a file of the input folder"),
                          (runs / "new.csv", "inside the input folder"), (runs, "it is the input folder")]:
        with pytest.raises(WriteError, match=words):
            check_not_inputs([("--csv", output)], [model, runs], walked=[runs])
    (tmp_path / "suite").mkdir()  # a folder read through its index: a new file inside it may be written
    check_not_inputs([("--report", tmp_path / "suite" / "report.html")], [tmp_path / "suite"])
    with pytest.raises(WriteError, match="would be the index of the input folder"):
        check_not_inputs([("--csv", tmp_path / "suite" / "index.csv")], [tmp_path / "suite"])


def test_class1_an_output_path_past_path_max_is_refused_before_it_is_resolved(work):
    long = str(work / "runs") + "/x\x80y" * 20_000  # 80,000 bytes through 20,000 folders: resolving it took seconds
    kind, detail = run_case(["evaluate", str(work / "suite"), str(work / "runs"), f"--figures={long}"], ["--figures"])
    assert kind == "error", detail
    line = one_line(support_run_cli("evaluate", work / "suite", work / "runs", f"--figures={long}"))
    assert "cannot write --figures" in line and "a path may have at most 4,096 bytes" in line and len(line) < 300


# -- 3. a FIFO or a device where a run file is ------------------------------------------------------
def test_class3_evaluate_skips_a_fifo_and_a_device_it_finds(work):
    os.mkfifo(work / "runs" / "sa" / "sgt-pattern-5x5.fifo.json")
    (work / "runs" / "sa" / "sgt-pattern-5x5.zero.json").symlink_to("/dev/zero")
    kind, detail = run_case(["evaluate", str(SMALL), str(work / "runs"), "-j", "1", "-q", "--csv",
                             str(work / "t.csv")], [str(work)])
    assert kind == "ok", detail  # the note names them; nothing waited on
    assert (work / "t.csv").read_text().count("\n") == 2  # the header and the one setting of the two real runs


@pytest.mark.parametrize("dry", [True, False])
def test_class3_run_refuses_a_fifo_at_a_run_file_path(work, dry):
    plan = work / "plan.yaml"
    plan.write_text("suite: suite\nruns: out\nseeds: [1]\nsettings:\n  sa: {sampler: sa, reads: 2, sweeps: 10}\n")
    (work / "out" / "sa").mkdir(parents=True)
    fifo = work / "out" / "sa" / "sgt-pattern-5x5.seed1.json"
    os.mkfifo(fifo)
    kind, detail = run_case(["run", str(plan), *(["--dry-run"] if dry else ["-j", "1"]), "-q"], [str(fifo)])
    assert kind == "error", detail
    _, _, err = support_run_cli("run", plan, "--dry-run")
    assert err.strip() == f"nonoqubo: error: {fifo}: a FIFO, not a regular file; it is not read"


def test_class3_suite_refuses_a_fifo_in_a_clue_folder_unopened(tmp_path):
    folder = tmp_path / "clues"
    folder.mkdir()
    shutil.copy(SMALL, folder / "a.json")
    os.mkfifo(folder / "b.non")  # read before: 10 s of waiting, then an error in the index; /dev/zero: 1 GiB read
    kind, detail = run_case(["suite", str(folder), "-o", str(tmp_path / "out"), "-j", "1", "-q"], [str(folder)])
    assert kind == "error", detail
    _, _, err = support_run_cli("suite", folder, "-o", tmp_path / "out", "-j", 1, "-q")
    assert err.startswith(f"nonoqubo: error: {folder / 'b.non'}: a FIFO in the folder {folder}, not a clue file")
    assert not (tmp_path / "out").exists()


def test_class3_the_reader_never_opens_a_stream_blocking(tmp_path):
    from nonoqubo._util.stream import read_regular

    os.mkfifo(tmp_path / "fifo")
    with pytest.raises(StreamError, match="a FIFO, not a regular file"):
        read_regular(tmp_path / "fifo")
    with pytest.raises(StreamError, match="a character device"):
        read_regular("/dev/zero")
    (tmp_path / "f").write_bytes(b"abc")
    assert read_regular(tmp_path / "f") == b"abc"
    with pytest.raises(StreamError, match="3 bytes; it may hold at most 2"):
        read_regular(tmp_path / "f", limit=2)


# -- 4. -j bounded ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("command", ["evaluate", "suite", "run"])
def test_class4_jobs_past_the_bound_are_one_line(work, command):
    plan = work / "plan.yaml"
    plan.write_text("suite: suite\nseeds: [1]\nsettings:\n  sa: {sampler: sa, reads: 2}\n")
    argv = {"evaluate": ["evaluate", str(SMALL), str(work / "runs")],
            "suite": ["suite", str(SMALL), "-o", str(work / "new")], "run": ["run", str(plan)]}[command]
    kind, detail = run_case([*argv, "-j", str(10**20)], ["-j/--jobs"])
    assert kind == "error", detail
    _, _, err = support_run_cli(*argv, "-j", 10**20)
    assert err.strip() == ("nonoqubo: error: -j/--jobs must be at most 1,024 worker processes, "
                           "not 100,000,000,000,000,000,000")
    assert not (work / "new").exists()


def test_class4_jobs_within_the_bound_still_judge(work):
    status, out, err = support_run_cli("evaluate", SMALL, work / "runs", "-j", 1024, "--json")
    assert status == 0, err
    assert '"samples": 8' in out


# -- 5. pt's and pa's work bounded ------------------------------------------------------------------------
@pytest.mark.parametrize("sampler", ["pt", "pa"])
@pytest.mark.parametrize("counts, words", [
    (["--replicas", "1000000"], "230,000,000,000 spin updates (10 reads x 1,000,000 replicas x 1,000 sweeps x 23 variables)"),
    (["--replicas", "100000", "--reads", "100000"],
     "at least 10,000,000,000,000 spin updates (100,000 reads x 100,000 replicas x 1,000 sweeps, before the model's"),
])
def test_class5_a_product_of_counts_past_the_work_bound_is_one_line(sampler, counts, words):
    kind, detail = run_case(["solve", str(SMALL), "--sampler", sampler, *counts, "-q"], ["spin updates"])
    assert kind == "error", detail
    line = one_line(support_run_cli("solve", SMALL, "--sampler", sampler, *counts, "-q"))
    assert line == (f"nonoqubo: error: --sampler {sampler}: {words}" + line.split(words)[1])
    assert line.endswith("at most 100,000,000,000 a run: lower --reads, --replicas or --sweeps")


def test_class5_run_dry_run_says_which_task_is_past_the_bound(work):
    plan = work / "plan.yaml"
    plan.write_text("suite: suite\nseeds: [1]\nsettings:\n  big: {sampler: pa, replicas: 1000000}\n")
    line = one_line(support_run_cli("run", plan, "--dry-run"))
    assert line.startswith(f"nonoqubo: error: {plan}: setting big, model sgt-pattern-5x5: --sampler pa: "
                           "230,000,000,000 spin updates")


def test_class5_the_work_is_what_the_dry_run_counts():
    from nonoqubo.solvers.options import MOST_SPIN_UPDATES
    from nonoqubo.solvers.request import SolveRequest

    from tests.support.fuzzing import WORK_BOUND

    assert WORK_BOUND == MOST_SPIN_UPDATES  # the fuzz family's oracle
    request = SolveRequest.of("pt", reads=100, replicas=1000, sweeps=1000)
    assert request.spec.spin_updates(request.options, 1000, 1000) == MOST_SPIN_UPDATES
    request.check_work(1000)  # exactly the bound: allowed
    with pytest.raises(SolverError, match="100,100,000,000 spin updates"):
        request.check_work(1001)
    SolveRequest.of("sa", reads=1_000_000, sweeps=100_000_000).check_work(10_000)  # sa: each count's own bound


# -- 10. no output folder in an input folder --------------------------------------------------------------
@pytest.mark.parametrize("figures", ["runs/sa", "runs", "runs/sa/figs", "suite"])
def test_class10_no_figures_folder_in_or_on_an_input_folder(work, run_cli, figures):
    before = snapshot(work / "runs", work / "suite")
    line = one_line(run_cli("evaluate", work / "suite", work / "runs", "--figures", work / figures, "-j", 1))
    assert f"--figures {work / figures}: it is" in line and "input folder" in line
    assert snapshot(work / "runs", work / "suite") == before and not (work / "runs" / "sa" / "figs").exists()


def test_class10_figures_left_in_a_runs_folder_are_skipped(work):
    figs = work / "runs" / "sa" / "figs"
    figs.mkdir()
    (figs / "p-vs-size.pdf").write_bytes(b"%PDF-1.4\n\x00\xff\x00binary")
    (figs / "p-vs-size.svg").write_text("<svg xmlns='http://www.w3.org/2000/svg'/>")
    (figs / "report.html").write_text("<html></html>")
    status, _, err = support_run_cli("evaluate", SMALL, work / "runs", "-j", 1)
    assert status == 0, err
    assert err.startswith("note: skipped 3 files that are not sample files") and "p-vs-size.pdf" in err
