"""The A/B comparison in one command (issue 22): ``suite --encoding ... --weights ...`` and ``evaluate``.

Samples whose validity is known (the solution's encoding, and copies with bits flipped) are
judged per variant; each group's success probability is recomputed here from ``Qubo.energy``.
"""

from __future__ import annotations

import csv
import io
import json

import dimod
import numpy as np
import pytest

from nonoqubo import exports
from nonoqubo.campaign.evaluate import evaluate, records
from nonoqubo.campaign.suite import Variant, run_suite, variants_of
from nonoqubo.errors import UnknownEncoding, WeightsError
from nonoqubo.model.encodings import geometry_of
from nonoqubo.model.weights import Weights
from tests.support import SHARED, shared_puzzle

LOGO = SHARED / "json" / "qbpp-logo.json"
HEART = SHARED / "json" / "gecode-heart.json"


def test_variants_are_every_combination_and_checked():
    vs = variants_of(["one-hot", "domain-wall"], ["shape=2,order=2,cell=1", "cell=1"])
    assert [v.tag for v in vs] == ["one-hot.w2-2-1", "one-hot", "domain-wall.w2-2-1", "domain-wall"]
    assert variants_of(None, ["cell=3"]) == [Variant("domain-wall", Weights(1, 1, 3))]
    with pytest.raises(UnknownEncoding, match="--encoding: unknown encoding 'two-hot'"):
        variants_of(["two-hot"], None)
    for enc, w in ((None, ["cell=0"]), (None, ["foo=1"])):
        with pytest.raises(WeightsError):
            variants_of(enc, w)


@pytest.fixture(scope="module")
def ab(tmp_path_factory):
    root = tmp_path_factory.mktemp("ab")
    out = root / "suite"
    variants = variants_of(["domain-wall", "one-hot"], ["cell=1", "shape=2,order=2,cell=1"])
    res = run_suite([str(LOGO), str(HEART)], out, formats=["qubo-json", "lp"], variants=variants, jobs=1)
    return {"root": root, "out": out, "result": res}


def test_suite_writes_every_variant_with_names_that_say_which(ab):
    res, out = ab["result"], ab["out"]
    assert res.failed == 0 and res.built == 8
    names = sorted(e["name"] for e in res.entries)
    assert names == sorted(f"{p}.{tag}" for p in ("qbpp-logo", "gecode-heart")
                           for tag in ("domain-wall", "domain-wall.w2-2-1", "one-hot", "one-hot.w2-2-1"))
    index = {e["name"]: e for e in json.loads((out / "index.json").read_text())["puzzles"]}
    for name, e in index.items():
        model = exports.load(out / f"{name}.qubo.json")
        assert (e["encoding"], e["weights"]) == (model.encoding, model.weights.as_dict())
        assert name == f"{e['puzzle']}.{Variant(model.encoding, model.weights).tag}"
        assert e["variables"] == model.num_vars and e["terms"] == model.num_terms
        assert e["max_degree"] == int(model.degrees().max())
        lp = [f for f in e["files"] if f["format"] == "lp"]
        assert bool(lp) == (e["encoding"] == "domain-wall" and e["weights"] == Weights().as_dict())
    rows = list(csv.DictReader(io.StringIO((out / "index.csv").read_text())))
    assert {r["weights"] for r in rows} == {"shape=1,order=1,cell=1", "shape=2,order=2,cell=1"}
    assert {r["encoding"] for r in rows} == {"domain-wall", "one-hot"}
    # run again: every variant is up to date
    again = run_suite([str(LOGO), str(HEART)], out, formats=["qubo-json", "lp"],
                      variants=variants_of(["domain-wall", "one-hot"], ["cell=1", "shape=2,order=2,cell=1"]), jobs=1)
    assert again.skipped == 8 and again.built == 0


def test_a_suite_without_variants_keeps_its_names(tmp_path):
    res = run_suite([str(LOGO)], tmp_path, formats=["qubo-json"], jobs=1)
    (entry,) = res.entries
    assert entry["name"] == "qbpp-logo" and entry["files"][0]["path"] == "qbpp-logo.qubo.json"
    assert entry["encoding"] == "domain-wall" and entry["weights"] == {"shape": 1, "order": 1, "cell": 1}
    assert "encoding" not in (tmp_path / "index.csv").read_text().splitlines()[0].split(",")


