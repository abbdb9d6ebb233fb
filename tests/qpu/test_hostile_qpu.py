"""Issue 33: the annealer's readers and options under hostile input, one reproducer per class.

The promise is the one of issue 11 (FUZZING.md): one located line, exit status 1 or 2, no
traceback, no hang, nothing overwritten.  Each test names its class of the issue.  A wrong answer
accepted silently is the worst outcome; class 5's negative count is tested for by name
(:func:`test_a_negative_count_is_never_accepted_as_a_weight`).
"""

from __future__ import annotations

import json
import os

import dimod
import numpy as np
import pytest

from nonoqubo.errors import FormatError, NonoquboError, PhysicalError
from nonoqubo.model.qubo import Qubo
from nonoqubo.qpu import cache as cache_module
from nonoqubo.qpu.embedding import MAX_TRIES, check_search
from nonoqubo.qpu.physical import PHYSICAL_MARK, is_physical
from nonoqubo.qpu.unembed import unembed
from nonoqubo.samples import RawSamples, read_raw

from tests.cli.test_cli_physical import PICTURE, private_cache, road  # noqa: F401 (fixtures)


@pytest.fixture
def qubit_road(road, run_cli):  # noqa: F811 (the fixture imported above)
    """The 5x5 puzzle embedded on chimera:4 (tests/cli/test_cli_physical.py), its model file and the
    solution's qubit spins."""
    tmp_path, puzzle, emb = road
    model = tmp_path / "m.qubo.json"
    assert run_cli("build", puzzle, "-o", model)[0] == 0
    solved = tmp_path / "solution.json"
    assert run_cli("solve", puzzle, "--sampler", "cpsat", "-o", solved)[0] == 0
    values = dict(dimod.SampleSet.from_serializable(json.loads(solved.read_text())).first.sample)
    chains = json.loads(emb.read_text())["embedding"]
    spins = {str(q): 2 * int(values[v]) - 1 for v, c in chains.items() for q in c}
    return tmp_path, puzzle, model, emb, spins


