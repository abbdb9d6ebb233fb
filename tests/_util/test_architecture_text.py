"""ARCHITECTURE.md's calls name real functions with their real parameters (``discover.problems(mod, package)``).

The page wrote ``discover.problems(mod)`` after the function had grown its ``package``; this
test reads every backticked call ``a.b(...)`` in the page whose ``a`` is a module or class of
nonoqubo, and checks that ``b`` exists and takes the parameters named (``...`` and keyword
values aside).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import nonoqubo
from tests.support import ROOT

CALL = re.compile(r"`([A-Za-z_][A-Za-z0-9_.]*)\.([a-z_][a-z0-9_]*)\(([^)`]*)\)`")


def _owners(name: str) -> list[object]:
    """The modules of nonoqubo whose dotted name ends with *name*, and the classes so named in them."""
    found: list[object] = []
    modules = ["nonoqubo", *(m.name for m in pkgutil.walk_packages(nonoqubo.__path__, "nonoqubo."))]
    for module in modules:
        if module.endswith("__main__"):
            continue
        if module == name or module.endswith("." + name):
            found.append(importlib.import_module(module))
    if "." not in name:
        for module in modules:
            if not module.endswith("__main__"):
                obj = getattr(importlib.import_module(module), name, None)
                if inspect.isclass(obj) and obj.__module__.startswith("nonoqubo") and obj not in found:
                    found.append(obj)
    return found


def _calls(text: str) -> list[tuple[str, str, list[str], list[str]]]:
    out = []
    for owner, func, args in CALL.findall(text):
        parts = [a.strip() for a in args.split(",") if a.strip() and a.strip() != "..."]
        positional = [a for a in parts if "=" not in a]
        keywords = [a.split("=")[0].strip() for a in parts if "=" in a]
        out.append((owner, func, positional, keywords))
    return out


def stale_calls(text: str) -> tuple[list[str], int]:
    """What is wrong with the calls of nonoqubo's functions that *text* shows, and how many were checked."""
    checked, bad = 0, []
    for owner, func, positional, keywords in _calls(text):
        owners = _owners(owner)
        if not owners:
            continue  # not one of ours (a library, an example)
        target = next((getattr(o, func) for o in owners if hasattr(o, func)), None)
        if target is None:
            bad.append(f"{owner}.{func}: no such function")
            continue
        params = [p for p in inspect.signature(target).parameters.values() if p.name != "self"]
        required = [p.name for p in params if p.default is p.empty
                    and p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        names = {p.name for p in params}
        if positional and positional != required:
            bad.append(f"{owner}.{func}({', '.join(positional)}): the code takes ({', '.join(required)})")
        bad += [f"{owner}.{func}: no parameter {k}" for k in keywords if k not in names]
        checked += 1
    return bad, checked


def test_the_pages_calls_match_the_code():
    bad, checked = stale_calls((ROOT / "ARCHITECTURE.md").read_text())
    assert not bad, "\n".join(bad)
    assert checked >= 1  # the page shows some of our calls (discover.problems at least), so the test checks something


def test_a_stale_call_is_caught():
    bad, checked = stale_calls("`discover.problems(mod)`, `build.build(colours=...)`, `discover.vanished()`, "
                               "`json.dumps(x)`")
    assert checked == 2
    assert bad == ["discover.problems(mod): the code takes (mod, package)", "build.build: no parameter colours",
                   "discover.vanished: no such function"]
