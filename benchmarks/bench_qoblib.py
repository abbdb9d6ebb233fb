"""`suite --layout qoblib` beside a plain `suite -f qs -f lp` of the same puzzles, in one run.

Run: ``python benchmarks/bench_qoblib.py [--family 10x10,20x20,30x30:0.5:10:1] [--rounds 3]``.
Prints a markdown table: per layout the best wall seconds of ``--rounds`` runs (one worker
process each, a fresh temporary folder each) and the ratio qoblib / plain.  The QOBLIB layout
does more: it writes the instances, reads every ``.qs`` text back for its metrics, finds a
solution (given, line logic or CP-SAT) and writes the READMEs; ``xz`` adds the compression.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.generation.families import parse_family  # noqa: E402
from nonoqubo.campaign.qoblib import write_class  # noqa: E402
from nonoqubo.campaign.suite import run_suite  # noqa: E402


def best(run, rounds: int) -> float:
    times = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory() as tmp:
            start = time.perf_counter()
            run(Path(tmp) / "out")
            times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--family", default="10x10,20x20,30x30:0.5:10:1")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fam = [parse_family(args.family)]
    plain = best(lambda out: run_suite([], out, formats=["qs", "lp"], families=fam, jobs=1), args.rounds)
    rows = [("suite -f qs -f lp (plain)", plain)]
    for compress in ("none", "xz"):
        rows.append((f"suite --layout qoblib --compress {compress}",
                     best(lambda out, c=compress: write_class([], out, families=fam, compress=c), args.rounds)))
    print(f"family {args.family}, best of {args.rounds}, one worker\n")
    print("| run | seconds | ratio to plain |\n| --- | ---: | ---: |")
    for label, seconds in rows:
        print(f"| {label} | {seconds:.2f} | {seconds / plain:.2f} |")


if __name__ == "__main__":
    main()
