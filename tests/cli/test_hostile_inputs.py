"""One regression test per class of issue 11: every hostile input ends in one located line.

The contract: exit status 2, one line on standard error that names the file, within a second
or two; never a traceback, a native crash, a hang, a flood or a partial file.  Each test feeds
the issue's own example (and a few relatives) through the CLI; the inputs that once crashed the
interpreter (a damaged ``.bqm``) run in a child process.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import zipfile
from pathlib import Path

import numpy as np
import pytest

from tests.support.fuzzing import SMALL, run_case

ROOT = Path(__file__).resolve().parents[2]


def one_error(*argv, names=None) -> str:
    """Run the CLI in-process under the fuzz harness's checks; the error line it printed."""
    argv = [str(a) for a in argv]
    from nonoqubo.cli import main

    err = io.StringIO()
    kind, detail = run_case(argv, names or [argv[-1]])
    assert kind == "error", f"{kind}: {detail}"
    import contextlib

    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        main(argv)
    return err.getvalue().strip()


@pytest.fixture(scope="module")
def small_exports(tmp_path_factory):
    """Every export format of the 5x5 puzzle as text/bytes, and a good answer file."""
    from nonoqubo import clues, exports
    from nonoqubo.model.build import build
    from nonoqubo.model.constrained import build_constrained
    from nonoqubo.model.encoding import Layout

    puzzle = clues.load(SMALL)
    qubo, model = build(puzzle), build_constrained(puzzle)
    files = {mod.NAME: exports.dumps(model if getattr(mod, "KIND", "qubo") == "constrained" else qubo, mod.NAME)
             for mod in exports.formats()}
    grid = np.array([[c == "#" for c in row] for row in puzzle.solution], np.int8)
    answer = tmp_path_factory.mktemp("answer") / "answer.txt"
    answer.write_text(" ".join(map(str, Layout.of(puzzle).encode(grid).ravel().tolist())) + "\n")
    return files, answer


# -- 1. integers past 4,300 digits ----------------------------------------------------------
NINES = "9" * 5000


