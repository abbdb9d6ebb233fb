"""Each refused input is named and told for what it is, in one line (issue 24, item 9)."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    from nonoqubo.cli import main

    path = tmp_path_factory.mktemp("model") / "m.qubo"
    assert main(["build", str(LOGO), "-o", str(path), "-q"]) == 0
    return path


def one_error(run_cli, *argv, stdin=None) -> str:
    status, out, err = run_cli(*argv, stdin=stdin)
    assert (status, out) == (2, ""), err
    assert err.startswith("nonoqubo: error: ") and len(err.splitlines()) == 1 and "Traceback" not in err
    return err.strip()[len("nonoqubo: error: "):]


def test_evaluate_names_an_empty_samples_folder_and_a_missing_file(model, tmp_path, run_cli):
    empty = tmp_path / "adir"
    empty.mkdir()
    assert one_error(run_cli, "evaluate", model, empty) == f"{empty}: no sample file in this folder"
    missing = tmp_path / "nope.json"
    assert one_error(run_cli, "evaluate", model, missing) == f"{missing}: no such file or folder"


def test_a_yaml_spec_named_non_is_called_a_yaml_spec(tmp_path, run_cli):
    path = tmp_path / "logo.non"
    shutil.copy(LOGO, path)
    message = one_error(run_cli, "info", path)
    assert message.startswith(f"{path}:") and "YAML clue spec" in message and "pyNonogram" not in message


def test_empty_standard_input_is_said_to_be_empty(run_cli):
    assert one_error(run_cli, "info", "-", stdin="") == "<stdin>: standard input is empty: no clues to read"


def test_an_empty_clue_file_is_said_to_be_empty(tmp_path, run_cli):
    path = tmp_path / "e.non"
    path.write_text("")
    assert one_error(run_cli, "info", path) == f"{path}: the file is empty: no clues to read"


@pytest.mark.parametrize("command", ["build", "check"])
def test_a_model_given_where_a_puzzle_is_expected_is_told_so(command, model, tmp_path, run_cli):
    # (convert takes a model file: it writes the clues the model carries, issue 24 item 11; solve
    # samples a model file as it is, and build --embedding embeds one)
    extra = {"check": [tmp_path / "grid.txt"], "build": ["-o", tmp_path / "x.coo"]}[command]
    (tmp_path / "grid.txt").write_text("#\n")
    message = one_error(run_cli, command, model, *extra)
    assert message == (f"{model}: a model file by its name, not a clue file: '{command}' takes a puzzle; "
                       "'decode', 'info', 'convert', 'solve' and 'embed' read models")
    assert "--from" not in message


def test_a_json_list_of_bit_strings_is_numbered_from_0_and_quoted_short(model, tmp_path, run_cli):
    samples = tmp_path / "bits.json"
    samples.write_text(json.dumps(["0" * 437, "1" * 437]))
    message = one_error(run_cli, "decode", model, samples)
    assert message.startswith(f"{samples}: sample 0, position 0: '") and "(437 characters)" in message
    assert len(message) < 250
