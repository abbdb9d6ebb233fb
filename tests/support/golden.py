"""Every file nonoqubo writes for a fixed set of puzzles, as SHA-256 hashes: the refactoring guard.

The set: the QUBO++ logo, Gecode's castle, a random 40x40 (seed 40), every colour
puzzle of ``tests/data/puzzles/colour`` and two presolved models (castle, logo),
written by the command line as a user would (``build -o`` in every QUBO format, with
``--ising`` where the format carries it, ``--constrained`` in every constrained
format, ``convert`` to every clue format that takes the puzzle).

``python tests/support/golden.py`` rewrites ``tests/data/golden/hashes.json`` from the
current code; ``tests/test_golden.py`` regenerates the files and compares. The
hashes were committed before the "one house" restructuring, so a test that passes
proves the files are byte-identical to the ones written before it.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import sys
import tempfile
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parents[1]
DATA = HERE / "data"
HASHES = DATA / "golden" / "hashes.json"

QUBO_FORMATS = ("qubo-json", "bqm", "bqm-json", "coo", "csv", "qbsolv", "qs", "mqlib", "mtx", "qplib",
                "npz", "ommx")
ISING_FORMATS = ("qubo-json", "bqm", "bqm-json", "coo", "csv")
CONSTRAINED_FORMATS = ("cqm", "lp", "mps", "ommx-constrained")
CLUE_FORMATS = {"spec": "yaml", "gecode": "gecode", "xml": "xml", "non": "non", "nin": "nin", "mk": "mk",
                "g": "g", "cwd": "cwd", "sgt": "sgt", "picture": "picture", "pbm": "pbm", "ppm": "ppm",
                "png": "png"}
EXT = {"qubo-json": "qubo.json", "bqm": "bqm", "bqm-json": "bqm.json", "coo": "coo", "csv": "csv",
       "qbsolv": "qubo", "qs": "qs", "mqlib": "mqlib", "mtx": "mtx", "qplib": "qplib", "npz": "npz",
       "ommx": "ommx", "cqm": "cqm", "lp": "lp", "mps": "mps", "ommx-constrained": "ommx"}


def _cli(*argv: str) -> tuple[int, str, str]:
    from nonoqubo.cli import main

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(a) for a in argv])
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 2
    return status, out.getvalue(), err.getvalue()


def _without_digests(doc: object) -> object:
    if isinstance(doc, dict):
        return {k: _without_digests(v) for k, v in doc.items() if k != "digest"}
    if isinstance(doc, list):
        return [_without_digests(v) for v in doc]
    return doc


def file_hash(path: Path) -> str:
    """SHA-256 of the file; of its members' contents for the archive formats.

    dimod's ``.cqm`` is a zip file and ``.ommx`` an OCI tar archive: both stamp
    the time of writing, and OMMX's builder writes its manifest's annotations in
    hash-map order, so for them the hash covers what a reader sees: every
    member's bytes (JSON documents with sorted keys and without the digests that
    hash them), in a sorted order.
    """
    import tarfile
    import zipfile

    data = path.read_bytes()
    pieces: list[bytes] = []
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as zf:
            pieces = [name.encode() + b"\0" + zf.read(name) for name in sorted(zf.namelist())]
    elif path.suffix == ".ommx":
        with tarfile.open(path) as tf:
            for member in tf.getmembers():
                blob = tf.extractfile(member).read() if member.isfile() else b""
                try:
                    doc = json.loads(blob)
                except ValueError:
                    pieces.append(blob)
                else:
                    pieces.append(json.dumps(_without_digests(doc), sort_keys=True).encode())
    else:
        return hashlib.sha256(data).hexdigest()
    digest = hashlib.sha256()
    for piece in sorted(pieces):
        digest.update(hashlib.sha256(piece).digest())
    return digest.hexdigest()


def _random_picture(path: Path) -> Path:
    rng = np.random.default_rng(40)
    grid = rng.random((40, 40)) < 0.5
    path.write_text("".join("".join("#" if v else "." for v in row) + "\n" for row in grid))
    return path


def puzzles(tmp: Path) -> dict[str, tuple[Path, bool]]:
    """name -> (clue file, whether to write a presolved model too)."""
    out = {
        "logo": (DATA / "puzzles" / "json" / "qbpp-logo.json", True),
        "castle": (DATA / "puzzles" / "json" / "gecode-castle.json", True),
        "random40": (_random_picture(tmp / "random40.picture"), False),
    }
    for path in sorted((DATA / "puzzles" / "colour").glob("*.json")):
        out[path.stem] = (path, False)
    return out


def generate(tmp: Path) -> dict[str, str]:
    """Write every file; ``{relative name: sha256}`` (``"error: ..."`` where the CLI refused)."""
    hashes: dict[str, str] = {}
    for name, (source, presolve) in puzzles(tmp).items():
        jobs: list[tuple[str, list[str]]] = []
        for fmt in QUBO_FORMATS:
            jobs.append((f"{name}.{EXT[fmt]}", ["build", source, "-f", fmt, "-q"]))
            if fmt in ISING_FORMATS:
                jobs.append((f"{name}.ising.{EXT[fmt]}", ["build", source, "-f", fmt, "--ising", "-q"]))
            if presolve:
                jobs.append((f"{name}.presolved.{EXT[fmt]}", ["build", source, "-f", fmt, "--presolve", "-q"]))
        for fmt in CONSTRAINED_FORMATS:
            jobs.append((f"{name}.constrained.{EXT[fmt]}", ["build", source, "-f", fmt, "--constrained", "-q"]))
            if presolve:
                jobs.append((f"{name}.presolved.constrained.{EXT[fmt]}",
                             ["build", source, "-f", fmt, "--constrained", "--presolve", "-q"]))
        for fmt, ext in CLUE_FORMATS.items():
            jobs.append((f"{name}.clues.{ext}", ["convert", source, "--to", fmt]))
        for rel, argv in jobs:
            target = tmp / rel
            if argv[0] == "build":
                argv = [*argv, "-o", str(target)]
            else:
                argv = [argv[0], argv[1], str(target), *argv[2:]]
            status, _, err = _cli(*argv)
            if status == 0 and target.exists():
                hashes[rel] = file_hash(target)
            else:
                hashes[rel] = "error: " + err.strip().replace(str(tmp), "<tmp>")[:200]
        # decode's reports (penalties per term, broken lines) of seeded random samples and,
        # presolved, of the reduced model's samples: the geometry decode shares with the builder
        models = [f"{name}.qubo.json"] + ([f"{name}.presolved.qubo.json"] if presolve else [])
        for model in models:
            n = json.loads((tmp / model).read_text())["num_variables"]
            bits = np.random.default_rng(len(model)).integers(0, 2, (6, n))
            samples = tmp / f"{model}.samples.txt"
            samples.write_text("".join("".join(map(str, row)) + "\n" for row in bits.tolist()))
            status, out, err = _cli("decode", tmp / model, samples, "--all", "--json")
            text = out.replace(str(tmp), "<tmp>")
            hashes[f"{model}.decode.json"] = hashlib.sha256(text.encode()).hexdigest() if out else "error: " + err[:200]
    return hashes


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        hashes = generate(Path(tmp))
    HASHES.parent.mkdir(parents=True, exist_ok=True)
    HASHES.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    written = sum(not v.startswith("error") for v in hashes.values())
    print(f"{HASHES}: {written} files, {len(hashes) - written} refusals", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
