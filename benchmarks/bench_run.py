"""``nonoqubo run PLAN`` against a shell loop of ``nonoqubo solve`` on the same tasks, side by side in one run.

Run: ``python benchmarks/bench_run.py [--models 4] [--seeds 3] [--reads 10] [--sweeps 100] [--no-dask]``.
Prints a markdown table.

``--tiny N [--old REV] [--rounds R]`` measures the overhead per task instead (issue 51): N tiny tasks (``sa``,
1 read of 10 sweeps on a 5x5 model: well under a millisecond of sampling each) run by ``run -j 2`` and on a
2-worker Dask cluster (each way run once before the clock: an existing cluster has imported nonoqubo), by this
checkout and, with ``--old REV``, by that revision of the repository (unpacked with ``git archive``; it must
have ``run --json``) side by side, the ways alternating over R rounds (default 3), medians: wall seconds and
tasks per second of N tasks; the marginal rate and CPU milliseconds per task (every process's: the command,
its workers, the cluster's and this script's, where a LocalCluster's scheduler runs) from N to 3N tasks, which
leave the fixed start-up out; the in-run rate of the 3N tasks (``run --json``'s seconds); and the share of
the workers' time inside ``execute`` (the log's task seconds); as ratios to ``-j 2`` of this checkout.
``--no-worker-profile`` turns the Dask workers' statistical profiler off (a thread sampling every 10 ms, on by
default), as the guide advises for clusters of tiny tasks.

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


def cpu_of(pids: list[int]) -> float:
    """CPU seconds so far of the processes *pids* and their children (psutil)."""
    import psutil

    total = 0.0
    for pid in pids:
        try:
            proc = psutil.Process(pid)
            for p in [proc, *proc.children(recursive=True)]:
                times = p.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return total


def timed(argv: list[str], cwd: Path, root: Path, watch: list[int]) -> tuple[float, float, dict]:
    """Wall and CPU seconds of ``nonoqubo ARGV`` (with *root* on PYTHONPATH), its children's CPU and the CPU of
    the processes *watch* (a cluster's) counted, and its ``--json`` summary (``{}`` when it gives none)."""
    import resource

    def now() -> float:  # the command's CPU, this process's (a LocalCluster's scheduler and nannies) and *watch*'s
        mine, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return mine.ru_utime + mine.ru_stime + children.ru_utime + children.ru_stime + cpu_of(watch)

    before = now()
    start = time.perf_counter()
    done = subprocess.run([*NONOQUBO, *argv], cwd=cwd, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(root)})
    wall = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)}: exit {done.returncode}\n{done.stderr}")
    cpu = now() - before
    try:
        summary = json.loads(done.stdout)
    except ValueError:
        summary = {}
    return wall, cpu, summary


def busy(log: Path) -> tuple[float, int]:
    """The seconds the workers spent inside ``execute`` (the log's ``done KEY in S s on WORKER`` lines) and how
    many workers did."""
    import re

    seconds, workers = 0.0, set()
    for line in log.read_text().splitlines():
        found = re.search(r" done \S+ in ([0-9.]+) s on (\S+):", line)
        if found:
            seconds += float(found.group(1))
            workers.add(found.group(2))
    return seconds, len(workers)


def median(values: list[float]) -> float:
    import statistics

    return statistics.median(values)


