"""A seeded mutation fuzzer for every reader of nonoqubo, run through the CLI's entry point.

Seeds are real files: the clue files of ``tests/data/puzzles/originals`` and a few JSON specs,
every export format written from a small puzzle, every solver-answer format, and grids.  A
*mutant* is a seed with one to three random edits (a byte changed, bytes inserted or deleted,
a slice repeated, the file cut short, a number replaced by an extreme one, a token from a list
of known troublemakers inserted: 5,000 digits, 100,000 ``[``, ``1e400``, ``inf``, YAML alias
bombs, sizes of 2**32 ...).  Each mutant is fed to ``nonoqubo.cli.main`` in this process
(``info`` for clue files, ``decode`` for models and samples, ``check`` for grids) and the run
fails the contract when:

* an exception escapes ``main`` (a traceback), or a warning is raised;
* the exit status is not 0, 1 or 2;
* standard error holds more than one line;
* an error (status 2) does not name the file it is about;
* the case takes longer than :data:`LIMIT` seconds (a timer interrupts it);
* the case breaks its family's own contract (:attr:`Reader.after`: an output landed on an input, a run
  past its bound was accepted).

Run a campaign from the command line (the summary is the table in FUZZING.md)::

    python -m tests.support.fuzzing --cases 100000            # every reader, in turn
    python -m tests.support.fuzzing --cases 2000 --reader bqm  # one reader

or through pytest with ``NONOQUBO_FUZZ_CASES=100000 python -m pytest tests/test_fuzz.py``.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import shutil
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data"
PUZZLES = DATA / "puzzles"
#: seconds one case may take before it counts as a hang
LIMIT = float(os.environ.get("NONOQUBO_FUZZ_LIMIT", "5"))
#: where the inputs of failing cases are kept, to reproduce them
KEEP = os.environ.get("NONOQUBO_FUZZ_KEEP", os.path.join(tempfile.gettempdir(), "nonoqubo-fuzz-failures"))

#: tokens that broke readers before (issue 11) or are known to break parsers
NASTY: tuple[bytes, ...] = (
    b"9" * 5000, b"1" * 20000, b"-1", b"-9223372036854775809", b"18446744073709551616", b"4294967296",
    b"100000000000", b"1e400", b"-1e400", b"inf", b"-inf", b"nan", b"NaN", b"Infinity", b"1e-400",
    b"[" * 100000, b"{" * 5000, b"- " * 3000 + b"x", b"&a [1,2]", b"*a", b"\x00", b"\xff\xfe",
    b"\r", b"\n\n\n", b"\t", b",", b";", b":", b"#", b'"', b"'", b"\\", b"0", b"00000000001",
    b"a: &a [1,1,1,1,1,1,1,1,1]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    b"d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e]\n",
    b"<!DOCTYPE x [<!ENTITY a \"aaaa\">]>", b"&a;", b"size: 5 4294967296", b"P1\n", b"DIMODBQM",
    b"\x93NUMPY", b"PK\x03\x04",
)
_NUMBER = re.compile(rb"\d+")
#: model formats read by native code (dimod, HiGHS, OMMX): fuzzed in a child process
NATIVE = ("bqm", "cqm", "mps", "ommx", "ommx-constrained")


def mutate(data: bytes, rng: random.Random) -> bytes:
    """One to three random edits of *data*."""
    for _ in range(rng.choice((1, 1, 1, 2, 3))):
        n = len(data)
        op = rng.randrange(8)
        pos = rng.randrange(n + 1)
        if op == 0 and n:  # change one byte
            p = rng.randrange(n)
            data = data[:p] + bytes([rng.randrange(256)]) + data[p + 1:]
        elif op == 1:  # insert a troublemaker
            data = data[:pos] + rng.choice(NASTY) + data[pos:]
        elif op == 2 and n:  # delete a slice
            end = min(n, pos + rng.choice((1, 2, 8, 64, n)))
            data = data[:pos] + data[end:]
        elif op == 3 and n:  # repeat a slice
            end = min(n, pos + rng.choice((1, 4, 32, 256)))
            data = data[:pos] + data[pos:end] * rng.choice((2, 10, 1000)) + data[pos:]
        elif op == 4:  # cut short
            data = data[:pos]
        elif op == 5:  # replace a number by an extreme one
            numbers = list(_NUMBER.finditer(data))
            if numbers:
                m = rng.choice(numbers)
                new = rng.choice((b"0", b"-1", b"1e400", b"nan", b"4294967296", b"99999999999",
                                  b"9" * rng.choice((20, 400, 5000)), str(rng.randrange(1000)).encode()))
                data = data[:m.start()] + new + data[m.end():]
        elif op == 6 and n:  # swap two slices
            a, b = sorted(rng.randrange(n) for _ in range(2))
            data = data[:a] + data[b:] + data[a:b]
        else:  # a random byte string
            data = data[:pos] + bytes(rng.randrange(256) for _ in range(rng.randrange(1, 16))) + data[pos:]
    return data


@dataclass
class Reader:
    """A family of inputs: its seeds and how a mutant is run through the CLI."""

    name: str
    seeds: list[tuple[str, bytes]]  # (file name, content)
    argv: Callable[[str], list[str]]  # mutant path -> CLI arguments
    subprocess: bool = False  # native code behind it (dimod, HiGHS): run the batch in a child process
    #: what an error line may name instead of the mutant's path (the command's other inputs; for an
    #: option's value, the option): mutant path -> names; None: the path only
    names: Callable[[str], list[str]] | None = None
    #: exit status 2 may come with a report on standard output instead of one error line, each of its lines
    #: but the last (the total) naming the file (``check`` of a tournament answer file: problems by line)
    report: bool = False
    #: the family's own contract, checked after a case that kept the shared one: (mutant path, outcome) -> None,
    #: or what broke it (kind ``contract``: an input the command's output replaced, a run accepted past its bound)
    after: Callable[[str, str], str | None] | None = None


@dataclass
class Outcome:
    counts: Counter = field(default_factory=Counter)
    failures: list[str] = field(default_factory=list)


class _Timeout(BaseException):
    """Raised by the timer when a case runs too long (not an Exception: nothing may catch it)."""


def _alarm(signum, frame):  # pragma: no cover - only on a hang
    raise _Timeout()


def run_case(argv: list[str], names: list[str], report: bool = False) -> tuple[str, str]:
    """Run ``nonoqubo.cli.main(argv)``; the outcome (``ok``/``invalid``/``error``) or a failure kind, and detail."""
    from nonoqubo.cli import main

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, LIMIT)
    try:
        with warnings.catch_warnings(record=True) as caught, contextlib.redirect_stdout(out), \
                contextlib.redirect_stderr(err):
            warnings.simplefilter("always")
            try:
                status = main(argv)
            except SystemExit as exc:
                status = exc.code if isinstance(exc.code, int) else 2
    except _Timeout:
        return "hang", f"over {LIMIT:.0f} s"
    except RecursionError:
        return "traceback", "RecursionError"
    except BaseException as exc:  # noqa: BLE001 - the point is to catch anything
        return "traceback", f"{type(exc).__name__}: {str(exc)[:200]}"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    seconds = time.perf_counter() - start
    lines = err.getvalue().splitlines()
    if caught:
        return "warning", f"{caught[0].category.__name__}: {str(caught[0].message)[:200]}"
    if status not in (0, 1, 2):
        return "status", f"exit status {status}"
    if len(lines) > 1:
        return "multi-line", " | ".join(lines[:3])[:300]
    if status == 2 and report and not lines:  # a report of problems: every line but the total names the file
        shown = out.getvalue().splitlines()
        unnamed = [line for line in shown[:-1] if not any(n in line for n in names)]
        if not shown or unnamed:
            return "unnamed", (unnamed[0] if unnamed else "(no report)")[:300]
    elif status == 2 and not (lines and any(n in lines[0] for n in names)):
        return "unnamed", (lines[0] if lines else "(no message)")[:300]
    if seconds > LIMIT:
        return "slow", f"{seconds:.1f} s"
    return {0: "ok", 1: "invalid", 2: "error"}[status], ""


def fuzz(reader: Reader, cases: int, seed: int = 0, workdir: str | None = None) -> Outcome:
    """Run *cases* mutants of *reader*'s seeds in this process."""
    outcome = Outcome()
    rng = random.Random(f"{reader.name}:{seed}")
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        for case in range(cases):
            name, data = rng.choice(reader.seeds)
            path = os.path.join(tmp, f"m{case}-{name}")
            mutant = mutate(data, rng)
            with open(path, "wb") as fh:
                fh.write(mutant)
            argv = reader.argv(path)
            kind, detail = run_case(argv, reader.names(path) if reader.names else [path], reader.report)
            broken = reader.after(path, kind) if reader.after is not None and kind != "hang" else None
            if broken is not None:
                kind, detail = "contract", broken
            outcome.counts[kind] += 1
            if kind not in ("ok", "invalid", "error"):
                keep = os.path.join(KEEP, f"{reader.name}-seed{seed}-case{case}-{name}")
                with contextlib.suppress(OSError):
                    os.makedirs(KEEP, exist_ok=True)
                    with open(keep, "wb") as fh:
                        fh.write(mutant)
                outcome.failures.append(f"{reader.name} case {case} ({name}, kept as {os.path.abspath(keep)}): "
                                        f"{kind}: {detail}")
            os.unlink(path)
    return outcome


