"""Every number a campaign reports, made in one place: per group, and across groups for the figures.

:mod:`nonoqubo.campaign.evaluate` reads and judges the sample files and folds each into the
:class:`Tally` of its ``(model, setting)``; this module is the one home of the numbers made from
those tallies: the per-group figures the table, JSON, CSV and the page print (:func:`figures`,
through :meth:`Group.figures`), and what the report's figures show across groups (points, size
classes, class quartiles, histogram bins, conflict shares, the best pictures).  Nothing here reads
a file or draws: :mod:`nonoqubo.campaign.plots` draws what this module hands it, and the HTML page
is :mod:`nonoqubo.campaign.report_html`'s.

**A group's figures** (:func:`figures`, for the raw and for the polished samples):

* ``samples``: the runs judged (a sample seen ``k`` times, ``num_occurrences``, counts ``k``
  times), ``valid``: those of energy 0 (a solution);
* ``p``: the success probability ``valid / samples``, with its 95 % Wilson score interval
  ``[p_lo, p_hi]`` (:func:`wilson`);
* ``r99``: the runs needed to see a solution with 99 % probability, ``ln(0.01) / ln(1 - p)``,
  and ``tts99 = t * r99`` with ``t`` the seconds per run.  Conventions (:func:`runs_to_solution`):
  ``p = 0`` gives infinity; at least one run is always needed, so ``p >= 0.99`` (and ``p = 1``)
  gives ``r99 = 1``, ``tts99 = t``.  The interval of ``r99`` (and ``tts99``) is its value at
  ``p_hi`` and at ``p_lo``;
* ``p_bound``, ``r99_bound``, ``tts99_bound``: for a group with no success (a *censored* point)
  what its runs do say, one-sided at 95 % (:func:`censored_bounds`); None when measured;
* the residual energy (above the ground state 0): min, the 10/25/50/75/90 % quantiles
  (inverted-CDF, as ``numpy.quantile(..., method="inverted_cdf")`` of the samples with repeats:
  :func:`weighted_quantiles`), max and mean;
* the shares of samples with at least one broken wall, block-order violation or cell conflict;
  the most often wrong lines and cells (:data:`TOP` of each); the distinct valid pictures found;
  the best energy and picture.

**Tallies are streamed.**  A :class:`Tally` holds what a batch of samples adds up to: a histogram
of its energies (the distinct energies and their weighted counts), the counts of broken walls,
order violations and cell conflicts, per cell and per line how often it is wrong, the best
picture and the distinct valid pictures.  Tallies merge (:meth:`Tally.merge`) into a tally of the
same size, so a group of 10,000 files costs the memory of one; every figure above is exact from
the histogram (the quantiles of the samples with repeats are those of the distinct values with
their counts).  The samples' energies in the order read are kept only when asked
(``in_order``: a QOBLIB submission lists every run).

**Points.**  :func:`points` gives one :class:`Point` per (model, setting, stage): the group's
``p`` with its Wilson interval, and the *cost* the TTS figure shows (:func:`cost_metric`):

* ``tts99`` in seconds, ``t * R99``, when every group of the campaign has a time per run ``t``
  (read from the sample files or given with ``--time``);
* otherwise ``r99``, the runs to 99 %, ``R99 = ln(0.01) / ln(1 - p)`` (at least 1).

**Censoring.**  An instance with no success (``p = 0``, "censored") has no finite R99, and its
p = 0 has no place on a log axis.  What its ``n`` runs do say is a one-sided bound
(:func:`censored_bounds`): with 95 % confidence ``p <= p_bound = 1 - 0.05^(1/n)`` (the exact,
Clopper-Pearson, bound for no success in ``n`` runs; about ``3/n``), so ``R99 >= R99(p_bound) =
n ln(0.01)/ln(0.05) = 1.537 n`` runs and ``TTS99 >= 1.537 n t``: at least 1.54 times the
sampling time the setting spent on the instance without a success.  The cost bound is set by
the time spent (runs times the time per run), the p bound by the runs alone, so a setting with
fewer runs has a *higher* (weaker) p bound.  The point is drawn at that bound as an open marker
with an arrow (up on the cost axis, down on the p axis), never as a value, and never joined to
measured points.

**Size classes** (:func:`size_class`).  A random family of the suite (its index entry's ``family``,
written by the generator) is one class: every instance has the same grid and density.  Every other puzzle falls in a bin
of its variable count, ``2^k <= variables < 2^(k+1)`` (e.g. "other, 256-511 variables").  A
class is placed at the median variable count of its instances (:func:`class_places`).

**Class statistics** (:func:`class_stats`): the 25 %, 50 % and 75 % quantiles across the class's
instances (NumPy's default "linear" interpolation), one setting and stage at a time.  A censored
instance enters at its bound.  A quantile that a censored instance could still move (one
sorted at or below the order statistics the quantile interpolates) is itself only a bound, and
is flagged (:func:`censored_quantiles`); the plots draw it hollow with an arrow.

**Panels** (:func:`panel_order`: model-major, by size, then name and setting).  The residual-energy
histograms (:func:`energy_panels`) bin whole integers, at most :data:`MAX_BARS` bars a panel, one
bin width per model (its panels share an x axis), energy 0 always a bar of its own, each bar's
height the share of the group's samples; the polished bars only where they differ.  The
conflict maps (:func:`conflict_maps`) give per cell the share of samples whose row and column
views disagree, on one scale for the whole campaign (:func:`conflict_scale`).  The best
pictures (:func:`best_pictures`) are each model's lowest-energy raw sample over its settings.

Examples:
    >>> wilson(0, 10)[0], round(wilson(5, 10)[1], 4)
    (0.0, 0.7634)
    >>> runs_to_solution(0.0), runs_to_solution(1.0), round(runs_to_solution(0.5), 4)
    (inf, 1.0, 6.6439)
    >>> size_class({"kind": "random", "width": 10, "height": 10, "density": 0.5}, 160).label
    'random 10x10 d0.5'
    >>> size_class(None, 437).label
    'other, 256-511 variables'
    >>> [round(v, 4) for v in censored_bounds(20, 0.5)]
    [0.1391, 30.7449, 15.3724]
    >>> q, bound = censored_quantiles([1.0, 2.0, 3.0, 10.0], [False, False, False, True], (0.25, 0.5, 0.75))
    >>> [float(v) for v in q], [bool(b) for b in bound]
    ([1.75, 2.5, 4.75], [False, False, True])
    >>> first, last, counts = energy_bins(np.array([0, 1, 2, 3, 7]), np.array([5, 1, 1, 1, 2]), 0, 3)
    >>> first.tolist(), last.tolist(), counts.tolist()
    ([0, 1, 4, 7], [0, 3, 6, 9], [5, 3, 0, 2])
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..answers.decode import Analysis
from ..errors import NonoquboError
from ..model.palette import BW, Palette
from ..records import ModelInfo, plain

__all__ = [
    "BOUND_CONFIDENCE", "BY_FOLDER", "BY_OPTION", "BY_RECORD", "CENSORED_NOTE", "CLASS_QUANTILES", "MAX_BARS",
    "QUANTILES", "TOP", "Bars", "ClassStat", "ConflictMap", "EnergyPanel", "Group", "Point", "SizeClass", "Tally",
    "best_known_energies", "best_pictures", "bin_width", "bound_counts", "censored_bounds", "censored_quantiles",
    "class_places", "class_stats", "conflict_maps", "conflict_scale", "cost_cell", "csv_table", "cost_label", "cost_metric",
    "describe_time", "energy_bins", "energy_panels", "figures", "group_stages", "instance_marks", "lowest_p",
    "median_lines", "number", "panel_order", "percent", "points", "runs_to_solution", "size_class",
    "solutions_label", "stages_to_draw", "time_notes", "time_sources", "tts_of", "weighted_quantiles", "wilson",
]

#: the residual-energy quantiles reported
QUANTILES = (0.1, 0.25, 0.5, 0.75, 0.9)
#: z of the 95 % Wilson interval
Z95 = 1.959963984540054
#: lines and cells listed as most often wrong
TOP = 5
#: the one-sided confidence of a censored instance's bound (:func:`censored_bounds`)
BOUND_CONFIDENCE = 0.95
#: the quantiles across a class's instances: the interquartile range and the median
CLASS_QUANTILES = (0.25, 0.5, 0.75)
#: most bars in one histogram panel: a wider energy range is binned by whole numbers of integers
MAX_BARS = 60


# -- statistics --------------------------------------------------------------------------------
def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion ``k / n`` (``(0, 1)`` when ``n = 0``)."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half) if k else 0.0, min(1.0, centre + half) if k < n else 1.0


def runs_to_solution(p: float, target: float = 0.99) -> float:
    """Runs needed to see a success with probability *target*: ``ln(1-target)/ln(1-p)``, at least 1."""
    if p <= 0.0:
        return math.inf
    if p >= target:
        return 1.0
    return max(1.0, math.log(1.0 - target) / math.log1p(-p))


def censored_bounds(runs: int, seconds: float | None = None) -> tuple[float, float, float | None]:
    """The bounds of an instance with no success in *runs* runs: ``(p_bound, r99_bound, tts99_bound)``.

    With :data:`BOUND_CONFIDENCE` (one-sided), ``p <= 1 - (1 - 0.95)^(1/runs)`` (no success is that
    unlikely for a larger p), hence ``R99 >= R99(p_bound)`` and ``TTS99 >= seconds * R99(p_bound)``
    (None without a time per run).
    """
    p_bound = 1.0 - (1.0 - BOUND_CONFIDENCE) ** (1.0 / max(1, runs))
    r_bound = runs_to_solution(p_bound)
    return p_bound, r_bound, None if seconds is None else seconds * r_bound


def weighted_quantiles(values: np.ndarray, weights: np.ndarray, qs: Sequence[float]) -> np.ndarray:
    """Inverted-CDF quantiles of *values* repeated *weights* times (no repetition is made).

    The same for the samples and for their histogram (distinct values, summed weights).

    Examples:
        >>> weighted_quantiles(np.array([3, 1, 2]), np.array([1, 2, 1]), (0.0, 0.5, 1.0)).tolist()
        [1, 1, 3]
    """
    order = np.argsort(values, kind="stable")
    v, cw = values[order], np.cumsum(weights[order])
    idx = np.searchsorted(cw, np.asarray(qs, dtype=np.float64) * cw[-1], side="left")
    return v[np.minimum(idx, v.size - 1)]


# -- the additive figures of a batch -----------------------------------------------------------
def _histogram(energies: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct energies (sorted) and the summed weights of each: a batch's energies as a histogram."""
    values, inverse = np.unique(energies.astype(np.int64), return_inverse=True)
    counts = np.zeros(values.size, np.int64)
    np.add.at(counts, inverse.reshape(-1), weights.astype(np.int64))
    return values, counts


