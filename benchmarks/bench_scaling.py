"""Scaling: build and write time and peak memory against the number of terms, 10^4 to 10^8.

Run ``python benchmarks/bench_scaling.py`` (``--max-terms 1e7`` stops earlier,
``--format qbsolv`` writes another format than COO).  The puzzles are random
grids of density 0.5 (Python's ``random.Random(7)``, row by row, as in
``bench_build.py``); their term count grows about with the fourth power of the
side here (3.64 M terms at 100x100, 0.69 M at 66x66), so the sides are picked
to give about 10^4, 10^5 ... 10^8 terms (10^8 near 230x230).  The format
registry is loaded before the clock starts (a one-off 0.07 s import).  Each size runs in a fresh subprocess that builds the QUBO, writes it,
and reports wall-clock and CPU seconds (a shared machine's load moves the
former far more) and its own peak resident memory (``ru_maxrss``) after the build and after
the write.  Before each size the script prints an estimate of that peak,
extrapolated from the bytes per term of the last size measured, and skips
the size when the estimate exceeds the memory available.  Prints a markdown
table: if time and memory grow linearly with the terms, the per-term columns
stay flat.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# measure this checkout's nonoqubo in the children, not another installed one
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
#: sides giving about 10^4, 10^5, 10^6, 10^7 and 10^8 terms at density 0.5
SIDES = (23, 41, 72, 129, 229)

CHILD = r"""
import json, random, resource, sys, time
import numpy as np
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.build import build
from nonoqubo import exports
side, path, fmt = int(sys.argv[1]), sys.argv[2], sys.argv[3]
rnd = random.Random(7)
grid = np.array([[rnd.random() < 0.5 for _ in range(side)] for _ in range(side)])
puzzle = Puzzle.from_picture(grid, name=f"random-{side}x{side}-7")
rss = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
exports.get_format(fmt)  # the registry's one-off import, outside the clock
before = rss()
t0, c0 = time.perf_counter(), time.process_time()
qubo = build(puzzle)
t1, c1 = time.perf_counter(), time.process_time()
built = rss()
exports.dump(qubo, path, fmt)
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"vars": qubo.num_vars, "terms": qubo.num_terms, "build": t1 - t0, "write": t2 - t1,
                  "build_cpu": c1 - c0, "write_cpu": c2 - c1, "start_peak": before, "build_peak": built,
                  "peak": rss()}))
"""


def available_bytes() -> int:
    """MemAvailable from /proc/meminfo (0 when unknown)."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-terms", type=float, default=1.5e8, help="skip sides expected past this many terms")
    parser.add_argument("--format", default="coo", help="the export format written (default coo)")
    args = parser.parse_args()
    ext = args.format.replace("-", ".")
    print(f"### Build and write ({args.format}) against the number of terms (random, density 0.5)\n")
    rows = []
    per_term = 0.0  # peak bytes per term of the last size (for the estimate)
    with tempfile.TemporaryDirectory() as tmp:
        for side in SIDES:
            expect_terms = 3.64e6 * (side / 100) ** 4  # 3,637,870 terms at 100x100
            if expect_terms > args.max_terms:
                break
            estimate = 60e6 + per_term * expect_terms if per_term else None
            if estimate is not None:
                free = available_bytes()
                print(f"side {side}: about {expect_terms:.2g} terms, estimated peak {estimate / 2**30:.1f} GB "
                      f"({free / 2**30:.1f} GB available)", file=sys.stderr, flush=True)
                if free and estimate > 0.8 * free:
                    print(f"side {side}: skipped, the estimate exceeds the memory available", file=sys.stderr)
                    break
            path = os.path.join(tmp, f"m.{ext}")
            start = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", CHILD, str(side), path, args.format],
                                  capture_output=True, text=True, check=False)
            if proc.returncode:
                print(f"side {side}: failed: {proc.stderr.strip().splitlines()[-1:]}", file=sys.stderr)
                break
            r = json.loads(proc.stdout.strip().splitlines()[-1])
            r.update(side=side, size=os.path.getsize(path), total=time.perf_counter() - start)
            os.unlink(path)
            per_term = (r["peak"] - r["start_peak"]) / r["terms"]
            rows.append(r)
            print(f"side {side}: {r['terms']:,} terms, build {r['build']:.2f} s, write {r['write']:.2f} s, "
                  f"peak {r['peak'] / 2**30:.2f} GB", file=sys.stderr, flush=True)
    print("| side | variables | terms | build s (CPU s) | write s (CPU s) | build CPU ns/term | write CPU ns/term "
          "| write M terms/s | peak after build GB | peak after write GB | peak bytes/term | file MB |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        t = r["terms"]
        print(f"| {r['side']} | {r['vars']:,} | {t:,} | {r['build']:.3f} ({r['build_cpu']:.3f}) | "
              f"{r['write']:.3f} ({r['write_cpu']:.3f}) | {r['build_cpu'] / t * 1e9:.0f} | "
              f"{r['write_cpu'] / t * 1e9:.0f} | {t / r['write'] / 1e6:.1f} | "
              f"{r['build_peak'] / 2**30:.2f} | {r['peak'] / 2**30:.2f} | "
              f"{(r['peak'] - r['start_peak']) / t:.0f} | {r['size'] / 1e6:.0f} |")
    print()


if __name__ == "__main__":
    main()
