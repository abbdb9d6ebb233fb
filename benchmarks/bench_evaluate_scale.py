"""`evaluate` at 1,000 and 10,000 run files: time per file and peak memory, old code beside new in one run.

Run: ``python benchmarks/bench_evaluate_scale.py [--old REV] [--models 20] [--reads 20] [--sizes 1000,10000]
[--jobs 1,2] [--keep DIR]``.  Prints a markdown table, and whether old and new gave the same numbers.

The campaign is what a campaign runner writes: one SampleSet JSON per (model, setting, seed).
``nonoqubo suite --random 5x5:0.5:MODELS:1 -f bqm`` writes the models; each model is sampled once
with the library (:func:`nonoqubo.solvers.sampling.solve`, ``sa``, ``--reads`` reads, and
:func:`~nonoqubo.solvers.sampling.sampleset_document`, what ``solve -o`` writes), and that document
is written again with another seed in its run record until the campaign has *size* files
(``runs-SIZE/sa/NAME-KKKKK.json``; one setting, so ``MODELS`` groups at every size).  The number of
models, hence of groups, is the same at both sizes: only the number of files changes.

The campaign is made in a child process, so that this one stays small: Linux keeps a process's
peak RSS across ``exec``, and each measuring process starts from this one's.  Each measurement is
a fresh ``python`` process with the package of one version on ``PYTHONPATH``
(this checkout, "new", or git revision ``--old``, default ``f09390c``, the code before streaming,
unpacked with ``git archive``; nothing in the repository changes): it imports nonoqubo, then times
:func:`nonoqubo.campaign.evaluate.evaluate` alone (wall and CPU seconds; not the start-up) and
reports its peak resident memory, ``getrusage`` ``ru_maxrss``: of itself (where ``-j 1`` judges),
of its largest worker (``RUSAGE_CHILDREN``, ``-j 2``), and of itself right after the imports (the
floor every run pays).  It also prints a digest of ``records(groups)`` (every number of every
group, the run records merged), which must be the same for old and new.

The second table gives the ratios: time per file at the large size over the small (1.00: linear;
the fixed costs, reading each model once, weigh more in the small campaign, so a linear code
shows a little under 1), the milliseconds each file beyond the small campaign cost, peak RSS at
the large size over the small, and the megabytes each size added above the floor after the imports.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: what the measuring process runs: argv = code, suite, runs, jobs
CHILD = r"""
import hashlib, json, resource, sys, time
sys.path.insert(0, sys.argv[1])
from nonoqubo.campaign.evaluate import evaluate, records
floor = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # the imports' (this process is exec'ed from a small one)
wall, cpu = time.perf_counter(), time.process_time()
groups = evaluate(sys.argv[2], [sys.argv[3]], jobs=int(sys.argv[4]))
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
digest = hashlib.sha256(json.dumps(records(groups), sort_keys=True).encode()).hexdigest()[:12]
print(json.dumps({"wall": wall, "cpu": cpu, "floor_kb": floor, "groups": len(groups),
                  "files": sum(g.files for g in groups), "digest": digest,
                  "self_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                  "workers_kb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}))
"""


def old_code(rev: str, into: Path) -> Path:
    """The package as it is at git revision *rev*, unpacked into *into* (``git archive``)."""
    data = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "nonoqubo"], check=True,
                          stdout=subprocess.PIPE).stdout
    into.mkdir(parents=True, exist_ok=True)
    (into / "archive.tar").write_bytes(data)
    with tarfile.open(into / "archive.tar") as tar:
        tar.extractall(into, filter="data")
    return into


def make_campaign(folder: Path, models: int, reads: int, sizes: list[int]) -> None:
    """The suite and a runs folder per size (the module docstring); nothing is done when they exist."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    if not (folder / "suite").is_dir():
        subprocess.run([sys.executable, "-m", "nonoqubo", "suite", "--random", f"5x5:0.5:{models}:1", "-o",
                        str(folder / "suite"), "-f", "bqm", "-q", "-j", "1"], check=True, env=env)
    sys.path.insert(0, str(ROOT))
    from nonoqubo.inputs import load_model
    from nonoqubo.solvers.sampling import sampleset_document, solve

    documents = {}
    for size in sizes:
        runs = folder / f"runs-{size}" / "sa"
        if runs.is_dir():
            continue
        runs.mkdir(parents=True)
        if not documents:
            for k, path in enumerate(sorted((folder / "suite").glob("*.bqm"))):
                documents[path.name.removesuffix(".bqm")] = sampleset_document(
                    solve(load_model(str(path)), "sa", reads=reads, seed=k))
        names = sorted(documents)
        for i in range(size):
            name = names[i % len(names)]
            doc = copy.copy(documents[name])
            info = doc["info"] = dict(doc["info"])
            record = info["nonoqubo"] = dict(info["nonoqubo"])
            record["parameters"] = {**record["parameters"], "seed": 10_000 + i}
            (runs / f"{name}-{i:05d}.json").write_text(json.dumps(doc))


