"""The house rules of ARCHITECTURE.md, checked on the source: layers, no cycles, no private reach-ins.

Every import is counted, the ones inside functions too, from the parsed source
(nothing is imported to find them):

* the graph of nonoqubo's modules has no cycle;
* no module takes a ``_private`` name out of another module, and a ``_private``
  module is imported only from its own package (``nonoqubo._util`` and
  ``nonoqubo._version`` serve the whole package); a test may reach the private
  names of the package its folder mirrors (``tests/exports`` -> ``nonoqubo.exports``);
* every exception class lives in ``nonoqubo/errors.py``;
* every module is in exactly one layer of ARCHITECTURE.md's layer table (read from the file: the
  one ordered list of layers), and imports nothing of a layer below its own;
* at most six modules sit flat beside ``__init__``/``__main__``;
* a sub-command of ``nonoqubo/cli`` imports the library and ``cli/_common``, never another sub-command;
* no package binds a name of one of its modules to something else (``nonoqubo.decode`` the
  function would hide a module ``nonoqubo.decode``);
* the page's other checkable statements hold: the CLI helpers and the flat modules its rules name are
  the real ones, the leaves and model rows say what every module of theirs owns, and every module
  path, dotted name, test and docs file it shows backticked exists (a moved module is caught).
"""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from functools import lru_cache
from pathlib import Path

import pytest

from tests.support import ROOT

PACKAGE = ROOT / "nonoqubo"
#: package-wide helpers: private by name (not API), importable from anywhere in nonoqubo
SHARED_PRIVATE = ("nonoqubo._util", "nonoqubo._version")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@lru_cache(maxsize=None)
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _resolve(module: str, is_package: bool, level: int, target: str | None) -> str:
    if level == 0:
        return target or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([target] if target else []))