#: the best energy of a tally of no samples (:meth:`Tally.empty`): above any sample's
NO_ENERGY = 2**62


@dataclass
class Tally:
    """What a batch of samples contributes to its group; tallies add up (:meth:`merge`) and stay one size.

    ``values`` and ``counts`` are the histogram of the samples' energies (every distinct energy,
    sorted, and its weighted count; a value of weight 0 is kept, as the samples' minimum counts it);
    every other field is a sum, a best or a union.  ``sequence`` keeps, only when asked (:meth:`of`
    with ``in_order``), the samples' energies and weights in the order read: ``energies`` and
    ``weights`` give them (a QOBLIB submission lists every run).
    """

    values: np.ndarray  # (distinct energies,) int64, sorted
    counts: np.ndarray  # (distinct energies,) int64, weighted
    broken: int  # samples (weighted) with a broken wall
    order: int
    conflict: int
    cell_wrong: np.ndarray  # (H*W,) weighted count of samples where the cell is in conflict
    line_wrong: np.ndarray  # (lines,) weighted count of samples where the line fails its clue
    best_energy: int
    best_grid: np.ndarray  # (H, W) int8 colour indices (0 = background; 0/1 in black and white)
    palette: Palette = BW
    #: the distinct valid pictures (their colour-index bytes)
    found: frozenset[bytes] = frozenset()
    #: the samples' (energies, weights) in the order read, when kept (:meth:`of` ``in_order``)
    sequence: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, analysis: Analysis, weights: np.ndarray, palette: Palette = BW, *, in_order: bool = False) -> Tally:
        """The tally of one batch: *analysis* of its ``(S, N)`` samples, each seen *weights* times."""
        w = weights.astype(np.int64)
        # the cell terms are per (cell, colour) slot, cell-major: a cell is wrong when any of its
        # colours disagree (one slot a cell in black and white)
        samples, height, width = analysis.grid.shape
        slots = analysis.row_colour != analysis.col_colour
        conflicts = slots.reshape(samples, height * width, -1).any(axis=2)
        best = int(np.argmin(analysis.energy))
        valid = analysis.grid[(analysis.energy == 0) & (w > 0)].astype(np.int8)
        found = frozenset(row.tobytes() for row in np.unique(valid.reshape(len(valid), height * width), axis=0))
        energies = analysis.energy.astype(np.int64)
        values, counts = _histogram(energies, w)
        return cls(
            values=values, counts=counts,
            broken=int(w @ analysis.broken.any(axis=1)), order=int(w @ analysis.order.any(axis=1)),
            conflict=int(w @ conflicts.any(axis=1)),
            cell_wrong=w @ conflicts, line_wrong=w @ analysis.failing,
            best_energy=int(analysis.energy[best]), best_grid=analysis.grid[best].astype(np.int8),
            palette=palette, found=found, sequence=(energies, w) if in_order else None,
        )

    @classmethod
    def empty(cls, height: int, width: int, lines: int, palette: Palette = BW, *, in_order: bool = False) -> Tally:
        """The tally of no samples (a failed run's): it adds nothing to a group's figures, and any sample's best beats
        its best energy."""
        none = np.zeros(0, np.int64)
        return cls(values=none, counts=none, broken=0, order=0, conflict=0,
                   cell_wrong=np.zeros(height * width, np.int64), line_wrong=np.zeros(lines, np.int64),
                   best_energy=NO_ENERGY, best_grid=np.zeros((height, width), np.int8), palette=palette,
                   sequence=(none, none) if in_order else None)

    def merge(self, other: Tally) -> Tally:
        """The tally of both batches (this one's samples first); as large as either."""
        best = other if other.best_energy < self.best_energy else self
        if np.array_equal(self.values, other.values):  # the usual case in a group: the same energies seen
            values, counts = self.values, self.counts + other.counts
        else:
            values = np.union1d(self.values, other.values)
            counts = np.zeros(values.size, np.int64)
            counts[np.searchsorted(values, self.values)] += self.counts  # each histogram's values are distinct
            counts[np.searchsorted(values, other.values)] += other.counts
        sequence = None if self.sequence is None or other.sequence is None else (
            np.concatenate((self.sequence[0], other.sequence[0])), np.concatenate((self.sequence[1], other.sequence[1])))
        return Tally(
            values, counts, self.broken + other.broken, self.order + other.order,
            self.conflict + other.conflict, self.cell_wrong + other.cell_wrong, self.line_wrong + other.line_wrong,
            best.best_energy, best.best_grid, best.palette, self.found | other.found, sequence,
        )

    @property
    def energies(self) -> np.ndarray:
        """The samples' energies in the order read (kept only with ``in_order``)."""
        return self._in_order()[0]

    @property
    def weights(self) -> np.ndarray:
        """The samples' weights (``num_occurrences``) in the order read (kept only with ``in_order``)."""
        return self._in_order()[1]

    def _in_order(self) -> tuple[np.ndarray, np.ndarray]:
        if self.sequence is None:
            raise NonoquboError("the samples' energies in the order read were not kept: "
                                "judge the campaign with evaluate(..., in_order=True)")
        return self.sequence

    @property
    def samples(self) -> int:
        return int(self.counts.sum())

    @property
    def valid(self) -> int:
        return int(self.counts[self.values == 0].sum())


