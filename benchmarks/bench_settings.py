"""What grouping by run record costs ``evaluate``: the record read the old way and the new way, beside a whole judge.

Run: ``python benchmarks/bench_settings.py [--reads 1000] [--repeat 5]``.  Prints a markdown table.

One ``solve -o`` file of the Gecode castle's model (a SampleSet with its run record), side by side
in one run:

* *record, before*: the first ``"nonoqubo": {`` found by a regular expression and that object
  parsed (what ``evaluate`` did before issue 30);
* *record, now*: every run record of the file found and parsed, and their settings compared
  (:func:`nonoqubo.campaign.runs.the_record`, which refuses mixed records), plus the setting
  key (:func:`~nonoqubo.campaign.runs.setting_of`, :func:`~nonoqubo.campaign.runs.key_of`);
* *judge one file*: :func:`nonoqubo.campaign.evaluate.judge_file` (read, decode, tally), now.

The ratios say what the new reading adds to judging a file.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo import exports  # noqa: E402
from nonoqubo.campaign.evaluate import judge_file  # noqa: E402
from nonoqubo.campaign.runs import key_of, searched_text, setting_of, the_record  # noqa: E402
from nonoqubo.clues import load  # noqa: E402
from nonoqubo.model.build import build  # noqa: E402
from nonoqubo.solvers.sampling import sampleset_document, solve  # noqa: E402

CASTLE = ROOT / "tests" / "data" / "puzzles" / "json" / "gecode-castle.json"
_OLD_KEY = re.compile(r'"nonoqubo"\s*:\s*\{')


def old_record(text: str) -> dict | None:
    """The record as evaluate read it before: the first match, parsed."""
    m = _OLD_KEY.search(text)
    if m is None:
        return None
    record, _ = json.JSONDecoder().raw_decode(text, m.end() - 1)
    return record


def new_record(text: str, source: str) -> str:
    record = the_record(text, source)
    assert record is not None
    return key_of(setting_of(record, "domain-wall", "shape=1,order=1,cell=1"))


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    puzzle = load(CASTLE)
    with tempfile.TemporaryDirectory() as tmp:
        model = Path(tmp) / "castle.qubo.json"
        exports.dump(build(puzzle), model)
        run = Path(tmp) / "castle.sa.json"
        run.write_text(json.dumps(sampleset_document(solve(puzzle, "sa", reads=args.reads, seed=1, sweeps=1))))
        text = searched_text(run.read_bytes())
        judge_file(str(model), str(run))  # the model read and the decoder built once, as in a worker
        rows = [("record, before", best_of(lambda: old_record(text), args.repeat)),
                ("record, now", best_of(lambda: new_record(text, str(run)), args.repeat)),
                ("judge one file", best_of(lambda: judge_file(str(model), str(run)), args.repeat))]
        size = run.stat().st_size
    judge = rows[-1][1]
    print(f"castle, {args.reads} reads, run file {size / 1e6:.1f} MB, best of {args.repeat}\n")
    print("| step | seconds | / record before | / judge one file |")
    print("|---|---:|---:|---:|")
    for name, seconds in rows:
        print(f"| {name} | {seconds:.4f} | {seconds / rows[0][1]:.2f} | {seconds / judge:.3f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
