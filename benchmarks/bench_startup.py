"""Start-up: nonoqubo's light commands against the imports every run pays, side by side in one run.

Run from the repository root::

    python benchmarks/bench_startup.py              # 15 rounds
    python benchmarks/bench_startup.py --rounds 31
    python benchmarks/bench_startup.py --against ../main   # also --version of another working tree

Each case is a fresh interpreter, timed from the outside (wall clock of the whole process, as a
user's shell sees it):

* *baseline*: ``python -c "import numpy, dimod, yaml"``, the three libraries every command needs;
* ``nonoqubo --version``, ``nonoqubo --help`` and ``nonoqubo info examples/qbpp-logo.yaml``
  (``python -m nonoqubo ...``, the working tree first on ``PYTHONPATH``);
* with ``--against TREE``: ``nonoqubo --version`` of another working tree (run from it), the
  before of a change in the same run.

The cases alternate round by round, so a shared machine's load falls on all alike.  Prints a
markdown table: the median and the fastest of each case, the median over the baseline's and the
modules the case imports (counted in one more run of its own: every module in ``sys.modules``,
and nonoqubo's); then the line issue 40 asks for, ``--version`` against the baseline as a ratio
of the medians.  ``tests/test_docs_startup.py`` checks which modules these commands import; this
measures what they cost.
"""

from __future__ import annotations

import argparse
import json
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


def run_once(cmd: list[str], tree: Path = ROOT) -> float:
    """Seconds for one fresh process running *cmd* in *tree* (its output discarded; a failure stops the benchmark)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t0


#: run a case's command in-process, then print what it imported (one JSON line)
COUNT = r"""
import json, runpy, sys
sys.argv = sys.argv[1:]
try:
    if sys.argv[0] == "-c":
        exec(sys.argv[1])
    else:
        sys.argv = ["nonoqubo"] + sys.argv[2:]
        runpy.run_module("nonoqubo", run_name="__main__", alter_sys=True)
except SystemExit:
    pass
sys.stdout = sys.__stdout__
print("@@" + json.dumps([len(sys.modules), sum(m.split(".")[0] == "nonoqubo" for m in sys.modules)]))
"""


def modules_of(cmd: list[str], tree: Path = ROOT) -> tuple[int, int]:
    """``(modules, nonoqubo's modules)`` in ``sys.modules`` after *cmd* (``python -c ...`` or ``python -m nonoqubo ...``)."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([cmd[0], "-c", COUNT, *cmd[1:]], cwd=tree, env=env, capture_output=True, text=True,
                         check=True).stdout
    total, ours = json.loads(out.rsplit("@@", 1)[1])
    return total, ours


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=15, help="rounds of every case (default 15)")
    parser.add_argument("--against", type=Path, metavar="TREE",
                        help="also time 'nonoqubo --version' of this working tree (e.g. main before a change)")
    args = parser.parse_args(argv)
    cases = {name: (cmd, ROOT) for name, cmd in CASES.items()}
    if args.against is not None:
        cases[f"nonoqubo --version ({args.against})"] = (CASES["nonoqubo --version"], args.against.resolve())
    times: dict[str, list[float]] = {name: [] for name in cases}
    for name, (cmd, tree) in cases.items():  # warm the file cache once
        run_once(cmd, tree)
    for _ in range(args.rounds):
        for name, (cmd, tree) in cases.items():
            times[name].append(run_once(cmd, tree))
    base = statistics.median(next(iter(times.values())))
    print(f"{args.rounds} rounds, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs\n")
    print("| command | median s | fastest s | median / baseline | modules (nonoqubo's) |")
    print("|---|---:|---:|---:|---:|")
    for name, ts in times.items():
        med = statistics.median(ts)
        total, ours = modules_of(*cases[name])
        print(f"| `{name}` | {med:.3f} | {min(ts):.3f} | {med / base:.2f} | {total} ({ours}) |")
    version = statistics.median(times["nonoqubo --version"])
    print(f"\n`nonoqubo --version` / `python -c \"import numpy, dimod, yaml\"`: {version / base:.2f} "
          f"(medians, {version:.3f} s / {base:.3f} s; issue 40 asks for at most 1.10)")


if __name__ == "__main__":
    main()