def one_line(status, out, err, *names):
    assert status == 2, (status, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for name in names:
        assert str(name) in lines[0], (name, lines[0])
    return lines[0]


# -- classes 1 and 2: topology sizes -----------------------------------------------------------------
@pytest.mark.parametrize("spec", ["zephyr:15,64", "chimera:64,64,64", "pegasus:" + "9" * 5000])
def test_embed_and_info_refuse_a_huge_topology_at_once(run_cli, tmp_path, spec):
    """Classes 1, 2: embed hung and info aborted on zephyr:15,64; 5,000 digits raised Python's ValueError."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    out = tmp_path / "e.json"
    line = one_line(*run_cli("embed", puzzle, "--topology", spec, "-o", out), "--topology")
    assert not out.exists() and len(line) < 300
    one_line(*run_cli("info", puzzle, "--topology", spec), "--topology")


def test_an_embedding_files_huge_topology_is_refused_naming_the_file(qubit_road, run_cli):
    """Class 1 in an EMB.json's topology spec: build --embedding reads it; the line names the file."""
    tmp, puzzle, model, emb, _ = qubit_road
    doc = json.loads(emb.read_text())
    doc["topology"]["spec"] = "zephyr:15,64"
    emb.write_text(json.dumps(doc))
    phys = tmp / "phys.json"
    line = one_line(*run_cli("build", puzzle, "--embedding", emb, "-o", phys), emb)
    assert "couplers" in line and not phys.exists()


# -- class 3: a QPU file with no coupler ---------------------------------------------------------------
@pytest.mark.parametrize("doc", [
    {"qubits": list(range(40)), "couplers": []},
    {"nodelist": [10**6, 10**6 + 1], "topology": {"type": "pegasus", "shape": [2]}},
    {"nodelist": [0, 1], "topology": {"type": "zephyr", "shape": [15, 64]}},
])
def test_embed_on_a_qpu_file_without_couplers_is_one_line(run_cli, tmp_path, doc):
    """Class 3: minorminer's 'Cannot embed a non-empty source graph into an empty target graph' traceback."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    qpu = tmp_path / "qpu.json"
    qpu.write_text(json.dumps(doc))
    one_line(*run_cli("embed", puzzle, "--topology", qpu, "-o", tmp_path / "e.json", "--timeout", "1"), qpu)


# -- class 4: qubit labels ------------------------------------------------------------------------------
@pytest.mark.parametrize("label", ["²", "٣", str(2**63), "9" * 5000, -1, 2**70])
def test_a_qubit_label_that_is_no_int64_qubit_is_one_line(qubit_road, run_cli, label):
    """Class 4: '²' passes str.isdigit() (int() fails), 2^63 overflows int64; both raised tracebacks."""
    tmp, _, model, emb, spins = qubit_road
    samples = tmp / "q.json"
    text = json.dumps([{**spins, "LABEL": 1}]).replace('"LABEL"', json.dumps(str(label)))
    samples.write_text(text, encoding="utf-8")
    one_line(*run_cli("decode", model, samples, "--embedding", emb), samples)


def test_qubit_labels_in_the_library_are_checked_too():
    q = Qubo.from_terms(["a"], [1])
    for label in ("²", 2**63, "1" * 30, True):
        with pytest.raises(PhysicalError, match="qubit|not a qubit number"):
            unembed(RawSamples(maps=[{0: 1, label: 1}]), {"a": (0,)}, q)


# -- class 5: num_occurrences ------------------------------------------------------------------------------
@pytest.mark.parametrize("counts, words", [
    (["x"], "'x'"), ([1e30], "1e+30"), ([-5], "-5"), ([1, 1, 1], "3 counts but the file has 1 samples"),
    ([True], "True"), (7, "a list of counts"), ([float("inf")], None), ([0.5], "0.5"),
])
def test_counts_of_a_label_map_file_are_checked(tmp_path, counts, words):
    """Class 5: "x" and 1e30 raised tracebacks, a short list an IndexError, a negative count was accepted."""
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"samples": [{"a": 1}], "num_occurrences": counts}))
    with pytest.raises(FormatError) as info:
        read_raw(str(path))
    assert str(path) in str(info.value) and "\n" not in str(info.value)
    if words:
        assert words in str(info.value)


def test_a_negative_count_is_never_accepted_as_a_weight(qubit_road, run_cli):
    """Class 5, the worst outcome: a count of -5 was a weight ('samples -5 p 1.000'); every road refuses it."""
    tmp, _, model, emb, spins = qubit_road
    logical = tmp / "logical.json"
    status, out, _ = run_cli("solve", model, "--sampler", "cpsat", "-o", logical)
    assert status == 0
    best = {v: int(b) for v, b in dimod.SampleSet.from_serializable(json.loads(logical.read_text())).first.sample.items()}
    # the model's variables in a label map, the qubits in a label map, and a dimod SampleSet of qubits
    labelmap = tmp / "neg.json"
    labelmap.write_text(json.dumps({"samples": [best], "num_occurrences": [-5]}))
    one_line(*run_cli("decode", model, labelmap), labelmap, "-5")
    qubits = tmp / "neg-qubits.json"
    qubits.write_text(json.dumps({"samples": [spins, spins], "num_occurrences": [3, -5]}))
    one_line(*run_cli("decode", model, qubits, "--embedding", emb), qubits, "-5")
    sampleset = dimod.SampleSet.from_samples([{int(q): v for q, v in spins.items()}], dimod.SPIN, energy=[0])
    doc = sampleset.to_serializable()
    doc["vectors"]["num_occurrences"]["data"] = [-5]
    sampleset_file = tmp / "neg-sampleset.json"
    sampleset_file.write_text(json.dumps(doc))
    one_line(*run_cli("decode", model, sampleset_file, "--embedding", emb), sampleset_file, "-5")
    # and through the library: unembed checks what an API caller hands it
    q = Qubo.from_terms(["a"], [1])
    with pytest.raises(FormatError, match="-5"):
        unembed(RawSamples(maps=[{0: 1}], num_occurrences=[-5]), {"a": (0,)}, q)


def test_counts_shorter_than_the_samples_with_an_embedding_is_one_line(qubit_road, run_cli):
    """Class 5: a list shorter than the samples was an IndexError with --embedding."""
    tmp, _, model, emb, spins = qubit_road
    samples = tmp / "short.json"
    samples.write_text(json.dumps({"samples": [spins, spins, spins], "num_occurrences": [1]}))
    one_line(*run_cli("decode", model, samples, "--embedding", emb), samples, "1 counts but the file has 3")


def test_whole_counts_still_weigh_the_breaks(qubit_road, run_cli):
    tmp, _, model, emb, spins = qubit_road
    samples = tmp / "ok.json"
    samples.write_text(json.dumps({"samples": [spins], "num_occurrences": [4.0], "energies": [0]}))
    status, out, err = run_cli("decode", model, samples, "--embedding", emb, "--json")
    assert status == 0, err
    assert json.loads(out)["num_valid"] == 1


# -- class 6: seeds ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv, words", [
    (["embed", "--embed-seed", "-1"], "--embed-seed -1"),
    (["embed", "--embed-seed", str(10**20)], "--embed-seed (a number of more than 20 digits)"),
    (["embed", "--tries", "1000000"], f"from 1 to {MAX_TRIES}"),
    (["embed", "--timeout", "inf"], "--timeout inf"),
    (["info", "--embed-seed", "-1"], "--embed-seed -1"),
    (["info", "--embed-seed", str(2**64)], "--embed-seed"),
    (["suite", "--embed-seed", "-1"], "--embed-seed -1"),
    (["suite", "--embed-tries", "1000000"], "--embed-tries 1000000"),
])
def test_search_options_are_checked_before_any_work(run_cli, tmp_path, argv, words):
    """Classes 6, 11: embed --seed -1 or 10^20 were OverflowError tracebacks; --tries 1000000 started."""
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    command, *options = argv
    if command == "embed":
        args = ["embed", puzzle, "--topology", "chimera:4", "-o", tmp_path / "e.json", *options]
    elif command == "info":
        args = ["info", puzzle, "--topology", "chimera:4", *options]
    else:
        args = ["suite", puzzle, "--embed", "chimera:4", "-o", tmp_path / "suite", *options]
    line = one_line(*run_cli(*args), words)
    assert not (tmp_path / "e.json").exists() and not (tmp_path / "suite").exists(), line


def test_the_library_checks_the_search_as_the_command_does():
    with pytest.raises(NonoquboError, match="--seed"):
        check_search(2**32, 1, 1.0)
    from nonoqubo.campaign.suite import run_suite

    with pytest.raises(NonoquboError, match="--embed-seed"):
        run_suite([], "/nonexistent/suite", embed="chimera:1", embed_search=(-1, 1, 1.0, False))


# -- class 10: a large phys.json --------------------------------------------------------------------------------
def test_a_phys_json_over_64_kb_is_recognised(qubit_road, run_cli):
    """Class 10: "kind" was written after h and J, past the 64 KB the check read."""
    tmp, puzzle, model, emb, _ = qubit_road
    phys = tmp / "phys.json"
    assert run_cli("build", puzzle, "--embedding", emb, "-o", phys)[0] == 0
    assert phys.read_bytes().index(PHYSICAL_MARK) < 100  # written first
    doc = json.loads(phys.read_text())
    old_style = tmp / "old-phys.json"  # h and J first, grown past 64 KB with a pad of spaces, the mark last
    old_style.write_text(json.dumps({"h": doc["h"], "J": doc["J"]})[:-1] + " " * 200_000
                         + ', "offset": 0, "nonoqubo": ' + json.dumps(doc["nonoqubo"]) + "}")
    assert old_style.stat().st_size > 1 << 17
    for command in ("decode", "info", "solve"):
        args = [command, old_style] + (["x.txt"] if command == "decode" else [])
        one_line(*run_cli(*args), old_style, "physical problem")


def test_the_mark_is_found_across_reads_and_only_in_a_bqm_header(tmp_path, monkeypatch):
    from nonoqubo.qpu import physical

    monkeypatch.setattr(physical, "_CHUNK", 7)  # the mark straddles many reads
    path = tmp_path / "x.json"
    path.write_text('{"a": 1, "nonoqubo": {"kind": "physical"}}')
    assert is_physical(str(path))
    path.write_text('{"a": 1, "nonoqubo": {"kind": "qubo"}}')
    assert not is_physical(str(path))
    header = b'{"kind": "qubo"}'
    bqm = tmp_path / "x.bqm"  # the mark after the header is data, not the header's metadata
    bqm.write_bytes(b"DIMODBQM\x02\x00" + len(header).to_bytes(4, "little") + header + PHYSICAL_MARK)
    assert not is_physical(str(bqm))
    inside = b'{"nonoqubo": {"kind": "physical"}}'
    bqm.write_bytes(b"DIMODBQM\x02\x00" + len(inside).to_bytes(4, "little") + inside + b"\0" * 100)
    assert is_physical(str(bqm))
    assert not is_physical(str(tmp_path / "missing.json"))


# -- class 11: loop counts ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("family, words", [
    ("10x10:0.5:1000000000000", "above 100,000"),
    ("10x10,12x12:0.5:60000", "120,000"),
    ("10x10:0.5:5:" + "9" * 5000, "seed"),
    ("9" * 5000 + "x3:0.5:1", "too large"),
    ("10x10:0.5:²", "not a non-negative integer"),
])
def test_a_random_family_too_large_is_refused_before_it_starts(run_cli, tmp_path, family, words):
    """Class 11: suite --random 10x10:0.5:1000000000000 started and ran."""
    out = tmp_path / "suite"
    line = one_line(*run_cli("suite", "--random", family, "-o", out), "--random", words)
    assert not out.exists() and len(line) < 300


def test_families_together_are_bounded(run_cli, tmp_path):
    out = tmp_path / "suite"
    one_line(*run_cli("suite", "--random", "4x4:0.5:60000", "--random", "5x5:0.5:60000", "-o", out),
             "120,000 puzzles")
    assert not out.exists()


# -- class 13: the cache key ------------------------------------------------------------------------------------
def test_a_longer_timeout_is_not_answered_from_a_shorter_search(monkeypatch):
    """Class 13: an embedding found with --timeout 2.5 was returned to a request with --timeout 600."""
    from nonoqubo.qpu.topology import parse_topology

    q = Qubo.from_terms(["a", "b", "c"], [0, 0, 0], [(0, 1, 1), (1, 2, 1), (0, 2, 1)])
    topology = parse_topology("chimera:1")
    searches = []
    real = cache_module._embedding.find_embedding

    def counting(*args, **kwargs):
        searches.append(kwargs["timeout"])
        return real(*args, **kwargs)

    monkeypatch.setattr(cache_module._embedding, "find_embedding", counting)
    short = cache_module.embed(q, topology, timeout=2.5)
    again = cache_module.embed(q, topology, timeout=2.5)
    longer = cache_module.embed(q, topology, timeout=600.0)
    assert (short.cached, again.cached, longer.cached) == (False, True, False)
    assert searches == [2.5, 600.0]
    assert short.embedding.figures["timeout"] == 2.5 and longer.embedding.figures["timeout"] == 600.0
    assert os.path.basename(str(short.cache_file)) != os.path.basename(str(longer.cache_file))


def test_the_embed_line_says_which_effort_found_it(run_cli, tmp_path):
    puzzle = tmp_path / "p.txt"
    puzzle.write_text(PICTURE)
    status, out, err = run_cli("embed", puzzle, "--topology", "chimera:4", "--timeout", "30", "-o", tmp_path / "e.json")
    assert status == 0, err
    assert "at most 30 s each" in out
    assert json.loads((tmp_path / "e.json").read_text())["figures"]["timeout"] == 30.0
    assert np.isfinite(json.loads((tmp_path / "e.json").read_text())["figures"]["seconds"])


def test_ragged_qubit_vectors_are_one_line(qubit_road, run_cli):
    """Found by the fuzzer's qubit-samples family: rows of different lengths were NumPy's ValueError."""
    tmp, _, model, emb, spins = qubit_road
    ordered = [spins[q] for q in sorted(spins, key=int)]
    samples = tmp / "ragged.txt"
    samples.write_text(" ".join(map(str, ordered)) + "\n" + " ".join(map(str, ordered[:-3])) + "\n")
    one_line(*run_cli("decode", model, samples, "--embedding", emb), samples, "same length")


# -- class 12: decode --embedding checks the embedding on its topology ------------------------------------------
def _tampered(emb_path, how):
    """EMB.json's document with its chains swapped, one chain broken apart, or another topology named."""
    from nonoqubo.qpu.embedding import check_embedding
    from nonoqubo.qpu.topology import parse_topology

    doc = json.loads(emb_path.read_text())
    chains = doc["embedding"]
    topology = parse_topology("chimera:4")
    used = {q for c in chains.values() for q in c}
    if how == "topology":
        doc["topology"] = {**doc["topology"], "spec": "chimera:2,2,4"}  # qubits 32.. are not on it
        assert any(q >= 32 for q in used)
        return doc
    if how == "disconnected":
        label = next(v for v, c in chains.items() if len(c) >= 2)
        free = next(q for q in sorted(topology.graph.nodes(), reverse=True)
                    if q not in used and not set(topology.graph[q]) & set(chains[label]))
        chains[label] = [chains[label][0], free]
        return doc
    labels = list(chains)
    for a in labels:  # swapped: a pair whose exchange loses a coupler the model needs
        for b in labels:
            if a < b:
                trial = {**chains, a: chains[b], b: chains[a]}
                try:
                    check_embedding({k: tuple(v) for k, v in trial.items()}, "x", topology=topology)
                except NonoquboError:
                    continue
                from nonoqubo.inputs import load_model

                model = load_model(str(emb_path.parent / "m.qubo.json"), need_clues=False)
                try:
                    check_embedding({k: tuple(v) for k, v in trial.items()}, "x", qubo=model, topology=topology)
                except NonoquboError:
                    doc["embedding"] = trial
                    return doc
    raise AssertionError("no swap of two chains loses a coupler")


@pytest.mark.parametrize("how, words", [("swapped", "no coupler"), ("disconnected", "not connected"),
                                        ("topology", "not")])
def test_decode_refuses_an_embedding_that_is_wrong_on_its_topology(qubit_road, run_cli, how, words):
    """Class 12, a wrong answer accepted silently: '0 valid, best energy 6' for an intact correct solution."""
    tmp, puzzle, model, emb, spins = qubit_road
    samples = tmp / "qubits.json"
    samples.write_text(json.dumps(spins))
    status, out, err = run_cli("decode", model, samples, "--embedding", emb)
    assert status == 0 and "1 valid" in out, (out, err)  # the intact solution, through the right embedding
    bad = tmp / f"{how}.emb.json"
    bad.write_text(json.dumps(_tampered(emb, how)))
    for target in (model, puzzle):
        line = one_line(*run_cli("decode", target, samples, "--embedding", bad), bad)
        assert words in line
    # build checks it the same way
    one_line(*run_cli("build", puzzle, "--embedding", bad, "-o", tmp / "phys.json"), bad)


# -- class 7: no command writes over one of its inputs --------------------------------------------------------
def test_no_output_overwrites_an_input(qubit_road, run_cli):
    """Class 7: embed -o over its --topology, build --embedding -o over EMB.json, decode --image over the
    answer file all exited 0 and destroyed the input.  Every command refuses before any work."""
    tmp, puzzle, model, emb, spins = qubit_road
    from nonoqubo.qpu.topology import dwave_networkx

    graph = dwave_networkx().chimera_graph(4)
    qpu = tmp / "qpu.json"
    qpu.write_text(json.dumps({"qubits": sorted(graph.nodes()), "couplers": [list(e) for e in graph.edges()]}))
    on_file = tmp / "on-file.emb.json"
    assert run_cli("embed", puzzle, "--topology", qpu, "-o", on_file, "-q")[0] == 0
    samples = tmp / "qubits.json"
    samples.write_text(json.dumps(spins))
    answer = tmp / "answer.json"
    assert run_cli("solve", puzzle, "--sampler", "cpsat", "-o", answer)[0] == 0
    picture = tmp / "picture.svg"
    picture.write_text("<svg/>")  # an input that happens to end in .svg
    # --image writes .svg only, so an answer file is at risk when its name ends in .svg
    samples_svg, answer_svg = tmp / "qubits.svg", tmp / "answer.svg"
    samples_svg.write_bytes(samples.read_bytes())
    answer_svg.write_bytes(answer.read_bytes())
    cases = [
        (["embed", puzzle, "--topology", qpu, "-o", qpu], qpu),
        (["embed", puzzle, "--topology", f"file:{qpu}", "-o", qpu], qpu),
        (["embed", model, "--topology", "chimera:4", "-o", model], model),
        (["build", puzzle, "--embedding", emb, "-o", emb], emb),
        (["build", puzzle, "--embedding", on_file, "-o", qpu], qpu),
        (["decode", model, samples_svg, "--embedding", emb, "--image", samples_svg], samples_svg),
        (["decode", model, answer_svg, "--image", answer_svg], answer_svg),
        (["solve", puzzle, "--sampler", "mock-dwave", "--embedding", emb, "-o", emb, "--reads", "1"], emb),
        (["solve", puzzle, "--sampler", "mock-dwave", "--topology", qpu, "-o", qpu, "--reads", "1"], qpu),
        (["check", puzzle, picture, "--image", picture], picture),
        (["evaluate", model, answer, "--csv", answer], answer),
    ]
    for argv, victim in cases:
        before = victim.read_bytes()
        status, out, err = run_cli(*argv)
        assert status == 2 and "it is the input file" in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert victim.read_bytes() == before, argv


def test_an_output_over_a_spelling_of_the_input_is_refused(qubit_road, run_cli, monkeypatch):
    tmp, puzzle, model, emb, spins = qubit_road
    monkeypatch.chdir(tmp)
    samples = tmp / "qubits.svg"
    samples.write_text(json.dumps(spins))
    link = tmp / "link.svg"
    link.symlink_to(samples)
    status, _, err = run_cli("decode", model, "./qubits.svg", "--embedding", emb, "--image", "link.svg")
    assert status == 2 and "it is the input file ./qubits.svg" in err
    assert samples.read_text() == json.dumps(spins)
