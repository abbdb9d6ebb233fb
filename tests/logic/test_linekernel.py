"""The compiled line solver and the line cache give exactly what the NumPy line solver gives.

* random batches of lines, black and white and up to three colours, with random masks (many of
  them impossible): the compiled kernel's narrowed masks, fits and first/last starts equal
  :func:`~nonoqubo.logic.linesolve.solve_masks`'s, element for element and dtype for dtype;
* the cache (:class:`~nonoqubo.logic.linesolve.LineCache`) answers a line asked twice as it answered
  it the first time, and the same as :func:`solve_masks`, whichever batch the line comes in;
* probing a puzzle (a 20x20 hard core, random colour puzzles) through the cache and kernel gives the
  same grid, masks, block bounds, rounds, probes and contradictions as the NumPy solver alone.
"""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo import load_puzzle
from nonoqubo.logic import linesolve, probe
from nonoqubo.logic.linesolve import LineCache, line_solve, solve_masks
from nonoqubo.logic.probe import probe_solve
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from tests.support import ROOT

pytest.importorskip("numba", reason="the compiled line solver needs numba (pip install nonoqubo[tempering])")
from nonoqubo.logic.linekernel import solve_lines_compiled  # noqa: E402

HARD = ROOT / "tests" / "data" / "puzzles" / "hard" / "random-20x20-d0.5-s1-0002.non"


def _random_batch(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A batch of random lines: up to 15 cells, up to 4 blocks of up to 3 colours, masks from all-open
    to mostly settled (every mask allows at least one colour)."""
    n, colours, lines, m = (int(rng.integers(1, 16)), int(rng.integers(1, 4)), int(rng.integers(1, 6)),
                            int(rng.integers(1, 5)))
    counts = rng.integers(0, m + 1, lines)
    clue = rng.integers(1, 5, (lines, m))
    colour = rng.integers(1, colours + 1, (lines, m))
    full = (1 << (colours + 1)) - 1
    mask = rng.integers(1, full + 1, (lines, n)).astype(np.uint8)
    mask[rng.random((lines, n)) < rng.random()] = full
    return mask, clue, colour, counts


def _compiled(mask: np.ndarray, clue: np.ndarray, colour: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, ...]:
    out = np.empty(mask.shape, np.uint64)
    ok = np.empty(mask.shape[0], bool)
    first, last = np.empty(clue.shape, np.int64), np.empty(clue.shape, np.int64)
    solve_lines_compiled(mask.astype(np.uint64), clue.astype(np.int64), colour.astype(np.int64),
                         counts.astype(np.int64), out, ok, first, last)
    return out.astype(mask.dtype), ok, first, last


def test_kernel_equals_numpy_on_random_lines() -> None:
    rng = np.random.default_rng(52)
    fits = unfit = 0
    for _ in range(1500):
        mask, clue, colour, counts = _random_batch(rng)
        want = solve_masks(mask, clue, colour, counts)
        got = _compiled(mask, clue, colour, counts)
        for name, a, b in zip(("masks", "fits", "first", "last"), want, got):
            assert np.array_equal(a, b), (name, mask.tolist(), clue.tolist(), colour.tolist(), counts.tolist())
        fits += int(want[1].sum())
        unfit += int((~want[1]).sum())
    assert fits > 1000 and unfit > 1000  # both kinds of line were met often


def test_cache_answers_as_solve_masks_in_any_batch() -> None:
    rng = np.random.default_rng(7)
    cache = LineCache()
    for _ in range(300):
        mask, clue, colour, counts = _random_batch(rng)
        want = solve_masks(mask, clue, colour, counts)
        for order in (np.arange(mask.shape[0]), rng.permutation(mask.shape[0])):  # the second pass: from memory
            got = cache.solve(mask[order], clue[order], colour[order], counts[order])
            for a, b in zip(want, got):
                assert np.array_equal(a[order], b)
    assert cache.hits >= cache.misses > 0


def test_cache_forgets_at_its_limit() -> None:
    cache = LineCache(limit=4)
    rng = np.random.default_rng(3)
    for _ in range(20):
        mask, clue, colour, counts = _random_batch(rng)
        cache.solve(mask, clue, colour, counts)
        assert len(cache) <= max(4, mask.shape[0])


def _numpy_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Line logic and probing as before the cache and the kernel: every line by solve_masks."""
    monkeypatch.setattr(linesolve, "LINES", LineCache(limit=0))
    monkeypatch.setattr(probe, "LINES", linesolve.LINES)
    monkeypatch.setattr(linesolve, "_solve_fresh", lambda m, c, k, n: solve_masks(m, c, k, n))


def _same(a: probe.ProbeResult, b: probe.ProbeResult) -> None:
    assert a.possible is not None and b.possible is not None
    assert np.array_equal(a.grid, b.grid) and np.array_equal(a.possible, b.possible)
    assert np.array_equal(a.shift_lo, b.shift_lo) and np.array_equal(a.shift_hi, b.shift_hi)
    assert (a.rounds, a.probes, a.contradictions, a.settled, a.cell_settled) == \
        (b.rounds, b.probes, b.contradictions, b.settled, b.cell_settled)


def test_probing_a_hard_core_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    puzzle = load_puzzle(str(HARD))
    fast = probe_solve(puzzle, variables=False)
    assert fast.cells - fast.settled >= 100  # a hard core: probing leaves it open
    with monkeypatch.context() as m:
        _numpy_only(m)
        slow = probe_solve(puzzle, variables=False)
    _same(fast, slow)


def test_probing_random_colour_puzzles_is_unchanged(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(11)
    puzzles = []
    for _ in range(12):
        h, w = (int(v) for v in rng.integers(3, 8, 2))
        colours = int(rng.integers(1, 4))
        picture = rng.integers(1, colours + 1, (h, w)) * (rng.random((h, w)) < 0.6)
        palette = Palette.of(["red", "green", "blue"][:colours]) if colours > 1 else None
        puzzles.append(Puzzle.from_picture(picture, palette=palette))
    assert any(p.num_colours > 1 for p in puzzles)
    fast = [probe_solve(p) for p in puzzles]
    lines = [line_solve(p) for p in puzzles]
    with monkeypatch.context() as m:
        _numpy_only(m)
        slow = [probe_solve(p) for p in puzzles]
        slow_lines = [line_solve(p) for p in puzzles]
    for a, b in zip(fast, slow):
        _same(a, b)
    for la, lb in zip(lines, slow_lines):
        assert la.possible is not None and lb.possible is not None
        assert np.array_equal(la.possible, lb.possible) and np.array_equal(la.first_start, lb.first_start)
        assert np.array_equal(la.last_start, lb.last_start) and (la.iterations, la.line_solves) == \
            (lb.iterations, lb.line_solves)
