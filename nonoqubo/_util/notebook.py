"""Pictures in Jupyter: the ``_repr_svg_`` / ``_repr_html_`` of nonoqubo's objects, drawn by the layer that can.

Jupyter shows an object by calling its ``_repr_svg_`` or ``_repr_html_`` method when it has one.
A :class:`~nonoqubo.model.puzzle.Puzzle` (model layer) and a
:class:`~nonoqubo.logic.check.CheckResult` (logic layer) cannot import the SVG renderer
(:mod:`nonoqubo.answers.render`, a lower layer), and ``evaluate``'s result cannot import the
HTML report (:mod:`nonoqubo.campaign.report_html` imports :mod:`nonoqubo.campaign.evaluate`).  So
the dependency is turned round: each class's method asks :func:`show`, and the renderer's own
module :func:`register` s its drawing for the class when it is imported.  The classes name no
renderer.  ``import nonoqubo`` names :mod:`nonoqubo.answers.render` with :func:`renderers`, a
module :func:`show` imports the first time it finds no drawing (so start-up imports no renderer,
and a notebook's first picture imports it); ``nonoqubo.campaign`` names
:mod:`nonoqubo.campaign.report_html` the same way (neither imports matplotlib until a figure is drawn).

A class with no renderer registered shows its text ``repr`` (:func:`show` returns None, which
Jupyter takes as "no such picture").

Examples:
    >>> class Dot:
    ...     def _repr_svg_(self):
    ...         return show(self, "svg")
    >>> show(Dot(), "svg") is None
    True
    >>> register(Dot, "svg", lambda dot: "<svg/>")
    >>> Dot()._repr_svg_()
    '<svg/>'
    >>> renderers("nonoqubo.answers.render")  # imported by the first show() that finds no drawing
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

__all__ = ["MIMES", "register", "renderers", "show"]

#: the kinds of picture: ``svg`` for ``_repr_svg_``, ``html`` for ``_repr_html_``
MIMES = ("svg", "html")

_RENDERERS: dict[tuple[type, str], Callable[[Any], str | None]] = {}
#: renderer modules named by :func:`renderers` and not imported yet
_PENDING: list[str] = []


def register(cls: type, mime: str, draw: Callable[[Any], str | None]) -> None:
    """Draw the objects of *cls* (and its subclasses) with *draw* when Jupyter asks for *mime*.

    Args:
        cls: the class whose ``_repr_svg_``/``_repr_html_`` calls :func:`show`.
        mime: ``"svg"`` or ``"html"``.
        draw: a function of one object returning the SVG document or the HTML fragment (None: no picture).

    Raises:
        ValueError: *mime* is not one of :data:`MIMES` (a programming error, not a user's).
    """
    if mime not in MIMES:
        raise ValueError(f"mime must be one of {MIMES}, not {mime!r}")
    _RENDERERS[(cls, mime)] = draw


def renderers(*modules: str) -> None:
    """Name *modules* (dotted names) that :func:`register` drawings when imported; :func:`show` imports
    them the first time it finds no drawing for an object, so nothing is imported before a picture is asked."""
    _PENDING.extend(m for m in modules if m not in _PENDING)


def _drawing(obj: Any, mime: str) -> Callable[[Any], str | None] | None:
    for cls in type(obj).__mro__:
        draw = _RENDERERS.get((cls, mime))
        if draw is not None:
            return draw
    return None


def show(obj: Any, mime: str) -> str | None:
    """The picture of *obj* as *mime*, from the renderer registered for its class (or a base), else None.

    When none is registered, the modules named by :func:`renderers` are imported first (once).
    """
    draw = _drawing(obj, mime)
    if draw is None and _PENDING:
        while _PENDING:
            importlib.import_module(_PENDING.pop(0))
        draw = _drawing(obj, mime)
    return None if draw is None else draw(obj)
