"""Samplers on hard cores: p, its Wilson interval and TTS99 beside CP-SAT's solve time (issue 43 item 3).

Run: ``python benchmarks/bench_hardcores.py SUITE_OR_PUZZLES... [--budget 40] [--seed 1]
[--beta-range 1,20] [--samplers sa,tabu,pt,pa,sa-probe-starts] [--sweeps 1000,10000]
[--presolves none,line,probe] [--target-energy]``.

Each argument is a suite folder (its ``index.json`` names the clue files; ``nonoqubo suite --unique=hard``
makes one of hard cores) or a clue file (every puzzle of a multi-puzzle file, such as ``.nin``).  For
every puzzle:

* CP-SAT's solve time, the time to its first solution (:func:`nonoqubo.solvers.cpsat.truth`, which also
  proves uniqueness), and the time of the probe presolve (:meth:`nonoqubo.pipeline.Models.presolve`
  with ``probe``: line logic, one-cell probing, probing of the model's variables);
* for every sampler and setting, on the models ``--presolves`` names (default the full model and the
  probed one, ``--presolve probe``; ``line`` adds the line-presolved one): reads drawn in growing batches (read seeds ``seed + r``, as ``solve``'s) until ``--budget`` seconds of
  wall clock are spent on that setting; ``p`` is the share of reads of energy 0 with its 95 % Wilson
  interval, ``TTS99 = t * R99`` with ``t`` the seconds per read as the run record gives it (its
  ``seconds_per_run``: the sampler's own time per read) and ``R99 = ln 0.01 / ln(1 - p)``; a setting
  without a success gets the one-sided 95 % bounds (``p <= p_bound``, ``TTS99 >= bound``).  Every
  number is :mod:`nonoqubo.campaign.aggregate`'s (:func:`wilson`, :func:`runs_to_solution`,
  :func:`censored_bounds`), the ones ``evaluate`` prints.  With presolve, "TTS99 + presolve" adds the
  presolve's time once (a run of R99 reads pays it once).  A presolve that settles the puzzle (no
  variable left) gives one row per setting of one read: p is exactly 1 ("settled by the presolve"),
  and TTS99 + presolve is the presolve's time.

The settings: ``sa`` (dwave-samplers, ``--beta-range``), ``tabu`` (0.1 s per read), ``pt`` (8 replicas)
and ``pa`` (32 replicas, 10 sweeps per beta), each annealer at every ``--sweeps``; and
``sa-probe-starts``, sa whose restarts (4 per read) start from probing's fixings with random values
elsewhere (``--initial-states probe --restarts 4``, a colder range ``2,20`` so the start is kept), on the
full and line-presolved models only (with ``--presolve probe`` the fixed variables are gone).  ``pt`` and ``pa`` sweep every
replica ``--sweeps`` times, so a read costs replicas x sweeps; TTS99 counts it.  ``lines`` (asked by
name, not in the default list): heat-bath line moves (issue 52 item 4) at every ``--sweeps``, on its own
beta range (0.3,10), each sweep a move of every line; ``lines-pa``: population annealing with line moves
(``--replicas``), 16 replicas x 300 sweeps and 64 x 200 (2 sweeps per beta), whatever ``--sweeps`` says.

With ``--target-energy`` (issue 52), ``pt``, ``pa`` and ``lines`` stop each read at its first energy-0 state
(``--target-energy 0``) and TTS99 is :func:`nonoqubo.campaign.aggregate.tts_of`'s, ``t_s + (R99 - 1) t_f``:
the successful reads' mean time to target and the others' mean time (their whole budget), each read's
time from the record's ``read_seconds``; ``t/read`` is then the mean over all reads.

The targets of issue 43: ``p_lo >= 1 %`` at <= 10^4 sweeps and ``TTS99 <= 10 x`` CP-SAT's solve
time; the last two columns give each row's distance to them (``p_lo / 1 %`` and ``TTS99 / (10 x CP-SAT)``).
The table is markdown on stdout; progress goes to stderr.

**The study of issue 52 item 6** (``python benchmarks/bench_hardcores.py cores20 cores25
tests/data/puzzles/json/gecode-difficult.json --presolves line --samplers sa,pt,pa --target-energy
--budget 30 --json study.json``): after the table, a per-member verdict on the *moonshot* (:func:`verdict`):
it holds on a member when one setting at <= 10^4 sweeps has ``p_lo >= 1 %`` **and** ``TTS99 <= 10 x``
CP-SAT's solve time (the sampler's time alone; the verdict also says whether it still holds with the
presolve's time added); where it does not, by how much (the best ``p_lo / 1 %`` and the best
``TTS99 / (10 x CP-SAT)`` over the settings, each with its setting) and why: no success in any read
of any setting, successes too rare for the lower bound, or p met but too slow.  ``--json PATH`` writes
every row's numbers, every member's facts (variables per model, CP-SAT's solve and proof seconds, the
presolve's seconds, the load average before and after the member) and the verdicts, for the README's
tables; ``python benchmarks/bench_hardcores.py --from-json A.json B.json ...`` prints one table and
the verdicts from several such runs (:func:`summarize`; a later file's row of the same member, setting and
model replaces the earlier one's).  ``--min-reads N`` reads on past ``--budget`` until every setting has
``N`` reads, within ``--max-budget`` seconds a setting.  The settings of a member run one after another in this one process (one core, apart from
CP-SAT's own short solve, which uses its default workers as ``solve --sampler cpsat`` does).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from nonoqubo._util.names import file_stem
from nonoqubo.campaign.aggregate import censored_bounds, runs_to_solution, tts_of, wilson
from nonoqubo.clues import load, read_all
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import Models
from nonoqubo.solvers.cpsat import truth
from nonoqubo.solvers.sampling import RUN, sample

#: issue 43's targets: p's lower bound at least this, TTS99 at most this many times CP-SAT's solve time
P_TARGET, CPSAT_FACTOR = 0.01, 10.0


@dataclass
class Setting:
    """One row's sampler and its options (``solve``'s keywords), and whether it runs on the probed model too."""

    label: str
    sampler: str
    options: dict[str, Any]
    batch: int
    presolves: tuple[str | None, ...] = (None, "line", "probe")
    reads_cap: int = 2000


@dataclass
class Measured:
    reads: int = 0
    valid: int = 0
    seconds: list[float] = field(default_factory=list)
    settled: bool = False
    #: with a target energy: each read's own time and whether it reached 0
    read_seconds: list[float] = field(default_factory=list)
    won: list[bool] = field(default_factory=list)
    targeted: bool = False

    def split(self) -> tuple[float | None, float | None] | None:
        """The mean time of a successful read and of another (:func:`tts_of`), for reads stopped at a target."""
        if not self.targeted or len(self.read_seconds) != len(self.won):
            return None
        t, won = np.array(self.read_seconds), np.array(self.won, dtype=bool)
        return (float(t[won].mean()) if won.any() else None), (float(t[~won].mean()) if (~won).any() else None)


def settings(samplers: list[str], sweeps: list[int], beta_range: tuple[float, float],
             target: bool = False) -> list[Setting]:
    """The rows, in table order; *target*: pt, pa and lines stop each read at energy 0."""
    rows: list[Setting] = []
    stop = {"target_energy": 0} if target else {}
    until = ", to energy 0" if target else ""
    for name in samplers:
        if name == "tabu":
            rows.append(Setting("tabu 0.1 s", "tabu", {"time_limit": 0.1}, 8))
        elif name == "sa-probe-starts":
            rows += [Setting(f"sa {s:g}, 4 restarts from probe's fixings", "sa",
                             {"sweeps": s, "beta_range": (2.0, 20.0), "restarts": 4, "initial_states": "probe"},
                             16, presolves=(None, "line")) for s in sweeps]
        elif name == "sa":
            rows += [Setting(f"sa {s:g}", "sa", {"sweeps": s, "beta_range": beta_range}, 32) for s in sweeps]
        elif name == "pt":
            rows += [Setting(f"pt {s:g}, 8 replicas{until}", "pt",
                             {"sweeps": s, "beta_range": beta_range, "replicas": 8, **stop},
                             16 if s <= 1000 else 4) for s in sweeps]
        elif name == "pa":
            rows += [Setting(f"pa {s:g}, 32 replicas{until}", "pa", {"sweeps": s, "beta_range": beta_range, "replicas": 32,
                                                              "sweeps_per_beta": 10, **stop}, 4 if s <= 1000 else 2)
                     for s in sweeps]
        elif name == "lines":
            rows += lines_settings(sweeps, target)
        elif name == "lines-pa":
            rows += lines_settings(sweeps, target, population=True)
        else:
            raise SystemExit(f"bench_hardcores: unknown sampler {name!r}")
    return rows


def lines_settings(sweeps: list[int], target: bool = False, population: bool = False) -> list[Setting]:
    """``lines`` (heat-bath line moves, issue 52 item 4) at every ``--sweeps``, on its own default beta range
    (0.3,10: a move's energy is whole cell conflicts, not a flip's); *target*: each read stops at energy 0.
    *population* (``lines-pa``): population annealing with line moves instead, two fixed settings whose reads
    cost about what 5,000 and 13,000 single sweeps cost: 16 replicas x 300 sweeps, 64 x 200 (2 per beta)."""
    stop = {"target_energy": 0} if target else {}
    until = ", to energy 0" if target else ""
    if population:
        return [Setting(f"lines 300, 16 replicas{until}", "lines", {"sweeps": 300, "replicas": 16, **stop}, 2),
                Setting(f"lines 200, 64 replicas, 2 per beta{until}", "lines",
                        {"sweeps": 200, "replicas": 64, "sweeps_per_beta": 2, **stop}, 1)]
    return [Setting(f"lines {s:g}{until}", "lines", {"sweeps": s, **stop}, 8 if s <= 1000 else 4) for s in sweeps]


def puzzles_of(paths: list[str]) -> list[tuple[str, Puzzle]]:
    """Every puzzle of the suites and clue files given, with its name."""
    found: list[tuple[str, Puzzle]] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            index = json.loads((path / "index.json").read_text())
            for entry in index["puzzles"]:
                if entry.get("clues"):  # a member built (a puzzle not kept or failed has no clue file)
                    found.append((entry["name"], load(path / entry["clues"]["path"])))
        else:
            for read in read_all(path):
                if read.puzzle is not None:
                    stem = file_stem(path)  # a suite's NAME.clues.json is member NAME, as its index names it
                    found.append((read.name or f"{stem}{'' if read.index is None else f'-{read.index}'}", read.puzzle))
    return found


def measure(model, setting: Setting, budget: float, seed: int, min_reads: int = 0, max_budget: float = math.inf
            ) -> Measured:
    """Reads of *setting* on *model* in growing batches until *budget* seconds of wall clock are spent and at
    least *min_reads* reads are drawn, but never past *max_budget* seconds (the reads then stop short)."""
    out = Measured(settled=model.num_vars == 0, targeted="target_energy" in setting.options)
    start, size = time.perf_counter(), setting.batch
    cap = 1 if model.num_vars == 0 else setting.reads_cap  # the presolve settled it: every read is the same one
    min_reads = min(min_reads, cap)

    def going_on() -> bool:
        spent = time.perf_counter() - start
        return out.reads == 0 or (spent < max_budget and (spent < budget or out.reads < min_reads))

    while out.reads < cap and going_on():
        batch = sample(model, setting.sampler, reads=size, seed=seed + out.reads, **setting.options)
        won = model.energy(batch.bits) == 0
        out.valid += int(np.count_nonzero(won))
        out.reads += len(batch)  # one, whatever was asked, when the presolve left nothing to sample
        out.seconds += [batch.extra[RUN]["timing"]["seconds_per_run"]] * len(batch)
        out.read_seconds += list(batch.extra[RUN]["timing"].get("read_seconds") or [])
        out.won += won.tolist()
        left = budget - (time.perf_counter() - start)
        per_read = (time.perf_counter() - start) / out.reads
        size = max(1, min(setting.batch * 4, int(left / per_read) if per_read > 0 else size))
        if left <= 0 and out.reads < min_reads:  # past the budget: the reads still wanted, a batch at most
            size = max(1, min(setting.batch * 4, min_reads - out.reads))
    return out


def row_numbers(m: Measured, cpsat_seconds: float, presolve_seconds: float | None) -> dict[str, Any]:
    """One row's numbers: successes, reads, p with its Wilson interval (``p_bound``: the one-sided 95 %
    bound when there is no success), seconds per read, TTS99 (``bound``: a lower bound, no success),
    TTS99 + presolve, and the distances to the targets (``p_lo_ratio = p_lo / 1 %``, ``tts_ratio`` and
    ``tts_presolve_ratio`` = TTS99 (+ presolve) / (10 x CP-SAT))."""
    t = float(np.mean(m.seconds))
    p = m.valid / m.reads
    lo, hi = wilson(m.valid, m.reads)
    p_bound = None
    if m.settled:  # nothing left to sample: the one read is the presolve's answer, p is exactly 1
        tts, p_lo = t, 1.0
    elif m.valid:
        tts, p_lo = float(tts_of(runs_to_solution(p), t, m.split())), lo
    else:
        p_bound, _, tts_bound = censored_bounds(m.reads, t)
        tts, p_lo = float(tts_bound or math.inf), 0.0
    target = CPSAT_FACTOR * cpsat_seconds
    total = tts + (presolve_seconds or 0.0)
    return {"successes": m.valid, "reads": m.reads, "settled": m.settled, "p": p, "p_lo": lo, "p_hi": hi,
            "p_bound": p_bound, "seconds_per_read": t, "tts99": tts, "bound": not m.valid and not m.settled,
            "tts99_presolve": None if presolve_seconds is None else total, "p_lo_ratio": p_lo / P_TARGET,
            "tts_ratio": tts / target, "tts_presolve_ratio": total / target}


def row_cells(m: Measured, cpsat_seconds: float, presolve_seconds: float | None) -> list[str]:
    """p [CI], t, TTS99, TTS99 + presolve, distance to the p target and to 10x CP-SAT."""
    r = row_numbers(m, cpsat_seconds, presolve_seconds)
    at_least = ">= " if r["bound"] else ""
    if r["settled"]:
        p_text = "1 (settled by the presolve)"
    elif r["successes"]:
        p_text = f"{r['p']:.3f} [{r['p_lo']:.3f}, {r['p_hi']:.3f}]"
    else:
        p_text = f"0 (<= {r['p_bound']:.3f})"
    with_presolve = "-" if r["tts99_presolve"] is None else f"{at_least}{r['tts99_presolve']:.3g}"
    p_gap = ("met (p = 1)" if r["settled"] else f"{r['p_lo_ratio']:.2g}x" if r["successes"] else "0 (no success)")
    return [f"{m.valid}/{m.reads}", p_text, f"{r['seconds_per_read']:.3g}", f"{at_least}{r['tts99']:.3g}",
            with_presolve, p_gap, f"{at_least}{r['tts_presolve_ratio']:.3g}x"]


def verdict(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The moonshot on one member from its rows (:func:`row_numbers` with ``setting`` and ``sweeps``):
    it holds when a row at <= 10^4 sweeps has ``p_lo >= 1 %`` and TTS99 (the sampler alone) <= 10x
    CP-SAT's solve time.  Otherwise the best distances and why: ``"no success"`` (no read of any
    setting reached energy 0), ``"p met, too slow"`` (p_lo >= 1 % somewhere, TTS99 above the target
    everywhere it is), ``"too rare"`` (successes, but p_lo < 1 % in every setting; ``"too rare and too slow"``
    when TTS99 also misses).

    Examples:
        >>> row = dict(setting="pa", sweeps=10000, reads=20, successes=5, p_lo_ratio=4.0, tts_ratio=0.5,
        ...            tts_presolve_ratio=2.0)
        >>> v = verdict([row]); (v["holds"], v["holds_with_presolve"], v["why"])
        (True, False, 'met')
        >>> verdict([dict(row, tts_ratio=3.0)])["why"]
        'p met, too slow'
        >>> verdict([dict(row, successes=0, p_lo_ratio=0.0)])["why"]
        'no success'
    """
    eligible = [r for r in rows if (r.get("sweeps") or 0) <= 10_000]
    if not eligible:
        return {"holds": False, "holds_with_presolve": False, "why": "not measured"}

    def meets(r: dict[str, Any], key: str) -> bool:
        return r["successes"] > 0 and r["p_lo_ratio"] >= 1.0 and r[key] <= 1.0

    best_p = max(eligible, key=lambda r: r["p_lo_ratio"])
    # the best TTS99 measured (a row with a success) before any lower bound of a row without one
    best_t = min(eligible, key=lambda r: (not r["successes"], r["tts_ratio"]))
    holding = [r for r in eligible if meets(r, "tts_ratio")]
    if holding:
        why = "met"
    elif not any(r["successes"] for r in eligible):
        why = "no success"
    elif best_p["p_lo_ratio"] >= 1.0:
        why = "p met, too slow"
    else:
        why = "too rare" if best_t["tts_ratio"] <= 1.0 else "too rare and too slow"
    return {"holds": bool(holding), "holds_with_presolve": any(meets(r, "tts_presolve_ratio") for r in eligible),
            "why": why, "met_by": [r["setting"] for r in holding],
            "best_p_lo_ratio": best_p["p_lo_ratio"], "best_p_setting": best_p["setting"],
            "best_tts_ratio": best_t["tts_ratio"], "best_tts_bound": not best_t["successes"],
            "best_tts_setting": best_t["setting"], "reads": sum(r["reads"] for r in eligible),
            "successes": sum(r["successes"] for r in eligible)}


