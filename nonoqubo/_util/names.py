"""A file's name without its format endings, the one rule for names made from file names.

A *format ending* is a trailing extension made of letters only (``.json``, ``.qubo``, ``.clues``,
``.non``); the name stops at the first one that is not (``.5-s1-0001``, ``.one-hot``, ``.v2``), so a
dot inside a name is kept: a suite member ``random-20x20-d0.5-s1-0001.clues.json`` is named
``random-20x20-d0.5-s1-0001``, not ``random-20x20-d0``.

Examples:
    >>> file_stem("suite/random-20x20-d0.5-s1-0001.clues.json")
    'random-20x20-d0.5-s1-0001'
    >>> file_stem("random-10x10-0.5-s1-0001.one-hot.qubo.json"), file_stem("logo.yaml"), file_stem(".hidden")
    ('random-10x10-0.5-s1-0001.one-hot', 'logo', '.hidden')
"""

from __future__ import annotations

import os

__all__ = ["file_stem"]


def file_stem(path: str | os.PathLike[str]) -> str:
    """*path*'s file name without its format endings (see the module docstring); ``puzzle`` for no name."""
    name = os.path.basename(os.fspath(path).rstrip("/\\")) or "puzzle"
    while (parts := os.path.splitext(name))[1][1:].isalpha() and parts[0]:
        name = parts[0]
    return name