def fuzz_in_child(reader: str, cases: int, seed: int = 0) -> Outcome:
    """:func:`fuzz` in a child process, so that a native crash is a failure, not the end of the run."""
    import subprocess

    root = Path(__file__).resolve().parents[2]
    outcome = Outcome()
    try:  # a hang in native code ignores the in-process timer: the child's deadline catches it
        proc = subprocess.run([sys.executable, "-m", "tests.support.fuzzing", "--reader", reader, "--cases", str(cases),
                               "--seed", str(seed), "--json"], cwd=root, capture_output=True, text=True,
                              timeout=60 + cases * LIMIT / 5)
    except subprocess.TimeoutExpired:
        outcome.counts["hang"] += 1
        outcome.failures.append(f"{reader}: the fuzzing process hung (in native code?); see {KEEP}")
        return outcome
    if proc.returncode != 0:
        outcome.counts["crash"] += 1
        outcome.failures.append(f"{reader}: the fuzzing process died with status {proc.returncode}: "
                                f"{proc.stderr.strip()[-500:]}")
        return outcome
    doc = json.loads(proc.stdout)
    outcome.counts.update(doc["counts"])
    outcome.failures.extend(doc["failures"])
    return outcome


# -- the seeds ------------------------------------------------------------------------------
SMALL = PUZZLES / "json" / "sgt-pattern-5x5.json"
LOGO = PUZZLES / "json" / "qbpp-logo.json"


def _clue_seeds() -> list[tuple[str, bytes]]:
    seeds = []
    for path in sorted((PUZZLES / "originals").rglob("*")):
        if path.is_file() and path.suffix not in (".txt", ".md") and path.stat().st_size < 5000:
            seeds.append((path.name, path.read_bytes()))
    seeds.append(("sgt_ids.sgt", (PUZZLES / "originals" / "sgt" / "game_ids.txt").read_bytes()))
    for name in ("sgt-pattern-5x5.json", "olsak-veze.json", "qbpp-logo.json"):
        seeds.append((name, (PUZZLES / "json" / name).read_bytes()))
    import yaml

    spec = json.loads(SMALL.read_text())
    seeds.append(("small.yaml", yaml.safe_dump({"name": spec["name"], "author": "me", "rows": spec["rows"],
                                                "cols": spec["cols"]}).encode()))
    seeds.append(("small.picture", ("\n".join(spec["solution"]) + "\n").encode()))
    # a tournament file of two puzzles (taai: '$k' headers, columns then rows, tabs; the originals hold 25x25 ones)
    small = "\n".join("\t".join(map(str, c)) or "0" for c in (*spec["cols"], *spec["rows"]))
    seeds.append(("small.taai", f"$1\n{small}\n$2\n{small}\n".encode()))
    from nonoqubo import clues

    for fmt in ("ppm", "pbm"):  # images of the answer, written by nonoqubo
        try:
            data = clues.dumps(clues.load(SMALL), fmt)
        except Exception:  # noqa: BLE001 - a format this version lacks
            continue
        seeds.append((f"small.{fmt}", data if isinstance(data, bytes) else data.encode()))
    return seeds


