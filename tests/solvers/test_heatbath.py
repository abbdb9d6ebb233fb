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
from nonoqubo.solvers.tempering import KernelModel
from nonoqubo.solvers import linemoves
from nonoqubo.solvers.sampling import RUN, sample

pytest.importorskip("numba")

SMALL = Puzzle.from_picture(["#.#..", ".###.", "#...#", "##.##"])
MEDIUM = Puzzle.from_picture(["#.##.#..", ".###..##", "#..#.#.#", "##.###..", ".#..####", "###.#..#"])
CORE = Path(__file__).parents[1] / "data" / "puzzles" / "hard" / "random-20x20-d0.5-s1-0002.non"


def _kernel_args(q: Qubo, lines: linemoves.Lines):
    return (*KernelModel.of(q).csr(), *lines.arrays())


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
    lines.place(state, start, lines.first_shifts())
    current = lines.place_ptr[:-1] + start
    streams = rng.bit_generator.random_raw(1).astype(np.uint64)
    scratch = (np.empty(q.num_vars, np.int64), np.empty(q.num_vars + len(lines.slots) + 1, np.int64),
               np.empty(len(lines.slots) + 1, np.int64),
               np.empty(int(lines.placements.max()), np.int64), np.empty(1, np.int64))
    table = heatbath.weight_table(beta)
    for _ in range(count):
        which = int(rng.integers(lines.count)) if line is None else line
        change = heatbath.move(which, *_kernel_args(q, lines), table, state, current, streams, *scratch)
        yield which, int(scratch[4][0]), state, int(change)


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


WIDE = Puzzle.from_picture(["#." * 10 + "." * 40])  # one row of 10 blocks in 60 cells: C(41 + 10, 10) placements


def test_a_line_past_the_cap_is_moved_by_dynamic_programming():
    q = build(WIDE)
    lines = linemoves.Lines.of(q)
    assert lines.placements.max() == linemoves.placements_of(41, 10) == 12_777_711_870
    assert lines.dp.tolist() == [1] + [0] * (lines.count - 1) and lines.place_ptr[-1] < 100  # nothing enumerated
    batch = sample(q, "lines", reads=3, seed=2, sweeps=300)
    assert np.array_equal(batch.energies, q.energy(batch.bits)) and (batch.energies == 0).all()
    assert all(_lines_valid(q, state) for state in batch.bits)


def test_a_line_past_the_cap_that_no_programme_can_move_is_refused_in_one_line(monkeypatch):
    tables = linemoves._dp_tables

    def unready(qubo, bounds):
        *rest, ready = tables(qubo, bounds)
        return (*rest, np.zeros_like(ready))

    monkeypatch.setattr(linemoves, "_dp_tables", unready)
    with pytest.raises(SolverError, match=r"^--sampler lines: row 1 has 12,777,711,870 placements of its blocks; "
                                          r"at most 200,000 a line"):
        sample(build(WIDE), "lines", reads=1)


@pytest.mark.parametrize("path", [None, CORE])
def test_dynamic_programming_moves_draw_the_exact_distribution_and_keep_energies(monkeypatch, path):
    """Every line moved by move_dp (DP_FROM 0): energies exact move by move, lines valid, and one line's
    placements drawn 40,000 times from a fixed rest against exp(-beta E) / Z (E by Qubo.energy)."""
    from nonoqubo.solvers import heatbath

    if path is None:
        q = build(SMALL)
    else:
        from nonoqubo.clues import load
        from nonoqubo.pipeline import Models

        q = Models.build(load(path), presolve="line").presolve()
    monkeypatch.setattr(linemoves, "DP_FROM", 10**18)
    enumerated = linemoves.Lines.of(q)
    monkeypatch.setattr(linemoves, "DP_FROM", 0)
    lines = linemoves.Lines.of(q)
    assert lines.dp.all() and lines.place_ptr[-1] == 0
    rng = np.random.default_rng(4)
    state = np.zeros(q.num_vars, np.int8)
    shift_now = lines.first_shifts()
    lines.place(state, np.zeros(lines.count, np.int64), shift_now)
    size = len(lines.slots) + 2 * len(lines.lo) + 2
    scratch = (np.empty(q.num_vars, np.int64), np.empty(size, np.int64), np.empty(size, np.int64), np.empty(size),
               np.empty(size, np.int64))
    args = (*KernelModel.of(q).csr(), lines.var_line, lines.var_ptr, lines.line_vars, lines.block_ptr, lines.slot_ptr,
            lines.slots, lines.lo, lines.hi, lines.self_e, lines.pair_ptr, lines.pair_e)
    streams = rng.bit_generator.random_raw(1).astype(np.uint64)
    energy = int(q.energy(state)[0])
    for _ in range(300):
        energy += heatbath.move_dp(int(rng.integers(lines.count)), *args, 0.8, state, shift_now, streams, *scratch)
        assert energy == int(q.energy(state)[0])
        assert _lines_valid(q, state)
    line = int(np.argmax(enumerated.placements))
    count = int(enumerated.placements[line])
    m = int(lines.block_ptr[line + 1] - lines.block_ptr[line])
    placed = enumerated.shifts[enumerated.shift_ptr[line]:enumerated.shift_ptr[line + 1]].reshape(count, m)
    index = {tuple(row.tolist()): a for a, row in enumerate(placed)}
    energies = []
    for a in range(count):
        x = state.copy()
        enumerated.place_line(x, line, a)
        energies.append(int(q.energy(x)[0]))
    beta, draws = 0.6, 40_000
    seen = np.zeros(count)
    blocks = slice(int(lines.block_ptr[line]), int(lines.block_ptr[line + 1]))
    for _ in range(draws):
        heatbath.move_dp(line, *args, beta, state, shift_now, streams, *scratch)
        seen[index[tuple(shift_now[blocks].tolist())]] += 1
    exact = np.exp(-beta * (np.array(energies) - min(energies)))
    exact /= exact.sum()
    expected = draws * exact
    big = expected >= 5  # chi-square over the placements expected 5 times or more, the rest pooled
    chi2 = float((((seen[big] - expected[big]) ** 2) / expected[big]).sum())
    pooled = expected[~big].sum()
    if pooled > 0:
        chi2 += float((seen[~big].sum() - pooled) ** 2 / max(pooled, 1.0))
    cells = int(big.sum()) + 1
    assert chi2 < 3 * cells + 20, (chi2, cells)
    assert len(set(energies)) > 1


