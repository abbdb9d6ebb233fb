"""Export speed: every QUBO format (text, and binary: bqm, npz, ommx) on a random 100x100 puzzle,
beside dimod's writers, numpy.savetxt and cp.

Run ``python benchmarks/bench_exports.py`` (``--no-cauldron`` skips the 512x512 case,
``--repeat N`` takes the best of N runs, ``--dimod-cauldron`` also times dimod's
``to_file`` on the cauldron: minutes and several GB).  Prints markdown tables:

1. the random 100x100 puzzle (density 0.5, seed 7, built with nonoqubo.model.build, about
   3.6 million terms) written in every format, in terms per second: wall clock, and
   this process's CPU time (all threads), which other jobs on a shared machine
   disturb less.  In the same run: dimod's ``dimod.serialization.coo.dump`` and
   ``numpy.savetxt(fmt="%d")`` of the same ``i j bias`` triples; dimod's
   ``BinaryQuadraticModel.to_file`` (the BQM already built, its spooled file copied
   to disk as a user must) and the whole dimod route ``from_numpy_vectors`` +
   ``to_file``.  dimod's COO writer visits every pair of variables (O(n^2)) and does
   not finish in minutes there, so it runs in a child with a time limit, and a
   20x20 puzzle is timed too;
2. the cauldron (``tests/data/puzzles/json/dejoue-cauldron.json``, 48 M terms) built
   and written as ``.coo`` and ``.bqm``, one subprocess per case, with its peak
   resident memory (``ru_maxrss`` of the child itself), and ``cp`` of the written
   file on the same disk, timed in the same run.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# measure this checkout's nonoqubo, here and in the children, not another installed one
sys.path.insert(0, str(ROOT))
os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
CAULDRON = ROOT / "tests" / "data" / "puzzles" / "json" / "dejoue-cauldron.json"


def random_puzzle(size: int = 100, density: float = 0.5, seed: int = 7):
    """The random grid of bench_build.py: Python's random.Random(seed), row by row.

    At 100x100 it has exactly 126,878 variables and 3,637,870 terms.
    """
    import random

    from nonoqubo.model.puzzle import Puzzle

    rnd = random.Random(seed)
    grid = np.array([[rnd.random() < density for _ in range(size)] for _ in range(size)])
    return Puzzle.from_picture(grid, name=f"random-{size}x{size}-{seed}")


def best_of(repeat: int, fn, output: str | None = None) -> tuple[float, float]:
    """The best wall-clock and the best CPU seconds (this process, all threads) of *repeat* runs.

    *output*, the file each run writes, is removed before each run, untimed: replacing
    a file of 100 MB frees its pages in the kernel (about 40 ms here), which is not
    the writer's work.
    """
    wall, cpu = [], []
    for _ in range(repeat):
        if output is not None and os.path.exists(output):
            os.unlink(output)
        start, start_cpu = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return min(wall), min(cpu)


def save_arrays(qubo, path: str) -> None:
    """The model's arrays and labels for a peer's child process."""
    np.savez(path, linear=qubo.linear, row=qubo.row, col=qubo.col, quad=qubo.quad,
             labels=np.array([str(x) for x in qubo.labels]))


DIMOD_COO_CHILD = r"""
import sys, time, numpy as np, dimod
from dimod.serialization import coo
a = np.load(sys.argv[1])
bqm = dimod.BinaryQuadraticModel.from_numpy_vectors(a["linear"], (a["row"], a["col"], a["quad"]), 0, "BINARY")
t = time.perf_counter()
with open(sys.argv[2], "w") as fh:
    coo.dump(bqm, fh)
print(time.perf_counter() - t)
"""

DIMOD_FILE_CHILD = r"""
import os, shutil, sys, time, numpy as np, dimod
a = np.load(sys.argv[1])
builds, writes = [], []
for _ in range(int(sys.argv[3])):  # best of N, the output removed before each run, as for nonoqubo
    if os.path.exists(sys.argv[2]):
        os.unlink(sys.argv[2])
    t0 = time.perf_counter()
    bqm = dimod.BinaryQuadraticModel.from_numpy_vectors(a["linear"], (a["row"], a["col"], a["quad"]), 0, "BINARY",
                                                        variable_order=a["labels"].tolist())
    t1 = time.perf_counter()
    spooled = bqm.to_file()
    with open(sys.argv[2], "wb") as fh:
        shutil.copyfileobj(spooled, fh, 1 << 22)
    t2 = time.perf_counter()
    builds.append(t1 - t0)
    writes.append(t2 - t1)
    del bqm, spooled
