"""Sphinx configuration of nonoqubo's documentation site.

Build it with one command from the repository root (warnings are errors)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Why Sphinx with MyST, autodoc and napoleon (docs/index.md says it to readers too): the API
reference comes from the docstrings, which are Google style (``Args:``, ``Returns:``,
``Examples:``; napoleon reads them, autodoc imports the modules); the pages stay Markdown like the
README and ARCHITECTURE.md, which are included as they are (MyST); and a small local extension
(``docs/_ext/nonoqubo_registry.py``) writes the format tables from the registries at build time.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the working tree's nonoqubo, not an installed copy
sys.path.insert(0, str(HERE / "_ext"))

from nonoqubo import __version__  # noqa: E402

project = "nonoqubo"
author = "nonoqubo developers"
copyright = "nonoqubo developers, MIT licence"
version = release = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "nonoqubo_registry",
    "nonoqubo_campaign",
    "nonoqubo_console",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store"]

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"show-inheritance": False}
# The docstrings name types in their own words (``(S, N)`` arrays, ``Qubo or file``): autodoc's
# cross-references of those are not checked; everything else warns, and warnings fail the build.
nitpicky = False

html_theme = "alabaster"
html_title = f"nonoqubo {release}"
html_static_path = ["_static"]
html_css_files = ["nonoqubo.css"]  # the figures' captions left-aligned
html_theme_options = {"description": "nonogram clues to QUBO files, and solver answers back to checked pictures"}