def tiny(count: int, old: str | None, rounds: int, profile: bool = True) -> None:
    """The overhead per task (the module docstring's ``--tiny``); *profile*: the Dask workers' own statistical
    profiler on (Dask's default: a thread sampling every 10 ms) or off (``--no-worker-profile``)."""
    if not profile:  # before the cluster starts: its nannies hand the setting to the worker processes
        import dask

        dask.config.set({"distributed.worker.profile.enabled": False})
    work = Path(tempfile.mkdtemp(prefix="bench-run-tiny-"))
    cluster = None
    try:
        roots = [("this checkout", ROOT)]
        if old:
            folder = work / "old"
            folder.mkdir()
            archive = subprocess.run(["git", "archive", old], cwd=ROOT, capture_output=True, check=True).stdout
            subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
            roots.append((f"`{old}`", folder))
        sh("suite", "--random", "5x5:0.5:3:7", "-o", "suite", "-f", "bqm", "-j", "1", "-q", cwd=work)
        seeds = max(1, count // 3)
        plan = {"suite": str(work / "suite"), "seeds": seeds,
                "settings": {"sa": {"sampler": "sa", "reads": 1, "sweeps": 10}}}
        from distributed import LocalCluster

        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=40)
        watch = [w.pid for w in cluster.workers.values() if getattr(w, "pid", None)]
        ways = [("-j 2", ["-j", "2"]), ("Dask, 2 workers", ["--scheduler", cluster.scheduler_address])]
        measured: dict[tuple[str, str], list[tuple]] = {}
        made = 0
        for label, root in roots:  # an existing cluster: its workers have imported nonoqubo (once in their life)
            for way, extra in ways:
                made += 1
                (work / f"{made}").mkdir()
                (work / f"{made}" / "plan.json").write_text(json.dumps({**plan, "seeds": 2}))
                timed(["run", "plan.json", "-q", *extra], work / f"{made}", root, watch)
        for turn in range(rounds):  # the ways alternate, their order turned each round: the load falls on both
            for label, root in roots:
                for way, extra in (ways if turn % 2 == 0 else ways[::-1]):
                    runs = []
                    for scale in (1, 3):  # N and 3N tasks: the difference is the rate without the fixed start-up
                        made += 1
                        folder = work / f"{made}"
                        folder.mkdir()
                        (folder / "plan.json").write_text(json.dumps({**plan, "seeds": scale * seeds}))
                        wall, cpu, summary = timed(["run", "plan.json", "-q", "--json", *extra], folder, root, watch)
                        runs.append((len(list((folder / "runs").rglob("*.json"))), wall, cpu,
                                     summary.get("seconds"), busy(folder / "runs.log")))
                    measured.setdefault((label, way), []).append(tuple(runs))
        rows = []
        for (label, way), got in measured.items():
            n1 = got[0][0][0]
            marginal = [(r3[0] - r1[0]) / (r3[1] - r1[1]) for r1, r3 in got]
            cpu = [1000 * (r3[2] - r1[2]) / (r3[0] - r1[0]) for r1, r3 in got]
            inside = [r3[0] / r3[3] if r3[3] else float("nan") for _, r3 in got]
            share = [r3[4][0] / (r3[4][1] * r3[3]) if r3[3] and r3[4][1] else float("nan") for _, r3 in got]
            rows.append((label, way, n1, median([r1[1] for r1, _ in got]), median([r1[0] / r1[1] for r1, _ in got]),
                         median(marginal), median(cpu), median(inside), median(share)))
        base = rows[0]
        print(f"{rows[0][2]} and {3 * rows[0][2]} tiny tasks (sa, 1 read of 10 sweeps, 5x5 models), {os.cpu_count()} "
              f"CPUs, load {os.getloadavg()[0]:.2f}, the median of {rounds} rounds (the ways alternating), the Dask "
              f"workers' profiler {'on' if profile else 'off'}; "
              "'marginal': the extra tasks over the extra seconds (and CPU) of the larger run, the start-up "
              "(imports, the cluster's connection) left out; 'in run': the 3N tasks over the seconds run gives in "
              "its summary (from the first task sent to the last file written); 'in execute': the share of the "
              "workers' time (workers x in-run seconds) spent inside execute, the rest is waiting and transport\n")
        print("| code | way | wall s (N) | tasks/s (N) | marginal tasks/s | marginal CPU ms per task | in-run tasks/s "
              "(3N) | in execute | marginal / this -j 2 | in-run / this -j 2 | CPU / this -j 2 |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for label, way, tasks, wall, rate, marginal, cpu, inside, share in rows:
            print(f"| {label} | `{way}` | {wall:.2f} | {rate:.1f} | {marginal:.1f} | {cpu:.1f} | {inside:.1f} | "
                  f"{share:.0%} | {marginal / base[5]:.2f} | {inside / base[7]:.2f} | {cpu / base[6]:.2f} |")
    finally:
        if cluster is not None:
            cluster.close()
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiny", type=int, default=0, metavar="N", help="measure the overhead per task on N tiny tasks")
    ap.add_argument("--old", metavar="REV", help="with --tiny: that revision beside this checkout")
    ap.add_argument("--rounds", type=int, default=3, help="with --tiny: rounds of every way, their medians shown")
    ap.add_argument("--no-worker-profile", action="store_true",
                    help="with --tiny: the Dask workers' statistical profiler off (distributed.worker.profile.enabled)")
    ap.add_argument("--models", type=int, default=4)
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--reads", type=int, default=10)
    ap.add_argument("--sweeps", type=int, default=100)
    ap.add_argument("--no-dask", action="store_true")
    args = ap.parse_args()
    if args.tiny:
        tiny(args.tiny, args.old, args.rounds, not args.no_worker_profile)
        return
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