def _model_seeds() -> list[tuple[str, str, bytes]]:
    from nonoqubo import clues, exports
    from nonoqubo.model.build import build
    from nonoqubo.model.constrained import build_constrained

    puzzle = clues.load(SMALL)
    qubo, model = build(puzzle), build_constrained(puzzle)
    seeds = []
    for mod in exports.formats():
        data = exports.dumps(model if getattr(mod, "KIND", "qubo") == "constrained" else qubo, mod.NAME)
        seeds.append((mod.NAME, f"small.{mod.EXTENSIONS[0]}", data if isinstance(data, bytes) else data.encode()))
    return seeds


def _sample_seeds() -> list[tuple[str, bytes]]:
    import numpy as np

    from nonoqubo import clues
    from nonoqubo.model.encoding import Layout

    puzzle = clues.load(LOGO)
    layout = Layout.of(puzzle)
    grid = np.array([[c == "#" for c in row] for row in puzzle.solution], dtype=np.int8)
    bits = [int(b) for b in np.asarray(layout.encode(grid)).ravel()]
    labels = layout.labels()
    seeds = [(p.name, p.read_bytes()) for p in sorted((DATA / "samples").iterdir())]
    answers = DATA / "answers"  # what the real solvers wrote for the logo
    if answers.is_dir():
        seeds += [(p.name, p.read_bytes()) for p in sorted(answers.glob("logo.*")) if p.stat().st_size < 200_000]
    seeds += [
        ("answer.txt", (" ".join(map(str, bits)) + "\n").encode()),
        ("answer-bits.txt", ("".join(map(str, bits)) + "\n").encode()),
        ("answer.json", json.dumps(dict(zip(labels, bits))).encode()),
        ("answer-list.json", json.dumps([bits, bits]).encode()),
        ("spins.txt", (" ".join(str(2 * b - 1) for b in bits) + "\n").encode()),
        ("answer-counts.json", json.dumps({"samples": [dict(zip(labels, bits))] * 2, "energies": [0, 0],
                                           "num_occurrences": [3, 1]}).encode()),  # issue 33, class 5
        # other programs' spellings: OMMX name_subscripts, HiGHS positions, OMMX ids with SCIP's
        # auxiliary column, Amplify's '0' variable (the real files are in tests/data/answers)
        ("answer-subscripted.json", json.dumps({"_".join([k[0]] + k[1:].replace("[", " ").replace("]", " ").split()): b
                                                for k, b in zip(labels, bits)}).encode()),
        ("answer-positions.highs.sol", ("Model status\nOptimal\n\n# Primal solution values\nFeasible\nObjective 0\n"
                                        f"# Columns {len(bits)}\n" + "".join(f"c{i} {b}\n" for i, b in enumerate(bits))
                                        + "# Rows 0\n").encode()),
        ("answer-ids.scip.sol", ("objective value: 0\n" + "".join(f"{i} 1 \t(obj:0)\n" for i, b in enumerate(bits) if b)
                                 + "auxiliary_for_linearized_objective 0 \t(obj:1)\n").encode()),
        ("answer-amplify.gurobi.sol", ("# Objective value = 0\n0 0\n" + "".join(
            f"{k.replace('][', '_').replace('[', '_').rstrip(']')} {b}\n" for k, b in zip(labels, bits))).encode()),
    ]
    try:
        import dimod

        ss = dimod.SampleSet.from_samples([dict(zip(labels, bits))], "BINARY", energy=[0])
        seeds.append(("sampleset.json", json.dumps(ss.to_serializable()).encode()))
    except ImportError:  # pragma: no cover
        pass
    return seeds


def _grid_seeds() -> list[tuple[str, bytes]]:
    solution = json.loads(LOGO.read_text())["solution"]
    return [
        ("grid.txt", ("\n".join(solution) + "\n").encode()),
        ("grid01.txt", ("\n".join(r.replace("#", "1").replace(".", "0") for r in solution) + "\n").encode()),
        ("grid.json", json.dumps(solution).encode()),
        ("grid-lists.json", json.dumps([[int(c == "#") for c in r] for r in solution]).encode()),
        ("grid-obj.json", json.dumps({"grid": solution}).encode()),
    ]


def option_value(path: str) -> str:
    """A mutant read back as the value of an option: the bytes as the OS hands them (surrogate escapes).

    It is given as ``--option=VALUE``: a value that starts with ``-`` is then a value, not argparse's
    two-line usage error of an option without its argument."""
    return Path(path).read_bytes().decode("utf-8", "surrogateescape")


@dataclass(frozen=True)
class Annealer:
    """The QPU road of the 5x5 puzzle, written once: its model, an embedding on chimera:4, the solution on qubits."""

    model: str
    embedding: str
    samples: str
    topologies: list[tuple[str, bytes]]
    embeddings: list[tuple[str, bytes]]
    qubit_samples: list[tuple[str, bytes]]
    physical: list[tuple[str, bytes]]