# -- a group and its figures -------------------------------------------------------------------
#: how a group's files were put together (``grouped_by`` in the JSON)
BY_RECORD, BY_FOLDER, BY_OPTION = "run record", "folder (the files record no run)", "--setting"


@dataclass
class Group:
    """Everything about one ``(model, setting)``: its tallies, where its time per run came from, what it is."""

    model: str
    setting: str
    info: ModelInfo
    files: int
    seconds: float | None
    raw: Tally
    polished: Tally | None = None
    #: where ``seconds`` came from (:mod:`nonoqubo.campaign.evaluate`'s docstring), and what the files record of their run
    time_source: str = "none"
    run: dict[str, Any] | None = None
    #: what the setting is (sampler, parameters, encoding, weights) when the files record it
    setting_record: dict[str, Any] | None = None
    grouped_by: str = BY_FOLDER
    #: presolve left the model no variable: reported apart, outside p, TTS and their figures
    solved_by_presolve: bool = False
    #: the puzzle is proven to have no solution (CP-SAT counted 0): its ground energy is above 0
    unsolvable: bool = False
    #: the lowest energy any setting of the campaign found for this model (an unsolvable one's best known)
    best_known_energy: int | None = None
    #: runs stopped at a target energy (``--target-energy``): the mean seconds of the successful runs and of
    #: the others, each its own (:func:`tts_of`); None when not every file of the group had a target
    split_seconds: tuple[float | None, float | None] | None = None
    #: runs that left no samples: campaign tasks their time limit stopped (a run record's ``failed``); their
    #: seconds are in ``seconds`` (spent without a success), their samples nowhere
    failed_runs: int = 0

    @property
    def scored(self) -> bool:
        """Whether the group belongs in p, TTS and their figures (neither solved by presolve nor unsolvable)."""
        return not (self.solved_by_presolve or self.unsolvable)

    def figures(self, stage: str = "raw") -> dict[str, Any]:
        """The figures of the raw or polished samples (:func:`figures`) with the puzzle's known solutions."""
        tally = self.raw if stage == "raw" else self.polished
        if tally is None:
            raise ValueError(f"no {stage} figures")
        split = self.split_seconds if stage == "raw" else None  # polishing changes which runs succeed
        out = figures(tally, self.seconds, self.info.width, self.info.line_names, self.time_source, split)
        out["solutions"], out["solutions_exact"] = self.info.solutions, self.info.solutions_exact
        # a proven-unsolvable puzzle has no energy-0 state: its ground energy is unknown and above 0
        out["ground_energy"] = "none" if self.unsolvable else 0
        out["best_known_energy"] = self.best_known_energy if self.unsolvable else 0
        return out


