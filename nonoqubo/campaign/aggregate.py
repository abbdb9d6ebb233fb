"""The numbers behind the report's figures: per-instance points, size classes, censored quantiles.

:mod:`nonoqubo.campaign.evaluate` judges each ``(model, setting)``; this module turns its groups
into what an annealing paper plots, and nothing here draws (:mod:`nonoqubo.campaign.plots`
does; the HTML page is :mod:`nonoqubo.campaign.report_html`'s).

**Points.**  :func:`points` gives one :class:`Point` per (model, setting, stage): the success
probability ``p = valid / samples`` with its 95 % Wilson interval (:func:`~nonoqubo.campaign.evaluate.wilson`),
and the *cost* the TTS figure shows (:func:`cost_metric`):

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

**Size classes** (:func:`size_class`).  A random family of the suite (``random-WxH-dD-sS-NNNN``)
is one class: every instance has the same grid and density.  Every other puzzle falls in a bin
of its variable count, ``2^k <= variables < 2^(k+1)`` (e.g. "other, 256-511 variables").  A
class is placed at the median variable count of its instances.

**Class statistics** (:func:`class_stats`): the 25 %, 50 % and 75 % quantiles across the class's
instances (NumPy's default "linear" interpolation), one setting and stage at a time.  A censored
instance enters at its bound.  A quantile that a censored instance could still move (one
sorted at or below the order statistics the quantile interpolates) is itself only a bound, and
is flagged (:func:`censored_quantiles`); the plots draw it hollow with an arrow.

Examples:
    >>> size_class("random-10x10-d0.5-s0-0003", 160).label
    'random 10x10 d0.5'
    >>> size_class("qbpp-logo", 437).label
    'other, 256-511 variables'
    >>> [round(v, 4) for v in censored_bounds(20, 0.5)]
    [0.1391, 30.7449, 15.3724]
    >>> q, bound = censored_quantiles([1.0, 2.0, 3.0, 10.0], [False, False, False, True], (0.25, 0.5, 0.75))
    >>> [float(v) for v in q], [bool(b) for b in bound]
    ([1.75, 2.5, 4.75], [False, False, True])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from .evaluate import BOUND_CONFIDENCE, Group, censored_bounds, runs_to_solution

__all__ = [
    "BOUND_CONFIDENCE", "CLASS_QUANTILES", "ClassStat", "Point", "SizeClass", "censored_bounds", "censored_quantiles", "class_stats", "cost_metric",
    "CENSORED_NOTE", "cost_cell", "cost_label", "describe_time", "group_stages", "percent", "points", "solutions_label", "stages_to_draw", "size_class",
]

#: the quantiles across a class's instances: the interquartile range and the median
CLASS_QUANTILES = (0.25, 0.5, 0.75)
_RANDOM = re.compile(r"^random-(\d+)x(\d+)-d([0-9.eE+-]+)-s(\d+)-\d+(?:\.presolved)?$")


@dataclass(frozen=True, order=True)
class SizeClass:
    """A group of instances whose figures are summarised together."""

    order: tuple[int, float]  # sort key: (variables bin or family cells, density)
    label: str
    random: bool  # a random family (same grid size and density) rather than a variable-count bin


def size_class(model: str, variables: int) -> SizeClass:
    """The size class of a model: its random family, or its bin of variable counts (module docstring)."""
    m = _RANDOM.match(model)
    if m:
        w, h, d = int(m.group(1)), int(m.group(2)), m.group(3)
        return SizeClass((w * h, float(d)), f"random {w}x{h} d{d}", True)
    k = max(0, int(variables).bit_length() - 1)  # 2^k <= variables < 2^(k+1)
    lo, hi = (0, 1) if variables <= 0 else (2 ** k, 2 ** (k + 1) - 1)
    return SizeClass((lo, -1.0), f"other, {lo}-{hi} variables", False)


def percent(x: float) -> str:
    """A share as the CLI prints it: ``0.17`` -> ``17.0%``."""
    return f"{100 * x:.1f}%"


def solutions_label(f: dict[str, Any]) -> str:
    """Distinct valid pictures found, of the known count: ``2/3``, ``1/>=2``, ``1/?``."""
    known = f.get("solutions")
    total = "?" if known is None else str(known) if f.get("solutions_exact") else f">={known}"
    return f"{f['distinct_solutions']}/{total}"


def cost_cell(f: dict[str, Any], metric: str, number: Callable[[Any], str]) -> str:
    """A cost (``tts99`` or ``r99``) as the tables print it: ``value [lo, hi]``, or for a censored
    point (no success) ``inf (>=bound)``, the one-sided 95 % bound the figures draw it at.

    Examples:
        >>> cost_cell({"r99": 2.0, "r99_lo": 1.0, "r99_hi": 5.0, "r99_bound": None}, "r99", str)
        '2.0 [1.0, 5.0]'
        >>> cost_cell({"r99": float("inf"), "r99_lo": 7.0, "r99_hi": float("inf"), "r99_bound": 29.0}, "r99", str)
        'inf (>=29.0)'
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

    A polished row equal to its raw row says nothing new; the table says so once instead.
    """
    pol = group.polished
    if pol is None or np.array_equal(pol.energies, group.raw.energies):
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
    source = getattr(group, "time_source", None) or "none"
    if group.seconds is None or source == "none":
        return "no time per run recorded"
    if source == "given":
        return "given with --time"
    run = getattr(group, "run", None) or {}
    timing = given if isinstance(given := run.get("timing"), dict) else {}
    how = timing.get("per_run") if isinstance(timing.get("per_run"), str) else None
    return f"{source} ({how})" if how else source


def cost_label(metric: str) -> str:
    """The axis label of a cost metric."""
    return "TTS99 (s)" if metric == "tts99" else "R99 (runs to 99 %)"


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

    def row(self) -> dict[str, Any]:
        """A CSV row (infinity as ``inf``)."""
        return asdict(self)


def points(groups: Sequence[Group], stages: Sequence[str] | None = None, metric: str | None = None) -> list[Point]:
    """One :class:`Point` per group and stage (default: :func:`stages_to_draw`, :func:`cost_metric`)."""
    stages = list(stages) if stages is not None else stages_to_draw(groups)
    metric = metric or cost_metric(groups)
    out = []
    for g in groups:
        cls = size_class(g.model, g.info["variables"])
        for stage in stages:
            f = g.figures(stage)
            scale = 1.0 if metric == "r99" else float(g.seconds)  # type: ignore[arg-type]
            censored = f["valid"] == 0
            p_bound, r_bound, _ = censored_bounds(f["samples"])
            out.append(Point(
                model=g.model, setting=g.setting, stage=stage, size_class=cls.label,
                variables=int(g.info["variables"]), samples=f["samples"], valid=f["valid"],
                p=f["p"], p_lo=f["p_lo"], p_hi=f["p_hi"], censored=censored,
                seconds_per_run=g.seconds, r99=f["r99"], cost=scale * f["r99"],
                cost_lo=scale * runs_to_solution(f["p_hi"]), cost_hi=scale * runs_to_solution(f["p_lo"]),
                p_bound=p_bound if censored else None, cost_bound=scale * r_bound if censored else None,
                time_source=describe_time(g)))
    return out


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

    def row(self) -> dict[str, Any]:
        return asdict(self)


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
        first = mine[0]
        cls = size_class(first.model, first.variables)
        out.append(ClassStat(setting, stage, label, cls.random, float(np.median([pt.variables for pt in mine])),
                             len(mine), sum(cens), quantity, float(q[0]), float(q[1]), float(q[2]),
                             bool(bound[0]), bool(bound[1]), bool(bound[2])))
    out.sort(key=lambda s: (s.setting, s.stage, s.variables, s.size_class))
    return out