def measure(code: Path, folder: Path, size: int, jobs: int) -> dict:
    done = subprocess.run([sys.executable, "-c", CHILD, str(code), str(folder / "suite"), str(folder / f"runs-{size}"),
                           str(jobs)], check=True, stdout=subprocess.PIPE, text=True,
                          env=dict(os.environ, PYTHONPATH=str(code)))
    return json.loads(done.stdout.splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", default="f09390c", help="git revision of the old code (default f09390c: before streaming)")
    ap.add_argument("--models", type=int, default=20)
    ap.add_argument("--reads", type=int, default=20)
    ap.add_argument("--sizes", default="1000,10000")
    ap.add_argument("--jobs", default="1,2", help="the -j values measured (default 1,2)")
    ap.add_argument("--keep", metavar="DIR", help="make (or reuse) the campaign in DIR")
    ap.add_argument("--make", metavar="DIR", help=argparse.SUPPRESS)  # (the child that makes the campaign)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    jobs = [int(j) for j in args.jobs.split(",")]
    if args.make:
        make_campaign(Path(args.make), args.models, args.reads, sizes)
        return
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(args.keep) if args.keep else Path(tmp) / "campaign"
        folder.mkdir(parents=True, exist_ok=True)
        # made in a child: this process stays small, for Linux keeps a process's peak RSS across exec, and
        # every measuring child starts from it
        subprocess.run([sys.executable, __file__, "--make", str(folder), "--models", str(args.models), "--reads",
                        str(args.reads), "--sizes", args.sizes], check=True)
        old = old_code(args.old, Path(tmp) / "old")
        load = [os.getloadavg()[0]]
        got: dict[tuple[str, int, int], dict] = {}
        for j in jobs:
            for size in sizes:
                for label, code in (("old", old), ("new", ROOT)):
                    got[(label, j, size)] = measure(code, folder, size, j)
        load.append(os.getloadavg()[0])
    small, large = sizes[0], sizes[-1]
    print(f"evaluate of {args.models} models (5x5, {args.reads} reads a file; {args.models} groups at every size), "
          f"old = {args.old}, new = this checkout; {os.cpu_count()} CPUs, load average {load[0]:.1f} before and "
          f"{load[1]:.1f} after; time: evaluate() alone, in a fresh process; peak RSS: getrusage ru_maxrss "
          "(the process where -j 1 judges; with -j 2 the larger of the process and its largest worker)\n")
    print("| code | -j | files | wall s | CPU s (main) | ms / file (wall) | peak RSS MB | after imports MB | "
          "same numbers |\n|---|---:|---:|---:|---:|---:|---:|---:|---|")
    for j in jobs:
        for label in ("old", "new"):
            for size in sizes:
                m = got[(label, j, size)]
                peak = max(m["self_kb"], m["workers_kb"]) / 1024
                same = "yes" if m["digest"] == got[("old", j, size)]["digest"] else "NO"
                print(f"| {label} | {j} | {m['files']:,} | {m['wall']:.2f} | {m['cpu']:.2f} | "
                      f"{1000 * m['wall'] / m['files']:.3f} | {peak:.1f} | {m['floor_kb'] / 1024:.1f} | {same} |")
    print(f"\n| code | -j | ms / file at {large:,} / at {small:,} | ms a file more (from {small:,} to {large:,}) | "
          f"peak RSS at {large:,} / at {small:,} | MB above the imports at {small:,} | at {large:,} |\n"
          "|---|---:|---:|---:|---:|---:|---:|")
    for j in jobs:
        for label in ("old", "new"):
            a, b = got[(label, j, small)], got[(label, j, large)]
            pa, pb = max(a["self_kb"], a["workers_kb"]), max(b["self_kb"], b["workers_kb"])
            more = 1000 * (b["wall"] - a["wall"]) / max(1, b["files"] - a["files"])
            print(f"| {label} | {j} | {(b['wall'] / b['files']) / (a['wall'] / a['files']):.2f} | {more:.3f} | "
                  f"{pb / pa:.2f} | {(pa - a['floor_kb']) / 1024:.1f} | {(pb - b['floor_kb']) / 1024:.1f} |")


if __name__ == "__main__":
    main()
