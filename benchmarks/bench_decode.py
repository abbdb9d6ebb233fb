"""Decode and check speed: 1,000 samples of the Gecode castle (35x60, 10,600 variables).

Run: ``python benchmarks/bench_decode.py [--samples N] [--repeat R]``.  Prints a
markdown table (best wall-clock and best CPU seconds of R runs).  Target (issue 16): the vectorised pass over 1,000 samples in under 0.1 s.

Rows:

* *decode (vectorised pass)*: :meth:`Decoder.analyse` on an ``(S, N)`` matrix:
  shifts, broken walls, order violations, every cell's row and column colour,
  energies, the pictures and their failing lines, for all samples;
* *decode + best report*: the above plus the per-sample report of the best
  sample (what ``nonoqubo decode`` does);
* *decode + all reports*: a report object for every sample (``--all``);
* *read SampleSet JSON*: parsing a ``to_serializable()`` file of the samples;
* *check (failing lines)*: :func:`nonoqubo.logic.check.failing_lines` on S grids;
* *QUBO energy (reference)*: ``Qubo.energy`` of the same samples, for scale.

Samples are half random bits and half solutions with 1 % of the bits flipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.logic.check import failing_lines  # noqa: E402
from nonoqubo.clues import spec  # noqa: E402
from nonoqubo.answers.decode import Decoder, select  # noqa: E402
from nonoqubo.model.encoding import Layout  # noqa: E402
from nonoqubo.samples import read_samples  # noqa: E402

SHARED = ROOT / "tests" / "data" / "puzzles"


def best_of(fn, repeat: int) -> tuple[float, float]:
    """Best wall-clock and best CPU seconds of *repeat* runs (CPU time is what a
    busy machine does not inflate; the work is single-threaded NumPy)."""
    walls, cpus = [], []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        walls.append(time.perf_counter() - t)
        cpus.append(time.process_time() - c)
    return min(walls), min(cpus)


def random_and_near(puzzle, lay: Layout, s: int, rng: np.random.Generator) -> np.ndarray:
    """*s* samples: half random bits, half the known solution with 1 % of the bits flipped."""
    half = s // 2
    x = rng.integers(0, 2, (s, lay.num_vars)).astype(np.int8)
    if puzzle.solution is not None:
        near = np.tile(lay.encode(puzzle.solution_grid()), (s - half, 1))
        near[rng.random(near.shape) < 0.01] ^= 1
        x[half:] = near
    return x


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--puzzle", default="gecode-castle")
    args = parser.parse_args()

    path = SHARED / "json" / f"{args.puzzle}.json"
    puzzle = spec.from_dict(json.loads(path.read_text()), source=str(path))
    q = build(puzzle)
    lay = Layout.of(puzzle)
    rng = np.random.default_rng(0)
    s = args.samples
    x = random_and_near(puzzle, lay, s, rng)

    decoder = Decoder(puzzle)
    analysis = decoder.analyse(x)
    assert np.array_equal(analysis.energy, q.energy(x))
    rows = []
    rows.append(("decode (vectorised pass)", best_of(lambda: decoder.analyse(x), args.repeat)))
    rows.append(("decode + best report", best_of(
        lambda: decoder.reports(a := decoder.analyse(x), select(a, "best")), args.repeat)))
    rows.append(("decode + all reports", best_of(
        lambda: decoder.reports(a := decoder.analyse(x), select(a, "all")), 1)))
    import dimod

    ss = dimod.SampleSet.from_samples((x, q.labels), "BINARY", energy=analysis.energy)
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "samples.json"
        file.write_text(json.dumps(ss.to_serializable()))
        rows.append(("read SampleSet JSON", best_of(lambda: read_samples(file, q.labels), args.repeat)))
    grids = analysis.grid
    rows.append(("check (failing lines)", best_of(lambda: failing_lines(lay, grids), args.repeat)))
    rows.append(("QUBO energy (reference)", best_of(lambda: q.energy(x), args.repeat)))

    print(f"## decode: {args.puzzle} ({puzzle.width}x{puzzle.height}, {q.num_vars:,} variables, "
          f"{q.num_terms:,} terms), {s:,} samples\n")
    print("| step | wall s | CPU s | samples/s (wall) |")
    print("|---|---:|---:|---:|")
    for name, (wall, cpu) in rows:
        print(f"| {name} | {wall:.3f} | {cpu:.3f} | {s / wall:,.0f} |")


if __name__ == "__main__":
    main()
