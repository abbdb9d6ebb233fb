"""Every command that writes a file words an unwritable path the same way, naming the user's path.

``cannot write PATH: reason``, exit 2, one line, and nothing left behind: never the name of the
internal temporary file.  Tests run as root, so the unwritable places are a path under a regular
file (``file/x``), a missing folder, and ``/proc`` (a folder where no file can be made).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from nonoqubo._util.atomic import TEMP_MARK
from tests.support import ROOT

LOGO = ROOT / "examples" / "qbpp-logo.yaml"


@pytest.fixture(scope="module")
def files(tmp_path_factory) -> dict[str, Path]:
    from nonoqubo.cli import main

    base = tmp_path_factory.mktemp("write")
    model, answers = base / "m.qubo", base / "a.json"
    assert main(["build", str(LOGO), "-o", str(model), "-q"]) == 0
    assert main(["solve", str(LOGO), "--sampler", "sa", "--seed", "1", "--reads", "2",
                 "-o", str(answers)]) in (0, 1)
    return {"model": model, "answers": answers}


def _commands(target: str, files: dict[str, Path]) -> dict[str, list]:
    m, a = files["model"], files["answers"]
    return {
        "build": ["build", LOGO, "-o", f"{target}.qubo", "-q"],
        "convert": ["convert", LOGO, f"{target}.non"],
        "solve -o": ["solve", LOGO, "--sampler", "sa", "--reads", "1", "-o", f"{target}.json"],
        "solve --image": ["solve", LOGO, "--sampler", "sa", "--reads", "1", "--image", f"{target}.svg"],
        "decode --image": ["decode", m, a, "--image", f"{target}.svg"],
        "suite -o": ["suite", LOGO, "-o", target, "-q"],
        "evaluate --csv": ["evaluate", m, a, "--csv", f"{target}.csv", "-q"],
        "evaluate --report": ["evaluate", m, a, "--report", f"{target}.html", "-q"],
    }


COMMANDS = list(_commands("x", {"model": Path(), "answers": Path()}))


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("where", ["under a file", "missing folder"])
def test_an_unwritable_output_is_one_line_naming_it(command, where, files, tmp_path, run_cli):
    if command == "suite -o" and where == "missing folder":
        pytest.skip("suite makes its output folder, parents included (mkdir -p)")
    (tmp_path / "file").write_text("a regular file\n")
    target = str(tmp_path / ("file/x" if where == "under a file" else "no-such-folder/x"))
    argv = _commands(target, files)[command]
    status, _, err = run_cli(*argv)
    name = next(str(a) for a in argv if str(a).startswith(target))
    reason = "Not a directory" if where == "under a file" else "No such file or directory"
    assert status == 2
    assert err == f"nonoqubo: error: cannot write {name}: {reason}\n"
    assert sorted(os.listdir(tmp_path)) == ["file"]


@pytest.mark.skipif(not os.path.isdir("/proc") or os.access("/proc", os.W_OK) and not os.path.ismount("/proc"),
                    reason="needs /proc, a folder where no file can be made")
@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "evaluate --report"])
def test_a_folder_where_no_file_can_be_made_names_the_target_not_a_temporary_file(command, files, run_cli):
    argv = _commands("/proc/nonoqubo-test", files)[command]
    status, _, err = run_cli(*argv)
    name = next(str(a) for a in argv if str(a).startswith("/proc/"))
    assert status == 2, err
    assert err.startswith(f"nonoqubo: error: cannot write {name}: ") and len(err.splitlines()) == 1
    assert TEMP_MARK not in err
