"""``nonoqubo evaluate``: success probability, TTS99, residual energies and what breaks, per setting.

The command parses its arguments into :class:`~nonoqubo.campaign.outputs.EvaluateOptions`, shows
progress, and prints what :func:`~nonoqubo.campaign.outputs.write_outputs` returns; the library
judges the samples (:mod:`nonoqubo.campaign.evaluate`), makes every number
(:mod:`nonoqubo.campaign.aggregate`), the text table and every file (:mod:`nonoqubo.campaign.outputs`).
"""

from __future__ import annotations

import argparse
import sys

from ..campaign.outputs import EvaluateOptions, write_outputs
from ._common import add_force_argument, progress_stage
from ._options import add

ORDER = 65

HELP = "judge a benchmark campaign: success probability, TTS99, residual energy per model and setting"
DESCRIPTION = """\
Decode every sample file against MODEL (an exported model, a clue file, or a
folder written by 'nonoqubo suite') and report, per model and setting: the
samples, the success probability p with its 95 % Wilson interval, TTS99 =
t ln(0.01)/ln(1-p) with its interval (inf when p = 0, t when p >= 0.99), the
residual energy (min, quantiles, max), the share of samples with broken
walls / order violations / cell conflicts, and the lines and cells most often
wrong (rows, columns and cells counted from 1, the top-left cell (1,1), as
decode and render name them; in --json worst_cells' "row" and "column" too),
and the distinct valid pictures the samples found ("solutions": found
of known, e.g. 2/3; the known count comes from a suite indexed with
'suite --truth', '>=2' when CP-SAT counted only up to its limit, '?' when
unknown).

Runs are grouped by setting: what each file's run record says ('solve -o'
writes it: the sampler, every parameter but the seed and the reads, and the
encoding and weights of the model sampled), wherever the files lie, so a flat
folder of sa and tabu runs gives two rows.  A setting keeps its folder's name
when that folder holds exactly it (runs/sa-1000/), else it is named from the
record (sa sweeps=100); the lines under the table, and "setting_record" in
--json, say what each setting is.  A file that records no run is grouped by
its folder (or, in sub-folders, each sub-folder: runs/qbsolv/*.txt).
--setting NAME pools every file into one setting NAME, whatever they record.
A runs folder's other files (a log, a .out, figures and pages: .pdf .svg .png
.html) are skipped, with one note, and so is a FIFO or a device found there
(never opened: it could block for ever or never end).

No output may land on what the command reads: --csv, --report, --figures and
--submission are refused, in one line before any work, when they name MODEL,
a sample file, the embedding, a file in a SAMPLES folder or in the suite
folder (its index.json and index.csv too), through links or not; and an
output folder may not be a SAMPLES folder or lie inside one (the next evaluate
would read its files as runs), nor be the suite folder.

Every run is scored against the model it was drawn from: its record's
encoding and weights.  Given a clue file or a suite folder, that model is
rebuilt from the clues; given a model file of another encoding or weights,
the run is refused.  A model presolve solved completely (0 variables) is
"solved by presolve" and a puzzle CP-SAT proved unsolvable ('suite --truth':
0 solutions) "unsolvable" (ground energy none, its best known energy beside):
both are counted above the table and left out of p, TTS and the figures.

The seconds per run t come from the files (the run record's seconds_per_run;
a real QPU's qpu_access_time per read; dimod SampleSet info timing, qbsolv's
seconds line, MQLib's runtime) or from --time; the table's lines name the
source.  --embedding EMB.json scores a QPU's qubit-labelled SampleSets, mapped
back through the embedding's chains as 'decode --embedding' does.  With a
suite folder as MODEL, a sample file belongs to the puzzle whose name starts
its file name.

A model file whose reading would take more memory than is available (about
10 bytes a byte of the file), or a clue file whose model would, is refused
first, in one line with the estimate (exit status 2); --force reads it anyway.

--polish runs a steepest descent from every sample first (dwave-samplers) and
reports the polished figures beside the raw ones.

--report writes one self-contained HTML page (works offline, figures embedded
as SVG): the command, date, version, machine and each setting's sampler and
parameters (as 'solve -o' records them), then the figures, then the table.
--figures DIR writes every figure as DIR/NAME.svg, NAME.pdf and NAME.csv (the
numbers drawn): p-vs-size, tts-vs-size (r99-vs-size when a setting's files
record no time per run: R99, the runs to 99 %, instead of seconds),
energy-N, conflicts-N, best-N (pages of 24 panels).  The size plots show per
setting the median and quartiles across the instances of each size class (a
random family of the suite, or a bin 2^k <= variables < 2^(k+1)) over the
instances drawn faintly; a model with no success (p = 0) is drawn as a bound
at the upper end of its 95 % Wilson interval (needs matplotlib: the campaign
extra).

--submission DIR --submitter NAME writes the campaign as a QOBLIB submission
(the Quantum Optimization Benchmarking Library): per instance DIR/NAME/ with
NAME_summary.csv (QOBLIB's 27 required columns: runs = reads, feasible and
successful runs = those of energy 0, mean seconds per run as CPU or QPU
runtime, the machine the run files record ...), NAME_solution.pbm (the best
sample's picture) and NAME_objective_time_series.json, which QOBLIB's
misc/check_submission.py accepts with the class's check/check_nonogram.py
(a class written by 'suite --layout qoblib').  One setting per instance; DIR
must be new or empty; --reference TEXT fills the Reference column.

Progress goes to standard error on a terminal only (a bar), as git's does:
--progress writes one line per 10 % of the files (and of the figures) into a
log or a batch job's output too, --no-progress turns the bar off.
Every file written is named on standard error after the table ('wrote
report.html (HTML report, 1,234 bytes)').  -q prints nothing but errors and
warnings when --csv, --report or --figures hold the output.  Censored points (no success) are drawn as one-sided 95 %
bounds: open markers with an arrow, never joined to measured points.

examples:
  nonoqubo evaluate logo.qubo.json runs/ --report report.html
  nonoqubo evaluate heart.non runs/              # runs/heart.sa.json, runs/heart.tabu.json: two rows
  nonoqubo evaluate logo.qubo.json qpu-runs/ --embedding emb.json
  nonoqubo evaluate suite/ runs/ --polish --json > figures.json
  nonoqubo evaluate suite/ runs/ --report report.html --figures figures/
  nonoqubo evaluate 10-nonogram/ runs/ --submission 10-nonogram/submissions/20261202_SA_Doe --submitter "J. Doe (ZIB)"
"""


