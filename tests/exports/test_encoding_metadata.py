"""The ``encoding`` and ``weights`` metadata of every QUBO file (issue 22): written, read, defaulted, refused.

A file written before the keys existed (the same file with their lines or keys removed) reads
as the domain wall at weights 1; a file naming an unknown encoding or bad weights is one located
error; a one-hot file's title line names its encoding.
"""

from __future__ import annotations

import json
import re

import pytest

from nonoqubo import exports
from nonoqubo.errors import FormatError, UnknownEncoding
from nonoqubo.model.encodings import names
from nonoqubo.model.build import build
from nonoqubo.model.estimate import ModelTooLarge, check_fits, estimate
from tests.support import ROOT, shared_puzzle

TEXT_FORMATS = sorted(m.NAME for m in exports.formats("qubo") if not m.BINARY and m.NAME not in ("qplib",))


@pytest.mark.parametrize("fmt", TEXT_FORMATS)
def test_text_files_name_the_encoding_and_read_without_the_keys_as_domain_wall(fmt):
    heart = shared_puzzle("gecode-heart")
    onehot = build(heart, encoding="one-hot", weights="order=4")
    text = exports.dumps(onehot, fmt)
    if fmt not in ("qubo-json", "bqm-json"):  # the nonoqubo title line (after a format's own first lines)
        assert "nonogram QUBO (one-hot encoding)" in text and "(domain-wall encoding)" not in text
    back = exports.loads(text, fmt)
    assert back.encoding == "one-hot" and tuple(back.weights) == (1, 4, 1)
    # a domain-wall file of before: without the two keys it is still read, as domain-wall at weights 1
    old = exports.dumps(build(heart), fmt)
    if fmt in ("qubo-json", "bqm-json"):
        doc = json.loads(old)
        meta = doc if fmt == "qubo-json" else doc["info"]
        assert meta["encoding"] == "domain-wall" and meta["weights"] == {"shape": 1, "order": 1, "cell": 1}
        del meta["encoding"], meta["weights"]
        old = json.dumps(doc)
    else:
        old = "".join(line for line in old.splitlines(keepends=True)
                      if not re.match(r"^\S{0,2} ?(encoding|weights)=", line))
        assert "encoding=" not in old
    back = exports.loads(old, fmt)
    assert back.encoding == "domain-wall" and back.weights.is_default and back.same_model(build(heart))


@pytest.mark.parametrize("fmt", ["coo", "qubo-json", "qbsolv"])
@pytest.mark.parametrize("bad,says", [('"two-hot"', "metadata 'encoding': unknown encoding 'two-hot'; known: "
                                                   + ", ".join(names())),
                                      ('{"shape":0,"order":1,"cell":1}', "shape=0: a weight is a positive"),
                                      ('{"size":2}', "unknown family 'size'")])
def test_bad_encoding_metadata_is_a_located_error(fmt, bad, says):
    text = exports.dumps(build(shared_puzzle("gecode-heart")), fmt)
    key = "encoding" if bad.startswith('"') else "weights"
    if fmt == "qubo-json":
        doc = json.loads(text)
        doc[key] = json.loads(bad)
        text = json.dumps(doc)
    else:
        text = re.sub(rf"^(\S{{0,2}} ?){key}=.*$", lambda m: f"{m.group(1)}{key}={bad}", text, count=1, flags=re.M)
    with pytest.raises(UnknownEncoding if key == "encoding" else FormatError, match=re.escape(says)) as info:
        exports.loads(text, fmt, source="m")
    assert str(info.value).startswith("m:") and "\n" not in str(info.value)


def test_the_memory_guard_counts_the_one_hot_model_before_building():
    castle = shared_puzzle("gecode-castle")
    dw, oh = estimate(castle), estimate(castle, encoding="one-hot")
    built = build(castle, encoding="one-hot")
    assert (oh.variables, oh.terms) == (built.num_vars, built.num_terms) and oh.terms > dw.terms
    memory = (dw.bytes + oh.bytes) // 2  # enough for the domain wall, not for one-hot
    check_fits(castle, "castle", memory=memory)
    with pytest.raises(ModelTooLarge, match=f"{oh.terms:,} terms"):
        check_fits(castle, "castle", memory=memory, encoding="one-hot")


def test_info_figures_of_one_hot_are_the_built_model(run_cli):
    logo = ROOT / "tests" / "data" / "puzzles" / "json" / "qbpp-logo.json"
    status, out, err = run_cli("info", logo, "--encoding", "one-hot", "--weights", "cell=2", "--json", "--presolve")
    assert status == 0, err
    info = json.loads(out)
    q = build(shared_puzzle("qbpp-logo"), encoding="one-hot", weights="cell=2")
    assert (info["variables"], info["terms"], info["offset"]) == (q.num_vars, q.num_terms, q.offset)
    assert info["row_variables"] + info["column_variables"] == q.num_vars
    assert info["max_degree"] == int(q.degrees().max())
    assert info["encoding"] == "one-hot" and info["weights"] == {"shape": 1, "order": 1, "cell": 2}
    assert info["presolve"]["variables_after_presolve"] == 0  # the logo is line-solvable