@pytest.mark.parametrize("name, text", [
    ("b.pbm", f"P1\n{NINES} 1\n1\n"),
    ("b.non", f"width {NINES}\nheight 1\nrows\n1\ncolumns\n1\n"),
    ("b.nin", f"1 1\n{NINES}\n1\n"),
    ("b.g", f": rows\n{NINES}\n: columns\n1\n"),
    ("b.mk", f"1 1\n{NINES}\n#\n1\n"),
    ("b.cwd", f"1\n1\n{NINES}\n\n1\n"),
    ("b.sgt", f"1x1:{NINES}/1\n"),
    ("b.xml", f"<puzzleset><puzzle><clues type='columns'><line><count>{NINES}</count></line></clues>"
              "<clues type='rows'><line><count>1</count></line></clues></puzzle></puzzleset>"),
    ("b.json", f'{{"rows": [[{NINES}]], "cols": [[1]]}}'),
    ("b.yaml", f"rows: [[{NINES}]]\ncols: [[1]]\n"),
    ("b.yml", f"rows: ['{NINES}']\ncols: [[1]]\n"),
])
def test_class1_huge_integers_in_every_clue_reader(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    line = one_error("info", path)
    assert str(path) in line


# -- 2. linear-time parsing -----------------------------------------------------------------
def test_class2_a_million_digits_in_a_g_file_is_refused_at_once(tmp_path):
    path = tmp_path / "long.g"
    path.write_text(": rows\n" + "1" * 1_000_000 + "x\n: columns\n1\n")  # the colour check ran in O(n^2)
    assert "long.g:2" in one_error("info", path)


@pytest.mark.parametrize("payload", ["\n" * 200_000, " \n" * 100_000, "1" * 1_000_000 + "x"])
def test_class2_every_sniffer_is_linear(tmp_path, payload):
    """Content sniffing tries every format's detect(); '^\\s*' under re.M was quadratic in blank lines."""
    path = tmp_path / "blank.unknown"
    path.write_text(payload + "?")
    assert str(path) in one_error("info", path)
    samples = tmp_path / "blank-samples"
    samples.write_text(payload)
    kind, detail = run_case(["decode", str(SMALL), str(samples)], [str(samples)])
    assert kind == "error", detail


# -- 3. deep nesting ------------------------------------------------------------------------
@pytest.mark.parametrize("name, text", [
    ("deep.json", "[" * 100_000),
    ("deep.yaml", "rows: " + "[" * 100_000),
    ("block.yaml", "rows:\n" + "- " * 5000 + "1\ncols: []\n"),
])
def test_class3_deep_nesting_in_specs(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    assert "nesting deeper than 100 levels" in one_error("info", path)


def test_class3_deep_nesting_in_json_models_samples_and_grids(tmp_path, small_exports):
    deep = "[" * 100_000 + "]" * 100_000
    model = tmp_path / "deep.qubo.json"
    model.write_text(deep)
    assert "nesting" in one_error("decode", model, small_exports[1], names=[str(model)])
    samples = tmp_path / "deep-samples.json"
    samples.write_text(deep)
    assert "nesting" in one_error("decode", SMALL, samples)
    grid = tmp_path / "deep-grid.json"
    grid.write_text(deep)
    assert "nesting" in one_error("check", SMALL, grid)


# -- 4. clues of a picture: memory proportional to the cells -----------------------------------
def test_class4_one_row_picture_needs_memory_of_its_cells_only():
    import tracemalloc

    from nonoqubo.model.puzzle import line_clues

    tracemalloc.start()
    clues = line_clues(np.ones((1, 200_000), bool))  # was a (200001 x 200002) int8 array: 40 GB
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert clues[0] == (200_000,) and clues[1:] == [(1,)] * 200_000
    assert peak < 100 * 2**20


# -- 5. YAML aliases and metadata ----------------------------------------------------------------
BOMB = "".join(f"{c}: &{c} [{', '.join([f'*{p}'] * 9) if p else ', '.join(['lol'] * 9)}]\n"
               for p, c in zip(["", *"abcdefghi"], "abcdefghij")) + "author: *j\nrows: [[1]]\ncols: [[1]]\n"


def test_class5_alias_bomb_is_refused(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    assert "alias" in one_error("convert", path, tmp_path / "out.xml", names=[str(path)])
    assert not (tmp_path / "out.xml").exists()


def test_class5_metadata_is_written_as_text_not_repr(tmp_path, run_cli):
    path = tmp_path / "meta.yaml"
    path.write_text("a: &who [Ann, Bob]\nauthor: *who\ncopyright: [2024]\nrows: [[1]]\ncols: [[1]]\n")
    status, _, err = run_cli("convert", path, tmp_path / "out.xml")
    assert status == 0, err
    xml = (tmp_path / "out.xml").read_text()
    assert "<author>Ann, Bob</author>" in xml and "[" not in xml.split("<clues")[0]
    path.write_text("author: {first: Ann}\nrows: [[1]]\ncols: [[1]]\n")
    assert "meta.yaml:1: author: expected text, found a dict" in one_error("convert", path, tmp_path / "o.xml",
                                                                           names=[str(path)])


# -- 6. a damaged dimod .bqm must not crash the interpreter (run in a child) -------------------
def _bqm_variants(data: bytes) -> dict[str, bytes]:
    from dimod.serialization.fileview import make_header, read_header

    info = read_header(io.BytesIO(data), b"DIMODBQM")
    body = data[14 + int(np.frombuffer(data, "<u4", 1, 10)[0]):]
    huge = bytes(make_header(b"DIMODBQM", {**info.data, "shape": [10**12, 10**12]}, info.version)) + body
    head = len(data) - len(body)
    nv = info.data["shape"][0]
    qstart = head + 8 + nv * 12  # float64 offset, then (int32 start, float64 bias) per variable
    out = {"huge": huge, "cut": data[: len(data) // 2]}
    # with dimod 0.12.23, a negative neighbour index is a segmentation fault (exit 139) and a
    # far one in a later neighbourhood a std::bad_alloc (exit 134)
    for name, k, value in (("negative", 0, -5), ("far", 49, 2**30)):
        bad = bytearray(data)
        bad[qstart + 12 * k:qstart + 12 * k + 4] = np.int32(value).tobytes()
        out[name] = bytes(bad)
    bad = bytearray(data)
    bad[head + 8 + 12:head + 8 + 16] = np.int32(-5).tobytes()  # a negative neighbourhood start
    out["start"] = bytes(bad)
    return out


def test_class6_damaged_bqm_files_are_refused_not_crashed(tmp_path, small_exports):
    files, answer = small_exports
    paths = []
    for name, data in _bqm_variants(files["bqm"]).items():
        path = tmp_path / f"{name}.bqm"
        path.write_bytes(data)
        paths.append(path)
    script = ("import sys, contextlib, io\nfrom nonoqubo.cli import main\n"
              "for p in sys.argv[2:]:\n"
              "    err = io.StringIO()\n"
              "    with contextlib.redirect_stderr(err):\n"
              "        status = main(['decode', p, sys.argv[1]])\n"
              "    print(status, err.getvalue().strip())\n")
    proc = subprocess.run([sys.executable, "-c", script, str(answer), *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, f"the interpreter died ({proc.returncode}): {proc.stderr[-500:]}"
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == len(paths)
    for path, line in zip(paths, lines):
        assert line.startswith(f"2 nonoqubo: error: {path}: "), line


def test_class6_an_mps_file_that_hangs_highs_is_refused_before_highs_reads_it(tmp_path, small_exports):
    files, answer = small_exports
    line = "    z1_0_1    wall_z1_k0_p0  -1"
    assert line in files["mps"]
    path = tmp_path / "hang.mps"  # HiGHS 1.16 loops forever on a one-field COLUMNS line and a blank line
    path.write_text(files["mps"].replace(line, "    z1_0_1 \n\n" + line))
    proc = subprocess.run([sys.executable, "-m", "nonoqubo", "decode", str(path), str(answer)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2 and f"{path}:112: a COLUMNS line has 1 field(s)" in proc.stderr


# -- 7. .npz ----------------------------------------------------------------------------------
def _npz_claiming_huge_shape(data: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for item in src.infolist():
            raw = src.read(item)
            if item.filename == "linear.npy":
                header = "{'descr': '<i8', 'fortran_order': False, 'shape': (1000000000000,), }"
                header += " " * (117 - len(header)) + "\n"
                raw = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode() + raw[128:]
            dst.writestr(item, raw)
    return out.getvalue()


def test_class7_damaged_npz(tmp_path, small_exports):
    files, answer = small_exports
    data = files["npz"]
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF  # a CRC error in some member
    for name, bad in {"cut": data[: len(data) // 2], "crc": bytes(flipped), "huge": _npz_claiming_huge_shape(data),
                      "empty": b"PK\x05\x06" + bytes(18)}.items():
        path = tmp_path / f"{name}.npz"
        path.write_bytes(bad)
        line = one_error("decode", path, answer, names=[str(path)])
        assert str(path) in line
    assert "claims shape (1000000000000,)" in one_error("decode", tmp_path / "huge.npz", answer,
                                                        names=[str(tmp_path / "huge.npz")])


# -- 8.-12. text models ----------------------------------------------------------------------------
def _edit(files, fmt: str, old: str, new: str) -> str:
    text = files[fmt]
    assert old in text, (fmt, old)
    return text.replace(old, new, 1)


@pytest.mark.parametrize("fmt, suffix, old, new, message", [
    # 8: a quoted CSV row with fewer than 5 fields
    ("csv", "csv", "0,1,y0[0][0],y0[0][1],-1", '0,1,"y0[0][0]"', "expected 5 fields"),
    # 9: a wrong "number of variables" line in QPLIB
    ("qplib", "qplib", "23 # number of variables", "2 # number of variables", "outside"),
    # 10: a header that claims 10^11 variables
    ("qs", "qs", "\n23 56\n", "\n100000000000 56\n", "the header announces 100000000000 variables"),
    ("coo", "coo", "# variables=23", "# variables=100000000000", "the header announces 100000000000 variables"),
    ("mtx", "mtx", "\n23 23 ", "\n100000000000 100000000000 ", "the header announces 100000000000 variables"),
    ("qbsolv", "qubo", "p qubo 0 23 ", "p qubo 0 100000000000 ", "the header announces 100000000000 variables"),
    # 11: 1e400 and inf in a QUBO JSON
    ("qubo-json", "qubo.json", '"offset": 10', '"offset": 1e400', "out of range"),
    ("qubo-json", "qubo.json", '"offset": 10', '"offset": Infinity', "not a number JSON allows"),
    # 12: an LP whose size line says 4294967296 columns (a loop of 4 billion clues)
    ("lp", "lp", "size: 5 5", "size: 5 4294967296", "'size: 5 4294967296'"),
    # 13: a NaN index (was a RuntimeWarning plus index -9223372036854775808)
    ("coo", "coo", "\n0 1 -1\n", "\nnan 1 -1\n", "index nan is not a finite number"),
])
def test_class8_to_13_damaged_text_models(tmp_path, small_exports, fmt, suffix, old, new, message):
    files, answer = small_exports
    path = tmp_path / f"bad.{suffix}"
    path.write_text(_edit(files, fmt, old, new))
    line = one_error("decode", path, answer, names=[str(path)])
    assert message in line and str(path) in line


@pytest.mark.parametrize("fmt, suffix, where", [
    ("qubo-json", "qubo.json", ("quadratic", "row")),
    ("bqm-json", "bqm.json", ("quadratic_tail",)),
])
def test_class11_an_index_past_int64_in_a_json_model(tmp_path, small_exports, fmt, suffix, where):
    # found by a 20,000-case fuzz run (seed 12): 1.6e20 in a BQM JSON's index list was an OverflowError
    files, answer = small_exports
    doc = json.loads(files[fmt])
    target = doc
    for key in where[:-1]:
        target = target[key]
    target[where[-1]][0] = 1.6e20
    path = tmp_path / f"bad.{suffix}"
    path.write_text(json.dumps(doc))
    line = one_error("decode", path, answer, names=[str(path)])
    assert "an index is out of range (past int64)" in line


def test_class11_huge_number_in_a_vector_sample(tmp_path):
    samples = tmp_path / "answer.txt"
    samples.write_text("1 " + "9" * 400 + " 0\n")
    assert f"{samples}:1:" in one_error("decode", SMALL, samples)


def test_class13_build_presolve_of_an_unsolvable_puzzle_prints_one_line(tmp_path, run_cli):
    path = tmp_path / "bad.json"
    path.write_text('{"rows": [[1, 1], [], [1, 1]], "cols": [[3], [], [1]]}')
    status, _, err = run_cli("build", path, "--presolve", "-o", tmp_path / "out.qubo")
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "out.qubo").exists()


# -- 14. errors name the file --------------------------------------------------------------------
def test_class14_errors_name_the_file(tmp_path, small_exports):
    files, answer = small_exports
    model = tmp_path / "wrong-label.qubo.json"
    model.write_text(_edit(files, "qubo-json", '"y0[0][1]"', '"y9[0][1]"'))
    line = one_error("decode", model, answer, names=[str(model)])
    assert line.startswith(f"nonoqubo: error: {model}: ") and "'y9[0][1]'" in line
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": [[1, 1], [], [1, 1]], "cols": [[3], [], [1]]}')
    line = one_error("info", bad, "--presolve", names=[str(bad)])
    assert line.startswith(f"nonoqubo: error: {bad}: the puzzle has no solution")


# -- 15. what the destination is ------------------------------------------------------------------
def test_class15_symbolic_link_is_kept_and_its_target_written(tmp_path, run_cli):
    (tmp_path / "real.qubo").write_text("old")
    (tmp_path / "link.qubo").symlink_to("real.qubo")
    status, _, err = run_cli("build", SMALL, "-o", tmp_path / "link.qubo", "-q")
    assert status == 0, err
    assert (tmp_path / "link.qubo").is_symlink()
    assert (tmp_path / "real.qubo").read_text().startswith("c nonoqubo")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.qubo", "real.qubo"]


def test_class15_fifo_and_devices_are_written_through(tmp_path, run_cli):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    status, _, err = run_cli("build", SMALL, "-o", fifo, "-f", "coo", "-q")
    reader.join(30)
    assert status == 0, err
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and got and got[0].startswith(b"# nonoqubo")
    status, _, err = run_cli("build", SMALL, "-o", os.devnull, "-f", "coo", "-q")
    assert status == 0, err
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
    if os.path.exists("/dev/full"):
        assert "cannot write /dev/full: No space left on device" in one_error(
            "build", SMALL, "-o", "/dev/full", "-f", "coo", "-q", names=["/dev/full"])


# -- 16. SIGTERM cleans up; temporary files are recognisable ---------------------------------------
def test_class16_sigterm_removes_the_temporary_file(tmp_path):
    script = (
        "import os, signal, sys\n"
        "from nonoqubo._util.atomic import atomic_write\n"
        "target = sys.argv[1]\n"
        "with atomic_write(target) as fh:\n"
        "    fh.write('partial')\n"
        "    fh.flush()\n"
        "    print(sorted(os.listdir(os.path.dirname(target))), flush=True)\n"
        "    os.kill(os.getpid(), signal.SIGTERM)\n"
        "    signal.pause()\n"
    )
    target = tmp_path / "model.qubo"
    proc = subprocess.run([sys.executable, "-c", script, str(target)], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, proc.stderr
    during = json.loads(proc.stdout.replace("'", '"'))
    assert len(during) == 1 and during[0].startswith("model.qubo.nonoqubo-tmp-")
    assert list(tmp_path.iterdir()) == []


# -- 17. the size guard ----------------------------------------------------------------------------
def test_class17_a_model_too_big_for_memory_is_refused_with_the_estimate(tmp_path, run_cli, monkeypatch):
    from nonoqubo.model import estimate

    monkeypatch.setattr(estimate, "available_memory", lambda: 1_000_000)
    puzzle = tmp_path / "big.json"
    puzzle.write_text(json.dumps({"rows": [[1]] * 60, "cols": [[1]] * 60}))
    status, out, err = run_cli("build", puzzle, "-o", tmp_path / "big.qubo")
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert err.startswith(f"nonoqubo: error: {puzzle}: the 60x60 puzzle's model would have 7,080 variables, "
                          "up to ") and "add --force" in err
    assert not (tmp_path / "big.qubo").exists()
    status, out, err = run_cli("info", puzzle)
    assert status == 2 and "--force" in err
    status, out, err = run_cli("info", puzzle, "--force")
    assert status == 0 and "variables:   7080" in out


def test_class17_estimate_is_exact_in_variables_and_bounds_the_terms():
    from tests.support import shared_puzzles

    from nonoqubo.model.build import build
    from nonoqubo.model.estimate import estimate

    for name, puzzle, _ in shared_puzzles()[:40]:
        qubo, est = build(puzzle), estimate(puzzle)
        assert est.variables == qubo.num_vars, name
        assert qubo.num_terms <= est.terms <= 2 * qubo.num_terms + 64, name


def test_class17_an_absurd_puzzle_is_refused_from_its_clues_alone(tmp_path, run_cli):
    """10^5 rows and columns of [1]: a 1 MB spec whose model has 2 x 10^10 variables."""
    path = tmp_path / "absurd.json"
    path.write_text(json.dumps({"rows": [[1]] * 100_000, "cols": [[1]] * 100_000}))
    status, _, err = run_cli("build", path, "-o", tmp_path / "absurd.qubo")
    assert status == 2 and err.count("\n") == 1
    assert "19,999,800,000 variables" in err and "TB of memory" in err and "--force" in err


def test_class17_the_estimate_counts_the_heaviest_writer(tmp_path, run_cli, monkeypatch):
    """The .ommx and constrained writers hold more than a term list: a model that fits for .coo
    may not fit for .cqm, and the refusal says so before anything is built."""
    from nonoqubo import exports
    from nonoqubo.model import estimate
    from nonoqubo.clues import spec

    puzzle = tmp_path / "big.json"
    puzzle.write_text(json.dumps({"rows": [[1]] * 60, "cols": [[1]] * 60}))
    est = estimate.estimate(spec.loads(puzzle.read_text()))
    between = est.terms * (estimate.BYTES_PER_TERM + exports.get_format("cqm").WRITE_BYTES_PER_TERM) // 2
    monkeypatch.setattr(estimate, "available_memory", lambda: between)
    status, _, err = run_cli("build", puzzle, "-o", tmp_path / "m.coo")
    assert status == 0, err
    status, _, err = run_cli("build", puzzle, "-o", tmp_path / "m.coo", "-o", tmp_path / "m.cqm")
    assert status == 2 and "add --force" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "m.cqm").exists()
    assert estimate.check_fits(spec.loads(puzzle.read_text()), "x", write_bytes_per_term=exports.write_bytes_per_term(["cqm"]), force=True).bytes > between


# -- stop 48's 20,000-case campaign (seed 48): four readers that let an exception escape ----------------
def test_stop48_a_huge_colour_index_in_a_minizinc_answer(tmp_path):
    """A 25-digit value in a dzn or JSON grid was NumPy's OverflowError; now one line, its line named."""
    dzn = tmp_path / "answer.dzn.txt"
    dzn.write_text("grid = [| 0, 1, 0, 1, 0 | 1, 1, 1, 1, 1 | 0, 0, 1, 0, 0 | 1, 0, 0, 0, 1 "
                   "| 0, 1, 1, 1, 10000000000000000000000000 |];\n----------\n")
    assert one_error("decode", SMALL, dzn).endswith("answer.dzn.txt:1: a colour index out of range")


def test_stop48_a_lone_carriage_return_in_a_quoted_csv_row(tmp_path, small_exports):
    files, _ = small_exports
    lines = files["csv"].splitlines(keepends=True)
    at = next(k for k, line in enumerate(lines) if line[:1].isdigit())  # the first term row
    lines[at] = lines[at].replace(",", ',"a",', 1)  # a quoted field: the csv module reads the rows
    lines[at + 1] = lines[at + 1].replace(",", ",\r", 1)  # and a bare CR in an unquoted field of the next
    path = tmp_path / "small.csv"
    path.write_bytes("".join(lines).encode())
    assert "small.csv:" in (line := one_error("info", path)) and "not a CSV row" in line


def test_stop48_an_objective_offset_that_is_not_a_number_in_a_qs_file(tmp_path, small_exports):
    files, _ = small_exports
    path = tmp_path / "small.qs"
    path.write_text(re.sub(r"# ObjectiveOffset \S+", "# ObjectiveOffset 1,0", files["qs"], count=1))
    assert one_error("info", path).endswith("small.qs:1: ObjectiveOffset '1,0' is not a number")


def _cqm_with(data: bytes, old: bytes, new: bytes, after: bytes = b"") -> bytes:
    """*data* with the first *old* after *after* replaced by *new* (same length: offsets stay)."""
    assert len(old) == len(new)
    at = data.index(old, data.index(after) if after else 0)
    return data[:at] + new + data[at + len(old):]


def test_stop48_a_cqm_archive_of_an_unknown_zip_version_or_header(tmp_path, small_exports):
    files, _ = small_exports
    data = files["cqm"]
    central = data.index(b"PK\x01\x02")  # the central directory's first entry: 'version needed' at +6
    versions = {"zip": data[:central + 6] + (108).to_bytes(2, "little") + data[central + 8:],
                "header": _cqm_with(data, b'"num_variables"', b'"num_variablez"')}
    for name, damaged in versions.items():
        path = tmp_path / f"{name}.cqm"
        path.write_bytes(damaged)
        line = one_error("info", path)
        assert line.startswith(f"nonoqubo: error: {path}: cannot read the CQM: "), line
