"""`nonoqubo evaluate` speed: 100 sample files x 1,000 samples of the Gecode castle (10,600 variables).

Run: ``python benchmarks/bench_evaluate.py [--files 100] [--samples 1000] [--distinct 10]``.
Prints a markdown table.  Target: the whole campaign judged in well under a minute.

The sample files are dimod SampleSet JSON (``to_serializable()``, what Ocean
samplers save), half random bits and half solutions with 1 % of the bits
flipped.  ``--distinct`` different files are written and each is copied to
make ``--files`` in all (the judging work is the same per file; writing 100
distinct 10,600 x 1,000 SampleSets would take longer than judging them).

Rows:

* *one file, read*: ``read_samples`` of one file (parse + match labels);
* *one file, decode*: :meth:`Decoder.analyse` of its 1,000 samples;
* *one file, judge*: :func:`nonoqubo.campaign.evaluate.judge_file` (read + decode + tally);
* *evaluate, -j 1* / *-j 2*: :func:`nonoqubo.campaign.evaluate.evaluate` on the whole
  campaign in one process and in two worker processes (what the CLI runs);
* *evaluate --polish, -j 2*: the same with a steepest-descent pass first, on
  ``--polish-files`` files only (its cost grows with the number of bit flips
  the descent makes).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import exports  # noqa: E402
from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.clues import spec  # noqa: E402
from nonoqubo.answers.decode import Decoder  # noqa: E402
from nonoqubo.model.encoding import Layout  # noqa: E402
from nonoqubo.campaign.evaluate import evaluate, judge_file  # noqa: E402
from nonoqubo.samples import read_samples  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_decode import random_and_near  # noqa: E402  (the same samples as the decode benchmark)

SHARED = ROOT / "tests" / "data" / "puzzles"


def timed(fn) -> tuple[float, float, object]:
    t, c = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t, time.process_time() - c, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--distinct", type=int, default=10)
    parser.add_argument("--polish-files", type=int, default=4)
    parser.add_argument("--puzzle", default="gecode-castle")
    args = parser.parse_args()

    import dimod

    path = SHARED / "json" / f"{args.puzzle}.json"
    puzzle = spec.from_dict(json.loads(path.read_text()), source=str(path))
    q, lay, rng = build(puzzle), Layout.of(puzzle), np.random.default_rng(0)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        model = root / f"{args.puzzle}.qubo.json"
        exports.dump(q, model)
        runs = root / "runs" / "sa"
        runs.mkdir(parents=True)
        t0 = time.perf_counter()
        for d in range(args.distinct):
            x = random_and_near(puzzle, lay, args.samples, rng)
            ss = dimod.SampleSet.from_samples((x, q.labels), "BINARY", energy=q.energy(x),
                                              info={"timing": {"sampling_ns": 10**9}})
            (runs / f"{args.puzzle}-{d:03d}.json").write_text(json.dumps(ss.to_serializable()))
        for k in range(args.distinct, args.files):
            shutil.copy(runs / f"{args.puzzle}-{k % args.distinct:03d}.json", runs / f"{args.puzzle}-{k:03d}.json")
        size = sum(f.stat().st_size for f in runs.iterdir())
        print(f"(wrote {args.files} files, {size / 1e6:.0f} MB, in {time.perf_counter() - t0:.1f} s)\n",
              file=sys.stderr)
        one = runs / f"{args.puzzle}-000.json"
        decoder = Decoder(puzzle)
        rows = []
        wall, cpu, batch = timed(lambda: read_samples(one, q.labels))
        rows.append(("one file, read (SampleSet JSON)", 1, wall, cpu))
        wall, cpu, _ = timed(lambda: decoder.analyse(batch.bits))
        rows.append(("one file, decode (vectorised pass)", 1, wall, cpu))
        wall, cpu, _ = timed(lambda: judge_file(str(model), str(one)))
        rows.append(("one file, judge (read + decode + tally)", 1, wall, cpu))
        for jobs in (1, 2):
            wall, cpu, groups = timed(lambda: evaluate(str(model), [str(root / "runs")], jobs=jobs))
            rows.append((f"evaluate, -j {jobs}", args.files, wall, cpu))
        f = groups[0].figures()
        polish_dir = root / "polish" / "sa"
        polish_dir.mkdir(parents=True)
        for k in range(args.polish_files):
            os.link(runs / f"{args.puzzle}-{k:03d}.json", polish_dir / f"{args.puzzle}-{k:03d}.json")
        wall, cpu, pg = timed(lambda: evaluate(str(model), [str(root / "polish")], polish=True, jobs=2))
        rows.append(("evaluate --polish, -j 2", args.polish_files, wall, cpu))

    print(f"## evaluate: {args.puzzle} ({puzzle.width}x{puzzle.height}, {q.num_vars:,} variables), "
          f"{args.files} files x {args.samples:,} samples\n")
    print("| step | files | wall s | CPU s (this process) | samples/s (wall) |")
    print("|---|---:|---:|---:|---:|")
    for name, files, wall, cpu in rows:
        print(f"| {name} | {files} | {wall:.2f} | {cpu:.2f} | {files * args.samples / wall:,.0f} |")
    print(f"\np = {f['p']:.3f} [{f['p_lo']:.3f}, {f['p_hi']:.3f}], TTS99 = {f['tts99']:.4g} s, "
          f"median residual energy {f['energy_q50']}; polished p = {pg[0].figures('polished')['p']:.3f}")


if __name__ == "__main__":
    main()
