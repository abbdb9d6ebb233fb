"""The fast writers against slow references: every text format line for line against
a pure-Python formatter, the .bqm file byte for byte against dimod's own ``to_file``,
on random models (hypothesis): negative, zero-free, large coefficients, empty models."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import dimod
import numpy as np
import pytest
from dimod.serialization.fileview import make_header, read_header
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nonoqubo import exports
from nonoqubo.exports import _ascii, _header, _text, bqm
from nonoqubo.model.qubo import Qubo

TEXT_FORMATS = [m.NAME for m in exports.formats("qubo") if not m.BINARY]
ISING_TEXT = [m.NAME for m in exports.formats("qubo") if not m.BINARY and m.ISING]


# -- the reference: one Python f-string per line ------------------------------------------
def _number(num: int, den: int) -> str:
    whole, frac = divmod(abs(num), den)
    tail = {Fraction(0): "", Fraction(1, 4): ".25", Fraction(1, 2): ".5", Fraction(3, 4): ".75"}[Fraction(frac, den)]
    return ("-" if num < 0 else "") + str(whole) + tail


def reference_lines(columns, dens=None, *, sep=" ", end="\n") -> bytes:
    """What format_lines must give, one row at a time in Python."""
    dens = list(dens or [1] * len(columns))
    cells = []
    for col, den in zip(columns, dens):
        if isinstance(col, _ascii.Strings):
            codes = col._codes()
            cells.append([col.texts[k] for k in np.asarray(codes[0 : codes.size]).tolist()])
        else:  # an array, or a lazily built column: its whole slice
            cells.append([_number(int(x), den) for x in np.asarray(col[0 : col.size]).tolist()])
    return "".join(sep.join(row) + end for row in zip(*cells)).encode()


def reference_chunks(columns, dens=None, *, sep=" ", end="\n"):
    n = int(columns[0].size) if len(columns) else 0
    if n:
        yield reference_lines(columns, dens, sep=sep, end=end), n


@pytest.fixture
def slow_path(monkeypatch):
    """Route every writer through the Python reference for the duration of a `with`."""
    import contextlib

    @contextlib.contextmanager
    def use():
        with monkeypatch.context() as m:
            m.setattr(_text, "data_chunks", reference_chunks)
            m.setattr(_text, "format_lines", reference_lines)
            yield

    return use


# -- random models ------------------------------------------------------------------------
coefficients = st.sampled_from(["small", "negative", "zero-free", "large"])


@st.composite
def models(draw) -> Qubo:
    n = draw(st.integers(0, 25))
    kind = draw(coefficients)
    bound = {"small": 9, "negative": 9, "zero-free": 9, "large": 2**40}[kind]
    values = st.integers(-bound, -1 if kind == "negative" else bound)
    if kind == "zero-free":
        values = values.filter(bool)
    linear = draw(st.lists(values, min_size=n, max_size=n))
    pairs = []
    if n > 1:
        raw = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1), values), max_size=60))
        pairs = [(i, j, b) for i, j, b in raw if i != j]
    labels = draw(st.lists(st.text(st.characters(blacklist_categories=("Cs", "Cc")), min_size=1, max_size=6),
                           min_size=n, max_size=n, unique=True)) if draw(st.booleans()) else [f"x{k}" for k in range(n)]
    return Qubo.from_terms(labels, linear, pairs, offset=draw(st.integers(-(2**40), 2**40)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(models())
def test_every_text_writer_gives_what_the_python_reference_gives(slow_path, q):
    fast = {fmt: exports.dumps(q, fmt) for fmt in TEXT_FORMATS}
    fast_ising = {fmt: exports.dumps(q, fmt, ising=True) for fmt in ISING_TEXT}
    with slow_path():
        for fmt in TEXT_FORMATS:
            assert fast[fmt] == exports.dumps(q, fmt), fmt
        for fmt in ISING_TEXT:
            assert fast_ising[fmt] == exports.dumps(q, fmt, ising=True), fmt


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2**62), 2**62), min_size=1, max_size=40), st.sampled_from([1, 2, 4]),
       st.integers(0, 3), st.text(" ,;\t", min_size=1, max_size=2))
def test_format_lines_matches_python_on_narrow_and_wide_ranges(values, den, shrink, sep):
    # shrink > 0 squeezes the values into a small range: the table path; else the row-by-row one
    arr = np.array(values, dtype=np.int64) >> (58 if shrink else 0)
    cols = [arr, np.abs(arr[::-1]), arr]
    dens = [1, 1, den]
    assert _ascii.format_lines(cols, dens, sep=sep) == reference_lines(cols, dens, sep=sep)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=20), min_size=1, max_size=30),
       st.data())
def test_string_columns_of_any_length_and_script(texts, data):
    index = np.array(data.draw(st.lists(st.integers(0, len(texts) - 1), min_size=1, max_size=50)))
    names = _ascii.Strings(texts)
    cols = [index, names.take(index), names.take(index[::-1].copy())]
    assert _ascii.format_lines(cols, sep=",") == reference_lines(cols, sep=",")


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text("ab,é", max_size=30), min_size=1, max_size=12), st.data())
def test_plain_and_or_stores_mix_in_long_rows(texts, data):
    """In rows of 8 bytes or more, the fields that end inside their row take plain stores and the
    others (short texts at a row's end, whose padding runs into the next row) are OR-ed in."""
    rows = data.draw(st.integers(1, 60))
    draw = lambda hi: np.array(data.draw(st.lists(st.integers(0, hi), min_size=rows, max_size=rows)))
    names = _ascii.Strings(texts)
    cols = [draw(10**7) + 10**6, names.take(draw(len(texts) - 1)), draw(12) - 6, names.take(draw(len(texts) - 1))]
    assert _ascii.format_lines(cols, [1, 1, 2, 1], sep=";") == reference_lines(cols, [1, 1, 2, 1], sep=";")


def test_chunks_of_one_row_and_of_many_give_the_same_text():
    rng = np.random.default_rng(3)
    cols = [np.sort(rng.integers(0, 10**6, 5000)), rng.integers(0, 10**6, 5000), rng.integers(-9, 9, 5000)]
    whole = _ascii.format_lines(cols)
    for chunk in (1, 7, 4096):
        for threads in (1, 3):
            parts = _ascii.line_chunks(cols, chunk=chunk, threads=threads)
            assert b"".join(p.tobytes() for p, _ in parts) == whole
    assert whole == reference_lines(cols)


# -- the .bqm file against dimod's to_file ------------------------------------------------
def dimod_bytes(q: Qubo, ising: bool) -> bytes:
    """The old path: dimod builds the BQM and writes it; nonoqubo's metadata goes into the header."""
    linear, row, col, quad, offset, vartype = _header.model_arrays(q, ising)
    model = dimod.BinaryQuadraticModel.from_numpy_vectors(linear, (row, col, quad), offset, vartype,
                                                          variable_order=list(q.labels))
    terms = int(np.count_nonzero(linear)) + int(quad.size)
    meta = _header.describe(q, "bqm", vartype=vartype, offset=offset, labels_listed=True, terms=terms)
    original = model.to_file()
    info = read_header(original, b"DIMODBQM")
    return bytes(make_header(b"DIMODBQM", {**info.data, bqm.META_KEY: meta}, info.version)) + original.read()


@settings(max_examples=40, deadline=None)
@given(models(), st.booleans())
def test_bqm_is_byte_for_byte_what_dimod_writes(q, ising):
    data = bqm.dumps(q, ising=ising)
    assert data == dimod_bytes(q, ising)
    back = dimod.BinaryQuadraticModel.from_file(io.BytesIO(data))
    linear, row, col, quad, offset, vartype = _header.model_arrays(q, ising)
    expect = dimod.BinaryQuadraticModel.from_numpy_vectors(linear, (row, col, quad), offset, vartype,
                                                           variable_order=list(q.labels))
    assert back == expect and list(back.variables) == list(q.labels)


def test_bqm_written_in_many_blocks_is_the_same_file(monkeypatch):
    rng = np.random.default_rng(5)
    n = 300
    pairs = [(int(i), int(j), int(b)) for i, j, b in zip(rng.integers(0, n, 4000), rng.integers(0, n, 4000),
                                                         rng.integers(-5, 6, 4000)) if i != j]
    q = Qubo.from_terms([f"v{k}" for k in range(n)], rng.integers(-3, 4, n).tolist(), pairs, offset=7)
    whole = bqm.dumps(q)
    monkeypatch.setattr(bqm, "BLOCK", 17)
    assert bqm.dumps(q) == whole == dimod_bytes(q, False)


def test_bqm_column_order_is_the_stable_sort():
    rng = np.random.default_rng(1)
    for bound, size in ((5, 20000), (1 << 16, 20000), (1 << 17, 1), (1 << 21, 20000), (3, 0)):
        keys = rng.integers(0, bound, size).astype(np.int32)
        keys[:size // 2] = keys[size - size // 2:][:size // 2]  # repeated columns, so stability shows
        assert np.array_equal(bqm._by_column(keys), np.argsort(keys, kind="stable")), bound
        assert np.array_equal(bqm._counts(keys, bound, piece=777), np.bincount(keys, minlength=bound)), bound


# -- writing: text-mode files, the writer thread ------------------------------------------
@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_files_text_streams_and_dumps_agree(fmt, tmp_path):
    q = Qubo.from_terms(["a", "b", "é,c"], [-1, 0, 3], [(0, 1, 2), (1, 2, -3), (0, 2, 5)], offset=4)
    text = exports.dumps(q, fmt)
    path = tmp_path / f"m.{exports.get_format(fmt).EXTENSIONS[0]}"
    exports.dump(q, path, fmt)
    assert path.read_text(encoding="utf-8") == text
    sink = io.StringIO()
    exports.get_format(fmt).dump(q, sink)
    assert sink.getvalue() == text
    with open(tmp_path / "t.txt", "w", encoding="utf-8") as fh:
        fh.write("before\n")
        exports.get_format(fmt).dump(q, fh)
        fh.write("after\n")
    assert (tmp_path / "t.txt").read_text(encoding="utf-8") == "before\n" + text + "after\n"
    with open(tmp_path / "u.txt", "w", encoding="utf-16") as fh:  # not ASCII-compatible: no shortcut
        exports.get_format(fmt).dump(q, fh)
    assert (tmp_path / "u.txt").read_text(encoding="utf-16") == text


class _FullDisk(io.RawIOBase):
    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        raise OSError(28, "No space left on device")


def test_a_failing_write_reaches_the_caller():
    q = Qubo.from_terms(["a", "b"], [1, 2], [(0, 1, 3)])
    with pytest.raises(OSError, match="No space"):
        exports.get_format("coo").dump(q, _FullDisk())


def test_a_failing_formatter_stops_the_writer():
    sink = io.BytesIO()

    def chunks():
        yield b"first\n", 1
        raise ValueError("formatter broke")

    with pytest.raises(ValueError, match="formatter broke"):
        _text.emit(sink, chunks(), total=2, desc="x")
    assert sink.getvalue() in (b"", b"first\n")


@settings(max_examples=80, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=8), st.sampled_from(["y0[0][0]", "a b", 'q"', "\\", "\x7f", "é"])),
                max_size=6, unique=True))
def test_bqm_vars_section_is_what_json_dumps_gives(labels):
    """The fast join of plain labels and json.dumps agree byte for byte (dimod reads the latter)."""
    import struct

    data = json.dumps(labels).encode("ascii")
    data += b" " * (-(8 + len(data)) % 64)
    assert bqm._vars_section(labels) == b"VARS" + struct.pack("<I", len(data)) + data