def register(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    parser = sub.add_parser("evaluate", help=HELP, description=DESCRIPTION,
                            formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("model", metavar="MODEL", help="exported model, clue file, or suite folder")
    parser.add_argument("samples", nargs="+", metavar="SAMPLES", help="sample files and folders of them")
    parser.add_argument("--setting", metavar="NAME",
                        help="pool every file into one setting NAME (default: each file's run record, else its folder)")
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS",
                        help="seconds per run (overrides what the files record)")
    parser.add_argument("--polish", action="store_true",
                        help="also judge the samples after a steepest-descent pass (dwave-samplers)")
    add(parser, "samples-format", "detected per file")
    add(parser, "embedding", "the samples are a QPU's, on qubits: unembed them through its chains (as decode)")
    add(parser, "chain-break", "with --embedding, as decode's (default majority)")
    add(parser, "json", "the figures, instead of a table")
    parser.add_argument("--csv", metavar="FILE", help="also write the figures as CSV")
    parser.add_argument("--report", metavar="FILE", help="also write a self-contained HTML report with plots")
    parser.add_argument("--figures", metavar="DIR",
                        help="also write every figure as SVG, PDF and the CSV of its numbers into DIR, made if missing (default: none)")
    add(parser, "jobs")
    add(parser, "quiet", "nothing but errors: no progress, and no table when --csv, --report or --figures write "
                         "the figures (--json still prints)")
    qoblib = parser.add_argument_group("QOBLIB submission")
    qoblib.add_argument("--submission", metavar="DIR", help="also write a QOBLIB submission into DIR (new or empty)")
    qoblib.add_argument("--submitter", metavar="NAME", help="the Submitter column: name(s) and affiliation(s)")
    qoblib.add_argument("--reference", metavar="TEXT",
                        help="the Reference column: a paper or repository (default: nonoqubo's version)")
    add_force_argument(parser)
    parser.set_defaults(run=run)
    return parser


def options_of(args: argparse.Namespace) -> EvaluateOptions:
    """The parsed command line as the library's options."""
    return EvaluateOptions(
        args.model, tuple(args.samples), setting=args.setting, time=args.time, polish=args.polish,
        samples_format=args.samples_format, embedding=args.embedding, chain_break=args.chain_break, json=args.json,
        csv=args.csv, report=args.report, figures=args.figures, jobs=args.jobs, quiet=args.quiet,
        submission=args.submission, submitter=args.submitter, reference=args.reference, force=args.force)


def run(args: argparse.Namespace) -> int:
    done = write_outputs(options_of(args), stage=progress_stage(args),
                         # shown even with -q, as warnings are: files of the runs folder were not judged
                         note=lambda line: print(f"note: {line}", file=sys.stderr))
    if done.stdout is not None:
        print(done.stdout, flush=True)
    for line in done.messages:  # after the table: the files written
        print(line, file=sys.stderr)
    return 0
