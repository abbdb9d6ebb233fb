"""ARCHITECTURE.md's rule "every exception is defined in errors.py", checked on the classes themselves.

``tests/test_architecture.py`` reads the source and knows an exception by the *name* of a
base (``...Error``, ``...Exception``, ``...Warning``), so ``class Terminated(SystemExit)``
in ``_util/atomic.py`` passed it.  This test imports every module of the package and asks
Python: a class whose bases resolve to a ``BaseException`` subclass, defined anywhere but
``nonoqubo/errors.py`` (at module level, or in a function or class body), is reported with
its place.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import pkgutil
from pathlib import Path
from types import ModuleType

import nonoqubo

HOME = "nonoqubo.errors"
#: the folder that holds the imported package (places are named relative to it)
TOP = Path(nonoqubo.__file__).resolve().parents[1]


def _modules() -> list[ModuleType]:
    """Every module of nonoqubo, imported (``__main__`` modules, which run the CLI, are read, not run)."""
    names = [m.name for m in pkgutil.walk_packages(nonoqubo.__path__, "nonoqubo.")]
    return [importlib.import_module(name) for name in ["nonoqubo", *names] if not name.endswith("__main__")]


def _resolve(expr: ast.expr, namespace: dict[str, object]) -> object:
    """The object a base expression (``SystemExit``, ``errors.FormatError``) names in *namespace*, else None."""
    try:
        dotted = ast.unparse(expr).split(".")
    except (AttributeError, TypeError):
        return None
    obj = namespace.get(dotted[0], getattr(builtins, dotted[0], None))
    for part in dotted[1:]:
        obj = getattr(obj, part, None)
    return obj


def exceptions_outside_home(source: str, namespace: dict[str, object], where: str) -> list[str]:
    """``where:line: Name(bases)`` for every class in *source* that derives from ``BaseException``.

    A base is resolved in *namespace* (the module's globals, then builtins); a class defined
    at module level is also looked up in *namespace* itself, so a base that only the module's
    import of it makes an exception (an alias, a mixin) is seen too.
    """
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.ClassDef):
            continue
        candidates = [_resolve(b, namespace) for b in node.bases]
        defined = namespace.get(node.name)
        if isinstance(defined, type) and getattr(defined, "__module__", None) == namespace.get("__name__"):
            candidates.append(defined)
        if any(isinstance(c, type) and issubclass(c, BaseException) for c in candidates):
            found.append(f"{where}:{node.lineno}: {node.name}({', '.join(ast.unparse(b) for b in node.bases)})")
    return found


def test_every_exception_class_is_defined_in_errors_py():
    bad = []
    for mod in _modules():
        if mod.__name__ == HOME or mod.__file__ is None:
            continue
        path = Path(mod.__file__)
        bad += exceptions_outside_home(path.read_text(encoding="utf-8"), vars(mod), str(path.resolve().relative_to(TOP)))
    assert not bad, "exception classes outside nonoqubo/errors.py:\n" + "\n".join(bad)


def test_the_check_sees_what_a_name_check_misses():
    """The class that slipped through before, and its cousins: SystemExit, an alias, one inside a function."""
    import signal

    source = ("class Terminated(SystemExit):\n    pass\n"
              "class Stop(Interrupt):\n    pass\n"
              "def f():\n    class Local(KeyboardInterrupt):\n        pass\n"
              "class Plain(object):\n    pass\n"
              "class Handlers(signal.Handlers):\n    pass\n")
    namespace = {"__name__": "nonoqubo.somewhere", "Interrupt": KeyboardInterrupt, "signal": signal}
    found = exceptions_outside_home(source, namespace, "x.py")
    assert found == ["x.py:1: Terminated(SystemExit)", "x.py:3: Stop(Interrupt)", "x.py:6: Local(KeyboardInterrupt)"]


def test_errors_py_holds_terminated_and_names_it():
    from nonoqubo import errors
    from nonoqubo._util import atomic

    assert errors.Terminated.__module__ == HOME and "Terminated" in errors.__all__
    assert issubclass(errors.Terminated, SystemExit)
    assert atomic.Terminated is errors.Terminated  # atomic raises the one class errors.py defines