print(min(builds), min(writes))
"""


def dimod_coo_dump(qubo, path: str, timeout: float) -> float | None:
    """Seconds dimod's coo.dump takes on *qubo* (index labels), or None past *timeout*."""
    arrays = path + ".npz"
    save_arrays(qubo, arrays)
    try:
        proc = subprocess.run([sys.executable, "-c", DIMOD_COO_CHILD, arrays, path], capture_output=True,
                              text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    finally:
        os.unlink(arrays)
    return float(proc.stdout.strip().splitlines()[-1])


def dimod_to_file(arrays: str, path: str, repeat: int = 1) -> tuple[float, float] | None:
    """``(from_numpy_vectors s, to_file + copy to disk s)`` of the saved *arrays*, in a child,
    each the best of *repeat* runs."""
    proc = subprocess.run([sys.executable, "-c", DIMOD_FILE_CHILD, arrays, path, str(repeat)], capture_output=True,
                          text=True, check=False)
    if proc.returncode:
        return None
    build, write = (float(x) for x in proc.stdout.split())
    return build, write


def bench_random(repeat: int, dimod_timeout: float, size: int = 100) -> None:
    from nonoqubo import exports
    from nonoqubo.model.build import build

    puzzle = random_puzzle(size)
    start = time.perf_counter()
    qubo = build(puzzle)
    built = time.perf_counter() - start
    terms = qubo.num_terms
    print(f"### Random {size}x{size} (density 0.5, seed 7): {qubo.num_vars:,} variables, {terms:,} terms, "
          f"built in {built:.2f} s\n")
    print("| writer | seconds | terms/s | CPU s | terms/CPU s | file MB |")
    print("|---|---:|---:|---:|---:|---:|")
    rows: list[tuple[str, float | None, float | None, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for mod in exports.formats("qubo"):
            path = os.path.join(tmp, "m." + mod.EXTENSIONS[0])
            secs, cpu = best_of(repeat, lambda: exports.dump(qubo, path, mod.NAME), output=path)
            rows.append((f"nonoqubo {mod.NAME}{' (binary)' if mod.BINARY else ''}", secs, cpu, os.path.getsize(path)))
            os.unlink(path)
        # peers, same run: dimod's BQM file (to_file of a built BQM; the whole route)
        arrays, path = os.path.join(tmp, "m.npz"), os.path.join(tmp, "dimod.bqm")
        save_arrays(qubo, arrays)
        result = dimod_to_file(arrays, path, repeat)
        if result is not None:
            size_bqm = os.path.getsize(path)
            rows.append(("dimod BQM.to_file + copy to disk (BQM already built; best of each step)", result[1], None,
                         size_bqm))
            rows.append(("dimod from_numpy_vectors + to_file + copy", sum(result), None, size_bqm))
        # dimod's COO writer (in a child with a time limit: it walks every pair of variables,
        # O(n^2), hours for 130k variables) and numpy.savetxt of the same triples
        path = os.path.join(tmp, "dimod.coo")
        secs = dimod_coo_dump(qubo, path, dimod_timeout)
        if secs is None:
            rows.append((f"dimod.serialization.coo.dump (stopped after {dimod_timeout:.0f} s)", None, None, 0))
        else:
            rows.append(("dimod.serialization.coo.dump", secs, None, os.path.getsize(path)))
        d = np.flatnonzero(qubo.linear)
        triples = np.column_stack([np.concatenate((d, qubo.row)), np.concatenate((d, qubo.col)),
                                   np.concatenate((qubo.linear[d], qubo.quad))])
        path = os.path.join(tmp, "savetxt.txt")
        secs, cpu = best_of(min(repeat, 2), lambda: np.savetxt(path, triples, fmt="%d"), output=path)
        rows.append(('numpy.savetxt(fmt="%d")', secs, cpu, os.path.getsize(path)))
    for name, secs, cpu, nbytes in rows:
        cpu_cells = "- | -" if cpu is None else f"{cpu:.2f} | {terms / cpu / 1e6:.1f} M"
        if secs is None:
            print(f"| {name} | > {dimod_timeout:.0f} | < {terms / dimod_timeout / 1e6:.2f} M | - | - | - |")
        else:
            print(f"| {name} | {secs:.3f} | {terms / secs / 1e6:.1f} M | {cpu_cells} | {nbytes / 1e6:.1f} |")
    print()


CHILD = r"""
import json, resource, sys, time
from nonoqubo.clues import spec
from nonoqubo.model.build import build
from nonoqubo import exports
t0 = time.perf_counter()
puzzle = spec.from_dict(json.load(open(sys.argv[1])), source=sys.argv[1])
qubo = build(puzzle)
t1 = time.perf_counter()
built_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
c1 = time.process_time()
exports.dump(qubo, sys.argv[2])
t2 = time.perf_counter()
c2 = time.process_time()
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
if len(sys.argv) > 3:  # the arrays for dimod's child, after the timings
    import numpy as np
    np.savez(sys.argv[3], linear=qubo.linear, row=qubo.row, col=qubo.col, quad=qubo.quad,
             labels=np.array([str(x) for x in qubo.labels]))
print(json.dumps({"terms": qubo.num_terms, "build": t1 - t0, "write": t2 - t1, "write_cpu": c2 - c1, "built_peak": built_peak,
                  "peak": peak}))
"""


def timed_cp(path: str) -> float:
    """Seconds ``cp`` takes to copy *path* beside itself (the copy is removed); dirty pages are
    flushed first, so that neither timing pays for the other's writeback."""
    copy = path + ".cp"
    os.sync()
    start = time.perf_counter()
    subprocess.run(["cp", path, copy], check=True)
    secs = time.perf_counter() - start
    os.unlink(copy)
    return secs


def bench_cauldron(with_dimod: bool, rounds: int = 3) -> None:
    """The cauldron built and written by a child, then ``cp`` of the written file, *rounds* times
    per format (dirty pages flushed before each timed step): the disk's writeback moves both
    figures by a factor of 2 to 5 from one minute to the next here, so the medians are compared."""
    if not CAULDRON.exists():
        print(f"(cauldron skipped: {CAULDRON} not found)")
        return
    print(f"### Cauldron 512x512 (one subprocess per write; median of {rounds} rounds; peak RSS of the child)\n")
    print("| writer | terms | build s | write s (each round) | write CPU s | write terms/s | file MB "
          "| cp of the file s (each round) | write / cp (medians) | peak RSS GB (after build) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as tmp:
        for ext in ("coo", "bqm"):
            path = os.path.join(tmp, f"cauldron.{ext}")
            arrays = os.path.join(tmp, "cauldron.npz")
            runs, cps = [], []
            for k in range(rounds):
                extra = [arrays] if (with_dimod and ext == "bqm" and k == rounds - 1) else []
                os.sync()
                proc = subprocess.run([sys.executable, "-c", CHILD, str(CAULDRON), path, *extra],
                                      capture_output=True, text=True, check=False)
                if proc.returncode:
                    print(f"| {ext} | failed: {proc.stderr.strip().splitlines()[-1] if proc.stderr else proc.returncode} |")
                    break
                runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
                size = os.path.getsize(path)
                cps.append(timed_cp(path))
                os.unlink(path)
            if not runs:
                continue
            writes = [r["write"] for r in runs]
            write, cp = statistics.median(writes), statistics.median(cps)
            r = runs[-1]
            print(f"| nonoqubo {ext} | {r['terms']:,} | {statistics.median(x['build'] for x in runs):.1f} | {write:.2f} "
                  f"({', '.join(f'{x:.2f}' for x in writes)}) | {statistics.median(x['write_cpu'] for x in runs):.2f} | "
                  f"{r['terms'] / write / 1e6:.1f} M | {size / 1e6:.0f} | "
                  f"{cp:.2f} ({', '.join(f'{x:.2f}' for x in cps)}) | {write / cp:.1f}x | "
                  f"{max(x['peak'] for x in runs) / 2**30:.2f} ({max(x['built_peak'] for x in runs) / 2**30:.2f}) |")
            if with_dimod and ext == "bqm":
                result = dimod_to_file(arrays, path)
                if result is not None:
                    print(f"| dimod to_file + copy (from_numpy_vectors {result[0]:.1f} s before) | {r['terms']:,} | | "
                          f"{result[1]:.2f} | | {r['terms'] / result[1] / 1e6:.1f} M | {os.path.getsize(path) / 1e6:.0f} "
                          "| | | |")
                    os.unlink(path)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--no-cauldron", action="store_true", help="skip the 512x512 cauldron")
    parser.add_argument("--repeat", type=int, default=3, help="best of N runs for the random puzzle")
    parser.add_argument("--dimod-timeout", type=float, default=60.0, help="stop dimod's coo.dump after this")
    parser.add_argument("--dimod-cauldron", action="store_true", help="also time dimod's to_file on the cauldron")
    args = parser.parse_args()
    bench_random(args.repeat, args.dimod_timeout)
    bench_random(args.repeat, args.dimod_timeout, size=20)  # small enough for dimod's writer
    if not args.no_cauldron:
        bench_cauldron(args.dimod_cauldron)


if __name__ == "__main__":
    main()
