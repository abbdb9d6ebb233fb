"""The domain-wall geometry (model/geometry.py) against a plain-Python reference, and the energy it promises.

The reference walks every line, block ``k`` and position ``p`` of the clues,
straight from the definition (left-aligned starts with a gap only between
blocks of one colour, margin ``d``, slots ``e + p`` / ``e + r + p``); the
vectorised answers must equal it on black-and-white and colour puzzles.  Then
the geometry's own accounting (families plus the squared slot coverages) must
give the QUBO's energy on random samples: the promise the decoder rests on.
"""

from __future__ import annotations

import numpy as np
import pytest

from nonoqubo.model.build import build
from nonoqubo.model.encoding import Layout
from nonoqubo.model.onehot import OneHot
from nonoqubo.errors import UnknownEncoding
from nonoqubo.model.encodings import DOMAIN_WALL, REGISTRY, geometry_of, names
from nonoqubo.model.geometry import COLUMN_SIGN, ROW_SIGN, DomainWall, Family, Geometry, PairFamily
from nonoqubo.model.palette import Palette
from nonoqubo.model.puzzle import Puzzle
from tests.support import shared_puzzles

RGB = Palette.of(["red", "green", "blue"])


def _random_picture(rng: np.random.Generator, h: int, w: int, colours: int) -> Puzzle:
    grid = rng.integers(0, colours + 1, (h, w))
    grid[rng.random((h, w)) < 0.4] = 0
    if colours == 1:
        return Puzzle.from_picture(grid.astype(bool))
    chars = ".rgb"
    return Puzzle.from_picture(["".join(chars[v] for v in row) for row in grid], palette=RGB)


def _puzzles() -> list[Puzzle]:
    rng = np.random.default_rng(5)
    out = [
        Puzzle(rows=[[1], [1]], cols=[[1], [1]]),
        Puzzle(rows=[[], [2, 1], [1]], cols=[[1], [1], [], [1, 1]]),
        Puzzle.from_picture(["r.", ".r"], palette=RGB),
        Puzzle.from_picture(["rgb", "b.r"], palette=RGB),
    ]
    out += [_random_picture(rng, int(rng.integers(1, 7)), int(rng.integers(1, 7)), c)
            for c in (1, 1, 2, 3, 3) for _ in range(3)]
    out += [p for _, p, _ in shared_puzzles()[:2]]
    return out


PUZZLES = _puzzles()


class Reference:
    """The geometry written out line by line, block by block, variable by variable."""

    def __init__(self, puzzle: Puzzle) -> None:
        h, w = puzzle.height, puzzle.width
        self.nc = puzzle.num_colours
        self.h, self.w = h, w
        clues = [*puzzle.rows, *puzzle.cols]
        colours = [*puzzle.row_colours, *puzzle.col_colours]
        self.vars: list[tuple[int, int, int, int]] = []  # (line, k, p, block)
        self.blocks: list[tuple[int, int, int, int, int]] = []  # (line, k, start, length, colour)
        for line, (clue, cols) in enumerate(zip(clues, colours)):
            n = w if line < h else h
            starts, e = [], 0
            for k, r in enumerate(clue):
                if k and cols[k] == cols[k - 1]:
                    e += 1
                starts.append(e)
                e += r
            d = n - e if clue else 0
            for k, r in enumerate(clue):
                b = len(self.blocks)
                self.blocks.append((line, k, starts[k], r, cols[k]))
                self.vars.extend((line, k, p, b) for p in range(d))
        self.margin = {b: sum(1 for v in self.vars if v[3] == b) for b in range(len(self.blocks))}

    def slot(self, line: int, pos: int, colour: int) -> int:
        cell = line * self.w + pos if line < self.h else pos * self.w + (line - self.h)
        return cell * self.nc + colour - 1

    def entries(self, rows: bool) -> set[tuple[int, int, int]]:
        out = set()
        for v, (line, _k, p, b) in enumerate(self.vars):
            if (line < self.h) == rows:
                _, _, e, r, c = self.blocks[b]
                out.add((v, self.slot(line, e + p, c), -1))
                out.add((v, self.slot(line, e + r + p, c), 1))
        return out

    def left_aligned(self, rows: bool) -> list[int]:
        out = [0] * (self.h * self.w * self.nc)
        for line, _k, e, r, c in self.blocks:
            if (line < self.h) == rows:
                for pos in range(e, e + r):
                    out[self.slot(line, pos, c)] = 1
        return out

    def index(self, line: int, k: int, p: int) -> int:
        return self.vars.index(next(v for v in self.vars if v[:3] == (line, k, p)))

    def shape(self) -> list[tuple[int, int, int, int]]:
        """(first, second, block, p) of every w[k][p], w[k][p+1]."""
        return [(v, v + 1, b, p) for v, (_line, _k, p, b) in enumerate(self.vars) if p + 1 < self.margin[b]]

    def has_next(self) -> list[bool]:
        return [b + 1 < len(self.blocks) and self.blocks[b + 1][0] == line
                for b, (line, *_rest) in enumerate(self.blocks)]

    def order(self) -> list[tuple[int, int, int, int]]:
        nxt = self.has_next()
        return [(v, self.index(line, k + 1, p), b, p) for v, (line, k, p, b) in enumerate(self.vars) if nxt[b]]