def _annealer(workdir: str) -> Annealer:
    """Seeds of the annealer's readers (issue 33): QPU topology files, EMB.json, qubit samples, phys.json/.bqm."""
    import dimod
    import numpy as np

    from nonoqubo import clues
    from nonoqubo.cli import main
    from nonoqubo.model.encoding import Layout
    from nonoqubo.qpu.topology import dwave_networkx

    model, emb = os.path.join(workdir, "small.qubo.json"), os.path.join(workdir, "small.emb.json")
    phys_json, phys_bqm = os.path.join(workdir, "small.phys.json"), os.path.join(workdir, "small.phys.bqm")
    with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
        for argv in (["build", str(SMALL), "-o", model, "-q"],
                     ["embed", str(SMALL), "--topology", "chimera:4", "--embed-seed", "2", "-o", emb, "--no-cache", "-q"],
                     ["build", str(SMALL), "--embedding", emb, "-o", phys_json, "-o", phys_bqm, "-q"]):
            if main(argv) != 0:
                raise RuntimeError(f"the annealer seeds: nonoqubo {' '.join(argv)} failed")
    puzzle = clues.load(SMALL)
    layout = Layout.of(puzzle)
    grid = np.array([[c == "#" for c in row] for row in puzzle.solution], dtype=np.int8)
    bits = dict(zip(layout.labels(), (int(b) for b in np.asarray(layout.encode(grid)).ravel())))
    chains = json.loads(Path(emb).read_text())["embedding"]
    spins = {int(q): 2 * bits[v] - 1 for v, chain in chains.items() for q in chain}
    ordered = [spins[q] for q in sorted(spins)]
    samples = os.path.join(workdir, "small.qubits.json")
    Path(samples).write_text(json.dumps({str(q): v for q, v in spins.items()}))
    sampleset = dimod.SampleSet.from_samples([spins, spins], dimod.SPIN, energy=[0, 0], num_occurrences=[5, 2])
    dnx = dwave_networkx()
    chimera, zephyr = dnx.chimera_graph(4), dnx.zephyr_graph(1)
    return Annealer(
        model, emb, samples,
        topologies=[
            ("qpu-properties.json", json.dumps({"qubits": sorted(chimera.nodes()), "couplers": [list(e) for e in chimera.edges()],
                                                "topology": {"type": "chimera", "shape": [4, 4, 4]},
                                                "h_range": [-4.0, 4.0], "j_range": [-1.0, 1.0]}).encode()),
            ("qpu-lists.json", json.dumps({"nodelist": sorted(zephyr.nodes()),
                                           "edgelist": [list(e) for e in zephyr.edges()]}).encode()),
            ("qpu-declared.json", json.dumps({"properties": {"qubits": sorted(zephyr.nodes())[2:],
                                                             "topology": {"type": "zephyr", "shape": [1, 4]}}}).encode()),
        ],
        embeddings=[("small.emb.json", Path(emb).read_bytes())],
        qubit_samples=[
            ("qubits.json", Path(samples).read_bytes()),
            ("qubits-counts.json", json.dumps({"samples": [{str(q): v for q, v in spins.items()}] * 2,
                                               "energies": [0.5, 0.5], "num_occurrences": [4, 1]}).encode()),
            ("qubits.sampleset.json", json.dumps(sampleset.to_serializable()).encode()),
            ("qubits.txt", (" ".join(map(str, ordered)) + "\n").encode()),
        ],
        physical=[("small.phys.json", Path(phys_json).read_bytes()), ("small.phys.bqm", Path(phys_bqm).read_bytes())],
    )


#: what the option families' values start from (issue 33: option grammars)
TOPOLOGY_SPECS = ("pegasus:4", "zephyr:2,4", "chimera:4,4,4", "Chimera: 3, 2, 2", "file:qpu.json")
RANDOM_FAMILIES = ("10x10:0.5:3:7", "4x4,5x3:0.3:2", "30x30:0.5:100", "6x6:0.5:1:18446744073709551615")


def _annealer_readers(workdir: str) -> dict[str, Reader]:
    """The families of issue 33: the annealer's files, and the grammars of --topology and --random."""
    road = _annealer(workdir)
    out_emb = os.path.join(workdir, "fuzz-out.emb.json")
    embed = ["--timeout", "0.5", "--no-cache", "-q", "-o", out_emb]
    return {
        "topology-file": Reader("topology-file", road.topologies,
                                lambda p: ["embed", road.model, "--topology", p, *embed]),
        "topology-spec": Reader("topology-spec", [(f"spec{i}.txt", t.encode()) for i, t in enumerate(TOPOLOGY_SPECS)],
                                lambda p: ["embed", road.model, f"--topology={option_value(p)}", *embed],
                                names=lambda p: ["--topology", road.model]),  # the model: "no embedding of it"
        "embedding": Reader("embedding", road.embeddings,
                            lambda p: ["decode", road.model, road.samples, "--embedding", p],
                            names=lambda p: [p, road.samples]),
        "qubit-samples": Reader("qubit-samples", road.qubit_samples,
                                lambda p: ["decode", road.model, p, "--embedding", road.embedding]),
        "physical": Reader("physical", road.physical, lambda p: ["info", p], subprocess=True),
        # a valid family meets an unknown format, so no suite is built: the grammar is what is fuzzed
        "random-family": Reader("random-family", [(f"family{i}.txt", t.encode()) for i, t in enumerate(RANDOM_FAMILIES)],
                                lambda p: ["suite", f"--random={option_value(p)}", "-f", "no-such-format", "-o",
                                           os.path.join(workdir, "fuzz-suite")],
                                names=lambda p: ["--random", "no-such-format"]),
    }


# -- issue 45 ("Edges 3"): one family per class ----------------------------------------------------
#: pipes handed out by the ``streams`` family, closed when the next case asks for one (the case is over)
_OPEN_PIPES: list[int] = []
#: the most bytes a ``streams`` mutant puts in a pipe: what a pipe holds without a reader (64 KiB), so
#: writing it never waits
PIPE_BYTES = 60_000


def pipe_path(data: bytes) -> str:
    """``/dev/fd/N`` of a pipe holding *data* (cut at :data:`PIPE_BYTES`), its writer closed: a shell's ``<(...)``."""
    while _OPEN_PIPES:
        with contextlib.suppress(OSError):
            os.close(_OPEN_PIPES.pop())
    read, write = os.pipe()
    os.write(write, data[:PIPE_BYTES])
    os.close(write)
    _OPEN_PIPES.append(read)
    return f"/dev/fd/{read}"


def _value(path: str) -> str:
    """A mutant as a command-line word: :func:`option_value` without NUL bytes (no command line carries one)."""
    return option_value(path).replace("\x00", "")


#: issue 45's seeds: two output names (class 1), sweep grammars of the bounded counts (class 2), clue specs
#: whose model has no variables (class 7: unsolvable, then solvable)
OUTPUT_PAIRS = ("x.svg\nx.svg", "x.svg\n./x.svg", "a.json\nsub/../a.json", "a.json\nb.svg", "m.qubo\nm.qubo")
COUNT_SWEEPS = ("reads=1:3", "sweeps=10:20", "restarts=1:2", "sweeps-per-beta=1:2", "reads=2,sweeps=10",
                "beta-range=1,10:2,20")
