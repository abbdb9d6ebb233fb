"""A whole tournament-size collection: suite read in one pass beside one-puzzle files, and CP-SAT on every puzzle.

Run from the repository root::

    python benchmarks/bench_tournament.py                 # 1,000 random 25x25 puzzles, suite with -j 1
    python benchmarks/bench_tournament.py --puzzles 200 --jobs 2
    python benchmarks/bench_tournament.py --cpsat         # also solve all of them with CP-SAT, and check

The puzzles are random pictures of our own (25x25, density 0.5, seed 2011), not a
tournament's (those files are GPL): they are written once as a 1,000-puzzle
question file in the tournaments' format (``$1``, column clues, row clues, ...)
and once as 1,000 one-puzzle files of the same format.  In one run:

* *one pass*: ``suite QUESTIONS`` (the file read once, :func:`nonoqubo.clues.read_all`);
* *one-puzzle files*: ``suite FOLDER`` of the same puzzles; the goal is *one pass*
  within 3x of it;
* *re-read per puzzle* (the way before): the same suite with the plan it had
  (the file listed by ``clues.members``, then every task loading its puzzle from
  the question file by its index);
* reading alone: :func:`nonoqubo.clues.read_all` of the question file once,
  beside ``clues.load(index=k)`` for every k (timed on the first ``--old``
  puzzles and scaled: each load splits the whole file, whichever the puzzle);
* with ``--cpsat``: :func:`nonoqubo.campaign.tournament.solve_all` on the whole
  question file (one CP-SAT search per puzzle, the answer file written), then
  :func:`~nonoqubo.campaign.tournament.check_answers` of that answer file.

Prints a markdown table: seconds, seconds per puzzle, and the ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from nonoqubo import clues  # noqa: E402
from nonoqubo.campaign import suite  # noqa: E402
from nonoqubo.campaign.suite import Task, run_suite  # noqa: E402
from nonoqubo.clues import taai  # noqa: E402
from nonoqubo.model.puzzle import Puzzle  # noqa: E402


def random_puzzles(count: int, size: int, density: float, seed: int) -> list[Puzzle]:
    """*count* puzzles of random *size* x *size* pictures (each cell black with probability *density*)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(count):
        grid = rng.random((size, size)) < density
        out.append(Puzzle.from_picture(["".join("#" if v else "." for v in row) for row in grid]))
    return out


def write_collection(puzzles: list[Puzzle], folder: Path) -> tuple[Path, Path]:
    """The question file of all *puzzles* and a folder of one-puzzle files of the same format."""
    one = folder / "one-puzzle-files"
    one.mkdir()
    parts = []
    for k, p in enumerate(puzzles, start=1):
        text = taai.dumps(p)
        (one / f"p{k:04d}.taai").write_text(text)
        parts.append(text.replace("$1", f"${k}", 1))
    questions = folder / "questions.taai"
    questions.write_text("".join(parts))
    return questions, one


@contextlib.contextmanager
def old_plan() -> Iterator[None]:
    """suite's plan as it was: the file listed by ``clues.members``, each task loading its puzzle by index."""
    def plan(inputs: Sequence[str], families: Sequence[object] = (), out_dir: str | None = None) -> list[Task]:
        tasks = []
        for path in inputs:
            found = clues.members(path)
            stem = Path(path).name.split(".")[0]
            tasks += [Task(f"{stem}-{i}", f"{path}#{i}", path, i) for i, _ in found]
        return tasks

    real = suite.plan
    suite.plan = plan  # type: ignore[assignment]
    try:
        yield
    finally:
        suite.plan = real


def timed(fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--puzzles", type=int, default=1000)
    parser.add_argument("--size", type=int, default=25)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--old", type=int, default=40, help="puzzles timed the way before (scaled to the file)")
    parser.add_argument("--cpsat", action="store_true", help="also solve every puzzle with CP-SAT and check")
    parser.add_argument("--workers", type=int, default=None, help="CP-SAT workers per puzzle (default: CP-SAT's)")
    args = parser.parse_args()
    n = args.puzzles
    rows: list[tuple[str, float, int]] = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        questions, one = write_collection(random_puzzles(n, args.size, 0.5, 2011), folder)
        m = min(args.old, n)
        read_once = timed(lambda: clues.read_all(questions))
        read_each = timed(lambda: [clues.load(questions, index=k) for k in range(1, m + 1)]) * n / m
        one_pass = timed(lambda: run_suite([str(questions)], folder / "s1", jobs=args.jobs))
        files = timed(lambda: run_suite([str(one)], folder / "s2", jobs=args.jobs))
        with old_plan():
            old = timed(lambda: run_suite([str(questions)], folder / "s3", jobs=args.jobs))
        rows += [("read the question file once (clues.read_all)", read_once, n),
                 (f"read it once per puzzle (clues.load(index=k); {m} timed, scaled)", read_each, n),
                 ("suite, one pass (the file read once)", one_pass, n),
                 ("suite, one-puzzle files", files, n),
                 ("suite, re-read per puzzle (the plan before: members, then a load per task)", old, n)]
        if args.cpsat:
            from nonoqubo.campaign.tournament import check_answers, solve_all

            answers = folder / "answers.txt"
            outcome = solve_all(questions, answers_out=answers, workers=args.workers)
            rows.append((f"CP-SAT, every puzzle ({outcome.solved} of {n} solved)", outcome.seconds, n))
            checked = check_answers(questions, answers)
            rows.append((f"check the answers ({checked.solved} of {n} valid)", checked.seconds, n))
    print(f"{n} random {args.size}x{args.size} puzzles (density 0.5, seed 2011), suite -j {args.jobs}, "
          f"{os.cpu_count()} CPUs\n")
    print("| case | seconds | ms per puzzle |")
    print("|---|---:|---:|")
    for name, seconds, count in rows:
        print(f"| {name} | {seconds:.1f} | {1000 * seconds / count:.1f} |")
    print(f"\none pass / one-puzzle files: {one_pass / files:.2f} (goal: at most 3)")
    print(f"suite re-read per puzzle / one pass: {old / one_pass:.2f}; reading alone: {read_each / read_once:.0f}x")


if __name__ == "__main__":
    main()
