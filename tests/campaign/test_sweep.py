"""``solve --sweep`` (issue 31 item 3): one run file per setting, in a folder named by the setting,
which ``evaluate`` shows side by side; a bad sweep is one line, exit 2, before anything runs."""

from __future__ import annotations

import json

import pytest

from nonoqubo.campaign.evaluate import evaluate, records
from nonoqubo.clues import load
from tests.support import SHARED

LOGO = SHARED / "json" / "qbpp-logo.json"


def test_cli_sweep_writes_one_run_per_setting_that_evaluate_compares(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    out = tmp_path / "runs"
    status, stdout, err = run_cli("solve", LOGO, "--reads", "3", "--seed", "1", "--sweeps", "100", "-q",
                                  "--sweep", "beta-range=0.1,10:1,10", "--sweep", "sampler=sa:tabu", "-o", out)
    # tabu takes no --sweeps: the sweep is refused as a whole before anything runs
    assert status == 2 and "--sweep beta-range=0.1,10_sampler=tabu: --sweeps does not apply" in err
    assert not out.exists()
    status, stdout, err = run_cli("solve", LOGO, "--reads", "3", "--seed", "1", "--sweeps", "100", "-q",
                                  "--sweep", "beta-range=0.1,10:1,10", "-o", out)
    assert status in (0, 1), err
    folders = sorted(p.name for p in out.iterdir())
    assert folders == ["beta-range=0.1,10", "beta-range=1,10"]
    for name in folders:
        params = json.loads((out / name / "qbpp-logo.json").read_text())["info"]["nonoqubo"]["parameters"]
        assert params["beta_range"] == name.split("=")[1] and params["sweeps"] == 100
        assert f"{name}: " in stdout
    groups = evaluate(str(LOGO), [str(out)])
    rows = records(groups)
    assert sorted(r["setting"] for r in rows) == folders
    assert {r["run"]["parameters"]["beta_range"] for r in rows} == {"0.1,10", "1,10"}


def test_cli_sweep_needs_a_folder_and_known_options(run_cli, tmp_path):
    status, _, err = run_cli("solve", LOGO, "-q", "--sweep", "reads=1:2")
    assert status == 2 and "give -o DIR" in err
    status, _, err = run_cli("solve", LOGO, "-q", "--sweep", "colour=1:2", "-o", tmp_path / "runs")
    assert status == 2 and "no sweepable option 'colour'" in err and err.count("\n") == 1
    assert not (tmp_path / "runs").exists()


def test_cli_sweep_json_summary(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    status, stdout, err = run_cli("solve", LOGO, "--reads", "2", "--seed", "3", "--sweeps", "50", "-q", "--json",
                                  "--sweep", "restarts=1:2", "-o", tmp_path / "runs")
    assert status in (0, 1), err
    summary = json.loads(stdout)["sweep"]
    assert [s["setting"] for s in summary] == ["restarts=1", "restarts=2"]
    assert all(s["num_samples"] == 2 for s in summary)


def test_cli_sweep_over_presolve_takes_switch_values_and_presolve_names(run_cli, tmp_path):
    pytest.importorskip("dwave.samplers")
    puzzle = SHARED / "json" / "gecode-heart.json"
    out = tmp_path / "runs"
    status, _, err = run_cli("solve", puzzle, "--reads", "2", "--seed", "1", "--sweeps", "50", "-q",
                             "--sweep", "presolve=false:line:probe", "-o", out)
    assert status in (0, 1), err
    assert sorted(p.name for p in out.iterdir()) == ["presolve=false", "presolve=line", "presolve=probe"]
    status, _, err = run_cli("solve", puzzle, "--reads", "2", "-q", "--sweep", "presolve=maybe", "-o", tmp_path / "x")
    assert status == 2 and "presolve=maybe" in err and not (tmp_path / "x").exists()


def _no_sampling(monkeypatch):
    """Make every sampler's run function fail the test: the sweep must stop before any of them runs."""
    from dataclasses import replace

    from nonoqubo.solvers import samplers

    def forbidden(*args, **kwargs):
        raise AssertionError("a sampler ran before every setting was checked")

    for name, spec in list(samplers.SAMPLER_TABLE.items()):
        monkeypatch.setitem(samplers.SAMPLER_TABLE, name, replace(spec, run=forbidden))


def test_a_sweep_whose_third_setting_has_another_models_states_samples_and_writes_nothing(run_cli, tmp_path,
                                                                                          monkeypatch):
    good = tmp_path / "answer.txt"  # the logo's picture: a warm start of its model
    good.write_text("\n".join(load(str(LOGO)).solution) + "\n")
    bad = tmp_path / "other.txt"
    bad.write_text("0101\n")  # a state of four variables: not this model's
    _no_sampling(monkeypatch)
    out = tmp_path / "runs"
    status, stdout, err = run_cli("solve", LOGO, "--reads", "2", "--seed", "1", "--sweeps", "10", "-q", "-o", out,
                                  "--sweep", f"initial-states=line:{good}:{bad}")
    assert status == 2, err
    assert err.count("\n") == 1 and "--sweep initial-states=other.txt:" in err and "model has" in err
    assert not out.exists() and stdout == ""


#: 399 variables, 393 after line logic, 126 after probing (cells and the domain wall's variables)
NON_UNIQUE = SHARED / "json" / "gecode-non-unique.json"


@pytest.mark.parametrize("sweep, extra, message", [
    ("tenure=1:2:1000", ["--sampler", "tabu"], "tenure=1000: --tenure must be below the model's number of variables"),
    ("presolve=false:line:probe", ["--sampler", "tabu", "--tenure", "300"],
     "presolve=probe: --tenure must be below the model's number of variables (126)"),
])
def test_a_sweep_whose_third_setting_does_not_fit_the_model_samples_nothing(run_cli, tmp_path, monkeypatch, sweep,
                                                                            extra, message):
    _no_sampling(monkeypatch)
    out = tmp_path / "runs"
    status, _, err = run_cli("solve", NON_UNIQUE, "--reads", "2", "-q", "-o", out, *extra, "--sweep", sweep)
    assert status == 2 and message in err and err.count("\n") == 1, err
    assert not out.exists()


def test_a_qpu_sweep_checks_every_setting_against_the_solvers_properties_first(run_cli, tmp_path, monkeypatch):
    pytest.importorskip("dwave.system")
    _no_sampling(monkeypatch)
    for sweep, message in (("annealing-time=10:100:5000", "annealing-time=5000: --annealing-time 5000: this solver "
                                                          "takes 0.5 to 2000"),
                           ("num-spin-reversal-transforms=1:2:3", "num-spin-reversal-transforms=3: "
                                                                  "--num-spin-reversal-transforms 3")):
        out = tmp_path / sweep.split("=")[0]
        status, _, err = run_cli("solve", LOGO, "--sampler", "mock-dwave", "--topology", "pegasus:6", "--reads", "4",
                                 "-q", "-o", out, "--sweep", sweep)
        assert status == 2 and message in err and err.count("\n") == 1, err
        assert not out.exists()


def test_a_sweep_checks_an_embedding_against_each_settings_model(run_cli, tmp_path, monkeypatch):
    """The embedding of the full model does not fit the presolved model of the second setting
    (line logic fixes 3 of this picture's 25 variables)."""
    pytest.importorskip("dwave.system")
    puzzle = tmp_path / "partly.txt"
    puzzle.write_text("###..\n#..#.\n.#..#\n..#.#\n")
    status, _, err = run_cli("embed", puzzle, "--topology", "pegasus:6", "-q", "-o", tmp_path / "emb.json")
    assert status == 0, err
    _no_sampling(monkeypatch)
    for sampler in ("mock-dwave", "dwave"):
        out = tmp_path / sampler
        status, _, err = run_cli("solve", puzzle, "--sampler", sampler, "--embedding", tmp_path / "emb.json",
                                 "--reads", "2", "-q", "-o", out, "--sweep", "presolve=false:true")
        assert status == 2 and "--sweep presolve=true:" in err and "for another model" in err, err
        assert err.count("\n") == 1 and not out.exists()


def test_a_qpu_sweep_records_each_settings_parameters_for_evaluate(run_cli, tmp_path):
    """QPU parameters are part of the run record's flat parameters, so evaluate tells the settings apart."""
    pytest.importorskip("dwave.system")
    puzzle = tmp_path / "partly.txt"
    puzzle.write_text("###..\n#..#.\n.#..#\n..#.#\n")
    out = tmp_path / "runs"
    status, stdout, err = run_cli("solve", puzzle, "--sampler", "mock-dwave", "--topology", "pegasus:6", "--reads", "4",
                                  "--seed", "1", "-q", "-o", out, "--sweep", "annealing-time=1:20",
                                  "--sweep", "num-spin-reversal-transforms=1:2")
    assert status in (0, 1), err
    names = sorted(p.name for p in out.iterdir())
    assert names == ["annealing-time=1_num-spin-reversal-transforms=1", "annealing-time=1_num-spin-reversal-transforms=2",
                     "annealing-time=20_num-spin-reversal-transforms=1",
                     "annealing-time=20_num-spin-reversal-transforms=2"]
    for name in names:
        record = json.loads((out / name / "partly.json").read_text())["info"]["nonoqubo"]
        time, transforms = (float(part.split("=")[1]) for part in name.split("_"))
        assert record["parameters"]["annealing_time"] == time
        assert record["parameters"]["num_spin_reversal_transforms"] == transforms
        assert record["parameters"]["topology"] == "pegasus:6"
        qpu = record["sampler_reported"]["qpu"]
        assert qpu["parameters"]["annealing_time"] == time and len(qpu["problem_ids"]) == transforms
    status, stdout, err = run_cli("evaluate", puzzle, out)
    assert status == 0, err
    assert "annealing_time=1.0" in stdout and "annealing_time=20.0" in stdout
    assert "num_spin_reversal_transforms=2" in stdout
    # and what each QPU call returned, per model and setting: problem ids, access time, embedding, chain breaks
    qpu_lines = [line for line in stdout.splitlines() if line.startswith("QPU partly.txt / ")]
    assert len(qpu_lines) == 4
    for name in names:
        qpu = json.loads((out / name / "partly.json").read_text())["info"]["nonoqubo"]["sampler_reported"]["qpu"]
        (line,) = [ln for ln in qpu_lines if ln.startswith(f"QPU partly.txt / {name}:")]
        assert all(pid in line for pid in qpu["problem_ids"])
        assert f"qpu_access_time {qpu['timing']['qpu_access_time']:.4g} µs (estimated" in line
        assert f"embedding {qpu['embedding']['qubits']} qubits" in line and "reads with a break" in line
    status, stdout, err = run_cli("evaluate", puzzle, out, "--json")
    groups = json.loads(stdout)["groups"]
    assert all(g["run"]["qpu"]["solver"] == "mock-dwave" and g["run"]["qpu"]["estimated"] is True for g in groups)
    assert sorted(len(g["run"]["qpu"]["problem_ids"]) for g in groups) == [1, 1, 2, 2]


def test_a_sweep_runs_through_the_campaign_runner_in_this_process(run_cli, tmp_path, monkeypatch):
    """Issue 50 item 5: one runner.  Every setting is a task of ``campaign.runner.run_in_process``, on one
    model cache that read the puzzle once; its run file is the one ``solve -o`` writes."""
    from nonoqubo.campaign import runner

    seen: list[tuple[list[str], object]] = []
    real = runner.run_in_process

    def spy(tasks, deliver, *, cache=None, watch=None, raises=False):
        seen.append(([task.setting for task in tasks], cache))
        return real(tasks, deliver, cache=cache, watch=watch, raises=raises)

    monkeypatch.setattr(runner, "run_in_process", spy)
    monkeypatch.setattr("nonoqubo.campaign.sweep.run_in_process", spy)
    out = tmp_path / "runs"
    status, stdout, err = run_cli("solve", LOGO, "--reads", "2", "--seed", "3", "--sweeps", "50", "--json",
                                  "--sweep", "presolve=false:true:probe", "-o", out)
    assert status in (0, 1), err
    (settings, cache), = seen
    assert settings == ["presolve=false", "presolve=true", "presolve=probe"]
    assert cache.reads == 1  # the puzzle read and built once for the three settings
    lines = json.loads(stdout)["sweep"]
    assert [line["setting"] for line in lines] == settings
    single = tmp_path / "one.json"
    assert run_cli("solve", LOGO, "--reads", "2", "--seed", "3", "--sweeps", "50", "--presolve", "probe", "-q",
                   "-o", single)[0] in (0, 1)
    swept = json.loads((out / "presolve=probe" / "qbpp-logo.json").read_text())
    alone = json.loads(single.read_text())
    assert swept["sample_data"] == alone["sample_data"] and swept["vectors"] == alone["vectors"]
    assert swept["info"]["nonoqubo"]["parameters"] == alone["info"]["nonoqubo"]["parameters"]
