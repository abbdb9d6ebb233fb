"""`nonoqubo evaluate --report --figures` cost: the figures of a campaign of M models x S settings.

Run: ``python benchmarks/bench_report.py [--models 22] [--settings 3] [--reads 100]``.
Prints a markdown table.

The campaign is a suite of random 8x8 and 10x10 families (half each), sampled by
dwave-samplers' simulated annealing at S sweep counts (10, 100, 1000, ...), every file a
SampleSet JSON.  Rows, each timed once after the one before it:

* *evaluate -j 1*: judging the files (:func:`nonoqubo.campaign.evaluate.evaluate`);
* *figures*: :func:`nonoqubo.campaign.plots.all_plots` (the matplotlib figures, not drawn);
* *SVG* / *PDF*: drawing every figure in that format (what the report embeds, what
  ``--figures`` writes beside it);
* *report page*: :func:`nonoqubo.campaign.report_html.render_report` with the SVGs drawn;
  and the page's size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from nonoqubo.inputs import load_model  # noqa: E402
from nonoqubo.campaign.evaluate import evaluate  # noqa: E402
from nonoqubo.generation.families import parse_family  # noqa: E402
from nonoqubo.campaign.plots import all_plots, figure_bytes  # noqa: E402
from nonoqubo.campaign.report_html import render_report  # noqa: E402
from nonoqubo.campaign.suite import run_suite  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--models", type=int, default=22)
    ap.add_argument("--settings", type=int, default=3)
    ap.add_argument("--reads", type=int, default=100)
    args = ap.parse_args()
    from dwave.samplers import SimulatedAnnealingSampler

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        half = args.models // 2
        run_suite([], root / "suite", families=[parse_family(f"8x8:0.5:{half}:1"),
                                                parse_family(f"10x10:0.5:{args.models - half}:1")], jobs=1)
        index = json.loads((root / "suite" / "index.json").read_text())["puzzles"]
        sampler = SimulatedAnnealingSampler()
        for k in range(args.settings):
            sweeps = 10 ** (k + 1)
            folder = root / "runs" / f"sa-{sweeps}"
            folder.mkdir(parents=True)
            for entry in index:
                qubo = load_model(root / "suite" / entry["files"][0]["path"])
                ss = sampler.sample(qubo.to_bqm(), num_reads=args.reads, num_sweeps=sweeps, seed=k)
                (folder / f"{entry['name']}.json").write_text(json.dumps(ss.to_serializable()))
        rows = []
        t = time.perf_counter()
        groups = evaluate(str(root / "suite"), [str(root / "runs")], jobs=1)
        rows.append(("evaluate -j 1", time.perf_counter() - t, ""))
        t = time.perf_counter()
        plots = all_plots(groups)
        rows.append(("figures", time.perf_counter() - t, f"{len(plots)} figures"))
        for fmt in ("svg", "pdf"):
            t = time.perf_counter()
            size = sum(len(figure_bytes(p, fmt)) for p in plots)
            rows.append((fmt.upper(), time.perf_counter() - t, f"{size / 1e6:.2f} MB"))
        t = time.perf_counter()
        page = render_report(groups, plots=plots)
        rows.append(("report page", time.perf_counter() - t, f"{len(page.encode()) / 1e6:.2f} MB"))
    print(f"{args.models} models x {args.settings} settings = {len(groups)} pairs, {args.reads} reads each\n")
    print("| step | seconds | size |\n|---|---:|---|")
    for name, seconds, size in rows:
        print(f"| {name} | {seconds:.2f} | {size} |")


if __name__ == "__main__":
    main()