def tts_of(r99: float, seconds: float | None, split: tuple[float | None, float | None] | None = None) -> float | None:
    """TTS99 of *r99* runs: ``seconds * r99``; with runs stopped at a target energy, *split* ``(t_s, t_f)``,
    the mean seconds of a successful run (its time to target) and of an unsuccessful one (its whole budget):
    ``t_s + (r99 - 1) t_f``, the last of the r99 runs succeeding and every one before it failing, each at its
    own time (a mean over all runs times r99 would credit the early stop of one success to every run).

    Examples:
        >>> tts_of(4.0, 2.0), tts_of(4.0, 2.0, (0.5, 3.0)), tts_of(1.0, 2.0, (0.5, None))
        (8.0, 9.5, 0.5)
    """
    if seconds is None:
        return None
    if split is None or not math.isfinite(r99):
        return seconds * r99
    success, failure = split
    if success is None:  # no success: every run failed, at its whole budget
        return seconds * r99
    return success + (r99 - 1.0) * (failure if failure is not None else success)


def figures(tally: Tally, seconds: float | None, width: int, line_names: Sequence[str],
            time_source: str | None = None, split: tuple[float | None, float | None] | None = None) -> dict[str, Any]:
    """The reported figures of a tally (the module docstring); *time_source* says where *seconds* came from,
    *split* the mean seconds of the successful and the other runs of a run stopped at a target (:func:`tts_of`)."""
    n, k = tally.samples, tally.valid
    p = k / n if n else 0.0
    lo, hi = wilson(k, n)
    r99, r_lo, r_hi = runs_to_solution(p), runs_to_solution(hi), runs_to_solution(lo)
    e, w = tally.values, tally.counts
    # no samples (a group of failed runs only): no energies to give
    qs: Any = weighted_quantiles(e, w, (0.0, *QUANTILES, 1.0)) if n else [None] * (len(QUANTILES) + 2)
    out: dict[str, Any] = {
        "samples": n, "valid": k, "p": p, "p_lo": lo, "p_hi": hi,
        "seconds_per_run": seconds,
        "time_source": time_source or ("none" if seconds is None else "given"), "r99": r99, "r99_lo": r_lo, "r99_hi": r_hi,
        "tts99": tts_of(r99, seconds, split),
        "tts99_lo": tts_of(r_lo, seconds, split),
        "tts99_hi": tts_of(r_hi, seconds, split),
        # no success: only one-sided 95 % bounds are known (censored_bounds), where the figures draw the point
        **dict(zip(("p_bound", "r99_bound", "tts99_bound"),
                   censored_bounds(n, seconds) if n and not k else (None, None, None))),
        "energy_min": _whole(qs[0]),
        **{f"energy_q{round(q * 100):02d}": _whole(v) for q, v in zip(QUANTILES, qs[1:-1])},
        "energy_max": _whole(qs[-1]), "energy_mean": float(w @ e / n) if n else None,
        "share_broken_walls": tally.broken / n if n else 0.0,
        "share_order_violations": tally.order / n if n else 0.0,
        "share_cell_conflicts": tally.conflict / n if n else 0.0,
    }
    lines = np.argsort(-tally.line_wrong, kind="stable")[:TOP]
    out["worst_lines"] = [{"line": line_names[int(t)], "share": float(tally.line_wrong[t] / n)}
                          for t in lines if tally.line_wrong[t] > 0]
    cells = np.argsort(-tally.cell_wrong, kind="stable")[:TOP]
    out["worst_cells"] = [{"row": int(c) // width + 1, "column": int(c) % width + 1,
                           "share": float(tally.cell_wrong[c] / n)} for c in cells if tally.cell_wrong[c] > 0]
    out["distinct_solutions"] = len(tally.found)
    out["best_energy"] = tally.best_energy if n else None
    out["best_picture"] = list(tally.palette.picture(tally.best_grid))
    return out


