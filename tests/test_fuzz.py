"""Mutation fuzzing of every reader through ``nonoqubo.cli.main`` (see tests/support/fuzzing.py).

The CI run tries ``NONOQUBO_FUZZ_CASES`` mutants in all (default 2,000, spread over the
readers); a long campaign is the same test with a bigger number::

    NONOQUBO_FUZZ_CASES=100000 python -m pytest tests/test_fuzz.py

Each case must end with exit status 0, 1 or 2, at most one line on standard error, an error
that names the file, no warning, no traceback, within ``NONOQUBO_FUZZ_LIMIT`` seconds (5).
The readers behind native code (dimod's ``.bqm`` and ``.cqm`` loaders) run their batch in a
child process, so a crash fails the test instead of ending pytest.
"""

from __future__ import annotations

import os

import pytest

from tests.support.fuzzing import Reader, fuzz, fuzz_in_child, mutate, readers, run_case

TOTAL = int(os.environ.get("NONOQUBO_FUZZ_CASES", "2000"))
SEED = int(os.environ.get("NONOQUBO_FUZZ_SEED", "0"))
NAMES = ["clues", "samples", "grids", "qubo-json", "bqm", "bqm-json", "coo", "csv", "qbsolv", "qs", "mqlib",
         "mtx", "qplib", "cqm", "lp", "mps", "npz", "ommx", "ommx-constrained", "minizinc", "minizinc-answers",
         # issue 33: the annealer's readers and the option grammars
         "topology-file", "topology-spec", "embedding", "qubit-samples", "physical", "random-family",
         # issue 45: one family per class (outputs, counts, pipes, 0 counts, sample types, tournament answers,
         # models without variables)
         "outputs", "counts", "streams", "occurrences", "sample-types", "tournament-answers", "empty-models",
         "run-records", "suite-index", "plan-index",  # issue 50/54 (records): run records, a suite's index
         # issue 54, classes 1, 3, 4, 5, 10: outputs on inputs, streams in folders, -j, pt/pa work, output folders
         "input-outputs", "found-streams", "jobs", "work", "output-folders",
         "plans", "scheduler-values"]  # issue 51: campaign plans (run --dry-run) and --scheduler values
#: clue files get a bigger share: eleven formats share that family
SHARE = {"clues": 4, "samples": 2, "grids": 1}
#: issue 45's families run a command (a build, a short solve) per case: a fixed share of the CI run (at
#: NONOQUBO_FUZZ_CASES=2000), a few seconds each, scaled with NONOQUBO_FUZZ_CASES
CASES = {"outputs": 40, "counts": 60, "streams": 40, "occurrences": 60, "sample-types": 60,
         "tournament-answers": 80, "empty-models": 60,
         "run-records": 60, "suite-index": 30, "plan-index": 40,  # issue 50/54 (records)
         "input-outputs": 30, "found-streams": 30, "jobs": 20, "work": 30, "output-folders": 20,  # issue 54
         "plans": 60, "scheduler-values": 60}  # issue 51
#: the readers whose batch took 5-24 s in a loaded suite run (HiGHS reading MPS, OMMX, dimod's CQM)
SLOW = {"mps", "ommx", "ommx-constrained", "cqm"}


@pytest.fixture(scope="module")
def family(tmp_path_factory) -> dict[str, Reader]:
    return readers(str(tmp_path_factory.mktemp("fuzz")))


def test_every_reader_family_is_fuzzed(family):
    assert sorted(family) == sorted(NAMES)


@pytest.mark.parametrize("name", [pytest.param(n, marks=[pytest.mark.slow] if n in SLOW else []) for n in NAMES])
def test_fuzz(family, name, tmp_path):
    weight = sum(SHARE.get(n, 1) for n in NAMES if n not in CASES)
    cases = max(10, TOTAL * CASES[name] // 2000 if name in CASES else TOTAL * SHARE.get(name, 1) // weight)
    reader = family[name]
    outcome = fuzz_in_child(name, cases, SEED) if reader.subprocess else fuzz(reader, cases, SEED, str(tmp_path))
    assert sum(outcome.counts.values()) >= (1 if reader.subprocess else cases)
    assert not outcome.failures, "\n".join(outcome.failures[:10])


def test_the_harness_catches_what_it_must(tmp_path):
    """The checks can fail: a traceback, a multi-line error and an unnamed error are caught."""
    from nonoqubo.cli import main  # noqa: F401 - the harness imports it too

    bad = tmp_path / "x.json"
    bad.write_text("{}")
    kind, _ = run_case(["info", str(bad)], [str(bad)])
    assert kind == "error"  # a clean, named, one-line error
    kind, _ = run_case(["info", str(bad)], ["some-other-name"])
    assert kind == "unnamed"
    kind, detail = run_case(["info"], [str(bad)])  # argparse: usage + error = two lines
    assert kind == "multi-line", detail


def test_mutations_are_seeded_and_change_the_input():
    import random

    data = b"P1\n5 5\n" + b"0 1 0 1 0\n" * 5
    first = [mutate(data, random.Random(7)) for _ in range(3)]
    assert first == [mutate(data, random.Random(7)) for _ in range(3)]
    rng = random.Random(1)
    assert sum(mutate(data, rng) != data for _ in range(50)) >= 45
