"""``lines``, heat-bath line moves (issue 52 item 4): a move draws a line's placement from its exact conditional
distribution, never leaves a line invalid, keeps the energy exact; seeds repeat; small puzzles and a hard core's
line-presolved model reach or decode their energies; other encodings, a model without its puzzle and a line
past the placement cap are refused in one line."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from nonoqubo.errors import SolverError
from nonoqubo.model.build import build
from nonoqubo.model.encoding import Completion, Layout
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.model.qubo import Qubo
from nonoqubo.solvers import linemoves
from nonoqubo.solvers.sampling import RUN, sample

pytest.importorskip("numba")

SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
MEDIUM = Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"])
CORE = Path(__file__).parents[1] / "data" / "puzzles" / "hard" / "random-20x20-d0.5-s1-0002.non"


def _kernel_args(q: Qubo, lines: linemoves.Lines):
    return (*linemoves._csr(q), *lines.arrays())


def _lines_valid(q: Qubo, state: np.ndarray) -> bool:
    """Every block's wall is ones then zeros and every line's shifts never decrease (no shape or order penalty)."""
    layout = Layout.of(q.puzzle)
    full = Completion.of(layout.labels(), q.labels, q.fixed).fill(state[None, :])[0]
    shifts = layout.shifts(full[None, :])[0]
    for b in range(layout.num_blocks):
        wall = full[layout.block_first_var[b]:layout.block_first_var[b + 1]]
        if not np.array_equal(wall, np.arange(wall.size) < shifts[b]):
            return False
        if layout.has_next_block[b] and shifts[b] > shifts[b + 1]:
            return False
    return True


def _moves(q: Qubo, beta: float, count: int, line: int | None, seed: int = 3):
    """*count* moves (of *line*, or of lines drawn at random) from a random placement; yields (line, pick, state,
    energy change) after each."""
    from nonoqubo.solvers import heatbath

    lines = linemoves.Lines.of(q)
    rng = np.random.default_rng(seed)
    state = np.zeros(q.num_vars, np.int8)
    start = (rng.random(lines.count) * lines.placements).astype(np.int64)
    lines.place(state, start)
    current = lines.place_ptr[:-1] + start
    streams = rng.bit_generator.random_raw(1).astype(np.uint64)
    scratch = (np.empty(q.num_vars, np.int64), np.empty(q.num_vars + len(lines.slots) + 1, np.int64),
               np.empty(int(lines.placements.max()), np.int64), np.empty(1, np.int64))
    table = heatbath.weight_table(beta)
    for _ in range(count):
        which = int(rng.integers(lines.count)) if line is None else line
        change = heatbath.move(which, *_kernel_args(q, lines), table, state, current, streams, *scratch)
        yield which, int(scratch[3][0]), state, int(change)


def test_each_move_keeps_every_line_valid_and_the_energy_exact():
    q = build(MEDIUM)
    energy = None
    for _, _, state, change in _moves(q, 0.7, 300, None):
        assert _lines_valid(q, state)
        now = int(q.energy(state)[0])
        if energy is not None:
            assert now == energy + change
        energy = now


def test_a_move_draws_the_exact_conditional_distribution():
    """One line moved 40,000 times with the rest fixed: its placements' frequencies against exp(-beta E) / Z,
    E each placement's Qubo.energy with the rest as it is (computed here, not by the kernel)."""
    q = build(SMALL)
    lines = linemoves.Lines.of(q)
    line = int(np.argmax(lines.placements))
    count = int(lines.placements[line])
    assert count >= 3
    beta, draws = 0.6, 40_000
    seen = np.zeros(count)
    states = []
    for _, pick, state, _ in _moves(q, beta, draws, line):
        seen[pick] += 1
        if len(states) < 1:
            states.append(state.copy())
    energies = []
    for a in range(count):
        x = states[0].copy()  # the other lines as the moves left them (only this line moved)
        lines.place_line(x, line, a)
        energies.append(int(q.energy(x)[0]))
    exact = np.exp(-beta * (np.array(energies) - min(energies)))
    exact /= exact.sum()
    frequency = seen / draws
    chi2 = float((((seen - draws * exact) ** 2) / (draws * exact)).sum())
    assert chi2 < 3 * count + 20, (frequency, exact)  # chi-square with count - 1 degrees of freedom, far in the tail
    assert len(set(energies)) > 1  # the distribution is not uniform: the test can fail


