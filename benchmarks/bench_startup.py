"""Start-up: nonoqubo's light commands against the imports every run pays, side by side in one run.

Run from the repository root::

    python benchmarks/bench_startup.py              # 15 rounds
    python benchmarks/bench_startup.py --rounds 31

Each case is a fresh interpreter, timed from the outside (wall clock of the whole process, as a
user's shell sees it):

* *baseline*: ``python -c "import numpy, dimod, yaml"``, the three libraries every command needs;
* ``nonoqubo --version``, ``nonoqubo --help`` and ``nonoqubo info examples/qbpp-logo.yaml``
  (``python -m nonoqubo ...``, the working tree first on ``PYTHONPATH``).

The cases alternate round by round, so a shared machine's load falls on all alike.  Prints a
markdown table: the median and the fastest of each case, and the median over the baseline's.
``tests/test_docs_startup.py`` checks which modules these commands import; this measures what
they cost.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = {
    'python -c "import numpy, dimod, yaml"': [sys.executable, "-c", "import numpy, dimod, yaml"],
    "nonoqubo --version": [sys.executable, "-m", "nonoqubo", "--version"],
    "nonoqubo --help": [sys.executable, "-m", "nonoqubo", "--help"],
    "nonoqubo info examples/qbpp-logo.yaml": [sys.executable, "-m", "nonoqubo", "info", "examples/qbpp-logo.yaml"],
}


def run_once(cmd: list[str]) -> float:
    """Seconds for one fresh process running *cmd* (its output discarded; a failure stops the benchmark)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of every case (default 15)")
    args = parser.parse_args(argv)
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for name, cmd in CASES.items():  # warm the file cache once
        run_once(cmd)
    for _ in range(args.rounds):
        for name, cmd in CASES.items():
            times[name].append(run_once(cmd))
    base = statistics.median(next(iter(times.values())))
    print(f"{args.rounds} rounds, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    print("| command | median s | fastest s | median / baseline |")
    print("|---|---:|---:|---:|")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"| `{name}` | {med:.3f} | {min(ts):.3f} | {med / base:.2f} |")


if __name__ == "__main__":
    main()
