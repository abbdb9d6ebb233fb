"""Finding the plug-in modules of a package (formats, sample readers, sub-commands).

Each registry in nonoqubo is a package whose public modules each describe one
thing by module-level names; a new format is a new file, with no list to edit.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable
from types import ModuleType

__all__ = ["submodules"]


def submodules(package: str, path: Iterable[str], *required: str) -> list[ModuleType]:
    """The modules of *package* (found on *path*) that define every name in *required*.

    Modules whose names start with ``_`` are private helpers and are skipped.

    Examples:
        >>> import nonoqubo.exports as e
        >>> "coo" in [m.NAME for m in submodules(e.__name__, e.__path__, "NAME", "dumps")]
        True
    """
    found = []
    for info in pkgutil.iter_modules(path):
        if info.name.startswith("_"):
            continue
        mod = importlib.import_module(f"{package}.{info.name}")
        if all(hasattr(mod, name) for name in required):
            found.append(mod)
    return found
