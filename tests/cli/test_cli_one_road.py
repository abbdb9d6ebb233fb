"""One library road per command (issue 29, item 3): ``decode`` and ``build`` call the library once.

``decode`` is :func:`nonoqubo.decoding.decode_samples` (the model opened once, the Decoder built
once, the samples parsed once, standard input through the same path); ``build``'s options are
checked once, in :class:`nonoqubo.pipeline.BuildPlan`, before anything is read; a samples name
that is not a file says "No such file", never "cannot tell the samples format".
"""

from __future__ import annotations

import json
import re

import dimod
import numpy as np
import pytest

from nonoqubo import decoding
from nonoqubo.errors import NonoquboError, UnknownEncoding, UnsupportedFormat
from nonoqubo.model.encoding import Layout
from nonoqubo.model.puzzle import Puzzle
from nonoqubo.pipeline import BuildPlan

PICTURE = "#.##.\n.###.\n#...#\n##.##\n.#.#.\n"


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("NONOQUBO_CACHE", str(tmp_path / "cache"))


@pytest.fixture
def files(tmp_path, run_cli):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    model = tmp_path / "m.qubo.json"
    assert run_cli("build", puzzle, "-o", model)[0] == 0
    return tmp_path, puzzle, model


def _solution(puzzle_path):
    puzzle = Puzzle.from_picture(puzzle_path.read_text().split())
    return Layout.of(puzzle).labels(), Layout.of(puzzle).encode(puzzle.solution_grid())


def _unembedded_sampleset(path, labels, x):
    """A SampleSet as FixedEmbeddingComposite returns it: with its chain_break_fraction column."""
    ss = dimod.SampleSet.from_samples([dict(zip(labels, x.tolist()))] * 2, dimod.BINARY, energy=[0, 0],
                                      chain_break_fraction=[0.0, 0.25])
    ss.info["embedding_context"] = {"chain_strength": 1.5, "embedding": {v: (k,) for k, v in enumerate(labels)}}
    path.write_text(json.dumps(ss.to_serializable()))
    return path


@pytest.mark.parametrize("embedding", [False, True])
def test_a_missing_samples_file_says_no_such_file(files, run_cli, embedding):
    tmp, puzzle, model = files
    emb = tmp / "emb.json"
    if embedding:
        assert run_cli("embed", puzzle, "--topology", "chimera:4", "--embed-seed", "2", "-o", emb)[0] == 0
    status, out, err = run_cli("decode", model, tmp / "missing.json", *(["--embedding", emb] if embedding else []))
    assert status == 2 and out == ""
    assert err.strip() == f"nonoqubo: error: {tmp / 'missing.json'}: No such file or directory"


def test_decode_opens_the_model_and_builds_the_decoder_once_and_parses_the_samples_once(files, run_cli,
                                                                                        monkeypatch):
    tmp, puzzle, model = files
    labels, x = _solution(puzzle)
    samples = _unembedded_sampleset(tmp / "s.json", labels, x)
    counts = {"open": 0, "decoder": 0, "parse": 0}

    def counting(name, real):
        def call(*args, **kwargs):
            counts[name] += 1
            return real(*args, **kwargs)
        return call

    monkeypatch.setattr(decoding, "open_input", counting("open", decoding.open_input))
    monkeypatch.setattr(decoding, "Decoder", counting("decoder", decoding.Decoder))
    monkeypatch.setattr(dimod.SampleSet, "from_serializable", counting("parse", dimod.SampleSet.from_serializable))
    for source in (puzzle, model):
        counts.update(open=0, decoder=0, parse=0)
        status, out, err = run_cli("decode", source, samples, "--json")
        assert status == 0, err
        assert counts == {"open": 1, "decoder": 1, "parse": 1}, (source, counts)
        breaks = json.loads(out)["chain_breaks"]  # read from the same parse as the samples
        assert breaks["per_sample"] == [0.0, 0.25] and breaks["chain_strength"] == 1.5


def test_standard_input_goes_through_the_same_road(files, run_cli):
    tmp, puzzle, model = files
    labels, x = _solution(puzzle)
    samples = _unembedded_sampleset(tmp / "s.json", labels, x)
    from_file = run_cli("decode", model, samples, "--json")
    from_stdin = run_cli("decode", model, "-", "--json", stdin=samples.read_text())
    assert from_file[0] == from_stdin[0] == 0
    a, b = json.loads(from_file[1]), json.loads(from_stdin[1])
    assert b["chain_breaks"] == a["chain_breaks"]  # stdin used to bypass the chain-break column
    assert a == b


def test_the_chain_break_method_is_checked_once_before_anything_is_read(tmp_path):
    with pytest.raises(NonoquboError, match="applies only with --embedding"):
        decoding.decode_samples(tmp_path / "not-read.qubo", tmp_path / "not-read.json", chain_break="discard")
    with pytest.raises(NonoquboError, match="unknown method 'foo'"):
        decoding.decode_samples(tmp_path / "not-read.qubo", tmp_path / "x.json", embedding=tmp_path / "e.json",
                                chain_break="foo")
    assert decoding.check_chain_break(None) == "majority"


