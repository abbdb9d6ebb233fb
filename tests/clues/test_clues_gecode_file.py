"""Gecode's own ``examples/nonogram.cpp`` (MIT; a copy in tests/data/puzzles/originals/gecode)."""

from __future__ import annotations

import re
import time

import pytest

from tests.support import SHARED, shared_puzzles
from nonoqubo import clues
from nonoqubo.clues import gecode
from nonoqubo.errors import FormatError

CPP = SHARED / "originals" / "gecode" / "nonogram.cpp"
TWINS = {doc["name"]: (puzzle, doc) for _, puzzle, doc in shared_puzzles() if "gecode_spec" in doc}
#: the specs[] table of the file, in order (Gecode's -size N is the position)
TABLE = ["heart", "bear", "crocodile", "unknown", "pinwheel", "difficult", "non_unique", "dragonfly",
         "castle", "p200", "webpbn1", "webpbn6", "webpbn21", "webpbn27", "webpbn23", "webpbn16",
         "webpbn529", "webpbn65", "webpbn436"]


def test_all_19_specs_read_equal_to_their_json_twins():
    text = CPP.read_text()
    found = gecode.specs(text, source=str(CPP))
    assert [s.name for s in found] == TABLE
    assert [s.index for s in found] == list(range(19))
    assert len(TWINS) == 19
    for k, name in enumerate(TABLE):
        twin, doc = TWINS[name.replace("_", "-")] if name.replace("_", "-") in TWINS else TWINS[name]
        by_index = clues.load(CPP, index=k)
        by_name = clues.load(CPP, name=name)
        for p in (by_index, by_name):
            assert p.name == name
            assert (p.rows, p.cols) == (twin.rows, twin.cols), name
        assert gecode.to_array(by_index) == doc["gecode_spec"]


def test_the_file_is_told_by_content_and_extension():
    data = CPP.read_bytes()
    assert clues.format_for(CPP, data).NAME == "gecode"
    assert clues.format_for(None, data).NAME == "gecode"


def test_no_choice_lists_every_spec_with_its_number_and_size():
    with pytest.raises(FormatError) as info:
        clues.load(CPP)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(str(CPP))
    assert "the file holds 19 specs" in msg and "from 0" in msg
    assert "0 heart (9x9)" in msg and "8 castle (60x35)" in msg and "18 webpbn436 (40x35)" in msg


@pytest.mark.parametrize("options,message", [
    ({"index": 19}, "--index 19 is out of range 0..18"),
    ({"index": -1}, "--index -1 is out of range 0..18"),
    ({"name": "dragon"}, "no spec named 'dragon'"),
    ({"index": 1, "name": "castle"}, "--index 1 and --name castle name different specs"),
])
def test_bad_choice_is_one_line(options, message):
    with pytest.raises(FormatError, match=re.escape(message)):
        clues.load(CPP, **options)


def test_specs_without_a_table_count_in_file_order_and_trailing_commas_pass():
    text = ("/* two */\nstatic const int a[] = {1,1, 1,1, 1,1};\n"
            "const int b[3+1] = {0};\nconst int c [ ] =\n{ 2, 1, // w, h\n 0, 1,1,\n 1,1, };\n")
    assert [(s.index, s.name) for s in gecode.specs(text)] == [(0, "a"), (1, "c")]
    assert gecode.loads(text, index=1).cols == ((), (1,))


@pytest.mark.parametrize("text,message", [
    ("const int a[] = {2, 2, 1,1, e, 1,1};", "x.cpp:1:29: a[]: 'e' is not a number"),
    ("const int a[] = {1, 1,\n 1, 1, 1,1", "x.cpp:1:17: the '{' of a[] is never closed"),
    ("/* never closed\n{1,1,1,1,1,1}", "x.cpp:1:1: a '/*' comment is never closed"),
    ("const int a[] = {1,1,1,1,1,1};", None),
])
def test_c_file_errors_are_located(text, message):
    if message is None:
        assert gecode.loads(text, source="x.cpp").name == "a"
        return
    with pytest.raises(FormatError, match=re.escape(message)):
        gecode.loads(text, source="x.cpp")


#: hostile inputs: (repeated unit, prefix, what loads says, what detect says)
HOSTILE = [
    ("/*", "", "fuzz:1:{col}: a '/*' comment is never closed", False),
    ("int ", "", "fuzz:1:1: 'int' is not a number", False),
    ("a[]={", "", "fuzz:1:5: the '{{' of a[] is never closed", False),
    ("1,", "{{", "fuzz:1: the array's '{{' is never closed", True),
    ("x[1]=", "", "fuzz:1:1: 'x' is not a number", False),
    ('"', "", "fuzz:1:1: '\"\"' is not a number", False),
]


def _read_hostile(text: str) -> tuple[str, bool]:
    """What ``loads`` says of *text* (it must refuse it) and what ``detect`` says of its bytes."""
    with pytest.raises(FormatError) as info:
        gecode.loads(text, source="fuzz")
    return str(info.value), gecode.detect(text.encode())


def _seconds(text: str, repeats: int) -> float:
    """The fastest of *repeats* runs of ``_read_hostile``, in this process's CPU seconds.

    CPU time, not wall time, and the minimum: what other processes on a loaded machine spoil least.
    """
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        _read_hostile(text)
        best = min(best, time.process_time() - start)
    return best


@pytest.mark.parametrize("unit, prefix, message, detected", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_scanner_is_linear_on_hostile_input(unit, prefix, message, detected):
    """Ten times the input takes about ten times as long, not a hundred (a quadratic scanner).

    The small input is timed three times and the large one once (again only if
    it looks slow), taking the minimum; the bound, 40 times, leaves a linear
    scanner four times its expected ratio and still catches a quadratic one
    (about 100 times).  Each input must also be refused with its located message.
    """
    small, large = (prefix.format() + unit * count for count in (1_000, 10_000))
    said, found = _read_hostile(large)
    assert said == message.format(col=len(large) - 1) and found is detected
    base = max(_seconds(small, 3), 1e-3)
    ratio = _seconds(large, 1) / base
    if ratio > 40:  # one retry: a neighbour's burst of work, not the scanner
        ratio = _seconds(large, 2) / base
    assert ratio <= 40, f"{unit!r}: 10x the input took {ratio:.0f}x the time"