def test_evaluate_reports_the_variants_side_by_side(ab):
    out, runs = ab["out"], ab["root"] / "runs" / "flips"
    runs.mkdir(parents=True)
    rng = np.random.default_rng(4)
    want = {}
    for e in ab["result"].entries:
        q = exports.load(out / f"{e['name']}.qubo.json")
        sol = geometry_of(q.puzzle, encoding=q.encoding).encode(_solution(e["puzzle"]))
        x = np.repeat(sol[None, :], 30, axis=0)
        flips = rng.integers(0, 3, size=30)
        for s, k in enumerate(flips):
            x[s, rng.choice(x.shape[1], size=int(k), replace=False)] ^= 1
        ss = dimod.SampleSet.from_samples((x, list(q.labels)), dimod.BINARY, energy=q.energy(x).astype(float))
        (runs / f"{e['name']}.json").write_text(json.dumps(ss.to_serializable()))
        want[e["name"]] = float(np.mean(q.energy(x) == 0))
    groups = evaluate(str(out), [str(runs)], jobs=1)
    recs = records(groups)
    assert {r["model"]: r["raw"]["p"] for r in recs} == pytest.approx(want)
    # side by side: each puzzle's four variants are consecutive, in (encoding, weights) order
    order = [(r["puzzle"], r["encoding"], r["weights"]) for r in recs]
    puzzles = [p for p, _, _ in order]
    assert puzzles == sorted(puzzles, key=puzzles.index) and len(set(puzzles)) == 2
    for p in set(puzzles):
        assert [(e, w) for q, e, w in order if q == p] == [
            ("domain-wall", "shape=1,order=1,cell=1"), ("domain-wall", "shape=2,order=2,cell=1"),
            ("one-hot", "shape=1,order=1,cell=1"), ("one-hot", "shape=2,order=2,cell=1")]


def _solution(puzzle: str):
    return shared_puzzle(puzzle).solution_grid()


def test_cli_suite_and_evaluate_ab(run_cli, tmp_path):
    status, _, err = run_cli("suite", LOGO, "-o", tmp_path / "s", "--encoding", "domain-wall,one-hot",
                             "--weights", "cell=2", "-j", "1", "-q")
    assert status == 0, err
    assert sorted(p.name for p in (tmp_path / "s").glob("*.qubo.json")) == [
        "qbpp-logo.domain-wall.w1-1-2.qubo.json", "qbpp-logo.one-hot.w1-1-2.qubo.json"]
    runs = tmp_path / "runs" / "sa"
    runs.mkdir(parents=True)
    for path in (tmp_path / "s").glob("*.qubo.json"):
        q = exports.load(path)
        sol = geometry_of(q.puzzle, encoding=q.encoding).encode(_solution("qbpp-logo"))
        (runs / (path.name[: -len(".qubo.json")] + ".txt")).write_text("".join(map(str, sol)) + "\n")
    status, out, err = run_cli("evaluate", tmp_path / "s", tmp_path / "runs", "-j", "1", "-q", "--json",
                               "--csv", tmp_path / "e.csv")
    assert status == 0, err
    groups = json.loads(out)["groups"]
    assert {(g["encoding"], g["weights"], g["raw"]["p"]) for g in groups} == {
        ("domain-wall", "shape=1,order=1,cell=2", 1.0), ("one-hot", "shape=1,order=1,cell=2", 1.0)}
    header = (tmp_path / "e.csv").read_text().splitlines()[0].split(",")
    assert {"puzzle", "encoding", "weights"} <= set(header)
    status, out, _ = run_cli("evaluate", tmp_path / "s", tmp_path / "runs", "-j", "1", "-q")
    head = out.splitlines()[0].split()
    assert head[:5] == ["model", "setting", "encoding", "weights", "stage"]  # two variants: their columns
    status, _, err = run_cli("suite", LOGO, "-o", tmp_path / "t", "--weights", "order=0")
    assert status == 2 and err.count("\n") == 1 and "order=0" in err and not (tmp_path / "t").exists()
