"""One solve request (issue 40 item 1): every road to a solve makes the same value, checks it once, records it.

The command line (``solve``'s argparse options, added from the one option table), a sweep's setting
(text values), a campaign plan's setting (YAML values) and Python keywords all make a
:class:`~nonoqubo.solvers.request.SolveRequest`; the run file ``solve -o`` writes records exactly its
:meth:`~nonoqubo.solvers.request.SolveRequest.parameters`, and :meth:`matches` tells a run file of it.
"""

from __future__ import annotations

import json
import pickle

import pytest

from nonoqubo.model.weights import Weights
from nonoqubo.records import RunRecord, file_digest
from nonoqubo.errors import SolverError, UnknownEncoding, WeightsError
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.solvers.options import SWEEPABLE, parse_value
from nonoqubo.solvers.request import SolveRequest
from nonoqubo.solvers.sampling import prepare, sampleset_document, solve

SMALL = Puzzle.from_picture(["##.", ".#.", "###"])


@pytest.mark.parametrize("values, message", [
    ({"sweep": 10}, "'sweep' is not an option of solve; did you mean sweeps?"),
    ({"reads": "many"}, "reads: 'many' is not a whole number"),
    ({"reads": [1, 2]}, "reads: [1, 2] is not a value"),
    ({"auto-scale": "maybe"}, "auto-scale: 'maybe' is not true or false"),
    ({"presolve": "guess"}, "presolve: 'guess' is not false, true, line or probe"),
    ({"sampler": "annealer"}, "sampler: 'annealer' is not one of sa, tabu"),
    ({"beta-range": "10,1"}, "--beta-range: LO must be below HI"),
])
def test_a_bad_option_is_one_line_naming_the_place_and_the_option(values, message):
    with pytest.raises(SolverError) as caught:
        SolveRequest.from_options(values, where="plan.yaml: setting sa")
    text = str(caught.value)
    assert text.startswith("plan.yaml: setting sa: ") and message in text and "\n" not in text


def test_a_bad_encoding_or_weights_names_the_place():
    with pytest.raises(UnknownEncoding, match="^plan.yaml: x: --encoding: unknown encoding 'two-hot'"):
        SolveRequest.from_options({"encoding": "two-hot"}, where="plan.yaml: x")
    with pytest.raises(WeightsError, match="^plan.yaml: x: --weights"):
        SolveRequest.from_options({"weights": "cell=0"}, where="plan.yaml: x")


def test_check_refuses_what_the_sampler_does_not_take():
    with pytest.raises(SolverError, match="--sweeps does not apply to the tabu sampler"):
        SolveRequest.from_options({"sampler": "tabu", "sweeps": 10}).check()
    with pytest.raises(SolverError, match="--reads must be at least 1"):
        SolveRequest.from_options({"reads": 0}).check()


def test_text_and_yaml_values_read_the_same():
    for name, text, typed in [("reads", "7", 7), ("time-limit", "0.5", 0.5), ("clique", "true", True),
                              ("presolve", "true", "line"), ("presolve", "false", False), ("chain-strength", 2, "2")]:
        assert parse_value(name, text) == parse_value(name, typed)
    assert "workers" not in SWEEPABLE and "beta-range" in SWEEPABLE


def test_a_request_crosses_to_another_process_unchanged():
    request = SolveRequest.of("sa", reads=4, seed=9, beta_range="1,20", encoding="one-hot", weights="cell=2",
                              presolve=True)
    again = pickle.loads(pickle.dumps(request))
    assert again == request and again.encoding is request.encoding  # the registry's one object
    assert again.with_seed(10).options.seed == 10 and request.options.seed == 9


def test_solve_records_exactly_the_requests_parameters_and_matches_it(tmp_path):
    request = SolveRequest.of("sa", reads=3, seed=5, sweeps=30, presolve=True)
    document = sampleset_document(solve(SMALL, request))
    doc = json.loads(json.dumps(document))["info"]["nonoqubo"]
    assert doc["parameters"] == request.parameters()
    record = RunRecord.from_dict(doc, "run.json")
    model = (None, "domain-wall", Weights())  # solved in memory: no file, no digest
    assert request.matches(record, *model)
    assert not request.with_seed(6).matches(record, *model)
    assert not request.matches(record, None, "one-hot", Weights())
    assert not request.matches(record, None, "domain-wall", Weights(2, 1, 1))
    assert not request.matches(record, "0" * 64, "domain-wall", Weights())
    assert not SolveRequest.of("tabu", reads=3, seed=5).matches(record, *model)


def test_the_cli_writes_the_run_file_the_library_writes_for_one_request(tmp_path, run_cli):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"rows": [[2], [1], [3]], "cols": [[1, 1], [3], [1]]}))
    out = tmp_path / "run.json"
    status, _, err = run_cli("solve", path, "--reads", "4", "--seed", "2", "--sweeps", "40", "--beta-range",
                             "0.5,10", "-q", "-o", out)
    assert status == 0, err
    record = RunRecord.from_dict(json.loads(out.read_text())["info"]["nonoqubo"], str(out))
    request = SolveRequest.from_options({"reads": 4, "seed": 2, "sweeps": 40, "beta-range": "0.5,10"})
    assert request.matches(record, file_digest(str(path)), "domain-wall", Weights())
    library = sampleset_document(solve(Puzzle.from_picture(["##.", ".#.", "###"]), request))
    written, made = json.loads(out.read_text()), json.loads(json.dumps(library))
    assert written["sample_data"] == made["sample_data"] and written["vectors"] == made["vectors"]


def test_keywords_beside_a_whole_request_are_refused():
    with pytest.raises(TypeError, match="not both"):
        solve(SMALL, SolveRequest(), reads=3)
    with pytest.raises(TypeError, match="unknown sampling option 'sweep'"):
        solve(SMALL, "sa", sweep=3)


def test_a_model_file_refuses_a_request_for_another_encoding():
    from nonoqubo.model.build import build

    with pytest.raises(Exception, match="m.bqm: a model file keeps its own encoding"):
        prepare(build(SMALL), SolveRequest.of("sa", encoding="one-hot"), source="m.bqm")