def _whole(value: Any) -> int | None:
    return None if value is None else int(value)


def best_known_energies(groups: Sequence[Group]) -> dict[tuple[str, str, str], int]:
    """The lowest energy any setting found, per model as scored: ``(model, encoding, weights)`` -> energy."""
    best: dict[tuple[str, str, str], int] = {}
    for g in groups:
        k = (g.model, g.info.encoding, g.info.weights)
        found = min(t.best_energy for t in (g.raw, g.polished) if t is not None)
        best[k] = min(best.get(k, found), found)
    return best


# -- the words of the tables -------------------------------------------------------------------
def csv_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    """CSV text: *header*, then *rows*, every value :func:`~nonoqubo.records.plain` (a NumPy scalar as its
    number, infinity ``inf``) and None an empty field: evaluate's ``--csv``, a figure's numbers, QOBLIB's metrics.

    Examples:
        >>> csv_table(["a", "b"], [[np.float64(0.5), None], [float("inf"), "x"]])
        'a,b\\n0.5,\\ninf,x\\n'
    """
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(["" if v is None else plain(v) for v in row] for row in rows)
    return buf.getvalue()


def percent(x: float) -> str:
    """A share as the CLI prints it: ``0.17`` -> ``17.0%``."""
    return f"{100 * x:.1f}%"


def number(x: Any) -> str:
    """A number as the text table prints it: 3 significant digits, ``inf``, ``-`` for none.

    Examples:
        >>> number(None), number(float("inf")), number(0.000554321)
        ('-', 'inf', '0.000554')
    """
    if x is None:
        return "-"
    if isinstance(x, float) and math.isinf(x):
        return "inf"
    return f"{x:.3g}"


def solutions_label(f: dict[str, Any]) -> str:
    """Distinct valid pictures found, of the known count: ``2/3``, ``1/>=2``, ``1/?``."""
    known = f.get("solutions")
    total = "?" if known is None else str(known) if f.get("solutions_exact") else f">={known}"
    return f"{f['distinct_solutions']}/{total}"


def cost_cell(f: dict[str, Any], metric: str) -> str:
    """A cost (``tts99`` or ``r99``) as the tables print it: ``value [lo, hi]``, or for a censored
    point (no success) ``inf (>=bound)``, the one-sided 95 % bound the figures draw it at.

    Examples:
        >>> cost_cell({"r99": 2.0, "r99_lo": 1.0, "r99_hi": 5.0, "r99_bound": None}, "r99")
        '2 [1, 5]'
        >>> cost_cell({"r99": float("inf"), "r99_lo": 7.0, "r99_hi": float("inf"), "r99_bound": 29.0}, "r99")
        'inf (>=29)'
    """
    bound = f.get(f"{metric}_bound")
    if bound is not None:
        return f"{number(f[metric])} (>={number(bound)})"
    return f"{number(f[metric])} [{number(f[metric + '_lo'])}, {number(f[metric + '_hi'])}]"


#: the line under a table that has censored rows
CENSORED_NOTE = ("inf (>=B): no run of that row reached energy 0; with 95 % confidence its p is at most "
                 "1 - 0.05^(1/n) for its n runs, so its cost is at least B (a bound, drawn in the figures as an "
                 "open marker with an arrow)")


def stages_to_draw(groups: Sequence[Group]) -> list[str]:
    """``["raw", "polished"]`` when every group was polished and polishing changed a success count."""
    if not groups or any(g.polished is None for g in groups):
        return ["raw"]
    changed = any(g.polished is not None and g.polished.valid != g.raw.valid for g in groups)
    return ["raw", "polished"] if changed else ["raw"]


def group_stages(group: Group) -> list[str]:
    """The stages a table shows for a group: ``raw``, and ``polished`` only where polishing changed an energy.

    A polished row equal to its raw row says nothing new; the table says so once instead.  A
    descent never raises a sample's energy, so the polished histogram equals the raw one exactly
    when no sample's energy changed.
    """
    pol = group.polished
    if pol is None or (np.array_equal(pol.values, group.raw.values) and np.array_equal(pol.counts, group.raw.counts)):
        return ["raw"]
    return ["raw", "polished"]


def cost_metric(groups: Sequence[Group]) -> str:
    """``"tts99"`` when every group has a time per run, else ``"r99"`` (runs to 99 %)."""
    return "tts99" if groups and all(g.seconds is not None for g in groups) else "r99"


def describe_time(group: Group) -> str:
    """Where a group's time per run came from, in words: ``evaluate``'s ``time_source`` and how it was taken.

    ``"given"`` is ``--time``; ``"sampler timing"`` and ``"wall clock"`` come with the way
    ``solve -o`` took them (``timing.per_run`` of its record) when the files say it.
    """
    source = group.time_source
    if group.seconds is None or source == "none":
        return "no time per run recorded"
    if source == "given":
        return "given with --time"
    run = group.run or {}
    timing = given if isinstance(given := run.get("timing"), dict) else {}
    how = timing.get("per_run") if isinstance(timing.get("per_run"), str) else None
    return f"{source} ({how})" if how else source