def _family(f: PairFamily) -> list[tuple[int, int, int, int]]:
    return list(zip(f.first.tolist(), f.second.tolist(), f.block.tolist(), f.position.tolist()))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.height}x{p.width}c{p.num_colours}")
def test_the_geometry_equals_the_reference(puzzle):
    ref = Reference(puzzle)
    geo = DomainWall(Layout.of(puzzle))
    assert geo.num_vars == len(ref.vars)
    for rows in (True, False):
        e = geo.slot_entries(rows)
        assert e.var.size == e.slot.size == e.coef.size
        got = set(zip(e.var.tolist(), e.slot.tolist(), e.coef.tolist()))
        assert len(got) == e.var.size  # no entry twice
        assert got == ref.entries(rows)
        assert geo.left_aligned(rows).tolist() == ref.left_aligned(rows)
    assert geo.has_next_block.tolist() == ref.has_next()
    assert _family(geo.shape) == ref.shape()
    assert _family(geo.order) == ref.order()
    assert (geo.shape.pattern, geo.order.pattern) == ((0, 1), (1, 0))
    slot_a, slot_b = geo.slots
    is_row = np.array([line < puzzle.height for line, *_ in ref.vars], bool)
    assert geo.is_row.tolist() == is_row.tolist()
    assert geo.qubo_sign.tolist() == np.where(is_row, ROW_SIGN, COLUMN_SIGN).tolist()
    assert len(slot_a) == len(slot_b) == geo.num_vars


def _energy_from_geometry(geo: DomainWall, x: np.ndarray) -> np.ndarray:
    """The energy as the geometry accounts for it: families, plus (row - column coverage)^2 per slot."""
    xt = np.ascontiguousarray(x.T)
    energy = sum(f.violations(xt).sum(axis=0, dtype=np.int64) for f in (geo.shape, geo.order))
    cover = []
    for rows in (True, False):
        e = geo.slot_entries(rows)
        c = np.repeat(geo.left_aligned(rows).astype(np.int64)[None, :], x.shape[0], axis=0)
        np.add.at(c, (slice(None), e.slot), x[:, e.var] * e.coef.astype(np.int64))
        cover.append(c)
    diff = ROW_SIGN * cover[0] + COLUMN_SIGN * cover[1]
    return energy + (diff * diff).sum(axis=1)


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda p: f"{p.height}x{p.width}c{p.num_colours}")
def test_the_geometry_accounts_for_the_whole_energy(puzzle):
    geo = geometry_of(puzzle)
    rng = np.random.default_rng(11)
    x = rng.integers(0, 2, (40, geo.num_vars)).astype(np.int8)
    assert np.array_equal(_energy_from_geometry(geo, x), build(puzzle).energy(x))