EMPTY_MODELS = ({"rows": [[2], []], "cols": [[], [2]]}, {"rows": [[2], []], "cols": [[1], [1]]},
                {"rows": [[1], [1]], "cols": [[2], []]}, {"rows": [[3], [], [3]], "cols": [[1, 1]] * 3})


def _edges3_readers(workdir: str) -> dict[str, Reader]:
    """The families of issue 45, one per class: outputs, counts, streams, occurrences, sample types,
    tournament answers, empty models."""
    import dimod
    import numpy as np

    from nonoqubo import clues
    from nonoqubo.model.encoding import Layout

    puzzle = clues.load(SMALL)
    layout = Layout.of(puzzle)
    labels = layout.labels()
    grid = np.array([[c == "#" for c in row] for row in puzzle.solution], np.int8)
    bits = [int(b) for b in np.asarray(layout.encode(grid)).ravel()]
    flipped = [1 - b for b in bits]
    out = os.path.join(workdir, "edges3")
    os.makedirs(out, exist_ok=True)
    fast = ["--reads", "2", "--sweeps", "20", "--seed", "1", "-q"]

    def outputs(p: str) -> list[str]:  # class 1: two outputs of one command, maybe on one path
        first, _, second = _value(p).partition("\n")
        first, second = (os.path.join(out, n) for n in (first or "a", second or "b"))
        if len(p) % 2:
            return ["build", str(SMALL), "-o", first, "-o", second, "-f", "qubo-json", "-q"]
        return ["solve", str(SMALL), "-o", first, "--image", second, *fast]

    def streams(p: str) -> list[str]:  # class 3: option files as pipes
        data = Path(p).read_bytes()
        if p.endswith(".betas"):
            return ["solve", str(SMALL), "--beta-schedule", "custom", pipe_path(data), "--reads", "2", "-q"]
        return ["solve", str(SMALL), "--initial-states", pipe_path(data), *fast]

    answer = json.dumps(dimod.SampleSet.from_samples([dict(zip(labels, bits))], "BINARY", energy=[0])
                        .to_serializable(pack_samples=False))
    typed = []
    for kind in ("int8", "float64", "bool", "complex128", "datetime64[D]", "timedelta64[s]"):
        doc = json.loads(answer)
        doc["sample_data"]["data_type"] = doc["sample_type"] = kind
        typed.append((f"{kind.split('[')[0]}.sampleset.json", json.dumps(doc).encode()))
    counted = dimod.SampleSet.from_samples([dict(zip(labels, bits)), dict(zip(labels, flipped))], "BINARY",
                                           energy=[0, 30], num_occurrences=[0, 5])
    questions = os.path.join(workdir, "edges3-questions.taai")
    question = "\n".join("\t".join(map(str, c)) or "0" for c in (*puzzle.cols, *puzzle.rows))
    Path(questions).write_text(f"$1\n{question}\n$2\n{question}\n")
    rows = ["\t".join("1" if c == "#" else "0" for c in r) for r in puzzle.solution]
    short = ["1\t0", *rows[1:]]
    picture = ("\n".join(puzzle.solution) + "\n").encode()
    return {
        "outputs": Reader("outputs", [(f"pair{i}.txt", t.encode()) for i, t in enumerate(OUTPUT_PAIRS)], outputs,
                          names=lambda p: [out, "-o", "--image"]),
        "counts": Reader("counts", [(f"sweep{i}.txt", t.encode()) for i, t in enumerate(COUNT_SWEEPS)],
                         # one read of 10 sweeps: a count the mutant leaves small stays quick (restarts=781)
                         lambda p: ["solve", str(SMALL), f"--sweep={_value(p)}", "--reads", "1", "--sweeps", "10",
                                    "--seed", "1", "-q", "-o", os.path.join(out, "sweeps")],
                         names=lambda p: ["--sweep", "--reads", "--sweeps", "--restarts", "--beta-range"]),
        "streams": Reader("streams", [("b.betas", b"0.1\n1\n5\n"), ("j.betas", b"[0.5, 1, 2, 4]"),
                                      ("pic.txt", picture), ("answer.json", answer.encode())], streams,
                          names=lambda p: ["/dev/fd/", "--beta-schedule", "--initial-states"]),
        "occurrences": Reader("occurrences", [("zero.sampleset.json", json.dumps(counted.to_serializable()).encode()),
                                              ("zero-map.json", json.dumps({
                                                  "samples": [dict(zip(labels, bits)), dict(zip(labels, flipped))],
                                                  "energies": [0, 30], "num_occurrences": [0, 2]}).encode())],
                              lambda p: ["decode", str(SMALL), p]),
        "sample-types": Reader("sample-types", typed, lambda p: ["decode", str(SMALL), p]),
        "tournament-answers": Reader("tournament-answers", [
            ("answers.txt", ("$1\n" + "\n".join(rows) + "\n$2\n" + "\n".join(rows) + "\n").encode()),
            ("short1.txt", ("$1\n" + "\n".join(short) + "\n$2\n" + "\n".join(rows) + "\n").encode()),
            ("short2.txt", ("$2\n" + "\n".join(rows) + "\n$1\n" + "\n".join(short) + "\n").encode())],
            lambda p: ["check", questions, p], names=lambda p: [p, questions], report=True),
        "empty-models": Reader("empty-models", [(f"empty{i}.json", json.dumps(spec).encode())
                                                for i, spec in enumerate(EMPTY_MODELS)],
                               lambda p: (["solve", p, "--reads", "2", "-q"] if len(p) % 2 else
                                          ["build", p, "-o", os.path.join(out, "empty.qubo.json"), "-q"])),
    }

