"""`nonoqubo suite` speed: every shared puzzle, and a 1,000-puzzle generated family, in N formats.

Run: ``python benchmarks/bench_suite.py [--formats qbsolv,bqm,coo,qubo-json] [--family 10x10,15x15,20x20,25x25:0.5:250:1]``.
Prints a markdown table: puzzles, files and megabytes written, wall seconds and
puzzles per second with 1 and 2 worker processes, and a resume run (nothing to
rebuild: every file is hashed against the index).

Each run writes into a fresh temporary folder.  The shared collection
(``tests/data/puzzles/json``, 55 puzzles from 5x5 to the 512x512 cauldron) is
dominated by its largest puzzles; ``--skip-over N`` leaves out puzzles of more
than N cells (the cauldron has 262,144) for a second row.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.generation.families import parse_family  # noqa: E402
from nonoqubo.campaign.suite import run_suite  # noqa: E402

SHARED = ROOT / "tests" / "data" / "puzzles" / "json"


def one(label: str, inputs, families, formats, jobs: int, resume: bool = False) -> tuple:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "suite"
        if resume:
            run_suite(inputs, out, formats=formats, families=families, jobs=jobs)
        t = time.perf_counter()
        res = run_suite(inputs, out, formats=formats, families=families, jobs=jobs)
        wall = time.perf_counter() - t
        files = sum(len(e.get("files", [])) for e in res.entries)
        size = sum(f["bytes"] for e in res.entries for f in e.get("files", []))
        assert res.failed == 0, [e.get("error") for e in res.entries if e.get("status") != "ok"]
    return (label, jobs, len(res.entries), files, size / 1e6, wall, res.skipped)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--formats", default="qbsolv,bqm,coo,qubo-json")
    parser.add_argument("--family", default="10x10,15x15,20x20,25x25:0.5:250:1")
    parser.add_argument("--skip-over", type=int, default=100_000, help="cells; second shared row without larger puzzles")
    args = parser.parse_args()
    formats = args.formats.split(",")
    everything = [str(p) for p in sorted(SHARED.glob("*.json"))]
    small = []
    for p in everything:
        doc = json.loads(Path(p).read_text())
        if doc["width"] * doc["height"] <= args.skip_over:
            small.append(p)
    fam = [parse_family(args.family)]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:  # the small shared puzzles in a folder of their own
        folder = Path(tmp) / "small"
        folder.mkdir()
        for p in small:
            shutil.copy(p, folder)
        for jobs in (1, 2):
            rows.append(one(f"shared puzzles (all {len(everything)})", [str(SHARED)], [], formats, jobs))
            rows.append(one(f"shared puzzles of <= {args.skip_over:,} cells", [str(folder)], [], formats, jobs))
            rows.append(one(f"generated family {args.family}", [], fam, formats, jobs))
        rows.append(one(f"generated family {args.family}, resume (all up to date)", [], fam, formats, 2, True))
    print(f"## suite: formats {', '.join(formats)}\n")
    print("| suite | processes | puzzles | files | MB | wall s | puzzles/s |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for label, jobs, n, files, mb, wall, _ in rows:
        print(f"| {label} | {jobs} | {n:,} | {files:,} | {mb:,.0f} | {wall:.1f} | {n / wall:,.1f} |")


if __name__ == "__main__":
    main()
