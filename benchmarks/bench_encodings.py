"""The encodings side by side (issues 22 and 29): the builders' speed, and the A/B table a paper would print.

Run: ``python benchmarks/bench_encodings.py [--build-only] [--reads 100] [--sweeps 1000] [--seeds 3]
[--encodings domain-wall,one-hot,automaton]`` (default: every registered encoding, the first the
baseline).  Prints two markdown tables.

(a) **Build time per term**: the random 100x100 of ``bench_build.py`` (density 0.5,
``random.Random(7)``) built in every encoding, alternately, best of ``--repeat`` runs each,
side by side in one process; the ratios are each encoding's time per term over the baseline's.

(b) **The A/B table**: random families 8x8, 10x10, 12x12, 15x15 (density 0.5, ``--seeds``
pictures each) and the shared puzzles of ``tests/data/puzzles/json`` up to 15x15, each built by
``nonoqubo suite --encoding domain-wall,one-hot,automaton --weights ...`` (the library call
:func:`nonoqubo.campaign.suite.run_suite` with variants) in three weightings, sampled with
dwave-samplers' simulated annealing (``--reads`` reads of ``--sweeps`` sweeps, fixed seeds),
and judged by :func:`nonoqubo.campaign.evaluate.evaluate` with ``polish=True``: per family,
encoding and weighting the mean variables, terms and the largest variable degree, and the
success probability ``p`` (samples of energy 0 over samples, pooled over the family's puzzles)
raw and after the steepest-descent polish, exactly as ``nonoqubo evaluate --polish`` reports it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import exports  # noqa: E402
from nonoqubo.campaign.evaluate import evaluate  # noqa: E402
from nonoqubo.generation.families import parse_family  # noqa: E402
from nonoqubo.campaign.suite import run_suite, variants_of  # noqa: E402
from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.model.encodings import REGISTRY, encoding_named  # noqa: E402
from nonoqubo.model.puzzle import Puzzle  # noqa: E402

SHARED = ROOT / "tests" / "data" / "puzzles" / "json"
WEIGHTINGS = ["shape=1,order=1,cell=1", "shape=2,order=2,cell=1", "shape=1,order=1,cell=2"]
SIZES = ["8x8", "10x10", "12x12", "15x15"]


def random_100() -> Puzzle:
    rnd = random.Random(7)
    grid = np.array([[rnd.random() < 0.5 for _ in range(100)] for _ in range(100)])
    return Puzzle.from_picture(grid, name="random-100x100")


def build_table(repeat: int, encodings: list[str]) -> str:
    puzzle = random_100()
    best = {enc: float("inf") for enc in encodings}
    terms = {}
    for _ in range(repeat):  # alternately, so both see the same load
        for enc in best:
            t = time.perf_counter()
            q = build(puzzle, encoding=enc)
            best[enc] = min(best[enc], time.perf_counter() - t)
            terms[enc] = (q.num_vars, q.num_terms)
            del q
    per = {enc: best[enc] / terms[enc][1] * 1e9 for enc in best}
    lines = ["| encoding | variables | terms | build s (best of %d) | ns per term |" % repeat,
             "|---|---:|---:|---:|---:|"]
    for enc in best:
        lines.append(f"| {enc} | {terms[enc][0]:,} | {terms[enc][1]:,} | {best[enc]:.3f} | {per[enc]:.1f} |")
    base = encodings[0]
    lines.append("")
    lines += [f"{enc} / {base} time per term: {per[enc] / per[base]:.2f}" for enc in encodings[1:]]
    return "\n".join(lines)


def shared_small() -> list[Path]:
    out = []
    for path in sorted(SHARED.glob("*.json")):
        doc = json.loads(path.read_text())
        if len(doc["rows"]) <= 15 and len(doc["cols"]) <= 15:
            out.append(path)
    return out


def sample(folder: Path, runs: Path, reads: int, sweeps: int) -> None:
    from dwave.samplers import SimulatedAnnealingSampler

    sampler = SimulatedAnnealingSampler()
    for k, path in enumerate(sorted(folder.glob("*.qubo.json"))):
        q = exports.load(path)
        start = time.perf_counter()
        ss = sampler.sample(q.to_bqm(), num_reads=reads, num_sweeps=sweeps, seed=1000 + k)
        ss.info["seconds_per_run"] = (time.perf_counter() - start) / reads
        name = path.name[: -len(".qubo.json")]
        (runs / f"{name}.json").write_text(json.dumps(ss.to_serializable()))


def family_of(puzzle: str) -> str:
    """``random 10x10`` for a member of a random family, ``shared <= 15x15`` for a shared puzzle."""
    if puzzle.startswith("random-"):
        return "random " + puzzle.split("-")[1]
    return "shared <= 15x15"


def ab_table(reads: int, sweeps: int, seeds: int, jobs: int, encodings: list[str]) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        suite, runs = root / "suite", root / "runs" / "sa"
        runs.mkdir(parents=True)
        families = [parse_family(f"{size}:0.5:{seeds}:22") for size in SIZES]
        variants = variants_of(encodings, WEIGHTINGS)
        res = run_suite([str(p) for p in shared_small()], suite, formats=["qubo-json"], families=families,
                        variants=variants, jobs=jobs)
        assert res.failed == 0, [e.get("error") for e in res.entries if e.get("status") != "ok"]
        entries = {e["name"]: e for e in res.entries}
        print(f"built {len(entries)} models; sampling ...", file=sys.stderr, flush=True)
        sample(suite, runs, reads, sweeps)
        print("judging (with polish) ...", file=sys.stderr, flush=True)
        groups = evaluate(str(suite), [str(runs)], polish=True, jobs=jobs)
    acc: dict[tuple[str, str, str], dict] = defaultdict(lambda: defaultdict(list))
    for g in groups:
        e = entries[g.model]
        key = (family_of(e["puzzle"]), g.info.encoding, g.info.weights)
        raw, pol = g.figures("raw"), g.figures("polished")
        a = acc[key]
        a["variables"].append(e["variables"])
        a["terms"].append(e["terms"])
        a["degree"].append(e["max_degree"])
        a["raw"].append((raw["valid"], raw["samples"]))
        a["pol"].append((pol["valid"], pol["samples"]))
    order = [family_of(f"random-{s}") for s in SIZES]
    rest = sorted({k[0] for k in acc} - set(order))
    print(f"shared puzzles: {', '.join(p.stem for p in shared_small())}", file=sys.stderr)
    lines = ["| puzzles | n | encoding | weights (shape,order,cell) | variables | terms | max degree | p raw | p polished |",
             "|---|---:|---|---|---:|---:|---:|---:|---:|"]
    for fam in order + rest:
        for enc in encodings:
            for w in WEIGHTINGS:
                a = acc.get((fam, enc, w))
                if not a:
                    continue
                p_raw = sum(v for v, _ in a["raw"]) / sum(n for _, n in a["raw"])
                p_pol = sum(v for v, _ in a["pol"]) / sum(n for _, n in a["pol"])
                ws = ",".join(x.split("=")[1] for x in w.split(","))
                lines.append(f"| {fam} | {len(a['terms'])} | {enc} | {ws} | {np.mean(a['variables']):,.0f} | "
                             f"{np.mean(a['terms']):,.0f} | {max(a['degree'])} | {p_raw:.3f} | {p_pol:.3f} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build-only", action="store_true", help="only table (a)")
    ap.add_argument("--repeat", type=int, default=5, help="builds of each encoding for table (a)")
    ap.add_argument("--reads", type=int, default=100)
    ap.add_argument("--sweeps", type=int, default=1000)
    ap.add_argument("--seeds", type=int, default=3, help="random pictures per size")
    ap.add_argument("-j", "--jobs", type=int, default=1)
    ap.add_argument("--encodings", default=",".join(e.name for e in REGISTRY),
                    help="comma-separated encodings, the first the baseline (default: every registered one)")
    args = ap.parse_args()
    encodings = [encoding_named(name, "--encodings").name for name in args.encodings.split(",")]
    print(build_table(args.repeat, encodings))
    sys.stdout.flush()
    if not args.build_only:
        print()
        print(ab_table(args.reads, args.sweeps, args.seeds, args.jobs, encodings))


if __name__ == "__main__":
    main()
