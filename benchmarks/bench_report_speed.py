"""`nonoqubo evaluate --report --figures` on a campaign of ~54 run files, old code beside new in one run.

Run: ``python benchmarks/bench_report_speed.py [--old REV] [--rounds 2] [--keep DIR] [--profile]``.
Prints a markdown table of seconds per round and the ratio old / new.

The campaign is made the way a user makes one, with the command line: ``nonoqubo suite``
writes random 6x6, 8x8 and 10x10 families (``--models`` puzzles in all), and ``nonoqubo solve
-q -o`` samples every model with each of ``--samplers`` (default ``sa`` and ``tabu`` at 20
reads, and ``sa`` at 50 reads), so 18 models x 3 settings = 54 run files in
``runs/SETTING/NAME.json``.  Then ``nonoqubo evaluate suite runs --report r.html --figures figs
-q`` is timed at ``-j 1`` and at ``-j --jobs`` (default: the CPU count, what a user gets), in a
fresh process each round, with the code of this checkout ("new") and with the code of git
revision ``--old`` ("old", default ``2fbb682``, the code before issue 30 item 9's work,
unpacked with ``git archive`` into a temporary folder; nothing in the repository is changed),
alternately; wall-clock and CPU seconds, and the machine's load average before and after.

``--profile`` also prints the 25 costliest functions (cProfile, cumulative) of one "new" run.
``--keep DIR`` makes the campaign in DIR (kept, and reused when it is already there).
"""

from __future__ import annotations

import argparse
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def nonoqubo(code: Path, *args: str, cwd: Path) -> tuple[float, float]:
    """Run ``python -m nonoqubo ARGS`` with the package at *code*: (wall seconds, CPU seconds of it and its workers)."""
    env = dict(os.environ, PYTHONPATH=str(code))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "nonoqubo", *args], cwd=cwd, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def make_campaign(folder: Path, models: int, settings: list[tuple[str, str, int]]) -> None:
    """The suite and the run files (see the module docstring); nothing is done when they exist."""
    if (folder / "runs").is_dir():
        return
    third = models // 3
    counts = [third, third, models - 2 * third]
    families = [f"{n}x{n}:0.5:{c}:1" for n, c in zip((6, 8, 10), counts)]
    args = ["suite", *[a for f in families for a in ("--random", f)], "-o", "suite", "-q", "-j", "1"]
    nonoqubo(ROOT, *args, cwd=folder)
    names = sorted(p.name for p in (folder / "suite").glob("*.qubo.json"))
    for name, sampler, reads in settings:
        out = folder / "runs" / name
        out.mkdir(parents=True)
        for k, model in enumerate(names):
            stem = model.removesuffix(".qubo.json")
            code = subprocess.run([sys.executable, "-m", "nonoqubo", "solve", f"suite/{model}", "--sampler", sampler,
                                   "--reads", str(reads), "--seed", str(k), "-q", "-o", f"runs/{name}/{stem}.json"],
                                  cwd=folder, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                  stdout=subprocess.DEVNULL).returncode
            if code not in (0, 1):  # 1: no valid sample, still a run
                raise SystemExit(f"solve {model} with {sampler} failed ({code})")


def old_code(rev: str, into: Path) -> Path:
    """The package as it is at git revision *rev*, unpacked into *into* (``git archive``)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "nonoqubo"], check=True,
                          stdout=subprocess.PIPE).stdout
    into.mkdir(parents=True, exist_ok=True)
    tmp = into / "archive.tar"
    tmp.write_bytes(data)
    with tarfile.open(tmp) as tar:
        tar.extractall(into, filter="data")
    return into


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="2fbb682", help="git revision of the old code (default 2fbb682: before the speed-up)")
    ap.add_argument("--models", type=int, default=18)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", default=str(os.cpu_count() or 1), help="the -j of the second pair of runs (default: CPUs)")
    ap.add_argument("--keep", metavar="DIR", help="make (or reuse) the campaign in DIR")
    ap.add_argument("--profile", action="store_true", help="also profile one new run (cProfile)")
    args = ap.parse_args()
    settings = [("sa-20", "sa", 20), ("tabu-20", "tabu", 20), ("sa-50", "sa", 50)]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp) / "campaign"
        folder.mkdir(parents=True, exist_ok=True)
        make_campaign(folder, args.models, settings)
        files = sum(1 for _ in (folder / "runs").rglob("*.json"))
        old = old_code(args.old, Path(tmp) / "old")
        command = ["evaluate", "suite", "runs", "--report", "r.html", "--figures", "figs", "-q"]
        runs = [("old", old, "1"), ("new", ROOT, "1"), ("old", old, args.jobs), ("new", ROOT, args.jobs)]
        times: dict[tuple[str, str], list[tuple[float, float]]] = {}
        load = [os.getloadavg()[0]]  # the 1-minute load average: other jobs on the machine inflate the wall clock
        for _ in range(args.rounds):
            for label, code, jobs in runs:
                shutil.rmtree(folder / "figs", ignore_errors=True)
                times.setdefault((label, jobs), []).append(nonoqubo(code, *command, "-j", jobs, cwd=folder))
        load.append(os.getloadavg()[0])
        command += ["-j", "1"]
        if args.profile:
            stats = Path(tmp) / "profile.out"
            env = dict(os.environ, PYTHONPATH=str(ROOT))
            shutil.rmtree(folder / "figs", ignore_errors=True)
            subprocess.run([sys.executable, "-m", "cProfile", "-o", str(stats), "-m", "nonoqubo", *command],
                           cwd=folder, env=env, check=True, stdout=subprocess.DEVNULL)
            pstats.Stats(str(stats)).sort_stats("cumulative").print_stats(25)
    print(f"{files} run files ({args.models} models x {len(settings)} settings), evaluate --report --figures, "
          f"best of {args.rounds} rounds, old = {args.old}; CPU: the command's and its workers' user + system "
          f"seconds (steadier than the wall clock on a shared machine); {os.cpu_count()} CPUs, load average "
          f"{load[0]:.1f} before the rounds and {load[1]:.1f} after\n")
    print("| -j | old wall s | new wall s | old / new (wall) | old CPU s | new CPU s | old / new (CPU) |\n"
          "|---:|---:|---:|---:|---:|---:|---:|")
    for jobs in dict.fromkeys(("1", args.jobs)):
        o, n = times[("old", jobs)], times[("new", jobs)]
        ow, nw = min(t[0] for t in o), min(t[0] for t in n)
        oc, nc = min(t[1] for t in o), min(t[1] for t in n)
        print(f"| {jobs} | {ow:.1f} | {nw:.1f} | {ow / nw:.2f}x | {oc:.1f} | {nc:.1f} | {oc / nc:.2f}x |")


if __name__ == "__main__":
    main()
