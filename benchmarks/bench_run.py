"""``nonoqubo run PLAN`` against a shell loop of ``nonoqubo solve`` on the same tasks, side by side in one run.

Run: ``python benchmarks/bench_run.py [--models 4] [--seeds 3] [--reads 10] [--sweeps 100] [--no-dask]``.
Prints a markdown table.

One suite of random 6x6 puzzles (``--models``), one plan of two ``sa`` settings (``--sweeps`` and ten
times it) and one ``tabu`` setting at ``--seeds`` seeds: models x 3 x seeds tasks, each a few
milliseconds of sampling.  The same tasks are run five ways, each into a fresh runs folder:

* *loop*: one ``nonoqubo solve MODEL ... --seed S -o FILE`` process per task, one after the other (what
  a campaign was before ``run``);
* ``run -j 1``: one process, the tasks in it;
* ``run -j 2``: two local worker processes;
* ``run --scheduler``: a Dask cluster of two single-threaded workers (``distributed.LocalCluster``,
  started before the clock starts: an existing cluster), the client's connection counted;
* (``run -j 2`` once more on the finished folder: the resume, every task done.)

Every way writes the same run files: the samples of every ``sa`` task are compared with the loop's
(``tabu`` is time-limited, so its samples depend on the machine's speed).  Wall seconds of the whole
command, and the ratio to the loop; the overhead per task is (wall - the tasks' own seconds) / tasks.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NONOQUBO = [sys.executable, "-m", "nonoqubo"]


def sh(*argv: str, cwd: Path) -> float:
    start = time.perf_counter()
    done = subprocess.run([*NONOQUBO, *argv], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr}")
    return time.perf_counter() - start


def samples(path: Path) -> list:
    return json.loads(path.read_text())["sample_data"]["data"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reads", type=int, default=10)
    ap.add_argument("--sweeps", type=int, default=100)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="bench-run-"))
    try:
        sh("suite", "--random", f"6x6:0.5:{args.models}:1", "-o", "suite", "-f", "bqm", "-j", "1", "-q", cwd=work)
        settings = {"sa-a": ["--sweeps", str(args.sweeps), "--reads", str(args.reads)],
                    "sa-b": ["--sweeps", str(10 * args.sweeps), "--reads", str(args.reads)],
                    "tabu": ["--sampler", "tabu", "--reads", str(args.reads), "--time-limit", "0.002"]}
        plan = {"suite": "suite", "seeds": args.seeds, "settings": {
            "sa-a": {"sampler": "sa", "reads": args.reads, "sweeps": args.sweeps},
            "sa-b": {"sampler": "sa", "reads": args.reads, "sweeps": 10 * args.sweeps},
            "tabu": {"sampler": "tabu", "reads": args.reads, "time-limit": 0.002}}}
        names = sorted(p.name[:-4] for p in (work / "suite").glob("*.bqm"))
        tasks = len(names) * len(settings) * args.seeds
        rows: list[tuple[str, float]] = []

        start = time.perf_counter()
        for name in names:
            for setting, options in settings.items():
                for seed in range(1, args.seeds + 1):
                    out = work / "loop" / setting / f"{name}.seed{seed}.json"
                    out.parent.mkdir(parents=True, exist_ok=True)
                    sh("solve", f"suite/{name}.bqm", *options, "--seed", str(seed), "-q", "-o", str(out), cwd=work)
        rows.append(("loop of `solve`", time.perf_counter() - start))

        ways = [("`run -j 1`", "j1", ["-j", "1"]), ("`run -j 2`", "j2", ["-j", "2"])]
        cluster = None
        if not args.no_dask:
            from distributed import LocalCluster

            cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=40)
            ways.append(("`run --scheduler` (Dask, 2 workers)", "dask", ["--scheduler", cluster.scheduler_address]))
        for label, name, extra in ways:
            folder = work / name
            folder.mkdir()
            (folder / "plan.json").write_text(json.dumps({**plan, "suite": str(work / "suite")}))
            rows.append((label, sh("run", "plan.json", "-q", *extra, cwd=folder)))
            for path in (work / "loop").rglob("sa-*/*.json"):
                mine = folder / "runs" / path.relative_to(work / "loop")
                assert samples(mine) == samples(path), f"{mine} differs from the loop's {path}"
        rows.append(("`run -j 2`, resumed (all done)", sh("run", "plan.json", "-q", "-j", "2", cwd=work / "j2")))
        if cluster is not None:
            cluster.close()
        loop = rows[0][1]
        print(f"{tasks} tasks ({len(names)} models x {len(settings)} settings x {args.seeds} seeds; sa {args.reads} "
              f"reads of {args.sweeps} and {10 * args.sweeps} sweeps, tabu {args.reads} reads of 2 ms), "
              f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}\n")
        print("| way | wall s | per task s | / loop |")
        print("|---|---:|---:|---:|")
        for label, seconds in rows:
            print(f"| {label} | {seconds:.2f} | {seconds / tasks:.3f} | {seconds / loop:.3f} |")
        print("\nevery sa run file of each way has the loop's samples (compared above)")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