def verdict_line(name: str, v: dict[str, Any]) -> str:
    """One member's verdict in words (the README's list)."""
    if v["why"] == "not measured":
        return f"{name}: not measured"
    if v["holds"]:
        extra = "" if v["holds_with_presolve"] else " (not with the presolve's time added)"
        return f"{name}: **the moonshot holds** with {', '.join(v['met_by'])}{extra}"
    tts = f"{'>= ' if v['best_tts_bound'] else ''}{v['best_tts_ratio']:.3g}x"
    if v["why"] == "no success":
        return (f"{name}: **not met** (no success in any of its {v.get('reads', '?')} reads, every setting): "
                f"TTS99 / (10 x CP-SAT) {tts} even for the best bound ({v['best_tts_setting']})")
    return (f"{name}: **not met** ({v['why']}): best p_lo / 1 % {v['best_p_lo_ratio']:.3g}x "
            f"({v['best_p_setting']}), best TTS99 / (10 x CP-SAT) {tts} ({v['best_tts_setting']})")


def summarize(paths: list[str]) -> None:
    """Print one table and the verdicts from the ``--json`` files of several runs (``--from-json``).

    A member measured by several runs (say the sa, pt and pa rows in one, the lines rows in another) gets
    one CP-SAT solve time, the median of its runs' (CP-SAT's time moves with the machine's load), and
    every row's ``TTS99 / (10 x CP-SAT)`` is recomputed against it; the verdict is over all its rows.
    """
    members: dict[str, dict[str, Any]] = {}
    rows: dict[str, list[dict[str, Any]]] = {}
    for path in paths:
        report = json.loads(Path(path).read_text())
        for member in report["members"]:
            seen = members.setdefault(member["name"], {**member, "cpsat_runs": [], "loads": []})
            seen["cpsat_runs"].append(member["cpsat"]["solve_seconds"])
            seen["loads"] += member["load_average"]
        for row in report["rows"]:  # a later run's row of the same setting and model replaces the earlier one
            kept = rows.setdefault(row["member"], [])
            same = [k for k, r in enumerate(kept) if (r["setting"], r["presolve"]) == (row["setting"], row["presolve"])]
            if same:
                kept[same[0]] = row
            else:
                kept.append(row)
    print("| member | variables after presolve | CP-SAT solve (s) | presolve (s) | setting | solved/reads | "
          "p [95% Wilson] | t/read (s) | TTS99 (s) | TTS99 + presolve (s) | p_lo / 1 % | TTS99 / (10 x CP-SAT) | "
          "TTS99 + presolve / (10 x CP-SAT) |")
    print("|" + "---|" * 13)
    verdicts = {}
    for name, member in members.items():
        cpsat = float(np.median(member["cpsat_runs"]))
        target = CPSAT_FACTOR * cpsat
        for r in rows.get(name, []):
            presolve = member["presolved"].get(r["presolve"], {}).get("seconds")
            r["tts_ratio"] = r["tts99"] / target
            r["tts_presolve_ratio"] = (r["tts99"] + (presolve or 0.0)) / target
            at_least = ">= " if r["bound"] else ""
            p_text = (f"{r['p']:.3f} [{r['p_lo']:.3f}, {r['p_hi']:.3f}]" if r["successes"]
                      else f"0 (<= {r['p_bound']:.3f})")
            print(f"| {name} | {r['variables']} | {cpsat:.3g} | {'-' if presolve is None else f'{presolve:.3g}'} | "
                  f"{r['setting']} | {r['successes']}/{r['reads']} | {p_text} | {r['seconds_per_read']:.3g} | "
                  f"{at_least}{r['tts99']:.3g} | {at_least}{r['tts99'] + (presolve or 0.0):.3g} | "
                  f"{r['p_lo_ratio']:.2g}x | {at_least}{r['tts_ratio']:.3g}x | {at_least}{r['tts_presolve_ratio']:.3g}x |")
        verdicts[name] = verdict(rows.get(name, []))
    print()
    for name, member in members.items():
        runs = ", ".join(f"{t:.3g}" for t in member["cpsat_runs"])
        print(f"- {verdict_line(name, verdicts[name])}; CP-SAT solve {runs} s in its runs; load average "
              f"{min(member['loads']):.2f} to {max(member['loads']):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("inputs", nargs="*", metavar="SUITE_OR_PUZZLES")
    ap.add_argument("--from-json", nargs="+", metavar="JSON",
                    help="print one table and the verdicts from the --json files of earlier runs, nothing run (a later "
                         "file's row of a member, setting and model replaces an earlier one's)")
    ap.add_argument("--budget", type=float, default=40.0, help="wall-clock seconds per setting and model (default 40)")
    ap.add_argument("--min-reads", type=int, default=0,
                    help="read on past --budget until a setting has this many reads (default 0: the budget decides)")
    ap.add_argument("--max-budget", type=float, default=math.inf,
                    help="with --min-reads: never more wall-clock seconds than this per setting and model")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--beta-range", default="1,20", help="LO,HI for sa, pt and pa (default 1,20: issue 43's best)")
    ap.add_argument("--samplers", default="sa,tabu,pt,pa,sa-probe-starts",
                    help="of sa, tabu, pt, pa, sa-probe-starts, lines, lines-pa (default all but the lines ones)")
    ap.add_argument("--sweeps", default="1000,10000")
    ap.add_argument("--presolves", default="none,probe",
                    help="the models each setting runs on: none, line, probe (default none,probe)")
    ap.add_argument("--target-energy", action="store_true",
                    help="pt, pa and lines stop each read at its first energy-0 state (TTS99 counted as tts_of says)")
    ap.add_argument("--json", metavar="PATH", help="also write every row, member and verdict to PATH as JSON")
    args = ap.parse_args()
    if args.from_json:
        summarize(args.from_json)
        return
    if not args.inputs:
        ap.error("give suite folders or clue files to measure, or --from-json")
    asked = [None if name == "none" else name for name in args.presolves.split(",")]
    beta_range = tuple(float(v) for v in args.beta_range.split(","))
    rows = settings(args.samplers.split(","), [int(s) for s in args.sweeps.split(",")], beta_range,  # type: ignore[arg-type]
                    args.target_energy)
    began = time.perf_counter()
    load_before = os.getloadavg()
    print("| puzzle | setting | presolve | variables | CP-SAT solve (s) | presolve (s) | solved/reads | "
          "p [95% Wilson] | t/read (s) | TTS99 (s) | TTS99 + presolve (s) | p_lo / 1 % | TTS99 / (10 x CP-SAT) |")
    print("|" + "---|" * 13)
    notes = []
    report: dict[str, Any] = {"argv": sys.argv[1:], "budget": args.budget, "seed": args.seed,
                              "beta_range": list(beta_range), "members": [], "rows": []}
    for name, puzzle in puzzles_of(args.inputs):
        member_load = os.getloadavg()
        fact = truth(puzzle, 2, time_limit=60)
        presolved: dict[str | None, tuple[Any, float | None]] = {None: (Models.build(puzzle).qubo, None)}
        for level in filter(None, asked):
            models = Models.build(puzzle, presolve=level)
            presolved[level] = (models.presolve(), models.presolve_seconds)
        sizes = ", ".join(f"{model.num_vars} after the {level} presolve ({seconds:.3g} s)"
                          for level, (model, seconds) in presolved.items() if level)
        notes.append(f"{name}: {presolved[None][0].num_vars} variables{', ' + sizes if sizes else ''}; CP-SAT: {fact.solutions} solution(s)"
                     f"{' (exact)' if fact.exact else ''}, solve {fact.solve_seconds:.3g} s, proof "
                     f"{fact.proof_seconds:.3g} s")
        print(f"  {notes[-1]}", file=sys.stderr)
        member_rows: list[dict[str, Any]] = []
        for setting in rows:
            for presolve in [level for level in asked if level is None or level in setting.presolves]:
                model, presolve_seconds = presolved[presolve]
                print(f"  {name} {setting.label} presolve {presolve or 'none'}", file=sys.stderr, flush=True)
                m = measure(model, setting, args.budget, args.seed, args.min_reads, args.max_budget)
                cells = row_cells(m, fact.solve_seconds, presolve_seconds)
                print(f"| {name} | {setting.label} | {presolve or 'none'} | {model.num_vars} | "
                      f"{fact.solve_seconds:.3g} | {'-' if presolve_seconds is None else f'{presolve_seconds:.3g}'} | "
                      + " | ".join(cells) + " |", flush=True)
                member_rows.append({"member": name, "setting": setting.label, "sampler": setting.sampler,
                                    "sweeps": setting.options.get("sweeps"), "presolve": presolve or "none",
                                    "variables": model.num_vars, **row_numbers(m, fact.solve_seconds, presolve_seconds)})
        verdicts = {level or "none": verdict([r for r in member_rows if r["presolve"] == (level or "none")])
                    for level in asked}
        report["rows"] += member_rows
        report["members"].append({
            "name": name, "variables": presolved[None][0].num_vars,
            "presolved": {level: {"variables": model.num_vars, "seconds": seconds}
                          for level, (model, seconds) in presolved.items() if level},
            "cpsat": {"solutions": fact.solutions, "exact": fact.exact, "solve_seconds": fact.solve_seconds,
                      "proof_seconds": fact.proof_seconds},
            "load_average": [member_load[0], os.getloadavg()[0]], "verdict": verdicts})
        if args.json:  # after every member, so a run stopped early keeps what it measured
            Path(args.json).write_text(json.dumps(report, indent=1, default=float) + "\n")
    load_after = os.getloadavg()
    print()
    for note in notes:
        print(f"- {note}")
    print(f"- {time.perf_counter() - began:.0f} s in all; load average {load_before[0]:.2f} before, "
          f"{load_after[0]:.2f} after; {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print()
    print("The moonshot (p_lo >= 1 % at <= 10^4 sweeps and TTS99 <= 10x CP-SAT's solve time), per member and model:")
    print()
    for member in report["members"]:
        for level, v in member["verdict"].items():
            print(f"- {verdict_line(member['name'] + (f' ({level})' if len(asked) > 1 else ''), v)}; load average "
                  f"{member['load_average'][0]:.2f} to {member['load_average'][1]:.2f}")
    report["load_average"] = [load_before[0], load_after[0]]
    report["seconds"] = time.perf_counter() - began
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1, default=float) + "\n")


if __name__ == "__main__":
    main()
