"""``solve -o`` records its run (sampler, parameters, timing, version, machine) and ``evaluate`` times from it.

The record is ``info["nonoqubo"]`` of the SampleSet JSON (:mod:`nonoqubo.solvers.sampling`); a
campaign made of such files alone gets a finite TTS99, with ``time_source`` saying where the
time came from; the record changes nothing of what the file decodes to.
"""

from __future__ import annotations

import json
import math
import os

import numpy as np
import pytest

import nonoqubo
from nonoqubo.records import RUN_RECORD_VERSION
from nonoqubo.campaign.evaluate import evaluate, records
from nonoqubo.campaign.runtime import time_per_run
from nonoqubo.model.build import build
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.sampling import RUN, sample
from tests.support import SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"
SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])


def record_of(path) -> dict:
    return json.loads(path.read_text())["info"]["nonoqubo"]


def test_sa_records_the_parameters_given_and_its_own_per_read_times(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "sa.json"
    status, _, err = run_cli("solve", LOGO, "--reads", "4", "--sweeps", "50", "--seed", "7", "-q", "-o", out)
    assert status in (0, 1), err
    rec = record_of(out)
    assert rec["sampler"] == "sa" and rec["version"] == RUN_RECORD_VERSION and rec["nonoqubo"] == nonoqubo.__version__
    assert rec["parameters"] == {"reads": 4, "seed": 7, "sweeps": 50, "time_limit": None,
                                 "workers": None, "count": None, "presolve": False}
    assert rec["machine"]["cpu_count"] == os.cpu_count() and rec["machine"]["platform"]
    timing = rec["timing"]
    assert timing["time_source"] == "sampler timing"
    assert len(timing["read_seconds"]) == 4 and len(timing["read_wall_seconds"]) == 4
    assert timing["seconds_per_run"] == pytest.approx(np.mean(timing["read_seconds"]))
    # the sampler's summed sampling time is the sum of the per-read figures
    assert rec["sampler_reported"]["timing_total"]["sampling_ns"] == pytest.approx(
        1e9 * sum(timing["read_seconds"]))
    # the sampler's time is part of the wall time of the call, which is part of the whole solve
    assert 0 < sum(timing["read_seconds"]) <= timing["wall_seconds"] <= timing["solve_seconds"]
    assert sum(timing["read_wall_seconds"]) <= timing["wall_seconds"]
    assert rec["date"].endswith("Z")


def test_presolve_is_recorded_even_when_nothing_is_left_to_sample(run_cli, tmp_path):
    out = tmp_path / "presolved.json"
    status, _, err = run_cli("solve", LOGO, "--presolve", "--reads", "2", "-q", "-o", out)
    assert status == 0, err  # line logic solves the logo: no variable is left, nothing is sampled
    rec = record_of(out)
    assert rec["parameters"]["presolve"] is True and rec["parameters"]["reads"] == 2
    assert rec["timing"]["per_run"] == "wall time of the whole call / samples"


def test_tabu_records_wall_clock_per_read(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "tabu.json"
    run_cli("solve", LOGO, "--sampler", "tabu", "--reads", "3", "--time-limit", "0.01", "--seed", "2",
            "-q", "-o", out)
    rec = record_of(out)
    timing = rec["timing"]
    assert rec["parameters"]["time_limit"] == 0.01 and rec["parameters"]["sweeps"] is None
    assert timing["time_source"] == "wall clock" and timing["read_seconds"] is None
    assert timing["seconds_per_run"] == pytest.approx(np.median(timing["read_wall_seconds"]))
    assert "median" in timing["per_run"]


def test_openjij_keeps_its_per_read_times():
    pytest.importorskip("openjij")
    batch = sample(build(SMALL), "openjij-sqa", reads=3, seed=1, sweeps=20, schedule={"trotter": 3})
    rec = batch.extra[RUN]
    assert rec["timing"]["time_source"] == "sampler timing" and len(rec["timing"]["read_seconds"]) == 3
    assert rec["parameters"]["trotter"] == 3  # the schedule's options, flat beside the others
    assert rec["sampler_reported"]["schedule"]["num_sweeps"] == 20  # OpenJij's own account of the schedule


def test_qbpp_times_each_read_by_the_wall_clock():
    pytest.importorskip("pyqbpp")
    batch = sample(build(SMALL), "qbpp", reads=2, seed=3, time_limit=0.05)
    timing = batch.extra[RUN]["timing"]
    assert timing["time_source"] == "wall clock" and len(timing["read_wall_seconds"]) == 2
    assert timing["seconds_per_run"] == pytest.approx(np.median(timing["read_wall_seconds"]))
    assert batch.extra[RUN]["parameters"]["time_limit"] == 0.05


def test_exact_says_its_time_is_the_whole_call_per_sample():
    batch = sample(build(Puzzle.from_picture(["#.", ".#"])), "exact")
    timing = batch.extra[RUN]["timing"]
    assert timing["time_source"] == "wall clock" and timing["read_wall_seconds"] is None
    assert timing["seconds_per_run"] == pytest.approx(timing["wall_seconds"] / len(batch))


def test_the_record_changes_nothing_the_file_decodes_to(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    with_record = tmp_path / "with.json"
    run_cli("solve", LOGO, "--reads", "3", "--sweeps", "20", "--seed", "5", "-q", "-o", with_record)
    doc = json.loads(with_record.read_text())
    assert "nonoqubo" in doc["info"]
    del doc["info"]["nonoqubo"]
    without = tmp_path / "without.json"
    without.write_text(json.dumps(doc))
    decoded = [run_cli("decode", LOGO, path, "--all", "--json") for path in (with_record, without)]
    assert decoded[0][0] == decoded[1][0] and decoded[0][1] == decoded[1][1].replace("without.json", "with.json")
    assert json.loads(decoded[0][1])["num_samples"] == 3


def test_a_campaign_from_solve_o_alone_has_a_finite_tts99(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    runs = tmp_path / "runs"
    for setting, extra in (("sa-200", ["--sweeps", "200"]), ("tabu-10ms", ["--sampler", "tabu", "--time-limit", "0.01"])):
        (runs / setting).mkdir(parents=True)
        for seed in (1, 2):
            status, _, err = run_cli("solve", LOGO, "--reads", "5", "--seed", seed, *extra, "-q",
                                     "-o", runs / setting / f"logo-{seed}.json")
            assert status in (0, 1), err
    groups = evaluate(str(LOGO), [str(runs)], jobs=1)
    by_setting = {g.setting: g for g in groups}
    assert set(by_setting) == {"sa-200", "tabu-10ms"}
    for setting, source in (("sa-200", "sampler timing"), ("tabu-10ms", "wall clock")):
        g = by_setting[setting]
        f = g.figures()
        files = [record_of(runs / setting / f"logo-{seed}.json")["timing"]["seconds_per_run"] for seed in (1, 2)]
        assert f["seconds_per_run"] == pytest.approx(np.mean(files))  # equal reads per file: the plain mean
        assert f["time_source"] == source
        if f["p"] > 0:
            assert math.isfinite(f["tts99"]) and f["tts99"] == pytest.approx(f["seconds_per_run"] * f["r99"])
        assert math.isfinite(f["tts99_lo"]) and f["tts99_lo"] > 0  # finite at p_hi > 0 even when p = 0
        assert g.run["sampler"] == setting.split("-")[0] and g.run["parameters"]["seed"] == [1, 2]
        assert g.run["parameters"]["reads"] == 5 and g.run["version"] == nonoqubo.__version__
    rec = {r["setting"]: r for r in records(groups)}
    assert rec["sa-200"]["run"]["parameters"]["sweeps"] == 200 and rec["sa-200"]["raw"]["time_source"] == "sampler timing"
    # --time overrides the files and says so
    given = evaluate(str(LOGO), [str(runs)], jobs=1, seconds=0.5)
    assert {g.figures()["time_source"] for g in given} == {"given"}


def test_time_sources_of_other_files():
    assert time_per_run('{"info": {"timing": {"qpu_anneal_time_per_sample": 20.0}}}', 10) == (2e-05, "sampler timing")
    assert time_per_run('{"seconds_per_run": 0.5}', 1) == (0.5, "recorded")
    assert time_per_run('"org.ommx.v1.sample-set.start":"2026-01-01T00:00:00Z",'
                        '"org.ommx.v1.sample-set.end":"2026-01-01T00:00:01Z"', 2) == (0.5, "wall clock")
    assert time_per_run("0110\n", 1) == (None, "none")
