"""Pictures in Jupyter: the ``_repr_svg_`` / ``_repr_html_`` of nonoqubo's objects, drawn by the layer that can.

Jupyter shows an object by calling its ``_repr_svg_`` or ``_repr_html_`` method when it has one.
A :class:`~nonoqubo.model.puzzle.Puzzle` (model layer) and a
:class:`~nonoqubo.logic.check.CheckResult` (logic layer) cannot import the SVG renderer
(:mod:`nonoqubo.answers.render`, a lower layer), and ``evaluate``'s result cannot import the
HTML report (:mod:`nonoqubo.campaign.report_html` imports :mod:`nonoqubo.campaign.evaluate`).  So
the dependency is turned round: each class's method asks :func:`show`, and the renderer's own
module :func:`register` s its drawing for the class when it is imported.  The classes name no
renderer; ``import nonoqubo`` imports :mod:`nonoqubo.answers.render` and ``nonoqubo.campaign``
imports :mod:`nonoqubo.campaign.report_html` (neither imports matplotlib until a figure is drawn).

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
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["MIMES", "register", "show"]

#: the kinds of picture: ``svg`` for ``_repr_svg_``, ``html`` for ``_repr_html_``
MIMES = ("svg", "html")

_RENDERERS: dict[tuple[type, str], Callable[[Any], str | None]] = {}


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


def show(obj: Any, mime: str) -> str | None:
    """The picture of *obj* as *mime*, from the renderer registered for its class (or a base), else None."""
    for cls in type(obj).__mro__:
        draw = _RENDERERS.get((cls, mime))
        if draw is not None:
            return draw(obj)
    return None
