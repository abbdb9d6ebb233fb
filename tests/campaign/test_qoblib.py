"""`suite --layout qoblib`: the class's files, its metrics (QOBLIB's definitions, recomputed here),
its checker (exit 0/1/2, against nonoqubo's own check) and its bad input."""

from __future__ import annotations

import csv
import lzma
import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from nonoqubo import clues, exports
from nonoqubo.campaign import qoblib_check
from nonoqubo.campaign.qoblib import check_instance_name, write_class
from nonoqubo.generation.families import parse_family
from nonoqubo.errors import QoblibError
from nonoqubo.logic.check import check
from nonoqubo.model.build import build
from tests.support import SHARED, run_cli

FAMILY = "4x4,5x5:0.5:2:3"
NAMES = [f"random-{s}-d0.5-s3-000{i}" for s in ("4x4", "5x5") for i in (1, 2)]
CHECKER = ("check", "check_nonogram.py")


@pytest.fixture(scope="module")
def plain(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qoblib") / "10-nonogram"
    status, _, err = run_cli("suite", "--layout", "qoblib", "--random", FAMILY, "-o", out)
    assert status == 0, err
    return out


@pytest.fixture(scope="module")
def packed(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("qoblib-xz") / "10-nonogram"
    status, _, err = run_cli("suite", "--layout", "qoblib", "--random", FAMILY, "--compress", "xz", "-o", out)
    assert status == 0, err
    return out


def _read(path: Path) -> str:
    return lzma.decompress(path.read_bytes()).decode() if path.suffix == ".xz" else path.read_text()


def test_the_class_has_qoblibs_folders_and_one_file_per_instance_in_each(plain):
    for folder in ("check", "instances", "models/binary_unconstrained/qs_files", "models/binary_linear/lp_files",
                   "solutions", "submissions"):
        assert (plain / folder / "README.md").is_file(), folder
    assert sorted(p.stem for p in (plain / "instances").glob("*.non")) == NAMES
    assert sorted(p.stem for p in (plain / "models/binary_unconstrained/qs_files").glob("*.qs")) == NAMES
    assert sorted(p.stem for p in (plain / "models/binary_linear/lp_files").glob("*.lp")) == NAMES
    assert sorted(p.name for p in (plain / "solutions").glob("*.pbm")) == [f"{n}.opt.pbm" for n in NAMES]
    for title in ("## Problem Description", "## Directory Contents", "## Checking a solution", "## Submitting results"):
        assert title in (plain / "README.md").read_text()
    assert not list(plain.parent.glob(".qoblib-*")), "the temporary folder is renamed into place"


def test_models_hold_no_solution_and_the_qs_is_the_clues_domain_wall_qubo(plain):
    for name in NAMES:
        puzzle = clues.load(plain / "instances" / f"{name}.non")
        assert puzzle.solution is None
        assert "goal" not in (plain / "instances" / f"{name}.non").read_text()
        lp = (plain / "models/binary_linear/lp_files" / f"{name}.lp").read_text()
        assert "solution" not in lp.split("Minimize")[0]
        qs = (plain / "models/binary_unconstrained/qs_files" / f"{name}.qs").read_text()
        assert qs.startswith("# ObjectiveOffset ")
        assert exports.loads(qs, "qs") == build(puzzle)  # what evaluate builds from the clue file


def test_xz_models_decompress_to_the_plain_ones_and_the_readme_links_them(plain, packed):
    for sub, ext in (("models/binary_unconstrained/qs_files", "qs"), ("models/binary_linear/lp_files", "lp")):
        for name in NAMES:
            assert _read(packed / sub / f"{name}.{ext}.xz") == (plain / sub / f"{name}.{ext}").read_text()
        readme = (packed / sub / "README.md").read_text()
        assert f"[{NAMES[0]}.{ext}]({NAMES[0]}.{ext}.xz)" in readme
        assert (packed / sub / "metrics.csv").read_text() == (plain / sub / "metrics.csv").read_text()


def _qs_by_hand(text: str) -> tuple[int, float, float, float]:
    """QOBLIB's get_metrics definitions, by hand: n, non-zero entries / (n(n+1)/2), min, max of the values."""
    lines = [ln.split() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    n = int(lines[0][0])
    values = [float(v) for _, _, v in lines[1:]]
    return n, sum(v != 0 for v in values) / (n * (n + 1) / 2), min(values), max(values)


def test_qs_metrics_follow_qoblibs_definitions(plain):
    folder = plain / "models/binary_unconstrained/qs_files"
    with open(folder / "metrics.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["file", "num_variables", "density", "min_coeff", "max_coeff"]
    assert [r["file"] for r in rows] == [f"{n}.qs" for n in NAMES]
    for row in rows:
        n, density, lo, hi = _qs_by_hand((folder / row["file"]).read_text())
        assert (int(row["num_variables"]), float(row["density"]), float(row["min_coeff"]), float(row["max_coeff"])) \
            == pytest.approx((n, density, lo, hi))
        assert f"| [{row['file']}]({row['file']}) | {n} | {density:.6f} | {lo:.6f} | {hi:.6f} |" \
            in (folder / "README.md").read_text()


def test_lp_metrics_count_what_the_lp_file_declares(plain):
    folder = plain / "models/binary_linear/lp_files"
    with open(folder / "metrics.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == ["file", "num_binary_vars", "num_integer_vars", "num_continuous_vars", "num_vars",
                             "num_linear_constraints", "num_quadratic_constraints", "num_constraints", "density",
                             "min_coeff", "max_coeff"]
    for row in rows:
        text = (folder / row["file"]).read_text()
        body = text.split("Subject To")[1].split("Binary")[0]
        constraints = [ln for ln in body.splitlines() if ":" in ln]
        binaries = text.split("Binary")[1].split("End")[0].split()
        coefs = [int(c.replace(" ", "")) for ln in constraints
                 for c in re.findall(r"([+-] \d+) [yz]", ln.split(":", 1)[1])]
        n, m = len(binaries), len(constraints)
        assert int(row["num_binary_vars"]) == int(row["num_vars"]) == n
        assert int(row["num_linear_constraints"]) == int(row["num_constraints"]) == m
        assert (row["num_integer_vars"], row["num_continuous_vars"], row["num_quadratic_constraints"]) == ("0", "0", "0")
        assert float(row["density"]) == pytest.approx(len(coefs) / (n * m))
        assert (float(row["min_coeff"]), float(row["max_coeff"])) == (min(coefs), max(coefs))


def test_solutions_satisfy_the_clues_and_the_index_lets_evaluate_build_from_the_clues(plain):
    import json

    index = json.loads((plain / "index.json").read_text())["puzzles"]
    assert [e["name"] for e in index] == NAMES
    for e in index:
        assert [f["path"] for f in e["files"]] == [f"instances/{e['name']}.non",
                                                   f"models/binary_unconstrained/qs_files/{e['name']}.qs",
                                                   f"models/binary_linear/lp_files/{e['name']}.lp"]
        puzzle = clues.load(plain / "instances" / f"{e['name']}.non")
        grid = qoblib_check.parse_picture((plain / "solutions" / f"{e['name']}.opt.pbm").read_text())
        assert check(puzzle, np.array(grid)).valid
    assert "| 0 | given with the puzzle |" in (plain / "solutions/README.md").read_text()


def _checker(root: Path, instance: Path, solution: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(root.joinpath(*CHECKER)), str(instance), str(solution)],
                          capture_output=True, text=True, env={**os.environ, "PYTHONPATH": ""})


def test_the_checker_is_standalone_and_exits_0_valid_1_invalid_2_error(plain, tmp_path):
    shipped = plain.joinpath(*CHECKER).read_text()
    assert shipped == Path(qoblib_check.__file__).read_text()
    assert "nonoqubo" not in "".join(ln for ln in shipped.splitlines() if ln.startswith(("import", "from")))
    inst = plain / "instances" / f"{NAMES[2]}.non"
    good = plain / "solutions" / f"{NAMES[2]}.opt.pbm"
    done = _checker(plain, inst, good)
    assert (done.returncode, done.stdout.split(":")[0]) == (0, "VALID")
    flipped = tmp_path / "bad.txt"
    grid = qoblib_check.parse_picture(good.read_text())
    grid[0][0] ^= 1
    flipped.write_text("\n".join("".join("#" if c else "." for c in row) for row in grid) + "\n")
    done = _checker(plain, inst, flipped)
    assert done.returncode == 1 and "row 1:" in done.stdout and "column 1:" in done.stdout
    small = tmp_path / "small.pbm"
    small.write_text("P1\n2 2\n1 0\n0 1\n")
    assert _checker(plain, inst, small).returncode == 1  # the wrong size is no solution
    broken = tmp_path / "broken.pbm"
    broken.write_text("P1\n5 5\n1 0 1\n")
    done = _checker(plain, inst, broken)
    assert done.returncode == 2 and done.stderr.startswith("error: ")
    assert _checker(plain, tmp_path / "missing.non", good).returncode == 2


def test_the_checker_agrees_with_nonoqubos_check_on_random_pictures():
    puzzle = clues.load(SHARED / "json" / "qbpp-logo.json")
    inst = qoblib_check.parse_instance(clues.dumps(puzzle.with_solution(None), "non"))
    rng = np.random.default_rng(5)
    truth = puzzle.solution_grid()
    for flips in range(6):
        grid = truth.copy()
        for _ in range(flips):
            grid[rng.integers(grid.shape[0]), rng.integers(grid.shape[1])] ^= 1
        theirs = check(puzzle, grid)
        ours = qoblib_check.failing_lines(inst, grid.astype(int).tolist())
        assert (not ours) == theirs.valid
        assert len(ours) == len(theirs.failures)


@pytest.mark.parametrize("name", ["my heart", "café", ".hidden", "misc", "MISC", "a/b", "x" * 201])
def test_unsafe_instance_names_are_refused(name):
    with pytest.raises(QoblibError, match="instance"):
        check_instance_name(name, "--submission")


def test_bad_input_is_one_line_exit_2_and_writes_nothing(tmp_path):
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "x").write_text("x")
    cases = [
        (["--layout", "qoblib", "--random", "4x4:0.5:1:1", "-o", busy], "not empty"),
        (["--layout", "qoblib", "--random", "4x4:0.5:1:1", "-f", "qs", "-o", tmp_path / "a"], "-f"),
        (["--layout", "qoblib", "--random", "4x4:0.5:1:1", "--presolve", "-o", tmp_path / "b"], "--presolve"),
        (["--compress", "xz", "--random", "4x4:0.5:1:1", "-o", tmp_path / "c"], "--layout qoblib only"),
        (["--layout", "qoblib", SHARED / "colour", "-o", tmp_path / "d"], "colour puzzle"),
    ]
    for argv, words in cases:
        status, out, err = run_cli("suite", *argv)
        assert status == 2 and words in err and len(err.strip().splitlines()) == 1, (argv, err)
    assert sorted(os.listdir(tmp_path)) == ["busy"] and os.listdir(busy) == ["x"]


def test_write_class_in_python_counts_the_known_solutions(tmp_path):
    res = write_class([], tmp_path / "c", families=[parse_family("4x4:0.5:1:9")], compress="xz")
    assert (res.built, res.solved) == (1, 1)
    with pytest.raises(QoblibError, match="--compress"):
        write_class([], tmp_path / "d", families=[parse_family("4x4:0.5:1:9")], compress="zip")


def test_a_solution_comes_from_cpsat_when_neither_the_input_nor_line_logic_gives_one(tmp_path):
    """Two solutions, not line-solvable: CP-SAT finds one; --truth records the count in the index and the README."""
    two = tmp_path / "two.non"
    two.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    status, _, err = run_cli("suite", "--layout", "qoblib", two, "--truth", "-o", tmp_path / "c")
    assert status == 0, err
    import json

    entry = json.loads((tmp_path / "c" / "index.json").read_text())["puzzles"][0]
    assert (entry["solution_source"], entry["solutions"], entry["solutions_exact"]) == ("CP-SAT", 2, False)
    assert "| two | 2x2 | 4 | 0 | CP-SAT | >= 2 |" in (tmp_path / "c" / "solutions" / "README.md").read_text()
    grid = qoblib_check.parse_picture((tmp_path / "c" / "solutions" / "two.opt.pbm").read_text())
    assert qoblib_check.failing_lines(qoblib_check.parse_instance(two.read_text()), grid) == []


def test_a_puzzle_without_solution_refuses_the_class_in_one_line_naming_it(tmp_path):
    none = tmp_path / "none.non"
    none.write_text("width 3\nheight 3\nrows\n2\n0\n1\ncolumns\n1\n0\n2\n")
    status, _, err = run_cli("suite", "--layout", "qoblib", none, "-o", tmp_path / "c")
    assert status == 2 and err.startswith(f"nonoqubo: error: {none}: ") and "no solution" in err
    assert len(err.strip().splitlines()) == 1 and sorted(os.listdir(tmp_path)) == ["none.non"]


def test_names_that_differ_only_in_case_are_refused(tmp_path):
    for name in ("Heart", "heart"):
        (tmp_path / f"{name}.non").write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    status, _, err = run_cli("suite", "--layout", "qoblib", tmp_path / "Heart.non", tmp_path / "heart.non",
                             "-o", tmp_path / "c")
    assert status == 2 and "differs only in case" in err and not (tmp_path / "c").exists()