def test_decode_samples_is_the_library_entry(files):
    _, puzzle, model = files
    _, x = _solution(puzzle)
    result = decoding.decode_samples(model, [x, 1 - x], which="all")
    assert [r.valid for r in result.reports] == [True, False] and result.best.index == 0
    summary = result.summary()
    assert summary["model"] == str(model) and summary["num_samples"] == 2 and "chain_breaks" not in summary
    best = decoding.decode_samples(puzzle, [1 - x, x])  # which="best": one report, the best one
    assert [r.index for r in best.reports] == [1] and best.best is best.reports[0]


def test_the_weighted_chain_break_is_repeatable_with_a_seed(files, run_cli):
    tmp, _, model = files
    emb = tmp / "emb.json"
    assert run_cli("embed", model, "--topology", "chimera:4", "--embed-seed", "2", "-o", emb)[0] == 0
    chains = json.loads(emb.read_text())["embedding"]
    rng = np.random.default_rng(0)
    samples = tmp / "q.json"
    samples.write_text(json.dumps([{str(q): int(rng.choice([-1, 1])) for c in chains.values() for q in c}
                                   for _ in range(8)]))
    runs = [run_cli("decode", model, samples, "--embedding", emb, "--chain-break", "weighted", "--chain-break-seed", "7",
                    "--all", "--json") for _ in range(2)]
    assert runs[0][0] in (0, 1) and runs[0] == runs[1]
    state = np.random.get_state()[1].copy()
    decoding.decode_samples(model, samples, embedding=emb, chain_break="weighted", seed=3)
    assert np.array_equal(np.random.get_state()[1], state)  # the global generator is put back


# -- build: one plan, every check once, before anything is read ----------------------------------
def test_the_plan_is_made_before_the_input_is_read(tmp_path):
    plan = BuildPlan.make(str(tmp_path / "not-there.non"), [str(tmp_path / "a.qubo"), str(tmp_path / "b.lp")],
                          weights="cell=2")
    assert [mod.NAME for _, mod in plan.targets] == ["qbsolv", "lp"]
    assert plan.encoding == "domain-wall" and plan.weights.as_dict()["cell"] == 2 and plan.variant == "full"
    phys = BuildPlan.make("p.non", [str(tmp_path / "phys.json")], embedding="emb.json")
    assert phys.physical == ((str(tmp_path / "phys.json"), "json"),) and phys.chain_strength == "uniform-torque"
    assert phys.precision == 0.02 and not phys.targets and not phys.reads_model
    assert BuildPlan.make("m.qubo.json", [str(tmp_path / "p.bqm")], embedding="e.json").reads_model


@pytest.mark.parametrize(("outputs", "formats", "options", "error", "message"), [
    (["a.qubo", "b.qubo"], ["qubo", "coo", "bqm"], {}, NonoquboError, "-f was given 3 times for 2 outputs"),
    (["a.qubo", "./a.qubo"], None, {}, NonoquboError, "-o names a.qubo twice: one output would overwrite the other"),
    (["-", "-"], ["coo"], {}, NonoquboError, "standard output is named twice"),
    (["-"], None, {}, UnsupportedFormat, "'-o -' needs a format"),
    (["a.qubo"], None, {"ising": True}, UnsupportedFormat, "cannot carry an Ising model"),
    (["a.lp"], None, {"constrained": True, "encoding": "one-hot"}, NonoquboError, "--constrained writes"),
    (["a.qubo"], None, {"constrained": True}, NonoquboError, "a QUBO format"),
    (["a.qubo"], None, {"encoding": "nope"}, UnknownEncoding, "unknown encoding 'nope'"),
    (["a.qubo"], None, {"chain_strength": "2"}, NonoquboError, "--chain-strength applies only with --embedding"),
    (["p.json"], None, {"embedding": "e.json", "ising": True}, NonoquboError, "--ising does not apply"),
    (["p.json"], None, {"embedding": "e.json", "precision": -1.0}, NonoquboError, "--precision must be"),
    (["p.qubo"], None, {"embedding": "e.json"}, NonoquboError, "p.qubo"),
])
def test_every_build_option_is_checked_by_the_plan(tmp_path, monkeypatch, outputs, formats, options, error, message):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(error, match=re.escape(message)):
        BuildPlan.make("p.non", outputs, formats, **options)


def test_a_model_file_embedded_as_it_is_takes_no_build_options(tmp_path):
    with pytest.raises(NonoquboError, match="a model file is embedded as it is"):
        BuildPlan.make("m.qubo.json", [str(tmp_path / "p.json")], embedding="e.json", presolve=True)



@pytest.mark.parametrize("extra", [["--encoding", "one-hot"], ["--encoding", "automaton"]])
def test_a_zero_one_program_by_extension_is_refused_for_what_it_cannot_hold(files, run_cli, extra):
    """`-o m.lp` (a 0-1 program by its format) is refused for an encoding without one (it was the domain wall's), no file."""
    tmp, puzzle, _ = files
    out = tmp / "m.lp"
    status, _, err = run_cli("build", puzzle, *extra, "-o", out)
    assert status == 2, err
    assert "0-1 program" in err and len(err.strip().splitlines()) == 1
    assert not out.exists()