def test_the_same_seed_gives_the_same_samples_and_a_read_does_not_depend_on_later_ones():
    q = build(MEDIUM)
    one = sample(q, "lines", reads=5, seed=11, sweeps=15)
    two = sample(q, "lines", reads=5, seed=11, sweeps=15)
    other = sample(q, "lines", reads=5, seed=12, sweeps=15)
    few = sample(q, "lines", reads=2, seed=11, sweeps=15)
    assert np.array_equal(one.bits, two.bits) and not np.array_equal(one.bits, other.bits)
    assert np.array_equal(few.bits, one.bits[:2])


@pytest.mark.parametrize("puzzle", [SMALL, MEDIUM])
def test_small_puzzles_reach_energy_0_with_valid_lines(puzzle):
    q = build(puzzle)
    batch = sample(q, "lines", reads=4, seed=1, sweeps=200)
    assert np.array_equal(batch.energies, q.energy(batch.bits))
    assert (batch.energies == 0).all()
    assert all(_lines_valid(q, state) for state in batch.bits)


def test_a_hard_cores_line_presolved_model_energies_and_decodes():
    from nonoqubo.answers.decode import decode
    from nonoqubo.clues import load
    from nonoqubo.pipeline import Models

    q = Models.build(load(CORE), presolve="line").presolve()
    assert q.fixed
    batch = sample(q, "lines", reads=3, seed=7, sweeps=300, target_energy=0)
    assert np.array_equal(batch.energies, q.energy(batch.bits))
    assert all(_lines_valid(q, state) for state in batch.bits)
    reports = decode(q, batch)
    assert [r.energy for r in reports] == batch.energies.tolist()
    assert [r.valid for r in reports] == (batch.energies == 0).tolist()
    info = batch.extra[RUN]["sampler_reported"]
    assert info["target_energy"] == 0 and info["budget_sweeps"] == 300 and len(info["sweeps_run"]) == 3
    assert all(s <= 300 for s in info["sweeps_run"])


def test_a_read_stops_at_the_target():
    q = build(MEDIUM)
    batch = sample(q, "lines", reads=3, seed=2, sweeps=5000, target_energy=0)
    info = batch.extra[RUN]["sampler_reported"]
    assert (batch.energies == 0).all() and max(info["sweeps_run"]) < 5000
    assert all(t is not None for t in info["target_seconds"])


@pytest.mark.parametrize("encoding", ["one-hot", "automaton"])
def test_other_encodings_are_refused_by_name(encoding):
    q = build(SMALL, encoding=encoding)
    with pytest.raises(SolverError, match=rf"^--sampler lines moves the domain-wall encoding's lines; this model is in "
                                          rf"the {encoding} encoding"):
        sample(q, "lines", reads=1)


def test_a_model_without_its_puzzle_is_refused():
    q = build(SMALL)
    bare = Qubo(list(q.labels), q.linear, q.row, q.col, q.quad, q.offset)
    with pytest.raises(SolverError, match=r"^--sampler lines needs the model's puzzle"):
        sample(bare, "lines", reads=1)


def test_a_line_past_the_cap_is_refused_in_one_line():
    row = "#." * 10 + "." * 40  # one row of 10 blocks in 60 cells: C(41 + 10, 10) placements
    q = build(Puzzle.from_picture([row]))
    with pytest.raises(SolverError, match=r"^--sampler lines: row 1 has 12,777,711,870 placements of its blocks; "
                                          r"at most 200,000 a line"):
        sample(q, "lines", reads=1)
    assert linemoves.placements_of(41, 10) == 12_777_711_870


def test_cli_run_file_records_lines_and_decodes(run_cli, tmp_path):
    out = tmp_path / "s.json"
    clues = tmp_path / "p.non"
    clues.write_text("width 8\nheight 6\nrows\n" + "\n".join(",".join(map(str, r)) or "0" for r in MEDIUM.rows)
                     + "\ncolumns\n" + "\n".join(",".join(map(str, c)) or "0" for c in MEDIUM.cols) + "\n")
    status, stdout, err = run_cli("solve", clues, "--sampler", "lines", "--reads", "3", "--seed", "1",
                                  "--sweeps", "100", "--beta-range", "0.5,10", "-q", "-o", out, "--json")
    assert status == 0, err
    record = json.loads(out.read_text())["info"]["nonoqubo"]
    assert record["sampler"] == "lines" and record["parameters"]["beta_range"] == "0.5,10"
    assert record["timing"]["time_source"] == "sampler timing"
    status, decoded, err = run_cli("decode", clues, out, "--json")
    assert status == 0 and json.loads(decoded)["best_energy"] == 0, err