def by_setting(groups: Sequence[Group], what: Callable[[Group], str]) -> dict[str, list[str]]:
    """Per setting (in the order first met), the distinct ``what(group)`` of its groups, sorted."""
    by: dict[str, set[str]] = {}
    for g in groups:
        by.setdefault(g.setting, set()).add(what(g))
    return {s: sorted(v) for s, v in by.items()}


def time_sources(groups: Sequence[Group]) -> dict[str, str]:
    """Per setting, where its time per run came from, in short (a cost plot's legend)."""
    by = by_setting(groups, lambda g: g.time_source if g.seconds is not None else "none")
    return {s: ", ".join(v) for s, v in by.items()}


def time_notes(groups: Sequence[Group]) -> str:
    """Per setting, where its time per run came from and how it was taken (:func:`describe_time`), in one line."""
    return "; ".join(f"{s}: {', '.join(v)}" for s, v in sorted(by_setting(groups, describe_time).items()))


def cost_label(metric: str) -> str:
    """The axis label of a cost metric."""
    return "TTS99 (s)" if metric == "tts99" else "R99 (runs to 99 %)"


# -- points and size classes -------------------------------------------------------------------
#: the start of a variable-count bin's label (every other class is a random family's)
_OTHER = "other, "


@dataclass(frozen=True, order=True)
class SizeClass:
    """A group of instances whose figures are summarised together."""

    order: tuple[int, float]  # sort key: (variables bin or family cells, density)
    label: str
    random: bool  # a random family (same grid size and density) rather than a variable-count bin


def size_class(family: Mapping[str, Any] | None, variables: int) -> SizeClass:
    """The size class of a model: its random family (the ``family`` fields the generator wrote into the suite's
    index, never parsed from a name), or its bin of variable counts (module docstring)."""
    if family is not None and family.get("kind") == "random":
        w, h, d = int(family["width"]), int(family["height"]), float(family["density"])
        return SizeClass((w * h, d), f"random {w}x{h} d{d:g}", True)
    k = max(0, int(variables).bit_length() - 1)  # 2^k <= variables < 2^(k+1)
    lo, hi = (0, 1) if variables <= 0 else (2 ** k, 2 ** (k + 1) - 1)
    return SizeClass((lo, -1.0), f"{_OTHER}{lo}-{hi} variables", False)


@dataclass(frozen=True)
class Point:
    """One (model, setting, stage): its p with the Wilson interval and its cost (R99 or TTS99)."""

    model: str
    setting: str
    stage: str
    size_class: str
    variables: int
    samples: int
    valid: int
    p: float
    p_lo: float
    p_hi: float
    #: no success: p = 0, the cost is infinite and only its bound is known
    censored: bool
    seconds_per_run: float | None
    r99: float
    #: the cost shown: r99 or tts99 (infinite when censored)
    cost: float
    #: the cost's 95 % interval: at p_hi and at p_lo
    cost_lo: float
    cost_hi: float
    #: a censored point's one-sided 95 % bounds (:func:`censored_bounds`), where it is drawn; None when measured
    p_bound: float | None = None
    cost_bound: float | None = None
    #: where the time per run came from (:func:`describe_time`)
    time_source: str = ""


def points(groups: Sequence[Group], stages: Sequence[str] | None = None, metric: str | None = None) -> list[Point]:
    """One :class:`Point` per group and stage (default: :func:`stages_to_draw`, :func:`cost_metric`).

    Every number is the group's own (:meth:`Group.figures`), the cost scaled by the time per run.
    """
    stages = list(stages) if stages is not None else stages_to_draw(groups)
    metric = metric or cost_metric(groups)
    out = []
    for g in groups:
        cls = size_class(g.info.family, g.info.variables)
        for stage in stages:
            f = g.figures(stage)
            scale = 1.0 if metric == "r99" else float(g.seconds)  # type: ignore[arg-type]
            censored = f["valid"] == 0
            cost, cost_lo, cost_hi = ((f["r99"], f["r99_lo"], f["r99_hi"]) if metric == "r99"
                                      else (f["tts99"], f["tts99_lo"], f["tts99_hi"]))
            out.append(Point(
                model=g.model, setting=g.setting, stage=stage, size_class=cls.label,
                variables=g.info.variables, samples=f["samples"], valid=f["valid"],
                p=f["p"], p_lo=f["p_lo"], p_hi=f["p_hi"], censored=censored,
                seconds_per_run=g.seconds, r99=f["r99"], cost=cost, cost_lo=cost_lo, cost_hi=cost_hi,
                p_bound=f["p_bound"] if censored else None,
                cost_bound=scale * f["r99_bound"] if censored else None,
                time_source=describe_time(g)))
    return out