def test_dynamic_programming_in_whole_reads_single_and_population(monkeypatch):
    monkeypatch.setattr(linemoves, "DP_FROM", 0)
    q = build(MEDIUM)
    for extra in ({}, {"replicas": 4}):
        one = sample(q, "lines", reads=3, seed=9, sweeps=60, **extra)
        two = sample(q, "lines", reads=3, seed=9, sweeps=60, **extra)
        assert np.array_equal(one.bits, two.bits) and np.array_equal(one.energies, q.energy(one.bits))
        assert (one.energies == 0).all() and all(_lines_valid(q, state) for state in one.bits)


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


def test_population_annealing_with_line_moves():
    """--replicas K > 1: a population of K states resampled between betas; the same seed gives the same samples,
    energies are the model's, every line valid, and a small puzzle reaches 0."""
    q = build(MEDIUM)
    one = sample(q, "lines", reads=3, seed=5, sweeps=40, replicas=8, sweeps_per_beta=2)
    two = sample(q, "lines", reads=3, seed=5, sweeps=40, replicas=8, sweeps_per_beta=2)
    assert np.array_equal(one.bits, two.bits)
    assert np.array_equal(one.energies, q.energy(one.bits)) and (one.energies == 0).all()
    assert all(_lines_valid(q, state) for state in one.bits)
    info = one.extra[RUN]["sampler_reported"]
    assert (info["replicas"], info["betas"]) == (8, 20)


def test_population_annealing_keeps_its_energies_exact_on_a_hard_core():
    from nonoqubo.clues import load
    from nonoqubo.pipeline import Models

    q = Models.build(load(CORE), presolve="line").presolve()
    batch = sample(q, "lines", reads=2, seed=3, sweeps=50, replicas=4)
    assert np.array_equal(batch.energies, q.energy(batch.bits))
    assert all(_lines_valid(q, state) for state in batch.bits)


def test_a_campaign_plan_runs_lines_as_solve_does(run_cli, tmp_path):
    status, _, err = run_cli("suite", "--random", "5x5:0.5:1:7", "-o", tmp_path / "suite", "-q")
    assert status == 0, err
    (tmp_path / "plan.yaml").write_text("suite: suite\nseeds: [3]\nsettings:\n"
                                        "  lines: {sampler: lines, reads: 3, sweeps: [20, 40]}\n")
    status, out, err = run_cli("run", tmp_path / "plan.yaml", "-j", 1, "-q")
    assert status == 0, out + err
    ran = sorted((tmp_path / "runs").glob("*/*.json"))
    assert [p.parent.name for p in ran] == ["lines-sweeps=20", "lines-sweeps=40"]
    record = json.loads(ran[1].read_text())["info"]["nonoqubo"]
    assert record["sampler"] == "lines" and record["parameters"]["sweeps"] == 40
    model = next(p for p in (tmp_path / "suite").iterdir() if p.name.endswith(".qubo.json"))
    alone = tmp_path / "alone.json"
    status, _, err = run_cli("solve", model, "--sampler", "lines", "--reads", 3, "--sweeps", 40, "--seed", 3, "-q",
                             "-o", alone)
    assert status in (0, 1), err
    assert json.loads(alone.read_text())["sample_data"] == json.loads(ran[1].read_text())["sample_data"]