def test_a_solution_costs_nothing_in_any_family():
    puzzle = Puzzle.from_picture(["rgb", "b.r"], palette=RGB)
    geo = geometry_of(puzzle)
    x = geo.layout.encode(np.array([[1, 2, 3], [3, 0, 1]]))
    xt = x[:, None]
    assert not geo.shape.violations(xt).any() and not geo.order.violations(xt).any()
    assert int(_energy_from_geometry(geo, x[None, :])[0]) == 0


@pytest.mark.parametrize("pattern", [(0, 1), (1, 0), (1, 1), (0, 0)])
def test_a_pair_family_penalises_exactly_its_pattern(pattern):
    f = PairFamily(np.array([0]), np.array([1]), np.array([0]), np.array([0]), pattern)
    xt = np.array([[0, 0, 1, 1], [0, 1, 0, 1]], np.int8)
    assert f.violations(xt)[0].tolist() == [(a, b) == pattern for a, b in zip(xt[0], xt[1])]
    assert len(f) == 1


def test_domain_wall_satisfies_the_protocols():
    geo = geometry_of(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    assert isinstance(geo, Geometry)
    assert isinstance(geo.shape, Family) and isinstance(geo.order, Family)


@pytest.mark.parametrize("puzzle", PUZZLES[:8], ids=lambda p: f"{p.height}x{p.width}c{p.num_colours}")
def test_fixed_by_bounds_follows_the_wall_rule(puzzle):
    geo = geometry_of(puzzle)
    lay = geo.layout
    rng = np.random.default_rng(3)
    lo = rng.integers(0, lay.block_margin + 1)
    hi = np.array([int(rng.integers(a, d + 1)) for a, d in zip(lo.tolist(), lay.block_margin.tolist())], np.int64)
    want = [1 if p < lo[b] else 0 if p >= hi[b] else -1
            for b, p in zip(lay.var_block.tolist(), lay.var_p.tolist())]
    assert geo.fixed_by_bounds(lo, hi).tolist() == want


def test_shifts_come_back_from_the_walls():
    puzzle = PUZZLES[-1]
    geo = geometry_of(puzzle)
    lay = geo.layout
    rng = np.random.default_rng(8)
    shifts = rng.integers(0, lay.block_margin + 1, (5, lay.num_blocks))
    x = (lay.var_p[None, :] < shifts[:, lay.var_block]).astype(np.int8)
    assert np.array_equal(geo.shifts_of_columns(np.ascontiguousarray(x.T)), shifts)


@pytest.mark.parametrize("encoding", names())
def test_encode_shifts_inverts_shifts_of_columns(encoding):
    puzzle = PUZZLES[-1]
    geo = geometry_of(puzzle, encoding=encoding)
    lay = geo.layout
    shifts = np.random.default_rng(9).integers(0, lay.block_margin + 1, (4, lay.num_blocks))
    x = np.stack([geo.encode_shifts(row) for row in shifts])
    assert x.shape == (4, geo.num_vars) and x.dtype == np.int8
    assert np.array_equal(geo.shifts_of_columns(np.ascontiguousarray(x.T)), shifts)


def test_geometry_of_takes_the_layout_alone():
    lay = Layout.of(PUZZLES[0])
    assert geometry_of(None, lay).layout is lay
    with pytest.raises(ValueError, match="needs the puzzle or its layout"):
        geometry_of(None)


def test_encodings_are_chosen_by_name():
    puzzle = Puzzle(rows=[[1], [1]], cols=[[1], [1]])
    assert isinstance(geometry_of(puzzle, encoding=DOMAIN_WALL), DomainWall)
    assert DOMAIN_WALL.geometry is DomainWall and REGISTRY[0] is DOMAIN_WALL
    assert isinstance(geometry_of(puzzle, encoding="one-hot"), OneHot)
    assert isinstance(geometry_of(puzzle, encoding="one-hot"), Geometry)
    with pytest.raises(UnknownEncoding, match=f"unknown encoding 'two-hot'; known: {', '.join(names())}$"):
        geometry_of(puzzle, encoding="two-hot")