def instance_marks(pts: Sequence[Point], quantity: str) -> tuple[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
                                                                  tuple[np.ndarray, np.ndarray]]:
    """What a size plot marks for its instances of one quantity (``"p"`` or the cost).

    Returns ``((x, y, lo, hi), (x_bound, y_bound))``: the measured instances at their variable
    count with the ends of their 95 % bar (an end the log axis cannot show, a cost's infinite top
    or a bottom of 0, is drawn at the value: no bar that way), and the censored ones at their bound.
    """
    ok = [pt for pt in pts if not pt.censored]
    x = np.array([pt.variables for pt in ok], float)
    if quantity == "p":
        y = np.array([pt.p for pt in ok])
        lo, hi = np.array([pt.p_lo for pt in ok]), np.array([pt.p_hi for pt in ok])
    else:
        y = np.array([pt.cost for pt in ok])
        lo, hi = np.array([pt.cost_lo for pt in ok]), np.array([pt.cost_hi for pt in ok])
    hi = np.where(np.isfinite(hi), hi, y)  # a p_lo of 0 leaves the cost's top open
    lo = np.where(lo > 0, lo, y)  # a p_lo of 0 leaves no bottom on a log axis
    cens = [pt for pt in pts if pt.censored]
    xb = np.array([pt.variables for pt in cens], float)
    yb = np.array([(pt.p_bound if quantity == "p" else pt.cost_bound) or np.nan for pt in cens])
    return (x, y, lo, hi), (xb, yb)


def lowest_p(pts: Sequence[Point]) -> float:
    """The lowest p a success plot marks (a censored bound, a bar's bottom, or a p), 0.01 when none is positive."""
    candidates = [pt.p_bound if pt.censored else pt.p_lo if pt.p_lo > 0 else pt.p for pt in pts]
    return min((v for v in candidates if v is not None and v > 0), default=0.01)


def bound_counts(pts: Sequence[Point], stats: Sequence[ClassStat]) -> tuple[int, int]:
    """How many drawn points are bounds: ``(censored instances, class medians that are bounds)``."""
    return sum(pt.censored for pt in pts), sum(st.median_bound for st in stats)


