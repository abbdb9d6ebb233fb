"""Issue 41 item 5: ``evaluate`` streams its run files.  Each judged file is folded into its group's
running tallies and let go, so memory does not grow with the number of files; the numbers are the ones
every file kept and merged at the end gives, computed here again from the samples in the order read."""

from __future__ import annotations

import copy
import json
import random
import weakref
from pathlib import Path

import numpy as np
import pytest

import nonoqubo.campaign.evaluate as ev
from nonoqubo.campaign.evaluate import FileResult, evaluate, judge_file, records
from nonoqubo.records import RecordMerge, merged
from nonoqubo.generation.families import parse_family
from nonoqubo.campaign.suite import run_suite
from nonoqubo.inputs import load_model
from nonoqubo.solvers.sampling import sampleset_document, solve

SETTINGS = {"sa-5": 5, "sa-60": 60}  # folder -> sweeps: two settings
COPIES = 50  # files per model and setting: 3 models x 2 settings x 50 = 300 files
QS = (0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0)


@pytest.fixture(scope="module")
def campaign(tmp_path_factory) -> tuple[Path, Path]:
    """A suite of three 4x4 puzzles and 300 run files: per model and setting 5 real SA runs, each copied
    with another seed (and another time per run) to make 50."""
    root = tmp_path_factory.mktemp("stream")
    run_suite([], root / "suite", families=[parse_family("4x4:0.5:3:2")], jobs=1)
    for model in sorted((root / "suite").glob("*.qubo.json")):
        qubo, stem = load_model(str(model)), model.name.removesuffix(".qubo.json")
        for folder, sweeps in SETTINGS.items():
            docs = [sampleset_document(solve(qubo, "sa", reads=6, seed=s, sweeps=sweeps)) for s in range(5)]
            (root / "runs" / folder).mkdir(parents=True, exist_ok=True)
            for k in range(COPIES):
                doc = copy.deepcopy(docs[k % len(docs)])
                record = doc["info"]["nonoqubo"]
                record["parameters"]["seed"] = 1000 + k
                record["timing"]["seconds_per_run"] = 0.001 * (1 + k % 7)
                (root / "runs" / folder / f"{stem}-{k:03d}.json").write_text(json.dumps(doc))
    return root / "suite", root / "runs"


def _listed_merge(values: list) -> dict | None:
    """The run records merged as before streaming: each value compared with every distinct one kept."""
    if any(v is None for v in values):
        return None
    out = {}
    for key in values[0]:
        column = [v.get(key) for v in values]
        if all(isinstance(v, dict) for v in column):
            out[key] = _listed_merge(column)
            continue
        distinct: list = []
        for v in column:
            if v not in distinct:
                distinct.append(v)
        out[key] = distinct[0] if len(distinct) == 1 else distinct
    return out


def test_streamed_numbers_equal_every_file_kept_and_merged_at_the_end(campaign):
    suite, runs = campaign
    streamed = evaluate(str(suite), [str(runs)], jobs=1, in_order=True)
    assert len(streamed) == 6 and sum(g.files for g in streamed) == 6 * COPIES
    index = {m: p for m, p in ((e.name.removesuffix(".qubo.json"), str(e)) for e in suite.glob("*.qubo.json"))}
    for g in streamed:  # every file judged alone, kept, and its samples concatenated: the numbers before streaming
        files = sorted((runs / g.setting).glob(f"{g.model}-*.json"))
        kept = [judge_file(index[g.model], str(f), job=ev.Job(index[g.model], str(f), in_order=True)) for f in files]
        e = np.concatenate([r.raw.energies for r in kept])
        w = np.concatenate([r.raw.weights for r in kept])
        n = int(w.sum())
        f = g.figures("raw")
        assert (f["samples"], f["valid"], g.files) == (n, int(w[e == 0].sum()), len(files))
        assert np.array_equal(g.raw.energies, e) and np.array_equal(g.raw.weights, w)  # in the order read
        quantiles = np.quantile(np.repeat(e, w), QS, method="inverted_cdf")
        assert [f["energy_min"], f["energy_q10"], f["energy_q25"], f["energy_q50"], f["energy_q75"],
                f["energy_q90"], f["energy_max"]] == [int(q) for q in quantiles]
        assert f["energy_mean"] == float(w @ e / n)
        assert f["share_broken_walls"] == sum(r.raw.broken for r in kept) / n
        assert f["share_cell_conflicts"] == sum(r.raw.conflict for r in kept) / n
        assert np.array_equal(g.raw.cell_wrong, sum(r.raw.cell_wrong for r in kept))
        assert np.array_equal(g.raw.line_wrong, sum(r.raw.line_wrong for r in kept))
        assert g.raw.best_energy == min(r.raw.best_energy for r in kept)
        assert g.raw.found == frozenset().union(*(r.raw.found for r in kept))
        assert g.seconds == sum(r.seconds * r.reads for r in kept) / sum(r.reads for r in kept)
        assert g.run == _listed_merge([r.run for r in kept])
        assert len(g.run["parameters"]["seed"]) == len(files)  # one seed per file, listed
    # a pool gives the same, and keeps no order unless asked
    pooled = evaluate(str(suite), [str(runs)], jobs=2)
    assert records(pooled) == records(streamed)
    with pytest.raises(ev.NonoquboError, match="in_order=True"):
        pooled[0].raw.energies  # noqa: B018