def _records_readers(workdir: str) -> dict[str, Reader]:
    """The families of the campaign's kept files (issue 50; issue 54 classes 2, 6, 7, 8, 9): a run file's record
    (``decode``), a suite's index under ``suite -o`` and under ``run --dry-run``."""
    from nonoqubo.cli import main

    out = os.path.join(workdir, "records")
    suite = os.path.join(out, "suite")
    run_file = os.path.join(out, "run.json")
    if not os.path.exists(run_file):
        os.makedirs(out, exist_ok=True)
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            main(["solve", str(SMALL), "--reads", "2", "--sweeps", "5", "--seed", "1", "-q", "-o", run_file])
            main(["suite", str(SMALL), "-o", suite, "-f", "bqm", "-j", "1", "-q"])
    run = Path(run_file).read_bytes()
    doc = json.loads(run)

    def changed(**fields: object) -> bytes:
        changed_doc = json.loads(run)
        record = changed_doc["info"]["nonoqubo"]
        for key, value in fields.items():
            where, _, name = key.rpartition("__")
            (record[where] if where else record)[name] = value
        return json.dumps(changed_doc).encode()

    records = [("run.json", run), ("weight.json", changed(model__weights={"cell": 10 ** 400})),  # class 6
               ("deep.json", changed(machine={"x": []}).replace(b'"x": []', b'"x": ' + b"[" * 2000 + b"]" * 2000)),
               ("presolve.json", changed(parameters__presolve=1)),  # class 8
               ("long.json", changed(sampler="s" * 100_000)),  # class 9
               ("version.json", changed(version=3))]
    index = Path(suite, "index.json").read_bytes()
    indexes = [("index.json", index), ("deep-index.json", index.replace(b'"puzzles": [', b'"puzzles": [' + b"[" * 2000
                                                                          + b"]" * 2000 + b",", 1)),
               ("name-index.json", index.replace(b'"name": "', b'"name": "../../', 1)),
               ("foreign-index.json", b'{"experiment": 1}\n')]
    del doc

    def folder(p: str) -> str:
        """A suite folder of the built suite's files with the mutant as its index.json."""
        d = p + ".d"
        os.makedirs(d, exist_ok=True)
        for name in os.listdir(suite):
            if name != "index.json" and not os.path.lexists(os.path.join(d, name)):
                os.symlink(os.path.join(suite, name), os.path.join(d, name))
        shutil.copyfile(p, os.path.join(d, "index.json"))
        return d

    def planned(p: str) -> list[str]:
        d = folder(p)
        plan = os.path.join(d, "plan.yaml")
        Path(plan).write_text("suite: .\nsettings: {sa: {sampler: sa, reads: 1}}\n")
        return ["run", plan, "--dry-run"]

    return {
        "run-records": Reader("run-records", records, lambda p: ["decode", str(SMALL), p]),
        "suite-index": Reader("suite-index", indexes,
                              lambda p: ["suite", str(SMALL), "-o", folder(p), "-j", "1", "-q"],
                              names=lambda p: [p + ".d"]),
        "plan-index": Reader("plan-index", indexes, planned, names=lambda p: [p + ".d"]),
    }


# -- issue 54 ("Edges 4"), classes 1, 3, 4, 5, 10: one family per class ---------------------------------
#: output paths (class 1: onto the inputs of evaluate, or beside them) and output folders (class 10), relative
#: to the family's folder; a mutant that leaves the folder is brought back (the fuzzer writes nowhere else)
INPUT_OUTPUTS = ("runs/sa/sgt-pattern-5x5.s1.json", "suite/index.json", "suite/index.csv", "link.csv",
                 "runs/../runs/sa/./sgt-pattern-5x5.s2.json", "suite/sgt-pattern-5x5.qubo.json", "table.csv",
                 "suite/table.csv", "runs/table.csv")
OUTPUT_FOLDERS = ("runs/sa", "runs", "runs/sa/figs", "suite", "suite/figs", "figs", "runs/../figs", "link-dir/sa")
#: -j values (class 4) and pt/pa counts (class 5: replicas, reads, sweeps) the mutants start from
JOBS = ("1", "2", "1024", "1025", "100000000000000000000", "0", "-3")
#: the most spin updates a pt or pa task may ask (the value of nonoqubo.solvers.options.MOST_SPIN_UPDATES)
WORK_BOUND = 10**11
WORK = ("pt 8 10 1000", "pa 32 10 1000", "pt 1000000 10 1000", "pa 1000 1000 100", "pt 2 1000000 100000000",
        "pa 100000 100 1000", "pt 10000 1000 1000")


def _snapshot(*folders: str) -> dict[str, bytes]:
    """Every file under *folders* (links followed, FIFOs and devices named, never read), by path."""
    out = {}
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                path = os.path.join(root, name)
                out[path] = Path(path).read_bytes() if os.path.isfile(path) else b"(not a regular file)"
    return out


def _inside(folder: str, text: str, fallback: str) -> str:
    """*text* as a path in *folder* (no NUL, not leaving it: else *fallback* there)."""
    path = os.path.join(folder, text.replace("\x00", "").strip("\n") or fallback)
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return path if real == root or real.startswith(root + os.sep) else os.path.join(folder, fallback)


