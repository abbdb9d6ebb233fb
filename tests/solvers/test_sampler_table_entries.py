"""check_options reads what a sampler takes, refuses and needs from its SAMPLER_TABLE entry, not from its name."""

from __future__ import annotations

import ast
import dataclasses
import inspect

import pytest

from nonoqubo.errors import SolverError
from nonoqubo.solvers import samplers
from nonoqubo.solvers.base import SampleOptions


def test_check_options_names_no_sampler():
    tree = ast.parse(inspect.getsource(samplers.check_options))
    literals = {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}
    assert not literals & set(samplers.SAMPLERS), literals & set(samplers.SAMPLERS)


def test_a_renamed_entry_keeps_its_checks(monkeypatch):
    table = dict(samplers.SAMPLER_TABLE)
    table["qpu-two"] = dataclasses.replace(table["dwave"], name="qpu-two")
    table["mock-two"] = dataclasses.replace(table["mock-dwave"], name="mock-two")
    monkeypatch.setattr(samplers, "SAMPLER_TABLE", table)
    with pytest.raises(SolverError, match=r"^--topology does not apply to --sampler qpu-two: the QPU's own working"):
        samplers.check_options(SampleOptions(reads=1, qpu={"topology": "pegasus:2"}), "qpu-two")
    samplers.check_options(SampleOptions(reads=1, qpu={"embedding": "emb.json"}), "qpu-two")
    with pytest.raises(SolverError, match=r"^--sampler mock-two needs --topology T \(e\.g\..* or --embedding EMB"):
        samplers.check_options(SampleOptions(reads=1), "mock-two")
    samplers.check_options(SampleOptions(reads=1, sweeps=3, qpu={"embedding": "emb.json"}), "mock-two")
    with pytest.raises(SolverError, match=r"--sweeps does not apply to the qpu-two sampler \(it applies to: .*mock-two"):
        samplers.check_options(SampleOptions(reads=1, sweeps=3), "qpu-two")


def test_an_entry_may_need_and_refuse_any_option(monkeypatch):
    table = dict(samplers.SAMPLER_TABLE)
    table["fussy"] = dataclasses.replace(table["tabu"], name="fussy", needs=frozenset({"time_limit"}),
                                         needs_says="--time-limit S", refuses={"seed": "it has no randomness"})
    monkeypatch.setattr(samplers, "SAMPLER_TABLE", table)
    with pytest.raises(SolverError, match=r"^--sampler fussy needs --time-limit S$"):
        samplers.check_options(SampleOptions(reads=1), "fussy")
    with pytest.raises(SolverError, match=r"^--seed does not apply to --sampler fussy: it has no randomness$"):
        samplers.check_options(SampleOptions(reads=1, seed=3, time_limit=1.0), "fussy")
    samplers.check_options(SampleOptions(reads=1, time_limit=1.0), "fussy")


#: one valid value of every knob and per-sampler option, as check_options is handed it
KNOB_VALUES = {"sweeps": 10, "time_limit": 1.0, "workers": 1, "count": 2, "beta_range": (0.5, 10.0),
               "beta_schedule": "geometric", "restarts": 2, "tenure": 1, "initial_states": "line"}


@pytest.mark.parametrize("sampler", samplers.SAMPLERS)
@pytest.mark.parametrize("knob", sorted(KNOB_VALUES))
def test_every_knob_a_sampler_does_not_take_is_refused_in_one_line(sampler, knob):
    """The sampler x knob table of the sampling guide: what an entry does not take is one line naming both."""
    spec = samplers.SAMPLER_TABLE[sampler]
    options = SampleOptions(reads=2, **{knob: KNOB_VALUES[knob]})
    if knob in spec.takes:
        try:
            samplers.check_options(options, sampler)
        except SolverError as exc:  # taken, but the entry may still need something else (a topology)
            assert "does not apply" not in str(exc), exc
        return
    flag = samplers.FLAGS.get(knob, "--" + knob.replace("_", "-"))
    with pytest.raises(SolverError, match=rf"^{flag} does not apply to the {sampler} sampler \(it applies to: ") as caught:
        samplers.check_options(options, sampler)
    assert "\n" not in str(caught.value)
