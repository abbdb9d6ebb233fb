"""Progress on a terminal: a spinner with the stage and the seconds where steps cannot be counted."""

from __future__ import annotations

from tests.support import SHARED

LOGO_JSON = SHARED / "json" / "qbpp-logo.json"


def test_spinner_names_the_stage_and_the_seconds_and_erases_itself(monkeypatch):
    import io
    import sys

    from nonoqubo._util.progress import spinner

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with spinner("building QUBO"):
        pass
    text = err.getvalue()
    assert text.startswith("\rbuilding QUBO | ") and " s" in text and text.endswith("\r")
    err.truncate(0)
    with spinner("building QUBO", enabled=False):
        pass
    assert err.getvalue() == ""


def test_build_on_a_terminal_shows_the_stage_not_a_stuck_counter(run_cli, monkeypatch, tmp_path):
    import nonoqubo.cli.build as cli_build

    monkeypatch.setattr(cli_build, "progress_enabled", lambda args: True)
    status, _, err = run_cli("build", LOGO_JSON, "-o", tmp_path / "m.coo", "--presolve")
    assert status == 0, err
    assert "building QUBO |" in err and "presolving (line logic) |" in err and "steps" not in err


def test_a_bar_keeps_its_clock_running_through_a_long_step(monkeypatch):
    """A step that takes minutes (a suite member's repair) does not freeze the bar's elapsed time."""
    import io
    import sys
    import threading

    from nonoqubo._util.progress import bar

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with bar(3, "puzzles", unit=" puzzles", clock=0.05):
        drawn = err.getvalue().count("\r")
        threading.Event().wait(0.6)  # no tick: only the clock redraws
        assert err.getvalue().count("\r") >= drawn + 3
    assert not [t for t in threading.enumerate() if t.name == "nonoqubo-bar-clock"]


def test_a_bar_shows_each_workers_latest_note_beside_it(monkeypatch):
    """Issue 52 item 5: a suite member's repair says where it stands; two workers' lines stand side by side,
    each replaced by its own next one, redrawn by the clock."""
    import io
    import sys
    import threading

    from nonoqubo._util.progress import bar

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with bar(2, "building suite", unit=" puzzles", clock=0.05) as tick:
        tick.note("m1: repair step 1 of 1500, 0 restarts, a new picture")
        tick.note("m2: repair step 1 of 1500, 0 restarts, a new picture")
        tick.note("m1: repair step 2 of 1500, 0 restarts, 119 cells open")
        threading.Event().wait(0.3)
        last = err.getvalue().split("\r")[-1]
    assert "m1: repair step 2 of 1500, 0 restarts, 119 cells open; m2: repair step 1 of 1500" in last, last
    with bar(1, "quiet", enabled=False) as tick:
        tick.note("m1: nothing shows")
        tick(1)


def test_captured_output_has_no_progress_however_slow_the_machine(run_cli, monkeypatch, tmp_path):
    """Progress goes to a terminal only (as git's): a stage slower than any threshold prints nothing to a pipe.

    The clock is made to jump an hour at every reading, so every stage looks slow; the output
    without ``--progress`` is the same as with ``--no-progress``, and ``--progress`` forces the lines.
    """
    import itertools
    import time

    from tests.support import ROOT

    logo = ROOT / "examples" / "qbpp-logo.yaml"
    status, _, err = run_cli("solve", logo, "--seed", "1", "-q", "-o", tmp_path / "s.json")
    assert status == 0, err
    hours = itertools.count(0.0, 3600.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(hours))
    plain = run_cli("evaluate", logo, tmp_path / "s.json")
    silenced = run_cli("evaluate", logo, tmp_path / "s.json", "--no-progress")
    assert plain == silenced and "judging" not in plain[2] and plain[0] == 0
    forced = run_cli("evaluate", logo, tmp_path / "s.json", "--progress")
    assert "judging sample files: 100 % (1 of 1 files)" in forced[2]
    assert forced[1] == plain[1]