def _edges_readers(workdir: str) -> dict[str, Reader]:
    """The families of issue 54 this branch closes: input-outputs (1), found-streams (3), jobs (4), work (5),
    output-folders (10).  One campaign is made once (a suite of the 5x5 puzzle and two sa runs of it), and
    every case must leave it as it was (:attr:`Reader.after`)."""
    from nonoqubo.cli import main

    home = os.path.join(workdir, "edges4")
    suite, runs = os.path.join(home, "suite"), os.path.join(home, "runs")
    found = os.path.join(home, "found")
    if not os.path.isdir(suite):
        os.makedirs(os.path.join(runs, "sa"))
        os.makedirs(os.path.join(found, "sa"))
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            commands = [["suite", str(SMALL), "-o", suite, "-j", "1", "-q"]]
            commands += [["solve", str(SMALL), "-o", os.path.join(runs, "sa", f"sgt-pattern-5x5.s{seed}.json"),
                          "--reads", "4", "--sweeps", "50", "--seed", str(seed), "-q"] for seed in (1, 2)]
            for argv in commands:
                if main(argv) != 0:
                    raise RuntimeError(f"the edges4 seeds: nonoqubo {' '.join(argv)} failed")
        os.symlink(os.path.join(runs, "sa", "sgt-pattern-5x5.s1.json"), os.path.join(home, "link.csv"))
        os.symlink(runs, os.path.join(home, "link-dir"))
        # class 3: a FIFO and a link to /dev/zero at run-file paths (seeds 1, 2), the mutant at seed 3's
        os.mkfifo(os.path.join(found, "sa", "sgt-pattern-5x5.seed1.json"))
        os.symlink("/dev/zero", os.path.join(found, "sa", "sgt-pattern-5x5.seed2.json"))
        for name, seeds in (("plan.yaml", "[3, 1, 2]"), ("plan-zero.yaml", "[2, 3]")):
            Path(home, name).write_text(f"suite: suite\nruns: found\nseeds: {seeds}\nsettings:\n  sa: {{sampler: sa, reads: 2}}\n")
    kept = _snapshot(suite, runs)
    variables = json.loads(Path(suite, "index.json").read_text())["puzzles"][0]["files"][0]["variables"]
    run_files = [(os.path.basename(p), Path(p).read_bytes()) for p in sorted(kept) if p.endswith(".json")
                 and os.sep + "runs" + os.sep in p]

    def unchanged(_: str, kind: str) -> str | None:
        """None when no input changed and nothing landed in the runs folder (a new file in the suite folder,
        read through its index, may: it is removed); else the first path changed, and the campaign restored."""
        now = _snapshot(suite, runs)
        changed = sorted(p for p in kept if now.get(p) != kept[p])
        changed += sorted(p for p in set(now) - set(kept) if p.startswith(runs + os.sep))
        for path in set(now) - set(kept):
            os.unlink(path)
        for path in changed:
            if path in kept:
                Path(path).write_bytes(kept[path])
        for root, dirs, _ in os.walk(runs, topdown=False):  # a folder an output made there
            for d in dirs:
                with contextlib.suppress(OSError):
                    os.rmdir(os.path.join(root, d))
        return f"the case changed {changed[0]}" if changed else None

    def outputs(p: str) -> list[str]:  # class 1: --csv onto an input, or beside the inputs
        target = _inside(home, _value(p), "table.csv")
        return ["evaluate", suite, runs, f"--csv={target}", "-j", "1", "-q"]

    def folders(p: str) -> list[str]:  # class 10: an output folder in or on an input folder
        target = _inside(home, _value(p), "figs")
        if len(p) % 2:  # --submission without --submitter: refused after the folders are checked, before any work
            return ["evaluate", suite, runs, f"--figures={target}", f"--submission={os.path.join(home, 'sub')}"]
        return ["evaluate", suite, runs, f"--submission={target}"]

    def streams(p: str) -> list[str]:  # class 3: a FIFO and a link to /dev/zero beside a (mutated) run file
        Path(found, "sa", "sgt-pattern-5x5.seed3.json").write_bytes(Path(p).read_bytes())
        if len(p) % 3 < 2:  # the mutant's task scanned first (a conflict, or done), then the FIFO's or the device's
            return ["run", os.path.join(home, "plan.yaml" if len(p) % 3 else "plan-zero.yaml"), "--dry-run"]
        return ["evaluate", str(SMALL), found, "-j", "1", "-q", "--json"]

    def jobs(p: str) -> list[str]:  # class 4: -j of any size
        text = _value(p)
        digits = "".join(ch for ch in text if ch.isascii() and ch.isdigit())[:400] or "1"
        value = ("-" if text.lstrip().startswith("-") else "") + digits
        if len(p) % 3 == 0:
            return ["run", os.path.join(home, "plan.yaml"), "--dry-run", f"--jobs={value}"]
        if len(p) % 3 == 1:
            return ["suite", f"--random=3x3:0.5:1:{len(p)}", "-f", "no-such-format", "-o", os.path.join(home, "s"),
                    f"--jobs={value}"]
        return ["evaluate", str(SMALL), runs, "-q", "--json", f"--jobs={value}"]

    def work(p: str) -> list[str]:  # class 5: pt's and pa's counts, their product, as run --dry-run counts it
        words = _value(p).split()
        sampler = "pa" if words and words[0].endswith("a") else "pt"
        numbers = [w for w in (re.sub(r"[^0-9]", "", w)[:400] for w in words[1:]) if w] + ["8", "10", "100"]
        replicas, reads, sweeps = numbers[:3]
        plan = os.path.join(home, "work.yaml")
        Path(plan).write_text(f"suite: suite\nruns: work-runs\nseeds: [1]\nsettings:\n  s: {{sampler: {sampler}, "
                              f"replicas: {replicas}, reads: {reads}, sweeps: {sweeps}}}\n")
        return ["run", plan, "--dry-run", "--json"]

    def bounded(p: str, kind: str) -> str | None:
        """A dry run accepted (status 0) only within the bound: reads x replicas x sweeps x variables."""
        setting = Path(home, "work.yaml").read_text().split("{", 1)[1]
        counts = dict(item.strip().split(": ") for item in setting.rstrip("}\n").split(","))
        spins = int(counts["replicas"]) * int(counts["reads"]) * int(counts["sweeps"]) * variables
        if kind == "ok" and spins > WORK_BOUND:
            return f"a plan of {spins:,} spin updates a task was accepted ({setting.strip()})"
        return unchanged(p, kind)

    named = [home, "-j/--jobs", "no-such-format"]  # suite's -j checked first; a good one meets the unknown format
    return {
        "input-outputs": Reader("input-outputs", [(f"out{i}.txt", t.encode()) for i, t in enumerate(INPUT_OUTPUTS)],
                                outputs, names=lambda p: [home, "--csv"], after=unchanged),
        "found-streams": Reader("found-streams", run_files, streams, names=lambda p: [found], after=unchanged),
        "jobs": Reader("jobs", [(f"j{i}.txt", t.encode()) for i, t in enumerate(JOBS)], jobs, names=lambda p: named,
                       after=unchanged),
        "work": Reader("work", [(f"w{i}.txt", t.encode()) for i, t in enumerate(WORK)], work,
                       names=lambda p: [home, "--replicas", "--reads", "--sweeps", "replicas", "reads", "sweeps"],
                       after=bounded),
        "output-folders": Reader("output-folders", [(f"dir{i}.txt", t.encode()) for i, t in enumerate(OUTPUT_FOLDERS)],
                                 folders, names=lambda p: [home, "--figures", "--submission"], after=unchanged),
    }


