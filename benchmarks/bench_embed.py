"""What fits on the annealer: minorminer embeddings of nonogram QUBOs on Pegasus P16 and Zephyr Z(12,4), raw and presolved.

Run: ``python benchmarks/bench_embed.py --out /tmp/embed.jsonl`` (then ``--table /tmp/embed.jsonl`` prints
the markdown table of benchmarks/README.md from the rows written so far).  For every black-and-white
puzzle of ``tests/data/puzzles/json`` (smallest first) with at most ``--max-variables`` variables, and
for the random family ``--random`` (one puzzle per size, density 0.5, seed 1, growing), it embeds the
full QUBO and the presolved one on each topology with ONE minorminer try of at most ``--timeout``
seconds (``nonoqubo.qpu.cache.embed``, cache off) and records variables, edges, max degree, qubits,
longest and mean chain and the seconds the search took (wall clock and this process's CPU time).

Two models with the same interaction graph (the same puzzle under two names) are embedded once: the
second row says which it repeats.  A presolved model with no variables is "nothing to embed".  The
random family is the search for the largest puzzle that fits: sizes are tried in increasing order.
To keep the run short on a shared machine, a model with at least as many edges as one that found no
embedding on a topology within the timeout is not tried on it ("not tried": a heuristic; a larger
interaction graph of the same kind needs a longer search if it fits at all).  Each row is appended to
``--out`` (JSON lines) as soon as it is measured, so a long run can be read while it goes, and a run
given the same ``--out`` again resumes: rows measured before are not measured again.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's nonoqubo

from nonoqubo.generation.families import make, parse_family  # noqa: E402
from nonoqubo.clues import spec  # noqa: E402
from nonoqubo.pipeline import Models  # noqa: E402
from nonoqubo.qpu.cache import embed  # noqa: E402
from nonoqubo.qpu.embedding import interaction_graph_hash  # noqa: E402
from nonoqubo.qpu.topology import parse_topology  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT / "tests" / "data" / "puzzles" / "json"


def puzzles(max_variables: int) -> list[tuple[str, object]]:
    out = []
    for path in sorted(SHARED.glob("*.json")):
        puzzle = spec.from_dict(json.loads(path.read_text()), source=str(path))
        if puzzle.width * puzzle.height <= 3600:
            out.append((path.stem, puzzle))
    out.sort(key=lambda item: (item[1].width * item[1].height, item[0]))
    return out


def measure(qubo, topology, timeout: float, seed: int) -> dict:
    degrees = qubo.degrees()
    row = {"variables": qubo.num_vars, "edges": qubo.num_quadratic,
           "max_degree": int(degrees.max()) if degrees.size else 0}
    if qubo.num_vars == 0:
        return {**row, "status": "nothing to embed"}
    if qubo.num_vars > topology.num_qubits:
        return {**row, "status": "more variables than qubits"}
    cpu, wall = time.process_time(), time.perf_counter()
    found = embed(qubo, topology, seed=seed, tries=1, timeout=timeout, use_cache=False)
    row.update(seconds=round(time.perf_counter() - wall, 2), cpu_seconds=round(time.process_time() - cpu, 2))
    if found.embedding is None:
        return {**row, "status": f"none in {timeout:g} s"}
    fig = found.embedding.figures
    return {**row, "status": "ok", "qubits": fig["qubits"], "longest_chain": fig["longest_chain"],
            "mean_chain": fig["mean_chain"]}


def run(args: argparse.Namespace) -> None:
    topologies = [parse_topology(t) for t in args.topologies]
    done: dict[tuple[str, str], dict] = {}  # (model hash, topology) -> the first row measured
    #: rows of an earlier run of the same --out (resumed: not measured again)
    earlier: dict[tuple[str, str, str], dict] = {}
    if os.path.exists(args.out):
        for line in open(args.out, encoding="utf-8"):
            row = json.loads(line) if line.strip() else {}
            if "puzzle" in row and "same_as" not in row and not row.get("status", "").startswith("not tried"):
                earlier[(row["puzzle"], row["variant"], row["topology"])] = row
    failed: dict[str, int] = {}  # topology -> the fewest edges of a model that did not embed on it
    for row in earlier.values():
        if row.get("status", "").startswith("none"):
            failed[row["topology"]] = min(failed.get(row["topology"], 1 << 62), row["edges"])
    out = open(args.out, "a", encoding="utf-8")

    def emit(row: dict) -> None:
        out.write(json.dumps(row) + "\n")
        out.flush()
        print(json.dumps(row), file=sys.stderr, flush=True)

    def one(name: str, size: str, variant: str, qubo, topology) -> dict:
        key = (interaction_graph_hash(qubo), topology.spec)
        row = {"puzzle": name, "size": size, "variant": variant, "topology": topology.spec}
        again = earlier.get((name, variant, topology.spec))
        if key in done and qubo.num_vars:
            first = done[key]
            row.update({k: v for k, v in first.items() if k not in row}, same_as=first["puzzle"])
        elif again is not None:
            done[key] = row = again
            return row
        elif qubo.num_quadratic >= failed.get(topology.spec, 1 << 62):
            degrees = qubo.degrees()
            row.update(variables=qubo.num_vars, edges=qubo.num_quadratic, max_degree=int(degrees.max()),
                       status=f"not tried (a model with {failed[topology.spec]:,} edges did not embed)")
        else:
            row.update(measure(qubo, topology, args.timeout, args.seed))
            done[key] = row
            if row["status"].startswith("none"):
                failed[topology.spec] = min(failed.get(topology.spec, 1 << 62), row["edges"])
        emit(row)
        return row

    emit({"machine": {"load_average": os.getloadavg(), "cpus": os.cpu_count(), "timeout": args.timeout,
                      "seed": args.seed, "started": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())}})
    family = parse_family(args.random)
    for member in family.members():
        puzzle = make(member)
        models = Models.build(puzzle)
        size = f"{member.width}x{member.height}"
        for topology in topologies:
            one(member.name, size, "raw", models.qubo, topology)
            one(member.name, size, "presolved", models.presolve(), topology)
    shared = [(n, p) for n, p in puzzles(args.max_variables)]
    for name, puzzle in shared:
        models = Models.build(puzzle)
        if models.qubo.num_vars > args.max_variables and models.presolve().num_vars == 0:
            continue
        size = f"{puzzle.width}x{puzzle.height}"
        for topology in topologies:
            if models.qubo.num_vars <= args.max_variables:
                one(name, size, "raw", models.qubo, topology)
            pre = models.presolve()
            if pre.num_vars <= args.max_variables:
                one(name, size, "presolved", pre, topology)
    emit({"finished": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
          "load_average": os.getloadavg()})


def table(path: str) -> None:
    rows = [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
    runs = [r for r in rows if "puzzle" in r]
    tops = sorted({r["topology"] for r in runs}, key=lambda t: (not t.startswith("pegasus"), t))
    cells: dict[tuple[str, str], dict[str, dict]] = {}
    order: list[tuple[str, str]] = []
    for r in runs:
        key = (r["puzzle"], r["variant"])
        if key not in cells:
            cells[key] = {}
            order.append(key)
        cells[key][r["topology"]] = r
    def place(key: tuple[str, str]) -> tuple:
        first = next(iter(cells[key].values()))
        w, h = (int(v) for v in first["size"].split("x"))
        return (not key[0].startswith("random-"), w * h, key[0], key[1] != "raw")

    order.sort(key=place)
    head = "| puzzle | size | model | variables / edges / max degree | " + " | ".join(
        f"{t}: qubits, longest chain, s" for t in tops) + " |"
    print(head)
    print("|---|---|---|---:|" + "---:|" * len(tops))
    for key in order:
        by_top = cells[key]
        first = next(iter(by_top.values()))
        shape = f"{first['variables']:,} / {first['edges']:,} / {first['max_degree']}"
        parts = []
        for t in tops:
            r = by_top.get(t)
            if r is None:
                parts.append("not tried")
            elif r.get("status") == "ok":
                parts.append(f"{r['qubits']:,}, {r['longest_chain']}, {r['seconds']:.1f}"
                             + (f" (= {r['same_as']})" if r.get("same_as") else ""))
            elif r["status"].startswith("not tried"):
                parts.append("not tried *")
            elif r["status"].startswith("none"):
                parts.append(f"{r['status']} ({r['cpu_seconds']:.0f} CPU s)")
            else:
                parts.append(r["status"])
        print(f"| {key[0]} | {first['size']} | {key[1]} | {shape} | " + " | ".join(parts) + " |")
    for r in rows:
        if "machine" in r or "finished" in r:
            print(f"<!-- {json.dumps(r)} -->")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="embed.jsonl", help="JSON lines file the rows are appended to")
    parser.add_argument("--table", metavar="JSONL", help="print the markdown table of a run's rows and stop")
    parser.add_argument("--timeout", type=float, default=180.0, help="minorminer's timeout per embedding (default 180)")
    parser.add_argument("--seed", type=int, default=1, help="minorminer's seed (default 1)")
    parser.add_argument("--max-variables", type=int, default=1100,
                        help="embed shared puzzles' models with at most this many variables (default 1100)")
    parser.add_argument("--random", default="8x8,10x10,12x12,15x15,18x18,20x20,25x25:0.5:1:1",
                        help="the random family searched for the largest that fits (default "
                             "8x8,...,25x25:0.5:1:1, one puzzle a size, density 0.5, seed 1)")
    parser.add_argument("--topologies", nargs="+", default=["pegasus:16", "zephyr:12,4"])
    args = parser.parse_args()
    if args.table:
        table(args.table)
        return
    run(args)


if __name__ == "__main__":
    main()
