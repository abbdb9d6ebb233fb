"""Issue 30's honest numbers: runs grouped by the setting their record gives, scored against their own model,
set-aside models (solved by presolve, proven unsolvable), plain numbers, a runs folder's other files, QPU runs."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import dimod
import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.campaign.evaluate import evaluate, records, scored
from nonoqubo.records import RunRecord
from nonoqubo.campaign.runtime import recorded_time, time_per_run
from nonoqubo.campaign.suite import run_suite
from nonoqubo.clues import load as load_clues
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.sampling import sampleset_document, solve

#: a picture line logic does not finish (two solutions of its 2x2 corner), so presolve leaves variables
PICTURE = ["#.##.", ".###.", "#...#", "##.##", ".#.#."]
#: a 4x4 whose every line fits its clue but that has no solution (CP-SAT proves it)
UNSOLVABLE = "title \"nowhere\"\nwidth 4\nheight 4\nrows\n1 1\n1\n1\n2\ncolumns\n2\n1\n1\n2\n"


def write_run(path: Path, puzzle, sampler: str, **options) -> dict:
    """``solve -o``: the SampleSet with its run record, written to *path*; returns the document."""
    doc = sampleset_document(solve(puzzle, sampler, **options))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc))
    return doc


@pytest.fixture(scope="module")
def clue_file(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("honest")
    path = root / "picture.json"
    from nonoqubo.clues import dump

    dump(Puzzle.from_picture(PICTURE, name="picture"), path, format="spec")
    return path


# -- item 1: a setting is what the run records -------------------------------------------------
def test_a_flat_folder_of_sa_and_tabu_runs_gives_two_settings_named_and_described(clue_file, tmp_path):
    puzzle = load_clues(clue_file)
    runs = tmp_path / "runs"
    write_run(runs / "picture.sa.json", puzzle, "sa", reads=8, seed=1)
    write_run(runs / "picture.sa-again.json", puzzle, "sa", reads=4, seed=2)  # another seed and reads: same setting
    write_run(runs / "picture.tabu.json", puzzle, "tabu", reads=3, seed=1)
    groups = evaluate(str(clue_file), [str(runs)], jobs=1)
    assert sorted((g.setting, g.files, g.raw.samples) for g in groups) == [("sa", 2, 12), ("tabu", 1, 3)]
    recs = {r["setting"]: r for r in records(groups)}
    assert recs["sa"]["setting_record"]["sampler"] == "sa" and recs["tabu"]["setting_record"]["sampler"] == "tabu"
    assert recs["sa"]["grouped_by"] == "run record"
    assert "seed" not in recs["sa"]["setting_record"]["parameters"]
    assert sorted(recs["sa"]["run"]["parameters"]["seed"]) == [1, 2]  # the pooled runs' seeds, listed


def test_every_recorded_parameter_is_part_of_the_setting(clue_file, tmp_path):
    """A parameter a sampler records tomorrow splits settings with no code for it in evaluate."""
    puzzle = load_clues(clue_file)
    runs = tmp_path / "runs" / "sa-runs"
    for k, beta in enumerate(("geometric", "linear")):
        doc = write_run(runs / f"picture-{k}.json", puzzle, "sa", reads=3, seed=k)
        doc["info"]["nonoqubo"]["parameters"]["beta_schedule"] = beta
        (runs / f"picture-{k}.json").write_text(json.dumps(doc))
    groups = evaluate(str(clue_file), [str(runs)], jobs=1)
    assert sorted(g.setting for g in groups) == ["sa beta_schedule=geometric", "sa beta_schedule=linear"]
    # --setting NAME pools them, and says so
    (pooled,) = evaluate(str(clue_file), [str(runs)], setting="all", jobs=1)
    assert pooled.setting == "all" and pooled.files == 2 and records([pooled])[0]["grouped_by"] == "--setting"


def test_a_knob_recorded_unset_is_the_same_setting_as_one_an_older_file_does_not_record(clue_file, tmp_path):
    """Files of before and after a knob was added (absent vs null vs {}) are one setting, pooled."""
    puzzle = load_clues(clue_file)
    runs = tmp_path / "runs"
    for k, extra in enumerate(({}, {"beta_range": None, "schedule": {}}, {"initial_states": []})):
        doc = write_run(runs / f"picture-{k}.json", puzzle, "sa", reads=3, seed=k)
        doc["info"]["nonoqubo"]["parameters"].update(extra)
        (runs / f"picture-{k}.json").write_text(json.dumps(doc))
    (g,) = evaluate(str(clue_file), [str(runs)], jobs=1)
    assert g.files == 3 and g.setting == "runs"
    assert not {"beta_range", "schedule", "initial_states"} & set(g.setting_record["parameters"])
    # a knob that is set still splits
    doc = write_run(runs / "picture-3.json", puzzle, "sa", reads=3, seed=3)
    doc["info"]["nonoqubo"]["parameters"]["beta_range"] = [0.5, 10.0]
    (runs / "picture-3.json").write_text(json.dumps(doc))
    assert sorted(g.files for g in evaluate(str(clue_file), [str(runs)], jobs=1)) == [1, 3]


def test_a_folder_that_holds_one_setting_keeps_its_name(clue_file, tmp_path):
    puzzle = load_clues(clue_file)
    for folder, sweeps in (("sa-20", 20), ("sa-200", 200)):
        write_run(tmp_path / "runs" / folder / "picture.json", puzzle, "sa", reads=3, seed=1, sweeps=sweeps)
    groups = evaluate(str(clue_file), [str(tmp_path / "runs")], jobs=1)
    assert sorted(g.setting for g in groups) == ["sa-20", "sa-200"]
    assert sorted(g.setting_record["parameters"]["sweeps"] for g in groups) == [20, 200]


def test_the_table_says_what_each_setting_is(clue_file, tmp_path, run_cli):
    puzzle = load_clues(clue_file)
    write_run(tmp_path / "runs" / "picture.sa.json", puzzle, "sa", reads=3, seed=1)
    write_run(tmp_path / "runs" / "picture.tabu.json", puzzle, "tabu", reads=3, seed=1)
    status, text, err = run_cli("evaluate", clue_file, tmp_path / "runs", "-j", "1", "-q")
    assert status == 0, err
    lines = text.splitlines()
    assert any(line.startswith("setting sa: sa: ") and "domain-wall" in line for line in lines)
    assert any(line.startswith("setting tabu: tabu: ") for line in lines)


# -- item 3: scored against the run's own model -------------------------------------------------
def test_one_hot_weighted_runs_score_against_their_own_model_rebuilt_from_the_clues(clue_file, tmp_path):
    puzzle = load_clues(clue_file)
    doc = write_run(tmp_path / "runs" / "picture.json", puzzle, "sa", reads=12, seed=4, encoding="one-hot",
                    weights={"shape": 3, "order": 1, "cell": 2}, sweeps=5)
    (g,) = evaluate(str(clue_file), [str(tmp_path / "runs")], jobs=1, in_order=True)
    own = build(puzzle, encoding="one-hot", weights="shape=3,cell=2")
    ss = dimod.SampleSet.from_serializable(doc)
    bits = np.asarray([[s[v] for v in own.labels] for s in ss.samples()], np.int8)
    expected = sorted(own.energy(bits).tolist())  # weighted, not at weights 1
    assert sorted(g.raw.energies.tolist()) == expected
    assert np.repeat(g.raw.values, g.raw.counts).tolist() == expected  # the histogram every figure is made from
    assert (g.info.encoding, g.info.weights) == ("one-hot", "shape=3,order=1,cell=2")


def test_a_run_whose_record_disagrees_with_the_model_file_is_refused(clue_file, tmp_path, run_cli):
    puzzle = load_clues(clue_file)
    model = tmp_path / "picture.qubo.json"
    exports.dump(build(puzzle), model)
    write_run(tmp_path / "runs" / "picture.json", puzzle, "sa", reads=3, seed=1, encoding="one-hot")
    out = tmp_path / "f.csv"
    status, text, err = run_cli("evaluate", model, tmp_path / "runs", "--csv", out, "-j", "1")
    assert status == 2 and err.count("\n") == 1 and not text and not out.exists()
    assert "one-hot" in err and "domain-wall" in err and str(model) in err


def test_one_hot_runs_score_against_a_suite_of_domain_wall_models(clue_file, tmp_path):
    suite = tmp_path / "suite"
    run_suite([str(clue_file)], str(suite), formats=["qubo-json"], jobs=1)
    assert (suite / "picture.clues.json").is_file()  # the member's clues beside its models
    write_run(tmp_path / "runs" / "picture.json", load_clues(suite / "picture.clues.json"), "sa", reads=5, seed=1,
              encoding="one-hot")
    (g,) = evaluate(str(suite), [str(tmp_path / "runs")], jobs=1)
    assert g.info.encoding == "one-hot" and g.raw.samples == 5


def test_samples_that_fit_no_model_and_record_no_run_say_the_model_is_unknown(clue_file, tmp_path, run_cli):
    puzzle = load_clues(clue_file)
    doc = write_run(tmp_path / "runs" / "picture.json", puzzle, "sa", reads=2, seed=1, encoding="one-hot")
    del doc["info"]["nonoqubo"]
    (tmp_path / "runs" / "picture.json").write_text(json.dumps(doc))
    status, _, err = run_cli("evaluate", clue_file, tmp_path / "runs", "-j", "1")
    assert status == 2 and err.count("\n") == 1 and "records no run" in err


def test_a_file_of_mixed_records_is_refused(clue_file, tmp_path, run_cli):
    puzzle = load_clues(clue_file)
    doc = write_run(tmp_path / "runs" / "picture.json", puzzle, "sa", reads=2, seed=1)
    other = json.loads(json.dumps(doc["info"]["nonoqubo"]))
    other["sampler"] = "tabu"
    doc["info"]["merged_from"] = {"nonoqubo": other}
    (tmp_path / "runs" / "picture.json").write_text(json.dumps(doc))
    out = tmp_path / "r.csv"
    status, text, err = run_cli("evaluate", clue_file, tmp_path / "runs", "--csv", out, "-j", "1")
    assert status == 2 and err.count("\n") == 1 and "different settings" in err and not out.exists()


# -- item 2: solved by presolve ---------------------------------------------------------------
def test_a_model_presolve_solved_is_set_aside_and_counted(tmp_path, run_cli):
    puzzle = Puzzle.from_picture(["##.", ".##", "###"], name="easy")  # line logic solves it
    clue = tmp_path / "easy.json"
    from nonoqubo.clues import dump

    dump(puzzle, clue, format="spec")
    write_run(tmp_path / "runs" / "easy.pre.json", puzzle, "sa", reads=4, seed=1, presolve=True)
    write_run(tmp_path / "runs" / "easy.full.json", puzzle, "sa", reads=4, seed=1)
    groups = evaluate(str(clue), [str(tmp_path / "runs")], jobs=1)
    aside = [g for g in groups if g.solved_by_presolve]
    assert len(aside) == 1 and aside[0].setting_record["parameters"]["presolve"] is True
    assert [g.setting for g in scored(groups)] == [g.setting for g in groups if not g.solved_by_presolve]
    rec = next(r for r in records(groups) if r["status"] == "solved by presolve")
    assert rec["raw"]["p"] is None and rec["raw"]["tts99"] is None
    status, text, err = run_cli("evaluate", clue, tmp_path / "runs", "--json", "-j", "1")
    doc = json.loads(text)
    assert status == 0 and doc["solved_by_presolve"] == [{"model": "easy.json", "setting": aside[0].setting}]
    status, text, err = run_cli("evaluate", clue, tmp_path / "runs", "-j", "1", "-q")
    assert text.splitlines()[0].startswith("solved by presolve") and "1 of 2" in text.splitlines()[0]
    pytest.importorskip("matplotlib")
    status, _, err = run_cli("evaluate", clue, tmp_path / "runs", "--figures", tmp_path / "figs", "-j", "1", "-q")
    assert status == 0, err
    drawn = {row["setting"] for row in csv.DictReader((tmp_path / "figs" / "p-vs-size.csv").open())}
    assert aside[0].setting not in drawn and drawn  # the figures hold the scored runs only
    # the report counts and names it in its header, lists it in its table as not scored, never draws it
    status, _, err = run_cli("evaluate", clue, tmp_path / "runs", "--report", tmp_path / "r.html", "-j", "1", "-q")
    assert status == 0, err
    page = (tmp_path / "r.html").read_text()
    header = page[page.index("<dl class=\"meta\">"):page.index("</dl>")]
    assert "1 of 2 model/setting pairs scored" in header
    assert "<dt>set aside</dt>" in header and f"1 solved by presolve (0 variables left): easy.json / {aside[0].setting}" in header
    table = page[page.index("<table>"):page.index("</table>")]
    assert "(solved by presolve: not scored)" in table
    assert aside[0].setting not in page[page.index("id='figs'"):page.index("id='tab'")].replace("not in p", "")


# -- item 8: proven unsolvable ----------------------------------------------------------------
def test_a_proven_unsolvable_puzzle_has_no_ground_energy_and_its_best_known_beside(tmp_path, run_cli):
    pytest.importorskip("ortools")
    clue = tmp_path / "nowhere.non"
    clue.write_text(UNSOLVABLE)
    suite = tmp_path / "suite"
    run_suite([str(clue)], str(suite), formats=["qubo-json"], truth=True, jobs=1)
    (entry,) = json.loads((suite / "index.json").read_text())["puzzles"]
    assert entry["solutions"] == 0 and entry["ground_energy"] == "none"
    assert all(f["ground_state"] == "none" for f in entry["files"])
    write_run(tmp_path / "runs" / "nowhere.json", load_clues(clue), "sa", reads=6, seed=1)
    status, text, err = run_cli("evaluate", suite, tmp_path / "runs", "--json", "-j", "1")
    assert status == 0, err
    doc = json.loads(text)
    (g,) = doc["groups"]
    assert g["status"] == "unsolvable" and g["raw"]["ground_energy"] == "none"
    assert g["raw"]["best_known_energy"] == g["raw"]["energy_min"] > 0 and g["raw"]["p"] is None
    assert doc["unsolvable"][0]["best_known_energy"] > 0


# -- item 4: plain numbers ---------------------------------------------------------------------
def test_every_csv_number_reads_back_as_a_float(clue_file, tmp_path, run_cli):
    pytest.importorskip("matplotlib")
    puzzle = load_clues(clue_file)
    write_run(tmp_path / "runs" / "picture.sa.json", puzzle, "sa", reads=10, seed=1, sweeps=3)
    figures = tmp_path / "figs"
    status, _, err = run_cli("evaluate", clue_file, tmp_path / "runs", "--csv", tmp_path / "f.csv",
                             "--figures", figures, "-j", "1", "-q")
    assert status == 0, err
    files = [tmp_path / "f.csv", *sorted(figures.glob("*.csv"))]
    assert any(f.name.startswith("energy-") for f in files)
    numeric = {"samples", "valid", "p", "p_lo", "p_hi", "share", "energy_mean", "share_cell_conflicts",
               "seconds_per_run", "r99", "tts99", "energy_from", "energy_to"}
    seen = 0
    for path in files:
        text = path.read_text()
        assert "np." not in text and "float64" not in text, path
        for row in csv.DictReader(text.splitlines()):
            for key in numeric & set(row):
                if row[key] not in ("", "inf"):
                    float(row[key])
                    seen += 1
    assert seen > 10


# -- item 11: a runs folder's other files; a suite's clues ------------------------------------
def test_a_log_in_a_runs_folder_is_skipped_with_one_note(clue_file, tmp_path, run_cli):
    puzzle = load_clues(clue_file)
    write_run(tmp_path / "runs" / "picture.json", puzzle, "sa", reads=3, seed=1)
    (tmp_path / "runs" / "solve.log").write_text("started 12:00\nfinished\n")
    (tmp_path / "runs" / "job.out").write_text("slurm job 5\n")
    status, text, err = run_cli("evaluate", clue_file, tmp_path / "runs", "-j", "1", "-q")
    assert status == 0 and err.count("\n") == 1 and "solve.log" in err and "job.out" in err
    status, _, err = run_cli("evaluate", clue_file, tmp_path / "runs" / "solve.log", "-j", "1")
    assert status == 2 and "samples format" in err  # named on the command line: an error, not a skip


def test_a_suite_writes_every_members_clues_random_ones_too(tmp_path):
    from nonoqubo.generation.families import parse_family

    out = tmp_path / "suite"
    run_suite([], str(out), formats=["qubo-json"], families=[parse_family("4x4:0.5:2:7")], jobs=1)
    entries = json.loads((out / "index.json").read_text())["puzzles"]
    assert len(entries) == 2
    for e in entries:
        clues = load_clues(out / e["clues"]["path"])
        model = exports.load(str(out / e["files"][0]["path"]))
        assert clues.rows == model.puzzle.rows and clues.cols == model.puzzle.cols
        assert build(clues, encoding="one-hot").num_vars > 0  # any encoding from the suite later


# -- item 7: QPU runs --------------------------------------------------------------------------
def test_qubit_samplesets_score_through_the_embedding_timed_by_qpu_access(tmp_path, run_cli, monkeypatch):
    pytest.importorskip("minorminer")
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))
    puzzle = Puzzle.from_picture(PICTURE, name="picture")
    qubo = build(puzzle)
    model = tmp_path / "picture.qubo.json"
    exports.dump(qubo, model)
    emb_path = tmp_path / "emb.json"
    status, _, err = run_cli("embed", model, "--topology", "chimera:4", "-o", emb_path, "-q")
    assert status == 0, err
    chains = json.loads(emb_path.read_text())["embedding"]
    from nonoqubo.model.encoding import Layout

    x = Layout.of(puzzle).encode(puzzle.solution_grid())
    wrong = x.copy()
    wrong[:3] ^= 1
    samples = [{q: 2 * int(b) - 1 for v, b in zip(qubo.labels, bits) for q in chains[v]} for bits in (x, wrong)]
    ss = dimod.SampleSet.from_samples(samples, dimod.SPIN, energy=[0.0, 1.0], num_occurrences=[3, 1],
                                      info={"timing": {"qpu_access_time": 16000.0, "qpu_anneal_time_per_sample": 20.0}})
    (tmp_path / "qpu").mkdir()
    (tmp_path / "qpu" / "picture.json").write_text(json.dumps(ss.to_serializable()))
    status, text, err = run_cli("evaluate", model, tmp_path / "qpu", "--embedding", emb_path, "--json", "-j", "1")
    assert status == 0, err
    (g,) = json.loads(text)["groups"]
    assert g["raw"]["samples"] == 4 and g["raw"]["valid"] == 3
    assert g["raw"]["seconds_per_run"] == pytest.approx(16000e-6 / 4) and g["raw"]["time_source"] == "QPU access time"
    status, _, err = run_cli("evaluate", model, tmp_path / "qpu", "-j", "1")  # qubits without the embedding
    assert status == 2


def test_qpu_access_time_is_preferred_and_a_mock_run_is_timed_by_its_record():
    text = '{"timing": {"qpu_anneal_time_per_sample": 20.0, "qpu_access_time": 15000.0}}'
    assert time_per_run(text, 10) == (pytest.approx(0.0015), "QPU access time")
    record = {"sampler": "dwave", "timing": {"seconds_per_run": 0.9, "time_source": "wall clock"}}
    assert recorded_time(RunRecord.from_dict(record, "run.json"), text, 10) == (pytest.approx(0.0015), "QPU access time")
    mock = {"sampler": "mock-dwave", "timing": {"seconds_per_run": 0.004, "time_source": "wall clock"}}
    assert recorded_time(RunRecord.from_dict(mock, "run.json"), text, 10) == (0.004, "wall clock")  # never dwave-system's demonstration timing


def test_a_spin_reversal_qpu_call_is_timed_by_the_access_time_summed_over_its_problems():
    # four transforms: four QPU problems; the SampleSet's info holds one problem's timing (4,000 µs),
    # the run record the sum of the four (16,000 µs), which is what the 20 reads cost
    text = '{"info": {"timing": {"qpu_access_time": 4000.0}}}'
    record = {"sampler": "dwave", "timing": {"seconds_per_run": 0.9, "time_source": "wall clock"},
              "sampler_reported": {"qpu": {"timing": {"qpu_access_time": 16000.0, "problems": 4},
                                           "num_spin_reversal_transforms": 4}}}
    assert recorded_time(RunRecord.from_dict(record, "run.json"), text, 20) == (pytest.approx(16000e-6 / 20), "QPU access time")
    # a record without the summed figure falls back to the SampleSet's own
    bare = {"sampler": "dwave", "sampler_reported": {"qpu": {"timing": {}}}}
    assert recorded_time(RunRecord.from_dict(bare, "run.json"), text, 20) == (pytest.approx(4000e-6 / 20), "QPU access time")


# -- issue 52 item 2: runs stopped at a target energy -------------------------------------------
def test_tts99_of_runs_stopped_at_a_target_counts_the_success_at_its_time_and_the_failures_at_theirs(clue_file,
                                                                                                  tmp_path):
    """TTS99 = t_success + (R99 - 1) t_failure, each the mean of its own reads' times (read from the record),
    not the mean over every read times R99 (which would credit each early stop to every run)."""
    from nonoqubo.campaign.aggregate import runs_to_solution

    pytest.importorskip("numba")
    puzzle = load_clues(clue_file)
    runs = tmp_path / "runs"
    doc = write_run(runs / "picture.pa.json", puzzle, "pa", reads=12, seed=3, sweeps=60, sweeps_per_beta=10,
                    replicas=2, target_energy=0)
    record = doc["info"]["nonoqubo"]
    times = np.array(record["timing"]["read_seconds"])
    won = np.array([t is not None for t in record["sampler_reported"]["target_seconds"]])
    assert won.any() and not won.all(), won  # both kinds of read, or the test says nothing
    (group,) = evaluate(str(clue_file), [str(runs)], jobs=1)
    f = group.figures("raw")
    assert f["valid"] == won.sum()
    r99 = runs_to_solution(won.mean())
    assert f["tts99"] == pytest.approx(times[won].mean() + (r99 - 1) * times[~won].mean())
    assert f["tts99"] != pytest.approx(times.mean() * r99)
    assert group.figures("polished" if group.polished else "raw")["r99"] == f["r99"]