#: issue 51's seeds: plans (YAML and JSON; axes, seeds, models by glob and by index field, a time limit) and
#: scheduler values (addresses and a scheduler file)
PLANS = (
    "suite: {suite}\nruns: {runs}\nseeds: [1, 2]\nsettings:\n  sa: {{sampler: sa, reads: 2, sweeps: [10, 20]}}\n"
    "  tabu: {{sampler: tabu, reads: 2, time-limit: 0.01}}\nmodels: 'random-*'\n",
    "suite: {suite}\nruns: {runs}\nseeds: 3\ntask-time-limit: 5\nsettings:\n  pt: {{sampler: pt, reads: 1, sweeps: 10, "
    "replicas: [2, 4]}}\nmodels: {{status: ok}}\n",
    '{{"suite": "{suite}", "runs": "{runs}", "seeds": [7], "settings": {{"sa": {{"sampler": "sa", "beta-range": '
    '["0.1,5", "1,10"], "restarts": 2}}}}}}',
)
SCHEDULERS = ("tcp://127.0.0.1:8786", "10.0.0.5:8786", "ws://[::1]:8786", "tls://host:8786", "inproc://x:1",
              '{"type": "Scheduler", "id": "Scheduler-1", "address": "tcp://127.0.0.1:8786", "services": {}}')


def _runner_readers(workdir: str) -> dict[str, Reader]:
    """The families of issue 51: campaign plans (``run PLAN --dry-run``) and ``--scheduler`` values (on a plan
    whose one task is done, so nothing connects)."""
    from nonoqubo.cli import main

    out = os.path.join(workdir, "runner")
    suite = os.path.join(out, "suite")
    done_plan = os.path.join(out, "done.yaml")
    if not os.path.exists(done_plan):
        os.makedirs(out, exist_ok=True)
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            main(["suite", "--random", "5x5:0.5:2:7", "-o", suite, "-f", "bqm", "-j", "1", "-q"])
            Path(done_plan).write_text(f"suite: {suite}\nmodels: '*0001'\nsettings: {{sa: {{sampler: sa, reads: 1, "
                                       "sweeps: 10}}\n")
            main(["run", done_plan, "-j", "1", "-q"])
    runs = os.path.join(out, "fuzz-runs")

    def scheduler(p: str) -> list[str]:
        value = p if p.endswith(".json") and len(p) % 2 else _value(p)
        return ["run", done_plan, "--scheduler", value, "-q"]

    return {
        "plans": Reader("plans", [(f"plan{i}.{'json' if t.startswith('{') else 'yaml'}",
                                   t.format(suite=suite, runs=runs).encode()) for i, t in enumerate(PLANS)],
                        lambda p: ["run", p, "--dry-run", "-q"]),
        "scheduler-values": Reader("scheduler-values", [(f"scheduler{i}.{'json' if t.startswith('{') else 'txt'}",
                                                         t.encode()) for i, t in enumerate(SCHEDULERS)],
                                   scheduler, names=lambda p: ["--scheduler"]),
    }


def readers(workdir: str) -> dict[str, Reader]:
    """Every reader family; model seeds are written to *workdir* (the samples' model lives there)."""
    model_path = os.path.join(workdir, "logo.qubo")
    if not os.path.exists(model_path):
        from nonoqubo.cli import main

        with contextlib.redirect_stderr(io.StringIO()):
            main(["build", str(LOGO), "-o", model_path, "-q"])
    good_answer = os.path.join(workdir, "small-answer.txt")
    if not os.path.exists(good_answer):
        import numpy as np

        from nonoqubo import clues
        from nonoqubo.model.encoding import Layout

        p = clues.load(SMALL)
        grid = np.array([[c == "#" for c in row] for row in p.solution], dtype=np.int8)
        Path(good_answer).write_text(" ".join(str(int(b)) for b in np.asarray(Layout.of(p).encode(grid)).ravel()))
    models = _model_seeds()
    out = {
        "clues": Reader("clues", _clue_seeds(), lambda p: ["info", p]),
        "samples": Reader("samples", _sample_seeds(), lambda p: ["decode", model_path, p]),
        "grids": Reader("grids", _grid_seeds(), lambda p: ["check", str(LOGO), p]),
    }
    answers = DATA / "answers"  # what minizinc --solver gecode printed (text and JSON), and its verdict
    minizinc = [(p.name, p.read_bytes()) for p in sorted(answers.glob("logo.minizinc.*"))]
    minizinc.append(("unsat.txt", b"=====UNSATISFIABLE=====\n"))
    out["minizinc-answers"] = Reader("minizinc-answers", minizinc, lambda p: ["decode", model_path, p])
    for fmt, name, data in models:
        out[fmt] = Reader(fmt, [(name, data)], lambda p: ["decode", p, good_answer], subprocess=fmt in NATIVE)
    out.update(_annealer_readers(workdir))
    out.update(_edges3_readers(workdir))
    out.update(_records_readers(workdir))
    out.update(_edges_readers(workdir))
    out.update(_runner_readers(workdir))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="mutation fuzzing of every nonoqubo reader")
    parser.add_argument("--cases", type=int, default=1000, help="cases per reader")
    parser.add_argument("--reader", action="append", help="only these readers (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the outcome as JSON (one reader)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as work:
        family = readers(work)
        names = args.reader or list(family)
        total = Counter()
        failed = 0
        for name in names:
            if args.json:
                outcome = fuzz(family[name], args.cases, args.seed, work)
                print(json.dumps({"counts": dict(outcome.counts), "failures": outcome.failures}))
                continue
            reader = family[name]
            outcome = (fuzz_in_child(name, args.cases, args.seed) if reader.subprocess
                       else fuzz(reader, args.cases, args.seed, work))
            total.update(outcome.counts)
            failed += len(outcome.failures)
            counts = ", ".join(f"{k} {v}" for k, v in sorted(outcome.counts.items()))
            print(f"| {name} | {args.cases} | {counts} |", flush=True)
            for f in outcome.failures[:20]:
                print(f"    {f}", file=sys.stderr)
        if not args.json:
            print(f"| all | {sum(total.values())} | {', '.join(f'{k} {v}' for k, v in sorted(total.items()))} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