def censored_quantiles(values: Sequence[float], censored: Sequence[bool], qs: Sequence[float],
                       upper: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """Quantiles of values some of which are bounds, and whether each quantile is only a bound.

    Args:
        values: one value per instance; a censored one is its bound.
        censored: which values are bounds.
        qs: the quantiles wanted, in [0, 1].
        upper: True when a censored value is a lower bound (the true value is at or above it,
            as R99); False when it is an upper bound (at or below, as p).

    Returns:
        The quantiles (NumPy "linear" interpolation of the values as given), and per quantile
        True when a censored instance sorts at or below (above, for ``upper=False``) an order
        statistic it uses: moving that instance to its true value can move the quantile, which
        is then a bound in the same direction.
    """
    v = np.asarray(values, dtype=np.float64)
    c = np.asarray(censored, dtype=bool)
    if v.size == 0:
        nan = np.full(len(qs), np.nan)
        return nan, np.zeros(len(qs), bool)
    quantiles = np.quantile(v, qs)
    key = v if upper else -v
    order = np.lexsort((c, key))  # ascending; among equal values the bounds last
    c_sorted = c[order]
    first = int(np.argmax(c_sorted)) if c_sorted.any() else v.size  # first censored position
    positions = np.asarray(qs, dtype=np.float64) * (v.size - 1)
    used = np.ceil(positions) if upper else np.ceil((1 - np.asarray(qs, np.float64)) * (v.size - 1))
    return quantiles, used >= first


@dataclass(frozen=True)
class ClassStat:
    """The quantiles of one quantity across a size class, for one setting and stage."""

    setting: str
    stage: str
    size_class: str
    random: bool
    #: the class's median variable count (where it is drawn)
    variables: float
    instances: int
    censored: int
    quantity: str  # "p" or the cost metric
    q25: float
    median: float
    q75: float
    q25_bound: bool
    median_bound: bool
    q75_bound: bool


def _bound_or(bound: float | None, value: float, censored: bool) -> float:
    """A censored point's bound (every censored point has one), else its measured value."""
    if censored:
        assert bound is not None, "a censored point carries its bound"
        return bound
    return value


def class_stats(pts: Sequence[Point], quantity: str) -> list[ClassStat]:
    """The class quantiles of ``p`` or of the cost (``quantity`` "p", "r99" or "tts99").

    A censored instance enters ``p`` at ``p_bound`` (an upper bound) and the cost at ``cost_bound``
    (a lower bound), see :func:`censored_bounds` and :func:`censored_quantiles`.
    """
    buckets: dict[tuple[str, str, str], list[Point]] = {}
    for pt in pts:
        buckets.setdefault((pt.setting, pt.stage, pt.size_class), []).append(pt)
    out = []
    for (setting, stage, label), mine in buckets.items():
        cens = [pt.censored for pt in mine]
        if quantity == "p":
            vals = [_bound_or(pt.p_bound, pt.p, pt.censored) for pt in mine]
            q, bound = censored_quantiles(vals, cens, CLASS_QUANTILES, upper=False)
        else:
            vals = [_bound_or(pt.cost_bound, pt.cost, pt.censored) for pt in mine]
            q, bound = censored_quantiles(vals, cens, CLASS_QUANTILES, upper=True)
        out.append(ClassStat(setting, stage, label, not label.startswith(_OTHER), float(np.median([pt.variables for pt in mine])),
                             len(mine), sum(cens), quantity, float(q[0]), float(q[1]), float(q[2]),
                             bool(bound[0]), bool(bound[1]), bool(bound[2])))
    out.sort(key=lambda s: (s.setting, s.stage, s.variables, s.size_class))
    return out


def class_places(stats: Sequence[ClassStat]) -> list[tuple[str, float]]:
    """Each size class and the variable count a size plot names it at (the median of where its statistics sit), in that order."""
    where: dict[str, list[float]] = {}
    for st in stats:
        where.setdefault(st.size_class, []).append(st.variables)
    names = sorted(where, key=lambda label: float(np.median(where[label])))
    return [(n, float(np.median(where[n]))) for n in names]


def median_lines(stats: Sequence[ClassStat]) -> list[list[int]]:
    """Which class medians a line joins (indices into *stats*): the random families of one density,
    and the variable-count bins; never one kind to the other (a kind with one class: no line)."""
    kinds: dict[str, list[int]] = {}
    for i, st in enumerate(stats):
        kinds.setdefault(st.size_class.rsplit(" d", 1)[-1] if st.random else "", []).append(i)
    return [idx for idx in kinds.values() if len(idx) > 1]


# -- the panels: residual-energy histograms, conflict maps, best pictures ----------------------
def panel_order(groups: Sequence[Group]) -> list[Group]:
    """Model-major (by size, then name), settings in order within a model: a row per model."""
    return sorted(groups, key=lambda g: (g.info.variables, g.model, g.setting))


def bin_width(low: int, high: int) -> int:
    """Integers per bar so that *low* .. *high* takes at most :data:`MAX_BARS` bars."""
    return max(1, math.ceil((high - low + 1) / MAX_BARS))


def energy_bins(values: np.ndarray, counts: np.ndarray, low: int, width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Energies *values* seen *counts* times in bins of *width* integers from *low*: (first, last energy, count) per bin.

    Energy 0 (a valid picture) always has a bin of its own: with ``low = 0`` the wide bins start at 1.
    Every bin up to the highest energy is listed, empty ones too.
    """
    start = 1 if low == 0 and width > 1 else low
    idx = np.where(values < start, 0, (values - start) // width + (start != low))
    binned = np.zeros(int(idx.max()) + 1, np.int64)
    np.add.at(binned, idx, counts)
    firsts = start + width * (np.arange(binned.size) - (start != low))
    if start != low:
        firsts[0] = low
    lasts = firsts + width - 1
    if low == 0 and width > 1:
        lasts[0] = 0
    return firsts, lasts, binned


@dataclass(frozen=True)
class Bars:
    """One stage's histogram in a panel: per bar its first and last energy, samples and share of the group's samples."""

    first: np.ndarray
    last: np.ndarray
    samples: np.ndarray
    share: np.ndarray


@dataclass(frozen=True)
class EnergyPanel:
    """A group's residual-energy histogram, on its model's bins (shared by the model's panels)."""

    group: Group
    #: the lowest and highest energy of the model's panels (their x axis), and the integers per bar
    low: int
    high: int
    width: int
    raw: Bars
    #: the polished samples' bars, only where they differ from the raw ones
    polished: Bars | None
    #: the tallest bar's share, of both stages
    tallest: float


def _bars(tally: Tally, low: int, width: int, samples: int) -> Bars:
    first, last, counts = energy_bins(tally.values, tally.counts, low, width)
    return Bars(first, last, counts, counts / samples)


def energy_panels(groups: Sequence[Group]) -> list[EnergyPanel]:
    """A histogram panel per group, in :func:`panel_order` (the module docstring)."""
    ordered = panel_order(groups)
    span: dict[str, tuple[int, int]] = {}
    for g in ordered:
        tallies = [g.raw] + ([g.polished] if g.polished is not None else [])
        lo = min(int(t.values.min()) for t in tallies)
        hi = max(int(t.values.max()) for t in tallies)
        old = span.get(g.model, (lo, hi))
        span[g.model] = (min(old[0], lo), max(old[1], hi))
    out = []
    for g in ordered:
        lo, hi = span[g.model]
        wid = bin_width(lo, hi)
        n = max(1, g.raw.samples)
        raw = _bars(g.raw, lo, wid, n)
        polished = None
        if g.polished is not None:
            pol = _bars(g.polished, lo, wid, n)
            if not (np.array_equal(pol.first, raw.first) and np.array_equal(pol.samples, raw.samples)):
                polished = pol  # drawn and listed only where it differs
        tallest = float(raw.samples.max()) / n if raw.samples.size else 0.0
        if polished is not None:
            tallest = max(tallest, float(polished.samples.max()) / n)
        out.append(EnergyPanel(g, lo, hi, wid, raw, polished, tallest))
    return out


@dataclass(frozen=True)
class ConflictMap:
    """A group's cell conflicts: per cell the share of samples whose row and column views disagree."""

    group: Group
    share: np.ndarray  # (height, width)

    def cells(self) -> list[tuple[int, int, float]]:
        """Every cell as ``(row, column, share)``, rows and columns from 1, row by row."""
        height, width = self.share.shape
        return [(r + 1, c + 1, float(self.share[r, c])) for r in range(height) for c in range(width)]


def conflict_maps(groups: Sequence[Group]) -> list[ConflictMap]:
    """A conflict map per group (raw samples), in :func:`panel_order`."""
    return [ConflictMap(g, g.raw.cell_wrong.reshape(g.info.height, g.info.width) / max(1, g.raw.samples))
            for g in panel_order(groups)]


def conflict_scale(maps: Sequence[ConflictMap]) -> float:
    """The top of the one colour scale of every conflict map: the largest share in the campaign (1 when none is above 0)."""
    top = max((float(m.share.max()) for m in maps), default=0.0)
    return top if top > 0 else 1.0


def best_pictures(groups: Sequence[Group]) -> list[Group]:
    """Per model, the group whose raw samples hold its lowest energy (the first in :func:`panel_order` on a tie)."""
    best: dict[str, Group] = {}
    for g in panel_order(groups):
        if g.model not in best or g.raw.best_energy < best[g.model].raw.best_energy:
            best[g.model] = g
    return list(best.values())