def _imports(path: Path, module: str) -> list[tuple[str, str | None, int]]:
    """``(module imported, name taken from it or None, line)`` for every import in *path*."""
    tree = ast.parse(path.read_text(), str(path))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.extend((alias.name, None, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _resolve(module, path.name == "__init__.py", node.level, node.module)
            for alias in node.names:
                out.append((source, alias.name, node.lineno))
    return out


def _edges(module: str, path: Path) -> set[str]:
    mods = _modules()
    out = set()
    for source, name, _ in _imports(path, module):
        if not source.startswith("nonoqubo"):
            continue
        target = f"{source}.{name}" if name and f"{source}.{name}" in mods else source
        if target in mods and target != module:
            out.add(target)
    return out


def cycles_of(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles a depth-first walk of *graph* (node -> nodes it points to) meets, each as its path back."""
    state: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                cycles.append(stack[stack.index(n):] + [n])
            elif n not in state:
                visit(n)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)
    return cycles


def test_the_import_graph_has_no_cycle():
    cycles = cycles_of({m: _edges(m, p) for m, p in _modules().items()})
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles[:10])


def _package_of(module: str, is_package: bool) -> str:
    return module if is_package else module.rpartition(".")[0]


def _private_use(importer: str, importer_package: str, source: str, name: str | None) -> str | None:
    """Why this import reaches into something private, or None."""
    mods = _modules()
    if source.startswith(SHARED_PRIVATE) or not source.startswith("nonoqubo"):
        return None
    full = f"{source}.{name}" if name and f"{source}.{name}" in mods else source
    # a private module (any _part of its dotted name) belongs to the package that holds it
    parts = full.split(".")
    for i, part in enumerate(parts):
        if part.startswith("_") and not part.startswith("__"):
            owner = ".".join(parts[:i])
            if not (importer_package == owner or importer_package.startswith(owner + ".")):
                return f"private module {'.'.join(parts[:i + 1])}"
            break
    if name and full == source and name.startswith("_") and not name.startswith("__") and source != importer:
        return f"private name {source}.{name}"
    return None


def test_no_module_reaches_into_another_modules_private_names():
    bad = []
    for module, path in _modules().items():
        package = _package_of(module, path.name == "__init__.py")
        for source, name, line in _imports(path, module):
            why = _private_use(module, package, source, name)
            if why:
                bad.append(f"{path.relative_to(ROOT)}:{line}: {why}")
    assert not bad, "\n".join(bad)


def test_tests_reach_only_into_the_package_they_mirror():
    bad = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        rel = path.relative_to(ROOT / "tests")
        mirrored = "nonoqubo." + ".".join(rel.parts[:-1]) if len(rel.parts) > 1 else "nonoqubo"
        for source, name, line in _imports(path, "tests." + ".".join(rel.with_suffix("").parts)):
            why = _private_use(mirrored, mirrored, source, name)
            if why:
                bad.append(f"tests/{rel}:{line}: {why}")
    assert not bad, "\n".join(bad)


def test_every_exception_lives_in_errors_py():
    bad = []
    for module, path in _modules().items():
        if module == "nonoqubo.errors":
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef):
                bases = [ast.unparse(b) for b in node.bases]
                if any(b.endswith(("Error", "Exception", "Warning")) or b in ("ValueError", "KeyError") for b in bases):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}({', '.join(bases)})")
    assert not bad, "exceptions outside errors.py:\n" + "\n".join(bad)


def test_at_most_six_flat_modules():
    flat = sorted(p.name for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert len(flat) <= 6, flat


def test_cli_commands_import_only_the_library_and_common():
    bad = []
    for path in sorted((PACKAGE / "cli").glob("*.py")):
        module = _module_name(path)
        for target in _edges(module, path):
            helper = target.startswith("nonoqubo.cli._")  # _common and the shared option groups (_qpu_options)
            if target.startswith("nonoqubo.cli") and target != "nonoqubo.cli" and not helper:
                bad.append(f"{path.relative_to(ROOT)} imports {target}")
            if path.name != "__init__.py" and target == "nonoqubo.cli":
                bad.append(f"{path.relative_to(ROOT)} imports nonoqubo.cli")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("package", sorted(m for m, p in _modules().items() if p.name == "__init__.py"))
def test_no_package_hides_one_of_its_modules(package):
    pkg = importlib.import_module(package)
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name == "__main__":
            continue
        sub = importlib.import_module(f"{package}.{info.name}")
        assert getattr(pkg, info.name) is sub, f"{package}.{info.name} is not the module {sub.__name__}"


# -- the layers: one ordered list, ARCHITECTURE.md's table ------------------------------------
ARCHITECTURE = ROOT / "ARCHITECTURE.md"


def _dotted(name: str) -> str:
    """A table entry (```pipeline```, ```clues/```, ```__init__```) as a module name."""
    name = name.rstrip("/")
    return "nonoqubo" if name == "__init__" else f"nonoqubo.{name}"


def layer_table(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """``(layer, module names)`` of every row of the "The layers" table in *text*, top row first."""
    section = text.split("## The layers", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("|")][2:]  # past the header and its rule
    out = []
    for row in rows:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        out.append((cells[0], tuple(_dotted(n) for n in re.findall(r"`([^`]+)`", cells[1]))))
    return out


#: the layers, top (imported by everyone) first: ARCHITECTURE.md's table is the one list
LAYERS = layer_table(ARCHITECTURE.read_text())

def _in(module: str, name: str) -> bool:
    return module == name or (name != "nonoqubo" and module.startswith(name + "."))


def layers_of(module: str, layers: list[tuple[str, tuple[str, ...]]] = LAYERS) -> list[int]:
    """The positions of the rows of *layers* that hold *module* (exactly one for every module)."""
    return [k for k, (_, names) in enumerate(layers) if any(_in(module, n) for n in names)]


def layer_breaks(graph: dict[str, set[str]], layers: list[tuple[str, tuple[str, ...]]] = LAYERS) -> list[str]:
    """Every import of *graph* (module -> modules it imports) from a layer into a lower one."""
    bad = []
    for module in sorted(graph):
        (mine,) = layers_of(module, layers) or (None,)
        for target in sorted(graph[module]):
            (theirs,) = layers_of(target, layers) or (None,)
            if mine is not None and theirs is not None and theirs > mine:
                bad.append(f"{module} ({layers[mine][0]}) imports {target} ({layers[theirs][0]}, a lower layer)")
    return bad


def _graph() -> dict[str, set[str]]:
    return {m: _edges(m, p) for m, p in _modules().items()}


def test_the_layer_table_lists_real_packages_in_one_order():
    names = [n for _, row in LAYERS for n in row]
    assert len(LAYERS) >= 6 and all(row for _, row in LAYERS), LAYERS
    assert len(names) == len(set(names)), "a package is in two rows"
    missing = [n for n in names if n not in _modules()]
    assert not missing, f"ARCHITECTURE.md's layer table names modules that do not exist: {missing}"
    assert LAYERS[0][0] == "leaves" and LAYERS[-1][1][0] == "nonoqubo.cli"


def test_every_module_belongs_to_exactly_one_layer():
    bad = {m: [LAYERS[k][0] for k in layers_of(m)] for m in _modules() if len(layers_of(m)) != 1}
    assert not bad, f"modules in no layer or in several (add them to ARCHITECTURE.md's table): {bad}"


def test_lower_layers_import_nothing_above_them():
    bad = layer_breaks(_graph())
    assert not bad, "\n".join(bad)


def test_the_layer_rule_catches_a_break_introduced_on_purpose(tmp_path):
    """A module of ``answers`` that opens a clue file (the break issue 29 removed), in a temporary file."""
    probe = tmp_path / "_probe.py"
    probe.write_text("def opened(path):\n    from ..clues import load\n    from ..inputs import open_input\n"
                     "    return load(path), open_input(path)\n")
    graph = _graph()
    graph["nonoqubo.answers._probe"] = _edges("nonoqubo.answers._probe", probe)
    bad = layer_breaks(graph)
    assert bad == ["nonoqubo.answers._probe (answers) imports nonoqubo.clues (formats, a lower layer)",
                   "nonoqubo.answers._probe (answers) imports nonoqubo.inputs (inputs, a lower layer)"]


def test_the_layer_rule_catches_a_qpu_module_importing_a_campaign():
    graph = {"nonoqubo.qpu.embedding": {"nonoqubo.campaign.suite"}, "nonoqubo.campaign.suite": {"nonoqubo.qpu"}}
    assert layer_breaks(graph) == ["nonoqubo.qpu.embedding (qpu) imports nonoqubo.campaign.suite (campaign, a "
                                   "lower layer)"]


def test_the_work_layers_have_their_real_order():
    """What was one "work" layer is six rows, in the order they import each other: the QPU road is handed
    models, the pipeline builds them, decoding and the samplers use both, the campaigns everything."""
    names = [row[0] for row in LAYERS]
    work = ["qpu", "inputs", "pipeline", "decoding", "solvers", "campaign"]
    assert [n for n in names if n in work] == work
    assert names.index("formats") < names.index("qpu") and names.index("campaign") < names.index("CLI")


def test_the_layer_rule_catches_the_qpu_pipeline_cycle_issue_40_broke():
    """``qpu.cache`` building a clue file's model through ``pipeline`` (function-level): a break."""
    graph = {"nonoqubo.qpu.cache": {"nonoqubo.pipeline"}, "nonoqubo.pipeline": {"nonoqubo.qpu.physical"}}
    assert layer_breaks(graph) == ["nonoqubo.qpu.cache (qpu) imports nonoqubo.pipeline (pipeline, a lower layer)"]


def _package(module: str) -> str:
    """The package a module counts for: ``nonoqubo.X`` for a module of subpackage ``X`` or a flat module ``X``."""
    return ".".join(module.split(".")[:2])


def package_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles among packages of *graph* (module -> modules it imports), each module counted for its
    package (:func:`_package`); an import within a package is no edge."""
    packages: dict[str, set[str]] = {}
    for module, targets in graph.items():
        mine = _package(module)
        packages.setdefault(mine, set()).update(t for t in map(_package, targets) if t != mine)
    return cycles_of(packages)


def test_no_package_cycle():
    """No two packages import each other, through any chain of modules (the qpu <-> pipeline cycle of old)."""
    graph = {m: e for m, e in _graph().items() if m != "nonoqubo" and not m.startswith("nonoqubo.__")}
    cycles = package_cycles(graph)
    assert not cycles, "package cycles:\n" + "\n".join(" -> ".join(c) for c in cycles[:10])


def test_the_package_cycle_check_finds_one():
    graph = {"nonoqubo.qpu.cache": {"nonoqubo.pipeline"}, "nonoqubo.pipeline": {"nonoqubo.qpu.physical"},
             "nonoqubo.qpu.physical": set()}
    assert package_cycles(graph) == [["nonoqubo.pipeline", "nonoqubo.qpu", "nonoqubo.pipeline"]]


def test_the_table_parser_reads_rows_in_order():
    text = ("## The layers\n\n| layer | package | owns |\n|---|---|---|\n| top | `a`, `b/` | x |\n"
            "| bottom | `__init__` | y |\n\n## Next\n| not | `this` | row |\n")
    assert layer_table(text) == [("top", ("nonoqubo.a", "nonoqubo.b")), ("bottom", ("nonoqubo",))]


# -- the page's other statements that the source can check ----------------------------------------
def _rule(text: str, start: str) -> str:
    """The bullet of "The rules" that begins with *start*, its lines joined."""
    section = text.split("The rules:", 1)[1].split("\n## ", 1)[0]
    bullet = section.split(f"- {start}", 1)[1].split("\n- ", 1)[0]
    return f"{start}{' '.join(bullet.split())}"


def test_the_cli_helpers_the_rules_name_are_the_cli_helpers():
    """The rule "a CLI command imports ... the CLI's private helpers (...)" names every ``cli/_*`` module."""
    rule = _rule(ARCHITECTURE.read_text(), "A CLI command imports")
    named = set(re.findall(r"`cli/(_[a-z_]+)`", rule.split(")", 1)[0]))
    real = {p.stem for p in (PACKAGE / "cli").glob("_*.py") if p.stem != "__init__"}
    assert named == real, f"the rule names {sorted(named)}; cli/ holds {sorted(real)}"


def test_the_flat_modules_the_rules_name_are_the_flat_modules():
    rule = _rule(ARCHITECTURE.read_text(), "At most six modules")
    named = set(re.findall(r"`([a-z_]+)`", rule.split("today", 1)[1]))
    real = {p.stem for p in PACKAGE.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    assert named == real, f"the rule names {sorted(named)}; nonoqubo/ holds {sorted(real)}"


def _row(layer: str) -> str:
    section = ARCHITECTURE.read_text().split("## The layers", 1)[1].split("\n## ", 1)[0]
    return next(line for line in section.splitlines() if line.startswith(f"| {layer} |"))


@pytest.mark.parametrize("layer, folder", [("leaves", "_util"), ("model", "model")])
def test_a_layer_row_that_lists_its_modules_lists_them_all(layer, folder):
    """The leaves and model rows say what each module owns: every module of the folder is named (by its name, or
    by its one class, ``Puzzle`` for ``puzzle``)."""
    named = set(re.findall(r"`([A-Za-z_]+)", _row(layer)))
    modules = {p.stem for p in (PACKAGE / folder).glob("*.py") if p.stem != "__init__"}
    missing = sorted(m for m in modules if m not in named and m.capitalize() not in named)
    assert not missing, f"ARCHITECTURE.md's {layer} row does not say what {missing} own"


#: a backticked path of the package (``solvers/grid``, ``campaign/runner.execute``, ``model/onehot.py``), or a
#: dotted name that starts with one of its packages or flat modules (``qpu.cache.embed``, ``pipeline.logical_model``)
_NAMED = re.compile(r"`((?:_util|model|logic|samples|answers|clues|exports|qpu|solvers|generation|records|campaign|cli)/[A-Za-z_][\w.]*"
                    r"|(?:_util|model|logic|samples|answers|clues|exports|qpu|solvers|generation|records|campaign|cli|pipeline|inputs|"
                    r"decoding|errors)\.[A-Za-z_][\w.]*)")


def stale_names(text: str) -> list[str]:
    """The paths and dotted names of nonoqubo that *text* shows backticked and the package does not have."""
    bad = []
    for name in sorted(set(_NAMED.findall(text))):
        dotted = name.removesuffix(".py").replace("/", ".").rstrip(".")
        parts = dotted.split(".")
        obj: object = importlib.import_module(f"nonoqubo.{parts[0]}")
        where = f"nonoqubo.{parts[0]}"
        for part in parts[1:]:
            if f"{where}.{part}" in _modules():
                where = f"{where}.{part}"
                obj = importlib.import_module(where)
            elif hasattr(obj, part):
                obj = getattr(obj, part)
                where = f"{where}.{part}"
            else:
                bad.append(name)
                break
    return bad


def test_every_module_and_name_the_page_shows_exists():
    assert not stale_names(ARCHITECTURE.read_text())


def test_a_moved_module_is_caught():
    assert stale_names("`solvers/sweep` and `campaign/tournament`, `campaign.runs.recorded_model`; "
                       "`solvers/grid.expand`, `qpu.cache.embed`, `model/onehot.py`") == [
        "campaign.runs.recorded_model", "campaign/tournament", "solvers/sweep"]


def test_every_test_and_docs_file_the_page_names_exists():
    named = set(re.findall(r"`((?:tests|docs)/[\w/.-]+\.(?:py|md))`", ARCHITECTURE.read_text()))
    assert named and not sorted(n for n in named if not (ROOT / n).exists())