def test_evaluate_keeps_no_file_result_per_file(campaign, monkeypatch):
    """At most two judged files are alive at any time (the one folded, the one being judged), not 300."""
    suite, runs = campaign
    alive, most = [0], [0]
    original = ev.judge_file

    def gone() -> None:
        alive[0] -= 1

    def judged(*args, **kw) -> FileResult:
        res = original(*args, **kw)
        alive[0] += 1
        weakref.finalize(res, gone)  # counted down when the result is let go
        most[0] = max(most[0], alive[0])
        return res

    monkeypatch.setattr(ev, "judge_file", judged)
    groups = evaluate(str(suite), [str(runs)], jobs=1)
    assert sum(g.files for g in groups) == 6 * COPIES
    assert most[0] <= 2, f"{most[0]} judged files were kept at once"


def test_the_pool_holds_a_bounded_window_of_results(campaign, monkeypatch):
    """With workers, at most jobs x IN_FLIGHT chunks of CHUNK files are submitted ahead of the fold."""
    suite, runs = campaign
    submitted, folded = [0], [0]
    original_add = ev._Fold.add

    from nonoqubo._util import workers  # evaluate's pool (workers that die with the command, issue 51)

    class Counting(workers.ProcessPoolExecutor):
        def submit(self, fn, *args, **kw):
            submitted[0] += len(args[0])
            assert submitted[0] - folded[0] <= 2 * ev.IN_FLIGHT * ev.CHUNK + ev.CHUNK
            return super().submit(fn, *args, **kw)

    def add(self, index, run, res):
        folded[0] += 1
        return original_add(self, index, run, res)

    monkeypatch.setattr(workers, "ProcessPoolExecutor", Counting)
    monkeypatch.setattr(ev._Fold, "add", add)
    groups = evaluate(str(suite), [str(runs)], jobs=2)
    assert submitted[0] == folded[0] == sum(g.files for g in groups) == 6 * COPIES


def test_a_record_key_that_stops_being_a_dict_is_merged_again_from_the_files(campaign, tmp_path):
    """The one case the streaming merge cannot finish: a key that is a dict in the first files and not later."""
    suite, runs = campaign
    (tmp_path / "sa-5").mkdir()
    files = sorted((runs / "sa-5").glob("*.json"))[:4]
    expected = []
    for k, f in enumerate(files):
        doc = json.loads(f.read_text())
        if k == 2:
            del doc["info"]["nonoqubo"]["model"]  # a hand-made record: no model (a dict in the others)
        (tmp_path / "sa-5" / f.name).write_text(json.dumps(doc))
        expected.append(ev.recorded_summary(str(tmp_path / "sa-5" / f.name)))
    (g,) = evaluate(str(suite), [str(tmp_path / "sa-5")], jobs=1)
    assert g.run == _listed_merge(expected)
    assert isinstance(g.run["model"], list) and None in g.run["model"]


def test_record_merge_equals_the_listed_merge():
    rng = random.Random(5)
    leaves = [None, 0, 1, 1.0, True, "a", [1, 2], [1], {"x": 1}, {"x": 1.0}, {"x": [1]}, {}]
    for _ in range(400):
        recs = [{"a": rng.choice(leaves), "b": {"c": rng.choice(leaves), "d": rng.choice([1, 2])}}
                for _ in range(rng.randint(1, 6))]
        merge = RecordMerge()
        for r in recs:
            merge.add(r)
        if not merge.mixed:
            assert merge.value() == _listed_merge(recs), recs
        assert merged(recs) == _listed_merge(recs), recs
    merge = RecordMerge()
    merge.add({"a": 1})
    merge.add(None)
    assert merge.value() is None


def test_a_file_finds_its_model_by_lookup_as_the_scan_of_every_model_did():
    def scanned(path, parts, names):
        base, best = path.rsplit("/", 1)[-1], None
        for name in sorted(names):
            if (base == name or any(base.startswith(name + s) for s in ".-_") or name in parts) and (
                    best is None or len(name) > len(best)):
                best = name
        return f"{best}.presolved" if best and ".presolved" in base and f"{best}.presolved" in names else best

    rng = random.Random(3)
    words = ["heart", "heart-2", "he", "a_b", "a", "b.c", "x"]
    for _ in range(300):
        names = set(rng.sample(words, 4)) | {f"{w}.presolved" for w in rng.sample(words, 2)}
        parts = tuple(rng.sample(["runs", *words], 2))
        base = rng.choice(words) + rng.choice(["", ".json", "-1.json", "_x.json", ".presolved.json", "2.json"])
        path = "/".join((*parts, base))
        assert ev._owner(path, parts, names) == scanned(path, parts, names), (path, names)
